"""Takoyaki rules: every rulebook example and SUPPLEMENT decision, played through the engine's real verbs."""

from __future__ import annotations

import json
import random

import pytest

from kiosk.engine import RuleError, replay
from kiosk.games import GAMES
from kiosk.games.takoyaki import SPEC, Claim, Fault, Push, Turn
from kiosk.games.takoyaki.actions import FAULT_KINDS
from kiosk.games.takoyaki.deck import catalogue
from kiosk.games.takoyaki.grill import (
    HEATED,
    START,
    colour_of,
    format_grill,
    is_fried,
    matches,
    parse_grill,
    parse_order,
)
from kiosk.games.takoyaki.rules import DECK, ORDERS_TO_WIN, TakoyakiState, new_game
from kiosk.games.takoyaki.solver import solve


def cook(state: TakoyakiState, seat: int, leave: int = 0) -> int:
    """Play ``seat``'s optimal path to the current card through ``apply``, stopping ``leave`` moves short."""
    moves = solve(state.grill(seat), state.current_order).moves
    for m in moves[: len(moves) - leave]:
        state.apply(seat, m)
    return len(moves)


def win_card(state: TakoyakiState, seat: int) -> str:
    card = state.current
    cook(state, seat)
    kinds = [e.kind for e in state.apply(seat, Claim())]
    assert kinds[0] == "order_won"
    return card


def everyone_faults(state: TakoyakiState) -> None:
    for seat in list(state.to_move()):
        state.apply(seat, Fault("hand_on_grill"))


# ------------------------------------------------------------------------------------------------ setup
def test_registered_with_the_spec_the_issue_asks_for():
    assert GAMES["takoyaki"] is SPEC
    assert (SPEC.min_players, SPEC.max_players) == (1, 4)
    assert SPEC.lower_is_better is False  # scores are orders won; the time trial's clock is the screen's
    with pytest.raises(ValueError):
        new_game(5, 1)
    with pytest.raises(ValueError):
        new_game(0, 1)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup_every_seat_has_two_of_each_colour_raw_in_the_unheated_half(players):
    state = new_game(players, seed=1)
    for seat in range(players):
        grill = state.grill(seat)
        assert grill == START
        balls = [v for v in grill if v]
        assert sorted(colour_of(v) for v in balls) == [1, 1, 2, 2, 3, 3]
        assert not any(is_fried(v) for v in balls)
        assert all(not HEATED[s] for s, v in enumerate(grill) if v)
    view = state.view(0)
    assert view["grills"] == ["rr../gg../bb.."] * players
    assert view["order"]["number"] == 1 and view["deck_left"] == len(catalogue()) - 1
    assert view["time_trial"] is (players == 1)


def test_the_deck_is_the_shuffled_catalogue_and_the_deal_is_journalled():
    state = new_game(2, seed=5)
    record = state.journal[0]
    assert record["chance"] == "orders"
    assert sorted(record["order"]) == sorted(c.card for c in catalogue())
    assert state.current == record["order"][0]
    other = new_game(2, seed=6)
    assert other.journal[0]["order"] != record["order"]


# ------------------------------------------------------------------------------------------ sequence of play
def test_everyone_races_at_once():
    state = new_game(3, seed=2)
    assert state.to_move() == [0, 1, 2]
    state.apply(2, Push(1, 2))
    state.apply(0, Turn(0))
    state.apply(2, Push(2, 3))
    assert state.grill_text(0) == "Rr../gg../bb.."
    assert state.grill_text(1) == "rr../gg../bb.."
    assert state.grill_text(2) == "r..r/gg../bb.."
    assert state.moves() == [1, 0, 2]


def test_a_correct_claim_takes_the_card_and_the_next_card_is_revealed_for_everyone():
    state = new_game(3, seed=3)
    state.apply(1, Claim())  # seat 1 claims too early: out
    first = state.current
    events = None
    cook(state, 0)
    events = state.apply(0, Claim())
    assert [e.kind for e in events] == ["order_won", "order_revealed"]
    assert state.won[0] == [first] and state.scores() == [1, 0, 0]
    assert state.current != first and state.dealt == 2
    assert state.to_move() == [0, 1, 2], "all players now compete for the next order (seat 1 is back)"


def test_a_wrong_claim_drops_that_seat_until_the_next_card_and_the_others_go_on():
    state = new_game(2, seed=4)
    cook(state, 0, leave=1)
    before = state.grill(0)
    events = state.apply(0, Claim())
    assert [e.kind for e in events] == ["wrong_claim", "out"]
    assert state.to_move() == [1]
    assert state.grill(0) == before and state.scores() == [0, 0]
    for action in (Push(0, 1), Turn(0), Claim(), Fault("ball_fell_off")):
        fp = state.fingerprint()
        with pytest.raises(RuleError, match="out of this order"):
            state.apply(0, action)
        assert state.fingerprint() == fp
    assert state.legal_actions(0) == []
    win_card(state, 1)
    assert state.to_move() == [0, 1]


