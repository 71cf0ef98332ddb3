"""Takoyaki: optimal-solver latency (budget: p99 under 50 ms over 1,000 random grill/order pairs) and the
state-check throughput (how many "TAKOYAKI!" checks and engine moves per second).

Baseline measured in the same run: plain breadth-first search (``solver.exhaustive_distance``) on the small
cases it can finish quickly (8 random moves from an order), against the solver on the same cases.
"""

from __future__ import annotations

import random
import time
from typing import Any

from benchmarks.util import percentiles, timed
from kiosk.games.takoyaki.deck import random_order
from kiosk.games.takoyaki.grill import SPACES, goal_grill, matches
from kiosk.games.takoyaki.rules import TakoyakiState
from kiosk.games.takoyaki.solver import _solve, exhaustive_distance, neighbours_of, solve

BUDGET_P99_MS = 50.0


def random_grill(rng: random.Random) -> tuple[int, ...]:
    cells = [0] * SPACES
    spaces = list(range(SPACES))
    for i in range(6):
        s = spaces.pop(int(rng.random() * len(spaces)))
        cells[s] = i // 2 + 1 + 3 * int(rng.random() * 2)
    return tuple(cells)


def run(quick: bool) -> dict[str, Any]:
    rng = random.Random(2026)
    n = 200 if quick else 1000
    pairs = [(random_grill(rng), random_order(rng)) for _ in range(n)]
    _solve.cache_clear()
    times, lengths, expanded = [], [], []
    for g, o in pairs:
        t0 = time.perf_counter()
        sol = solve(g, o)
        times.append(time.perf_counter() - t0)
        lengths.append(sol.length)
        expanded.append(sol.expanded)
    _solve.cache_clear()
    lat = percentiles(times)
    exp_sorted = sorted(expanded)

    # baseline: exhaustive BFS vs the solver on small cases (8 random moves away from an order)
    small: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    while len(small) < (5 if quick else 20):
        o = random_order(rng)
        g = goal_grill(o)
        for _ in range(8):
            nbrs = list(neighbours_of(g))
            g = nbrs[int(rng.random() * len(nbrs))]
        small.append((g, o))
    bfs_t = timed(lambda: [exhaustive_distance(g, o) for g, o in small])
    _solve.cache_clear()
    sol_t = timed(lambda: [solve(g, o) for g, o in small])
    _solve.cache_clear()

    # state checks: the claim test on random pairs, and whole engine moves (legal actions + apply)
    checks = pairs * (20 if quick else 100)
    t = timed(lambda: [matches(g, o) for g, o in checks])
    state = TakoyakiState(4, 1)
    state.journal = None
    steps = 0
    t0 = time.perf_counter()
    while steps < (5_000 if quick else 30_000):
        if state.is_over():
            state = TakoyakiState(4, steps)
            state.journal = None
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[int(rng.random() * (len(legal) - 4))])  # pushes and turns only
        steps += 1
    engine_t = time.perf_counter() - t0
    return {
        "solver_ms": lat,
        "solver_moves": {"p50": sorted(lengths)[len(lengths) // 2], "max": max(lengths)},
        "solver_expanded": {
            "p50": exp_sorted[len(exp_sorted) // 2],
            "p99": exp_sorted[int(0.99 * len(exp_sorted))],
            "max": exp_sorted[-1],
        },
        "baseline_bfs_small_cases": {
            "cases": len(small),
            "bfs_ms_per_case": round(bfs_t / len(small) * 1e3, 3),
            "solver_ms_per_case": round(sol_t / len(small) * 1e3, 3),
            "speedup": round(bfs_t / sol_t, 1) if sol_t else None,
        },
        "state_checks_per_second": round(len(checks) / t),
        "engine_moves_per_second": round(steps / engine_t),
        "budget": f"solver p99 < {BUDGET_P99_MS} ms over {n} random (arrangement, order) pairs",
        "within_budget": lat["p99"] < BUDGET_P99_MS,
    }
