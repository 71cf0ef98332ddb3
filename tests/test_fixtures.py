"""Saved games stay valid: every recorded game under ``fixtures/`` replays to its recorded end.

Like a chess library's move-count files. A rules change that alters one of these games must be deliberate: the
fixture is re-recorded (``python tests/fixtures/record.py <game>``) in the same commit, with a line in the game's
docs page saying why, because journals on a table's card are resumed after an upgrade.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiosk.engine import replay
from kiosk.games import GAMES

FIXTURES = Path(__file__).parent / "fixtures"
CASES = [(key, n) for key, spec in sorted(GAMES.items()) for n in range(spec.min_players, spec.max_players + 1)]


@pytest.mark.parametrize("key,players", CASES, ids=[f"{k}-{n}p" for k, n in CASES])
def test_recorded_game_replays_to_its_recorded_end(key, players):
    path = FIXTURES / f"{key}-{players}p.json"
    assert path.exists(), f"no recorded game for {key} at {players} players: run tests/fixtures/record.py {key}"
    rec = json.loads(path.read_text())
    assert (rec["game"], rec["players"]) == (key, players)
    state = replay(GAMES[key], players, rec["seed"], rec["journal"])
    assert state.is_over(), "the recorded game no longer ends where it did"
    assert state.scores() == rec["scores"]
    assert state.winners() == rec["winners"]
    assert state.journal == rec["journal"], "replaying journals the game differently"
    assert sum(1 for r in rec["journal"] if "action" in r) == rec["actions"]


def test_a_tampered_journal_is_caught():
    rec = json.loads((FIXTURES / "maki-2p.json").read_text())
    journal = list(rec["journal"])  # the last action dropped: the game does not end
    last = max(i for i, r in enumerate(journal) if "action" in r)
    del journal[last]
    state = replay(GAMES["maki"], 2, rec["seed"], journal)
    assert not state.is_over()