@pytest.mark.parametrize("kind", FAULT_KINDS)
def test_each_fault_drops_the_seat_out_of_the_current_order_and_leaves_the_grill(kind):
    state = new_game(2, seed=7)
    state.apply(0, Push(1, 2))
    grill = state.grill(0)
    events = state.apply(0, Fault(kind))
    assert events[0].kind == "fault" and events[0].data["kind"] == kind and events[0].data["text"]
    assert state.out == [kind, None] and state.to_move() == [1]
    assert state.grill(0) == grill


def test_when_every_seat_is_out_the_card_is_set_aside_and_the_next_revealed():
    state = new_game(2, seed=8)
    first = state.current
    state.apply(0, Fault("ball_picked_up"))
    events = state.apply(1, Claim())
    assert [e.kind for e in events] == ["wrong_claim", "out", "order_set_aside", "order_revealed"]
    assert state.set_aside == [first] and state.scores() == [0, 0]
    assert state.to_move() == [0, 1] and state.current != first


def test_grills_are_not_reset_between_orders():
    state = new_game(2, seed=9)
    state.apply(1, Push(5, 6))
    win_card(state, 0)
    won = parse_order(state.won[0][0])
    assert matches(state.grill(0), won), "the winner's grill stays as it was at the claim"
    assert state.grill_text(1) == "rr../g.g./bb..", "the others' grills stay too"
    assert state.reveal_grills == [state.grill(0), state.grill(1)]


def test_the_player_who_gains_a_fifth_order_ends_the_game():
    state = new_game(3, seed=10)
    for _ in range(ORDERS_TO_WIN - 1):
        win_card(state, 2)
        win_card(state, 0)
    assert state.scores() == [4, 0, 4] and not state.is_over()
    cook(state, 0)
    events = state.apply(0, Claim())
    assert [e.kind for e in events] == ["order_won", "game_over"]
    assert events[-1].data == {"reason": "five_orders", "scores": [5, 0, 4], "winners": [0]}
    assert state.is_over() and state.to_move() == [] and state.winners() == [0]
    assert state.outcome().reason == "five_orders"
    with pytest.raises(RuleError, match="over"):
        state.apply(1, Turn(0))


def test_the_time_trial_ends_after_five_orders():
    state = new_game(1, seed=11)
    total = 0
    for _n in range(ORDERS_TO_WIN):
        total += state.par(0)
        win_card(state, 0)
    assert state.is_over() and state.end_reason == "five_orders"
    assert state.scores() == [5] and state.winners() == [0]
    assert state.moves() == [total], "an optimal cook makes exactly par moves per card"


def test_a_time_trial_fault_sets_the_card_aside():
    state = new_game(1, seed=12)
    first = state.current
    state.apply(0, Fault("hand_on_grill"))
    assert state.set_aside == [first] and state.to_move() == [0] and state.dealt == 2


def test_when_the_deck_runs_out_most_orders_wins_and_ties_share():
    state = new_game(2, seed=13)
    win_card(state, 0)
    win_card(state, 1)
    win_card(state, 1)
    while not state.is_over():
        everyone_faults(state)
    assert state.end_reason == "deck_ran_out" and state.dealt == len(catalogue())
    assert state.scores() == [1, 2] and state.winners() == [1]
    assert len(state.set_aside) == len(catalogue()) - 3

    tie = new_game(3, seed=14)
    win_card(tie, 0)
    win_card(tie, 2)
    while not tie.is_over():
        everyone_faults(tie)
    assert tie.winners() == [0, 2]
    nobody = new_game(2, seed=15)
    while not nobody.is_over():
        everyone_faults(nobody)
    assert nobody.winners() == [0, 1], "with no card won everybody shares"


# ---------------------------------------------------------------------------------------- cooking rules
@pytest.mark.parametrize(
    "action,message",
    [
        (Push(0, 2), "one space"),  # two spaces along the row: a pick-up, not a push
        (Push(0, 5), "one space"),  # diagonal
        (Push(0, 1), "taken"),  # onto a ball
        (Push(2, 3), "no ball"),  # nothing to push
        (Push(3, 12), "grill space"),  # off the grill: the screen reports that as a Fault
        (Push(-1, 0), "grill space"),
        (Push(True, 2), "grill space"),  # a bool is not a space
        (Turn(2), "no ball"),
        (Turn(12), "grill space"),
        (Fault("sneeze"), "Unknown fault"),
    ],
)
def test_illegal_moves_raise_a_readable_rule_error_and_change_nothing(action, message):
    state = new_game(2, seed=16)
    before = state.fingerprint()
    with pytest.raises(RuleError, match=message):
        state.apply(0, action)
    assert state.fingerprint() == before


def test_a_push_keeps_the_ball_side_and_a_turn_flips_it_in_place():
    state = new_game(1, seed=17)
    state.apply(0, Turn(1))
    state.apply(0, Push(1, 2))
    state.apply(0, Push(2, 3))
    assert state.grill_text(0) == "r..R/gg../bb.."
    state.apply(0, Turn(3))
    assert state.grill_text(0) == "r..r/gg../bb.."


