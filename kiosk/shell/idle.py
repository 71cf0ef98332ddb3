"""Idle watching: ``timeouts.idle_s`` without human input during a game asks "Still playing?" at every seat with a
human player (any of them answers)
(every private tray closes, the bots pause); ``timeouts.still_playing_s`` later the game is saved (its journal
closed as abandoned) and attract mode returns. In the menus and the operator menu, ``timeouts.menu_idle_s``
without a touch returns to attract mode.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock, ClockEvent

from kiosk import clock

if TYPE_CHECKING:
    from kiosk.shell.doors import IdleDoor

log = logging.getLogger("kiosk.shell.idle")

__all__ = ["IdleWatch"]


class IdleWatch:
    """Looks at the input hub's last human input four times a second; :attr:`prompting` while it asks."""

    def __init__(self, app: IdleDoor) -> None:
        self.app = app
        self.prompting = False
        self._ev: ClockEvent | None = None

    def start(self) -> None:
        self._ev = Clock.schedule_interval(self._tick, 0.25)

    def stop(self) -> None:
        if self._ev is not None:
            self._ev.cancel()

    def _tick(self, _dt: float) -> None:
        app = self.app
        idle = clock.now() - app.hub.last_input
        t = app.cfg.timeouts
        if app.mode == "game":
            session = app.session
            if session is not None and session.state.is_over():
                # the last move landed (perhaps under the question): the results are on their way, nothing to ask
                # and nothing to abandon (a finished game abandoned here lost its scores)
                self.unprompt()
                return
            if idle >= t.idle_s + t.still_playing_s:
                log.info("nobody answered 'Still playing?': game saved and abandoned")
                app.abandon_game("idle")
                app.go_attract()
            elif idle >= t.idle_s:
                if not self.prompting:
                    self._prompt()
                app.overlay.seconds_left = max(0, int(t.idle_s + t.still_playing_s - idle + 0.999))
            elif self.prompting:
                self.unprompt()
        elif app.mode in ("menu", "operator") and idle >= t.menu_idle_s:
            app.go_attract()

    def _prompt(self) -> None:
        app = self.app
        self.prompting = True
        screen: Any = app.sm.current_screen
        if hasattr(screen, "hide_private"):  # game screens have private trays
            screen.hide_private()
        app.hub.release_all()
        if app.is_built("seat_menus"):
            app.seat_menus.close_all()  # the question is asked over the whole table
        app.pause_game()
        session = app.session
        humans = {session.seats[g].index for g in session.humans()} if session is not None else set()
        for zone in app.overlay.zones:  # asked only where someone plays (in their language); any of them answers
            zone.shown = zone.seat.index in humans
            zone.language = session.language_of(zone.seat.index) if session is not None else zone.language
        app.overlay.language = app.cfg.language.default
        app.overlay.prompting = True
        if app.overlay.parent is None:
            app.root.add_widget(app.overlay)
        app.sounds.play("tick")

    def answer(self) -> None:
        """Someone answered "Still playing?"."""
        self.app.hub.note_input()
        self.unprompt()

    def unprompt(self) -> None:
        """Take the question away (the game goes on when one is in progress)."""
        if not self.prompting:
            return
        app = self.app
        self.prompting = False
        app.overlay.prompting = False
        if app.overlay.parent is not None:
            app.overlay.parent.remove_widget(app.overlay)
        if app.mode == "game":
            app.resume_play()
