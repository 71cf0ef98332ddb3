"""Wasabi! bots.

* ``random``: :class:`kiosk.ai.RandomBot`.
* ``easy``: lays the tile that brings one of its recipes nearest to completion (completing when it can), with
  one move in four random; draws tiles and recipe lengths at random; never plays action cards.
* ``normal``: the greedy chef. Scores every tile placement by how far it advances its recipes (a completion
  scores most, with style more), plays an action card when it completes a recipe now (Switch!, Chop!, Stack!)
  or adds tiles (Spicy!) or a cube (Wasabi!), passes to throw away recipes it can no longer complete, draws the
  ingredients its recipes miss, and picks recipe lengths by the free tokens left.
* ``hard``: :class:`kiosk.ai.ISMCTSBot` over ``determinize(seat)`` copies. Its root actions are the ``normal``
  ranking's best few (every step-1 decision; the bookkeeping steps of step 2 and setup are taken by the
  ``normal`` policy directly). Each iteration samples the hidden hands and recipes, plays the candidate, lets
  every seat continue with the fast greedy policy for about a round, and scores the position by each seat's
  points plus the value of its recipes in progress (:func:`evaluate`). So it sees what its move sets up for the
  opponents' likely recipes, which ``normal`` ignores.

All bots read only public state and their own hand and recipes (``hard`` reads only determinized copies).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from kiosk.ai import BaseBot, ISMCTSBot, RandomBot, pick, win_share
from kiosk.engine import Action, Bot, State
from kiosk.games.wasabi.rules import (
    CARDS,
    CHOP,
    COVERED,
    EMPTY,
    KINDS,
    PANTRY,
    POINTS,
    RECIPES,
    SPICY,
    STACK,
    STYLE_CUBES,
    SWITCH,
    WASABI,
    ChooseRecipe,
    DrawRecipe,
    DrawTile,
    EndStep,
    Pass,
    Place,
    PlayChop,
    PlaySpicy,
    PlayStack,
    PlaySwitch,
    PlayWasabi,
    SkipReward,
    TakeCard,
    WasabiState,
)

#: Recipe ingredient counts, kind -> number, by recipe id.
NEEDS: tuple[dict[int, int], ...] = tuple({k: r.seq.count(k) for k in set(r.seq)} for r in RECIPES)

#: Recipe ingredient kinds as sets, by recipe id (a quick filter before counting).
KIND_SETS: tuple[frozenset[int], ...] = tuple(frozenset(r.seq) for r in RECIPES)

#: Reward preference (best first): the cards that most often complete recipes.
CARD_PREFERENCE = (SPICY, SWITCH, CHOP, STACK, WASABI)
COMPLETE_BONUS = 20.0


def _remaining_need(base_need: dict[int, int], filled_kinds: list[int]) -> dict[int, int] | None:
    """What a recipe (ingredient -> count) still needs once the tiles already in a window are used, or None if
    the window holds more of an ingredient than the recipe asks for."""
    need = dict(base_need)
    for t in filled_kinds:
        c = need[t]
        if not c:
            return None
        need[t] = c - 1
    return need


def live_recipes(state: WasabiState, seat: int) -> list[int]:
    """The seat's recipes it still has a free token for."""
    free = state.free[seat]
    return [r for r in state.screens[seat] if free[RECIPES[r].length] > 0]


