"""What a Makoto seat sees. Cards are codes: ``code % 20`` is the number, ``code // 20`` the kind (0 Ronin, 1 Sword,
2 Oracle). The public view (a spectator's, ``view(None)``) gives every hand's size and golden backs, never its
cards; a seat's view adds its own ``hand`` and the Oracle card it ``drawn``; a finished game adds ``end_reason``."""

from __future__ import annotations

from typing import NotRequired, TypedDict, final

__all__ = ["MakotoPlay", "MakotoView"]


@final
class MakotoPlay(TypedDict):
    """The play on the table: a set, a run or a kensei, its size and rank, its cards, who played it, in words."""

    type: str
    size: int
    rank: int
    cards: list[int]
    by: int
    text: str


@final
class MakotoView(TypedDict):
    """One view's keys; ``hand`` and ``drawn`` only in a seat's own view, ``end_reason`` once the game is over."""

    game: str
    players: int
    seat: int | None
    phase: str
    turn: int | None
    to_move: list[int]
    dealer: int
    hand_sizes: list[int]
    golden_backs: list[int]
    known_in_hand: list[list[int]]
    blind: list[int]
    current: MakotoPlay | None
    pile: list[int]
    passes: int
    oracle_deck: int
    oracle_discard: list[int]
    set_aside: int
    won_cards: list[int]
    won_points: list[int]
    rewards: list[int]
    rewards_left: list[int]
    out: list[int]
    final_turn: bool
    lid_holder: int | None
    played_low: int | None
    played_count: int | None
    scores: list[int]
    winners: list[int]
    hand: NotRequired[list[int]]
    drawn: NotRequired[int | None]
    end_reason: NotRequired[str]
