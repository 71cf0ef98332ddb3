"""Wasabi!: the rulebook's examples, the action cards, setup, the end of the game, illegal attempts, and the
engine's invariants. Positions are built on a real game (``new_game``) by moving tiles from the Pantry and
recipes from their stacks, so every count stays true."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wasabi_positions import blank, give_hand, give_recipe, hold, put, sq, start

from kiosk.ai import pick
from kiosk.engine import RuleError, replay
from kiosk.games import GAMES
from kiosk.games.wasabi.rules import (
    CARD_ID,
    CATEGORY,
    COLUMNS,
    KIND_ID,
    KINDS,
    KITCHEN,
    PANTRY,
    POINTS,
    RECIPE_BY_NAME,
    RECIPES,
    STYLE_CUBES,
    TOKENS,
    DrawRecipe,
    DrawTile,
    EndStep,
    GiveTile,
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
    new_game,
)

SPEC = GAMES["wasabi"]


# --------------------------------------------------------------------------------------------- helpers


def fill_board(s: WasabiState, keep_empty: set[int], tile: str = "Rice") -> None:
    """Fill every square but ``keep_empty`` with tiles of a kind (Pantry permitting, else any)."""
    for q in range(s.geo.size):
        if q in keep_empty or s.stacks[q]:
            continue
        k = KIND_ID[tile] if s.pantry[KIND_ID[tile]] else max(range(len(KINDS)), key=lambda i: s.pantry[i])
        s.pantry[k] -= 1
        s._set_stack(q, (k,))


def done_names(s: WasabiState, seat: int = 0) -> list[str]:
    return sorted(RECIPES[r].name for r, _ in s.done[seat])


def tiles_in_play(s: WasabiState) -> int:
    return sum(s.pantry) + sum(len(h) for h in s.hands) + sum(len(x) for x in s.stacks) + (1 if s.chopped >= 0 else 0)


def random_game(players: int, seed: int, stop_after: int | None = None) -> WasabiState:
    s = new_game(players, seed)
    rng = random.Random(seed)
    steps = 0
    while not s.is_over() and (stop_after is None or steps < stop_after):
        seat = s.to_move()[0]
        s.apply(seat, pick(rng, s.legal_actions(seat)))
        steps += 1
    return s


# ------------------------------------------------------------------------------------------- card set
def test_card_set_follows_the_supplement():
    assert sum(PANTRY) == 72
    assert len(set(CATEGORY)) == 6
    assert len(RECIPES) == 52
    assert Counter(r.length for r in RECIPES) == {2: 16, 3: 14, 4: 12, 5: 10}
    assert len({r.name for r in RECIPES}) == 52
    for name in ("Salmon", "Avocado", "Maki", "Tempura", "Tuna", "Egg", "Pickle", "Rice"):
        assert name in KIND_ID
    assert TOKENS == {2: 4, 3: 3, 4: 2, 5: 1}
    assert POINTS == {2: 2, 3: 3, 4: 5, 5: 8}
    assert STYLE_CUBES == {2: 0, 3: 1, 4: 2, 5: 3}
    assert {n: sum(KITCHEN[n]) for n in (2, 3, 4)} == {2: 5, 3: 7, 4: 10}
    assert KITCHEN[3][CARD_ID["Wasabi"]] == 2 and KITCHEN[3][CARD_ID["Spicy"]] == 2


def test_every_recipe_is_completable_from_the_pantry():
    for r in RECIPES:
        for k, n in Counter(r.seq).items():
            assert PANTRY[k] >= n, f"{r.name} needs {n} {KINDS[k]}"


@pytest.mark.parametrize("players,squares", [(2, 30), (3, 36), (4, 42)])
def test_board_size_by_player_count(players, squares):
    s = new_game(players, 1)
    assert COLUMNS[players] * 6 == squares == s.geo.size
    assert len(s.view(None)["board"]) == squares


# --------------------------------------------------------------------------------------------- setup
def test_setup_starting_hands_and_recipes():
    s = new_game(3, 5)
    assert s.phase == "give" and s.to_move() == [0]
    names = {a.tile for a in s.legal_actions(0)}
    assert {CATEGORY[KIND_ID[n]] for n in names} == {"fish", "seafood", "vegetables"}
    with pytest.raises(RuleError, match="Rice"):
        s.apply(0, GiveTile("Rice"))
    s.apply(0, GiveTile("Tuna"))
    before = s.fingerprint()
    with pytest.raises(RuleError, match="same category as Salmon"):
        s.apply(0, GiveTile("Salmon"))
    assert s.fingerprint() == before
    s.apply(0, GiveTile("Crab"))
    s.apply(0, GiveTile("Pickle"))
    assert [KINDS[k] for k in s.hands[1]] == ["Crab", "Pickle", "Tuna"]
    assert s.to_move() == [1]  # seat 1 now chooses for seat 2, then seat 2 for seat 0
    for seat in (1, 2):
        for _ in range(3):
            s.apply(seat, s.legal_actions(seat)[0])
    assert all(len(h) == 3 for h in s.hands)
    assert s.phase == "setup_recipes" and s.to_move() == [0]
    s.apply(0, DrawRecipe(5))
    # each recipe is seen before the next is chosen
    assert len(s.view(0)["recipes"][0]["ingredients"]) == 5
    assert s.view(1)["seats"][0]["recipe_lengths"] == [5] and s.view(1)["recipes"] == []
    s.apply(0, DrawRecipe(2))
    s.apply(0, DrawRecipe(2))
    for seat in (1, 2):
        for _ in range(3):
            s.apply(seat, DrawRecipe(3))
    assert s.phase == "play" and s.to_move() == [0]
    assert [len(x) for x in s.screens] == [3, 3, 3]


# -------------------------------------------------------------------------------- rulebook examples
def test_crunchy_tuna_completed_out_of_order():
    """Tempura laid between Maki and Tuna completes Crunchy Tuna (Tempura, Tuna, Maki) without style."""
    s = blank()
    put(s, "C1", "Maki")
    put(s, "C3", "Tuna")
    rid = give_recipe(s, 0, "Crunchy Tuna")
    give_hand(s, 0, "Tempura", "Rice", "Rice")
    start(s)
    events = s.apply(0, Place("Tempura", sq(s, "C2")))
    done = [e for e in events if e.kind == "completed"]
    assert [e.data["recipe"] for e in done] == ["Crunchy Tuna"] and done[0].data["style"] is False
    assert s.done[0] == [(rid, False)] and s.cubes[0] == 0 and s.free[0][3] == 2
    assert s.scores()[0] == 3 and rid not in s.screens[0]


def test_pickle_barrel_with_style_and_tekkamaki_at_once():
    """One Maki completes Pickle Barrel in the strip's order (1 cube) and Tekkamaki across it."""
    s = blank()
    put(s, "D1", "Rice")
    put(s, "D2", "Pickle")
    put(s, "C3", "Tuna")
    give_recipe(s, 0, "Pickle Barrel")
    give_recipe(s, 0, "Tekkamaki")
    give_hand(s, 0, "Maki", "Egg", "Crab")
    start(s)
    s.apply(0, Place("Maki", sq(s, "D3")))
    # a two-ingredient recipe always reads in order one way or the other; only longer ones pay cubes
    assert sorted((RECIPES[r].name, style) for r, style in s.done[0]) == [("Pickle Barrel", True), ("Tekkamaki", True)]
    assert s.cubes[0] == 1 and s.scores()[0] == 3 + 2 + 1
    assert s.free[0][2] == 3 and s.free[0][3] == 2
    assert s.phase == "reward" and s.rewards == 2  # one action card per completed recipe


