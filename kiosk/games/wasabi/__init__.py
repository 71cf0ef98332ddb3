"""Wasabi!: the sushi-board game for 2 to 4 players (rules in ``rules.py``, card set in ``cards.json``,
bots in ``bots.py``; rules decisions and the balance report in ``docs/wasabi.md``).

:data:`MAX_SCORE`, the highest score a real game can reach (``SPEC.results``: what an event's board believes), is
derived from the rules in the comment beside it.
"""

from kiosk.engine import GameSpec, Results
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


# How high a real game's score can go, from ``rules.py`` and ``cards.json``: a score is the points of the seat's
# assigned Challenge Tokens plus its Wasabi cubes (``WasabiState.score_of``); nothing takes them away, so the lowest
# is 0. The highest:
#
# * **Tokens**: each seat has ten, assigned at most once each: 4 x 2 + 3 x 3 + 2 x 5 + 1 x 8 = 35 points.
# * **Cubes for style**: at most once per token: 3 x 1 + 2 x 2 + 1 x 3 = 10.
# * **Cubes from Wasabi! cards**: each play gives one cube; a seat plays only a card it holds, and it takes a card
#   only as the reward for a recipe it completed (one card per completion, from the Kitchen or picked up from the
#   board). Its tenth completion ends the game at once (the instant win), so at most nine rewards can be played
#   afterwards: 9 cubes.
#
# So no seat can end a real game above 35 + 10 + 9 = **54**; a record claiming more is refused.

#: The highest score a real game can reach (derived above; ``tests/test_result_ranges.py`` redoes the sums).
MAX_SCORE = 54

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
    results=Results(score=(0, MAX_SCORE)),
)
