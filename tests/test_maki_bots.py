"""Maki bots: every level plays whole games legally, the heuristics do what their docstrings promise, and the
hard bot decides from what its seat can see only (strength is measured by the simulator, see docs/maki.md)."""

from __future__ import annotations

import copy
import random

import pytest
from maki_positions import arrange, rid

from kiosk.games import GAMES
from kiosk.games.maki import bots as maki_bots
from kiosk.games.maki.bots import HardBot, HeuristicBot, SearchState, _Opponents, evaluate
from kiosk.games.maki.rules import (
    EMPTY,
    KIND_INDEX,
    RECIPES,
    Chop,
    Draw,
    Gain,
    Place,
    Return,
    SecondHelping,
    Serve,
    Substitute,
    Switch,
    Take,
    TakePool,
)
from kiosk.sim import play_game

SPEC = GAMES["maki"]


def test_easy_and_normal_play_whole_games_without_illegal_moves():
    for levels, players in ((["easy", "normal"], 2), (["normal", "easy", "random"], 3)):
        r = play_game(SPEC, players, levels, seed=4)
        assert r.illegal == []
        assert max(r.scores) > 0


def test_easy_serves_whenever_it_can():
    s = arrange(tiles={0: "Salmon", 1: "Nori", 7: "Rice"}, hand=("Sake-Avo Maki", "Avocado Nigiri", "Red Dragon"))
    bot = HeuristicBot(0, 1, smart=False)
    s.apply(0, Take("Avocado"))
    s.apply(0, Place(2))
    first = bot.choose(s)
    assert first == Serve(rid("Sake-Avo Maki")), "the higher-scoring recipe first"
    s.apply(0, first)
    assert bot.choose(s) == Serve(rid("Avocado Nigiri"))


def test_easy_places_towards_its_own_recipe():
    s = arrange(tiles={0: "Geoduck"}, hand=("Mirugai",))
    bot = HeuristicBot(0, 1, smart=False)
    assert bot.choose(s) == Take("Rice")
    s.apply(0, Take("Rice"))
    assert bot.choose(s) in (Place(1), Place(5))


def test_normal_plays_switch_to_serve_and_preps_with_the_pool():
    s = arrange(
        tiles={0: "Nori", 1: "Rice", 2: "Cucumber", 3: "Scallion", 7: "Shrimp"},
        hand=("Dynamite Roll",),
        held=("Switch",),
    )
    bot = HeuristicBot(0, 1, smart=True)
    s.apply(0, Take("Egg"))
    s.apply(0, Place(20))
    assert bot.choose(s) == Switch(2, 7)
    s2 = arrange(hand=("Red Dragon",))
    s2.pool = 4
    s2.apply(0, Take("Egg"))
    s2.apply(0, Place(20))
    assert bot.choose(s2) == TakePool()


def test_hard_serves_the_obvious_double():
    s = arrange(tiles={0: "Salmon", 1: "Nori", 7: "Rice"}, hand=("Sake-Avo Maki", "Avocado Nigiri", "Red Dragon"))
    s.apply(0, Take("Avocado"))
    s.apply(0, Place(2))
    bot = HardBot(0, 3, iterations=150, time_limit=None)
    assert isinstance(bot.choose(s), Serve)


def test_hard_decides_only_from_what_its_seat_sees():
    """Two games that differ only in the opponent's hidden recipes get the same decision (same bot seed)."""
    a = arrange(tiles={0: "Geoduck", 6: "Tuna"}, hand=("Mirugai", "Sake-Avo Maki", "Red Dragon"), seed=5)
    b = a.clone()
    # Swap the opponent's 3-ingredient recipe for another with the same back from the deck (unseen by seat 0).
    mine = b.hands[1][1] if RECIPES[b.hands[1][1]].length == 3 else b.hands[1][0]
    alt = next(r for r in b.decks[RECIPES[mine].length][:-1] if RECIPES[r].back == RECIPES[mine].back)
    deck = b.decks[RECIPES[mine].length]
    deck[deck.index(alt)] = mine
    b.hands[1][b.hands[1].index(mine)] = alt
    assert a.view(0) == b.view(0) and a.view(1) != b.view(1)
    for state in (a, b):
        assert state.legal_actions(0) == a.legal_actions(0)
    choices = [HardBot(0, 9, iterations=80, time_limit=None).choose(x) for x in (a, b)]
    assert choices[0] == choices[1]


def test_search_pruning_offers_a_subset_of_the_legal_actions():
    state = SPEC.new_game(3, 8)
    rng = random.Random(8)
    for _ in range(120):
        if state.is_over():
            break
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        search = SearchState.__new__(SearchState)
        search.__dict__.update(state.clone().__dict__)
        pruned = search.legal_actions(seat)
        assert pruned and set(pruned) <= set(legal)
        state.apply(seat, legal[int(rng.random() * len(legal))])


def test_evaluate_rewards_points_and_stays_in_range():
    s = arrange(tiles={0: "Geoduck"}, hand=("Mirugai",))
    base = evaluate(s)
    s.wasabi[0] = 10
    better = evaluate(s)
    assert better[0] > base[0] and better[1] < base[1]
    assert all(0.0 <= x <= 1.0 for x in better)