def test_final_score_example_is_23():
    """8 + 3 + 5 + 2 + 2 from five tokens plus 3 cubes."""
    s = blank()
    for name in ("Kaiseki", "Pickle Barrel", "Dragon Roll", "Tekkamaki", "Kappamaki"):
        s.done[0].append((RECIPE_BY_NAME[name].id, False))
    s.cubes[0] = 3
    assert s.scores()[0] == 23


def test_end_of_game_taking_the_wasabi_card_reopens_the_board():
    s = blank()
    s.tops[0] = s.tops[1] = s.tops[s.geo.cols] = s.tops[s.geo.cols + 1] = -2
    s.covers.append(0)
    s.kitchen[CARD_ID["Wasabi"]] -= 1
    put(s, "F4", "Rice")
    fill_board(s, {sq(s, "F5"), 0, 1, s.geo.cols, s.geo.cols + 1}, tile="Maki")
    give_recipe(s, 0, "Tamago Nigiri")
    give_hand(s, 0, "Egg", "Crab", "Squid")
    start(s)
    assert s.empties() == 1
    twin = s.clone()
    s.apply(0, Place("Egg", sq(s, "F5")))  # the last square: completes Tamago Nigiri (Egg, Rice)
    assert s.phase == "reward" and s.board_full()
    s.apply(0, TakeCard("Wasabi", 0, ""))  # pull the Wasabi! card off the board
    assert not s.board_full() and s.empties() == 4
    while s.phase in ("draw_tiles", "draw_recipes"):
        s.apply(0, s.legal_actions(0)[0])
    assert not s.is_over() and s.to_move() == [1]
    # the same turn taking a Kitchen card instead: the board is full at the end of the turn, the game ends
    twin.apply(0, Place("Egg", sq(twin, "F5")))
    twin.apply(0, TakeCard("Spicy", -1, ""))
    while not twin.is_over():
        twin.apply(0, twin.legal_actions(0)[0])
    assert twin.end_reason == "board full" and twin.winners() == [0]


