"""What a Makoto seat sees. Cards are codes: ``code % 20`` is the number, ``code // 20`` the kind (0 Ronin, 1 Sword,
2 Oracle). The public view (:class:`MakotoView`, a spectator's, ``view(None)``) gives every hand's size and golden
backs, never its cards; a seat's view (:class:`MakotoSeatView`, ``view(seat)``) adds its own ``hand`` and the
Oracle card it ``drawn``; a finished game adds ``end_reason`` to both.

Typed dicts, not dataclasses (decision): a view is JSON by the engine contract. The conformance suite dumps every
view as JSON and compares views as dicts, ``State.fingerprint`` serialises them, and the shell reads any game's
public view by key (attract mode's ``watchable``: ``current``; the generic screen: a seat's keys beyond the
public ones). So the shape stays a JSON object, and the seat's view is its own type with its secrets required:
``view(seat)["hand"]`` is checked by mypy, and absent from the public view's type."""

from __future__ import annotations

from typing import NotRequired, TypedDict, final

__all__ = ["MakotoPlay", "MakotoSeatView", "MakotoView"]


@final
class MakotoPlay(TypedDict):
    """The play on the table: a set, a run or a kensei, its size and rank, its cards, who played it, in words."""

    type: str
    size: int
    rank: int
    cards: list[int]
    by: int
    text: str


class MakotoView(TypedDict):
    """The public view's keys (``end_reason`` once the game is over): what every seat and a spectator see."""

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
    end_reason: NotRequired[str]


@final
class MakotoSeatView(MakotoView):
    """A seat's own view: the public keys, its ``hand`` (card codes) and the Oracle card it ``drawn`` (None but
    in its own Oracle step)."""

    hand: list[int]
    drawn: int | None
