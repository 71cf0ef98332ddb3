"""The operator desk: the room behind the operator menu. It implements :class:`kiosk.shell.operator.OperatorDesk`
(the only thing the operator screen knows of the app): it opens the menu over whatever was on (a game in
progress pauses and goes on when the menu closes; anything else returns to attract mode), and it carries out the
menu's actions (settings written to the config file at once, a board reset, diagnostics, quit, and the system
requests: read-only mode and updates, handed to the root helper through files in the state folder), and it
gathers the table's health for the menu (:meth:`OperatorRoom.health`). What it words for the menu and the
diagnostics screen is in the table's language (``language.default``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kiosk import config as kconfig
from kiosk.appliance import requests
from kiosk.appliance.requests import SystemState
from kiosk.config import Config
from kiosk.engine import GameSpec
from kiosk.health import Health, collect, data_stick_missing
from kiosk.i18n import Translator, translator
from kiosk.pin import PinGuard

if TYPE_CHECKING:
    from kiosk.shell.doors import DeskDoor
    from kiosk.shell.marks import CornerMark

log = logging.getLogger("kiosk.shell.desk")

__all__ = ["OperatorRoom"]


class OperatorRoom:
    """Opens and closes the operator menu and serves it (see :class:`kiosk.shell.operator.OperatorDesk`)."""

    def __init__(self, app: DeskDoor) -> None:
        self.app = app
        self._before: tuple[str, str] | None = None  # (screen, mode) the menu was opened over

    # ---------------------------------------------------------------------------------------------- flow
    def open(self, facing: str) -> None:
        app = self.app
        if app.mode == "operator":
            return
        app.ensure_ready()
        self._before = (app.sm.current, app.mode)
        app.pause_game()
        app.stop_attract()
        app.unprompt()
        app.operator.open(facing)
        app.show("operator", mode="operator")

    def close(self) -> None:
        """Leave the menu: back to the game it interrupted, or attract mode."""
        app = self.app
        before, self._before = self._before, None
        if before is not None and before[1] == "game" and app.session is not None:
            app.hub.note_input()
            app.show(before[0], mode="game")
            app.resume_play()
            return
        app.go_attract()

    # ---------------------------------------------------------------------------------------------- desk
    @property
    def cfg(self) -> Config:
        return self.app.cfg

    @property
    def games(self) -> Mapping[str, GameSpec]:
        return self.app.games

    @property
    def scores(self) -> Any:
        return self.app.scores

    @property
    def pin_guard(self) -> PinGuard:
        return self.app.pin_guard

    @property
    def journal_bytes(self) -> int:
        try:
            return int(self.app.saved_games.journal_bytes())
        except OSError:
            return 0

    def health(self) -> Health:
        """The health snapshot the menu shows (:func:`kiosk.health.collect` over the app's parts)."""
        app = self.app
        session = app.session
        return collect(
            state_dir=app.state_dir,
            scores=app.scores,
            saved_games=app.saved_games,
            journal=session.journal if session is not None else None,
            loaded_config=app.loaded_config,
            pin_guard=app.pin_guard,
            pin_set=app.cfg.operator.pin_set,
            hardware=self.hardware_summary().splitlines(),
        )

    def open_diagnostics(self) -> None:
        screen = self.app.diagnostics  # reading it builds the screen the first time
        screen.language = self.app.cfg.language.default
        screen.status = self.app.hardware.status
        self.app.show("diagnostics")

    @property
    def tr(self) -> Translator:
        """The table's language, which the operator reads."""
        return translator(self.app.cfg.language.default)

    def hardware_summary(self) -> str:
        """The hardware's part of the menu's health panel (the inputs' notes in the operator's language; a reason
        from the hardware layer as it writes it)."""
        hw, tr = self.app.hardware, self.tr
        lines = [tr._("Hardware:")] + [f"  {n}" for n in hw.note_lines(tr)[-4:]]
        status = hw.status
        if status is not None:  # None without the hardware package
            try:
                snap = status.snapshot()
                link = snap.get("link", {})
                state = link.get("state") if isinstance(link, dict) else link
                lines.append("  " + tr._("tap-stick link: {state}").format(state=state))
                if "lost_taps" in snap:
                    lines.append("  " + tr._("lost taps: {n}").format(n=tr.number(snap["lost_taps"])))
            except Exception as exc:
                lines.append("  " + tr._("status unavailable: {error}").format(error=exc))
        lines.append("  " + tr._("keyboard fallback: on (see {guide})").format(guide="docs/kiosk.md"))
        return "\n".join(lines)

    def reset_board(self, key: str) -> int:
        scores = self.app.scores
        if not scores.available:
            return 0
        try:
            return int(scores.reset(key))
        except Exception as exc:
            log.error("could not reset the %s board: %s", key, exc)
            return 0

    def update_config(self, **sections: Any) -> None:
        """Validate and apply changed settings, and write the config file."""
        app = self.app
        app.use_config(app.cfg.replace(**sections))
        if "event" in sections:
            app.restart_events()  # the link follows its settings at once (or stops, unpaired)
        app.sounds.set(volume=app.cfg.sound.volume, muted=app.cfg.sound.muted)
        app.attract_screen.text = app.cfg.attract.text
        if app.config_path is not None:
            try:
                kconfig.save(app.cfg, app.config_path)
            except OSError as exc:
                log.error("could not save the config file %s: %s", app.config_path, exc)
            else:
                if app.loaded_config is not None and app.loaded_config.problems:
                    # the broken file was replaced (and kept aside): the table runs on a file that loads again
                    app.use_config(app.cfg, kconfig.LoadedConfig(app.cfg, "file", (), app.config_path))
                if "event" in sections:
                    app.ask_for_network()  # the root helper reads the saved file: only now
        self.update_marks()

    def event_status(self) -> Mapping[str, Any]:
        return self.app.event_status()

    def corner_mark_on(self, screen: Any) -> CornerMark:
        """The attract screen's corner mark (no operator PIN, settings problems), added to ``screen``."""
        from kiosk.shell.marks import CornerMark  # (the corner mark's widget: built once, after the first frame)

        mark = CornerMark()
        screen.add_widget(mark)
        self.update_marks()
        return mark

    def update_marks(self) -> None:
        """The operator's marks (no data stick, no operator PIN, settings problems: ``kiosk.health``), shown in the
        operator's corner: the attract screen's mark, the corner's call over the bots' games."""
        app = self.app
        problems = app.loaded_config.problems if app.loaded_config is not None else ()
        health = Health(
            pin_set=app.cfg.operator.pin_set,
            config_problems=tuple(problems),
            data_stick_missing=data_stick_missing(app.state_dir),
        )
        app.show_marks(health.marks(translator(app.cfg.language.default)))

    def system_state(self) -> SystemState:
        return requests.system_state(self.app.state_dir)

    def pin_reset_granted(self) -> bool:
        """A PIN reset stick was found by the root helper: the screen may set a new PIN (``requests``)."""
        return requests.pin_reset_granted(self.app.state_dir)  # the helper's grant is in real wall-clock time

    def consume_pin_grant(self) -> None:
        requests.consume_pin_grant(self.app.state_dir)

    def request_system(self, kind: str, on: bool = False) -> None:
        """Write the request file the root helper (kiosk-admin) carries out; it reboots or restarts the kiosk."""
        try:
            if kind == "read-only":
                requests.request_read_only(self.app.state_dir, on)
            elif kind == "update":
                requests.request_update(self.app.state_dir)
            elif kind == "pin-reset":
                requests.request_pin_reset(self.app.state_dir)
            elif kind == "backup":
                requests.request_backup(self.app.state_dir, with_pin=on)
            elif kind == "restore":
                requests.request_restore(self.app.state_dir)
            else:
                raise ValueError(f"unknown system request {kind!r}")
        except OSError as exc:
            log.error("could not hand the %s request to the system: %s", kind, exc)

    @property
    def game_in_progress(self) -> str:
        session = self.app.session
        return session.spec.title if session is not None and not session.attract else ""

    def end_game(self) -> None:
        """The operator ends the game the menu interrupted: saved as abandoned, no results; Close -> attract."""
        self.app.abandon_game("operator")

    def quit_kiosk(self) -> None:
        """The operator's "quit to desktop" (the only way out from the screen)."""
        self.app.quit("operator quit")