# ------------------------------------------------------------------------------------ completing rules
def test_no_completion_without_a_free_token_of_that_length():
    s = blank()
    put(s, "A1", "Tuna")
    give_recipe(s, 0, "Tekkamaki")
    s.free[0][2] = 0
    give_hand(s, 0, "Maki", "Rice", "Rice")
    start(s)
    events = s.apply(0, Place("Maki", sq(s, "A2")))
    assert s.done[0] == [] and RECIPE_BY_NAME["Tekkamaki"].id in s.screens[0]
    told = [e for e in events if e.kind == "cannot_complete"]
    assert told and told[0].data["length"] == 2 and "No free 2-ingredient token" in told[0].data["message"]
    assert "Tekkamaki" not in json.dumps([e.to_json() for e in events])  # the hidden recipe is not revealed
    assert s.phase == "draw_tiles" and s.rewards == 0  # no reward card either


def test_a_sequence_already_on_the_board_is_not_your_doing():
    s = blank()
    put(s, "A1", "Tuna")
    put(s, "A2", "Maki")
    give_recipe(s, 0, "Tekkamaki")
    give_hand(s, 0, "Rice", "Rice", "Rice")
    start(s)
    s.apply(0, Place("Rice", sq(s, "E5")))
    assert s.done[0] == []


def test_tiles_beyond_the_sequence_are_irrelevant_and_reverse_order_is_style():
    s = blank()
    put(s, "B1", "Egg")
    put(s, "B2", "Maki")  # Maki, Pickle, Rice read backwards is Pickle Barrel's order
    put(s, "B3", "Pickle")
    put(s, "B5", "Egg")
    give_recipe(s, 0, "Pickle Barrel")
    give_hand(s, 0, "Rice", "Crab", "Squid")
    start(s)
    s.apply(0, Place("Rice", sq(s, "B4")))
    assert s.done[0] == [(RECIPE_BY_NAME["Pickle Barrel"].id, True)] and s.cubes[0] == 1


def test_instant_win_with_ten_tokens():
    s = blank(3)
    for r in (
        [r for r in RECIPES if r.length == 2][:4]
        + [r for r in RECIPES if r.length == 3][:3]
        + [r for r in RECIPES if r.length == 4][:2]
    ):
        s.done[0].append((r.id, False))
        s.free[0][r.length] -= 1
    s.cubes[1] = 40  # far more points than seat 0: the instant win ignores points
    put(
        s,
        "A1",
        "Tuna",
    )
    put(s, "A2", "Salmon")
    put(s, "A3", "Shrimp")
    put(s, "A4", "Egg")
    give_recipe(s, 0, "Kaiseki")
    give_hand(s, 0, "Rice", "Crab", "Squid")
    start(s)
    s.apply(0, Place("Rice", sq(s, "A5")))
    assert s.is_over() and s.winners() == [0] and s.end_reason == "instant win"
    assert s.outcome().reason == "instant win"


