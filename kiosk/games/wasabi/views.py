"""What a Wasabi! seat sees. The public view (``view(None)``) gives every seat's public things; a seat's own
entry in ``seats`` adds its ``hand``, ``recipes`` and the recipes it put under stacks (``under_stacks``). In the
turn's record, the chooser sees its candidate recipes (others: the length being decided) and the giver and the
receiver the starting tiles chosen so far (others: how many)."""

from __future__ import annotations

from typing import NotRequired, TypedDict, final

__all__ = ["WasabiCandidate", "WasabiDone", "WasabiRecipe", "WasabiSeat", "WasabiTurn", "WasabiView"]


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
    """One seat's public things; ``hand``, ``recipes`` and ``under_stacks`` in its own view only."""

    score: int
    cubes: int
    cards: list[str]
    free_tokens: dict[str, int]
    completed: list[WasabiDone]
    hand_size: int
    recipe_lengths: list[int]
    hand: NotRequired[list[str]]
    recipes: NotRequired[list[WasabiRecipe]]
    under_stacks: NotRequired[list[int]]


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


@final
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
