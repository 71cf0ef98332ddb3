"""The attract director: while nobody plays, bots play real games of every registered title at a watchable pace,
then that game's high-score boards, then the "touch to play" call, cycling. At start, games interrupted by a
crash are offered first ("Resume the Makoto game from 14:05?"); the offer stays for one attract period, then the
cycle goes on (the game stays in the folder until a later start or its maximum age).

Each game is shown at its most lively (decisions, written down; :func:`lively_start`): the bots play the set-up
off-screen, fast (Wasabi!'s drafting of starting tiles and recipes, any board game's steps before its first
placement), and then on to a watchable moment: a board with tiles on it, Makoto with a play on the table,
Takoyaki with balls moved on the current order. The moment is judged from the public view and the legal actions
only (no rules here); a game that would end off-screen is started afresh and shown from its first placement.
While a bots' game is shown, "Touch to play" faces every edge of the table (:class:`kiosk.ui.attract.EdgeCalls`).
"""

from __future__ import annotations

import logging
import random
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock, ClockEvent

from kiosk.ai import make_bot
from kiosk.engine import Event, GameSpec, State
from kiosk.seats import Seat
from kiosk.ui.attract import EdgeCalls, board_rows
from kiosk.ui.session import GameSession

if TYPE_CHECKING:
    from kiosk.app import KioskApp

log = logging.getLogger("kiosk.shell.attract")

__all__ = ["AttractDirector", "lively_start", "watchable"]

#: Squares filled before a board game is shown (a board with something on it, early in the game).
LIVELY_TILES = 6
#: Off-screen moves at most (the UI thread waits for them: the fast bots take ~3 ms a move, and a game is watchable
#: after a few dozen). A bound in moves, not seconds: a seed always shows the same position, whatever the machine.
WARM_MOVES = 200


def _names_square(action: Any) -> bool:
    data = action.to_json()
    return any(isinstance(data.get(k), int) and data.get(k) >= 0 for k in ("cell", "square", "a", "b"))


def watchable(state: State, moves: int) -> bool:
    """Whether a position is worth showing a passer-by (``moves``: how many the bots played off-screen).

    From the public view and the legal actions only: a board (``board``) past its set-up (the player to move may
    place on a square) with :data:`LIVELY_TILES` squares filled; a play on the table (``current``, Makoto) after
    every seat had a turn; a revealed order (``order``, Takoyaki) with three moves a seat made on it and every seat
    still racing (``out``); any other game at once."""
    view = state.view(None)
    players = state.players
    if isinstance(view.get("board"), list):
        movers = state.to_move()
        if not movers or not any(_names_square(a) for a in state.legal_actions(movers[0])):
            return False
        return sum(1 for v in view["board"] if v and v != "teacup") >= LIVELY_TILES
    if "current" in view:
        return view["current"] is not None and moves >= players
    if "order" in view:
        racing = all(o is None for o in view.get("out", []))
        return view["order"] is not None and racing and moves >= 3 * players
    return True


def lively_start(spec: GameSpec, state: State, seed: int) -> tuple[State, list[Event]]:
    """Play ``state`` on off-screen with fast bots (the ``easy`` level, else ``random``, else the first) until it
    is :func:`watchable`, within :data:`WARM_MOVES` moves; the last events (for the screen's log). A game that
    ends on the way is dealt again and shown as dealt."""
    level = next((lv for lv in ("easy", "random") if lv in spec.bots), next(iter(spec.bots)))
    bots = {g: spec.bots[level](g, seed + 104729 * (g + 1)) for g in range(state.players)}
    fresh = state.clone()
    events: list[Event] = []
    moves = 0
    while moves < WARM_MOVES and not watchable(state, moves):
        movers = state.to_move()
        g = movers[moves % len(movers)]
        events = list(state.apply(g, bots[g].choose(state)) or []) or events
        moves += 1
        if state.is_over():
            return fresh, []
    return state, events[-3:]