def test_legal_actions_are_pushes_turns_claim_and_faults_in_canonical_order():
    state = new_game(2, seed=18)
    legal = state.legal_actions(0)
    assert legal[:6] == [Push(1, 2), Push(5, 6), Push(9, 10), Turn(0), Turn(1), Turn(4)]
    assert legal[-4:] == [Claim(), Fault("ball_fell_off"), Fault("hand_on_grill"), Fault("ball_picked_up")]
    assert len(legal) == 3 + 6 + 1 + 3


# --------------------------------------------------------------------------------------- completing orders
ORDER = parse_order("R.G./.B.R/G..B")


@pytest.mark.parametrize(
    "grill,ok",
    [
        ("r.G./.b.R/g..B", True),  # unheated raw, heated fried, right colours: completed
        ("r.g./.b.R/g..B", False),  # a raw ball in the heated area
        ("R.G./.b.R/g..B", False),  # a fried ball in the unheated area
        ("r.G./.b.R/b..G", False),  # colours swapped
        ("r.G./.bR./g..B", False),  # a ball one space off
        ("r.G./.b.R/gB..", False),
    ],
)
def test_an_order_is_complete_only_with_fried_balls_heated_and_raw_balls_unheated(grill, ok):
    assert matches(parse_grill(grill), ORDER) is ok


def test_every_seat_sees_its_order_as_it_sees_its_grill():
    """The same card, met by the same grill as each seat sees it, wins for every seat."""
    for seat in range(4):
        state = new_game(4, seed=19)
        card = state.current
        win_card(state, seat)
        assert state.won[seat] == [card]


# ------------------------------------------------------------------------------------- views and hiding
def test_the_view_is_public_json_and_shows_par_and_difficulty_but_never_the_deck():
    state = new_game(2, seed=20)
    state.apply(0, Push(1, 2))
    view = state.view(1)
    json.dumps(view)
    assert view["you"] == 1 and state.view(None)["you"] is None
    order = view["order"]
    assert order["card"] == state.current and order["par"] == [state.par(0), state.par(1)]
    assert order["par"][0] == order["difficulty"] == solve(START, state.current_order).length
    assert order["band"] in ("easy", "medium", "hard")
    text = json.dumps(view)
    assert not any(card in text for card in state.cards[state.dealt :])


def test_determinize_reshuffles_only_the_undealt_cards_and_is_a_game_that_could_have_been_dealt():
    state = new_game(3, seed=21)
    win_card(state, 1)
    everyone_faults(state)
    dealt = state.cards[: state.dealt]
    samples = [state.determinize(0, random.Random(i)) for i in range(5)]
    for det in samples:
        assert det.journal is None, "a search copy keeps no journal (the contract in kiosk.engine)"
        assert det.cards[: state.dealt] == dealt
        assert sorted(det.cards) == sorted(state.cards)
        for seat in (None, 0, 1, 2):
            assert det.view(seat) == state.view(seat)
        # the same actions over a deal in the sample's order reach the sample's position
        journal = [{"chance": DECK, "order": list(det.cards)} if r.get("chance") == DECK else r for r in state.journal]
        again = replay(SPEC, 3, 21, json.loads(json.dumps(journal)))
        assert again.cards == det.cards
        assert [again.view(s) for s in (None, 0, 1, 2)] == [det.view(s) for s in (None, 0, 1, 2)]
    assert len({tuple(d.cards) for d in samples}) > 1
    assert state.journal[0]["order"] == state.cards, "the real game's journal is untouched"


def test_clone_is_deep_enough():
    state = new_game(2, seed=22)
    copy = state.clone()
    copy.apply(0, Push(1, 2))
    win_card(copy, 1)
    assert state.grill(0) == START and state.won == [[], []] and state.dealt == 1
    assert copy.fingerprint() != state.fingerprint()


def test_actions_round_trip_through_json():
    for action in (Push(0, 1), Turn(11), Claim(), Fault("hand_on_grill")):
        assert SPEC.action_from_json(json.loads(json.dumps(action.to_json()))) == action
    assert Push(0, 1).to_json() == {"type": "Push", "src": 0, "dst": 1}
    with pytest.raises(RuleError):
        SPEC.action_from_json({"type": "Push", "src": 0})
    with pytest.raises(RuleError):
        SPEC.action_from_json({"type": "Rotate", "grill": 1})  # grills are never rotated


def test_a_whole_game_replays_from_its_journal():
    state = new_game(2, seed=23)
    win_card(state, 0)
    state.apply(1, Push(5, 6))
    state.apply(1, Fault("ball_fell_off"))
    win_card(state, 0)
    again = replay(SPEC, 2, 23, json.loads(json.dumps(state.journal)))
    assert again.fingerprint() == state.fingerprint()
    assert format_grill(again.grill(0)) == state.grill_text(0)


def test_docstring_examples_run():
    import doctest

    from kiosk.games.takoyaki import bots, grill, rules, solver

    for module in (grill, rules, solver, bots):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
