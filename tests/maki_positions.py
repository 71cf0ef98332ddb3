"""Maki positions for the rules and bot tests: a real dealt game arranged for an example."""

from __future__ import annotations

from collections import Counter

from kiosk.games.maki.rules import (
    ACTION_CARDS,
    CUP,
    EMPTY,
    KIND_INDEX,
    KINDS,
    PANTRY,
    RECIPE_BY_NAME,
    RECIPES,
    MakiState,
    new_game,
)


def rid(name: str) -> int:
    return RECIPE_BY_NAME[name].id


def arrange(
    players: int = 2,
    *,
    tiles: dict[int, str] | None = None,
    cups: tuple[int, ...] | None = None,
    hand: tuple[str, ...] = (),
    held: tuple[str, ...] = (),
    seed: int = 1,
) -> MakiState:
    """A fresh game (seat 0 to move) with the board, seat 0's hand and held action cards set as given.

    Tiles come out of the Pantry; recipes swap places with the ones seat 0 was dealt (decks stay complete).
    """
    s = new_game(players, seed)
    n = len(s.board)
    s.board = [EMPTY] * n
    for cell in cups if cups is not None else tuple(range(n - players, n)):
        s.board[cell] = CUP
    for cell, kind in (tiles or {}).items():
        k = KIND_INDEX[kind]
        assert s.pantry[k] > 0
        s.pantry[k] -= 1
        s.board[cell] = k
    if hand:
        want = [rid(h) for h in hand]
        old = list(s.hands[0])
        for r in want:
            for other in s.hands[1:]:
                assert r not in other, "pick a seed where the recipe is not in another hand"
        for _length, deck in s.decks.items():
            for i, r in enumerate(deck):
                if r in want:
                    deck[i] = (
                        next(o for o in old if RECIPES[o].length == RECIPES[r].length)
                        if any(RECIPES[o].length == RECIPES[r].length for o in old)
                        else r
                    )
        for r in old:
            if r not in want and not any(r in d for d in s.decks.values()):
                s.decks[RECIPES[r].length].insert(0, r)
        s.hands[0] = want
        for r in want:
            s.known[r] |= 1
    for card in held:
        s.held[0].append((card, False))
        source = s.action_deck if card in s.action_deck else s.display
        source.remove(card)
    s._refill_display()
    s.start_board = tuple(s.board)
    check_conservation(s)
    return s


def check_conservation(s: MakiState) -> None:
    tiles = Counter(v for v in s.board if v >= 0)
    assert [s.pantry[k] + tiles[k] for k in range(len(KINDS))] == list(PANTRY)
    ids = (
        [r for d in s.decks.values() for r in d] + [r for h in s.hands for r in h] + [r for x in s.served for r, _ in x]
    )
    assert sorted(ids) == list(range(len(RECIPES)))
    assert sum(1 for v in s.board if v == CUP) == s.players or s.phase == "cup"
    cards = s.action_deck + s.display + s.discards + [c for h in s.held for c, _ in h]
    assert Counter(cards) == Counter(ACTION_CARDS)
