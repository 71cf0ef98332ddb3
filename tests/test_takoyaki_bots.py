"""Takoyaki's paced bots: their pace, their cooking, their mistakes, and how they fare in the simulator."""

from __future__ import annotations

import statistics

import pytest

from kiosk.engine import RuleError
from kiosk.games.takoyaki import SPEC, Fault, Push, Turn
from kiosk.games.takoyaki.bots import JITTER, PacedBot, race
from kiosk.games.takoyaki.rules import ORDERS_TO_WIN, new_game
from kiosk.games.takoyaki.solver import distance
from kiosk.sim import play_game, simulate


def play_alone(level: str, seed: int):
    """A time trial played by one bot; returns the state and, per card, (par, moves, wrong claims)."""
    state = new_game(1, seed)
    bot = SPEC.bots[level](0, seed)
    cards = []
    while not state.is_over():
        par, moves, wrong = state.par(0), 0, 0
        card = state.current
        while state.current == card and not state.is_over():
            action = bot.choose(state)
            assert action in state.legal_actions(0)
            assert not isinstance(action, Fault), "bots never fault"
            moves += isinstance(action, (Push, Turn))
            events = state.apply(0, action)
            wrong += any(e.kind == "wrong_claim" for e in events)
        cards.append((par, moves, wrong))
    return state, cards


def test_each_level_exposes_its_pace():
    paces = {level: SPEC.bots[level](0, 1).moves_per_second for level in ("easy", "normal", "hard")}
    assert paces == {"easy": 0.7, "normal": 1.2, "hard": 2.0}
    bot = PacedBot(0, 3, "normal")
    delays = [bot.next_delay() for _ in range(200)]
    assert all((1 - JITTER) / 1.2 <= d <= (1 + JITTER) / 1.2 for d in delays)
    assert abs(statistics.fmean(delays) - 1 / 1.2) < 0.05
    with pytest.raises(ValueError):
        PacedBot(0, 1, "expert")


def test_hard_cooks_every_card_in_exactly_par_moves_and_never_claims_wrong():
    for seed in range(3):
        state, cards = play_alone("hard", seed)
        assert state.scores() == [ORDERS_TO_WIN] and len(cards) == ORDERS_TO_WIN
        assert all(moves == par and wrong == 0 for par, moves, wrong in cards)


def test_normal_cooks_on_the_optimal_path_with_a_few_wrong_moves_and_no_early_claims():
    extra = 0
    for seed in range(4):
        state, cards = play_alone("normal", seed)
        assert state.scores() == [ORDERS_TO_WIN] and state.set_aside == []
        assert all(moves >= par and wrong == 0 for par, moves, wrong in cards)
        extra += sum(moves - par for par, moves, _ in cards)
    assert extra > 0, "normal sometimes slips"


def test_easy_makes_wrong_moves_and_premature_claims():
    slow_cards = premature = cards_seen = 0
    for seed in range(6):
        state, cards = play_alone("easy", seed)
        cards_seen += len(cards)
        slow_cards += sum(moves > par for par, moves, _ in cards)
        premature += sum(wrong for _, _, wrong in cards)
        assert len(state.set_aside) == sum(wrong for _, _, wrong in cards), "alone, a wrong claim loses the card"
    assert slow_cards >= cards_seen // 3
    assert 0 < premature < cards_seen // 2


def test_a_bot_whose_seat_is_out_is_not_asked_and_says_so():
    state = new_game(2, 1)
    state.apply(0, Fault("hand_on_grill"))
    with pytest.raises(RuleError):
        PacedBot(0, 1, "hard").choose(state)


def test_a_hard_bot_replans_when_its_grill_leaves_the_plan():
    state = new_game(1, 4)
    bot = PacedBot(0, 4, "hard")
    state.apply(0, bot.choose(state))
    state.apply(0, Turn(4))  # off the plan (say the screen let a human touch this seat's grill)
    left = distance(state.grill(0), state.current_order)
    made = 0
    while state.dealt == 1:
        action = bot.choose(state)
        state.apply(0, action)
        made += isinstance(action, (Push, Turn))
    assert made == left and state.scores() == [1]


def test_hard_beats_random_in_at_least_95_percent_of_two_player_games():
    for levels in (["hard", "random"], ["random", "hard"]):
        rep = simulate(SPEC, 2, levels, games=100, seed=100)
        hard = levels.index("hard")
        assert rep["illegal_actions"] == 0
        assert rep["win_share"][hard] >= 0.95


@pytest.mark.parametrize("levels", [["easy", "normal"], ["hard", "normal", "easy", "random"], ["random"] * 4])
def test_every_mix_plays_to_a_legal_end_in_the_simulator(levels):
    for seed in range(3):
        result = play_game(SPEC, len(levels), levels, seed)
        assert result.illegal == [] and result.winners


def test_in_real_time_the_faster_level_wins_and_time_trials_take_longer_at_lower_levels():
    times = {lv: statistics.median(race([lv], s).seconds for s in range(5)) for lv in ("easy", "normal", "hard")}
    assert times["hard"] < times["normal"] < times["easy"]
    # the hard bot's trial time is its moves over its pace: about par / 2 per card
    r = race(["hard"], 0)
    assert r.scores == (5,) and len(r.won_at) == 5 and r.won_at[-1][1] == r.seconds
    wins = sum(0 in race(["hard", "easy"], s).winners for s in range(10))
    assert wins == 10
