"""Maki: random full 4-player games per second, and the hard bot's decision time (p50/p99).

Budget: ``hard`` decides in under 250 ms at the 99th percentile. Baseline measured in the same run: the
``normal`` heuristic bot's decision time on the same positions (for a ratio on a noisy shared machine).
"""

from __future__ import annotations

import random
import time
from typing import Any

from benchmarks.util import percentiles
from kiosk.ai import ISMCTSBot, RandomBot
from kiosk.games import GAMES

BUDGET_MS = 250.0


def _random_games(seconds: float) -> dict[str, Any]:
    spec = GAMES["maki"]
    games = 0
    actions = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while time.perf_counter() - start < seconds or games < 3:
        state = spec.new_game(4, games)
        bots = [RandomBot(s, games * 10 + s) for s in range(4)]
        while not state.is_over():
            seat = state.to_move()[0]
            state.apply(seat, bots[seat].choose(state))
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    # Wall clock is what a player sees; CPU time is steadier on a shared machine.
    return {
        "games": games,
        "games_per_second": round(games / elapsed, 1),
        "games_per_cpu_second": round(games / cpu, 1) if cpu else None,
        "actions_per_second": round(actions / elapsed),
    }


def _decisions(games: int) -> dict[str, Any]:
    """Time every ``hard`` decision with more than one legal action in hard-vs-normal 2- and 4-player games."""
    spec = GAMES["maki"]
    hard_t: list[float] = []
    normal_t: list[float] = []
    iters: list[int] = []
    for g in range(games):
        players = 2 if g % 2 == 0 else 4
        state = spec.new_game(players, 500 + g)
        hard = spec.bots["hard"](0, g)
        assert isinstance(hard, ISMCTSBot)
        normal = spec.bots["normal"](0, g)
        others = [spec.bots["normal"](s, g * 7 + s) for s in range(players)]
        while not state.is_over():
            seat = state.to_move()[0]
            if seat == 0 and len(state.legal_actions(0)) > 1:
                t0 = time.perf_counter()
                normal.choose(state)
                normal_t.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                action = hard.choose(state)
                hard_t.append(time.perf_counter() - t0)
                iters.append(hard.last_iterations)
            else:
                action = others[seat].choose(state)
            state.apply(seat, action)
    return {
        "hard_ms": percentiles(hard_t),
        "normal_ms": percentiles(normal_t),
        "hard_mean_iterations": round(sum(iters) / len(iters), 1) if iters else 0,
    }


def run(quick: bool) -> dict[str, Any]:
    random.seed(0)
    out: dict[str, Any] = {"random_4p": _random_games(2.0 if quick else 8.0)}
    out.update(_decisions(1 if quick else 6))
    p99 = out["hard_ms"]["p99"]
    out["hard_p99_vs_normal_p99"] = round(p99 / max(out["normal_ms"]["p99"], 1e-6), 1)
    out["budget"] = f"hard p99 < {BUDGET_MS:.0f} ms"
    out["within_budget"] = p99 < BUDGET_MS
    return out
