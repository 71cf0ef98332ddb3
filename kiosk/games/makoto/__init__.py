"""Makoto: the climbing card game for 2 to 6 players (rules in ``rules.py``, bots in ``bots.py``,
a match of several games with the box-lid rule in ``match.py``)."""

from collections.abc import Mapping
from typing import Any

from kiosk.engine import GameSpec
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
)
