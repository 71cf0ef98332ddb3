"""The optimal solver against a table of known distances and against plain breadth-first search."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from kiosk.games.takoyaki.deck import BANDS, CARDS_PER_BAND, band_of, catalogue, design_catalogue, random_order
from kiosk.games.takoyaki.grill import (
    START,
    format_order,
    goal_grill,
    matches,
    parse_grill,
    parse_order,
)
from kiosk.games.takoyaki.solver import (
    apply_moves,
    difficulty,
    distance,
    exhaustive_distance,
    lower_bound,
    neighbours_of,
    solve,
)

#: (grill, order, fewest moves). The first block is worked out by hand; the second was found by searching for
#: cases where balls block each other (the heuristic is short by 2-4 moves) and checked by exhaustive search
#: (test_known_blocking_distances_agree_with_exhaustive_search re-checks them).
BY_HAND = [
    ("rr../gg../bb..", "RR../GG../BB..", 0),
    ("rr../gg../bb..", "RR../GG../B..B", 3),  # push the blue ball two spaces right, turn it fried
    ("rr../gg../bb..", "RR../GG../B.B.", 2),  # one push onto the heated half, one turn
    ("Rr../gg../bb..", "RR../GG../BB..", 1),  # a fried ball in the unheated area: turn it back
    ("rr../gg../bb..", "GG../RR../BB..", 8),  # swap two rows (see test_swapping_two_rows_by_hand)
    ("rr../gg../bb..", "..RR/..GG/..BB", 18),  # each row: 4 pushes and 2 turns
    ("..RR/..GG/..BB", "..RR/..GG/..BB", 0),
    ("..rr/..gg/..bb", "..RR/..GG/..BB", 6),  # six turns
]
BLOCKING = [
    ("Bg.R/.R../.BG.", ".GBR/..R./..BG", 7),
    (".R../G.rb/.bG.", ".R.G/..RB/.BG.", 9),
    ("r..G/..BR/.bG.", "R.RG/...B/.BG.", 5),
    ("RbR./..Gb/.g..", "BR../..GR/.G.B", 9),
    (".g.B/rbG./..R.", "..BB/R.G./G.R.", 8),
    ("B..G/.bR./.R.G", "..RG/.BB./.RG.", 8),
    ("b.R./gr.B/...G", "..RG/GB../R..B", 9),
    ("g.../..BB/RrG.", "G.../..GB/.RBR", 9),
]


@pytest.mark.parametrize("grill,order,moves", BY_HAND + BLOCKING)
def test_known_distances(grill, order, moves):
    g, o = parse_grill(grill), parse_order(order)
    sol = solve(g, o)
    assert sol.length == distance(g, o) == moves
    assert matches(apply_moves(g, sol.moves), o)


def test_swapping_two_rows_by_hand():
    """rr/gg -> gg/rr: the two greens go up through the empty columns (each 1 up), the reds down... the
    cheapest is 8: every ball needs one vertical step (4) and two balls must step aside and back (4)."""
    g, o = parse_grill("rr../gg../bb.."), parse_order("GG../RR../BB..")
    assert lower_bound(g, o) == 4
    assert exhaustive_distance(g, o) == 8 == distance(g, o)


@pytest.mark.parametrize("grill,order,moves", BLOCKING)
def test_known_blocking_distances_agree_with_exhaustive_search(grill, order, moves):
    g, o = parse_grill(grill), parse_order(order)
    assert lower_bound(g, o) < moves
    assert exhaustive_distance(g, o) == moves


def test_solver_equals_breadth_first_search_on_every_grill_near_a_crowded_order():
    """Breadth-first search out from the goal grill (moves are reversible, so this is the true distance of
    every grill it reaches); the solver must agree on each, including every case where the heuristic is short."""
    order = parse_order("RGB./B.RG/....")
    goal = goal_grill(order)
    dist = {goal: 0}
    frontier = [goal]
    for d in range(1, 6):
        nxt = []
        for g in frontier:
            for n in neighbours_of(g):
                if n not in dist:
                    dist[n] = d
                    nxt.append(n)
        frontier = nxt
    rng = random.Random(1)
    gaps = [g for g in dist if lower_bound(g, order) < dist[g]]
    sample = gaps + rng.sample(sorted(dist), 300)
    assert len(gaps) > 20, "the sample must include blocked cases"
    for g in sample:
        assert distance(g, order) == dist[g]


def test_solver_equals_breadth_first_search_on_random_small_cases():
    rng = random.Random(2)
    for _ in range(15):
        order = random_order(rng)
        g = goal_grill(order)
        for _ in range(rng.randrange(1, 6)):
            nbrs = list(neighbours_of(g))
            g = nbrs[rng.randrange(len(nbrs))]
        assert distance(g, order) == exhaustive_distance(g, order)


def test_lower_bound_is_admissible_and_has_the_same_parity():
    rng = random.Random(3)
    for _ in range(200):
        cells = [0] * 12
        for i, s in enumerate(rng.sample(range(12), 6)):
            cells[s] = i // 2 + 1 + 3 * rng.randrange(2)
        g, o = tuple(cells), random_order(rng)
        lb, d = lower_bound(g, o), distance(g, o)
        assert lb <= d and (d - lb) % 2 == 0


def test_solutions_push_first_then_turn_each_ball_at_most_once():
    sol = solve(START, parse_order("..RR/..GG/..BB"))
    kinds = [type(m).__name__ for m in sol.moves]
    assert kinds == ["Push"] * 12 + ["Turn"] * 6
    assert len({m.space for m in sol.moves[12:]}) == 6


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        solve(START, (1,) * 12)
    with pytest.raises(ValueError):
        solve((1, 1, 1, 0, 2, 2, 0, 0, 3, 3, 0, 0), parse_order("RR../GG../BB.."))
    with pytest.raises(ValueError):
        apply_moves(START, [solve(START, parse_order("..RR/GG../BB..")).moves[-1]])


def test_repeated_questions_are_cached():
    o = parse_order("R..R/.GG./B..B")
    assert solve(START, o) is solve(list(START), list(o))


# ------------------------------------------------------------------------------------------- the deck
def test_every_catalogue_card_is_a_valid_reachable_order_with_its_true_difficulty():
    cards = catalogue()
    assert len(cards) == len(BANDS) * CARDS_PER_BAND == 36
    assert len({c.card for c in cards}) == len(cards)
    for c in cards:
        order = parse_order(c.card)
        assert format_order(order) == c.card
        assert difficulty(order) == c.difficulty >= BANDS["easy"][0]
    assert Counter(c.band for c in cards) == dict.fromkeys(BANDS, CARDS_PER_BAND)


def test_the_design_tool_fills_each_band_with_distinct_cards():
    cards = design_catalogue(seed=5, per_band=3)
    assert [band_of(c.difficulty) for c in cards] == ["easy"] * 3 + ["medium"] * 3 + ["hard"] * 3
    assert len({c.card for c in cards}) == 9
    assert all(difficulty(parse_order(c.card)) == c.difficulty for c in cards)