def place_values(state: WasabiState, seat: int, tops: Sequence[int] | None = None) -> dict[tuple[int, int], float]:
    """Value of laying kind ``k`` on empty square ``q`` for ``seat``: ``{(k, q): value}``, summed over its live
    recipes (each recipe counts its best window). A placement completing a recipe scores
    ``COMPLETE_BONUS + points + style cubes``; otherwise ``points * (filled / length) ** 2`` after the tile."""
    tops = state.tops if tops is None else tops
    hand = set(state.hands[seat])
    if state.chopped >= 0 and seat == state.current:
        hand.add(state.chopped)
    total: dict[tuple[int, int], float] = {}
    geo = state.geo
    for r in live_recipes(state, seat):
        rec = RECIPES[r]
        n = len(rec.seq)
        pts = POINTS[n]
        best: dict[tuple[int, int], float] = {}
        base_need = NEEDS[r]
        if not any(k in hand for k in base_need):
            continue
        kset = KIND_SETS[r]
        zero_cells: set[int] = set()  # squares of windows still empty: one tile starts the recipe there
        for w in geo.windows[n]:
            cells = [tops[q] for q in w]
            if COVERED in cells:
                continue
            filled_kinds = [t for t in cells if t >= 0]
            filled = len(filled_kinds)
            if filled == n:
                continue
            if not filled:
                zero_cells.update(w)
                continue
            if not all(t in kset for t in filled_kinds):
                continue
            need = _remaining_need(base_need, filled_kinds)
            if need is None:
                continue
            empties = [q for q, t in zip(w, cells) if t == EMPTY]
            after = filled + 1
            if after == n:
                q = empties[0]
                k = next(k for k, c in need.items() if c)
                if k not in hand:
                    continue
                seq = tuple(k if x == q else tops[x] for x in w)
                val = COMPLETE_BONUS + pts + (STYLE_CUBES[n] if seq == rec.seq or seq[::-1] == rec.seq else 0)
                if val > best.get((k, q), 0.0):
                    best[(k, q)] = val
            else:
                val = pts * (after / n) ** 2
                for k, c in need.items():
                    if c and k in hand:
                        for q in empties:
                            if val > best.get((k, q), 0.0):
                                best[(k, q)] = val
        if zero_cells:
            v0 = pts / (n * n)
            for k in base_need:
                if k in hand:
                    for q in zero_cells:
                        if v0 > best.get((k, q), 0.0):
                            best[(k, q)] = v0
        for key, v in best.items():
            total[key] = total.get(key, 0.0) + v
    return total


def recipe_progress(tops: Sequence[int], windows: Sequence[tuple[int, ...]], r: int, hand: Sequence[int]) -> float:
    """The best feasible window's progress (0..1) for recipe ``r``: tiles in place count 1, hand tiles half."""
    n = len(RECIPES[r].seq)
    base_need = NEEDS[r]
    kset = KIND_SETS[r]
    best = 0.0
    for w in windows:
        cells = [tops[q] for q in w]
        if COVERED in cells:
            continue
        filled_kinds = [t for t in cells if t >= 0]
        if not all(t in kset for t in filled_kinds):
            continue
        need = _remaining_need(base_need, filled_kinds)
        if need is None:
            continue
        held = 0
        for k in hand:
            if need.get(k, 0) > 0:
                need[k] -= 1
                held += 1
        p = (len(filled_kinds) + 0.5 * held) / n
        if p > best:
            best = p
    return best


def potential(state: WasabiState, seat: int, hand: Sequence[int] | None = None) -> float:
    """How promising the seat's recipes are on this board: per live recipe, ``points * progress ** 2``
    (:func:`recipe_progress`), plus a little for each free screen slot (a new recipe will come)."""
    tops = state.tops
    hand = state.hands[seat] if hand is None else hand
    windows = state.geo.windows
    out = 0.0
    for r in live_recipes(state, seat):
        n = len(RECIPES[r].seq)
        best = recipe_progress(tops, windows[n], r, hand)
        out += POINTS[n] * best * best
    out += 0.5 * (3 - len(state.screens[seat]))
    return out


