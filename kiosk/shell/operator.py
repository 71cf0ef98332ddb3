"""The operator menu: reached by holding a finger in any corner for ``operator.hold_s`` seconds, then a PIN.

The PIN pad is :class:`kiosk.shell.pinpad.PinPad`: the PIN is checked off the UI thread against the hash in the
config, wrong PINs cost growing delays and then a lockout (:class:`kiosk.pin.PinGuard`, shared by the app, so
closing and reopening the pad buys nothing).

**A PIN only the owner can set.** Without a PIN (a try-out, an install before ``kiosk --set-pin``, a table whose
settings were lost) the corner gesture never offers to set one, since the first guest to hold a corner would then
own the menu: it says how the owner sets one (the installer, ``sudo kiosk --set-pin``, or a PIN reset stick)
and offers **Check USB stick**, which asks the root helper to look for the reset file on a USB stick
(``kiosk.appliance.requests``). Only while the helper's grant is valid does the pad ask for a new PIN (typed
twice; setting it uses the grant up); then the pad asks for it to open the menu. A forgotten PIN takes the same
way (**Forgot the PIN?** under the pad).

Every page speaks the table's language (``language.default``; :class:`kiosk.ui.speaks.Speaks`), which the menu
sets with the languages a seat may choose (:class:`LanguageSettings`). Rationale and decisions:
docs/developer/design.md, section ``kiosk/shell/operator.py``.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from kivy.clock import Clock
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.screenmanager import Screen
from kivy.uix.vkeyboard import VKeyboard

from kiosk import clock
from kiosk.appliance.requests import PIN_RESET_FILE, SystemState
from kiosk.config import BOT_LEVELS, Config, ConfigError
from kiosk.engine import GameSpec
from kiosk.health import Health
from kiosk.i18n import N_
from kiosk.pin import PinGuard
from kiosk.shell.attractscreen import CALLS
from kiosk.shell.operatorlang import LanguageSettings
from kiosk.shell.pinpad import PinPad  # noqa: F401  (registers the class for layouts/operator.kv)
from kiosk.ui.speaks import Speaks

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

    @property
    def pin_guard(self) -> PinGuard:
        """Wrong-PIN delays, lockout and log (``kiosk.pin``), shared by every opening of the pad."""
        ...

    @property
    def journal_bytes(self) -> int:
        """What the game journals take on the card (the games in progress and the archive)."""
        ...

    def health(self) -> Health:
        """The health snapshot (``kiosk.health``): storage, journal, files aside, card, settings, PIN, hardware
        (its hardware lines in the table's language)."""
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

    def system_state(self) -> SystemState:
        """Read-only mode, the root helper and its last outcome (``kiosk.appliance.requests.system_state``)."""
        ...

    def request_system(self, kind: str, on: bool = False) -> None:
        """Hand ``"read-only"`` (``on``), ``"update"`` (from a USB stick), ``"backup"`` (``on``: with the PIN),
        ``"restore"`` or ``"pin-reset"`` (look for the reset file on a USB stick) to the root helper."""
        ...

    def pin_reset_granted(self) -> bool:
        """The root helper found the PIN reset file: the screen may set a new PIN now."""
        ...

    def consume_pin_grant(self) -> None:
        """A new PIN was set: the reset grant is used up."""
        ...

    @property
    def game_in_progress(self) -> str:
        """The title of the game the menu interrupted ("" when none)."""
        ...

    def end_game(self) -> None:
        """End the interrupted game without results (saved as abandoned); closing the menu then goes to attract."""
        ...

    def event_status(self) -> Mapping[str, Any]:
        """The event link: ``state`` (off, connecting, online, offline), ``error`` and ``waiting`` (the outbox)."""
        ...

    def close(self) -> None:
        """Leave the menu (back to the game it interrupted, or attract mode)."""
        ...


ATTRACT_PRESETS = CALLS  # the presets the attract call says in every enabled language
MAX_ATTRACT_TEXT = 60
#: The event settings typed on the keyboard: their page title (translated where shown) and longest text.
EVENT_FIELDS: dict[str, tuple[str, int]] = {
    "broker": (N_("Event broker (host name or address)"), 253),
    "port": (N_("Broker port"), 5),
    "event": (N_("Event name (a-z, 0-9, dashes)"), 40),
    "table": (N_("This table's name (a-z, 0-9, dashes)"), 40),
    "user": (N_("Broker user"), 64),
    "password": (N_("Broker password"), 128),
    "ca_file": (N_("CA certificate file (for TLS)"), 4096),
}
#: What a refused setting must be (the config file's checks, kiosk/config/validate.py), by its key, for the operator.
SETTING_RULES: dict[str, str] = {
    "event.broker": N_("must be a host name or address"),
    "event.port": N_("must be a whole number from 1 to 65535"),
    "event.event": N_("lower-case letters, digits and dashes only (at most 40)"),
    "event.table": N_("lower-case letters, digits and dashes only (at most 40)"),
    "event.user": N_("at most 64 characters"),
    "event.password": N_("at most 128 characters"),
    "event.ca_file": N_("at most 4096 characters"),
    "language.default": N_("must be one of the five languages"),
    "language.enabled": N_("must include the table's language"),
}
#: The event link's states in words (``kiosk.events``).
LINK_STATES: dict[str, str] = {
    "off": N_("not paired"),
    "connecting": N_("connecting..."),
    "online": N_("online"),
    "offline": N_("offline"),
    # an installed table's sandbox, not open to the broker yet (kiosk.appliance.eventnet): asked, or refused
    "network-pending": N_("restarting to reach the broker..."),
    "network-closed": N_("network closed"),
}

#: How long the no-PIN page waits for the root helper's answer to "Check USB stick" (seconds).
RESET_WAIT_S = 30.0


class _Keyboard(VKeyboard):
    """Kivy's on-screen keyboard. Kivy 2.3 draws a disabled one with ``key_background_disabled_normal``, which
    it never defines (the menu disables it whenever another part shows): defined here, with the normal look."""

    key_background_disabled_normal = StringProperty("atlas://data/images/defaulttheme/vkeyboard_key_normal")


class OperatorScreen(Speaks, LanguageSettings, Screen):
    desk = ObjectProperty(None)  # an OperatorDesk
    table = ObjectProperty(None)
    facing = OptionProperty("bottom", options=["bottom", "right", "top", "left"])
    phase = OptionProperty("pin", options=["pin", "menu", "confirm", "text", "nopin", "event"])
    pin_message = StringProperty("")  #: the menu's status line (a board reset, a PIN changed)
    counts_text = StringProperty("")
    #: the play counts as four columns (game, today, 7 days, all): aligned in any face, CJK too
    counts_columns = ListProperty(["", "", "", ""])
    health_text = StringProperty("")
    volume = NumericProperty(0.7)
    muted = BooleanProperty(False)
    attract_text = StringProperty("")
    text_draft = StringProperty("")  #: the attract text being typed on the on-screen keyboard
    bot_level = StringProperty("normal")
    attract_level = StringProperty("easy")
    #: the day's best replayed in attract mode and "Watch again" after a game (``attract.replays``)
    replays = BooleanProperty(True)
    idle_s = NumericProperty(90)
    still_s = NumericProperty(30)
    board_game = StringProperty("")
    board_title = StringProperty("")
    confirm_text = StringProperty("")
    system_text = StringProperty("")
    system_ready = BooleanProperty(False)  # the root helper is installed and idle
    read_only = BooleanProperty(False)
    #: The no-PIN / forgotten-PIN page: its heading, and the USB stick check's progress.
    nopin_title = StringProperty("")
    nopin_text = StringProperty("")
    reset_status = StringProperty("")
    reset_busy = BooleanProperty(False)
    #: The interrupted game's title ("" when none): "End the current game" shows only then.
    game_title = StringProperty("")
    #: The on-screen keyboard's page: which setting is typed (``attract`` or an event field), its title, its limit.
    text_field = StringProperty("attract")
    text_title = StringProperty("Attract text")
    text_limit = NumericProperty(MAX_ATTRACT_TEXT)
    #: The event page: the settings as shown (the password only as set or not), the link's state in words.
    event_on = BooleanProperty(False)
    event_tls = BooleanProperty(False)
    #: the rows' values: broker (host:port), event, table, user / password set or not
    event_rows = ListProperty(["-", "-", "-", "-"])
    event_state = StringProperty("off")
    event_message = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._confirm_action: Callable[[], None] | None = None
        self._changing_pin = False
        self._visit_failures: tuple[Any, ...] = ()
        self._vkeyboard: Any = None
        self._reset_poll: Any = None
        self._reset_asked = 0.0
        self._seen_status: Any = None
        self._event_ev: Any = None
        pad = self.ids.pinpad
        pad.bind(on_success=self._pin_ok, on_new_pin=self._new_pin, on_cancel=self._pin_cancel)

    # ------------------------------------------------------------------------------------------- PIN
    def open(self, facing: str) -> None:
        self.facing = facing
        self._speak()
        self.phase = "pin"
        self._changing_pin = False
        self._stop_reset_poll()
        pad = self.ids.pinpad
        pad.guard = self.desk.pin_guard
        if self.desk.pin_reset_granted():
            self._new_pin_after_reset()
        elif self.desk.cfg.operator.pin_set:
            pad.start("check", self.desk.cfg.operator.pin_hash)
        else:
            self._show_nopin(self.tr._("No operator PIN is set"))

    def _speak(self) -> None:
        """Every page, the PIN pad too, in the table's language (``language.default``)."""
        self.language = self.desk.cfg.language.default
        self.ids.pinpad.language = self.language

    def speak_again(self) -> None:
        """A new table language, chosen in the menu: the menu speaks it at once."""
        self._speak()
        self.refresh()
        self.refresh_event()

    def _show_nopin(self, title: str) -> None:
        """Say how the owner sets the PIN; never offer to set one here (see the module docstring)."""
        self.nopin_title = title
        self.nopin_text = self.tr._(
            "Only the table's owner sets the operator PIN:\n"
            "- from a shell on the Pi (SSH): {command}, or the installer;\n"
            "- or with a PIN reset stick: a USB stick with a file named {file} in its top folder. "
            "Plug it into the table, then touch {button}.\n"
            "Step by step: {guide}"
        ).format(
            command="sudo /opt/sushi-kiosk/current/bin/kiosk --set-pin",
            file=PIN_RESET_FILE,
            button=self.tr._("Check USB stick"),
            guide="docs/owner/pin.md",
        )
        self.reset_status = ""
        self.reset_busy = False
        self.ids.pinpad.stop()
        self.phase = "nopin"

    def forgot_pin(self) -> None:
        """From the PIN pad: the forgotten-PIN page (the same ways back in as without a PIN)."""
        self._show_nopin(self.tr._("Forgot the operator PIN?"))

    def check_usb(self) -> None:
        """Ask the root helper to look for the PIN reset file; the page follows its answer."""
        if not self.desk.system_state().helper:
            self.reset_status = self.tr._(
                "This computer was not set up by the installer: there is no helper to read a USB stick. "
                "Set the PIN in a terminal: {command}."
            ).format(command="kiosk --set-pin")
            return
        self._seen_status = self.desk.system_state().last.get("when")
        self.desk.request_system("pin-reset")
        self.reset_busy = True
        self._reset_asked = clock.now()
        self.reset_status = self.tr._("Looking for {file} on the USB stick...").format(file=PIN_RESET_FILE)
        self._stop_reset_poll()
        self._reset_poll = Clock.schedule_interval(self._poll_reset, 0.5)

    def _poll_reset(self, _dt: float) -> bool | None:
        if self.phase != "nopin":
            self._reset_poll = None
            return False
        if self.desk.pin_reset_granted():
            self._reset_poll = None
            self.reset_busy = False
            self._new_pin_after_reset()
            return False
        state = self.desk.system_state()
        last = state.last
        # the helper wrote an outcome since the request (compared as written: its clock is not the screen's)
        answered = "pin-reset" not in state.pending and last.get("kind") == "pin-reset"
        answered = answered and last.get("when") != self._seen_status
        if answered:
            self.reset_status = str(last.get("message", ""))
        elif clock.now() - self._reset_asked > RESET_WAIT_S:
            self.reset_status = self.tr._(
                "No answer from the system: restart the table and try again, or use the console."
            )
        else:
            return None
        self.reset_busy = False
        self._reset_poll = None
        return False

    def _stop_reset_poll(self) -> None:
        if self._reset_poll is not None:
            self._reset_poll.cancel()
            self._reset_poll = None

    def _new_pin_after_reset(self) -> None:
        self.phase = "pin"
        message = self.tr._("PIN reset stick found. New operator PIN (4 to 8 digits)")
        self.ids.pinpad.start("setup", message=message)

    def on_leave(self, *_a: Any) -> None:
        self._stop_reset_poll()

    def _pin_ok(self, _pad: Any) -> None:
        self.show_menu()

    def _new_pin(self, pad: Any, pin_hash: str) -> None:
        self.desk.update_config(operator={"pin_hash": pin_hash})
        self.desk.pin_guard.reset()
        self.desk.consume_pin_grant()
        if self._changing_pin:
            self._changing_pin = False
            self.pin_message = self.tr._("Operator PIN changed")
            self.phase = "menu"
            self.refresh()
        else:  # a PIN set after a reset: the set-up alone never opens the menu
            pad.start("check", pin_hash, self.tr._("PIN saved. Type it to open the menu"))

    def _pin_cancel(self, _pad: Any) -> None:
        if self._changing_pin:
            self._changing_pin = False
            self.phase = "menu"
        else:
            self.close()

    def change_pin(self) -> None:
        self._changing_pin = True
        self.phase = "pin"
        self.ids.pinpad.start("setup", message=self.tr._("New operator PIN (4 to 8 digits)"))

    # ------------------------------------------------------------------------------------------- menu
    def show_menu(self) -> None:
        cfg = self.desk.cfg
        self._speak()
        self.default_language = cfg.language.default
        self.seat_languages = list(cfg.language.enabled)
        self.volume = cfg.sound.volume
        self.muted = cfg.sound.muted
        self.attract_text = cfg.attract.text
        self.bot_level = cfg.bots.default_level
        self.attract_level = cfg.attract.bot_level
        self.replays = cfg.attract.replays
        self.idle_s = cfg.timeouts.idle_s
        self.still_s = cfg.timeouts.still_playing_s
        games = list(self.desk.games)
        if self.board_game not in games and games:
            self.board_game = games[0]
        self._board_title()
        self.pin_message = ""
        # The wrong PINs since the last visit are shown for this whole visit, then count as seen.
        self._visit_failures = tuple(self.desk.pin_guard.failures_since_menu())
        self.desk.pin_guard.menu_opened()
        self.game_title = self.desk.game_in_progress
        self.refresh()
        self.refresh_event()
        self.phase = "menu"

    def refresh(self) -> None:
        self.counts_text = self._counts()
        health = dataclasses.replace(self.desk.health(), pin_failures=self._visit_failures)
        size = self.tr.number(round(self.desk.journal_bytes / 2**20, 1), "0.0")  # the last line: the journals' room
        self.health_text = "\n".join([*health.lines(self.tr), self.tr._("Journals: {size} MB").format(size=size)])
        state = self.desk.system_state()
        self.system_text = state.text(self.tr)
        self.read_only = state.read_only
        self.system_ready = state.helper and not state.pending

    def _counts(self) -> str:
        """The play counts per game (today, the last 7 days, all), as columns (``counts_columns``) and as text."""
        scores, tr = self.desk.scores, self.tr
        if not scores.available:
            self.counts_columns = ["", "", "", ""]
            return tr._("Play counts unavailable: {reason}").format(reason=scores.reason)
        today = _dt.date.today()
        week = today - _dt.timedelta(days=6)
        rows = [[tr._("Game"), tr._("today"), tr._("7 days"), tr._("all")]]
        for key in list(self.desk.games):
            days = scores.play_counts(game=key).get(key, {})
            t = days.get(today.isoformat(), 0)
            w = sum(c for d, c in days.items() if d >= week.isoformat())
            rows.append([self._title(key), tr.number(t), tr.number(w), tr.number(sum(days.values()))])
        self.counts_columns = ["\n".join(column) for column in zip(*rows, strict=True)]
        return "\n".join("   ".join(row) for row in rows)

    def _title(self, key: str) -> str:
        spec = self.desk.games.get(key)
        return spec.title if spec is not None else key

    def _board_title(self) -> None:
        self.board_title = self._title(self.board_game) if self.board_game else "-"

    # ------------------------------------------------------------------------------------------- attract text
    def edit_attract_text(self) -> None:
        """Type a new attract text on Kivy's on-screen keyboard (it turns with the menu)."""
        self.edit_text("attract")

    def edit_text(self, field: str) -> None:
        """Type ``field`` (``attract``, or an event setting: ``broker``, ``port``, ``event``...) on the keyboard."""
        self.text_field = field
        spec = EVENT_FIELDS.get(field)
        title, self.text_limit = spec if spec is not None else (N_("Attract text"), MAX_ATTRACT_TEXT)
        self.text_title = self.tr._(title)
        self.text_draft = self.attract_text if spec is None else str(getattr(self.desk.cfg.event, field) or "")
        if field == "password":
            self.text_draft = ""  # never shown again once set
        self.phase = "text"  # first: a keyboard added to a disabled parent fails to lay out its keys
        holder = self.ids.vkb_holder
        if self._vkeyboard is None:
            vk = _Keyboard(do_translation=False, do_rotation=False, do_scale=False, docked=False)
            # On SDL2 windows Kivy sends characters as on_textinput and only the special keys as on_key_down.
            vk.bind(on_key_down=self._vkey, on_textinput=lambda _vk, text: self.type_text(text))
            holder.bind(size=self._fit_vkeyboard, pos=self._fit_vkeyboard)
            self._vkeyboard = vk
        if self._vkeyboard.parent is None:
            holder.add_widget(self._vkeyboard)
        self._fit_vkeyboard()

    def on_phase(self, _screen: Any, phase: str) -> None:
        # the event page follows the link while it shows (its state, the games waiting)
        if phase == "event" and self._event_ev is None:
            self._event_ev = Clock.schedule_interval(self.refresh_event, 1.0)
        elif phase not in ("event", "text") and self._event_ev is not None:
            self._event_ev.cancel()
            self._event_ev = None
        # The keyboard leaves with its part of the menu: hidden, it would still take the touches over its area.
        vk = self._vkeyboard
        if phase != "text" and vk is not None and vk.parent is not None:
            vk.parent.remove_widget(vk)

    def _fit_vkeyboard(self, *_a: Any) -> None:
        vk, holder = self._vkeyboard, self.ids.vkb_holder
        if vk is None:
            return
        # Kivy lays the keys out on its own 700 x 200 surface and is scaled to fit (as its docked mode does).
        vk.do_translation = vk.do_rotation = vk.do_scale = False
        vk.size = (700, 200)
        if holder.width > 0 and holder.height > 0:
            vk.scale = min(holder.width / 700.0, holder.height / 200.0)
            vk.center = holder.center

    def _vkey(self, _vk: Any, keycode: Any, text: str | None, _modifiers: Any) -> None:
        if keycode == "backspace":
            self.text_draft = self.text_draft[:-1]
        elif keycode == "enter":
            self.text_ok()
        elif keycode == "escape":
            self.text_cancel()
        elif keycode == "spacebar":
            self.type_text(" ")
        elif text and keycode not in ("shift", "capslock", "layout", "special", "tab"):
            self.type_text(text)

    def type_text(self, text: str) -> None:
        self.text_draft = (self.text_draft + text)[: int(self.text_limit)]

    def text_ok(self) -> None:
        if self.text_field == "attract":
            self.phase = "menu"
            self.set_attract_text(self.text_draft)
        else:
            self.set_event(self.text_field, self.text_draft.strip())
            self.phase = "event"

    def text_cancel(self) -> None:
        self.phase = "menu" if self.text_field == "attract" else "event"

    # ------------------------------------------------------------------------------------------- event
    def show_event(self) -> None:
        """The event page: pair the table with an event's broker (see :mod:`kiosk.events`)."""
        self.event_message = ""
        self.refresh_event()
        self.phase = "event"

    def refresh_event(self, *_a: Any) -> None:
        ev, tr = self.desk.cfg.event, self.tr
        self.event_on, self.event_tls = ev.enabled, ev.tls
        password = tr._("password set") if ev.password else tr._("no password")
        self.event_rows = [
            f"{ev.broker or '-'}:{ev.port}",
            ev.event or "-",
            ev.table or "-",
            f"{ev.user or '-'} / {password}",
        ]
        st = self.desk.event_status()
        state = str(st["state"])
        waiting = int(st["waiting"])
        self.event_state = tr.ngettext("{state}, {n} game waiting", "{state}, {n} games waiting", waiting).format(
            state=tr._(LINK_STATES[state]) if state in LINK_STATES else state, n=tr.number(waiting)
        )
        if st["error"]:
            self.event_state += f" ({str(st['error'])[:60]})"

    def set_event(self, field: str, value: Any) -> None:
        """Change one event setting (checked as the config file is; a refusal is shown, nothing changes)."""
        if field == "port":
            value = int(value) if str(value).isdigit() else value
        try:
            self.desk.update_config(event={field: value})
            self.event_message = ""
        except ConfigError as exc:
            self.event_message = self.refusal(exc)
        self.refresh_event()

    def pair(self, on: bool) -> None:
        self.set_event("enabled", on)

    def refusal(self, exc: ConfigError) -> str:
        """A refused setting in the menu's language: each problem's key (as in the config file) and what it must be
        (the config's own English words for a problem the menu has no words for)."""
        tr, out = self.tr, []
        for problem in exc.problems:
            key, _colon, why = problem.partition(": ")
            if "must be set when" in why:
                why = tr._("must be set before pairing")
            elif key in SETTING_RULES:
                why = tr._(SETTING_RULES[key])
            out.append(tr._("{setting}: {problem}").format(setting=key, problem=why))
        return "; ".join(out)[:160]

    # ------------------------------------------------------------------------------------------- settings
    def change_volume(self, delta: float) -> None:
        self.volume = round(min(1.0, max(0.0, self.volume + delta)), 2)
        self.desk.update_config(sound={"volume": self.volume})

    def toggle_mute(self) -> None:
        self.muted = not self.muted
        self.desk.update_config(sound={"muted": self.muted})

    def toggle_replays(self) -> None:
        self.replays = not self.replays
        self.desk.update_config(attract={"replays": self.replays})

    def shown_call(self, text: str, tr: Any) -> str:
        """The attract text as the menu shows it: a preset in the menu's language, the operator's own as written."""
        return str(tr.gettext(text)) if text in ATTRACT_PRESETS else text

    def next_attract_text(self) -> None:
        presets = list(ATTRACT_PRESETS)
        i = presets.index(self.attract_text) + 1 if self.attract_text in presets else 0
        self.set_attract_text(presets[i % len(presets)])

    def set_attract_text(self, text: str) -> None:
        text = "".join(ch for ch in text if ch.isprintable()).strip()[:MAX_ATTRACT_TEXT]
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
        question = self.tr._("Really delete every {game} high score?\nThis cannot be undone.")
        self._ask(question.format(game=self.board_title), lambda: self._reset(key))

    def _reset(self, key: str) -> None:
        removed = self.desk.reset_board(key)
        self.refresh()
        done = self.tr.ngettext(
            "{game} board reset ({n} entry removed)", "{game} board reset ({n} entries removed)", removed
        )
        self.pin_message = done.format(game=self._title(key), n=self.tr.number(removed))

    def ask_end_game(self) -> None:
        if self.game_title:
            question = self.tr._("End the {game} game now?\nNo scores are saved for it.")
            self._ask(question.format(game=self.game_title), self._end_game)

    def _end_game(self) -> None:
        self.desk.end_game()
        self.game_title = ""

    def ask_quit(self) -> None:
        self._ask(
            self.tr._("Quit the kiosk to the desktop?\n(The service restarts it unless stopped.)"), self.desk.quit_kiosk
        )

    def ask_read_only(self) -> None:
        on = not self.read_only
        question = (
            self.tr._("Turn read-only mode back on?\nThe table restarts, protected against power cuts.")
            if on
            else self.tr._("Turn read-only mode off for maintenance?\nThe table restarts; turn it back on when done.")
        )
        self._ask(question, lambda: self._system("read-only", on))

    def ask_update(self) -> None:
        self._ask(
            self.tr._(
                "Install the newest update from the USB stick?\nThe table restarts on it (or goes back to this "
                "version if it does not start)."
            ),
            lambda: self._system("update"),
        )

    def ask_backup(self) -> None:
        self._ask(
            self.tr._(
                "Back up the scores, statistics and settings to the USB stick?\nOne file, checked after writing "
                "(without the PIN)."
            ),
            lambda: self._system("backup"),
        )

    def ask_restore(self) -> None:
        self._ask(
            self.tr._(
                "Restore the scores, statistics and settings from the newest backup on the USB stick?\nThey "
                "replace the table's own; the table restarts. A damaged file changes nothing."
            ),
            lambda: self._system("restore"),
        )

    def _system(self, kind: str, on: bool = False) -> None:
        self.desk.request_system(kind, on)
        self.refresh()

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
        self._stop_reset_poll()
        self.ids.pinpad.stop()
        self.phase = "pin"
        self.desk.close()
