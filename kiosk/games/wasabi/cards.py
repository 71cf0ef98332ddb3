"""Wasabi!'s card set (``cards.json``): ingredient kinds and categories, recipes, action cards and tokens."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

_DATA = json.loads(resources.files("kiosk.games.wasabi").joinpath("cards.json").read_text(encoding="utf-8"))

#: Ingredient kinds in alphabetical order; a tile is its kind's index.
KINDS: tuple[str, ...] = tuple(sorted(k for cat in _DATA["categories"].values() for k in cat))
KIND_ID: dict[str, int] = {k: i for i, k in enumerate(KINDS)}
CATEGORY: tuple[str, ...] = tuple(next(c for c, ks in _DATA["categories"].items() if k in ks) for k in KINDS)
PANTRY: tuple[int, ...] = tuple(next(ks[k] for ks in _DATA["categories"].values() if k in ks) for k in KINDS)
START_CATEGORIES: tuple[str, ...] = tuple(_DATA["starting_hand_categories"])

#: Action card kinds in alphabetical order.
CARDS: tuple[str, ...] = ("Chop", "Spicy", "Stack", "Switch", "Wasabi")
CARD_ID: dict[str, int] = {c: i for i, c in enumerate(CARDS)}
#: Each action card's rule (``cards.json``'s ``action_rules``: extracted for translation, shown at the seat by the
#: card's explanation, kiosk/games/wasabi/explain.py).
ACTION_RULES: dict[str, str] = dict(_DATA["action_rules"])
CHOP, SPICY, STACK, SWITCH, WASABI = range(5)
KITCHEN: dict[int, tuple[int, ...]] = {
    int(n): tuple(d[c] for c in CARDS) for n, d in _DATA["action_cards"].items() if not n.startswith("_")
}

LENGTHS = (2, 3, 4, 5)
TOKENS: dict[int, int] = {int(k): v["count"] for k, v in _DATA["tokens"].items() if not k.startswith("_")}
POINTS: dict[int, int] = {int(k): v["points"] for k, v in _DATA["tokens"].items() if not k.startswith("_")}
STYLE_CUBES: dict[int, int] = {int(k): v["style_cubes"] for k, v in _DATA["tokens"].items() if not k.startswith("_")}
ALL_TOKENS = sum(TOKENS.values())
ROWS: int = _DATA["board"]["rows"]
COLUMNS: dict[int, int] = {int(k): v for k, v in _DATA["board"]["columns_by_players"].items()}


@dataclass(frozen=True)
class Recipe:
    id: int
    name: str
    seq: tuple[int, ...]  # kinds in strip order
    key: tuple[int, ...]  # sorted kinds: what any-order matching compares

    @property
    def length(self) -> int:
        return len(self.seq)

    @property
    def ingredients(self) -> list[str]:
        return [KINDS[k] for k in self.seq]


RECIPES: tuple[Recipe, ...] = tuple(
    Recipe(
        i, r["name"], tuple(KIND_ID[x] for x in r["ingredients"]), tuple(sorted(KIND_ID[x] for x in r["ingredients"]))
    )
    for i, r in enumerate(_DATA["recipes"])
)
RECIPE_BY_NAME: dict[str, Recipe] = {r.name: r for r in RECIPES}