def test_ties_go_to_more_cubes_then_a_draw():
    s = blank()
    s.done[0].append((RECIPE_BY_NAME["Dragon Roll"].id, False))  # 5 points
    s.done[1].append((RECIPE_BY_NAME["Pickle Barrel"].id, True))  # 3 points
    s.cubes[1] = 2  # + 2 cubes = 5
    s.phase = "over"
    assert s.scores() == [5, 5] and s.winners() == [1]
    s.cubes[0] = 2
    s.done[1].append((RECIPE_BY_NAME["Tekkamaki"].id, False))
    assert s.scores() == [7, 7] and s.winners() == [0, 1]


# --------------------------------------------------------------------------------------- action cards
def test_stack_plays_on_top_and_only_the_top_tile_counts():
    s = blank()
    put(s, "A1", "Tuna")
    put(s, "A2", "Rice")
    give_recipe(s, 0, "Tekkamaki")
    give_hand(s, 0, "Maki", "Crab", "Squid")
    hold(s, 0, "Stack")
    start(s)
    with pytest.raises(RuleError, match="taken"):
        s.apply(0, Place("Maki", sq(s, "A2")))
    s.apply(0, PlayStack())
    s.apply(0, Place("Maki", sq(s, "A2")))
    assert [KINDS[k] for k in s.stacks[sq(s, "A2")]] == ["Rice", "Maki"]
    assert s.view(1)["board"][sq(s, "A2")] == ["Rice", "Maki"]  # anyone may look at the hidden tile
    assert done_names(s) == ["Tekkamaki"]
    assert s.kitchen[CARD_ID["Stack"]] == KITCHEN[2][CARD_ID["Stack"]]  # back in the Kitchen


def test_stack_must_come_before_the_tile():
    s = blank()
    put(s, "A1", "Tuna")
    give_hand(s, 0, "Maki", "Crab", "Squid")
    hold(s, 0, "Stack", "Spicy")
    start(s)
    s.apply(0, Place("Crab", sq(s, "E1")))
    assert PlayStack() not in s.legal_actions(0)
    before = s.fingerprint()
    with pytest.raises(RuleError, match="before"):
        s.apply(0, PlayStack())
    assert s.fingerprint() == before


def test_spicy_after_the_tile_plays_a_second_one():
    s = blank()
    put(s, "A1", "Tuna")
    give_recipe(s, 0, "Tekkamaki")
    give_hand(s, 0, "Maki", "Crab", "Squid")
    hold(s, 0, "Spicy")
    start(s)
    s.apply(0, Place("Crab", sq(s, "E1")))
    assert s.phase == "play" and EndStep() in s.legal_actions(0)
    s.apply(0, PlaySpicy())
    with pytest.raises(RuleError):
        s.apply(0, EndStep())  # the second tile is owed
    s.apply(0, Place("Maki", sq(s, "A2")))
    assert len(s.done[0]) == 1 and s.phase == "reward"


def test_a_second_action_card_in_one_turn_is_refused():
    s = blank()
    put(s, "A1", "Tuna")
    give_hand(s, 0, "Maki", "Crab", "Squid")
    hold(s, 0, "Spicy", "Switch")
    start(s)
    s.apply(0, PlaySpicy())
    before = s.fingerprint()
    with pytest.raises(RuleError, match="only one action card"):
        s.apply(0, PlaySwitch(sq(s, "A1"), sq(s, "A2")))
    assert s.fingerprint() == before
    assert not any(isinstance(a, PlaySwitch) for a in s.legal_actions(0))


