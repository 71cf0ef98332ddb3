"""Wasabi!: random full games per second at 4 players, the cost of ``clone``/``determinize`` (what ISMCTS pays
per iteration), and the ``hard`` bot's decision time p50/p99 against its 250 ms budget.

The machine is shared: the hard bot's search is time-limited (``HardBot.time_limit``), so its p99 is the limit
plus the candidate ranking; ``baseline_ms`` times a fixed pure-Python loop in the same run for comparison.
"""

from __future__ import annotations

import random
import time
from typing import Any

from benchmarks.util import percentiles
from kiosk.ai import RandomBot
from kiosk.games.wasabi.bots import HardBot
from kiosk.games.wasabi.rules import new_game

BUDGET_MS = 250.0


def _baseline() -> float:
    t0 = time.perf_counter()
    x = 0
    for i in range(200_000):
        x += i % 7
    return (time.perf_counter() - t0) * 1000


def _random_games(n: int) -> tuple[float, int]:
    t0 = time.perf_counter()
    actions = 0
    for g in range(n):
        s = new_game(4, g)
        bots = [RandomBot(i, g * 10 + i) for i in range(4)]
        while not s.is_over():
            seat = s.to_move()[0]
            s.apply(seat, bots[seat].choose(s))
            actions += 1
    return n / (time.perf_counter() - t0), actions // n


def _clone_costs(samples: int) -> dict[str, float]:
    s = new_game(4, 3)
    rng = random.Random(3)
    for _ in range(120):
        seat = s.to_move()[0]
        s.apply(seat, s.legal_actions(seat)[int(rng.random() * len(s.legal_actions(seat)))])
    seat = s.to_move()[0]
    t0 = time.perf_counter()
    for _ in range(samples):
        s.clone()
    clone_us = (time.perf_counter() - t0) / samples * 1e6
    t0 = time.perf_counter()
    for _i in range(samples):
        s.determinize(seat, rng)
    det_us = (time.perf_counter() - t0) / samples * 1e6
    t0 = time.perf_counter()
    for _i in range(samples):
        s.legal_actions(seat)
    legal_us = (time.perf_counter() - t0) / samples * 1e6
    return {"clone_us": round(clone_us, 1), "determinize_us": round(det_us, 1), "legal_actions_us": round(legal_us, 1)}


def _hard_decisions(players: int, games: int) -> tuple[list[float], list[int]]:
    times: list[float] = []
    iters: list[int] = []
    for g in range(games):
        s = new_game(players, 100 + g)
        bots = [HardBot(i, g * 10 + i) for i in range(players)]
        while not s.is_over():
            seat = s.to_move()[0]
            searched = s.phase == "play" and len(s.legal_actions(seat)) > 1
            t0 = time.perf_counter()
            a = bots[seat].choose(s)
            dt = time.perf_counter() - t0
            if searched:
                times.append(dt)
                iters.append(bots[seat].last_iterations)
            s.apply(seat, a)
    return times, iters


def run(quick: bool) -> dict[str, Any]:
    base = _baseline()
    gps, actions = _random_games(10 if quick else 60)
    out: dict[str, Any] = {
        "baseline_ms": round(base, 2),
        "random_games_per_second_4p": round(gps, 1),
        "actions_per_random_game_4p": actions,
    }
    out.update(_clone_costs(200 if quick else 2000))
    ok = True
    for players in (2, 4):
        times, iters = _hard_decisions(players, 1 if quick else 3)
        p = percentiles(times)
        p["mean_iterations"] = round(sum(iters) / max(1, len(iters)), 1)
        out[f"hard_decision_ms_{players}p"] = p
        ok = ok and p.get("p99", 0.0) < BUDGET_MS
    out["budget"] = f"hard p99 < {BUDGET_MS:.0f} ms"
    out["within_budget"] = ok
    return out
