"""The points where the engines once deviated from the printed rulebooks, each replayed as it was found.

Starting player (Maki, Wasabi!), returning your own Wasabi! card for the one on the board, choosing between two
recipes of one length completed at once, the box lid after going out, going out automatically with the last
cards, and one canonical form per legal action.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from makoto_positions import R, position
from wasabi_positions import blank, give_hand, give_recipe, hold, put, sq, start

from kiosk.ai import pick
from kiosk.engine import RuleError, replay, starting_seat
from kiosk.games import GAMES
from kiosk.games.makoto.actions import BlindTake, Play, UseLid
from kiosk.games.makoto.rules import BLIND, PLAY, MakotoState, code
from kiosk.games.makoto.rules import ORACLE as GOLDEN
from kiosk.games.wasabi.rules import CARD_ID, ChooseRecipe, Place, SkipReward, TakeCard


def unchanged(state, seat, action, match):
    before = state.fingerprint()
    with pytest.raises(RuleError, match=match):
        state.apply(seat, action)
    assert state.fingerprint() == before


# ---------------------------------------------------------------------------------------- starting player
@pytest.mark.parametrize("key", ["maki", "wasabi"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_starting_player_is_drawn_from_the_seed_and_play_stays_clockwise(key, players):
    chairs = [1, 3, 4, 6][:players]  # joined table chairs, clockwise
    firsts = Counter()
    for seed in range(400):
        state = GAMES[key].new_game(players, seed)
        order = state.seating(chairs)
        assert order == state.seating(chairs), "the same seed seats the same way"
        k = chairs.index(order[0])
        assert order == chairs[k:] + chairs[:k], "seat order stays clockwise round the table"
        assert k == starting_seat(players, seed)
        firsts[order[0]] += 1
    assert set(firsts) == set(chairs), "every chair starts some games"
    for chair in chairs:
        assert abs(firsts[chair] / 400 - 1 / players) < 0.08


def test_a_replayed_game_is_seated_the_same_way():
    spec = GAMES["maki"]
    state = spec.new_game(4, 1234)
    rng = random.Random(1)
    for _ in range(30):
        seat = state.to_move()[0]
        state.apply(seat, pick(rng, state.legal_actions(seat)))
    again = replay(spec, 4, 1234, state.journal)
    assert again.seating("ABCD") == state.seating("ABCD")


@pytest.mark.parametrize("key", ["makoto", "takoyaki"])
def test_games_without_a_random_start_keep_the_chairs_in_order(key):
    spec = GAMES[key]
    for seed in range(20):
        assert (
            spec.new_game(spec.min_players, seed).seating([2, 5, 7][: spec.min_players])
            == [2, 5, 7][: spec.min_players]
        )


# ---------------------------------------------------------------------------- Wasabi!: your own Wasabi! card
def _wasabi_on_board_and_in_hand():
    s = blank()
    cols = s.geo.cols
    block = (0, 1, cols, cols + 1)
    for q in block:
        s.tops[q] = -2
    s.covers.append(0)
    s.kitchen[CARD_ID["Wasabi"]] -= 1
    hold(s, 0, "Wasabi", "Chop")
    put(s, "F4", "Tuna")
    give_recipe(s, 0, "Tekkamaki")
    give_hand(s, 0, "Maki", "Crab", "Squid")
    start(s)
    s.apply(0, Place("Maki", sq(s, "F5")))  # Tuna, Maki: Tekkamaki
    if s.phase == "play":
        s.apply(0, s.legal_actions(0)[0])  # EndStep
    assert s.phase == "reward"
    return s, block


def test_returning_your_own_wasabi_card_to_take_the_one_on_the_board():
    s, block = _wasabi_on_board_and_in_hand()
    take = TakeCard("Wasabi", 0, "Wasabi")
    assert take in s.legal_actions(0)
    kitchen = s.kitchen[CARD_ID["Wasabi"]]
    s.apply(0, take)
    assert s.covers == [] and all(s.tops[q] == -1 for q in block), "the covered squares open"
    assert sorted(s.cards[0]) == sorted([CARD_ID["Wasabi"], CARD_ID["Chop"]]), "the other card is kept"
    assert s.kitchen[CARD_ID["Wasabi"]] == kitchen + 1, "your own card went back to the Kitchen"


def test_returning_the_card_you_take_from_the_kitchen_is_still_refused():
    s, _ = _wasabi_on_board_and_in_hand()
    s.kitchen[CARD_ID["Chop"]] = 1
    assert TakeCard("Chop", -1, "Chop") not in s.legal_actions(0)
    unchanged(s, 0, TakeCard("Chop", -1, "Chop"), "changes nothing")


# ------------------------------------------------------------------- Wasabi!: two recipes of the same length
def _two_three_recipes_at_once():
    """A Maki at C3 completes Pickle Barrel along row C (Rice, Pickle, Maki: in the strip's order, a style cube)
    and Crunchy Tuna down column 3 (Tuna, Tempura, Maki: out of order), with one free 3-ingredient token."""
    s = blank()
    put(s, "C1", "Rice")
    put(s, "C2", "Pickle")
    put(s, "A3", "Tuna")
    put(s, "B3", "Tempura")
    plain = give_recipe(s, 0, "Crunchy Tuna")
    styled = give_recipe(s, 0, "Pickle Barrel")
    s.free[0][3] = 1
    give_hand(s, 0, "Maki", "Crab", "Squid")
    start(s)
    return s, styled, plain


def test_two_same_length_recipes_with_one_free_token_are_the_players_choice():
    s, styled, plain = _two_three_recipes_at_once()
    s.apply(0, Place("Maki", sq(s, "C3")))
    assert s.phase == "choose" and s.to_move() == [0]
    assert s.legal_actions(0) == sorted([ChooseRecipe(styled), ChooseRecipe(plain)], key=lambda a: a.recipe)
    unchanged(s, 0, SkipReward(), "Choose which recipe")
    unchanged(s, 0, ChooseRecipe(9999), "just completed")
    twin = s.clone()
    s.apply(0, ChooseRecipe(plain))
    assert [r for r, _ in s.done[0]] == [plain] and styled in s.screens[0] and s.free[0][3] == 0
    twin.apply(0, ChooseRecipe(styled))
    assert [r for r, _ in twin.done[0]] == [styled] and plain in twin.screens[0]
    assert twin.cubes[0] == 1 and s.cubes[0] == 0
    assert twin.phase == s.phase == "reward"


def test_the_normal_bot_chooses_the_recipe_with_style():
    s, styled, plain = _two_three_recipes_at_once()
    s.apply(0, Place("Maki", sq(s, "C3")))
    bot = GAMES["wasabi"].bots["normal"](0, 1)
    choice = bot.choose(s)
    style = dict(s.choosing)
    assert isinstance(choice, ChooseRecipe)
    assert style[choice.recipe] and choice.recipe == styled


def test_the_choice_is_hidden_from_the_other_seat_and_survives_determinize():
    s, styled, plain = _two_three_recipes_at_once()
    s.apply(0, Place("Maki", sq(s, "C3")))
    assert s.view(1)["turn"]["choosing"] == 3
    assert {c["id"] for c in s.view(0)["turn"]["choosing"]} == {styled, plain}
    for i in range(5):
        d = s.determinize(1, random.Random(i))
        legal = d.legal_actions(0)
        assert legal and all(isinstance(a, ChooseRecipe) and a.recipe in d.screens[0] for a in legal)
        d.apply(0, legal[0])


# -------------------------------------------------------------------------------------- Makoto: the box lid
def test_the_lid_cannot_be_used_after_going_out():
    s = position(3, {0: R(9), 1: R(3, 4), 2: R(6, 7)}, blind=R(2, 11))
    s.lid_holder = 0
    s.apply(0, Play((code(9),)))
    assert 0 in s.out and not s.hands[0]
    assert not any(isinstance(a, UseLid) for a in s.legal_actions(0))
    unchanged(s, 0, UseLid(code(2)), "gone out")


# -------------------------------------------------------------------- Makoto: the last cards go out at once
def test_playing_the_last_cards_goes_out_without_a_blind_step():
    s = position(3, {0: R(9, 9), 1: R(3, 4), 2: R(6, 7)}, blind=R(2, 2, 5))
    events = s.apply(0, Play((code(9), code(9))))
    assert [e.kind for e in events][:2] == ["played", "went_out"]
    assert s.out == [0] and s.hands[0] == [] and s.reward[0] == 50
    assert s.phase == PLAY and s.turn == 1
    unchanged(s, 0, BlindTake((code(2), code(2))), "not your turn")


def test_discarding_the_last_card_into_the_blind_goes_out_as_in_the_rulebook():
    """Patrick plays 12 - 12 and discards an 11, which was his last card: he has gone out."""
    s = position(3, {0: R(12, 12, 11), 1: R(3, 4), 2: R(6, 7)}, blind=R(1))
    s.apply(0, Play((code(12), code(12))))
    assert s.phase == BLIND
    s.apply(0, s.legal_actions(0)[1])  # BlindDiscard(11)
    assert s.out == [0] and code(11) in s.blind


# --------------------------------------------------------------------------------------- canonical actions
def test_a_makoto_run_with_a_golden_card_has_one_canonical_form():
    golden7 = code(7, GOLDEN)
    s: MakotoState = position(2, {0: [golden7] + R(8, 9, 13), 1: R(3, 4)})
    listed = [a for a in s.legal_actions(0) if isinstance(a, Play) and len(a.cards) == 3]
    assert Play((code(8), code(9), golden7)) in listed
    for order in itertools.permutations((golden7, code(8), code(9))):
        assert s.canonical(Play(order)) in s.legal_actions(0)
    s.apply(0, Play((golden7, code(9), code(8))))
    assert s.current_cards == (code(8), code(9), golden7)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_legal_action_is_its_own_canonical_form_and_journals_canonically(key):
    spec = GAMES[key]
    for players in sorted({spec.min_players, spec.max_players}):
        state = spec.new_game(players, 5)
        rng = random.Random(5)
        for _ in range(120):
            if state.is_over():
                break
            seat = pick(rng, state.to_move())
            legal = state.legal_actions(seat)
            assert all(state.canonical(a) == a for a in legal)
            state.apply(seat, pick(rng, legal))
        for r in state.journal:
            if "action" in r:
                a = spec.action_from_json(r["action"])
                assert state.canonical(a) == a
