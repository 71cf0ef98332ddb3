"""The shared AI toolkit and the simulator, on every registered game where it applies."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys

import pytest

from kiosk.ai import ISMCTSBot, RandomBot, pick
from kiosk.engine import Action, Event, RuleError, State
from kiosk.games import GAMES
from kiosk.sim import play_game, simulate


def test_random_bot_is_reproducible_and_legal():
    spec = GAMES["makoto"]
    state = spec.new_game(3, 1)
    a, b = RandomBot(0, 9), RandomBot(0, 9)
    for _ in range(5):
        assert a.choose(state) == b.choose(state)
    assert a.choose(state) in state.legal_actions(0)


def test_ismcts_never_reads_hidden_state():
    """Two positions that look the same from the bot's seat get the same decision, whatever the others hold."""
    spec = GAMES["makoto"]
    state = spec.new_game(4, 5)
    rng = random.Random(5)
    for _ in range(12):  # into the game a little
        seat = state.to_move()[0]
        state.apply(seat, pick(rng, state.legal_actions(seat)))
    seat = state.to_move()[0]
    twin = state.determinize(seat, random.Random(99))
    assert twin.view(seat) == state.view(seat)
    assert [twin.hands[s] for s in range(4) if s != seat] != [state.hands[s] for s in range(4) if s != seat]
    first = ISMCTSBot(seat, 3, iterations=60, time_limit=None).choose(state)
    second = ISMCTSBot(seat, 3, iterations=60, time_limit=None).choose(twin)
    assert first == second


@pytest.mark.slow  # a statistical strength test: many whole games
def test_ismcts_beats_random_at_makoto():
    spec = GAMES["makoto"]
    wins = 0.0
    for g in range(6):
        levels = ["hard", "random"] if g % 2 == 0 else ["random", "hard"]
        hard = levels.index("hard")
        r = play_game(spec, 2, levels, seed=300 + g)
        if hard in r.winners:
            wins += 1 / len(r.winners)
        assert not r.illegal
    assert wins >= 5


def test_simulator_counts_illegal_actions_as_bugs():
    spec = GAMES["makoto"]

    class Cheater:
        def __init__(self, seat: int, seed: int) -> None:
            self.seat = seat

        def choose(self, state) -> Action:
            from kiosk.games.makoto.actions import Play

            return Play((99,))

    broken = dataclasses.replace(spec, bots={**spec.bots, "cheat": Cheater})
    rep = simulate(broken, 2, ["cheat", "random"], games=1, seed=1)
    assert rep["illegal_actions"] > 0 and "do not hold" in rep["illegal_examples"][0]
    with pytest.raises(ValueError, match="unknown bot level"):
        simulate(spec, 2, ["nobody", "random"], games=1)
    with pytest.raises(ValueError, match="2 to 6 players"):
        simulate(spec, 7, ["random"] * 7, games=1)