def expected_length_choice(state: WasabiState, seat: int, legal: Sequence[Action]) -> Action:
    """The recipe length whose unseen recipes (this seat's information set) promise most on average on this
    board, counting only lengths with a free token not already spoken for."""
    held = [0] * 6
    for r in state.screens[seat]:
        held[RECIPES[r].length] += 1
    free = state.free[seat]
    seen = set(state.screens[seat]) | {r for d in state.done for r, _ in d}
    hand = state.hands[seat]
    best, best_v = legal[0], -math.inf
    for a in legal:
        assert isinstance(a, DrawRecipe)
        n = a.length
        if free[n] - held[n] <= 0:
            v = -1.0 + 0.01 * n
        else:
            # the known discards under this stack are at its bottom: the top comes from the rest
            known = state.known[seat]
            pool = [r.id for r in RECIPES if r.length == n and r.id not in seen and r.id not in known]
            if not pool:  # only its own discards are left in that stack: it knows them
                pool = [r for r in state.rstacks[n] if r in known]
            ws = state.geo.windows[n]
            v = sum(POINTS[n] * recipe_progress(state.tops, ws, r, hand) ** 2 for r in pool) / len(pool)
            v += 0.3 * POINTS[n] / n
        if v > best_v:
            best, best_v = a, v
    return best


def best_tile_choice(state: WasabiState, seat: int, legal: Sequence[Action]) -> Action:
    """The ingredient that raises the seat's :func:`potential` most (ties: the simple rule)."""
    hand = state.hands[seat]
    fallback = choose_tile(state, seat, legal)
    best, best_v = fallback, potential(state, seat) + 1e-9
    for a in legal:
        assert isinstance(a, DrawTile)
        v = potential(state, seat, hand + [KINDS.index(a.tile)])
        if v > best_v + 1e-9:
            best, best_v = a, v
    return best


def dead_recipes(state: WasabiState, seat: int) -> tuple[int, ...]:
    """Recipes the seat cannot complete any more: no free token of their length, or no feasible window."""
    free = state.free[seat]
    tops = state.tops
    out = []
    for r in state.screens[seat]:
        n = RECIPES[r].length
        if free[n] <= 0:
            out.append(r)
            continue
        need0 = NEEDS[r]
        feasible = False
        for w in state.geo.windows[n]:
            need = dict(need0)
            ok = True
            for q in w:
                t = tops[q]
                if t == EMPTY:
                    continue
                if t < 0 or not need.get(t, 0):
                    ok = False
                    break
                need[t] -= 1
            if ok:
                feasible = True
                break
        if not feasible:
            out.append(r)
    return tuple(sorted(out))


def choose_length(state: WasabiState, seat: int, legal: Sequence[Action]) -> Action:
    """A recipe length with free tokens not already spoken for, weighted by points per ingredient."""
    held = [0] * 6
    for r in state.screens[seat]:
        held[RECIPES[r].length] += 1
    free = state.free[seat]
    best, best_v = legal[0], -math.inf
    for a in legal:
        assert isinstance(a, DrawRecipe)
        n = a.length
        v = (free[n] - held[n]) * POINTS[n] / n
        if v > best_v:
            best, best_v = a, v
    return best


def choose_tile(state: WasabiState, seat: int, legal: Sequence[Action]) -> Action:
    """The ingredient its live recipes miss most (hand tiles already count), else the commonest kind."""
    want: dict[int, float] = {}
    hand = list(state.hands[seat])
    for r in live_recipes(state, seat):
        need = dict(NEEDS[r])
        for k in hand:
            if need.get(k, 0):
                need[k] -= 1
        n = RECIPES[r].length
        for k, c in need.items():
            if c:
                want[k] = want.get(k, 0.0) + POINTS[n] / n
    best, best_v = legal[0], -math.inf
    for a in legal:
        assert isinstance(a, DrawTile)
        k = KINDS.index(a.tile)
        # the Pantry shows availability only: break ties by the box's counts (public), not what is left
        v = want.get(k, 0.0) * 100 + PANTRY[k] - 10 * hand.count(k)
        if v > best_v:
            best, best_v = a, v
    return best


