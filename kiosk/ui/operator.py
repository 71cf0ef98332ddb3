# mypy: allow-subclassing-any
"""The operator menu: reached by holding a finger in any corner for ``operator.hold_s`` seconds, then a PIN.

The PIN is checked against the hash in the config (``kiosk.config.check_pin``); three wrong PINs return to
attract mode. The menu faces the long side nearest the corner that was held. It shows play counts (today,
the last 7 days, all time, per game) and the hardware status (the full diagnostics screen when the hardware
layer provides one), and sets volume and mute, the attract text, bot levels, idle timeouts; it resets one
game's board (after a confirmation) and quits to the desktop (after a confirmation). Every change is written to
the config file at once.

The screen knows nothing of the app: it talks to an :class:`OperatorDesk` (the shell's operator room
implements it), so it can be built and tested against any object with those few members.

Adding to the menu
------------------
* **An entry** (a button or a setting row): a method on :class:`OperatorScreen` doing the work (through
  ``self.desk``), and the button in ``operator.kv``'s menu column calling it (``on_release: root.my_entry()``).
  A change of settings goes through ``desk.update_config(section={...})``, which validates, applies and saves.
  An action that cannot be undone asks first: ``self._ask(question, action)`` shows the confirmation phase.
* **A section** that needs more of the app than the desk offers: a member on :class:`OperatorDesk` (the
  protocol below) and the same member on the shell's operator room (``kiosk/shell/desk.py``); mypy checks that
  the room still implements the protocol where the screen is built. A section with its own page is a phase:
  add its name to ``phase``'s options and a layout in ``operator.kv`` shown while ``root.phase`` is that name.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from kivy.properties import (
    BooleanProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.screenmanager import Screen

from kiosk.config import BOT_LEVELS, Config, check_pin
from kiosk.engine import GameSpec

__all__ = ["ATTRACT_PRESETS", "OperatorDesk", "OperatorScreen"]


class OperatorDesk(Protocol):
    """What the operator screen needs from the app."""

    @property
    def cfg(self) -> Config: ...

    @property
    def games(self) -> Mapping[str, GameSpec]:
        """The registered games (for play counts and board resets), in picker order."""
        ...

    @property
    def scores(self) -> Any:
        """``kiosk.storage.HighScores`` (or its unavailable stand-in)."""
        ...

    def hardware_summary(self) -> str: ...

    def open_diagnostics(self) -> None: ...

    def reset_board(self, key: str) -> int:
        """Delete one game's board; the number of entries removed (0 when storage is unavailable)."""
        ...

    def update_config(self, **sections: Any) -> None:
        """Validate, apply and save changed settings (``sound={"volume": 0.5}``)."""
        ...

    def quit_kiosk(self) -> None: ...

    def close(self) -> None:
        """Leave the menu (back to the game it interrupted, or attract mode)."""
        ...


ATTRACT_PRESETS = (
    "Touch to play!",
    "Free games - touch to play!",
    "Sushi games for everyone - touch!",
    "Happy hour: play a game!",
)


class OperatorScreen(Screen):
    desk = ObjectProperty(None)  # an OperatorDesk
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
        if check_pin(self.pin_entry, self.desk.cfg.operator.pin_hash):
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
        cfg = self.desk.cfg
        self.volume = cfg.sound.volume
        self.muted = cfg.sound.muted
        self.attract_text = cfg.attract.text
        self.bot_level = cfg.bots.default_level
        self.attract_level = cfg.attract.bot_level
        self.idle_s = cfg.timeouts.idle_s
        self.still_s = cfg.timeouts.still_playing_s
        games = list(self.desk.games)
        if self.board_game not in games and games:
            self.board_game = games[0]
        self._board_title()
        self.refresh()
        self.phase = "menu"

    def refresh(self) -> None:
        self.counts_text = self._counts()
        self.hardware_text = self.desk.hardware_summary()

    def _counts(self) -> str:
        scores = self.desk.scores
        if not scores.available:
            return "Play counts unavailable: " + str(scores.reason)
        today = _dt.date.today()
        week = today - _dt.timedelta(days=6)
        lines = ["Game          today   7 days   all"]
        for key in list(self.desk.games):
            days = scores.play_counts(game=key).get(key, {})
            t = days.get(today.isoformat(), 0)
            w = sum(c for d, c in days.items() if d >= week.isoformat())
            lines.append(f"{self._title(key):<12}  {t:>5}   {w:>6}   {sum(days.values()):>4}")
        return "\n".join(lines)

    def _title(self, key: str) -> str:
        spec = self.desk.games.get(key)
        return spec.title if spec is not None else key

    def _board_title(self) -> None:
        self.board_title = self._title(self.board_game) if self.board_game else "-"

    # ------------------------------------------------------------------------------------------- settings
    def change_volume(self, delta: float) -> None:
        self.volume = round(min(1.0, max(0.0, self.volume + delta)), 2)
        self.desk.update_config(sound={"volume": self.volume})

    def toggle_mute(self) -> None:
        self.muted = not self.muted
        self.desk.update_config(sound={"muted": self.muted})

    def next_attract_text(self) -> None:
        presets = list(ATTRACT_PRESETS)
        i = presets.index(self.attract_text) + 1 if self.attract_text in presets else 0
        self.set_attract_text(presets[i % len(presets)])

    def set_attract_text(self, text: str) -> None:
        text = text.strip()[:60]
        if text:
            self.attract_text = text
            self.desk.update_config(attract={"text": text})

    def cycle_level(self, which: str) -> None:
        if which == "bots":
            self.bot_level = BOT_LEVELS[(BOT_LEVELS.index(self.bot_level) + 1) % len(BOT_LEVELS)]
            self.desk.update_config(bots={"default_level": self.bot_level})
        else:
            self.attract_level = BOT_LEVELS[(BOT_LEVELS.index(self.attract_level) + 1) % len(BOT_LEVELS)]
            self.desk.update_config(attract={"bot_level": self.attract_level})

    def change_timeout(self, which: str, delta: float) -> None:
        if which == "idle":
            self.idle_s = min(900, max(15, self.idle_s + delta))
            self.desk.update_config(timeouts={"idle_s": float(self.idle_s)})
        else:
            self.still_s = min(300, max(10, self.still_s + delta))
            self.desk.update_config(timeouts={"still_playing_s": float(self.still_s)})

    def next_board(self) -> None:
        games = list(self.desk.games)
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
        removed = self.desk.reset_board(key)
        self.refresh()
        self.pin_message = f"{self._title(key)} board reset ({removed} entries removed)"

    def ask_quit(self) -> None:
        self._ask("Quit the kiosk to the desktop?\n(The service restarts it unless stopped.)", self.desk.quit_kiosk)

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
        self.desk.open_diagnostics()

    def close(self) -> None:
        self.phase = "pin"
        self.pin_entry = ""
        self.desk.close()
