"""Makoto: every example of the rulebook, the setup table, and the rules around them."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from makoto_positions import R, position

from kiosk.ai import pick
from kiosk.engine import RuleError, replay
from kiosk.games import GAMES
from kiosk.games.makoto.actions import BlindDiscard, BlindTake, EndTurn, OracleDiscard, Pass, Play, UseLid
from kiosk.games.makoto.match import MakotoMatch, recommended_games
from kiosk.games.makoto.rules import (
    BLIND,
    ORACLE,
    ORACLE_STEP,
    PLAY,
    SWORD,
    MakotoState,
    classify,
    code,
    deck_for,
    num,
    oracle_for,
)

SPEC = GAMES["makoto"]
# The rulebook's players, seated in turn order.
SIMON, SILVIA, PATRICK, STEFAN = 0, 1, 2, 3


def S(n: int) -> int:
    """The Sword card of a number."""
    return code(n, SWORD)


def plays(state: MakotoState, seat: int) -> set[tuple[int, ...]]:
    return {a.cards for a in state.legal_actions(seat) if isinstance(a, Play)}


# ----------------------------------------------------------------------------------------------- preparation
@pytest.mark.parametrize(
    "players,deck_size,hand,blind,oracle,aside",
    [
        (2, 52, 15, 7, 13, 15),
        (3, 52, 15, 7, 13, 0),
        (4, 65, 14, 9, 13, 0),
        (5, 80, 14, 10, 16, 0),
        (6, 80, 12, 8, 16, 0),
    ],
)
def test_setup_table(players, deck_size, hand, blind, oracle, aside):
    state = SPEC.new_game(players, seed=3)
    assert len(deck_for(players)) == deck_size
    assert [len(h) for h in state.hands] == [hand] * players
    assert len(state.blind) == blind
    assert len(state.oracle) == oracle and all(c // 20 == ORACLE for c in state.oracle)
    assert len(state.set_aside) == aside
    every = [c for h in state.hands for c in h] + state.blind + state.set_aside
    assert Counter(every) == Counter(deck_for(players))


def test_deck_composition_by_player_count():
    assert max(num(c) for c in deck_for(2)) == 13 and not any(c // 20 == SWORD for c in deck_for(3))
    four = deck_for(4)
    assert sum(1 for c in four if c // 20 == SWORD) == 13 and max(num(c) for c in four) == 13
    assert sum(1 for c in deck_for(5) if c // 20 == SWORD) == 16 and max(num(c) for c in deck_for(6)) == 16
    assert [num(c) for c in oracle_for(4)] == list(range(1, 14))
    assert [num(c) for c in oracle_for(6)] == list(range(1, 17))


def test_player_left_of_dealer_begins_and_must_play():
    state = SPEC.new_game(4, seed=1)
    assert state.to_move() == [0]  # the dealer is the last seat
    assert not any(isinstance(a, Pass) for a in state.legal_actions(0))
    with pytest.raises(RuleError, match="must play"):
        state.apply(0, Pass())


# ----------------------------------------------------------------------------------------------- combinations
def test_combination_types():
    assert classify(R(2), 4) == (0, 1, 2)
    assert classify(R(3, 3, 3), 4) == (0, 3, 3)
    assert classify(R(2, 3, 4), 4) == (1, 3, 4)
    assert classify(R(2, 2, 2, 2), 2) == (2, 4, 2)  # Kensei: no sword needed at 2-3 players
    assert classify(R(2, 2, 2, 2), 4) == (0, 4, 2)  # at 4-6 players four Ronin are just a set
    assert classify(R(2, 2, 2) + [S(2)], 4) == (2, 4, 2)
    assert classify(R(2, 3), 4) is None and classify(R(2, 4, 5), 4) is None


def test_simon_leads_a_pair_and_everyone_must_play_a_higher_pair():
    state = position(4, {SIMON: R(3, 3, 9), SILVIA: R(2, 2, 4, 4, 4, 7, 8, 9)})
    state.apply(SIMON, Play(tuple(R(3, 3))))
    assert state.to_move() == [SILVIA]
    assert plays(state, SILVIA) == {tuple(R(4, 4))}
    with pytest.raises(RuleError, match="higher than a pair of 3s"):
        state.apply(SILVIA, Play(tuple(R(2, 2))))
    with pytest.raises(RuleError, match="must play a pair"):
        state.apply(SILVIA, Play(tuple(R(4, 4, 4))))
    with pytest.raises(RuleError, match="must play a pair"):
        state.apply(SILVIA, Play(tuple(R(7, 8, 9))))


def test_kensei_example_round():
    """Silvia 2-3-4-5-6, Patrick 4-5-6-7-8, Stefan Kensei 1-1-1-1 with a sword, Simon Kensei 9-9-9-9; Simon wins."""
    state = position(
        4,
        {
            SILVIA: R(2, 3, 4, 5, 6, 12),
            PATRICK: R(4, 5, 6, 7, 8, 12),
            STEFAN: R(1, 1, 1) + [S(1), 12],
            SIMON: R(9, 9, 9) + [S(9), 12],
        },
        turn=SILVIA,
    )
    state.apply(SILVIA, Play(tuple(R(2, 3, 4, 5, 6))))
    state.apply(PATRICK, Play(tuple(R(4, 5, 6, 7, 8))))
    kensei = tuple(sorted(R(1, 1, 1) + [S(1)]))
    assert kensei in plays(state, STEFAN)
    state.apply(STEFAN, Play(kensei))
    assert state.current[0] == 2  # Kensei
    assert plays(state, SIMON) == {tuple(sorted(R(9, 9, 9) + [S(9)]))}
    state.apply(SIMON, Play(tuple(sorted(R(9, 9, 9) + [S(9)]))))
    for seat in (SILVIA, PATRICK, STEFAN):
        assert plays(state, seat) == set()  # only a higher Kensei could follow
        state.apply(seat, Pass())
    assert len(state.won[SIMON]) == 5 + 5 + 4 + 4
    assert state.to_move() == [SIMON] and state.current is None


def test_example_1_pair_can_be_answered_by_higher_pair_kensei_or_pass():
    state = position(4, {SIMON: R(2, 2, 11), SILVIA: R(2, 3, 3, 4, 4) + [S(2)]})
    state.apply(SIMON, Play(tuple(R(2, 2))))
    legal = state.legal_actions(SILVIA)
    assert plays(state, SILVIA) == {tuple(R(3, 3)), tuple(R(4, 4))}
    assert Pass() in legal
    # Four 2s need the sword at 4-6 players: without it they are only a set of four, not a pair.
    no_sword = position(4, {SIMON: R(3, 3, 11), SILVIA: R(2, 2, 2, 2, 9)})
    no_sword.apply(SIMON, Play(tuple(R(3, 3))))
    assert plays(no_sword, SILVIA) == set()
    with pytest.raises(RuleError):
        no_sword.apply(SILVIA, Play(tuple(R(2, 2, 2, 2))))


def test_example_1_kensei_with_sword_beats_the_pair():
    state = position(4, {SIMON: R(2, 2, 11), SILVIA: R(2, 2, 2) + [S(2), 9]})
    state.apply(SIMON, Play(tuple(R(2, 2))))
    kensei = tuple(sorted(R(2, 2, 2) + [S(2)]))
    assert kensei in plays(state, SILVIA)
    state.apply(SILVIA, Play(kensei))
    assert state.current == (2, 4, 2)


def test_example_1_two_players_need_no_sword():
    state = position(2, {0: R(3, 3, 11), 1: R(2, 2, 2, 2, 9)})
    state.apply(0, Play(tuple(R(3, 3))))
    assert plays(state, 1) == {tuple(R(2, 2, 2, 2))}


def test_example_2_run_of_four():
    state = position(4, {PATRICK: R(2, 3, 4, 5, 12), STEFAN: R(1, 1, 1, 3, 4, 5, 6, 7) + [S(1)]}, turn=PATRICK)
    state.apply(PATRICK, Play(tuple(R(2, 3, 4, 5))))
    got = plays(state, STEFAN)
    assert tuple(R(3, 4, 5, 6)) in got and tuple(R(4, 5, 6, 7)) in got
    assert tuple(sorted(R(1, 1, 1) + [S(1)])) in got
    assert tuple(R(5, 6, 7)) not in got  # three cards do not answer four
    with pytest.raises(RuleError, match="run of 4"):
        state.apply(STEFAN, Play(tuple(R(5, 6, 7))))
    assert Pass() in state.legal_actions(STEFAN)


# ------------------------------------------------------------------------------------------------- the Blind
def test_blind_example():
    """Blind 13, 11, 2, 1, 1. Simon 3-3-3 takes the 2; Silvia 6-6-6 puts a 1 in; Patrick 13-13-13 takes three 1s."""
    state = position(
        4,
        {SIMON: R(3, 3, 3, 9), SILVIA: R(1, 6, 6, 6, 9), PATRICK: R(1, 13, 13, 13, 9), STEFAN: R(12, 12)},
        blind=R(13, 11, 2, 1, 1),
    )
    state.apply(SIMON, Play(tuple(R(3, 3, 3))))
    assert state.phase == BLIND and state.to_move() == [SIMON]
    takes = {a.cards for a in state.legal_actions(SIMON) if isinstance(a, BlindTake)}
    assert takes == {tuple(R(2)), tuple(R(1)), tuple(R(1, 1))}
    state.apply(SIMON, BlindTake(tuple(R(2))))
    assert code(2) in state.hands[SIMON] and state.blind == sorted(R(13, 11, 1, 1))
    assert state.view(SILVIA)["known_in_hand"][SIMON] == R(2)

    state.apply(SILVIA, Play(tuple(R(6, 6, 6))))
    with pytest.raises(RuleError, match="lower than 6"):
        state.apply(SILVIA, BlindDiscard(code(9)))
    state.apply(SILVIA, BlindDiscard(code(1)))
    assert state.blind == sorted(R(13, 11, 1, 1, 1))

    state.apply(PATRICK, Play(tuple(R(13, 13, 13))))
    state.apply(PATRICK, BlindTake(tuple(R(1, 1, 1))))
    assert Counter(num(c) for c in state.hands[PATRICK])[1] == 4  # four 1s: a Kensei (2-3 players) later


def test_blind_take_limits():
    state = position(4, {SIMON: R(5, 5, 9), SILVIA: R(12)}, blind=R(1, 1, 1, 2, 7))
    state.apply(SIMON, Play(tuple(R(5, 5))))
    with pytest.raises(RuleError, match="at most 2"):
        state.apply(SIMON, BlindTake(tuple(R(1, 1, 1))))
    with pytest.raises(RuleError, match="same number"):
        state.apply(SIMON, BlindTake(tuple(R(1, 2))))
    with pytest.raises(RuleError, match="lower than 5"):
        state.apply(SIMON, BlindTake(tuple(R(7))))
    before = state.fingerprint()
    with pytest.raises(RuleError):
        state.apply(SIMON, Pass())
    assert state.fingerprint() == before
    state.apply(SIMON, EndTurn())
    assert state.to_move() == [SILVIA]


def test_blind_step_skipped_when_it_offers_nothing():
    state = position(4, {SIMON: R(1, 9), SILVIA: R(12)}, blind=R(13))
    state.apply(SIMON, Play(tuple(R(1))))
    assert state.phase == PLAY and state.to_move() == [SILVIA]


def test_kensei_may_use_the_blind():
    state = position(4, {SIMON: R(7, 7, 7, 9) + [S(7)], SILVIA: R(12)}, blind=R(3, 3))
    state.apply(SIMON, Play(tuple(sorted(R(7, 7, 7) + [S(7)]))))
    assert state.phase == BLIND
    state.apply(SIMON, BlindTake(tuple(R(3, 3))))


@settings(max_examples=15, deadline=None)
@given(players=st.integers(3, 6), seed=st.integers(0, 10_000), moves=st.integers(0, 60))
def test_a_seats_view_is_the_public_view_and_its_own_hand(players: int, seed: int, moves: int) -> None:
    """``view(seat)`` (``MakotoSeatView``) holds every key of ``view(None)`` (``MakotoView``) with the same values
    but ``seat``, and the seat's own ``hand`` and ``drawn``; a seat not in the game is refused."""
    state = SPEC.new_game(players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over():
            break
        g = state.to_move()[0]
        state.apply(g, pick(rng, state.legal_actions(g)))
    public = state.view(None)
    assert public["seat"] is None and "hand" not in public and "drawn" not in public
    for g in range(players):
        mine = state.view(g)
        assert set(mine) == set(public) | {"hand", "drawn"}
        assert {k: v for k, v in mine.items() if k not in ("seat", "hand", "drawn")} == {
            k: v for k, v in public.items() if k != "seat"
        }
        assert mine["seat"] == g and sorted(mine["hand"]) == sorted(state.hands[g])
        assert mine["drawn"] is None or (state.phase == ORACLE_STEP and g == state.turn)
    for outside in (-1, players):
        with pytest.raises(ValueError, match=f"no seat {outside} in a game of {players}"):
            state.view(outside)


# --------------------------------------------------------------------------------------------------- passing
def test_pass_with_oracle_draw_then_discard_any_card():
    state = position(4, {SIMON: R(5, 9), SILVIA: R(2, 3)})
    state.oracle = [code(11, ORACLE), code(4, ORACLE)]
    state.apply(SIMON, Play(tuple(R(5))))
    state.apply(SILVIA, Pass(draw=True))
    assert state.phase == ORACLE_STEP and state.to_move() == [SILVIA]
    assert state.view(SILVIA)["drawn"] == code(4, ORACLE)
    assert state.view(SIMON)["drawn"] is None and "hand" not in state.view(None)
    assert state.view(SIMON)["golden_backs"][SILVIA] == 1
    with pytest.raises(RuleError, match="Discard one card"):
        state.apply(SILVIA, Pass())
    state.apply(SILVIA, OracleDiscard(code(2)))
    assert sorted(state.hands[SILVIA]) == sorted(R(3) + [code(4, ORACLE)])
    assert state.oracle_discard == [code(2)]
    assert state.to_move() == [PATRICK]


def test_drawn_card_may_be_discarded_and_oracle_reshuffles_when_empty():
    state = MakotoState(4, seed=2)
    state.hands = [sorted(R(5, 9)), sorted(R(2, 3)), R(12), R(12)]
    state.blind = []
    state.oracle = []
    state.oracle_discard = R(7, 8)
    state.apply(SIMON, Play(tuple(R(5))))
    state.apply(SILVIA, Pass(draw=True))
    reshuffles = [r for r in state.journal if r.get("chance") == "oracle"]
    assert len(reshuffles) == 2 and sorted(reshuffles[-1]["order"]) == R(7, 8)
    drawn = state.drawn
    assert num(drawn) in (7, 8) and len(state.oracle) == 1 and state.oracle_discard == []
    state.apply(SILVIA, OracleDiscard(drawn))
    assert state.hands[SILVIA] == R(2, 3) and state.oracle_discard == [drawn]


def test_passing_does_not_eliminate_and_round_ends_when_all_others_pass():
    state = position(3, {0: R(3, 10, 11), 1: R(13, 12), 2: R(13, 9)})
    state.apply(0, Play(tuple(R(3))))
    state.apply(1, Pass())
    state.apply(2, Play(tuple(R(9))))
    state.apply(0, Pass())
    state.apply(1, Play(tuple(R(12))))  # Seat 1 passed before and may still play
    state.apply(2, Pass())
    assert state.current is not None
    state.apply(0, Pass())
    assert state.current is None and sorted(state.won[1]) == sorted(R(3, 9, 12))
    assert state.to_move() == [1]


# -------------------------------------------------------------------------------------------------- going out
def test_going_out_takes_the_highest_reward_and_next_player_leads_if_needed():
    state = position(3, {0: R(4), 1: R(5, 6), 2: R(7, 8)})
    state.apply(0, Play(tuple(R(4))))
    assert state.out == [0] and state.reward[0] == 50
    state.apply(1, Pass())
    state.apply(2, Pass())
    # Seat 0 went out with the winning play: it still wins the round, the player to its left begins.
    assert state.won[0] == R(4) and state.to_move() == [1] and state.current is None


def test_going_out_example_with_last_players_extra_turn():
    """Silvia out first (50), Simon second (40). Stefan 5-5; Patrick 12-12 and discards his last card, an 11, into
    the Blind: out with 30. Stefan's last turn: 13-13 wins the round, no reward; he scores the two 5s."""
    state = position(4, {SIMON: [], SILVIA: [], STEFAN: R(5, 5, 13, 13, 2), PATRICK: R(11, 12, 12)}, turn=STEFAN)
    state.out = [SILVIA, SIMON]
    state.reward = [40, 50, 0, 0]
    state.apply(STEFAN, Play(tuple(R(5, 5))))
    state.apply(STEFAN, EndTurn())  # he could put his 2 in the Blind, but keeps it
    state.apply(PATRICK, Play(tuple(R(12, 12))))
    state.apply(PATRICK, BlindDiscard(code(11)))
    assert state.out == [SILVIA, SIMON, PATRICK] and state.reward[PATRICK] == 30
    assert state.final_turn and state.to_move() == [STEFAN]
    assert not any(isinstance(a, Pass) and a.draw for a in state.legal_actions(STEFAN))
    state.apply(STEFAN, Play(tuple(R(13, 13))))
    state.apply(STEFAN, EndTurn())  # a regular turn: the Blind step too
    assert state.is_over() and state.to_move() == []
    assert sorted(state.won[STEFAN]) == sorted(R(5, 5, 12, 12, 13, 13))
    assert state.reward[STEFAN] == 0
    scores = state.scores()
    assert scores[STEFAN] == 10  # the two 5-Ronin cards; the 2 left in his hand does not score
    assert scores[PATRICK] == 30 and scores[SIMON] == 40
    assert scores[SILVIA] == 50  # first out: plus the 2s, 5s and 10s left in the Blind (none here)


def test_last_player_passing_ends_the_game_and_round_goes_to_last_player():
    state = position(2, {0: R(9), 1: R(3, 5)})
    state.apply(0, Play(tuple(R(9))))
    assert state.final_turn and state.to_move() == [1]
    assert plays(state, 1) == set()
    state.apply(1, Pass())
    assert state.is_over() and state.won[0] == R(9) and state.winners() == [0]


def test_scoring_and_blind_bonus_for_first_out():
    state = position(2, {0: R(2), 1: R(10, 11)}, blind=R(2, 5, 10, 13))
    state.won = [R(5, 5), R(2, 10)]
    state.apply(0, Play(tuple(R(2))))
    state.apply(1, Play(tuple(R(10))))  # 10 beats 2, and seat 1 may use the Blind
    state.apply(1, EndTurn())
    assert state.is_over()
    # Seat 0: reward 50 + won 5,5 + Blind bonus 20+5+10 (2, 5, 10 left in the Blind) = 95.
    # Seat 1: won 2,10 + this round's 2 and 10 = 60; last out: no reward.
    assert state.scores() == [50 + 10 + 35, 60]
    assert state.winners() == [0]


def test_six_player_game_hands_out_all_five_rewards():
    state = SPEC.new_game(6, seed=4)
    rng = random.Random(4)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, pick(rng, state.legal_actions(seat)))
    assert sorted(state.reward) == [0, 10, 20, 30, 40, 50]
    assert len(state.out) in (5, 6)


