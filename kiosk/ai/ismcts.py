"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012).

Every iteration samples one determinization of the bot's information set (``state.determinize(seat, rng)``),
walks the shared tree with UCB restricted to the actions available in that sample ("availability counts"),
expands one node, plays out with a rollout policy, and backs up each seat's reward. The bot never reads hidden
state. Games plug in only what they need:

* ``rollout(state, rng) -> (seat, action)``: a faster or smarter playout policy (default: uniform random);
* ``evaluate(state) -> list[float]``: rewards in [0, 1] per seat for a position cut off at ``rollout_depth``
  (default: play to the end and score with :func:`win_share`);
* ``prune(state, seat, legal) -> list[Action]``: the actions worth searching (a heuristic's best few), so a
  small budget goes deep instead of wide. The bot still only ever returns a legal action. With
  ``prior_visits``, the pruned order is also a prior: actions are tried in that order, and each new node starts
  with that many virtual visits worth ``prior_best`` (the first action) or ``prior_rest`` (the others), so a
  small budget falls back on the heuristic's choice and a large one can overrule it.

Rationale and decisions: docs/developer/design.md, section ``kiosk/ai/ismcts.py``.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Sequence

from kiosk.ai.base import BaseBot
from kiosk.ai.random_bot import pick
from kiosk.engine import Action, State

Rollout = Callable[[State, random.Random], tuple[int, Action]]
Evaluate = Callable[[State], Sequence[float]]
Prune = Callable[[State, int, list[Action]], list[Action]]


def win_share(state: State) -> list[float]:
    """1 for a sole winner, split on a shared win, plus a small bonus for the score margin (breaks plateaus)."""
    winners = state.winners()
    scores = state.scores()
    n = state.players
    out = [0.0] * n
    if winners:
        for w in winners:
            out[w] = 0.9 / len(winners)
    lo, hi = min(scores), max(scores)
    if hi > lo:
        for s in range(n):
            out[s] += 0.1 * (scores[s] - lo) / (hi - lo)
    return out


def random_rollout(state: State, rng: random.Random) -> tuple[int, Action]:
    movers = state.to_move()
    seat = movers[0] if len(movers) == 1 else pick(rng, movers)
    return seat, pick(rng, state.legal_actions(seat))


class _Node:
    __slots__ = ("action", "seat", "children", "visits", "avail", "reward")

    def __init__(self, action: Action | None, seat: int) -> None:
        self.action = action
        self.seat = seat  # the seat whose action led here; rewards are from its point of view
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0


class ISMCTSBot(BaseBot):
    """A search bot for any game of the contract.

    ``iterations`` bounds the work (deterministic for a seed); ``time_limit`` (seconds) stops earlier on a slow
    machine, before an iteration that would not end in time (see :meth:`choose`). The chosen action is the most
    visited one legal in the real state.
    """

    level = "hard"

    def __init__(
        self,
        seat: int,
        seed: int,
        *,
        iterations: int = 300,
        time_limit: float | None = 0.2,
        exploration: float = 0.7,
        rollout: Rollout | None = None,
        evaluate: Evaluate | None = None,
        rollout_depth: int | None = None,
        max_playout: int = 5000,
        prune: Prune | None = None,
        prior_visits: int = 0,
        prior_best: float = 0.6,
        prior_rest: float = 0.4,
    ) -> None:
        super().__init__(seat, seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.rollout = rollout or random_rollout
        self.evaluate = evaluate or win_share
        self.rollout_depth = rollout_depth
        self.max_playout = max_playout
        self.prune = prune
        self.prior_visits = prior_visits
        self.prior_best = prior_best
        self.prior_rest = prior_rest
        self.last_iterations = 0
        #: The clock the time limit is kept by (seconds).
        self.clock: Callable[[], float] = time.perf_counter
        #: Seconds one iteration took, on average, in the last search (0 before the first): how much room the
        #: next decision's first iteration needs.
        self.iteration_estimate = 0.0
        #: After a search: per root action, its visits and mean reward (for a bot that weighs the search against
        #: its own heuristic).
        self.last_root: dict[Action, tuple[int, float]] = {}

    def _actor(self, state: State) -> int:
        movers = state.to_move()
        return self.seat if self.seat in movers else movers[0]

    # --- hooks ----------------------------------------------------------------------------------------------
    def root_actions(self, state: State, legal: list[Action]) -> list[Action]:
        """The candidates searched for the real decision (a non-empty subset of ``legal``)."""
        if self.prune is not None and len(legal) > 1:
            return self.prune(state, self.seat, legal) or legal
        return legal

    def search_actions(self, d: State, seat: int, legal: list[Action], depth: int) -> list[Action]:
        """The actions searched for ``seat`` in a determinization ``depth`` actions below the root."""
        if self.prune is not None and len(legal) > 1:
            return self.prune(d, seat, legal) or legal
        return legal

    def new_iteration(self, d: State) -> None:
        """Called with each determinization before it is searched."""

    def step(self, d: State, seat: int, action: Action) -> None:
        """Apply one action inside the search."""
        d.apply(seat, action)

    # --- the search -------------------------------------------------------------------------------------------
    def choose(self, state: State, *, started: float | None = None) -> Action:
        """The most visited legal candidate after the search.

        With a ``time_limit`` the decision keeps to it, counted from ``started`` (default: now, so the root's
        pruning counts too; a subclass that ranks before searching passes its own start): an iteration is
        started only if the slowest one so far (before the first, the mean of the previous decision's) would
        still end before the limit. A decision whose candidates took the whole budget to find returns the
        first candidate (the pruning hook's best) without searching.

        Python's cyclic garbage collector is paused for the decision: one of its full passes over a large heap
        (the kiosk's widgets) takes tens of milliseconds that no iteration estimate foresees. The search tree
        keeps no reference cycles, so it is freed as soon as the decision returns and leaves the collector
        nothing to catch up on."""
        collecting = gc.isenabled()
        if collecting:
            gc.disable()
        try:
            return self._decide(state, started)
        finally:
            if collecting:
                gc.enable()

    def _decide(self, state: State, started: float | None) -> Action:
        clock = self.clock
        start = clock() if started is None else started
        legal = self.root_actions(state, state.legal_actions(self.seat))
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        root = _Node(None, self.seat)
        deadline = start + self.time_limit if self.time_limit else math.inf
        rng = self.rng
        done = 0
        slowest = self.iteration_estimate
        now = search_start = clock()
        while done < self.iterations and now + slowest <= deadline:
            self._iterate(root, state.determinize(self.seat, rng), rng, legal)
            done += 1
            before, now = now, clock()
            slowest = now - before if done == 1 else max(slowest, now - before)
        if done:
            self.iteration_estimate = (now - search_start) / done
        self.last_iterations = done
        self.last_root = {a: (ch.visits, ch.reward / ch.visits) for a, ch in root.children.items() if ch.visits}
        best = max(
            (c for c in root.children.values() if c.action in legal), key=lambda c: (c.visits, c.reward), default=None
        )
        return best.action if best is not None and best.action is not None else legal[0]

    def _iterate(self, root: _Node, d: State, rng: random.Random, candidates: list[Action]) -> None:
        d.journal = None  # searching needs no save file
        self.new_iteration(d)
        node = root
        path = [root]
        c = self.exploration
        depth = 0
        step = self.step
        # selection and expansion
        while not d.is_over():
            seat = self._actor(d)
            legal = d.legal_actions(seat)
            if depth == 0 and seat == self.seat:
                offered = set(legal)
                legal = [a for a in candidates if a in offered] or legal
            else:
                legal = self.search_actions(d, seat, legal, depth)
            depth += 1
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                ordered = self.prior_visits > 0
                action = untried[0] if ordered else pick(rng, untried)
                child = _Node(action, seat)
                if ordered:
                    pv = self.prior_visits
                    child.visits = pv
                    child.reward = pv * (self.prior_best if action is legal[0] else self.prior_rest)
                children[action] = child
                step(d, seat, action)
                path.append(child)
                break
            best, best_value = None, -math.inf
            for a in legal:
                ch = children[a]
                ch.avail += 1
                value = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if value > best_value:
                    best, best_value = ch, value
            assert best is not None and best.action is not None
            step(d, seat, best.action)
            node = best
            path.append(best)
        # playout
        steps = 0
        limit = self.rollout_depth if self.rollout_depth is not None else self.max_playout
        rollout = self.rollout
        while not d.is_over() and steps < limit:
            seat, action = rollout(d, rng)
            step(d, seat, action)
            steps += 1
        rewards = self.evaluate(d)
        # backpropagation, along the path (nodes keep no parent: no reference cycles for the collector)
        for n in path:
            n.visits += 1
            n.reward += rewards[n.seat]
