"""The attract director: while nobody plays, bots play real games of every registered title at a watchable pace,
then that game's high-score boards, then the day's best game of it replayed (:mod:`kiosk.shell.replays`, when
there is one), then the "touch to play" call, cycling. At start, games interrupted by a crash are offered first
("Resume the Makoto game from 14:05?"); the offer stays for one attract period, then the cycle goes on (the game
stays in the folder until a later start or its maximum age).

Each game is shown at its most lively (:mod:`kiosk.shell.lively`). While a bots' game is shown, "Touch to play"
faces every edge of the table (:class:`kiosk.shell.attractscreen.EdgeCalls`).
"""

from __future__ import annotations

import logging
import random
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock, ClockEvent

from kiosk.ai import make_bot
from kiosk.engine import Event
from kiosk.i18n import translator
from kiosk.session import GameSession
from kiosk.shell.attractscreen import EdgeCalls, board_rows, offer_question
from kiosk.shell.lively import lively_start, spread_seats

if TYPE_CHECKING:
    from kiosk.shell.doors import AttractDoor

log = logging.getLogger("kiosk.shell.attract")

__all__ = ["AttractDirector"]


class AttractDirector:
    """Runs the attract cycle (:meth:`begin`, :meth:`leave`) and the resume offers (:attr:`offers`)."""

    def __init__(self, app: AttractDoor) -> None:
        self.app = app
        #: The bots' games' seeds (its own generator, apart from the guests' games).
        self.rng = random.Random(f"{app.seed}:attract")
        #: unfinished games to offer (``kiosk.storage.UnfinishedGame``), set when storage opens
        self.offers: list[Any] = []
        #: the bots' game on screen, if any
        self.session: GameSession | None = None
        self._ev: ClockEvent | None = None
        self._step = 0

    # ---------------------------------------------------------------------------------------------- cycle
    def begin(self) -> None:
        """Attract mode from the top: the resume offer if there is one, else the cycle's first step."""
        self._step = 0
        self.app.refresh_replays()
        lang = self.app.cfg.language
        self.app.attract_screen.call_languages(lang.enabled, lang.default)
        self.app.attract_screen.text = self.app.cfg.attract.text
        if self.offers:
            self._show_offer()
        else:
            self._next()

    def leave(self) -> None:
        """A player arrived: stop the cycle and the bots' game, hide the offer."""
        self._cancel()
        self.stop_game()
        self.app.attract_screen.hide_offer()

    def steps(self) -> list[tuple[str, str | None]]:
        """The cycle: for every game, the call, a bots' game, the game's boards, the day's best replayed."""
        steps: list[tuple[str, str | None]] = []
        for key in self.app.games:
            steps += [("call", None), ("game", key), ("boards", key)]
            steps += [("replay", key)] if self.app.has_best_replay(key) else []
        return steps or [("call", None)]

    def jump_to(self, kind: str, key: str | None = None, hold: bool = False) -> None:
        """Show the cycle's step ``(kind, key)`` (one of :meth:`steps`) now; the cycle goes on from there, or with
        ``hold`` stays on it (the screenshot tour and the tests look at one step)."""
        self._cancel()
        self._step = self.steps().index((kind, key))
        self._next()
        if hold:
            self._cancel()

    def _cancel(self) -> None:
        if self._ev is not None:
            self._ev.cancel()
            self._ev = None

    def _next(self, *_a: Any) -> None:
        app = self.app
        if app.mode != "attract":
            return
        self._cancel()
        self.stop_game()
        if self._step > 0 and app.first_frame_at is None:
            # Kivy's clock counts from its last tick, which is before the build: a short first step could be
            # "due" before the first frame. Never build the rest of the table before the first frame is up.
            self._ev = Clock.schedule_once(self._next, 0.5)
            return
        if self._step > 0:
            app.ensure_ready()  # the first step (the call) needs nothing more than the first frame
        steps = self.steps()
        kind, key = steps[self._step % len(steps)]
        self._step += 1
        cfg = app.cfg.attract
        duration = cfg.call_s
        if kind == "game" and key is not None:
            try:
                self.start_game(key)
                duration = cfg.game_s
            except Exception as exc:  # a broken engine must not stop attract mode
                log.exception("attract game %s failed to start: %s", key, exc)
                kind = "call"
        if kind == "replay" and key is not None:
            shown = self.app.show_best_replay(key, self._game_over)
            duration, kind = (shown, kind) if shown is not None else (duration, "call")
        if kind == "boards" and key is not None:
            self._show_boards(key)
            duration = cfg.boards_s
        if kind == "call":
            app.attract_screen.show_call()
            app.show("attract")
        self._ev = Clock.schedule_once(self._next, duration)

    def _show_boards(self, key: str) -> None:
        app = self.app
        title = app.games[key].title
        tr = translator(app.cfg.language.default)
        if not app.scores.available:
            note = tr.gettext("Scores cannot be saved right now")  # the store's reason: the operator's health panel
            app.attract_screen.show_boards(title, [tr.gettext("(boards unavailable)")], [], note)
        else:
            top, today = app.scores.top(key, 5), app.scores.top_today(key, 5)
            rows = board_rows(top, tr=tr), board_rows(today, tr=tr)
            app.attract_screen.show_boards(title, *rows, event=app.event_rows(key, tr))
        app.show("attract")

    # ---------------------------------------------------------------------------------------------- bots' game
    def start_game(self, key: str) -> GameSession:
        """A bots' game of ``key`` on its screen, seats spread around the table."""
        app = self.app
        spec = app.games[key]
        n = max(spec.min_players, min(spec.max_players, 4, len(app.table)))
        seats = spread_seats(app.table.seats, n)
        seed = self.rng.randrange(2**31)
        level = app.cfg.attract.bot_level if app.cfg.attract.bot_level in spec.bots else next(iter(spec.bots))
        state = spec.new_game(n, seed)
        seats = state.seating(seats)
        warm: list[Event] = []
        try:
            state, warm = lively_start(spec, state, seed)
        except Exception as exc:  # a bot or engine bug: show the game as dealt
            log.warning("attract: %s could not be played to a lively moment: %s", key, exc)
            state = spec.new_game(n, seed)
        bots = {g: make_bot(spec, level, g, seed + 7919 * (g + 1), app.bot_iterations) for g in range(n)}
        delay, levels = app.cfg.attract.move_delay_s, dict.fromkeys(range(n), level)
        session = GameSession(spec, state, seats, bots, seed=seed, move_delay=delay, attract=True, bot_levels=levels)
        session.last_events = warm  # the moves before the shown one, for the screen's last-moves lines
        session.set_languages(app.cfg.language.default, None)  # the bots' seats and the centre: the table's
        session.bind(on_over=self._game_over, on_change=app.on_game_change)
        screen = app.game_screens.screen_for(key)
        screen.begin(session)
        self.session = session
        app.show(screen.name)
        self.show_edge_calls(True)
        session.start()
        return session

    def show_edge_calls(self, shown: bool) -> None:
        """ "Touch to play" at every edge over a bots' game (in the app's root, above the screens, only while a
        bots' game is shown: a hidden widget still costs drawing)."""
        root = self.app.root
        if root is None:
            return
        calls = getattr(self, "_calls", None)
        if shown and calls is None:
            calls = self._calls = EdgeCalls(table=self.app.table, text=self.app.cfg.attract.text)
        if calls is None:
            return
        calls.text = self.app.cfg.attract.text
        calls.set_languages(self.app.cfg.language.enabled)
        if shown and calls.parent is None:
            root.add_widget(calls)
        elif not shown and calls.parent is not None:
            calls.parent.remove_widget(calls)

    def _game_over(self, *_a: Any) -> None:
        if self.app.mode == "attract":
            self._cancel()
            self._ev = Clock.schedule_once(self._next, 3.0)

    def stop_game(self) -> None:
        """Stop the bots' game (if any) and release its screen."""
        from kiosk.ui import motion  # (the pieces' motion: loaded with the first game, off start-up)

        self.show_edge_calls(False)
        self.app.stop_replay()
        motion.clear()
        session = self.session
        if session is None:
            return
        session.stop()
        session.unbind(on_over=self._game_over, on_change=self.app.on_game_change)
        screen = self.app.game_screens.get(session.spec.key)
        if screen is not None and screen.session is session:
            screen.end()
        self.session = None

    def stop(self) -> None:
        """The app stops or the operator takes over: no cycle, no bots' game."""
        self._cancel()
        self.stop_game()

    # ---------------------------------------------------------------------------------------------- offers
    def offer_if_any(self) -> None:
        if self.offers and self.app.mode == "attract":
            self._show_offer()

    def _show_offer(self) -> None:
        log.info("offering to resume the %s game %s", self.offers[0].game, self.offers[0].id)
        self.app.attract_screen.show_offer(offer_question(self.offers[0], translator(self.app.cfg.language.default)))
        self.app.show("attract")
        self._cancel()
        self._ev = Clock.schedule_once(self._offer_timeout, max(20.0, self.app.cfg.attract.call_s))

    def _offer_timeout(self, _dt: float) -> None:
        self.app.attract_screen.hide_offer()
        self.offers = []  # offered once per start; it stays in the folder until a later start or max age
        self._next()

    def answer_offer(self, accept: bool) -> None:
        """The offer's Yes/No (the attract screen's ``on_offer``)."""
        if not self.offers:
            return
        offer = self.offers.pop(0)
        self.app.attract_screen.hide_offer()
        self._cancel()
        if accept:
            try:
                self.app.resume_game(offer)
                return
            except Exception as exc:
                log.exception("could not resume %s: %s", offer.title, exc)
        else:
            try:
                offer.discard("declined")
            except Exception as exc:
                log.warning("could not discard the offer: %s", exc)
        self.app.go_attract()
