"""The optimal Takoyaki solver: the fewest moves (pushes and turns) from any grill to any order, with the moves.

>>> from kiosk.games.takoyaki.grill import START, parse_order
>>> distance(START, parse_order("..RR/..GG/..BB"))
18
>>> sol = solve(START, parse_order("RR../GG../B..B"))
>>> sol.length, [str(m) for m in sol.moves]
(3, ['Push(src=9, dst=10)', 'Push(src=10, dst=11)', 'Turn(space=11)'])

Rationale and decisions: docs/developer/design.md, section ``kiosk/games/takoyaki/solver.py``.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from kiosk.games.takoyaki.actions import Push, Turn
from kiosk.games.takoyaki.grill import (
    COLOURS,
    DIST,
    HEATED,
    NEIGHBOURS,
    SPACES,
    START,
    Grill,
    Order,
    check_grill,
    check_order,
    colour_of,
    flipped,
    goal_grill,
    is_fried,
)

__all__ = [
    "Solution",
    "solve",
    "distance",
    "lower_bound",
    "difficulty",
    "exhaustive_distance",
    "apply_moves",
    "neighbours_of",
]


@dataclass(frozen=True)
class Solution:
    """An optimal move list from ``grill`` to the order: pushes first, then turns."""

    grill: Grill
    order: Order
    moves: tuple[Push | Turn, ...]
    expanded: int  # positions the search expanded (for the benchmark)

    @property
    def length(self) -> int:
        return len(self.moves)


_Tables = tuple[list[int], list[int], list[tuple[int, ...]], list[tuple[int, ...]], list[tuple[int, ...]]]


def _ball_tables(grill: Sequence[int], order: Sequence[int]) -> _Tables:
    """Balls in a fixed order (two per colour) with their start spaces and, per ball, its cost to each of its
    colour's two targets from every space."""
    codes: list[int] = []
    start: list[int] = []
    for c in COLOURS:
        for s in range(SPACES):
            v = grill[s]
            if v and (v - 1) % 3 + 1 == c:
                codes.append(v)
                start.append(s)
    targets = [tuple(s for s in range(SPACES) if order[s] == c) for c in COLOURS]
    to_first: list[tuple[int, ...]] = []
    to_second: list[tuple[int, ...]] = []
    for code in codes:
        t1, t2 = targets[colour_of(code) - 1]
        fried = is_fried(code)
        to_first.append(tuple(DIST[p][t1] + (fried != HEATED[t1]) for p in range(SPACES)))
        to_second.append(tuple(DIST[p][t2] + (fried != HEATED[t2]) for p in range(SPACES)))
    return codes, start, targets, to_first, to_second


def lower_bound(grill: Sequence[int], order: Sequence[int]) -> int:
    """The heuristic: per colour, the cheaper matching of its two balls to its two targets (Manhattan distance
    plus one turn for a wrong side). Never more than the true distance."""
    _, pos, _, a, b = _ball_tables(grill, order)
    return sum(min(a[i][pos[i]] + b[i + 1][pos[i + 1]], b[i][pos[i]] + a[i + 1][pos[i + 1]]) for i in (0, 2, 4))


def _validate(grill: Sequence[int], order: Sequence[int]) -> tuple[Grill, Order]:
    grill, order = tuple(grill), tuple(order)
    check_grill(grill)
    check_order(order)
    return grill, order


@lru_cache(maxsize=2048)
def _solve(grill: Grill, order: Order) -> Solution:
    codes, start, targets, A, B = _ball_tables(grill, order)
    same = (codes[0] == codes[1], codes[2] == codes[3], codes[4] == codes[5])
    goal = tuple(targets)  # per colour, its two target spaces ascending

    # term[k][p * 12 + q]: the heuristic's share of colour k with its first ball on p and its second on q
    term = [
        [min(A[i][p] + B[i + 1][q], B[i][p] + A[i + 1][q]) for p in range(SPACES) for q in range(SPACES)]
        for i in (0, 2, 4)
    ]
    first = list(start)
    for k in range(3):
        if same[k] and first[2 * k] > first[2 * k + 1]:
            first[2 * k], first[2 * k + 1] = first[2 * k + 1], first[2 * k]
    root = tuple(first)
    h0 = term[0][root[0] * 12 + root[1]] + term[1][root[2] * 12 + root[3]] + term[2][root[4] * 12 + root[5]]
    goals = {
        (a0, a1, b0, b1, c0, c1)
        for a0, a1 in (goal[0], goal[0][::-1])
        for b0, b1 in (goal[1], goal[1][::-1])
        for c0, c1 in (goal[2], goal[2][::-1])
    }
    best: dict[tuple[int, ...], int] = {root: 0}
    parent: dict[tuple[int, ...], tuple[tuple[int, ...], int, int] | None] = {root: None}
    heap: list[tuple[int, int, int, tuple[int, ...], int]] = [(h0, 0, 0, root, h0)]
    counter = 0
    expanded = 0
    neighbours = NEIGHBOURS
    push = heapq.heappush
    pop = heapq.heappop
    while heap:
        f, neg_g, _, pos, h = pop(heap)
        g = -neg_g
        if best[pos] < g:
            continue  # a stale entry
        if pos in goals:
            return Solution(grill, order, _moves(grill, parent, pos, codes), expanded)
        expanded += 1
        occupied = (1 << pos[0]) | (1 << pos[1]) | (1 << pos[2]) | (1 << pos[3]) | (1 << pos[4]) | (1 << pos[5])
        g2 = g + 1
        for i in range(6):
            p = pos[i]
            lo = i & ~1
            tk = term[lo >> 1]
            swap = same[lo >> 1]
            first_ball = i == lo
            other = pos[i + 1] if first_ball else pos[i - 1]
            old = tk[p * 12 + other] if first_ball else tk[other * 12 + p]
            for q in neighbours[p]:
                if occupied >> q & 1:
                    continue
                child = list(pos)
                child[i] = q
                if swap and child[lo] > child[lo + 1]:
                    child[lo], child[lo + 1] = child[lo + 1], child[lo]
                key = tuple(child)
                seen = best.get(key)
                if seen is not None and seen <= g2:
                    continue
                best[key] = g2
                parent[key] = (pos, p, q)
                h2 = h - old + (tk[q * 12 + other] if first_ball else tk[other * 12 + q])
                counter += 1
                push(heap, (g2 + h2, -g2, counter, key, h2))
    raise AssertionError("every arrangement can reach every order")  # pragma: no cover


