"""The engine's shared pieces, checked on every game: one "not your turn" message, phases as enums, the
declarative clone, ``search_copy`` under ``determinize``, the default winners, and one bot base class."""

from __future__ import annotations

import random

import pytest

from devtools.legacy_search import legacy_search_copy
from kiosk.ai import BaseBot, pick
from kiosk.engine import NOT_YOUR_TURN, GamePhase, RuleError, State
from kiosk.games import GAMES

TURN_BASED = ["maki", "wasabi", "makoto"]


def played(key: str, players: int, seed: int, steps: int) -> State:
    spec = GAMES[key]
    state = spec.new_game(players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        seat = pick(rng, state.to_move())
        state.apply(seat, pick(rng, state.legal_actions(seat)))
    return state


@pytest.mark.parametrize("key", TURN_BASED)
def test_acting_out_of_turn_reads_the_same_in_every_game(key):
    state = played(key, 3, 4, 25)
    mover = state.to_move()[0]
    other = (mover + 1) % 3
    action = state.legal_actions(mover)[0]
    before = state.fingerprint()
    with pytest.raises(RuleError) as err:
        state.apply(other, action)
    assert str(err.value) == NOT_YOUR_TURN.format(seat=mover + 1)
    assert state.fingerprint() == before


@pytest.mark.parametrize("key", TURN_BASED)
def test_phases_are_enum_members_that_read_as_plain_strings(key):
    state = played(key, 2, 1, 40)
    assert isinstance(state.phase, GamePhase)
    assert state.view(0)["phase"] == str(state.phase)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert state.phase == "over" and isinstance(state.phase, GamePhase)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_determinize_starts_from_a_search_copy_without_journal_and_with_its_own_generator(key):
    spec = GAMES[key]
    state = played(key, max(2, spec.min_players), 3, 30)
    a = state.determinize(0, random.Random(1))
    b = state.determinize(0, random.Random(2))
    assert a.journal is None
    assert a.rng.random() != b.rng.random(), "future shuffles are unknown: each sample has its own generator"
    assert state.journal is not None and state.rng is not a.rng


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_old_determinize_path_of_the_benchmark_samples_the_same_positions(key):
    spec = GAMES[key]
    state = played(key, max(2, spec.min_players), 5, 30)
    new = state.determinize(0, random.Random(9))
    with legacy_search_copy():
        old = state.determinize(0, random.Random(9))
    assert [old.view(s) for s in range(state.players)] == [new.view(s) for s in range(state.players)]


def test_default_winners_rank_by_score_then_tiebreak_then_share():
    state = GAMES["maki"].new_game(3, 1)
    state.phase = "over"
    state.served = [[], [], []]
    state.wasabi = [4, 4, 2]
    assert state.winners() == [0, 1], "a tie on score and Wasabi is shared"
    state.wasabi = [4, 5, 5]
    assert state.scores() == [4, 5, 5] and state.winners() == [1, 2]
    state.phase = "main"
    assert state.winners() == []


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_bot_level_is_a_base_bot(key):
    spec = GAMES[key]
    for level, factory in spec.bots.items():
        bot = factory(0, 1)
        assert isinstance(bot, BaseBot), f"{key} {level}"
        assert bot.seat == 0 and isinstance(bot.rng, random.Random)
