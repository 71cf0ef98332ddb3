"""Maki bots: every level plays whole games legally, the heuristics do what their docstrings promise, and the
hard bot decides from what its seat can see only (strength is measured by the simulator, see docs/maki.md)."""
from __future__ import annotations

import random

from kiosk.games import GAMES
from kiosk.games.maki.bots import HardBot, HeuristicBot, SearchState, evaluate
from kiosk.games.maki.rules import RECIPES, Serve, Switch, Take, TakePool, Place
from kiosk.sim import play_game
from test_maki_rules import arrange, rid  # tests/ is on sys.path (no package), as test.sh runs it

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
    s = arrange(tiles={0: "Nori", 1: "Rice", 2: "Cucumber", 3: "Scallion", 7: "Shrimp"},
                hand=("Dynamite Roll",), held=("Switch",))
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
