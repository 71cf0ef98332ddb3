"""Maki: the sushi tile-laying game for 2 to 4 players (rules in ``rules.py``, card data in ``cards.json``,
bots in ``bots.py``; rules decisions and the balance report in docs/maki.md).

:data:`MAX_SCORE`, the highest score a real game can reach (``SPEC.results``: what an event's board believes), is
derived from the rules in the comment beside it.
"""

from kiosk.engine import GameSpec, Results
from kiosk.games.maki.bots import BOTS
from kiosk.games.maki.rules import action_from_json, new_game, stats

# How high a real game's score can go, from the rules in ``rules.py`` and the card data in ``cards.json``. A score is
# the served recipes' values plus the seat's Wasabi (``MakiState.scores``); nothing ever takes points away, so the
# lowest is 0. The highest:
#
# * **Recipes**: a served recipe leaves play for good (``served``; it never goes back to a hand or a deck), so one
#   seat serves each of the 65 recipes at most once: at most the sum of all their values, 351
#   (20 x 2 + 18 x 4 + 15 x 7 + 10 x 11 + 2 x 12).
# * **Wasabi for style**: at most each recipe's style once, 84 (18 x 1 + 15 x 2 + 12 x 3).
# * **Wasabi from the backs** of recipes drawn after serving (``obey_backs``): at most 2 per draw (gain one and
#   add one to the pool, or add two). Such draws take cards from the decks, which start with 65 - 3 x players
#   cards; a card returned to a deck by the Prep "return" is drawn back by the same turn's refill, whose draws do
#   not obey backs (the refill draws at least as many as were returned), so such draws number at most 65 - 3 x
#   players: at most 2 x (65 - 3 x players) Wasabi.
# * **Wasabi from the pool**: it starts at 1 and each "take the pool" refills it with 1, so the pool hands out at
#   most 1 + (takes) beyond what the backs put in. Every turn ends with exactly one of serve, take an action card,
#   take the pool, or return recipes, and places a tile while a space is empty. Before the board fills, every turn
#   places at least one tile and only a Chop empties a space, so the turns before it fills number at most the
#   empty spaces at the start (spaces - players: the teacups) plus the Chops played. A Chop played was taken
#   earlier: by a turn that took an action card (and so did not take the pool) or as the gift for serving one of
#   the 20 two-ingredient recipes. So the turns that take the pool or return recipes number at most
#   (spaces - players) + 20 before the board fills, plus one final turn each: spaces + 20 (50, 56, 62 for the
#   5-, 6- and 7-column boards of 2, 3 and 4 players).
# * All Wasabi that can enter a game, whoever gets it: 1 + (spaces + 20) + 2 x (65 - 3 x players) = 169 at 2, 3 and
#   4 players alike, plus 84 for style: 253.
#
# So no seat can end a real game above 351 + 253 = **604** (real games end far lower: the balance report's means
# are in docs/maki.md); a record claiming more is refused.

#: The highest score a real game can reach (derived above; ``tests/test_result_ranges.py`` redoes the arithmetic
#: from the card data).
MAX_SCORE = 604

SPEC = GameSpec(
    key="maki",
    title="Maki",
    min_players=2,
    max_players=4,
    new_game=new_game,
    action_from_json=action_from_json,
    bots=BOTS,
    stats=stats,
    symbol="\u25a3",
    results=Results(score=(0, MAX_SCORE)),
)