# ------------------------------------------------------------------------------------------------ normal bot
def play_turn(bot: HeuristicBot, state, seat: int = 0) -> list:
    """Let ``bot`` play the rest of its turn; the actions it chose."""
    done = []
    start = state.turns
    while state.turns == start and not state.is_over():
        action = bot.choose(state)
        state.apply(seat, action)
        done.append(action)
    return done


def _normal_share_against_easy(normal) -> float:
    """30 deals, each with ``normal`` (a bot factory) in both seats against easy; normal's win share."""
    import dataclasses

    spec = dataclasses.replace(SPEC, bots={**SPEC.bots, "normal": normal})
    wins = 0.0
    games = 0
    for seed in range(30):
        for seat in (0, 1):
            levels = ["easy", "easy"]
            levels[seat] = "normal"
            r = play_game(spec, 2, levels, seed=7000 + seed)
            assert r.illegal == []
            wins += (seat in r.winners) / len(r.winners)
            games += 1
    return wins / games


@pytest.mark.slow  # a statistical strength test: many whole games
def test_normal_beats_easy_clearly():
    """Seeded bots, so deterministic. The full normal policy (no slips) wins 0.92 of 600 games against easy
    (docs/maki.md; 58 of these 60); the shipped level slips to the easy policy on 70% of its decisions so that
    hard stays the strongest level, and still wins about 0.72 (docs/maki.md; the bound is far from the edge)."""
    assert _normal_share_against_easy(lambda seat, seed: HeuristicBot(seat, seed, smart=True)) >= 0.8
    assert maki_bots.NORMAL_SLIP == 0.7
    assert _normal_share_against_easy(SPEC.bots["normal"]) >= 0.55
    with pytest.raises(ValueError, match="slip must be between 0 and 1"):
        HeuristicBot(0, 1, smart=True, slip=1.5)


def test_normal_blocks_a_space_where_an_unseen_recipe_is_one_tile_from_complete(monkeypatch):
    # E5 (cell 24) finishes Futomaki along row E and Dragon Roll / Caterpillar Roll down column 5: recipes seat 0
    # has not seen, so the opponent may hold one. Normal's own Mirugai has nothing better to do.
    tiles = {21: "Nori", 22: "Egg", 23: "Cucumber", 9: "Eel", 14: "Cucumber", 19: "Avocado"}
    s = arrange(tiles=tiles, cups=(0, 1), hand=("Mirugai",))
    bot = HeuristicBot(0, 1, smart=True)
    s.apply(0, bot.choose(s))
    assert bot.choose(s) == Place(24)
    # Blocking only counts real threats: once seat 0 has seen those three recipes (say, served), only the small
    # chances of the 2- and 3-ingredient lines through the space are left.
    before = _Opponents(s, 0).block[24]
    s = arrange(tiles=tiles, cups=(0, 1), hand=("Mirugai",))
    for name in ("Futomaki", "Dragon Roll", "Caterpillar Roll"):
        s.known[rid(name)] |= 1
    after = _Opponents(s, 0).block[24]
    assert before > 2.0 and after < 1.0
    # Without the blocking weight the same position is played elsewhere.
    monkeypatch.setattr(maki_bots, "N_BLOCK", 0.0)
    s = arrange(tiles=tiles, cups=(0, 1), hand=("Mirugai",))
    bot = HeuristicBot(0, 1, smart=True)
    s.apply(0, bot.choose(s))
    assert bot.choose(s) != Place(24)


def test_normal_does_not_leave_the_opponent_a_one_tile_finish(monkeypatch):
    # Starting Mirugai: Rice and Geoduck are worth the same to seat 0, but a Rice next to an empty space lets
    # the opponent finish any unseen Nigiri with one tile; no unseen 2-ingredient recipe needs Geoduck.
    s = arrange(tiles={0: "Salmon"}, hand=("Mirugai",))
    assert HeuristicBot(0, 1, smart=False).choose(s) == Take("Rice")
    assert HeuristicBot(0, 1, smart=True).choose(s) == Take("Geoduck")
    monkeypatch.setattr(maki_bots, "N_FEED", 0.0)
    assert HeuristicBot(0, 1, smart=True).choose(s) == Take("Rice")


@pytest.mark.parametrize(
    "card, tiles, steps",
    [
        ("Substitute", {0: "Nori", 1: "Salmon", 2: "Tuna"}, [Substitute(2), Take("Avocado")]),
        ("Chop", {0: "Nori", 1: "Salmon", 2: "Tuna"}, [Chop(2), Take("Avocado"), Place(2)]),
        ("Second Helping", {0: "Nori"}, [SecondHelping(), Take("Salmon"), Place(1), Take("Avocado"), Place(2)]),
    ],
)
def test_normal_plays_an_action_card_combination_that_serves(card, tiles, steps):
    s = arrange(tiles=tiles, hand=("Sake-Avo Maki",), held=(card,))
    done = play_turn(HeuristicBot(0, 1, smart=True), s)
    assert done[: len(steps)] == steps
    assert (rid("Sake-Avo Maki"), True) in s.served[0], "served with style (Nori, Salmon, Avocado in order)"
    assert s.held[0] == []