class AttractDirector:
    """Runs the attract cycle (:meth:`begin`, :meth:`leave`) and the resume offers (:attr:`offers`)."""

    def __init__(self, app: KioskApp) -> None:
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
        """The cycle: for every game, the call, a bots' game, the game's boards."""
        steps: list[tuple[str, str | None]] = []
        for key in self.app.games:
            steps += [("call", None), ("game", key), ("boards", key)]
        return steps or [("call", None)]

    def jump_to(self, kind: str, key: str | None = None) -> None:
        """Show the cycle's step ``(kind, key)`` (one of :meth:`steps`) now; the cycle goes on from there."""
        self._step = self.steps().index((kind, key))
        self._next()

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
        if self._step > 0 and app.service.first_frame_at is None:
            # Kivy's clock counts from its last tick, which is before the build: a short first step could be
            # "due" before the first frame. Never build the rest of the table before the first frame is up.
            self._ev = Clock.schedule_once(self._next, 0.5)
            return
        if self._step > 0:
            app.builder.ensure_ready()  # the first step (the call) needs nothing more than the first frame
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
        if kind == "boards" and key is not None:
            self._show_boards(key)
            duration = cfg.boards_s
        if kind == "call":
            app.attract_screen.show_call()
            app.sm.current = "attract"
        self._ev = Clock.schedule_once(self._next, duration)

    def _show_boards(self, key: str) -> None:
        app = self.app
        title = app.games[key].title
        if not app.scores.available:
            reason = str(app.scores.reason)
            app.attract_screen.show_boards(title, ["(boards unavailable)"], [], reason[:80])
        else:
            top, today = app.scores.top(key, 5), app.scores.top_today(key, 5)
            app.attract_screen.show_boards(title, board_rows(top), board_rows(today))
        app.sm.current = "attract"

    # ---------------------------------------------------------------------------------------------- bots' game
    def start_game(self, key: str) -> GameSession:
        """A bots' game of ``key`` on its screen, seats spread around the table."""
        app = self.app
        spec = app.games[key]
        n = max(spec.min_players, min(spec.max_players, 4, len(app.table)))
        seats = self._spread_seats(n)
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
        session = GameSession(
            spec,
            state,
            seats,
            bots,
            seed=seed,
            move_delay=app.cfg.attract.move_delay_s,
            attract=True,
            bot_levels=dict.fromkeys(range(n), level),
        )
        session.last_events = warm  # the moves before the shown one, for the screen's last-moves lines
        session.bind(on_over=self._game_over, on_change=app.launcher.on_change)
        screen = app.launcher.screen_for(key)
        screen.begin(session)
        self.session = session
        app.sm.current = screen.name
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
        if shown and calls.parent is None:
            root.add_widget(calls)
        elif not shown and calls.parent is not None:
            calls.parent.remove_widget(calls)

    def _spread_seats(self, n: int) -> list[Seat]:
        """``n`` table seats spread around the table (clockwise)."""
        seats = self.app.table.seats
        step = len(seats) / n
        chosen = sorted({int(i * step + step / 2) % len(seats) for i in range(n)})
        return [seats[i] for i in chosen]

    def _game_over(self, *_a: Any) -> None:
        if self.app.mode == "attract":
            self._cancel()
            self._ev = Clock.schedule_once(self._next, 3.0)

    def stop_game(self) -> None:
        """Stop the bots' game (if any) and release its screen."""
        from kiosk.ui import motion

        self.show_edge_calls(False)
        motion.clear()
        session = self.session
        if session is None:
            return
        session.stop()
        session.unbind(on_over=self._game_over, on_change=self.app.launcher.on_change)
        screen = self.app.launcher.game_screens.get(session.spec.key)
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
        offer = self.offers[0]
        when = offer.last_activity.strftime("%H:%M") if offer.last_activity else ""
        series = (offer.meta or {}).get("series")  # [game, of]: a match's progress
        what = "game"
        if isinstance(series, list) and len(series) == 2 and all(isinstance(x, int) for x in series):
            what = f"match (game {series[0]} of {series[1]})"
        self.app.attract_screen.show_offer(f"Resume the {offer.title} {what} from {when}?")
        self.app.sm.current = "attract"
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
                self.app.launcher.resume(offer)
                return
            except Exception as exc:
                log.exception("could not resume %s: %s", offer.title, exc)
        else:
            try:
                offer.discard("declined")
            except Exception as exc:
                log.warning("could not discard the offer: %s", exc)
        self.app.go_attract()
