"""Maki's card set: the Pantry's ingredient kinds, the recipes (``cards.json``) and the action cards."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# --------------------------------------------------------------------------------------------------- card data
DATA_FILE = Path(__file__).with_name("cards.json")
DATA: dict[str, Any] = json.loads(DATA_FILE.read_text())

#: Ingredient kinds in Pantry order, their group and their Pantry count.
KINDS: tuple[str, ...] = tuple(k for group in DATA["pantry"].values() for k in group)
KIND_GROUP: dict[str, str] = {k: g for g, group in DATA["pantry"].items() for k in group}
PANTRY: tuple[int, ...] = tuple(n for group in DATA["pantry"].values() for n in group.values())
KIND_INDEX: dict[str, int] = {k: i for i, k in enumerate(KINDS)}


@dataclass(frozen=True)
class Recipe:
    """One recipe card: ingredients in card order (kind indices), score, style Wasabi, back instruction."""

    id: int
    name: str
    ingredients: tuple[int, ...]
    score: int
    style: int
    back: str

    @property
    def length(self) -> int:
        return len(self.ingredients)

    @property
    def key(self) -> tuple[int, ...]:
        """The ingredients as a sorted tuple (what an out-of-order sequence must hold)."""
        return tuple(sorted(self.ingredients))

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "ingredients": [KINDS[k] for k in self.ingredients],
            "score": self.score,
            "style": self.style,
            "back": self.back,
        }


RECIPES: tuple[Recipe, ...] = tuple(
    Recipe(r["id"], r["name"], tuple(KIND_INDEX[k] for k in r["ingredients"]), r["score"], r["style"], r["back"])
    for r in DATA["recipes"]
)
assert [r.id for r in RECIPES] == list(range(len(RECIPES))), "recipe ids must be 0..n-1 in order"
RECIPE_BY_NAME: dict[str, Recipe] = {r.name: r for r in RECIPES}
LENGTHS: tuple[int, ...] = tuple(sorted({r.length for r in RECIPES}))
RECIPE_LENGTH = tuple(r.length for r in RECIPES)
RECIPE_BACK = tuple(r.back for r in RECIPES)

#: What drawing a card with each back gives when its instruction is obeyed: (Wasabi to the drawer, to the pool).
BACK_EFFECTS: dict[str, tuple[int, int]] = {"none": (0, 0), "gain1": (1, 1), "pool1": (0, 1), "pool2": (0, 2)}
BACK_TEXT: dict[str, str] = {
    "none": "no instructions",
    "gain1": "gain one Wasabi and add one Wasabi to the pool",
    "pool1": "add one Wasabi to the pool",
    "pool2": "add two Wasabi to the pool",
}

ACTION_CARDS: dict[str, int] = dict(DATA["actions"])
#: Each action card's one rule (``cards.json``'s ``action_rules``: extracted for translation, shown at the seat by
#: the card's explanation, kiosk/games/maki/explain.py).
ACTION_RULES: dict[str, str] = dict(DATA["action_rules"])
assert set(ACTION_CARDS) == set(ACTION_RULES), "every action card needs its rule in code"