def test_switch_swaps_squares_and_can_complete_a_recipe():
    s = blank()
    put(s, "A1", "Tuna")
    put(s, "B2", "Maki")
    give_recipe(s, 0, "Tekkamaki")
    give_hand(s, 0, "Rice", "Crab", "Squid")
    hold(s, 0, "Switch")
    start(s)
    with pytest.raises(RuleError, match="adjacent"):
        s.apply(0, PlaySwitch(sq(s, "A1"), sq(s, "B2")))
    s.apply(0, PlaySwitch(sq(s, "A2"), sq(s, "B2")))  # the empty A2 and B2's Maki swap
    assert KINDS[s.tops[sq(s, "A2")]] == "Maki" and s.stacks[sq(s, "B2")] == ()
    assert done_names(s) == ["Tekkamaki"]


def test_chop_reveals_a_hidden_tile_and_completes():
    s = blank()
    put(s, "A1", "Tuna")
    put(s, "A2", "Maki", "Egg")  # a stack: Maki hidden under Egg
    give_recipe(s, 0, "Tekkamaki")
    give_hand(s, 0, "Rice", "Crab", "Squid")
    hold(s, 0, "Chop")
    start(s)
    egg = s.pantry[KIND_ID["Egg"]]
    s.apply(0, PlayChop(sq(s, "A2"), False))
    assert s.pantry[KIND_ID["Egg"]] == egg + 1
    assert done_names(s) == ["Tekkamaki"]


def test_chop_keep_plays_the_chopped_tile_as_this_turns_ingredient():
    s = blank()
    put(s, "A1", "Tuna")
    put(s, "E5", "Maki")
    give_recipe(s, 0, "Tekkamaki")
    give_hand(s, 0, "Rice", "Crab", "Squid")
    hold(s, 0, "Chop")
    start(s)
    s.apply(0, PlayChop(sq(s, "E5"), True))
    assert {a.tile for a in s.legal_actions(0) if isinstance(a, Place)} == {"Maki"}
    with pytest.raises(RuleError, match="chopped"):
        s.apply(0, Place("Rice", sq(s, "A2")))
    s.apply(0, Place("Maki", sq(s, "A2")))
    assert s.done[0] and len(s.hands[0]) == 3  # no tile left the hand


def test_chop_keep_is_refused_after_the_tile():
    s = blank()
    put(s, "E5", "Maki")
    give_hand(s, 0, "Rice", "Crab", "Squid")
    hold(s, 0, "Chop")
    start(s)
    s.apply(0, Place("Rice", sq(s, "A1")))
    with pytest.raises(RuleError, match="already played"):
        s.apply(0, PlayChop(sq(s, "E5"), True))
    s.apply(0, PlayChop(sq(s, "E5"), False))


def test_wasabi_covers_four_squares_gives_a_cube_and_counts_as_filled():
    s = blank()
    put(s, "A1", "Tuna")
    give_hand(s, 0, "Rice", "Crab", "Squid")
    hold(s, 0, "Wasabi")
    start(s)
    s.apply(0, PlayWasabi(sq(s, "A1")))
    assert s.cubes[0] == 1 and s.empties() == 30 - 4
    with pytest.raises(RuleError, match="Wasabi"):
        s.apply(0, Place("Rice", sq(s, "B2")))
    assert s.view(None)["covered"] == [0, 1, 5, 6]
    assert s.kitchen[CARD_ID["Wasabi"]] == 0  # it lies on the board, not in the Kitchen
    s.apply(0, Place("Rice", sq(s, "E5")))
    assert s.phase == "draw_tiles"


# -------------------------------------------------------------------------------------------- step 2
def test_reward_may_not_be_the_type_just_played_while_another_is_available():
    s = blank()
    put(s, "A1", "Tuna")
    put(s, "B2", "Maki")
    give_recipe(s, 0, "Tekkamaki")
    give_hand(s, 0, "Rice", "Crab", "Squid")
    hold(s, 0, "Switch")
    start(s)
    s.apply(0, PlaySwitch(sq(s, "A2"), sq(s, "B2")))
    s.apply(0, Place("Rice", sq(s, "E5")))
    assert s.phase == "reward"
    before = s.fingerprint()
    with pytest.raises(RuleError, match="played Switch"):
        s.apply(0, TakeCard("Switch", -1, ""))
    assert s.fingerprint() == before
    assert all(a.card != "Switch" for a in s.legal_actions(0) if isinstance(a, TakeCard))
    # with only the played type left, it may be taken
    s.kitchen = [0] * 5
    s.kitchen[CARD_ID["Switch"]] = 1
    assert TakeCard("Switch", -1, "") in s.legal_actions(0)


