"""What a Maki seat sees. A recipe card in a hand is known to the seats that saw it (its holder, and whoever a
card showed it to): to them it is a :class:`MakiRecipe`, to everyone else a :class:`MakiBack` (its length and
back). The public view is the spectator's (``view(None)``): every hand as backs.

Typed dicts, not dataclasses (decision): a view is JSON by the engine contract (the conformance suite dumps and
compares views as dicts, ``State.fingerprint`` serialises them, attract mode and the how-to demo read any game's
``board`` by key). One type for both views (``GameState[MakiView, MakiView]``): a seat sees no other keys than a
spectator, only other contents (its own hand's cards as :class:`MakiRecipe`, where a spectator sees
:class:`MakiBack`), so there is no secret key for a seat view to require."""

from __future__ import annotations

from typing import TypedDict, final

__all__ = ["MakiBack", "MakiDeck", "MakiHeld", "MakiRecipe", "MakiServed", "MakiView"]


@final
class MakiRecipe(TypedDict):
    """A recipe card face up: ingredients in card order, points, style Wasabi, the back's instruction."""

    id: int
    name: str
    ingredients: list[str]
    score: int
    style: int
    back: str


@final
class MakiBack(TypedDict):
    """A recipe card face down: its length and back."""

    length: int
    back: str


@final
class MakiDeck(TypedDict):
    """A recipe deck: how many cards, and the back on top."""

    count: int
    top: str | None


@final
class MakiServed(TypedDict):
    """A served recipe, and whether with style."""

    recipe: int
    name: str
    style: bool


@final
class MakiHeld(TypedDict):
    """An action card a seat holds, and whether it was gained this turn."""

    card: str
    fresh: bool


@final
class MakiView(TypedDict):
    """The board (an ingredient, ``teacup`` or None per square), the pantry, the decks, hands, served recipes,
    Wasabi, the action cards, the turn."""

    rows: int
    cols: int
    board: list[str | None]
    contributed: list[int]
    pantry: dict[str, int]
    decks: dict[str, MakiDeck]
    hands: list[list[MakiRecipe | MakiBack]]
    served: list[list[MakiServed]]
    wasabi: list[int]
    pool: int
    display: list[str]
    action_deck: int
    discards: list[str]
    held: list[list[MakiHeld]]
    turn: int
    phase: str
    tiles_owed: int
    pending: str | int
    served_this_turn: list[int]
    final_turns_left: int | None
    scores: list[int]
    winners: list[int]
