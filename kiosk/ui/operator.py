"""The operator menu: reached by holding a finger in any corner for ``operator.hold_s`` seconds, then a PIN.

The PIN is checked against the hash in the config (``kiosk.config.check_pin``); three wrong PINs return to
attract mode. The menu faces the long side nearest the corner that was held. It shows play counts (today,
the last 7 days, all time, per game) and the hardware status (the full diagnostics screen when the hardware
layer provides one), and sets volume and mute, the attract text, bot levels, idle timeouts; it resets one
game's board (after a confirmation) and quits to the desktop (after a confirmation). Every change is written to
the config file at once.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from typing import Any

from kivy.properties import (
    BooleanProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.screenmanager import Screen

from kiosk.config import BOT_LEVELS, check_pin

__all__ = ["OperatorScreen", "ATTRACT_PRESETS"]

ATTRACT_PRESETS = (
    "Touch to play!",
    "Free games - touch to play!",
    "Sushi games for everyone - touch!",
    "Happy hour: play a game!",
)


class OperatorScreen(Screen):
    app = ObjectProperty(None)  # the KioskApp (config, scores, hardware, quit)
    table = ObjectProperty(None)
    facing = OptionProperty("bottom", options=["bottom", "right", "top", "left"])
    phase = OptionProperty("pin", options=["pin", "menu", "confirm"])
    pin_entry = StringProperty("")
    pin_message = StringProperty("Operator PIN")
    counts_text = StringProperty("")
    hardware_text = StringProperty("")
    volume = NumericProperty(0.7)
    muted = BooleanProperty(False)
    attract_text = StringProperty("")
    bot_level = StringProperty("normal")
    attract_level = StringProperty("easy")
    idle_s = NumericProperty(90)
    still_s = NumericProperty(30)
    board_game = StringProperty("")
    board_title = StringProperty("")
    confirm_text = StringProperty("")
    has_diagnostics = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._wrong = 0
        self._confirm_action: Callable[[], None] | None = None

    # ------------------------------------------------------------------------------------------- PIN
    def open(self, facing: str) -> None:
        self.facing = facing
        self.phase = "pin"
        self.pin_entry = ""
        self.pin_message = "Operator PIN"
        self._wrong = 0

    def digit(self, d: str) -> None:
        if len(self.pin_entry) < 8:
            self.pin_entry += d

    def backspace(self) -> None:
        self.pin_entry = self.pin_entry[:-1]

    def submit_pin(self) -> None:
        if check_pin(self.pin_entry, self.app.cfg.operator.pin_hash):
            self.pin_entry = ""
            self.show_menu()
            return
        self._wrong += 1
        self.pin_entry = ""
        if self._wrong >= 3:
            self.close()
        else:
            self.pin_message = f"Wrong PIN ({3 - self._wrong} tries left)"

    # ------------------------------------------------------------------------------------------- menu
    def show_menu(self) -> None:
        cfg = self.app.cfg
        self.volume = cfg.sound.volume
        self.muted = cfg.sound.muted
        self.attract_text = cfg.attract.text
        self.bot_level = cfg.bots.default_level
        self.attract_level = cfg.attract.bot_level
        self.idle_s = cfg.timeouts.idle_s
        self.still_s = cfg.timeouts.still_playing_s
        games = self.app.all_game_keys()
        if self.board_game not in games and games:
            self.board_game = games[0]
        self._board_title()
        self.has_diagnostics = self.app.diagnostics_available()
        self.refresh()
        self.phase = "menu"

    def refresh(self) -> None:
        self.counts_text = self._counts()
        self.hardware_text = self.app.hardware_summary()

    def _counts(self) -> str:
        scores = self.app.scores
        if scores is None or not getattr(scores, "available", False):
            return "Play counts unavailable: " + str(getattr(scores, "reason", "no storage"))
        today = _dt.date.today()
        week = today - _dt.timedelta(days=6)
        lines = ["Game          today   7 days   all"]
        for key in self.app.all_game_keys():
            days = scores.play_counts(game=key).get(key, {})
            t = days.get(today.isoformat(), 0)
            w = sum(c for d, c in days.items() if d >= week.isoformat())
            lines.append(f"{self.app.game_title(key):<12}  {t:>5}   {w:>6}   {sum(days.values()):>4}")
        return "\n".join(lines)

    def _board_title(self) -> None:
        self.board_title = self.app.game_title(self.board_game) if self.board_game else "-"

    # ------------------------------------------------------------------------------------------- settings
    def change_volume(self, delta: float) -> None:
        self.volume = round(min(1.0, max(0.0, self.volume + delta)), 2)
        self.app.update_config(sound={"volume": self.volume})

    def toggle_mute(self) -> None:
        self.muted = not self.muted
        self.app.update_config(sound={"muted": self.muted})

    def next_attract_text(self) -> None:
        presets = list(ATTRACT_PRESETS)
        i = presets.index(self.attract_text) + 1 if self.attract_text in presets else 0
        self.set_attract_text(presets[i % len(presets)])

    def set_attract_text(self, text: str) -> None:
        text = text.strip()[:60]
        if text:
            self.attract_text = text
            self.app.update_config(attract={"text": text})

    def cycle_level(self, which: str) -> None:
        if which == "bots":
            self.bot_level = BOT_LEVELS[(BOT_LEVELS.index(self.bot_level) + 1) % len(BOT_LEVELS)]
            self.app.update_config(bots={"default_level": self.bot_level})
        else:
            self.attract_level = BOT_LEVELS[(BOT_LEVELS.index(self.attract_level) + 1) % len(BOT_LEVELS)]
            self.app.update_config(attract={"bot_level": self.attract_level})

    def change_timeout(self, which: str, delta: float) -> None:
        if which == "idle":
            self.idle_s = min(900, max(15, self.idle_s + delta))
            self.app.update_config(timeouts={"idle_s": float(self.idle_s)})
        else:
            self.still_s = min(300, max(10, self.still_s + delta))
            self.app.update_config(timeouts={"still_playing_s": float(self.still_s)})

    def next_board(self) -> None:
        games = self.app.all_game_keys()
        if games:
            i = games.index(self.board_game) + 1 if self.board_game in games else 0
            self.board_game = games[i % len(games)]
            self._board_title()

    def ask_reset(self) -> None:
        key = self.board_game
        self._ask(
            f"Really delete every {self.board_title} high score?\nThis cannot be undone.", lambda: self._reset(key)
        )

    def _reset(self, key: str) -> None:
        removed = self.app.reset_board(key)
        self.refresh()
        self.pin_message = f"{self.app.game_title(key)} board reset ({removed} entries removed)"

    def ask_quit(self) -> None:
        self._ask("Quit the kiosk to the desktop?\n(The service restarts it unless stopped.)", self.app.quit_kiosk)

    def _ask(self, text: str, action: Callable[[], None]) -> None:
        self.confirm_text = text
        self._confirm_action = action
        self.phase = "confirm"

    def confirm(self, yes: bool) -> None:
        action, self._confirm_action = self._confirm_action, None
        self.phase = "menu"
        if yes and action is not None:
            action()

    def diagnostics(self) -> None:
        self.app.open_diagnostics()

    def close(self) -> None:
        self.phase = "pin"
        self.pin_entry = ""
        self.app.close_operator()
