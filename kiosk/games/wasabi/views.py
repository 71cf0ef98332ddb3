"""What a Wasabi! seat sees. The public view (:class:`WasabiView`, ``view(None)``) gives every seat's public things
(``seats``); a seat's view (:class:`WasabiSeatView`, ``view(seat)``) adds its own ``hand``, ``recipes`` and the
recipes it put under stacks (``under_stacks``). In the turn's record, the chooser sees its candidate recipes
(others: the length being decided) and the giver and the receiver the starting tiles chosen so far (others: how
many).

Typed dicts, not dataclasses (decision): a view is JSON by the engine contract (the conformance suite dumps and
compares views as dicts, ``State.fingerprint`` serialises them, attract mode and the how-to demo read any game's
``board`` by key). The seat's secrets are keys of its own view type, required (they were optional keys of its
entry in ``seats``, which mypy could not tell from the others'), so ``mine["hand"]`` is checked by mypy."""

from __future__ import annotations

from typing import TypedDict, final

__all__ = ["WasabiCandidate", "WasabiDone", "WasabiRecipe", "WasabiSeat", "WasabiSeatView", "WasabiTurn", "WasabiView"]


@final
class WasabiDone(TypedDict):
    """A recipe a seat completed: its name, ingredients in strip order, length, and whether with style."""

    recipe: str
    ingredients: list[str]
    length: int
    style: bool


@final
class WasabiRecipe(TypedDict):
    """A recipe in a seat's own hand of recipes."""

    id: int
    name: str
    ingredients: list[str]


@final
class WasabiCandidate(TypedDict):
    """A recipe the chooser may complete now, and whether with style."""

    id: int
    name: str
    style: bool


@final
class WasabiSeat(TypedDict):
    """One seat's public things (its secrets are in its own view: :class:`WasabiSeatView`)."""

    score: int
    cubes: int
    cards: list[str]
    free_tokens: dict[str, int]
    completed: list[WasabiDone]
    hand_size: int
    recipe_lengths: list[int]


@final
class WasabiTurn(TypedDict):
    """The turn in progress."""

    tiles_left: int
    tiles_played: int
    card_played: str | None
    stack: bool
    chopped: str | None
    rewards: int
    choosing: list[WasabiCandidate] | int | None
    giving: list[str] | int


class WasabiView(TypedDict):
    """The board (a stack of ingredient names per square, bottom first), the covered squares, the Pantry and the
    Kitchen, the recipe stacks' sizes, every seat, the turn."""

    game: str
    players: int
    rows: int
    columns: int
    phase: str
    current: int | None
    board: list[list[str]]
    covered: list[int]
    wasabi_cards: list[int]
    pantry_available: list[str]
    kitchen: dict[str, int]
    recipe_stacks: dict[str, int]
    seats: list[WasabiSeat]
    turn: WasabiTurn
    turns: int
    idle_turns: int
    over: bool
    end_reason: str | None
    winners: list[int]


@final
class WasabiSeatView(WasabiView):
    """A seat's own view: the public keys, its ``hand`` (tiles), its ``recipes`` and the ids of the recipes it put
    under stacks (``under_stacks``)."""

    hand: list[str]
    recipes: list[WasabiRecipe]
    under_stacks: list[int]
