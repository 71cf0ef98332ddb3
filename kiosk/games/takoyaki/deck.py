"""The order-card catalogue (``orders.json``): the kiosk's printed deck, and the tool that designed it.

Decisions (SUPPLEMENT.md: "the deck is generated and every order must be reachable"):

* The catalogue is 36 cards: 12 easy, 12 medium and 12 hard, rated by the solver's distance from the start
  grill (``rr../gg../bb..``): easy 8-12 moves, medium 13-16, hard 17 or more. No card is closer than 8 moves
  (a card nearly met by the start grill is no race). The bands follow the spread of random orders (about
  20% / 50% / 30%), so the deck is a little easier than a random one at the top and keeps the long ones in.
* Each game's deck is the whole catalogue, shuffled from the game's seed through ``State.shuffle`` (so the
  journal records the deal and replay follows it). Grills are never reset between orders, so after the
  first card the printed difficulty only says how far a card is from the start; the par shown to a seat is
  its own distance at the reveal (see ``TakoyakiState.view``).
* The catalogue was produced by :func:`design_catalogue` with :data:`DESIGN_SEED`; a designer may edit
  ``orders.json`` by hand: the tests check every card is a valid order whose stored difficulty is the solver's.

Regenerate with ``python -m kiosk.games.takoyaki.deck > kiosk/games/takoyaki/orders.json``.
"""

from __future__ import annotations

import json
import random
from functools import cache, lru_cache
from pathlib import Path
from typing import NamedTuple

from kiosk.games.takoyaki.grill import COLOURS, SPACES, format_order, parse_order

CATALOGUE_FILE = Path(__file__).with_name("orders.json")
DESIGN_SEED = 20261129
#: Difficulty bands: name -> (fewest, most) moves from the start grill, and how many cards of each.
BANDS = {"easy": (8, 12), "medium": (13, 16), "hard": (17, 99)}
CARDS_PER_BAND = 12


class Card(NamedTuple):
    card: str  # the order in text form, e.g. "R.G./.B.R/..GB"
    difficulty: int  # fewest moves from the start grill

    @property
    def band(self) -> str:
        return band_of(self.difficulty)


def band_of(difficulty: int) -> str:
    for name, (lo, hi) in BANDS.items():
        if lo <= difficulty <= hi:
            return name
    return "easy" if difficulty < BANDS["easy"][0] else "hard"


def random_order(rng: random.Random) -> tuple[int, ...]:
    """A uniformly random valid order, drawn with ``rng.random()`` only (the same on every Python)."""
    spaces = list(range(SPACES))
    chosen = []
    for _ in range(6):
        chosen.append(spaces.pop(int(rng.random() * len(spaces))))
    cells = [0] * SPACES
    for i, s in enumerate(chosen):
        cells[s] = COLOURS[i // 2]
    return tuple(cells)


def design_catalogue(seed: int = DESIGN_SEED, per_band: int = CARDS_PER_BAND) -> list[Card]:
    """Draw random orders until every band holds ``per_band`` distinct cards; easy first, then medium, hard."""
    from kiosk.games.takoyaki.solver import difficulty

    rng = random.Random(seed)
    picked: dict[str, list[Card]] = {name: [] for name in BANDS}
    seen: set[str] = set()
    while any(len(v) < per_band for v in picked.values()):
        order = random_order(rng)
        text = format_order(order)
        if text in seen:
            continue
        seen.add(text)
        d = difficulty(order)
        if d < BANDS["easy"][0]:
            continue
        band = picked[band_of(d)]
        if len(band) < per_band:
            band.append(Card(text, d))
    return [c for name in BANDS for c in picked[name]]


@lru_cache(maxsize=1)
def catalogue() -> tuple[Card, ...]:
    """The printed deck, read once from ``orders.json``."""
    data = json.loads(CATALOGUE_FILE.read_text(encoding="utf-8"))
    cards = tuple(Card(str(c["card"]), int(c["difficulty"])) for c in data["cards"])
    for c in cards:
        parse_order(c.card)  # raises on a malformed card
    if len({c.card for c in cards}) != len(cards):
        raise ValueError("orders.json repeats a card")
    return cards


@cache
def card_difficulty(card: str) -> int:
    """The stored difficulty of a catalogue card (the solver's, for a card not in the catalogue)."""
    for c in catalogue():
        if c.card == card:
            return c.difficulty
    from kiosk.games.takoyaki.solver import difficulty

    return difficulty(parse_order(card))


def main() -> None:
    cards = design_catalogue()
    rows = ",\n".join("  " + json.dumps({"card": c.card, "difficulty": c.difficulty}) for c in cards)
    about = (
        "Takoyaki order cards: the order as its seat sees it (rows far to near, '/' between rows), "
        "and its difficulty = fewest moves from the start grill rr../gg../bb.. . "
        "Made by kiosk/games/takoyaki/deck.py; may be edited by hand (tests check every card)."
    )
    head = {"about": about, "design_seed": DESIGN_SEED}
    print(f'{json.dumps(head, indent=1)[:-2]},\n "cards": [\n{rows}\n ]\n}}')


if __name__ == "__main__":
    main()
