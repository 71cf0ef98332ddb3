"""Maki: the sushi tile-laying game for 2 to 4 players (rules in ``rules.py``, card data in ``cards.json``,
bots in ``bots.py``; rules decisions and the balance report in docs/maki.md)."""

from kiosk.engine import GameSpec
from kiosk.games.maki.bots import BOTS
from kiosk.games.maki.rules import action_from_json, new_game, stats

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
)