# ------------------------------------------------------------------------------------------------- the lid
def test_match_lid_rule_and_recommended_length():
    assert recommended_games(2) == 4 and recommended_games(5) == 5
    match = MakotoMatch(3, seed=8)
    rng = random.Random(8)
    first = match.next_game()
    assert first.lid_holder is None and first.to_move() == [0]
    while not first.is_over():
        seat = first.to_move()[0]
        first.apply(seat, pick(rng, [a for a in first.legal_actions(seat) if not isinstance(a, UseLid)]))
    match.record(first)
    low = min(first.scores())
    assert first.scores()[match.lid_holder] == low
    second = match.next_game()
    assert second.dealer == 0 and second.to_move() == [1]
    holder = second.lid_holder
    assert holder is not None
    # The lid may be used out of turn, for any Blind card.
    if holder != second.turn:
        assert holder not in second.to_move()
    card = second.blind[-1]
    assert UseLid(card) in second.legal_actions(holder)
    size = len(second.hands[holder])
    second.apply(holder, UseLid(card))
    assert len(second.hands[holder]) == size + 1 and second.lid_holder is None
    with pytest.raises(RuleError, match="box lid"):
        second.apply(holder, UseLid(second.blind[0]))
    other = (holder + 1) % 3
    with pytest.raises(RuleError):
        second.apply(other, UseLid(second.blind[0]))