def test_reward_with_a_full_hand_returns_a_card_and_can_be_declined():
    s = blank()
    put(s, "A1", "Tuna")
    give_recipe(s, 0, "Tekkamaki")
    give_hand(s, 0, "Maki", "Crab", "Squid")
    hold(s, 0, "Chop", "Stack")
    start(s)
    s.apply(0, Place("Maki", sq(s, "A2")))
    s.apply(0, EndStep())
    assert s.phase == "reward"
    with pytest.raises(RuleError, match="only two"):
        s.apply(0, TakeCard("Spicy", -1, ""))
    assert SkipReward() in s.legal_actions(0)
    s.apply(0, TakeCard("Spicy", -1, "Chop"))
    assert sorted(s.cards[0]) == sorted([CARD_ID["Spicy"], CARD_ID["Stack"]])
    assert s.kitchen[CARD_ID["Chop"]] == 1 and s.kitchen[CARD_ID["Spicy"]] == 0


def test_refill_then_draw_recipes_one_at_a_time():
    s = blank()
    put(s, "A1", "Tuna")
    give_recipe(s, 0, "Tekkamaki")
    give_hand(s, 0, "Maki", "Crab", "Squid")
    start(s)
    s.apply(0, Place("Maki", sq(s, "A2")))
    s.apply(0, SkipReward())
    assert s.phase == "draw_tiles" and all(isinstance(a, DrawTile) for a in s.legal_actions(0))
    s.apply(0, DrawTile("Egg"))
    assert s.phase == "draw_recipes"
    for n in (4, 4, 2):
        s.apply(0, DrawRecipe(n))
    assert s.to_move() == [1] and [RECIPES[r].length for r in s.screens[0]] == [4, 4, 2]


def test_pass_discards_to_the_bottom_of_the_stacks():
    s = blank()
    a = give_recipe(s, 0, "Tekkamaki")
    b = give_recipe(s, 0, "Dragon Roll")
    give_hand(s, 0, "Maki", "Crab", "Squid")
    start(s)
    with pytest.raises(RuleError, match="at least one"):
        s.apply(0, Pass(()))
    s.apply(0, Pass((a,)))
    assert s.rstacks[2][-1] == a and s.screens[0] == [b]
    assert s.view(0)["under_stacks"] == [a]
    assert s.phase == "draw_recipes"  # the hand is still full
    s.apply(0, DrawRecipe(3))
    s.apply(0, DrawRecipe(3))
    assert s.to_move() == [1]


def test_cannot_pass_after_playing_a_card():
    s = blank()
    put(s, "A1", "Tuna")
    give_recipe(s, 0, "Tekkamaki")
    give_hand(s, 0, "Maki", "Crab", "Squid")
    hold(s, 0, "Spicy")
    start(s)
    s.apply(0, PlaySpicy())
    with pytest.raises(RuleError, match="only pass before"):
        s.apply(0, Pass((s.screens[0][0],)))


def test_everyone_passing_two_rounds_ends_the_game():
    s = blank()
    for seat in (0, 1):
        give_hand(s, seat, "Maki", "Crab", "Squid")
    s.rstacks = [[] for _ in range(6)]  # no recipes anywhere: passing discards nothing
    start(s)
    for i in range(4):
        assert not s.is_over()
        s.apply(s.current, Pass(()))
        assert s.to_move() == ([] if i == 3 else [(i + 1) % 2])
    assert s.is_over() and s.end_reason == "everyone passed"


