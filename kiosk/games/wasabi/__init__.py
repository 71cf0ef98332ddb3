"""Wasabi!: the sushi-board game for 2 to 4 players (rules in ``rules.py``, card set in ``cards.json``,
bots in ``bots.py``; rules decisions and the balance report in ``docs/wasabi.md``)."""

from kiosk.engine import GameSpec
from kiosk.games.wasabi.bots import BOTS
from kiosk.games.wasabi.rules import CARDS, WasabiState, action_from_json, new_game


def _stats(state: WasabiState) -> dict[str, float]:
    """Per-game numbers the simulator averages: instant wins, turns, passes and plays of each action card."""
    out: dict[str, float] = {
        "instant_win": 1.0 if state.instant_winner >= 0 else 0.0,
        "stalled": 1.0 if state.end_reason == "everyone passed" else 0.0,
        "turns": float(state.turns),
        "passes": float(state.passes),
        "recipes_completed": float(sum(len(d) for d in state.done)),
    }
    for i, name in enumerate(CARDS):
        out[f"played_{name.lower()}"] = float(state.card_counts[i])
    return out


SPEC = GameSpec(
    key="wasabi",
    title="Wasabi!",
    min_players=2,
    max_players=4,
    new_game=new_game,
    action_from_json=action_from_json,
    bots=BOTS,
    stats=_stats,
    symbol="\u2668",
)
