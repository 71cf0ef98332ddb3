"""Headless simulator: bots play full games through the engine contract; prints a balance report.

    python -m kiosk.sim makoto --players 4 --bots hard,random,random,random --games 50 --seed 1 [--json]

Reports wins per seat (a shared win counts as a fraction), mean scores, mean game length in actions, games per
second, the game's own statistics (``GameSpec.stats``) and every illegal action a bot chose (a bug: the action
is replaced by the first legal one so the game can go on). When several seats may act at once (Takoyaki), the
seats take turns round-robin.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

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


def play_game(spec: GameSpec, players: int, levels: Sequence[str], seed: int,
              keep_state: bool = False) -> GameResult:
    """Play one game with one bot per seat; seat ``i`` uses ``levels[i]``."""
    state = spec.new_game(players, seed)
    bots = [spec.bots[levels[s]](s, seed * 1009 + s * 7919 + 1) for s in range(players)]
    illegal: list[str] = []
    actions = 0
    turn = 0
    while not state.is_over():
        movers = state.to_move()
        if not movers:
            raise RuntimeError(f"{spec.key}: no seat to move but the game is not over (seed {seed})")
        seat = movers[turn % len(movers)]
        turn += 1
        action = bots[seat].choose(state)
        try:
            state.apply(seat, action)
        except RuleError as exc:
            illegal.append(f"seed {seed} seat {seat} ({levels[seat]}): {action} -> {exc}")
            state.apply(seat, state.legal_actions(seat)[0])
        actions += 1
        if actions > MAX_ACTIONS:
            raise RuntimeError(f"{spec.key}: game did not end after {MAX_ACTIONS} actions (seed {seed})")
    stats = dict(spec.stats(state)) if spec.stats else {}
    return GameResult(state.scores(), state.winners(), actions, illegal, stats, state if keep_state else None)


def simulate(spec: GameSpec, players: int, levels: Sequence[str], games: int, seed: int = 0) -> dict[str, Any]:
    spec.check_players(players)
    if len(levels) != players:
        raise ValueError(f"--bots needs {players} levels (one per seat), got {len(levels)}")
    for lv in levels:
        if lv not in spec.bots:
            raise ValueError(f"unknown bot level {lv!r}; choose from {', '.join(spec.bots)}")
    wins = [0.0] * players
    score_sum = [0.0] * players
    length = 0
    illegal: list[str] = []
    stat_sum: dict[str, float] = {}
    stat_n: dict[str, int] = {}
    start = time.perf_counter()
    for g in range(games):
        r = play_game(spec, players, levels, seed + g)
        for w in r.winners:
            wins[w] += 1 / len(r.winners)
        for s in range(players):
            score_sum[s] += r.scores[s]
        length += r.actions
        illegal += r.illegal
        for k, v in r.stats.items():
            stat_sum[k] = stat_sum.get(k, 0.0) + float(v)
            stat_n[k] = stat_n.get(k, 0) + 1
    elapsed = time.perf_counter() - start
    return {
        "game": spec.key, "players": players, "bots": list(levels), "games": games, "seed": seed,
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


def format_report(rep: dict[str, Any]) -> str:
    lines = [f"{rep['game']}: {rep['games']} games, {rep['players']} players, seed {rep['seed']}",
             f"{'seat':>4} {'bot':>8} {'wins':>7} {'share':>6} {'mean score':>10}"]
    for s in range(rep["players"]):
        lines.append(f"{s:>4} {rep['bots'][s]:>8} {rep['wins'][s]:>7} {rep['win_share'][s]:>6.3f}"
                     f" {rep['mean_scores'][s]:>10}")
    lines.append(f"fair share {rep['fair_share']}; mean game length {rep['mean_actions']} actions; "
                 f"{rep['games_per_second']} games/s")
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
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    args = p.parse_args(argv)
    try:
        rep = simulate(GAMES[args.game], args.players, args.bots.split(","), args.games, args.seed)
    except ValueError as exc:
        p.error(str(exc))
    print(json.dumps(rep, indent=2) if args.json else format_report(rep))
    return 1 if rep["illegal_actions"] else 0


if __name__ == "__main__":
    sys.exit(main())
