"""Hypothesis invariants of Takoyaki: balls are never made or lost, claims are judged exactly, solver paths work."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.games.takoyaki import Claim, Fault, Push, Turn
from kiosk.games.takoyaki.grill import SPACES, colour_of, is_fried, matches
from kiosk.games.takoyaki.rules import TakoyakiState, new_game
from kiosk.games.takoyaki.solver import apply_moves, exhaustive_distance, lower_bound, neighbours_of, solve

FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

grills = st.permutations(range(SPACES)).flatmap(
    lambda spaces: st.lists(st.booleans(), min_size=6, max_size=6).map(lambda sides: tuple(_place(spaces, sides)))
)
orders = st.permutations(range(SPACES)).map(lambda spaces: tuple(_place(spaces, [False] * 6)))


def _place(spaces, sides):
    cells = [0] * SPACES
    for i in range(6):
        cells[spaces[i]] = i // 2 + 1 + 3 * int(sides[i])
    return cells


def colour_counts(grill):
    return Counter(colour_of(v) for v in grill if v)


@FAST
@given(seed=st.integers(0, 10_000), players=st.integers(1, 4), picks=st.lists(st.integers(0, 10_000), max_size=80))
def test_pushes_and_turns_never_make_or_lose_a_ball_or_change_colours(seed, players, picks):
    state = new_game(players, seed)
    for k in picks:
        if state.is_over():
            break
        movers = state.to_move()
        seat = movers[k % len(movers)]
        moves = [a for a in state.legal_actions(seat) if isinstance(a, (Push, Turn))]
        action = moves[k % len(moves)]
        before = list(state.grills)
        state.apply(seat, action)
        after = state.grill(seat)
        assert colour_counts(after) == {1: 2, 2: 2, 3: 2}
        assert sum(1 for v in after if v) == 6
        assert [g for s, g in enumerate(state.grills) if s != seat] == [g for s, g in enumerate(before) if s != seat]
        old = before[seat]
        if isinstance(action, Push):
            assert after[action.dst] == old[action.src] and after[action.src] == 0
            assert is_fried(after[action.dst]) == is_fried(old[action.src]), "a push keeps the side"
        else:
            assert colour_of(after[action.space]) == colour_of(old[action.space])
            assert is_fried(after[action.space]) != is_fried(old[action.space])
        assert sum(a != b for a, b in zip(after, old)) == (2 if isinstance(action, Push) else 1)


@FAST
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(1, 4),
    seat_pick=st.integers(0, 3),
    warmup=st.lists(st.integers(0, 10_000), max_size=30),
    leave=st.integers(0, 3),
)
def test_a_claim_is_correct_exactly_when_the_grill_matches_the_order_as_the_seat_sees_it(
    seed, players, seat_pick, warmup, leave
):
    state = new_game(players, seed)
    for k in warmup:  # scramble some grills and maybe move on a few cards
        movers = state.to_move()
        seat = movers[k % len(movers)]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[k % (len(legal) - 3)])  # anything but a fault: pushes, turns, claims
        if state.is_over():
            return
    seat = state.to_move()[seat_pick % len(state.to_move())]
    moves = solve(state.grill(seat), state.current_order).moves
    for m in moves[: max(0, len(moves) - leave)]:
        state.apply(seat, m)
    expected = matches(state.grill(seat), state.current_order)
    assert expected == (leave == 0 or not moves)
    card, won_before = state.current, len(state.won[seat])
    events = state.apply(seat, Claim())
    if expected:
        assert events[0].kind == "order_won" and state.won[seat][-1] == card
        assert len(state.won[seat]) == won_before + 1
    else:
        assert events[0].kind == "wrong_claim" and len(state.won[seat]) == won_before
        assert state.out[seat] == "wrong_claim" or card in state.set_aside


@FAST
@given(grill=grills, order=orders)
def test_the_solver_path_reaches_the_order_in_the_stated_number_of_moves(grill, order):
    sol = solve(grill, order)
    assert matches(apply_moves(grill, sol.moves), order)  # apply_moves checks every push and turn is legal
    assert sol.length == len(sol.moves) >= lower_bound(grill, order)
    # the same path through the engine itself, on a real game whose seat 0 grill is this one
    state = TakoyakiState(1, 0)
    state.grills[0] = grill  # no public way to deal an arbitrary grill; the engine checks every move
    for m in sol.moves:
        state.apply(0, m)
    assert state.grill(0) == apply_moves(grill, sol.moves)
    assert state.moves() == [sol.length]


@settings(max_examples=25, deadline=None)
@given(order=orders, walk=st.lists(st.integers(0, 10_000), min_size=1, max_size=5))
def test_the_solver_is_exactly_as_short_as_exhaustive_search_near_the_goal(order, walk):
    grill = tuple(0 if c == 0 else c + 3 * (s % 4 >= 2) for s, c in enumerate(order))
    for k in walk:
        nbrs = list(neighbours_of(grill))
        grill = nbrs[k % len(nbrs)]
    assert solve(grill, order).length == exhaustive_distance(grill, order)


@FAST
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    kind=st.sampled_from(["ball_fell_off", "hand_on_grill", "ball_picked_up"]),
)
def test_a_fault_never_changes_a_grill_or_a_score(seed, players, kind):
    state = new_game(players, seed)
    grills, scores = list(state.grills), state.scores()
    state.apply(players - 1, Fault(kind))
    assert state.grills == grills and state.scores() == scores
    assert state.to_move() == list(range(players - 1))