def choose_reward(state: WasabiState, seat: int, legal: Sequence[Action]) -> Action:
    """Take the most useful card (Kitchen before a Wasabi! lying on the board); with a full hand swap only for
    a better card."""
    held = state.cards[seat]
    best: Action = next(a for a in legal if isinstance(a, SkipReward))
    best_v = -math.inf if len(held) < 2 else 0.0
    for a in legal:
        if not isinstance(a, TakeCard):
            continue
        c = CARDS.index(a.card)
        v = 10.0 - CARD_PREFERENCE.index(c) - (0.5 if a.square >= 0 else 0.0)
        if a.discard:
            v -= 10.0 - CARD_PREFERENCE.index(CARDS.index(a.discard))
            v -= 0.1
        if v > best_v:
            best, best_v = a, v
    return best


def _neutral_place(state: WasabiState, seat: int, legal: Sequence[Action]) -> Action:
    """A tile that helps nobody much: the hand tile least useful to us, on a square with few neighbours."""
    tops = state.tops
    cols = state.geo.cols
    size = state.geo.size
    places = [a for a in legal if isinstance(a, Place)]
    best, best_v = places[0], math.inf
    for a in places:
        q = a.square
        if tops[q] != EMPTY:
            continue
        r, c = divmod(q, cols)
        nb = 0
        for dq, okd in ((-1, c > 0), (1, c < cols - 1), (-cols, r > 0), (cols, q + cols < size)):
            if okd and tops[q + dq] >= 0:
                nb += 1
        if nb < best_v:
            best, best_v = a, nb
    return best


def greedy(
    state: WasabiState, seat: int, legal: Sequence[Action], *, cheap: bool = False, rng: random.Random | None = None
) -> Action:
    """The ``normal`` policy. ``cheap`` skips the action cards that need a board search (for playouts)."""
    if len(legal) == 1:
        return legal[0]
    ph = state.phase
    first = legal[0]
    if ph == "give":
        return legal[0] if rng is None else pick(rng, legal)
    if ph in ("setup_recipes", "draw_recipes"):
        return choose_length(state, seat, legal)
    if ph == "draw_tiles":
        return choose_tile(state, seat, legal)
    if ph == "reward":
        return choose_reward(state, seat, legal)
    if ph == "choose":  # same length, same points: the one with style earns cubes
        styled = {r for r, st in state.choosing if st}
        return next((a for a in legal if isinstance(a, ChooseRecipe) and a.recipe in styled), first)
    ranked = rank_play(state, seat, legal, cheap=cheap)
    return ranked[0][1] if ranked else first


def rank_play(
    state: WasabiState, seat: int, legal: Sequence[Action], *, cheap: bool = False
) -> list[tuple[float, Action]]:
    """Step-1 actions with a heuristic value, best first (not every legal action is listed)."""
    values = place_values(state, seat)
    out: list[tuple[float, Action]] = []
    places = [a for a in legal if isinstance(a, Place)]
    kind_of = {name: i for i, name in enumerate(KINDS)}
    best_place = 0.0
    for a in places:
        v = values.get((kind_of[a.tile], a.square), 0.0)
        if v > 0:
            out.append((v, a))
            best_place = max(best_place, v)
    if places and not out:
        out.append((0.0, _neutral_place(state, seat, legal)))
    passes = [a for a in legal if isinstance(a, Pass)]
    if passes:
        dead = dead_recipes(state, seat)
        if dead and state.empties() * 4 > state.geo.size:  # late on, fresh recipes would be dead too
            want = Pass(dead)
            if want in passes:
                out.append((1.5 * len(dead) - (0.5 if best_place > 1.0 else 0.0), want))
        elif not places:
            out.append((0.0, passes[-1]))
    kinds = {type(a) for a in legal}
    if PlaySpicy in kinds:
        if places:  # before the tile: worth it when two good placements exist (usually played after)
            top = sorted((v for v, a in out if isinstance(a, Place)), reverse=True)
            if len(top) >= 2 and top[1] > 0.5:
                out.append((top[1] * 0.5, PlaySpicy()))
        else:  # after the tile: the best next placement
            nxt = max(values.values(), default=0.0)
            if nxt > 0.5:
                out.append((nxt * 0.9, PlaySpicy()))
    if PlayWasabi in kinds:
        tops = state.tops
        blocks = [a for a in legal if isinstance(a, PlayWasabi)]
        best_block = max(
            blocks, key=lambda a: (sum(1 for q in state.geo.block_at[a.square] if tops[q] >= 0), -a.square)
        )
        out.append((0.8, best_block))
    if not cheap:
        base = state.score_of(seat)
        for card_play in legal:
            if isinstance(card_play, (PlaySwitch, PlayChop)):
                d = state.clone()
                d.journal = None
                d.apply(seat, card_play)
                gain = d.score_of(seat) - base
                if gain > 0:
                    out.append((COMPLETE_BONUS + gain, card_play))
                elif isinstance(card_play, PlayChop) and card_play.keep:
                    # move a tile: worth it when the chopped tile completes a recipe elsewhere
                    moved = max((v for (k, _), v in place_values(d, seat).items() if k == d.chopped), default=0.0)
                    if moved >= COMPLETE_BONUS:
                        out.append((moved - 0.5, card_play))
        if PlayStack in kinds:
            d = state.clone()
            d.journal = None
            d.apply(seat, PlayStack())
            best = _stack_value(d, seat)
            if best > 0:
                out.append((best, PlayStack()))
    end = [a for a in legal if isinstance(a, EndStep)]
    if end:
        out.append((0.0, end[0]))
    out.sort(key=lambda x: -x[0])
    return out