def _moves(
    grill: Grill,
    parent: dict[tuple[int, ...], tuple[tuple[int, ...], int, int] | None],
    pos: tuple[int, ...],
    codes: list[int],
) -> tuple[Push | Turn, ...]:
    pushes: list[Push] = []
    node = pos
    step = parent[node]
    while step is not None:
        prev, p, q = step
        pushes.append(Push(p, q))
        node = prev
        step = parent[node]
    pushes.reverse()
    cells = list(grill)
    for m in pushes:
        cells[m.dst], cells[m.src] = cells[m.src], 0
    turns = [Turn(s) for s in range(SPACES) if cells[s] and is_fried(cells[s]) != HEATED[s]]
    return (*pushes, *turns)


def solve(grill: Sequence[int], order: Sequence[int]) -> Solution:
    """An optimal move list from ``grill`` to ``order`` (cached: repeated questions are free)."""
    return _solve(*_validate(grill, order))


def distance(grill: Sequence[int], order: Sequence[int]) -> int:
    """The fewest moves from ``grill`` to ``order``."""
    return solve(grill, order).length


def difficulty(order: Sequence[int]) -> int:
    """An order's difficulty: its distance from the start grill (``rr../gg../bb..``)."""
    return distance(START, order)


def apply_moves(grill: Sequence[int], moves: Sequence[Push | Turn]) -> Grill:
    """Play ``moves`` on a copy of ``grill``, checking each is a legal push or turn (ValueError if not)."""
    cells = list(grill)
    for m in moves:
        if isinstance(m, Push):
            if not (cells[m.src] and cells[m.dst] == 0 and m.dst in NEIGHBOURS[m.src]):
                raise ValueError(f"{m} is not a push to an adjacent empty space")
            cells[m.dst], cells[m.src] = cells[m.src], 0
        elif isinstance(m, Turn):
            if not cells[m.space]:
                raise ValueError(f"{m}: no ball there")
            cells[m.space] = flipped(cells[m.space])
        else:
            raise ValueError(f"not a move: {m!r}")
    return tuple(cells)


def neighbours_of(grill: Grill) -> Iterator[Grill]:
    """Every grill one move (push or turn) away."""
    for s in range(SPACES):
        v = grill[s]
        if not v:
            continue
        cells = list(grill)
        cells[s] = flipped(v)
        yield tuple(cells)
        for q in NEIGHBOURS[s]:
            if grill[q] == 0:
                cells = list(grill)
                cells[q], cells[s] = v, 0
                yield tuple(cells)


def exhaustive_distance(grill: Sequence[int], order: Sequence[int], limit: int = 5_000_000) -> int:
    """Plain breadth-first search over whole grills, pushes and turns alike: the reference for the tests.

    No heuristic and no shortcuts; it searches from both ends at once (exactly one grill meets an order, and
    every move can be undone by a move, so the graph is undirected), a whole layer at a time, and stops at the
    first layer where the two searches meet. Slow: it visits every grill closer than about half the answer
    from either end. Raises RuntimeError after ``limit`` grills.
    """
    grill, order = _validate(grill, order)
    goal = goal_grill(order)
    if grill == goal:
        return 0
    seen = ({grill: 0}, {goal: 0})
    layers = ([grill], [goal])
    while layers[0] and layers[1]:
        side = 0 if len(layers[0]) <= len(layers[1]) else 1
        mine, theirs = seen[side], seen[1 - side]
        best: int | None = None
        nxt: list[Grill] = []
        for g in layers[side]:
            d = mine[g] + 1
            for n in neighbours_of(g):
                if n in theirs:
                    total = d + theirs[n]
                    best = total if best is None else min(best, total)
                elif n not in mine:
                    mine[n] = d
                    nxt.append(n)
        if best is not None:
            return best
        if len(mine) + len(theirs) > limit:
            raise RuntimeError(f"exhaustive search passed {limit} grills")
        layers = (nxt, layers[1]) if side == 0 else (layers[0], nxt)
    raise AssertionError("unreachable order")  # pragma: no cover
