"""Takoyaki: a real-time race to cook order cards on your own grill (1-4 players; 1 player is a time trial).

* :mod:`.grill` - the grill's spaces, ball and order encodings, the match test;
* :mod:`.actions` - ``Push``, ``Turn``, ``Claim``, ``Fault``;
* :mod:`.rules` - the engine (:class:`~kiosk.games.takoyaki.rules.TakoyakiState`);
* :mod:`.deck` and ``orders.json`` - the 36 order cards and how they were designed;
* :mod:`.solver` - the optimal solver (fewest moves with the move list, difficulty and par);
* :mod:`.bots` - paced bots (``easy``, ``normal``, ``hard``; ``random`` is the shared RandomBot).

Scores are orders won (higher is better). A time trial's high-score entry is the screen's time for five orders
(lower is better); see ``docs/takoyaki.md``.

The results a real game can produce (``SPEC.results``: what an event's board believes) are derived from the rules
in the comment beside :data:`FASTEST_TRIAL_MS`.
"""

from __future__ import annotations

from kiosk.engine import GameSpec, Results
from kiosk.games.takoyaki.actions import FAULT_KINDS, Claim, Fault, Push, Turn, action_from_json
from kiosk.games.takoyaki.bots import BOTS, PacedBot
from kiosk.games.takoyaki.rules import (
    BETWEEN_S,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ORDERS_TO_WIN,
    TakoyakiState,
    new_game,
    stats,
)

# The results a real game can produce, from ``rules.py``:
#
# * **Scores**: orders won, 0 to :data:`~kiosk.games.takoyaki.rules.ORDERS_TO_WIN` (5): the game ends the moment a
#   seat wins its fifth (or the deck runs out first), at 1 to 4 players.
# * **A time trial's time** (one player; only a trial that won five orders has one): its clock runs from the first
#   order's reveal to the fifth order won. Each order after the first is revealed only after the screen's pause
#   (:data:`~kiosk.games.takoyaki.rules.BETWEEN_S`, 1.5 s, during which no grill takes a move), and every order needs
#   at least one move on the grill (a grill matches one order card at most, and no card comes twice), so no trial can
#   take less than 4 x 1.5 s = **6.00 s** (the true floor is higher: the moves and taps take time too, which no rule
#   bounds). The slowest is a day, a game record's own bound on a game's length: times run from
#   :data:`FASTEST_TRIAL_MS` to :data:`SLOWEST_TRIAL_MS`, and a record with a time under 6 s is refused.

#: The fastest time trial the rules allow (derived above), in milliseconds.
FASTEST_TRIAL_MS = int(round((ORDERS_TO_WIN - 1) * BETWEEN_S * 1000))
#: The slowest a time trial can record: a day (a game record's ``duration_s`` is under a day).
SLOWEST_TRIAL_MS = 86_400_000

SPEC = GameSpec(
    key="takoyaki",
    title="Takoyaki",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    new_game=new_game,
    action_from_json=action_from_json,
    bots=BOTS,
    stats=stats,
    lower_is_better=False,
    symbol="\u25ce",
    results=Results(score=(0, ORDERS_TO_WIN), trial_ms=(FASTEST_TRIAL_MS, SLOWEST_TRIAL_MS)),
)

__all__ = ["SPEC", "TakoyakiState", "Push", "Turn", "Claim", "Fault", "FAULT_KINDS", "PacedBot", "new_game"]