def _stack_value(d: WasabiState, seat: int) -> float:
    """Best immediate gain of a tile played on top of an occupied square (Stack! has just been played)."""
    base = d.score_of(seat)
    best = 0.0
    hand = sorted(set(d.hands[seat]))
    tops = d.tops
    for q, t in enumerate(tops):
        if t < 0:
            continue
        for k in hand:
            if k == t:
                continue
            e = d.clone()
            e.journal = None
            e.apply(seat, Place(KINDS[k], q))
            gain = e.score_of(seat) - base
            if gain > 0:
                best = max(best, COMPLETE_BONUS + gain)
    return best


# ------------------------------------------------------------------------------------------------------ bots
class EasyBot(BaseBot):
    """Completes a recipe when a tile does it, otherwise mostly advances one; random refills; no cards."""

    level = "easy"

    def choose(self, state: State) -> Action:
        assert isinstance(state, WasabiState)
        legal = state.legal_actions(self.seat)
        if len(legal) == 1:
            return legal[0]
        rng = self.rng
        plain = [a for a in legal if not type(a).__name__.startswith("Play")]
        if state.phase == "play":
            values = place_values(state, self.seat)
            places = [a for a in plain if isinstance(a, Place)]
            if places:
                scored = [(values.get((KINDS.index(a.tile), a.square), 0.0), a) for a in places]
                v, best = max(scored, key=lambda x: x[0])
                if v >= COMPLETE_BONUS or (v > 0 and rng.random() < 0.75):
                    return best
                return pick(rng, places)
            end = [a for a in plain if isinstance(a, EndStep)]
            if end:
                return end[0]
        return pick(rng, plain or legal)


class NormalBot(BaseBot):
    """The greedy chef (see the module docstring)."""

    level = "normal"

    def choose(self, state: State) -> Action:
        assert isinstance(state, WasabiState)
        legal = state.legal_actions(self.seat)
        return greedy(state, self.seat, legal, rng=self.rng)


#: Points scored later in a playout are discounted by this per decision: the greedy opponents of a playout
#: never block, so without it completing a recipe now and "next turn" would look the same.
DISCOUNT = 0.97


def greedy_rollout(state: State, rng: random.Random) -> tuple[int, Action]:
    """The playout policy: the cheap greedy choice of the seat to move."""
    assert isinstance(state, WasabiState)
    seat = state.current
    return seat, greedy(state, seat, state.legal_actions(seat), cheap=True)


