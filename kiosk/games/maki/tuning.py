"""Maki bots' tuning: every number the ``easy``, ``normal`` and ``hard`` bots were tuned with, in one place.

Each was measured (docs/maki.md has the runs); change one only with a strength run at the kiosk's budget.
"""

from __future__ import annotations

#: How good each action card is to hold (choosing a card after a 2-ingredient serve, or which to discard).
CARD_VALUE = {"Switch": 4, "Chop": 2, "Substitute": 3, "Second Helping": 3}

#: Weight of the expected points the opponents could score in a space we fill (blocking).
N_BLOCK = 1.0

#: Weight of the expected points we hand the opponents by leaving a one-tile hole next to our tile (feeding).
N_FEED = 0.5

#: Least value (points plus style Wasabi) an action card play must serve at once: cards are kept for 3+ recipes
#: (2 measured weaker) ...
N_CARD_MIN = 4.0

#: ... except on the final turns, when a card left in hand is worth nothing.
N_CARD_MIN_FINAL = 0.0

#: How good each action card is to the normal bot (which card to gain after a 2-ingredient serve, which to
#: discard): Substitute and Chop fix the one wrong tile of a line, and more such lines turn up than Switch ones.
N_CARD_VALUE = {"Substitute": 5, "Chop": 4, "Switch": 3, "Second Helping": 2}

#: Weight of a deck's prospect (the mean worth of what its top card may be, on this board) in the deck choice.
N_DECK = 2.0

#: The share of its decisions the ``normal`` bot makes the easy way (a slip, as a mid-level player makes):
#: the full normal policy beats ``easy`` in 0.92 of 2-player games and also beats ``hard`` at the kiosk's
#: think time, so the level in the middle blends the two (measured in docs/maki.md).
NORMAL_SLIP = 0.7

#: The hard bot's leaf evaluation: weight of hand recipes' progress (plus more while the board is empty), of a
#: held action card, of the pool for the seat to move, and the logistic curve's temperature.
EVAL_HAND, EVAL_EMPTY, EVAL_CARD, EVAL_POOL, EVAL_TEMP = 0.4, 0.5, 0.4, 0.15, 3.0

#: Playout steps before the evaluation cuts in (a turn is about four steps).
ROLLOUT_DEPTH = 0

#: How many candidate kinds / spaces the search considers per step (the rest are pruned).
TOP_KINDS = 5
TOP_CELLS = 5
#: Spaces an opponent's likely recipe needs, always searched (blocking).
BLOCK_CELLS = 2
#: The hard bot's UCB exploration constant.
EXPLORATION = 0.2
