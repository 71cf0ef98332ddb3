"""Every refusal reads in the seat's language: a ``RuleError`` carries its message id and values, the engine's
state is unchanged, ``str()`` stays English for the log, and the words a seat reads (the same functions the game
screens call) come from that seat's catalog, never English, in every language and every game."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.ai import pick
from kiosk.engine import Action, RuleError, State
from kiosk.games import GAMES
from kiosk.games.makoto.words import error_text
from kiosk.games.takoyaki.words import rule_error_text
from kiosk.i18n import LANGUAGES, Translator, translator
from kiosk.ui.words import join_names, list_separator, refusal_text

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
#: What a game screen calls to word a refusal at a seat (kiosk/ui/game.py and the games' own screens).
WORDING: dict[str, Callable[[Exception, Translator], str]] = {
    "maki": refusal_text,
    "wasabi": refusal_text,
    "makoto": error_text,
    "takoyaki": rule_error_text,
}
#: Latin words a Japanese reader may meet: a square's name (``B3``), the games' names.
LATIN = re.compile(r"[A-Za-z][A-Za-z']+")
NAMES = {"Maki", "Wasabi", "Makoto", "Takoyaki", "TAKOYAKI"}


def refusals(key: str, seed: int, players: int, steps: int = 40, tries: int = 2) -> list[tuple[State, RuleError, str]]:
    """Play a game of ``key`` at random; at each step try actions the engine refuses (a move from another seat, a
    move of another phase), checking that each refusal changes nothing. Returns (state, error, fingerprint)."""
    spec = GAMES[key]
    state = spec.new_game(players, seed)
    rng = random.Random(seed)
    seen: list[Action] = []
    found: list[tuple[State, RuleError, str]] = []
    for _ in range(steps):
        if state.is_over():
            break
        movers = state.to_move()
        legal = {g: state.legal_actions(g) for g in range(players)}
        seen += [a for a in rng.sample(legal[movers[0]], min(3, len(legal[movers[0]]))) if a not in seen]
        for _ in range(tries):
            seat, action = rng.randrange(players), rng.choice(seen)
            if action in legal[seat]:
                continue
            before = state.fingerprint()
            try:
                state.apply(seat, action)
            except RuleError as exc:
                assert state.fingerprint() == before, f"{key}: {exc} changed the state"
                found.append((state, exc, before))
            else:  # a move the legal list left out: play on from there
                break
        seat = pick(rng, state.to_move())
        state.apply(seat, pick(rng, state.legal_actions(seat)))
    over = GAMES[key].new_game(players, seed)
    for _ in range(3000):  # to the end (a Takoyaki race may not end this way: then no "game over" from it)
        if over.is_over():
            with pytest.raises(RuleError) as done:
                over.apply(0, seen[0])
            found.append((over, done.value, over.fingerprint()))
            break
        seat = over.to_move()[0]
        over.apply(seat, over.legal_actions(seat)[0])
    return found


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_refusal_is_worded_from_the_seats_catalog(key: str) -> None:
    spec = GAMES[key]
    players = max(spec.min_players, min(3, spec.max_players))
    found = [f for seed in (1, 2) for f in refusals(key, seed, players)]
    ids = {exc.msgid for _s, exc, _f in found}
    assert len(ids) >= (3 if key == "takoyaki" else 6), ids
    for _state, exc, _f in found:
        assert str(exc) == (exc.msgid.format(**exc.values) if exc.values else exc.msgid)
        for lang in OTHERS:
            tr = translator(lang, key)
            text = WORDING[key](exc, tr)
            assert text and text != str(exc), f"{key}/{lang}: {str(exc)!r} is not translated"
            if lang == "ja":
                latin = [w for w in LATIN.findall(text) if w not in NAMES and not re.fullmatch(r"[A-H]\d+", w)]
                assert not latin, f"{key}/ja: English {latin} in {text!r} (from {str(exc)!r})"


def test_a_refusal_keeps_its_id_and_values_and_reads_in_english_for_the_log() -> None:
    exc = RuleError("The Pantry has no {kind} tile left", kind="Salmon")
    assert (exc.msgid, exc.values, str(exc)) == ("The Pantry has no {kind} tile left", {"kind": "Salmon"},
                                                 "The Pantry has no Salmon tile left")  # fmt: skip
    assert isinstance(exc, ValueError) and str(RuleError("The game is over")) == "The game is over"
    assert refusal_text(exc, translator("ja", "maki")) == "食材置き場に サーモンの タイルは もう ありません"
    assert refusal_text(exc, translator("de", "maki")) == "Im Vorrat ist kein Plättchen Lachs mehr"
    assert refusal_text(exc) == str(exc)
    turn = RuleError("It is not your turn: seat {seat} is playing", seat=2)
    assert refusal_text(turn, translator("fr")) == "Ce n’est pas votre tour\u00a0: c’est à la place 2 de jouer"


@settings(max_examples=6, deadline=None)
@given(key=st.sampled_from(["maki", "wasabi"]), seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_a_refused_action_leaves_the_state_unchanged(key: str, seed: int, players: int) -> None:
    assert refusals(key, seed, players, steps=15, tries=2)  # each refusal checks the fingerprint it left


def test_lists_are_joined_the_languages_way() -> None:
    # Japanese: 、 and a space after it, where Kivy may break the line (docs/developer/languages.md)
    assert list_separator(translator("ja")) == "、 " and list_separator(translator("de")) == ", "
    assert join_names(["A", "B", "C"], translator("ja")).startswith("A、 B")
    assert join_names(["A", "B", "C"]) == "A, B and C"


def test_the_fallbacks_speak_the_readers_language() -> None:
    from kiosk.engine import Event
    from kiosk.games.maki.actions import Return
    from kiosk.ui.words import action_label, board_rank, fallback_event_text

    ja = translator("ja", "maki")
    label = action_label(Return(recipes=(3, 7)), 5, 30, {3: "エビ天 ロール", 7: "鉄火巻き"}, tr=ja)
    assert "エビ天 ロール、 鉄火巻き" in label
    text = fallback_event_text(Event("card_flipped", 0, {"card": "Chop", "n": 2}), lambda g: "○", ja)
    assert text == "○： 包丁、 2" and not LATIN.findall(text)
    assert (
        fallback_event_text(Event("card_flipped", 0, {"card": "Chop"}), lambda g: "Circle")
        == "Circle card flipped: Chop"
    )
    assert [board_rank(1), board_rank(1, translator("ja")), board_rank(2, translator("es"))] == ["1.", "1位", "2.º"]


def test_a_board_writes_its_places_the_readers_way_and_keeps_the_latin_line_pitch() -> None:
    from types import SimpleNamespace

    from kiosk.i18n import CJK, register_cjk
    from kiosk.shell.attractscreen import board_rows, board_text

    entries = [SimpleNamespace(name=n, score=s) for n, s in (("AKI", 40), ("[B]", 33))]
    rows = board_rows(entries, tr=translator("ja"))
    assert rows == ["1位  AKI   40", "2位  [B]   33"]
    assert board_text(board_rows(entries), 20) == "1.  AKI   40\n2.  &bl;B&br;   33"  # a name is never markup
    assert register_cjk(), "fonts-noto-cjk is installed by test.sh"
    # the place's 位 in the CJK face at the Latin digits' height (a step smaller); a row of words at full size
    assert board_text(rows, 20).split("\n")[0] == f"1[font={CJK}][size=16]位[/size][/font]  AKI   40"
    none = board_rows([], tr=translator("ja"))
    assert board_text(none, 20) == f"[font={CJK}]{none[0]}[/font]" and not LATIN.findall(none[0])
