"""The how-to answers what a newcomer asks: for each game, the questions beside its how-to
(``kiosk/games/<game>/howto_questions.json``: what do I do on my turn, how do I score, what is secret, how does it
end, who wins) each name the step that answers them, and that step's text holds the answer's words and numbers, in
English and, for the numbers, in every language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kiosk.games import GAMES
from kiosk.i18n import LANGUAGES, translator

ROOT = Path(__file__).resolve().parents[1]
KEYS = ["maki", "wasabi", "makoto", "takoyaki"]
QUESTIONS = {"turn", "score", "secret", "end", "win"}


def questions(key: str) -> dict[str, dict[str, object]]:
    data = json.loads((ROOT / "kiosk" / "games" / key / "howto_questions.json").read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if not k.startswith("_")}


@pytest.mark.parametrize("key", KEYS)
def test_each_question_names_the_step_that_answers_it(key: str) -> None:
    asked = questions(key)
    assert set(asked) == QUESTIONS, sorted(asked)
    steps = {s["title"]: s["text"] for s in GAMES[key].howto}
    for question, answer in asked.items():
        step = str(answer["step"])
        assert step in steps, f"{key}: {question!r} names no step of the how-to: {step!r}"
        for words in answer["needs"]:  # type: ignore[attr-defined]
            assert str(words) in steps[step], f"{key}: step {step!r} does not answer {question!r} ({words!r})"


@pytest.mark.parametrize("key", KEYS)
def test_every_language_keeps_the_answers_numbers(key: str) -> None:
    steps = {s["title"]: s["text"] for s in GAMES[key].howto}
    for question, answer in questions(key).items():
        english = steps[str(answer["step"])]
        numbers = [n for words in answer["needs"] for n in re.findall(r"\d+", str(words))]  # type: ignore[attr-defined]
        for lang in LANGUAGES:
            text = translator(lang, key).gettext(english)
            found = re.findall(r"\d+", text)
            missing = [n for n in numbers if n not in found]
            assert not missing, f"{key}/{lang} {question}: {missing} missing from {text!r}"


def test_terms_are_explained_where_they_first_appear() -> None:
    """The issue's examples: Wasabi!'s tokens at the first step, who chooses the tiles passed on, what "lower"
    means for Makoto's Blind, coming back after passing, who wins Makoto, and the action cards' link."""
    howto = {key: [s["text"] for s in GAMES[key].howto] for key in KEYS}
    assert "10 tokens" in howto["wasabi"][0] and "Each recipe you complete takes one" in howto["wasabi"][0]
    assert "chooses 3 starting tiles" in howto["wasabi"][1] and "on their left" in howto["wasabi"][1]
    blind = next(t for t in howto["makoto"] if t.startswith("The Blind"))
    assert "lower than the lowest card you just played" in blind
    assert any("may play again" in t for t in howto["makoto"]) and "The most points wins" in howto["makoto"][0]
    assert any("tap Cards in your seat menu" in t for t in howto["maki"])
