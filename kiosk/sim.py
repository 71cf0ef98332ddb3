"""Headless simulator: bots play full games through the engine contract; prints a balance report.

    python -m kiosk.sim makoto --players 4 --bots hard,random,random,random --games 50 --seed 1 [--json]
        [--iterations N] [--jobs J]

``--iterations N`` gives every search bot (ISMCTS, the ``hard`` level) a fixed budget of N iterations a decision
and no time limit, so a long balance run is reproducible and does not depend on the machine's load (the kiosk's
bots think for a fixed time instead). ``--jobs J`` plays the games in J worker processes; the report is the same
as with one (game ``g`` always uses seed ``seed + g``), only faster.

Reports wins per seat (a shared win counts as a fraction), mean scores, with ``--times`` each seat's decision times
(median, 99th percentile and worst, in ms) and, for a search bot, how many iterations its searches made (decisions
that searched, their mean and fewest), mean game length in actions, games per
second, the game's own statistics (``GameSpec.stats``) and every illegal action a bot chose (a bug: the action
is replaced by the first legal one so the game can go on). When several seats may act at once (Takoyaki), the
seats take turns round-robin.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from kiosk.ai import make_bot
from kiosk.engine import GameSpec, RuleError, State

MAX_ACTIONS = 100_000


@dataclass
class GameResult:
    scores: list[int]
    winners: list[int]
    actions: int
    illegal: list[str]
    stats: dict[str, float] = field(default_factory=dict)
    state: State | None = None
    think: list[list[float]] = field(default_factory=list)  # per seat: seconds per decision
    searched: list[list[int]] = field(default_factory=list)  # per seat: iterations of each decision that searched


def play_game(
    spec: GameSpec,
    players: int,
    levels: Sequence[str],
    seed: int,
    keep_state: bool = False,
    iterations: int | None = None,
) -> GameResult:
    """Play one game with one bot per seat; seat ``i`` uses ``levels[i]``."""
    from kiosk.ai import ISMCTSBot

    state = spec.new_game(players, seed)
    bots = [make_bot(spec, levels[s], s, seed * 1009 + s * 7919 + 1, iterations) for s in range(players)]
    illegal: list[str] = []
    think: list[list[float]] = [[] for _ in range(players)]
    searched: list[list[int]] = [[] for _ in range(players)]
    actions = 0
    turn = 0
    while not state.is_over():
        movers = state.to_move()
        if not movers:
            raise RuntimeError(f"{spec.key}: no seat to move but the game is not over (seed {seed})")
        seat = movers[turn % len(movers)]
        turn += 1
        bot = bots[seat]
        if isinstance(bot, ISMCTSBot):
            bot.last_iterations = 0  # a bot that answers without a search leaves it so
        t0 = time.perf_counter()
        action = bot.choose(state)
        think[seat].append(time.perf_counter() - t0)
        if isinstance(bot, ISMCTSBot) and bot.last_iterations:
            searched[seat].append(bot.last_iterations)
        try:
            state.apply(seat, action)
        except RuleError as exc:
            illegal.append(f"seed {seed} seat {seat} ({levels[seat]}): {action} -> {exc}")
            state.apply(seat, state.legal_actions(seat)[0])
        actions += 1
        if actions > MAX_ACTIONS:
            raise RuntimeError(f"{spec.key}: game did not end after {MAX_ACTIONS} actions (seed {seed})")
    stats = dict(spec.stats(state)) if spec.stats else {}
    kept = state if keep_state else None
    return GameResult(state.scores(), state.winners(), actions, illegal, stats, kept, think, searched)


def _play_by_key(key: str, players: int, levels: Sequence[str], iterations: int | None, seed: int) -> GameResult:
    """One game in a worker process (the spec is looked up there: specs hold functions, not picklable data)."""
    from kiosk.games import GAMES

    return play_game(GAMES[key], players, levels, seed, iterations=iterations)


def simulate(
    spec: GameSpec,
    players: int,
    levels: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    iterations: int | None = None,
    jobs: int = 1,
    timings: bool = False,
) -> dict[str, Any]:
    spec.check_players(players)
    if len(levels) != players:
        raise ValueError(f"--bots needs {players} levels (one per seat), got {len(levels)}")
    for lv in levels:
        if lv not in spec.bots:
            raise ValueError(f"unknown bot level {lv!r}; choose from {', '.join(spec.bots)}")
    if iterations is not None and iterations < 1:
        raise ValueError(f"--iterations must be at least 1, got {iterations}")
    if jobs < 1:
        raise ValueError(f"--jobs must be at least 1, got {jobs}")
    wins = [0.0] * players
    score_sum = [0.0] * players
    length = 0
    illegal: list[str] = []
    stat_sum: dict[str, float] = {}
    stat_n: dict[str, int] = {}
    think: list[list[float]] = [[] for _ in range(players)]
    searched: list[list[int]] = [[] for _ in range(players)]
    start = time.perf_counter()
    seeds = range(seed, seed + games)
    results: Iterable[GameResult]
    if jobs == 1:
        results = (play_game(spec, players, levels, g, iterations=iterations) for g in seeds)
        pool = None
    else:
        pool = ProcessPoolExecutor(max_workers=jobs)
        results = pool.map(partial(_play_by_key, spec.key, players, list(levels), iterations), seeds)
    try:
        finished = list(results)
    finally:
        if pool is not None:
            pool.shutdown()
    for r in finished:
        for w in r.winners:
            wins[w] += 1 / len(r.winners)
        for s in range(players):
            score_sum[s] += r.scores[s]
        length += r.actions
        illegal += r.illegal
        for s in range(players):
            think[s] += r.think[s] if r.think else []
            searched[s] += r.searched[s] if r.searched else []
        for k, v in r.stats.items():
            stat_sum[k] = stat_sum.get(k, 0.0) + float(v)
            stat_n[k] = stat_n.get(k, 0) + 1
    elapsed = time.perf_counter() - start
    rep: dict[str, Any] = {
        "game": spec.key,
        "players": players,
        "bots": list(levels),
        "games": games,
        "seed": seed,
        "iterations": iterations,
        "wins": [round(w, 2) for w in wins],
        "win_share": [round(w / games, 3) for w in wins],
        "fair_share": round(1 / players, 3),
        "mean_scores": [round(s / games, 2) for s in score_sum],
        "mean_actions": round(length / games, 1),
        "games_per_second": round(games / elapsed, 2) if elapsed else None,
        "stats": {k: round(stat_sum[k] / stat_n[k], 3) for k in sorted(stat_sum)},
        "illegal_actions": len(illegal),
        "illegal_examples": illegal[:10],
    }
    if timings:  # wall-clock figures differ from run to run: only on request
        rep["decision_ms"] = [_percentiles(t) for t in think]
        rep["search_iterations"] = [
            {"decisions": len(n), "mean": round(sum(n) / len(n), 1) if n else 0.0, "min": min(n, default=0)}
            for n in searched
        ]
    return rep


def _percentiles(times: list[float]) -> dict[str, float]:
    """Median, 99th percentile and worst decision time in milliseconds (nearest rank)."""
    if not times:
        return {"p50": 0.0, "p99": 0.0, "max": 0.0}
    t = sorted(times)

    def rank(q: float) -> float:
        return round(1000 * t[min(len(t) - 1, int(q * len(t)))], 2)

    return {"p50": rank(0.5), "p99": rank(0.99), "max": round(1000 * t[-1], 2)}


def format_report(rep: dict[str, Any]) -> str:
    budget = f", search bots at {rep['iterations']} iterations" if rep.get("iterations") else ""
    lines = [
        f"{rep['game']}: {rep['games']} games, {rep['players']} players, seed {rep['seed']}{budget}",
        f"{'seat':>4} {'bot':>8} {'wins':>7} {'share':>6} {'mean score':>10}"
        + (f" {'p50 ms':>7} {'p99 ms':>7}" if "decision_ms" in rep else ""),
    ]
    for s in range(rep["players"]):
        line = f"{s:>4} {rep['bots'][s]:>8} {rep['wins'][s]:>7} {rep['win_share'][s]:>6.3f} {rep['mean_scores'][s]:>10}"
        if "decision_ms" in rep:
            line += f" {rep['decision_ms'][s]['p50']:>7} {rep['decision_ms'][s]['p99']:>7}"
        lines.append(line)
    lines.append(
        f"fair share {rep['fair_share']}; mean game length {rep['mean_actions']} actions; "
        f"{rep['games_per_second']} games/s"
    )
    for k, v in rep["stats"].items():
        lines.append(f"  {k}: {v}")
    lines.append(f"illegal actions: {rep['illegal_actions']}")
    lines += [f"  {e}" for e in rep["illegal_examples"]]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    from kiosk.games import GAMES

    p = argparse.ArgumentParser(prog="python -m kiosk.sim", description=__doc__.split("\n\n")[0])
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--bots", required=True, help="one level per seat, comma-separated: random,easy,normal,hard")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="search bots (hard) think exactly N iterations a decision, no time limit: reproducible",
    )
    p.add_argument("--jobs", type=int, default=1, help="worker processes (same report, faster)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--times", action="store_true", help="also report each seat's decision times (p50/p99/max ms)")
    args = p.parse_args(argv)
    try:
        rep = simulate(
            GAMES[args.game],
            args.players,
            args.bots.split(","),
            args.games,
            args.seed,
            iterations=args.iterations,
            jobs=args.jobs,
            timings=args.times,
        )
    except ValueError as exc:
        p.error(str(exc))
    print(json.dumps(rep, indent=2) if args.json else format_report(rep))
    return 1 if rep["illegal_actions"] else 0


if __name__ == "__main__":
    sys.exit(main())
