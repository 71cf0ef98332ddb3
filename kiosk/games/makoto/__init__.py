"""Makoto: the climbing card game for 2 to 6 players (rules in ``rules.py``, bots in ``bots.py``,
a match of several games with the box-lid rule in ``match.py``)."""
from kiosk.engine import GameSpec
from kiosk.games.makoto.bots import BOTS
from kiosk.games.makoto.rules import MakotoState, action_from_json, new_game


def _stats(state: MakotoState) -> dict[str, float]:
    first = state.out[0] if state.out else -1
    return {"first_out_seat": first, "oracle_reshuffles": sum(1 for r in (state.journal or [])
                                                               if r.get("chance") == "oracle") - 1}


SPEC = GameSpec(
    key="makoto",
    title="Makoto",
    min_players=2,
    max_players=6,
    new_game=new_game,
    action_from_json=action_from_json,
    bots=BOTS,
    stats=_stats,
)