def test_normal_drops_its_plan_when_the_position_is_not_the_one_it_expects():
    """The kiosk asks a bot again when the game moved on without its answer: the same position gets the same
    first step, not the second step of a plan made for the answer that was never played."""
    s = arrange(tiles={0: "Nori"}, hand=("Sake-Avo Maki",), held=("Second Helping",))
    bot = HeuristicBot(0, 1, smart=True)
    assert bot.choose(s) == SecondHelping()
    assert bot.choose(s) == SecondHelping()
    s.apply(0, SecondHelping())
    assert bot.choose(s) == Take("Salmon")


def test_normal_keeps_its_card_for_a_bigger_recipe_except_on_the_final_turn():
    # The Geoduck in A1 is boxed in by Tuna and Egg: only a Substitute (either to Rice) would serve Mirugai,
    # 2 points, not worth the card mid-game...
    tiles = {0: "Geoduck", 1: "Tuna", 5: "Egg"}
    s = arrange(tiles=tiles, hand=("Mirugai",), held=("Substitute",))
    done = play_turn(HeuristicBot(0, 1, smart=True), s)
    assert not any(isinstance(a, Substitute) for a in done)
    assert s.held[0] == [("Substitute", False)]
    # ... but on a final turn (the board full) a card is worth nothing afterwards.
    s = arrange(tiles=tiles, hand=("Mirugai",), held=("Substitute",))
    kinds = [k for k in range(len(s.pantry)) if k != KIND_INDEX["Rice"] for _ in range(s.pantry[k])]
    for c, v in enumerate(s.board):
        if v == EMPTY:
            k = kinds.pop()
            s.pantry[k] -= 1
            s.board[c] = k
    s.start_board = tuple(s.board)
    s.final_left = 1
    done = play_turn(HeuristicBot(0, 1, smart=True), s)
    assert done[0] in (Substitute(1), Substitute(5)) and done[1] == Take("Rice")
    assert (rid("Mirugai"), True) in s.served[0]


def test_normal_draws_from_the_deck_the_board_can_complete():
    # A nearly full board where Futomaki (unseen, 4 ingredients) is three tiles along row A with its last space
    # open: normal draws a 4 after returning a recipe; easy's table for a full board says 2. With the Egg
    # replaced by a Scallop the line is dead and normal draws a 2 as well.
    rows = [
        ["Nori", "Egg", "Cucumber", None, None],
        ["Salmon", "Salmon", "Salmon", "Tuna", None],
        ["Tuna", "Tuna", "Eel", "Eel", None],
        ["Mackerel", "Mackerel", "Mackerel", "Yellowtail", None],
        ["Octopus", "Octopus", "Octopus", "Crab", None],
        ["Crab", "Crab", "Scallop", None, None],
    ]
    for second, normal_draw in (("Egg", 4), ("Scallop", 2)):
        rows[0][1] = second
        tiles = {r * 5 + c: name for r, row in enumerate(rows) for c, name in enumerate(row) if name}
        s = arrange(tiles=tiles, cups=(28, 29), hand=("Mirugai", "Sake-Avo Maki", "Red Dragon"))
        s.apply(0, Take("Geoduck"))
        s.apply(0, Place(24))
        s.apply(0, Return((rid("Red Dragon"),)))
        assert HeuristicBot(0, 1, smart=True).choose(s) == Draw(normal_draw)
        assert HeuristicBot(0, 1, smart=False).choose(s) == Draw(2)


def test_normal_gains_the_card_it_can_use_most():
    s = arrange(tiles={0: "Geoduck"}, hand=("Mirugai",))
    s.display = ["Switch", "Substitute", "Second Helping"]
    s.apply(0, Take("Rice"))
    s.apply(0, Place(1))
    s.apply(0, Serve(rid("Mirugai")))
    assert HeuristicBot(0, 1, smart=True).choose(s) == Gain("Substitute")
    assert HeuristicBot(0, 1, smart=False).choose(s) == Gain("Switch")


def test_normal_decides_only_from_what_its_seat_sees():
    """Along whole games, every normal decision is the same on the position and on a ``determinize(seat)``
    twin (the other hands and the decks resampled), with the bot in the same state."""
    for players, seed in ((2, 11), (3, 12), (4, 13)):
        state = SPEC.new_game(players, seed)
        bots = [HeuristicBot(s, seed + s, smart=True) for s in range(players)]
        rng = random.Random(seed)
        differed = 0
        while not state.is_over():
            seat = state.to_move()[0]
            twin = state.determinize(seat, rng)
            differed += twin.hands != state.hands
            twin_bot = copy.deepcopy(bots[seat])
            action = bots[seat].choose(state)
            assert twin_bot.choose(twin) == action
            state.apply(seat, action)
        assert differed > 0