def test_simulator_command_line_json():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "kiosk.sim",
            "makoto",
            "--players",
            "3",
            "--bots",
            "easy,normal,random",
            "--games",
            "6",
            "--seed",
            "4",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    rep = json.loads(out.stdout)
    assert rep["games"] == 6 and rep["illegal_actions"] == 0
    assert abs(sum(rep["wins"]) - 6) < 1e-6
    assert len(rep["mean_scores"]) == 3 and rep["mean_actions"] > 10
    bad = subprocess.run(
        [sys.executable, "-m", "kiosk.sim", "makoto", "--players", "3", "--bots", "easy", "--games", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "one per seat" in bad.stderr


def test_fixed_iterations_make_search_bots_reproducible_and_jobs_change_nothing():
    spec = GAMES["makoto"]
    kw = {"players": 2, "levels": ["hard", "normal"], "games": 4, "seed": 11, "iterations": 12}
    one = simulate(spec, **kw)
    again = simulate(spec, **kw)
    two_jobs = simulate(spec, **kw, jobs=2)
    drop = lambda rep: {k: v for k, v in rep.items() if k != "games_per_second"}  # noqa: E731
    assert drop(one) == drop(again) == drop(two_jobs)
    assert one["iterations"] == 12 and one["illegal_actions"] == 0
    timed = simulate(spec, **{**kw, "games": 1}, timings=True)
    # every decision the hard seat searched made its 12 iterations; normal never searches
    assert timed["search_iterations"][0]["mean"] == timed["search_iterations"][0]["min"] == 12
    assert timed["search_iterations"][0]["decisions"] > 0 and timed["search_iterations"][1]["decisions"] == 0
    # the budget really reaches the bot: exactly 12 iterations, no clock
    from kiosk.ai import make_bot

    bot = make_bot(spec, "hard", 0, 5, iterations=12)
    state = spec.new_game(2, 5)
    while state.to_move() != [0] or len(state.legal_actions(0)) < 2:
        state.apply(state.to_move()[0], state.legal_actions(state.to_move()[0])[0])
    bot.choose(state)
    assert bot.last_iterations == 12 and bot.time_limit is None
    assert make_bot(spec, "easy", 0, 5, iterations=12).__class__ is spec.bots["easy"](0, 5).__class__
    with pytest.raises(ValueError, match="--iterations must be at least 1"):
        simulate(spec, 2, ["hard", "hard"], games=1, iterations=0)
    with pytest.raises(ValueError, match="--jobs must be at least 1"):
        simulate(spec, 2, ["hard", "hard"], games=1, jobs=0)


# --- the time limit: no iteration is started that would not end in time ------------------------------------------
@dataclasses.dataclass(frozen=True, slots=True)
class Add(Action):
    n: int


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class SlowSums(State):
    """Two seats take turns adding 1, 2 or 3 to their own sum for six turns; every determinization (one per
    search iteration) costs ``cost`` seconds of a fake clock."""

    def __init__(self, clock: FakeClock, cost: float) -> None:
        super().__init__(2, 0)
        self.clock, self.cost = clock, cost
        self.sums = [0, 0]
        self.turn = 0

    def to_move(self) -> list[int]:
        return [] if self.is_over() else [self.turn % 2]

    def legal_actions(self, seat: int) -> list[Action]:
        return [Add(n) for n in (1, 2, 3)] if seat in self.to_move() else []

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if action not in self.legal_actions(seat):
            raise RuleError("not now")
        assert isinstance(action, Add)
        self.sums = self.sums[:]
        self.sums[seat] += action.n
        self.turn += 1
        return []

    def is_over(self) -> bool:
        return self.turn >= 6

    def scores(self) -> list[int]:
        return self.sums[:]

    def determinize(self, seat: int, rng: random.Random) -> State:
        self.clock.now += self.cost
        return self.search_copy(rng)


class SlowRootBot(ISMCTSBot):
    """Its root pruning costs ``root_cost`` seconds and offers Add(2) first."""

    root_cost = 0.0

    def root_actions(self, state: State, legal: list[Action]) -> list[Action]:
        self.clock.now += self.root_cost  # type: ignore[attr-defined]
        return [Add(2), Add(3), Add(1)]


def test_ismcts_starts_no_iteration_that_would_end_after_the_time_limit():
    clock = FakeClock()
    bot = ISMCTSBot(0, 1, iterations=1000, time_limit=0.1)
    bot.clock = clock
    action = bot.choose(SlowSums(clock, cost=0.03))
    # 0.03, 0.06, 0.09 s: a fourth iteration would end at 0.12 s, after the limit, so it is not started
    assert bot.last_iterations == 3 and clock.now == pytest.approx(0.09)
    assert action in (Add(1), Add(2), Add(3)) and bot.iteration_estimate == pytest.approx(0.03)
    # without a clock the budget is the iterations alone
    clock.now = 0.0
    fixed = ISMCTSBot(0, 1, iterations=7, time_limit=None)
    fixed.clock = clock
    fixed.choose(SlowSums(clock, cost=0.03))
    assert fixed.last_iterations == 7 and clock.now == pytest.approx(0.21)


def test_ismcts_counts_the_root_pruning_and_falls_back_on_its_first_candidate():
    clock = FakeClock()
    bot = SlowRootBot(0, 1, iterations=1000, time_limit=0.1)
    bot.clock = clock
    bot.root_cost = 0.08
    state = SlowSums(clock, cost=0.03)
    bot.choose(state)  # no estimate yet: one iteration is tried after the 80 ms of pruning
    assert bot.last_iterations == 1 and clock.now == pytest.approx(0.11)
    clock.now = 0.0
    # now it knows an iteration takes 30 ms: after 80 ms of pruning none fits in 100 ms, and the pruning's
    # first choice is played
    assert bot.choose(state) == Add(2)
    assert bot.last_iterations == 0 and clock.now == pytest.approx(0.08)
    clock.now = 0.0
    bot.root_cost = 0.02  # 20 ms of pruning leaves room for two iterations
    bot.choose(state)
    assert bot.last_iterations == 2 and clock.now == pytest.approx(0.08)
    # a bot that did work before the search passes its own start: that work counts too
    clock.now = 0.05
    bot.root_cost = 0.0
    bot.choose(state, started=0.0)
    assert bot.last_iterations == 1 and clock.now == pytest.approx(0.08)


def test_ismcts_pauses_the_garbage_collector_and_leaves_it_no_cycles():
    """A collector pass over a large heap would stall a decision for tens of milliseconds: it is paused while
    the bot decides and back on afterwards; the search tree has no reference cycles, so nothing of it is left
    for the collector (it is freed when the decision returns)."""
    import gc

    clock = FakeClock()
    seen: list[bool] = []

    class Watching(SlowSums):
        def determinize(self, seat: int, rng: random.Random) -> State:
            seen.append(gc.isenabled())
            return super().determinize(seat, rng)

    bot = ISMCTSBot(0, 1, iterations=200, time_limit=None)
    gc.collect()
    assert gc.isenabled()
    bot.choose(Watching(clock, cost=0.0))
    assert gc.isenabled() and len(seen) == 200 and not any(seen)
    assert gc.collect() == 0, "the search left cyclic garbage"
    gc.disable()  # a caller that keeps the collector off keeps it off
    try:
        bot.choose(Watching(clock, cost=0.0))
        assert not gc.isenabled()
    finally:
        gc.enable()
