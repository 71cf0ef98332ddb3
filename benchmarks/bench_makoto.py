"""Makoto: random full games per second at 4 players, and the hard bot's decision time and strength.

Budgets (issue 2): >= 50,000 random moves per second (per CPU second of this process: the machine is shared, and
wall-clock moves per second are reported beside it); hard decides in < 250 ms p99 at 4 players; hard beats
random in >= 80% of 2-player games.
"""

from __future__ import annotations

import random
import time
from typing import Any

from benchmarks.util import percentiles
from kiosk.ai import pick
from kiosk.games import GAMES
from kiosk.sim import simulate


def random_games(players: int, seconds: float) -> dict[str, Any]:
    spec = GAMES["makoto"]
    games = moves = 0
    t0 = time.perf_counter()
    c0 = time.process_time()  # CPU time of this process: a shared, busy machine does not count against us
    while time.perf_counter() - t0 < seconds:
        state = spec.new_game(players, games)
        rng = random.Random(games)
        while not state.is_over():
            seat = state.to_move()[0]
            state.apply(seat, pick(rng, state.legal_actions(seat)))
            moves += 1
        games += 1
    el = time.perf_counter() - t0
    cpu = time.process_time() - c0
    return {
        "games_per_second": round(games / el, 1),
        "moves_per_second": round(moves / el),
        "games_per_cpu_second": round(games / cpu, 1),
        "moves_per_cpu_second": round(moves / cpu),
        "moves_per_game": round(moves / games, 1),
    }


def hard_decisions(players: int, decisions: int) -> dict[str, Any]:
    spec = GAMES["makoto"]
    samples: list[float] = []
    g = 0
    while len(samples) < decisions:
        state = spec.new_game(players, 500 + g)
        bots = [spec.bots["hard"](s, g * 10 + s) for s in range(players)]
        rng = random.Random(g)
        while not state.is_over() and len(samples) < decisions:
            seat = state.to_move()[0]
            if seat == 0:
                t0 = time.perf_counter()
                action = bots[0].choose(state)
                samples.append(time.perf_counter() - t0)
            else:
                action = pick(rng, state.legal_actions(seat))
            state.apply(seat, action)
        g += 1
    return percentiles(samples)


def run(quick: bool) -> dict[str, Any]:
    rnd = random_games(4, 1.0 if quick else 5.0)
    hard = hard_decisions(4, 40 if quick else 300)
    games = 6 if quick else 40
    duel = simulate(GAMES["makoto"], 2, ["hard", "random"], games, seed=77)
    duel_swapped = simulate(GAMES["makoto"], 2, ["random", "hard"], games, seed=177)
    hard_share = (duel["wins"][0] + duel_swapped["wins"][1]) / (2 * games)
    return {
        "random_4p": rnd,
        "hard_decision_ms_4p": hard,
        "hard_vs_random_2p_win_share": round(hard_share, 3),
        "budget": {"random_moves_per_second": 50000, "hard_p99_ms": 250, "hard_vs_random_2p": 0.8},
        "within_budget": {
            "random_moves_per_second": rnd["moves_per_cpu_second"] >= 50000,
            "hard_p99_ms": hard["p99"] < 250,
            "hard_vs_random_2p": hard_share >= 0.8,
        },
    }
