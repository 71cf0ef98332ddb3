"""The attract cycle's games at their most lively (decisions, written down).

The bots play the set-up off-screen, fast (Wasabi!'s drafting of starting tiles and recipes, any board game's steps
before its first placement), and then on to a watchable moment: a board with tiles on it, Makoto with a play on
the table, Takoyaki with balls moved on the current order. The moment is judged from the public view and the legal
actions only (no rules here); a game that would end off-screen is started afresh and shown from its first
placement. Its seats are spread round the table (:func:`spread_seats`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from kiosk.engine import Event, GameSpec, State

__all__ = ["LIVELY_TILES", "WARM_MOVES", "lively_start", "spread_seats", "watchable"]

T = TypeVar("T")

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
    view = state.view(None)  # any game's: read as JSON, each key checked for its type
    players = state.players
    board = view.get("board")
    if isinstance(board, list):
        movers = state.to_move()
        if not movers or not any(_names_square(a) for a in state.legal_actions(movers[0])):
            return False
        return sum(1 for v in board if v and v != "teacup") >= LIVELY_TILES
    if "current" in view:
        return view["current"] is not None and moves >= players
    if "order" in view:
        out = view.get("out", [])
        racing = isinstance(out, list) and all(o is None for o in out)
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


def spread_seats(seats: Sequence[T], n: int) -> list[T]:
    """``n`` of the table's ``seats`` (listed clockwise) spread around the table, clockwise."""
    step = len(seats) / n
    chosen = sorted({int(i * step + step / 2) % len(seats) for i in range(n)})
    return [seats[i] for i in chosen]
