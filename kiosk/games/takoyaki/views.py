"""What a Takoyaki seat sees: every view is public (the undealt cards are the only hidden thing, and no view names
them), so the spectator's view and a seat's are one shape; ``you`` is the seat asking (None: a spectator).

Typed dicts, not dataclasses (decision): a view is JSON by the engine contract (the conformance suite dumps and
compares views as dicts, ``State.fingerprint`` serialises them, attract mode reads any game's public ``order``
and ``out`` by key). One type for both views (``GameState[TakoyakiView, TakoyakiView]``): nothing is secret."""

from __future__ import annotations

from typing import TypedDict, final

__all__ = ["TakoyakiOrder", "TakoyakiView"]


@final
class TakoyakiOrder(TypedDict):
    """The order everyone races for: its card, its number in the deal, its difficulty and band, each seat's par."""

    card: str
    number: int
    difficulty: int
    band: str
    par: list[int | None]


@final
class TakoyakiView(TypedDict):
    """Grills (``format_grill``'s text per seat), the current order, who is out of it and why, the cards won and
    set aside, how many cards are left (never which)."""

    game: str
    you: int | None
    players: int
    time_trial: bool
    orders_to_win: int
    order: TakoyakiOrder | None
    deck_left: int
    grills: list[str]
    racing: list[int]
    out: list[str | None]
    won: list[list[str]]
    set_aside: list[str]
    moves: list[int]
    phase: str
    over: bool
    end_reason: str
    winners: list[int]
