"""ISMCTS iterations per second per game (determinize + selection + playout + backup), before and after.

For each game with hidden information (Maki, Wasabi!, Makoto; Takoyaki's bots race along the solver's path and
do not search), positions are taken from games played by ``normal`` bots (every ``STRIDE``-th decision of seat
0), and the game's ``hard`` bot searches each with a fixed budget and no clock. Iterations per second is the sum
of iterations over the sum of search time, per CPU second of this process (the machine is shared; wall-clock
figures are reported beside it). Each position is searched twice in the same run: with the old
determinize path (``devtools.legacy_search``: a full clone copying the journal and the generator's
state, then reseeded) and with the new one (``State.search_copy``: shared immutable parts, no journal, a
generator made only if the copy shuffles), so the speed-up is measured on the same machine at the same load.
"""

from __future__ import annotations

import time
from typing import Any

from devtools.legacy_search import legacy_search_copy
from kiosk.ai import ISMCTSBot
from kiosk.engine import State
from kiosk.games import GAMES

GAMES_WITH_SEARCH = ("maki", "wasabi", "makoto")
#: Wasabi!'s hard bot searches step 1 only (refills and setup follow a heuristic).
SEARCHED_PHASES = {"wasabi": ("play",)}
STRIDE = 5


def positions(key: str, count: int) -> list[State]:
    """Seat 0's decisions (with a choice) from 2-player games of ``normal`` bots, every ``STRIDE``-th."""
    spec = GAMES[key]
    out: list[State] = []
    game = 0
    while len(out) < count:
        state = spec.new_game(2, 900 + game)
        bots = [spec.bots["normal"](s, game * 7 + s) for s in range(2)]
        seen = 0
        while not state.is_over() and len(out) < count:
            seat = state.to_move()[0]
            phases = SEARCHED_PHASES.get(key)
            searched = phases is None or getattr(state, "phase", None) in phases
            if seat == 0 and searched and len(state.legal_actions(0)) > 1:
                seen += 1
                if seen % STRIDE == 0:
                    out.append(state.clone())
            state.apply(seat, bots[seat].choose(state))
        game += 1
    return out


def rate(key: str, states: list[State], iterations: int, legacy: bool) -> dict[str, float]:
    spec = GAMES[key]
    with legacy_search_copy(legacy):
        done = 0
        spent = cpu = 0.0
        for i, state in enumerate(states):
            bot = spec.bots["hard"](0, 1000 + i)
            assert isinstance(bot, ISMCTSBot)
            bot.iterations, bot.time_limit = iterations, None
            t0, c0 = time.perf_counter(), time.process_time()
            bot.choose(state)
            spent += time.perf_counter() - t0
            cpu += time.process_time() - c0
            done += bot.last_iterations
    return {
        "iterations": done,
        "seconds": round(spent, 3),
        "cpu_seconds": round(cpu, 3),
        "iterations_per_second": round(done / spent, 1),
        "iterations_per_cpu_second": round(done / cpu, 1) if cpu else 0.0,
    }


def run(quick: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in GAMES_WITH_SEARCH:
        states = positions(key, 6 if quick else 30)
        iterations = 75 if quick else 150
        rate(key, states[:2], 10, legacy=False)  # warm caches and imports
        before = rate(key, states, iterations, legacy=True)
        after = rate(key, states, iterations, legacy=False)
        out[key] = {
            "positions": len(states),
            "iterations_per_decision": iterations,
            "before": before,
            "after": after,
            "speedup_cpu": round(after["iterations_per_cpu_second"] / before["iterations_per_cpu_second"], 2),
        }
    return out