def test_match_totals_and_winner():
    match = MakotoMatch(2, seed=1)
    assert match.games == 4
    rng = random.Random(1)
    while not match.is_over():
        g = match.next_game()
        while not g.is_over():
            seat = g.to_move()[0]
            g.apply(seat, pick(rng, g.legal_actions(seat)))
        match.record(g)
    sheet = match.score_sheet()
    assert len(sheet["rows"]) == 4
    assert sheet["totals"] == [sum(r[s] for r in sheet["rows"]) for s in range(2)]
    assert match.winners() and all(sheet["totals"][w] == max(sheet["totals"]) for w in match.winners())
    with pytest.raises(ValueError):
        match.next_game()


# ----------------------------------------------------------------------------------------------- invariants
@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10**6), steps=st.integers(0, 400))
def test_cards_are_conserved_and_views_hide_other_hands(players, seed, steps):
    state = SPEC.new_game(players, seed)
    total = Counter(deck_for(players) + oracle_for(players))
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        seat = state.to_move()[0]
        state.apply(seat, pick(rng, state.legal_actions(seat)))
    everywhere = (
        [c for h in state.hands for c in h]
        + state.blind
        + state.set_aside
        + state.oracle
        + state.oracle_discard
        + state.pile
        + [c for w in state.won for c in w]
    )
    assert Counter(everywhere) == total
    spectator = state.view(None)
    assert "hand" not in spectator
    for s in range(players):
        assert "hands" not in state.view(s)
    assert sum(spectator["hand_sizes"]) == sum(len(h) for h in state.hands)


def test_replay_after_a_full_game_matches():
    state = SPEC.new_game(5, seed=12)
    rng = random.Random(12)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, pick(rng, state.legal_actions(seat)))
    again = replay(SPEC, 5, 12, state.journal)
    assert again.scores() == state.scores() and again.winners() == state.winners()


def test_hard_bots_playout_policy_only_makes_legal_moves():
    from kiosk.games.makoto.bots import lowest_play, rollout

    for players in (2, 4, 6):
        state = SPEC.new_game(players, seed=players)
        rng = random.Random(players)
        while not state.is_over():
            seat, action = rollout(state, rng)
            assert seat in state.to_move() and action in state.legal_actions(seat)
            play = lowest_play(state, seat) if state.phase == PLAY else None
            if play is not None:
                legal_plays = [a for a in state.legal_actions(seat) if isinstance(a, Play)]
                assert play in legal_plays
                if state.current is None:
                    assert num(play.cards[0]) == min(num(c) for c in state.hands[seat])
                else:
                    ranks = [
                        classify(a.cards, players)[2]
                        for a in legal_plays
                        if classify(a.cards, players)[0] == state.current[0]
                    ]
                    assert not ranks or classify(play.cards, players)[2] <= min(ranks)
            state.apply(seat, action)
