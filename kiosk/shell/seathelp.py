"""The seat menus' room: what a tap on a seat's badge offers (how to play; in a game, hints and leaving).

Hint mode (each game seat zone's ``hints``: legal moves marked, a prompt of what to do) is on for a human's seat,
except at a table seat whose human finished a game today (kept in memory, per table seat: the table cannot tell
people apart); the seat menu switches it.

Leaving: a human's "Leave" at the seat (confirmed there) hands the seat to a bot of the game's default level
(``bots.default_level``, or the game's first level if it has no such bot), and the game goes on; when the last
human leaves, the game ends at once: its journal is closed as abandoned and nothing is entered on a board (only
finished games have results). The operator's "End the current game" ends it the same way.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from kiosk.ai import make_bot
from kiosk.engine import GameSpec
from kiosk.i18n import SOURCE, translator
from kiosk.session import GameSession
from kiosk.ui.seatzone import SeatBadge, TrayHelp

if TYPE_CHECKING:
    from kiosk.shell.doors import SeatHelpDoor

log = logging.getLogger("kiosk.shell.seathelp")

__all__ = ["SeatHelp", "mark_badges"]


def mark_badges(screen: Any, session: GameSession | None) -> None:
    """The "? Help / Leave" mark on the badges of the seats that have a seat menu now (and their trays' "?"); a
    badge's name and mark in its seat's language."""

    humans = set()
    if session is not None and not session.attract:
        humans = {session.seats[g].index for g in session.humans()}
    for w in screen.walk(restrict=True):
        if isinstance(w, (SeatBadge, TrayHelp)):
            w.menu = w.seat is not None and w.seat.index in humans
        if isinstance(w, SeatBadge) and w.seat is not None:
            tr = translator(session.language_of(w.seat.index) if session is not None else SOURCE)
            w.face, w.seat_name, w.menu_text = tr.face, tr.seat_name(w.seat.name), "[?] " + tr.gettext("Help / Leave")


class SeatHelp:
    """Answers the seat menus (:class:`kiosk.shell.seatmenu.SeatMenus`) about the game in progress."""

    def __init__(self, app: SeatHelpDoor) -> None:
        self.app = app

    def menu_offered(self, table_index: int) -> tuple[GameSpec, bool] | None:
        """The seat menu a badge tap opens: in a game, at a human's seat (with Leave); on the joining screen,
        at any seat (how to play only)."""
        app = self.app
        session = self.app.session
        if app.mode == "game" and session is not None and not session.attract and not session.state.is_over():
            g = session.game_seat_of(table_index)
            return (session.spec, True) if g is not None and not session.is_bot(g) else None
        if app.mode == "menu" and app.sm.current == "join" and app.join_screen.spec is not None:
            return (app.join_screen.spec, False)
        return None

    def hints_at(self, table_index: int) -> bool | None:
        """Hint mode at a human's seat in the game in progress (None: not a human's seat in a game)."""
        session = self.app.session
        if session is None or session.attract:
            return None
        g = session.game_seat_of(table_index)
        screen = self.app.game_screens.get(session.spec.key)
        if g is None or session.is_bot(g) or screen is None:
            return None
        zone = screen.panels.get(table_index)
        return None if zone is None else bool(zone.hints)

    def switch_hints(self, table_index: int) -> bool:
        """The seat menu's "Hints" switch: hint mode on/off at that seat, redrawn at once; the new setting."""
        on = self.hints_at(table_index)
        if on is None or self.app.session is None:
            return False
        screen = self.app.game_screens[self.app.session.spec.key]
        screen.panels[table_index].hints = not on
        redraw = getattr(screen, "_redraw", None)
        if redraw is not None:
            redraw()
        return not on

    def language_at(self, table_index: int) -> str:
        """The language a seat reads: its own in the game in progress or on its join pad, else the table's."""
        app, session = self.app, self.app.session
        if app.mode == "game" and session is not None and not session.attract:
            return session.language_of(table_index)
        pad = app.join_screen.pads.get(table_index) if app.mode == "menu" and app.sm.current == "join" else None
        return pad.language if pad is not None else app.cfg.language.default

    def leave_question(self, table_index: int) -> str:
        session = self.app.session
        if session is None:
            return ""
        tr = translator(self.language_at(table_index))
        if len(session.humans()) <= 1:
            return tr.gettext("Leave the game?\nYou are the last player: the game ends and no scores are saved.")
        level = tr.level(self.app.cfg.bots.default_level)
        return tr.gettext("Leave the game?\nA bot ({level}) plays your seat from here on.").format(level=level)

    def leave_seat(self, table_index: int) -> str:
        """The human at table seat ``table_index`` leaves the game in progress: "bot" (a bot plays on), "ended"
        (no human was left: the game is saved as abandoned and attract mode returns) or "" (nothing to leave)."""
        session = self.app.session
        if session is None or session.attract or session.state.is_over():
            return ""
        g = session.game_seat_of(table_index)
        if g is None or session.is_bot(g):
            return ""
        if len(session.humans()) <= 1:
            log.info("the last player left the %s game: it ends unfinished", session.spec.key)
            self.app.end_game("left")
            return "ended"
        spec = session.spec
        wanted = self.app.cfg.bots.default_level
        level = wanted if wanted in spec.bots else next(iter(spec.bots))
        bot = make_bot(spec, level, g, session.seed * 1009 + g * 7919 + 2, self.app.bot_iterations)
        session.replace_with_bot(g, bot, level)
        screen = self.app.game_screens.get(spec.key)
        if screen is not None and screen.session is session:
            screen.seat_to_bot(g)
            mark_badges(screen, session)
        self.app.sounds.play("join")
        return "bot"
