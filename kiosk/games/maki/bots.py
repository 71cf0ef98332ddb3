"""Maki bots: ``random`` (the shared RandomBot), ``easy``, ``normal`` and ``hard`` (the shared ISMCTSBot).

Every bot decides from what its seat can see: its own hand, the public board, Pantry, card backs and action
cards. ``hard`` searches over ``state.determinize(seat)`` copies; its pruning and evaluation run inside those
copies, where every hidden card is a sample, so they never peek either.

* ``easy``: serves whenever it can (best recipes first), else places the tile that makes the most progress
  towards its own recipes (:func:`placement_values`); its Prep is always the Wasabi pool; it draws by board
  fullness and the top card's back.
* ``normal`` (:class:`_NormalPolicy`): the same progress measure for its own recipes, plus what the opponents
  could finish next (:class:`_Opponents`, from the recipes its seat has not seen, weighted by the chance an
  opponent holds each): it fills a space where such a recipe is one tile from complete (blocking) and avoids
  leaving one next to its own tile (feeding); it plays Substitute, Chop or Second Helping (:func:`_combo`)
  when they let it serve a recipe worth 4+ at once (anything on the final turns) and Switch for any serve at
  once, gains Substitute and Chop first, and draws from the deck whose unseen recipes the board can best complete
  (:func:`_normal_deck_choice`). Its Prep is the pool: returning dead recipes or taking an action card instead
  lost more games, see docs/maki.md.
* ``hard``: ISMCTS over determinizations, each step pruned by :func:`search_prune`, leaves scored by
  :func:`evaluate`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Sequence

from kiosk.ai import BaseBot, ISMCTSBot, RandomBot, pick
from kiosk.engine import Action, Bot, RuleError, State
from kiosk.games.maki.rules import (
    BACK_EFFECTS,
    CUP,
    CUPMOVE,
    DISCARD,
    EMPTY,
    GAIN,
    KIND_INDEX,
    KINDS,
    LENGTHS,
    MAIN,
    PLACE,
    RECIPES,
    REFILL,
    SUBST,
    Chop,
    Discard,
    Draw,
    EndTurn,
    Gain,
    MakiState,
    MoveCup,
    Place,
    Return,
    SecondHelping,
    Serve,
    Substitute,
    Switch,
    Take,
    TakePool,
)
from kiosk.games.maki.tuning import (
    BLOCK_CELLS,
    CARD_VALUE,
    EVAL_CARD,
    EVAL_EMPTY,
    EVAL_HAND,
    EVAL_POOL,
    EVAL_TEMP,
    EXPLORATION,
    N_BLOCK,
    N_CARD_MIN,
    N_CARD_MIN_FINAL,
    N_CARD_VALUE,
    N_DECK,
    N_FEED,
    NORMAL_SLIP,
    ROLLOUT_DEPTH,
    TOP_CELLS,
    TOP_KINDS,
)

# --------------------------------------------------------------------------------------------- measurements
_NEED: tuple[dict[int, int], ...] = tuple({k: r.ingredients.count(k) for k in r.ingredients} for r in RECIPES)
_LENGTH = tuple(r.length for r in RECIPES)


def segment_progress(state: MakiState, rid: int) -> list[tuple[tuple[int, ...], int, list[int]]]:
    """For recipe ``rid``: every segment it could still be completed in, as (segment, tiles there already,
    kinds still missing). A segment qualifies when its tiles are part of the recipe and the Pantry still holds
    the missing tiles (a teacup's space counts as open: placing there moves the teacup).

    Memoized on the board and the Pantry (public): a search meets the same boards in many determinizations.
    The result is shared, so callers must not change it."""
    key = (rid, tuple(state.board), tuple(state.pantry))
    hit = _PROGRESS_CACHE.get(key)
    if hit is not None:
        return hit
    if len(_PROGRESS_CACHE) > 50_000:
        _PROGRESS_CACHE.clear()
    hit = _PROGRESS_CACHE[key] = _segment_progress(state, rid)
    return hit


_PROGRESS_CACHE: dict[tuple[int, tuple[int, ...], tuple[int, ...]], list[tuple[tuple[int, ...], int, list[int]]]] = {}


def _segment_progress(state: MakiState, rid: int) -> list[tuple[tuple[int, ...], int, list[int]]]:
    need_counts = _NEED[rid]
    board, pantry = state.board, state.pantry
    out = []
    for seg in state.geo.segments[_LENGTH[rid]]:
        missing = dict(need_counts)
        filled = 0
        ok = True
        for c in seg:
            v = board[c]
            if v < 0:  # empty, or a teacup (it moves away when a tile is placed there)
                continue
            if missing.get(v, 0) <= 0:
                ok = False
                break
            missing[v] -= 1
            filled += 1
        if not ok:
            continue
        kinds = [k for k, n in missing.items() if n > 0]
        if any(pantry[k] < missing[k] for k in kinds):
            continue
        out.append((seg, filled, kinds))
    return out


def recipe_potential(state: MakiState, rid: int) -> float:
    """0..1: how close ``rid`` is to being completed somewhere (the best segment's filled share, squared)."""
    length = RECIPES[rid].length
    best = max((f for _, f, _ in segment_progress(state, rid)), default=-1)
    if best < 0:
        return 0.0
    return ((best + 0.5) / (length + 0.5)) ** 2


def placement_values(
    state: MakiState, seat: int, kinds: Sequence[int] | None = None, style: bool = True, skip: Collection[int] = ()
) -> dict[tuple[int, int], float]:
    """Value of placing each useful (kind, cell) for ``seat``'s own recipes (those in ``skip`` left out).

    Completing a recipe is worth its score (plus style Wasabi when the order fits); a partial step is worth a
    share of the score growing with how far along the segment is. Kinds are limited to ``kinds`` if given.
    """
    values: dict[tuple[int, int], float] = {}
    board = state.board
    allowed = set(kinds) if kinds is not None else None
    for rid in state.hands[seat]:
        if rid in skip:
            continue
        recipe = RECIPES[rid]
        length = recipe.length
        ing = recipe.ingredients
        for seg, filled, missing in segment_progress(state, rid):
            empties = [i for i, c in enumerate(seg) if board[c] < 0]
            if not empties:
                continue
            done = filled + 1 == length
            if done:
                gain = recipe.score + 0.5
            else:
                gain = recipe.score * (((filled + 1) / length) ** 2 - (filled / length) ** 2) * 0.6
            for i in empties:
                cell = seg[i]
                for k in missing:
                    if allowed is not None and k not in allowed:
                        continue
                    v = gain
                    if style and recipe.style and _in_order(board, seg, ing, i, k):
                        v += recipe.style * (1.0 if done else 0.3 * (filled + 1) / length)
                    key = (k, cell)
                    if v > values.get(key, 0.0):
                        values[key] = v
    return values


def _in_order(board: list[int], seg: tuple[int, ...], ing: tuple[int, ...], i: int, k: int) -> bool:
    """Would kind ``k`` at position ``i`` keep the segment's tiles in card order (either direction)?"""
    for order in (ing, ing[::-1]):
        if order[i] != k:
            continue
        if all(board[c] < 0 or board[c] == order[j] for j, c in enumerate(seg) if j != i):
            return True
    return False


def threats(state: MakiState, seat: int) -> dict[int, float]:
    """Per empty cell: the expected points an opponent could score by placing there next (blocking value).

    Only recipes ``seat`` has not seen anywhere count; each is held by an opponent with the chance of the
    opponents' hidden cards of that length among all unseen cards of that length.
    """
    bit = 1 << seat
    unseen: dict[int, dict[tuple[int, ...], float]] = {L: {} for L in LENGTHS}
    count = dict.fromkeys(LENGTHS, 0)
    for r in RECIPES:
        if state.known[r.id] & bit:
            continue
        count[r.length] += 1
        keys = unseen[r.length]
        keys[r.key] = keys.get(r.key, 0.0) + r.score
    held = dict.fromkeys(LENGTHS, 0)
    for other in range(state.players):
        if other != seat:
            for rid in state.hands[other]:
                if not state.known[rid] & bit:
                    held[RECIPES[rid].length] += 1
    board = state.board
    out: dict[int, float] = {}
    for length in (2, 3, 4):
        if not held[length] or not count[length]:
            continue
        chance = held[length] / count[length]
        keys = unseen[length]
        for seg in state.geo.segments[length]:
            hole = -1
            tiles = []
            for c in seg:
                v = board[c]
                if v == EMPTY:
                    if hole >= 0:
                        break
                    hole = c
                elif v == CUP:
                    break
                else:
                    tiles.append(v)
            else:
                if hole < 0:
                    continue
                worth = 0.0
                for k in set(tiles) | set(range(len(KINDS))):
                    if state.pantry[k] > 0:
                        worth = max(worth, keys.get(tuple(sorted(tiles + [k])), 0.0))
                if worth:
                    out[hole] = out.get(hole, 0.0) + worth * chance
    return out


def _deck_choice(state: MakiState, seat: int, rng: random.Random | None = None) -> Action:
    """Draw from the deck whose recipe length suits how full the board is, preferring generous backs."""
    empty = sum(1 for v in state.board if v == EMPTY) / len(state.board)
    prefer = (
        {2: 1.0, 3: 2.0, 4: 1.6, 5: 0.6}
        if empty > 0.6
        else {2: 1.6, 3: 1.8, 4: 0.9, 5: 0.1}
        if empty > 0.3
        else {2: 2.0, 3: 0.8, 4: 0.1, 5: 0.0}
    )
    best, best_v = None, -math.inf
    for length, deck in state.decks.items():
        if not deck:
            continue
        obey = state.obey_backs or state.phase == MAIN
        gain, pool = BACK_EFFECTS[RECIPES[deck[-1]].back] if obey else (0, 0)
        v = prefer[length] + gain * 1.2 - pool * 0.1
        if rng is not None:
            v += rng.random() * 0.3
        if v > best_v:
            best, best_v = Draw(length), v
    return best if best is not None else EndTurn()


def _serve_order(state: MakiState, seat: int) -> list[int]:
    fresh = [r for r in state.servable(seat) if r not in state.served_now]
    return sorted(fresh, key=lambda r: (-RECIPES[r].score, r))


# ------------------------------------------------------------------------------------------------ the policy
class _Policy:
    """The easy bot's decisions (``smart`` is kept for the constructor's callers: the normal bot is
    :class:`_NormalPolicy`, which builds on this class)."""

    def __init__(self, seat: int, rng: random.Random, smart: bool, fast: bool = False) -> None:
        self.seat = seat
        self.rng = rng
        self.smart = smart
        self.fast = fast

    def act(self, state: MakiState, seat: int) -> Action:
        legal_phase = state.phase
        rng = self.rng
        if legal_phase == PLACE:
            vals = placement_values(state, seat, [state.pending], style=not self.fast)
            if vals:
                (k, cell), _ = max(vals.items(), key=lambda kv: (kv[1], -kv[0][1]))
                return Place(cell)
            empties = [c for c, v in enumerate(state.board) if v == EMPTY]
            return Place(pick(rng, empties))
        if legal_phase == CUPMOVE:
            empties = [c for c, v in enumerate(state.board) if v == EMPTY]
            return MoveCup(pick(rng, empties))
        if legal_phase == SUBST:
            return pick(rng, state.legal_actions(seat))
        if legal_phase == GAIN:
            return Gain(max(state.display, key=lambda c: (CARD_VALUE.get(c, 0), c)))
        if legal_phase == DISCARD:
            return Discard(min((c for c, _ in state.held[seat]), key=lambda c: (CARD_VALUE.get(c, 0), c)))
        if legal_phase == REFILL:
            return _deck_choice(state, seat, rng if self.fast else None)
        # MAIN
        if state.must_place():
            return Take(KINDS[self._best_kind(state, seat)])
        serve = _serve_order(state, seat)
        if serve:
            return Serve(serve[0])
        if state.served_now:
            return _deck_choice(state, seat, rng if self.fast else None)
        return self._prep(state, seat)

    def _best_kind(self, state: MakiState, seat: int) -> int:
        vals = placement_values(state, seat, style=not self.fast)
        if vals:
            (k, _), _ = max(vals.items(), key=lambda kv: (kv[1], -kv[0][0], -kv[0][1]))
            return k
        stock = [k for k, n in enumerate(state.pantry) if n > 0]
        # Nothing helps: play a plentiful kind (keeps scarce ones for later recipes).
        most = max(state.pantry[k] for k in stock)
        return pick(self.rng, [k for k in stock if state.pantry[k] == most])

    def _card_to_serve(self, state: MakiState, seat: int) -> Action | None:
        """A Switch after which a recipe can be served right away (used by the normal bot)."""
        if not state.playable_cards(seat):
            return None
        have = set(state.servable(seat)) - set(state.served_now)
        base = sum(RECIPES[r].score for r in have)
        best, best_v = None, 0.0
        for a in state.legal_actions(seat):
            if not isinstance(a, (Switch, Chop, Substitute, SecondHelping)):
                continue
            if isinstance(a, (Chop, SecondHelping, Substitute)):
                continue  # only Switch gives a serve at once; the others open a later placement
            d = state.clone()
            d.journal = None
            d.apply(seat, a)
            v = sum(RECIPES[r].score for r in set(d.servable(seat)) - set(d.served_now)) - base
            if v > best_v:
                best, best_v = a, v
        return best

    def _prep(self, state: MakiState, seat: int) -> Action:
        """Prep is the Wasabi pool. Measured (docs/maki.md): variants that took an action card or returned
        hopeless recipes while the pool was small lost more games than always taking the pool."""
        return TakePool()


# ------------------------------------------------------------------------------------------ the normal policy
# Normal bot knobs, each measured against ``easy`` (docs/maki.md).


def _open(v: int) -> bool:
    return v < 0  # empty, or a teacup (placing there moves the teacup away)


class _Opponents:
    """What the opponents could score next, from what ``seat`` can see: every recipe ``seat`` has not seen is
    held by an opponent with the chance of the opponents' hidden cards of its length among all unseen cards of
    that length. ``block[cell]``: expected points of recipes one tile (there) from complete; ``feed(k, cell)``:
    expected points of the one-tile holes that placing ``k`` at ``cell`` would leave."""

    def __init__(self, state: MakiState, seat: int) -> None:
        bit = 1 << seat
        count = dict.fromkeys(LENGTHS, 0)
        held = dict.fromkeys(LENGTHS, 0)
        # partial[L][tiles (sorted, L-1 kinds)] -> [(the missing kind, score), ...]
        partial: dict[int, dict[tuple[int, ...], list[tuple[int, int]]]] = {L: {} for L in LENGTHS}
        for r in RECIPES:
            if state.known[r.id] & bit:
                continue
            count[r.length] += 1
            key = r.key
            for i, x in enumerate(key):
                if i and key[i - 1] == x:
                    continue
                rest = key[:i] + key[i + 1 :]
                partial[r.length].setdefault(rest, []).append((x, r.score))
        for other in range(state.players):
            if other != seat:
                for rid in state.hands[other]:
                    if not state.known[rid] & bit:
                        held[_LENGTH[rid]] += 1  # the back (length) is public
        self.chance = {L: held[L] / count[L] if count[L] else 0.0 for L in LENGTHS}
        self.partial = partial
        self.pantry = state.pantry
        self._worth: dict[tuple[int, ...], float] = {}
        board = state.board
        self.block: dict[int, float] = {}
        self.pairs: dict[int, list[tuple[int, list[int]]]] = {}  # cell -> [(length, other tiles)] with 2 holes
        for length in LENGTHS:
            if not self.chance[length]:
                continue
            for seg in state.geo.segments[length]:
                holes = [c for c in seg if _open(board[c])]
                if len(holes) == 1:
                    w = self.worth(length, [board[c] for c in seg if board[c] >= 0])
                    if w:
                        self.block[holes[0]] = self.block.get(holes[0], 0.0) + w
                elif len(holes) == 2:
                    tiles = [board[c] for c in seg if board[c] >= 0]
                    for h in holes:
                        self.pairs.setdefault(h, []).append((length, tiles))

    def worth(self, length: int, tiles: list[int], taken: int = -1) -> float:
        """Expected points of the unseen recipes that ``tiles`` plus one Pantry kind complete (``taken``: a
        kind whose tile is about to leave the Pantry)."""
        key = tuple(sorted(tiles))
        cache_key = (taken,) + key
        hit = self._worth.get(cache_key)
        if hit is None:
            pantry = self.pantry
            hit = 0.0
            for x, score in self.partial[length].get(key, ()):
                if pantry[x] - (x == taken) > 0:
                    hit += score
            hit *= self.chance[length]
            self._worth[cache_key] = hit
        return hit

    def feed(self, kind: int, cell: int) -> float:
        return sum(self.worth(length, tiles + [kind], kind) for length, tiles in self.pairs.get(cell, ()))


def _own_values(state: MakiState, seat: int, kinds: Sequence[int] | None = None) -> dict[tuple[int, int], float]:
    """:func:`placement_values` (progress, completion, style) for the normal bot's recipes not served yet this
    turn."""
    return placement_values(state, seat, kinds, skip=state.served_now)


def _combo(state: MakiState, seat: int) -> tuple[list[Action], float]:
    """The best action-card combination that serves a hand recipe this turn, as the steps to play and the
    value served: Substitute (a wrong tile of an otherwise complete line, or with the tile into its last gap),
    Chop (a wrong tile out, the tile in its place) or Second Helping (two tiles into the last two gaps)."""
    cards = state.playable_cards(seat)
    if not cards or state.phase != MAIN:
        return [], 0.0
    board, pantry = state.board, state.pantry
    owed = state.tiles_owed > 0
    has_empty = EMPTY in board
    best: list[Action] = []
    best_v = 0.0
    for rid in state.hands[seat]:
        if rid in state.served_now:
            continue
        recipe = RECIPES[rid]
        ing = recipe.ingredients
        score = recipe.score
        for seg in state.geo.segments[recipe.length]:
            need = dict(_NEED[rid])
            holes: list[int] = []
            wrong: list[int] = []
            for c in seg:
                v = board[c]
                if v < 0:
                    holes.append(c)
                elif need.get(v, 0) > 0:
                    need[v] -= 1
                else:
                    wrong.append(c)
                    if len(wrong) > 1:
                        break
            if len(wrong) > 1 or len(holes) + len(wrong) > 2 or not holes and not wrong:
                continue
            if any(board[c] == CUP for c in holes):
                continue
            missing = [k for k, n in need.items() for _ in range(n)]
            if any(pantry[k] < missing.count(k) for k in set(missing)):
                continue
            plans: list[list[Action]] = []
            if len(wrong) == 1 and not holes:
                w = wrong[0]
                m = missing[0]
                if "Substitute" in cards:
                    plans.append([Substitute(w), Take(KINDS[m])])
                if "Chop" in cards and owed:
                    plans.append([Chop(w), Take(KINDS[m]), Place(w)])
            elif len(wrong) == 1 and len(holes) == 1:
                if "Substitute" in cards and owed and has_empty:
                    w, h = wrong[0], holes[0]
                    for m1, m2 in ((missing[0], missing[1]), (missing[1], missing[0])):
                        plans.append([Substitute(w), Take(KINDS[m1]), Take(KINDS[m2]), Place(h)])
            elif len(holes) == 2 and not wrong and "Second Helping" in cards and owed and has_empty:
                h1, h2 = holes
                for m1, m2 in ((missing[0], missing[1]), (missing[1], missing[0])):
                    plans.append([SecondHelping(), Take(KINDS[m1]), Place(h1), Take(KINDS[m2]), Place(h2)])
            for plan in plans:
                after = list(board)
                fill = _plan_fill(plan)
                for c, k in fill.items():
                    after[c] = k
                contents = tuple(after[c] for c in seg)
                styled = contents == ing or contents == ing[::-1]
                v = score + (recipe.style if styled and recipe.length > 2 else 0)
                if v > best_v:
                    best, best_v = plan, v
    return best, best_v


def _plan_fill(plan: list[Action]) -> dict[int, int]:
    """The tiles a combination plan leaves on the board: cell -> kind."""
    fill: dict[int, int] = {}
    subst = -1
    kind = -1
    for a in plan:
        if isinstance(a, Substitute):
            subst = a.cell
        elif isinstance(a, Take):
            if subst >= 0:
                fill[subst] = KINDS.index(a.kind)
                subst = -1
            else:
                kind = KINDS.index(a.kind)
        elif isinstance(a, Place):
            fill[a.cell] = kind
    return fill


def _normal_deck_choice(state: MakiState, seat: int) -> Action:
    """Draw from the deck with the best prospect for ``seat``: the mean over the recipes its top card may be (the
    ones of that length ``seat`` has not seen) of score and style Wasabi times how far along its best line on the
    board is (:func:`recipe_potential`, zero when no line can hold it any more), times ``N_DECK``, plus what
    the top card's back gives when obeyed. (The easy bot's preference by board fullness measured weaker.)"""
    bit = 1 << seat
    obey = state.obey_backs or state.phase == MAIN
    best, best_v = None, -math.inf
    for length, deck in state.decks.items():
        if not deck:
            continue
        gain, pool = BACK_EFFECTS[RECIPES[deck[-1]].back] if obey else (0, 0)
        total, n = 0.0, 0
        for r in RECIPES:
            if r.length == length and not state.known[r.id] & bit:
                n += 1
                total += (r.score + r.style) * recipe_potential(state, r.id)
        v = N_DECK * (total / n if n else 0.0) + gain * 1.2 - pool * 0.1
        if v > best_v:
            best, best_v = Draw(length), v
    return best if best is not None else EndTurn()


def _position(state: MakiState) -> tuple[object, ...]:
    """What a planned step depends on: the turn, its phase, the board and the cards held."""
    return (
        state.turns,
        state.phase,
        state.pending,
        state.tiles_owed,
        tuple(state.board),
        tuple(tuple(h) for h in state.held),
    )


class _NormalPolicy(_Policy):
    """The normal bot: the easy bot's progress measure for its own recipes (:func:`_own_values`), plus the
    opponents' visible chances (:class:`_Opponents`: blocking a space where an unseen recipe is one tile from
    complete, and not leaving such a space next to its own tile), action-card combinations that serve at once
    (:func:`_combo`, and Switch) and a deck choice by what the board can still complete
    (:func:`_normal_deck_choice`). Its Prep stays the pool (returning dead recipes or taking an action card
    instead measured weaker)."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        super().__init__(seat, rng, smart=True)
        # The rest of this turn's plan: (the position each step expects, the step). A position that differs
        # (the game moved on without the bot's last answer, say) drops the plan.
        self.plan: list[tuple[tuple[object, ...], Action]] = []

    def act(self, state: MakiState, seat: int) -> Action:
        if self.plan:
            expect, a = self.plan.pop(0)
            if expect == _position(state) and a in state.legal_actions(seat):
                return a
            self.plan = []
        phase = state.phase
        if phase == PLACE:
            scored = self._scored(state, seat, [state.pending])
            if scored:
                (_, cell), _ = max(scored.items(), key=lambda kv: (kv[1], -kv[0][1]))
                return Place(cell)
            empties = [c for c, v in enumerate(state.board) if v == EMPTY]
            return Place(pick(self.rng, empties))
        if phase == GAIN:
            return Gain(max(state.display, key=lambda c: (N_CARD_VALUE.get(c, 0), c)))
        if phase == DISCARD:
            return Discard(min((c for c, _ in state.held[seat]), key=lambda c: (N_CARD_VALUE.get(c, 0), c)))
        if phase == REFILL:
            return _normal_deck_choice(state, seat)
        if phase != MAIN:
            return super().act(state, seat)
        if state.must_place():
            play = self._combo_play(state, seat) or self._card_to_serve(state, seat)
            if play is not None:
                return play
            k, cell = self._best_step(state, seat)
            return self._start_plan(state, seat, [Take(KINDS[k]), Place(cell)])
        serve = _serve_order(state, seat)
        if serve:
            return Serve(serve[0])
        play = self._combo_play(state, seat) or self._card_to_serve(state, seat)
        if play is not None:
            return play
        if state.served_now:
            return _normal_deck_choice(state, seat)
        return self._prep(state, seat)

    def _combo_play(self, state: MakiState, seat: int) -> Action | None:
        """The first step of the best :func:`_combo` if it serves enough (and, when it uses the turn's tile,
        at least as much as the best plain placement); the rest is remembered as this turn's plan."""
        plan, value = _combo(state, seat)
        if not plan or value < (N_CARD_MIN_FINAL if state.final_left is not None else N_CARD_MIN):
            return None
        if (
            any(isinstance(a, Place) for a in plan)
            and state.must_place()
            and value + 0.5 < max(_own_values(state, seat).values(), default=0.0)
        ):
            return None
        return self._start_plan(state, seat, plan)

    def _start_plan(self, state: MakiState, seat: int, steps: list[Action]) -> Action:
        """Play ``steps[0]`` now and remember the rest, each with the position it expects."""
        d = state.clone()
        d.journal = None
        self.plan = []
        for a in steps:
            self.plan.append((_position(d), a))
            try:
                d.apply(seat, a)
            except RuleError:  # pragma: no cover - plans are built from legal steps; keep what is playable
                break
        return self.plan.pop(0)[1]

    def _scored(self, state: MakiState, seat: int, kinds: Sequence[int] | None) -> dict[tuple[int, int], float]:
        """Value of each candidate (kind, space): own progress + blocking - feeding."""
        own = _own_values(state, seat, kinds)
        opp = _Opponents(state, seat)
        board = state.board
        has_empty = EMPTY in board
        cells = [c for c, v in enumerate(board) if v == EMPTY or (v == CUP and has_empty)]
        if kinds is None:
            stock = [k for k, n in enumerate(state.pantry) if n > 0]
            dump = sorted(stock, key=lambda k: (-state.pantry[k], k))[:3]
        else:
            dump = list(kinds)
        cand = set(own)
        for k in dump:
            for c in cells:
                cand.add((k, c))
        out = {}
        for k, c in cand:
            out[(k, c)] = own.get((k, c), 0.0) + N_BLOCK * opp.block.get(c, 0.0) - N_FEED * opp.feed(k, c)
        return out

    def _best_step(self, state: MakiState, seat: int) -> tuple[int, int]:
        scored = self._scored(state, seat, None)
        (k, cell), _ = max(scored.items(), key=lambda kv: (kv[1], -kv[0][0], -kv[0][1]))
        return k, cell


class HeuristicBot(BaseBot):
    """The ``easy`` (smart=False) and ``normal`` (smart=True) bots. ``slip``: the share of decisions a smart bot
    makes with the easy policy instead (drawn per decision from the bot's own seeded generator)."""

    def __init__(self, seat: int, seed: int, smart: bool, slip: float = 0.0) -> None:
        if not 0.0 <= slip <= 1.0:
            raise ValueError(f"slip must be between 0 and 1, not {slip}")
        super().__init__(seat, seed)
        self.level = "normal" if smart else "easy"
        self.policy = _NormalPolicy(seat, self.rng) if smart else _Policy(seat, self.rng, smart)
        self.slip = slip if smart else 0.0
        self._easy = _Policy(seat, self.rng, False) if self.slip else None

    def choose(self, state: State) -> Action:
        assert isinstance(state, MakiState)
        if self._easy is not None and self.rng.random() < self.slip:
            action = self._easy.act(state, self.seat)
        else:
            action = self.policy.act(state, self.seat)
        legal = state.legal_actions(self.seat)
        return action if action in legal else pick(self.rng, legal)


# ------------------------------------------------------------------------------------------------ hard (ISMCTS)
def _plan(state: MakiState, seat: int, rng: random.Random) -> tuple[int, int] | None:
    """A quick (kind, cell) for a playout: one missing tile of the most advanced segment of a hand recipe."""
    best, best_v = None, 0.0
    board = state.board
    for rid in state.hands[seat]:
        length = _LENGTH[rid]
        score = RECIPES[rid].score
        for seg, filled, missing in segment_progress(state, rid):
            if filled == length:
                continue
            v = score * ((filled + 1) / length) ** 2 + rng.random() * 0.3
            if v > best_v:
                best_v = v
                best = (pick(rng, missing), pick(rng, [c for c in seg if board[c] < 0]))
    return best


def rollout(state: State, rng: random.Random) -> tuple[int, Action]:
    """A playout policy for the hard bot when ``ROLLOUT_DEPTH > 0``: greedy steps towards the mover's own
    recipes, serving whatever it can, drawing by board fullness and taking the pool as its Prep; a little
    randomness, no action cards."""
    assert isinstance(state, MakiState)
    seat = state.turn
    phase = state.phase
    board = state.board
    if phase == MAIN:
        if state.must_place():
            plan = _plan(state, seat, rng) if rng.random() < 0.9 else None
            if plan is not None:
                state.rollout_plan = (state.turns, plan[0], plan[1])  # type: ignore[attr-defined]
                return seat, Take(KINDS[plan[0]])
            stock = [k for k, n in enumerate(state.pantry) if n > 0]
            return seat, Take(KINDS[pick(rng, stock)])
        for rid in state.hands[seat]:
            if rid not in state.served_now and state.match(rid)[0]:
                return seat, Serve(rid)
        if state.served_now:
            return seat, _deck_choice(state, seat, rng)
        return seat, TakePool()
    if phase == PLACE:
        plan = getattr(state, "rollout_plan", None)
        if plan is not None and plan[0] == state.turns and plan[1] == state.pending and board[plan[2]] < 0:
            return seat, Place(plan[2])
        return seat, Place(pick(rng, [c for c, v in enumerate(board) if v == EMPTY]))
    if phase == REFILL:
        return seat, _deck_choice(state, seat, rng)
    return seat, pick(rng, state.legal_actions(seat))


def _styled(board: list[int], seg: tuple[int, ...], ing: tuple[int, ...]) -> bool:
    """Are the segment's tiles where the card order (either direction) wants them?"""
    if all(board[c] < 0 or board[c] == ing[j] for j, c in enumerate(seg)):
        return True
    last = len(seg) - 1
    return all(board[c] < 0 or board[c] == ing[last - j] for j, c in enumerate(seg))


def _pot(filled: int, length: int) -> float:
    return 1.0 if filled >= length else ((filled + 0.5) / (length + 0.5)) ** 2


def evaluate(state: State) -> list[float]:
    """Rewards in [0, 1] per seat for a position cut off by the search (the hard bot plays no playouts).

    Each seat's estimate is its points so far, plus for each recipe in hand its score (and style Wasabi when
    the best segment's tiles are in card order) times how far along its best segment is (``_pot``, squared
    share of tiles present) scaled down as the board fills, plus a little per held action card; the seat to
    move is also credited with the best single step its tile can make and a share of the pool. The reward
    compares the estimate with the best other seat's on a logistic curve. (Measured against alternatives, see
    docs/maki.md: without the style term the bot won 50% instead of 75% against ``normal``; crediting
    "servable now" or dropping complete segments made it weaker.)"""
    assert isinstance(state, MakiState)
    scores = state.scores()
    n = state.players
    if state.is_over():
        est = [float(s) + 0.01 * w for s, w in zip(scores, state.wasabi)]
    else:
        board = state.board
        empty = sum(1 for v in board if v == EMPTY) / len(board)
        scale = EVAL_HAND + EVAL_EMPTY * empty
        mover = state.turn
        step_kind = -2
        if state.phase == PLACE:
            step_kind = state.pending
        elif state.phase == MAIN and state.must_place():
            step_kind = -1
        est = []
        for s in range(n):
            v = float(scores[s])
            step = 0.0
            for rid in state.hands[s]:
                length = _LENGTH[rid]
                recipe = RECIPES[rid]
                score = recipe.score
                ing = recipe.ingredients
                best = -1
                styled = False
                best_step = 0.0
                for seg, filled, missing in segment_progress(state, rid):
                    if filled > best or (filled == best and not styled):
                        st = _styled(board, seg, ing)
                        if filled > best or st:
                            styled = st
                        best = max(best, filled)
                    if s == mover and step_kind > -2 and filled < length and (step_kind == -1 or step_kind in missing):
                        best_step = max(best_step, _pot(filled + 1, length))
                if best >= 0:
                    worth = score + (recipe.style if styled else 0)
                    base = _pot(best, length)
                    v += worth * base * scale
                    if best_step > base:
                        gain = (best_step - base) * worth * (1.0 if best_step == 1.0 else scale)
                        step = max(step, gain)
            v += step + EVAL_CARD * len(state.held[s])
            est.append(v)
        est[mover] += EVAL_POOL * state.pool
    out = []
    for s in range(n):
        other = max(est[o] for o in range(n) if o != s)
        out.append(1.0 / (1.0 + math.exp(-(est[s] - other) / EVAL_TEMP)))
    return out


_STEP_CACHE: dict[tuple[object, ...], tuple[dict[int, float], dict[tuple[int, int], float]]] = {}
_THREAT_CACHE: dict[tuple[object, ...], list[int]] = {}


def search_prune(state: State, seat: int, full: list[Action]) -> list[Action]:
    """The hard bot's search offers a subset of the legal actions, computed from what the mover can see: the
    few most promising kinds and spaces for the tile plus one "dump" option, Switch plays that let a recipe be
    served at once, Second Helping, every serve, draw and card gain, the pool, and returning one recipe. Chop
    and Substitute are left to the other levels."""
    assert isinstance(state, MakiState)
    if len(full) <= 4:
        return full
    phase = state.phase
    if phase == PLACE:
        return _top_cells(state, seat, full)
    if phase == CUPMOVE:
        return _cup_cells(state, seat, full)
    if phase != MAIN:
        return full
    out: list[Action] = []
    takes = [a for a in full if isinstance(a, Take)]
    if takes:
        out += _top_kinds(state, seat, takes)
    out += _useful_cards(state, seat, full)
    for a in full:
        if isinstance(a, (Serve, Draw, EndTurn, Gain, TakePool)) or (isinstance(a, Return) and len(a.recipes) == 1):
            out.append(a)
    return out


def _step_values(state: MakiState, seat: int) -> tuple[dict[int, float], dict[tuple[int, int], float]]:
    key = (seat, tuple(state.board), tuple(state.pantry), tuple(state.hands[seat]))
    hit = _STEP_CACHE.get(key)
    if hit is None:
        if len(_STEP_CACHE) > 20000:
            _STEP_CACHE.clear()
        hit = _STEP_CACHE[key] = _compute_step_values(state, seat)
    return hit


def _threat_cells(state: MakiState, seat: int) -> list[int]:
    bit = 1 << seat
    key = (
        seat,
        tuple(state.board),
        tuple(state.pantry),
        tuple(k & bit for k in state.known),
        tuple(tuple(_LENGTH[r] for r in h) for h in state.hands),
    )
    hit = _THREAT_CACHE.get(key)
    if hit is None:
        if len(_THREAT_CACHE) > 5000:
            _THREAT_CACHE.clear()
        t = threats(state, seat)
        hit = _THREAT_CACHE[key] = sorted(t, key=lambda c: (-t[c], c))[:BLOCK_CELLS]
    return hit


def _compute_step_values(state: MakiState, seat: int) -> tuple[dict[int, float], dict[tuple[int, int], float]]:
    """Per kind and per (kind, cell): the easy bot's placement value (progress, completion, style)."""
    cells = placement_values(state, seat)
    kinds: dict[int, float] = {}
    for (k, _), v in cells.items():
        if v > kinds.get(k, 0.0):
            kinds[k] = v
    return kinds, cells


def _top_kinds(state: MakiState, seat: int, takes: list[Take]) -> list[Action]:
    kinds, _ = _step_values(state, seat)
    ranked = sorted(kinds, key=lambda k: (-kinds[k], k))[:TOP_KINDS]
    stock = [k for k, n in enumerate(state.pantry) if n > 0]
    dump = max(stock, key=lambda k: (state.pantry[k], -k))
    chosen = set(ranked) | {dump}
    return [a for a in takes if KIND_INDEX[a.kind] in chosen]


def _top_cells(state: MakiState, seat: int, full: list[Action]) -> list[Action]:
    _, cells = _step_values(state, seat)
    kind = state.pending
    vals = {c: v for (k, c), v in cells.items() if k == kind}
    ranked = sorted(vals, key=lambda c: (-vals[c], c))[:TOP_CELLS]
    useful = {c for (_, c) in cells}
    board = state.board
    spare = [c for c, v in enumerate(board) if v == EMPTY and c not in useful]
    chosen = set(ranked) | set(_threat_cells(state, seat))
    if spare:
        chosen.add(spare[len(spare) // 2])
    if not chosen:
        return full
    return [a for a in full if isinstance(a, Place) and a.cell in chosen]


def _cup_cells(state: MakiState, seat: int, full: list[Action]) -> list[Action]:
    _, cells = _step_values(state, seat)
    useful = {c for (_, c) in cells}
    spare: list[Action] = [a for a in full if isinstance(a, MoveCup) and a.cell not in useful]
    return spare[:2] or full[:2]


def _useful_cards(state: MakiState, seat: int, full: list[Action]) -> list[Action]:
    out: list[Action] = []
    board = state.board
    hand = [r for r in state.hands[seat] if r not in state.served_now]
    for a in full:
        if isinstance(a, SecondHelping):
            out.append(a)
        elif isinstance(a, Switch):
            board[a.a], board[a.b] = board[a.b], board[a.a]
            try:
                if any(state.match(r)[0] for r in hand):
                    out.append(a)
            finally:
                board[a.a], board[a.b] = board[a.b], board[a.a]
    return out


class SearchState(MakiState):
    """A state whose ``legal_actions`` are :func:`search_prune`'s: what the hard bot's search sees of a position,
    for inspecting it (the bot itself prunes through the search's ``prune`` hook, on plain states)."""

    def legal_actions(self, seat: int) -> list[Action]:
        return search_prune(self, seat, MakiState.legal_actions(self, seat))


class HardBot(ISMCTSBot):
    """ISMCTS (kiosk.ai) over ``determinize(seat)`` samples, every step pruned by :func:`search_prune` (the
    ``prune`` hook), scoring leaves with :func:`evaluate` (``ROLLOUT_DEPTH = 0``: measured stronger than greedy
    playouts of 2 to 12 steps).

    At most 170 ms (no iteration is started that would end later) and 400 iterations per decision; a step with
    one candidate is answered at once."""

    def __init__(
        self, seat: int, seed: int, *, iterations: int = 400, time_limit: float | None = 0.17, **kw: object
    ) -> None:
        kw.setdefault("rollout_depth", ROLLOUT_DEPTH)
        super().__init__(
            seat,
            seed,
            iterations=iterations,
            time_limit=time_limit,
            rollout=rollout,
            evaluate=evaluate,
            exploration=EXPLORATION,
            prune=search_prune,
            **kw,  # type: ignore[arg-type]
        )


def _easy(seat: int, seed: int) -> HeuristicBot:
    return HeuristicBot(seat, seed, smart=False)


def _normal(seat: int, seed: int, slip: float | None = None) -> HeuristicBot:
    return HeuristicBot(seat, seed, smart=True, slip=NORMAL_SLIP if slip is None else slip)


BOTS: dict[str, Callable[[int, int], Bot]] = {
    "random": RandomBot,
    "easy": _easy,
    "normal": _normal,
    "hard": HardBot,
}
