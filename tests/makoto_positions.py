"""Makoto positions for the rules tests: hands and table set up for an example."""

from __future__ import annotations

from kiosk.games.makoto.rules import (
    MakotoState,
    code,
)


def R(*numbers: int) -> list[int]:
    """Ronin cards."""
    return [code(n) for n in numbers]


def position(
    players: int, hands: dict[int, list[int]], blind: list[int] = (), turn: int = 0, filler: int = 13
) -> MakotoState:
    """A game with chosen hands (other seats get a few ``filler`` cards) and Blind."""
    state = MakotoState(players, seed=1)
    state.hands = [sorted(hands.get(s, R(filler, filler))) for s in range(players)]
    state.blind = sorted(blind)
    state.turn = turn
    state.journal = None
    return state
