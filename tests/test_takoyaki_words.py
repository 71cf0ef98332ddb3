"""Takoyaki's words in the reader's language (kiosk/games/takoyaki/words.py): hints, refusals, plurals, the race
clock, the balls' letters and the events of the how-to's demo; English stays the default."""

from __future__ import annotations

from kiosk.engine import Event
from kiosk.games.takoyaki.words import (
    PUSH_HINT,
    TURN_HINT,
    ball_letters,
    band_text,
    out_reason,
    race_time,
    rule_error_text,
    takoyaki_event_text,
)
from kiosk.i18n import LANGUAGES, Translator, translator


def tr(lang: str) -> Translator:
    return translator(lang, "takoyaki")


def test_english_is_the_default() -> None:
    assert out_reason("wrong_claim") == "wrong claim" and band_text("medium") == "medium"
    assert race_time(65.34) == "1:05.3" and ball_letters() == "RGB"
    refusal = "You are out of this order (ball fell off): wait for the next card"
    assert rule_error_text(refusal) == "You are out of this order (a ball fell off the grill): wait for the next card"
    assert rule_error_text("Something new") == "Something new", "an unknown refusal stays as it is"


def test_every_hint_and_refusal_is_translated() -> None:
    for lang in LANGUAGES:
        if lang == "en":
            continue
        t = tr(lang)
        for message in [*PUSH_HINT.values(), *TURN_HINT.values(), "There is no ball on that space to push"]:
            assert t.gettext(message) != message, (lang, message)
        assert len(ball_letters(t)) == 3


def test_seat_words_in_each_language() -> None:
    assert rule_error_text("That space is taken: push the ball onto an empty space", tr("de")).startswith("Das Feld")
    assert out_reason("hand_on_grill", tr("fr")) == "une main a touché le gril"
    assert race_time(65.34, tr("de")) == "1:05,3" and race_time(65.34, tr("ja")) == "1:05.3"
    assert [ball_letters(tr(lang)) for lang in ("de", "fr", "es", "ja")] == ["RGB", "RVB", "RVA", "赤緑青"]
    # plural forms by the catalog: French says 1 carte, 2 cartes; Japanese has one form
    for lang, one, two in (("fr", "1 carte restante", "2 cartes restantes"), ("ja", "残り 1枚", "残り 2枚")):
        t = tr(lang)
        got = [t.ngettext("{n} card left", "{n} cards left", n).format(n=n) for n in (1, 2)]
        assert got == [one, two], got


def test_event_texts_for_the_demo() -> None:
    def who(g: int | None) -> str:
        return "Ann" if g == 0 else ""

    def square(s: int) -> str:
        return str(s)

    won = Event("order_won", 0, {"card": "RR../GG../BB..", "orders": 2})
    assert takoyaki_event_text(won, who, square) == "Ann: TAKOYAKI! Order done (2 of 5)"
    assert takoyaki_event_text(won, who, square, tr=tr("de")) == "Ann: TAKOYAKI! Bestellung fertig (2 von 5)"
    pushed = Event("pushed", 0, {"src": 1, "dst": 2})
    assert takoyaki_event_text(pushed, who, square, tr=tr("ja")) == "Annが 玉を 1マス 押した"
    over = Event("game_over", None, {"reason": "five_orders", "scores": [5], "winners": [0]})
    assert "fünf Bestellungen geschafft" in takoyaki_event_text(over, who, square, tr=tr("de"))
