"""Wasabi! positions for the rules tests: boards, hands, recipes and cards set up for an example."""

from __future__ import annotations

from kiosk.games.wasabi.rules import (
    CARD_ID,
    KIND_ID,
    RECIPE_BY_NAME,
    WasabiState,
    new_game,
)


def sq(state: WasabiState, name: str) -> int:
    """Square index of a name like ``"B3"`` (row letter, column number)."""
    return "ABCDEF".index(name[0]) * state.geo.cols + int(name[1:]) - 1


def blank(players: int = 2, seat: int = 0) -> WasabiState:
    """A game past setup with empty hands, screens and board: tests add exactly what they need."""
    s = new_game(players, 0)
    s.phase = "play"
    s.current = seat
    return s


def put(s: WasabiState, name: str, *tiles: str) -> None:
    """Lay tiles (bottom to top) on a square, taken from the Pantry."""
    q = sq(s, name)
    for t in tiles:
        k = KIND_ID[t]
        assert s.pantry[k] > 0
        s.pantry[k] -= 1
        s._set_stack(q, s.stacks[q] + (k,))


def give_hand(s: WasabiState, seat: int, *tiles: str) -> None:
    for t in tiles:
        k = KIND_ID[t]
        s.pantry[k] -= 1
        s.hands[seat].append(k)
    s.hands[seat].sort()


def give_recipe(s: WasabiState, seat: int, name: str) -> int:
    r = RECIPE_BY_NAME[name]
    s.rstacks[r.length].remove(r.id)
    s.screens[seat].append(r.id)
    return r.id


def start(s: WasabiState, seat: int = 0) -> WasabiState:
    s._start_turn(seat)
    s.turns = 0
    return s


def hold(s: WasabiState, seat: int, *cards: str) -> None:
    """Give action cards from the Kitchen."""
    for c in cards:
        s.kitchen[CARD_ID[c]] -= 1
        s.cards[seat].append(CARD_ID[c])
    s.cards[seat].sort()