# -------------------------------------------------------------------------------- views, invariants
def test_view_hides_other_hands_and_recipes():
    """A seat's view (``WasabiSeatView``) is the public view (``WasabiView``) and its own hand, recipes and
    recipes under stacks, nobody else's; a seat not in the game is refused."""
    s = random_game(3, 4, stop_after=40)
    v = s.view(1)
    public = s.view(None)
    assert set(v) == set(public) | {"hand", "recipes", "under_stacks"}
    assert {k: x for k, x in v.items() if k not in ("hand", "recipes", "under_stacks", "turn")} == {
        k: x for k, x in public.items() if k != "turn"
    }, "the seats' entries are public: the same in every view"
    assert sorted(v["hand"]) == sorted(KINDS[k] for k in s.hands[1])
    assert [r["id"] for r in v["recipes"]] == s.screens[1]
    assert all(set(p) == set(public["seats"][0]) for p in v["seats"]), "no seat entry holds a secret"
    assert set(v["pantry_available"]) <= set(KINDS)
    for outside in (-1, 3):
        with pytest.raises(ValueError, match=f"no seat {outside} in a game of 3"):
            s.view(outside)


def test_determinize_keeps_pantry_availability_and_own_knowledge():
    s = random_game(4, 9, stop_after=90)
    seat = s.current
    for i in range(20):
        d = s.determinize(seat, random.Random(i))
        assert d.view(seat) == s.view(seat)
        assert [bool(c) for c in d.pantry] == [bool(c) for c in s.pantry]
        assert tiles_in_play(d) == 72
        ids = (
            [r for x in d.screens for r in x]
            + [r for x in d.done for r, _ in x]
            + [r for n in (2, 3, 4, 5) for r in d.rstacks[n]]
        )
        assert sorted(ids) == list(range(52))
        assert d.screens[seat] == s.screens[seat] and d.hands[seat] == s.hands[seat]
        for o in range(4):
            assert [RECIPES[r].length for r in d.screens[o]] == [RECIPES[r].length for r in s.screens[o]]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000), steps=st.integers(0, 250))
