"""High Card: the example game of the developer's guide (docs/developer/README.md, "Adding a game").

A complete game folder of the table in four small files: the rules (``rules.py``), bots at the four levels
(``bots.py``), the how-to (``howto.json``) and this ``SPEC``. It is not installed with the kiosk; it is found
like a built-in game when its parent folder is named by ``$KIOSK_GAMES_PATH``::

    KIOSK_GAMES_PATH=examples/games .venv/bin/kiosk          # the picker lists High Card
    KIOSK_GAMES_PATH=examples/games .venv/bin/python -m kiosk.sim highcard --players 3 --bots hard,easy,random

``tests/test_example_game.py`` runs the engine-contract tests (``tests/test_conformance.py``) against it. Copy
the folder to ``kiosk/games/<key>/``, rename the key, and change the rules: the rest of the table follows.

``results``: what a real game can score, from the rules, for an event's shared leaderboard (which takes no record
outside it): a seat scores a point per trick it wins, and a game has ``HAND`` tricks, so 0 to ``HAND``.
"""

from __future__ import annotations

from kiosk.engine import GameSpec, Results, action_codec
from kiosk.games.highcard.bots import BOTS
from kiosk.games.highcard.rules import HAND, HighCardState, Play

SPEC = GameSpec(
    key="highcard",
    title="High Card",
    min_players=2,
    max_players=4,
    new_game=HighCardState,
    action_from_json=action_codec(Play),
    bots=BOTS,
    symbol="\u2660",
    results=Results(score=(0, HAND)),
)
