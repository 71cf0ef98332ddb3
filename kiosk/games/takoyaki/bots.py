"""Paced Takoyaki bots for mixed play and demo mode.

Every level cooks along the optimal solver's path to the current card and claims when its grill matches; the
levels (``LEVELS``) differ in speed, wrong moves and premature claims. A hard bot meets par:

>>> from kiosk.games.takoyaki.rules import new_game
>>> state = new_game(1, seed=1)
>>> bot = PacedBot(0, seed=1, level="hard")
>>> bot.moves_per_second
2.0
>>> par = state.par(0)
>>> while not state.won[0]:
...     _ = state.apply(0, bot.choose(state))
>>> state.moves()[0] == par
True

Rationale and decisions: docs/developer/design.md, section ``kiosk/games/takoyaki/bots.py``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from kiosk.ai import BaseBot, RandomBot
from kiosk.ai.random_bot import pick
from kiosk.engine import Action, Bot, RuleError, State
from kiosk.games.takoyaki.actions import Claim, Push, Turn
from kiosk.games.takoyaki.grill import Grill, Order, matches
from kiosk.games.takoyaki.rules import TakoyakiState
from kiosk.games.takoyaki.solver import apply_moves, solve


@dataclass(frozen=True)
class Pace:
    """A bot level: speed and error rates (see the table in the module docstring)."""

    moves_per_second: float
    wrong_move_rate: float
    premature_claim_rate: float


LEVELS: dict[str, Pace] = {
    "easy": Pace(0.7, 0.15, 0.10),
    "normal": Pace(1.2, 0.04, 0.0),
    "hard": Pace(2.0, 0.0, 0.0),
}
#: A premature claim is only tried this close to done (moves left), where a hurried cook would believe it.
PREMATURE_WITHIN = 2
#: The delay between moves varies by up to this fraction either way.
JITTER = 0.25


class PacedBot(BaseBot):
    """A Takoyaki bot of one level; ``factory(seat, seed)`` is ``lambda seat, seed: PacedBot(seat, seed, level)``."""

    def __init__(self, seat: int, seed: int, level: str = "hard") -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown Takoyaki bot level {level!r}; choose from {', '.join(LEVELS)}")
        super().__init__(seat, seed)
        self.level = level
        self.pace = LEVELS[level]
        self.clock_rng = random.Random(seed ^ 0x5EED)  # delays never disturb the choice of moves
        self._plan: list[Action] = []
        self._expect: list[Grill] = []  # the grill before each planned move
        self._plan_order: Order | None = None

    @property
    def moves_per_second(self) -> float:
        return self.pace.moves_per_second

    @property
    def seconds_per_move(self) -> float:
        return 1.0 / self.pace.moves_per_second

    def next_delay(self) -> float:
        """Seconds until this bot's next action, for the screen's and the demo's schedulers."""
        return self.seconds_per_move * (1.0 + JITTER * (2.0 * self.clock_rng.random() - 1.0))

    def choose(self, state: State) -> Action:
        if not isinstance(state, TakoyakiState):
            raise TypeError("PacedBot plays Takoyaki only")
        order = state.current_order
        if order is None or self.seat not in state.to_move():
            raise RuleError("This bot's seat is not racing for a card right now")
        grill = state.grill(self.seat)
        if matches(grill, order):
            return Claim()
        pace = self.pace
        if pace.wrong_move_rate and self.rng.random() < pace.wrong_move_rate:
            moves = [a for a in state.legal_actions(self.seat) if isinstance(a, (Push, Turn))]
            return pick(self.rng, moves)
        plan = self._planned(grill, order)
        if (
            pace.premature_claim_rate
            and len(plan) <= PREMATURE_WITHIN
            and self.rng.random() < pace.premature_claim_rate
        ):
            return Claim()
        return plan[0]

    def _planned(self, grill: Grill, order: Order) -> list[Action]:
        """The rest of an optimal path from ``grill``; kept between calls while the grill follows it."""
        if order == self._plan_order:
            while self._expect and self._expect[0] != grill:
                self._expect.pop(0)
                self._plan.pop(0)
            if self._plan:
                return self._plan
        moves: list[Action] = list(solve(grill, order).moves)
        expect = [grill]
        for m in solve(grill, order).moves[:-1]:
            expect.append(apply_moves(expect[-1], [m]))
        self._plan, self._expect, self._plan_order = moves, expect, order
        return self._plan


@dataclass(frozen=True)
class RaceResult:
    """A game played in virtual real time by :func:`race`."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    seconds: float  # virtual time at the end
    won_at: tuple[tuple[int, float], ...]  # (seat, seconds) for every card won, in order
    end_reason: str


def race(levels: Sequence[str], seed: int) -> RaceResult:
    """Play one game with a paced bot per seat on a virtual clock, as the screen and the demo do.

    Each bot acts every :meth:`PacedBot.next_delay` seconds; a seat that drops out waits for the next card,
    and when a card is revealed the seats that were out start again one delay later. This is the balance
    model for mixed play (the round-robin simulator ignores pace) and the expected time-trial times.
    """
    state = TakoyakiState(len(levels), seed)
    bots = [PacedBot(s, seed * 1009 + s * 7919 + 1, lv) for s, lv in enumerate(levels)]
    due = [b.next_delay() for b in bots]
    won_at: list[tuple[int, float]] = []
    now = 0.0
    while not state.is_over():
        movers = state.to_move()
        seat = min(movers, key=lambda s: (due[s], s))
        now = due[seat]
        waiting = [s for s in range(state.players) if s not in movers]
        dealt = state.dealt
        for event in state.apply(seat, bots[seat].choose(state)):
            if event.kind == "order_won":
                won_at.append((seat, now))
        due[seat] = now + bots[seat].next_delay()
        if state.dealt != dealt:
            for s in waiting:
                due[s] = now + bots[s].next_delay()
    return RaceResult(tuple(state.scores()), tuple(state.winners()), now, tuple(won_at), state.end_reason)


BOTS: dict[str, Callable[[int, int], Bot]] = {
    "random": RandomBot,
    "easy": partial(PacedBot, level="easy"),
    "normal": partial(PacedBot, level="normal"),
    "hard": partial(PacedBot, level="hard"),
}