def evaluate(state: State, adjust: Sequence[float] | None = None) -> list[float]:
    """Rewards in [0, 1]: a finished game by :func:`kiosk.ai.win_share`; otherwise each seat's points (plus
    ``adjust``, the discount on points scored during the playout) and the value of its recipes in progress,
    against the best other seat, through a logistic curve."""
    assert isinstance(state, WasabiState)
    if state.is_over():
        return win_share(state)
    n = state.players
    adjust = adjust or [0.0] * n
    v = [state.score_of(s) + adjust[s] + 0.7 * potential(state, s) for s in range(n)]
    out = []
    for s in range(n):
        other = max(v[o] for o in range(n) if o != s)
        out.append(1.0 / (1.0 + math.exp(-(v[s] - other) / 4.0)))
    return out


class HardBot(ISMCTSBot):
    """ISMCTS over determinizations with the ``normal`` ranking's best ``candidates`` at the root and greedy
    playouts of about one round (``steps_per_seat`` decisions per seat), scored by :func:`evaluate`.

    Shaped through the search's hooks: :meth:`root_actions` offers the candidates, :meth:`search_actions` makes
    every later decision (any seat) the cheap greedy policy's single choice, so an iteration is a greedy playout,
    and :meth:`step` discounts points scored later in it (``DISCOUNT`` per decision)."""

    level = "hard"

    def __init__(
        self,
        seat: int,
        seed: int,
        *,
        candidates: int = 6,
        steps_per_seat: int = 3,
        iterations: int = 220,
        time_limit: float | None = 0.15,
    ) -> None:
        super().__init__(
            seat,
            seed,
            iterations=iterations,
            time_limit=time_limit,
            evaluate=self._evaluate,
            rollout=greedy_rollout,
            exploration=0.5,
        )
        self.candidates = candidates
        self.steps_per_seat = steps_per_seat
        self._cands: list[Action] = []
        self._adjust: list[float] = []
        self._depth = 0

    def root_actions(self, state: State, legal: list[Action]) -> list[Action]:
        return self._cands or legal

    def search_actions(self, d: State, seat: int, legal: list[Action], depth: int) -> list[Action]:
        assert isinstance(d, WasabiState)
        return [greedy(d, seat, legal, cheap=True)] if legal else legal

    def new_iteration(self, d: State) -> None:
        self._adjust = [0.0] * d.players
        self._depth = 0

    def step(self, d: State, seat: int, action: Action) -> None:
        assert isinstance(d, WasabiState)
        before = d.score_of(seat)
        d.apply(seat, action)
        gain = d.score_of(seat) - before
        if gain:
            self._adjust[seat] += gain * (DISCOUNT**self._depth - 1.0)
        self._depth += 1

    def _evaluate(self, state: State) -> list[float]:
        return evaluate(state, self._adjust)

    def choose(self, state: State, *, started: float | None = None) -> Action:
        assert isinstance(state, WasabiState)
        t0 = self.clock() if started is None else started
        legal = state.legal_actions(self.seat)
        if len(legal) == 1:
            return legal[0]
        if state.phase in ("setup_recipes", "draw_recipes"):
            return expected_length_choice(state, self.seat, legal)
        if state.phase == "draw_tiles":
            return best_tile_choice(state, self.seat, legal)
        if state.phase != "play":
            return greedy(state, self.seat, legal, rng=self.rng)
        ranked = rank_play(state, self.seat, legal)
        cands: list[Action] = []
        for _, a in ranked:
            if a not in cands:
                cands.append(a)
            if len(cands) >= self.candidates:
                break
        for a in legal:  # always consider ending the step and the dead-recipe pass
            if isinstance(a, EndStep) and a not in cands:
                cands.append(a)
        if len(cands) <= 1:
            return cands[0] if cands else legal[0]
        self.rollout_depth = self.steps_per_seat * state.players
        self._cands = cands
        try:
            choice = super().choose(state, started=t0)  # the ranking's time counts against the time limit
        finally:
            self._cands = []
        if self.last_iterations < 2 * len(cands):
            return cands[0]  # too few samples to overrule the ranking (a very busy machine)
        return choice


BOTS: dict[str, Callable[[int, int], Bot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "normal": NormalBot,
    "hard": HardBot,
}
