"""Makoto: the climbing card game for 2 to 6 players (rules in ``rules.py``, bots in ``bots.py``,
a match of several games with the box-lid rule in ``match.py``).

:data:`MAX_SCORE`, the highest score a real game can reach (``SPEC.results``: what an event's board believes; an
event record is one game, not a match's total), is derived from the rules in the comment beside it.
"""

from collections.abc import Mapping
from typing import Any

from kiosk.engine import GameSpec, Results
from kiosk.games.makoto.actions import action_from_json
from kiosk.games.makoto.bots import BOTS
from kiosk.games.makoto.rules import MakotoState, new_game


def _stats(state: MakotoState) -> dict[str, float]:
    first = state.out[0] if state.out else -1
    return {
        "first_out_seat": first,
        "oracle_reshuffles": sum(1 for r in (state.journal or []) if r.get("chance") == "oracle") - 1,
    }


def _setup_game(players: int, seed: int, setup: Mapping[str, Any]) -> MakotoState:
    """A later game of a match: the deal has moved on and the box lid may be out (``MakotoMatch.setup``)."""
    unknown = set(setup) - {"dealer", "lid_holder"}
    if unknown:
        raise ValueError(f"unknown Makoto set-up: {sorted(unknown)}")
    for key in ("dealer", "lid_holder"):
        value = setup.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players):
            raise ValueError(f"Makoto set-up {key} must be a seat 0 to {players - 1}, not {value!r}")
    return MakotoState(players, seed, dealer=setup.get("dealer"), lid_holder=setup.get("lid_holder"))


# How high a real game's score can go, from ``rules.py`` and the rulebook's scoring. A seat's score is its
# reward card plus the points of the cards it won (a 2 is 20, a 5 is 5, a 10 is 10:
# :data:`~kiosk.games.makoto.rules.POINTS`), plus the Blind's scoring cards for whoever went out first
# (``MakotoState.scores``); nothing takes points away, so the lowest is 0. The highest: the first reward, 50, plus
# every scoring card of the game in one seat's hands. The deck and the Oracle hold, at 4 to 6 players (``SETUP``:
# numbers up to 13 or 16, with Swords), six 2s, six 5s and six 10s, 210 points; at 2 and 3 players (no Swords) five
# of each, 175. A card is in one place at a time (won, in the Blind, in a hand, set aside), so no seat can end a real
# game above 50 + 210 = **260**; a record claiming more is refused.

#: The highest score a real game can reach (derived above; ``tests/test_result_ranges.py`` redoes the sum).
MAX_SCORE = 260

SPEC = GameSpec(
    key="makoto",
    title="Makoto",
    min_players=2,
    max_players=6,
    new_game=new_game,
    action_from_json=action_from_json,
    bots=BOTS,
    stats=_stats,
    setup_game=_setup_game,
    symbol="\u2694",
    match_choices=(1, 0),  # one game, or the full match (everyone deals once)
    results=Results(score=(0, MAX_SCORE)),
)