def test_invariants_along_any_random_game(players, seed, steps):
    s = new_game(players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_over():
            break
        seat = s.to_move()[0]
        legal = s.legal_actions(seat)
        assert legal == s.clone().legal_actions(seat)
        s.apply(seat, pick(rng, legal))
        assert tiles_in_play(s) == 72
        recipes = (
            [r for x in s.screens for r in x]
            + [r for x in s.done for r, _ in x]
            + [r for n in (2, 3, 4, 5) for r in s.rstacks[n]]
        )
        assert sorted(recipes) == list(range(52))
        for seat_ in range(players):
            assert len(s.cards[seat_]) <= 2
            assert len(s.done[seat_]) + sum(s.free[seat_]) == 10
        assert sum(s.kitchen) + sum(len(c) for c in s.cards) + len(s.covers) == sum(KITCHEN[players])
    assert replay(SPEC, players, seed, json.loads(json.dumps(s.journal))).fingerprint() == s.fingerprint()


def test_legal_actions_are_sorted_canonically():
    s = random_game(4, 2, stop_after=120)
    for _ in range(60):
        if s.is_over():
            break
        seat = s.current
        legal = s.legal_actions(seat)
        key = [(type(a).__name__,) + tuple(getattr(a, f) for f in a.__slots__) for a in legal]
        assert key == sorted(key)
        s.apply(seat, legal[len(legal) // 2])


def test_every_legal_action_applies_and_illegal_ones_change_nothing():
    s = random_game(3, 12, stop_after=70)
    seat = s.current
    for a in s.legal_actions(seat):
        s.clone().apply(seat, a)
    before = s.fingerprint()
    for bad in (
        Place("Rice", 999),
        Place("Nothing", 0),
        GiveTile("Tuna"),
        DrawTile("Rice"),
        Pass((999,)),
        PlaySwitch(0, 2),
        PlayWasabi(-5),
        TakeCard("Joker", -1, ""),
    ):
        if bad in s.legal_actions(seat):
            continue
        with pytest.raises(RuleError):
            s.apply(seat, bad)
        assert s.fingerprint() == before
    with pytest.raises(RuleError, match="not your turn"):
        s.apply((seat + 1) % 3, s.legal_actions(seat)[0])


# --------------------------------------------------------------------------------------------- bots
def test_normal_beats_random_and_bots_never_cheat():
    from kiosk.sim import simulate

    rep = simulate(SPEC, 2, ["normal", "random"], games=6, seed=3)
    assert rep["illegal_actions"] == 0 and rep["wins"][0] >= 4
    rep = simulate(SPEC, 3, ["easy", "normal", "random"], games=2, seed=3)
    assert rep["illegal_actions"] == 0


def test_hard_bot_picks_a_legal_completing_move():
    from kiosk.games.wasabi.bots import HardBot

    s = blank()
    put(s, "C1", "Maki")
    put(s, "C3", "Tuna")
    give_recipe(s, 0, "Crunchy Tuna")
    give_hand(s, 0, "Tempura", "Rice", "Rice")
    give_hand(s, 1, "Crab", "Squid", "Egg")
    give_recipe(s, 1, "Kani Maki")
    start(s)
    bot = HardBot(0, 1, iterations=40, time_limit=None)
    assert bot.choose(s) == Place("Tempura", sq(s, "C2"))


def test_wasabi_may_not_take_the_last_square_the_tile_needs():
    s = blank()
    fill_board(s, {sq(s, "A1"), sq(s, "A2")}, tile="Maki")
    give_hand(s, 0, "Rice", "Crab", "Squid")
    hold(s, 0, "Wasabi")
    start(s)
    assert not any(isinstance(a, PlayWasabi) and a.square == 0 for a in s.legal_actions(0))
    before = s.fingerprint()
    with pytest.raises(RuleError, match="no empty square"):
        s.apply(0, PlayWasabi(0))
    assert s.fingerprint() == before
    s.apply(0, Place("Rice", sq(s, "A1")))
    s.apply(0, PlayWasabi(0))  # after the tile it may cover the last empty square
    assert s.board_full()
    s.apply(0, s.legal_actions(0)[0])  # draw a tile
    while not s.is_over():
        s.apply(0, s.legal_actions(0)[0])
    assert s.end_reason == "board full"


def test_determinize_keeps_the_board_and_hidden_stack_tiles():
    s = blank(3)
    put(s, "A1", "Maki", "Egg", "Tuna")
    give_hand(s, 1, "Rice", "Crab", "Squid")
    give_hand(s, 2, "Rice", "Roe", "Pickle")
    give_hand(s, 0, "Salmon", "Eel", "Shrimp")
    for seat, name in ((1, "Tekkamaki"), (2, "Dragon Roll"), (0, "Kaiseki")):
        give_recipe(s, seat, name)
    start(s)
    seen = set()
    for i in range(30):
        d = s.determinize(0, random.Random(i))
        assert d.stacks == s.stacks and d.tops == s.tops
        assert d.hands[0] == s.hands[0] and d.screens[0] == s.screens[0]
        seen.add((tuple(d.hands[1]), tuple(d.screens[1]), tuple(d.screens[2])))
        assert RECIPES[d.screens[1][0]].length == 2 and RECIPES[d.screens[2][0]].length == 4
    assert len(seen) > 20  # other hands and recipes really are resampled


def test_bot_policies_read_only_what_the_seat_may_know():
    """The heuristics' choices are the same on the real state and on any determinization for that seat."""
    from kiosk.games.wasabi.bots import (
        NormalBot,
        best_tile_choice,
        expected_length_choice,
        greedy,
        rank_play,
    )

    checked = 0
    for seed in range(3):
        s = new_game(3, seed)
        bots = [NormalBot(i, i) for i in range(3)]
        while not s.is_over() and checked < 120:
            seat = s.current
            legal = s.legal_actions(seat)
            d = s.determinize(seat, random.Random(seed))
            if s.phase in ("setup_recipes", "draw_recipes"):
                assert expected_length_choice(s, seat, legal) == expected_length_choice(d, seat, legal)
            elif s.phase == "draw_tiles":
                assert best_tile_choice(s, seat, legal) == best_tile_choice(d, seat, legal)
            elif s.phase == "play":
                assert rank_play(s, seat, legal) == rank_play(d, seat, legal)
            if s.phase != "give":
                assert greedy(s, seat, legal) == greedy(d, seat, legal)
            checked += 1
            s.apply(seat, bots[seat].choose(s))
    assert checked > 100
