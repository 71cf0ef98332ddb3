"""The results each game declares it can produce (``SPEC.results``: what an event's leaderboard believes), redone from
the rules' own data: the derivations written in each game's module hold for the cards, boards and constants the
engines use, so a change to the card data or the rules that raises the ceiling fails here, not at an event."""

from __future__ import annotations

import re
from pathlib import Path

from kiosk.games import GAMES

ROOT = Path(__file__).resolve().parents[1]


def test_every_game_declares_its_results() -> None:
    for key, spec in GAMES.items():
        assert spec.results is not None, key
        lo, hi = spec.results.score
        assert lo == 0 < hi, (key, spec.results)


def test_maki_highest_score_from_the_card_data_and_the_board() -> None:
    from kiosk.games.maki import MAX_SCORE, SPEC
    from kiosk.games.maki.board import COLUMNS, ROWS
    from kiosk.games.maki.cards import BACK_EFFECTS, RECIPES
    from kiosk.games.maki.rules import HAND_SIZE, new_game

    assert len(RECIPES) == 65
    recipes = sum(r.score for r in RECIPES)
    style = sum(r.style for r in RECIPES if r.length > 2)
    twos = sum(1 for r in RECIPES if r.length == 2)
    per_draw = max(gain + pool for gain, pool in BACK_EFFECTS.values())
    assert (recipes, style, twos, per_draw) == (351, 84, 20, 2)
    wasabi = 0
    for players, cols in COLUMNS.items():
        state = new_game(players, 1)
        assert state.pool == 1 and state.wasabi == [0] * players and all(len(h) == HAND_SIZE for h in state.hands)
        spaces = ROWS * cols
        takes = spaces + twos  # (spaces - players) + twos before the board fills, plus one final turn each
        draws = len(RECIPES) - HAND_SIZE * players
        wasabi = max(wasabi, 1 + takes + per_draw * draws)
    assert wasabi == 169
    assert recipes + style + wasabi == MAX_SCORE == SPEC.results.score[1] == 604


def test_wasabi_highest_score_from_the_tokens() -> None:
    from kiosk.games.wasabi import MAX_SCORE, SPEC
    from kiosk.games.wasabi.cards import ALL_TOKENS, POINTS, STYLE_CUBES, TOKENS

    tokens = sum(TOKENS[n] * POINTS[n] for n in TOKENS)
    style = sum(TOKENS[n] * STYLE_CUBES[n] for n in TOKENS)
    cards = ALL_TOKENS - 1  # a reward per completion; the last completion ends the game at once
    assert (tokens, style, cards) == (35, 10, 9)
    assert tokens + style + cards == MAX_SCORE == SPEC.results.score[1] == 54


def test_makoto_highest_score_from_the_deck() -> None:
    from kiosk.games.makoto import MAX_SCORE, SPEC
    from kiosk.games.makoto.rules import REWARDS, SETUP, deck_for, oracle_for, points_of

    cards = max(points_of(deck_for(p)) + points_of(oracle_for(p)) for p in SETUP)
    assert cards == 210
    assert max(REWARDS) + cards == MAX_SCORE == SPEC.results.score[1] == 260
    assert (SPEC.min_players, SPEC.max_players) == (min(SETUP), max(SETUP))


def test_takoyaki_orders_and_the_fastest_time_trial() -> None:
    from kiosk.games.takoyaki import FASTEST_TRIAL_MS, SPEC
    from kiosk.games.takoyaki.deck import catalogue
    from kiosk.games.takoyaki.grill import START, matches, parse_order
    from kiosk.games.takoyaki.rules import BETWEEN_S, ORDERS_TO_WIN

    assert SPEC.results.score == (0, ORDERS_TO_WIN)
    assert SPEC.results.trial_ms == (FASTEST_TRIAL_MS, 86_400_000)
    assert FASTEST_TRIAL_MS == (ORDERS_TO_WIN - 1) * BETWEEN_S * 1000 == 6000
    # every order needs a move: no card matches the start, and no card comes twice (a grill meets one card at most)
    cards = [c.card for c in catalogue()]
    assert len(set(cards)) == len(cards)
    assert not any(matches(START, parse_order(c)) for c in cards)
    # the screen's pause between orders is the rules' (the screen imports Kivy: read, not imported)
    screen = (ROOT / "kiosk" / "games" / "takoyaki" / "screen.py").read_text()
    assert re.search(r"^\s+BETWEEN_S = rules\.BETWEEN_S$", screen, re.M)


def test_the_event_boards_follow_the_specs() -> None:
    from kiosk.events.contract import event_rules

    rules = event_rules()
    assert list(rules) == ["maki", "wasabi", "makoto", "takoyaki", "takoyaki-trial"]
    assert rules["takoyaki-trial"].lower_is_better and rules["takoyaki-trial"].players == (1, 1)
    assert not any(r.lower_is_better for k, r in rules.items() if k != "takoyaki-trial")
    assert rules["makoto"].players == (2, 6) and rules["takoyaki"].players == (1, 4)
