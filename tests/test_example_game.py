"""The developer's guide's example game (``examples/games/highcard/``) is a real game of the table: the
engine-contract tests (``tests/test_conformance.py``) pass against it, found through ``$KIOSK_GAMES_PATH`` exactly
as the guide says."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]


def test_the_example_game_passes_the_conformance_tests() -> None:
    env = dict(os.environ, KIOSK_GAMES_PATH=str(ROOT / "examples" / "games"))
    r = subprocess.run(
        [sys.executable, "-P", "-m", "pytest", "tests/test_conformance.py", "-k", "highcard", "-q", "-n", "0",
         "-p", "no:cacheprovider"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    passed = re.search(r"(\d+) passed", r.stdout)
    assert passed and int(passed.group(1)) >= 20, r.stdout[-2000:]
    assert "failed" not in r.stdout


def test_the_example_game_plays_in_the_simulator() -> None:
    env = dict(os.environ, KIOSK_GAMES_PATH=str(ROOT / "examples" / "games"))
    r = subprocess.run(
        [sys.executable, "-P", "-m", "kiosk.sim", "highcard", "--players", "3", "--bots", "hard,normal,random",
         "--games", "10", "--seed", "1"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    assert "highcard: 10 games, 3 players" in r.stdout and "illegal actions: 0" in r.stdout
