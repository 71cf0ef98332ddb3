"""Takoyaki: a real-time race to cook order cards on your own grill (1-4 players; 1 player is a time trial).

* :mod:`.grill` - the grill's spaces, ball and order encodings, the match test;
* :mod:`.actions` - ``Push``, ``Turn``, ``Claim``, ``Fault``;
* :mod:`.rules` - the engine (:class:`~kiosk.games.takoyaki.rules.TakoyakiState`);
* :mod:`.deck` and ``orders.json`` - the 36 order cards and how they were designed;
* :mod:`.solver` - the optimal solver (fewest moves with the move list, difficulty and par);
* :mod:`.bots` - paced bots (``easy``, ``normal``, ``hard``; ``random`` is the shared RandomBot).

Scores are orders won (higher is better). A time trial's high-score entry is the screen's time for five orders
(lower is better); see ``docs/takoyaki.md``.
"""

from __future__ import annotations

from kiosk.engine import GameSpec
from kiosk.games.takoyaki.actions import FAULT_KINDS, Claim, Fault, Push, Turn, action_from_json
from kiosk.games.takoyaki.bots import BOTS, PacedBot
from kiosk.games.takoyaki.rules import MAX_PLAYERS, MIN_PLAYERS, TakoyakiState, new_game, stats

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
)

__all__ = ["SPEC", "TakoyakiState", "Push", "Turn", "Claim", "Fault", "FAULT_KINDS", "PacedBot", "new_game"]
