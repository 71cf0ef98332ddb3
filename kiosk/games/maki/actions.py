"""Maki's actions: small immutable values, one per decision of a turn (see ``rules.py``)."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.engine import Action, action_codec


@dataclass(frozen=True, slots=True)
class Take(Action):
    """Take a tile of ``kind`` from the Pantry (to place it, or as a Substitute's new tile)."""

    kind: str


@dataclass(frozen=True, slots=True)
class Place(Action):
    """Place the taken tile into ``cell`` (an empty space, or a teacup's space: the teacup then moves)."""

    cell: int


@dataclass(frozen=True, slots=True)
class MoveCup(Action):
    """Put the teacup lifted by the tile just placed into the empty space ``cell``."""

    cell: int


@dataclass(frozen=True, slots=True)
class Switch(Action):
    """Action card: swap the contents of the adjacent spaces ``a`` < ``b``."""

    a: int
    b: int


@dataclass(frozen=True, slots=True)
class Chop(Action):
    """Action card: remove the tile in ``cell`` (back to the Pantry)."""

    cell: int


@dataclass(frozen=True, slots=True)
class SecondHelping(Action):
    """Action card: play one more tile this turn."""


@dataclass(frozen=True, slots=True)
class Substitute(Action):
    """Action card: exchange the tile in ``cell``; a ``Take(kind)`` names the new tile."""

    cell: int


@dataclass(frozen=True, slots=True)
class Serve(Action):
    """Serve the recipe with this id from your hand."""

    recipe: int


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw the top recipe of the deck of this length."""

    length: int


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn after serving when no deck has a recipe left to draw."""


@dataclass(frozen=True, slots=True)
class Gain(Action):
    """Take the action card ``card`` from the display (Prep, or the reward of a 2-ingredient recipe)."""

    card: str


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Discard an action card when holding three."""

    card: str


@dataclass(frozen=True, slots=True)
class TakePool(Action):
    """Prep: take all the Wasabi of the pool, then one Wasabi from the supply goes to the pool."""


@dataclass(frozen=True, slots=True)
class Return(Action):
    """Prep: return these recipes (ids, ascending) to the bottom of their decks, then draw back to three."""

    recipes: tuple[int, ...]


ACTION_CLASSES = (
    Take,
    Place,
    MoveCup,
    Switch,
    Chop,
    SecondHelping,
    Substitute,
    Serve,
    Draw,
    EndTurn,
    Gain,
    Discard,
    TakePool,
    Return,
)
action_from_json = action_codec(*ACTION_CLASSES)
