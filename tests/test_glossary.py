"""The glossary (kiosk/locale/glossary.<lang>.json, docs/developer/languages.md "The glossary"): every catalog says
each game and table word the one way its language's glossary says it, and no word of the glossary stands for two
English terms; a game's catalog words a message it shares with the shell's as the shell does."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from devtools.catalogs import domains, po_path
from kiosk.i18n import DOMAIN, LANGUAGES, SOURCE

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "kiosk" / "locale"
TRANSLATED = [lang for lang in LANGUAGES if lang != SOURCE]
#: Languages whose words are matched from a word's start (French, Spanish); the others anywhere in a word
#: (Japanese has no spaces, German builds compounds: "Startplättchen" holds "Plättchen").
WORD_START = {"fr", "es"}
_NOT_WORDS = re.compile(r"\{[^{}]*\}|\[/?\w+\]")


@dataclass(frozen=True)
class Term:
    key: str
    english: re.Pattern[str]
    scope: frozenset[str]
    exclusive: bool
    exceptions: frozenset[str]
    word: str
    forms: re.Pattern[str]


def form_pattern(form: str, lang: str) -> str:
    """How a glossary word is found in a translation: anywhere in Japanese text; elsewhere a short word (under 4
    letters: "Ei", "bot") as a whole word, a longer one from a word's start (French, Spanish: "recette" in
    "recettes") or anywhere in a word (German compounds: "Plättchen" in "Startplättchen")."""
    if lang == "ja":
        return re.escape(form)
    if len(form) < 4:
        return rf"(?<!\w){re.escape(form)}(?!\w)"
    return (r"(?<!\w)" if lang in WORD_START else "") + re.escape(form)


@functools.cache
def terms(lang: str) -> tuple[Term, ...]:
    english = json.loads((GLOSSARY / "glossary.en.json").read_text(encoding="utf-8"))["terms"]
    words = json.loads((GLOSSARY / f"glossary.{lang}.json").read_text(encoding="utf-8"))["terms"]
    out = []
    for key, term in english.items():
        flags = 0 if term.get("case") else re.IGNORECASE
        pattern = term.get("match") or "|".join(rf"(?<!\w){re.escape(f)}(?!\w)" for f in term["en"])
        word = words[key]
        forms = "|".join(form_pattern(f, lang) for f in word.get("forms", [word["term"]]))
        out.append(
            Term(key, re.compile(pattern, flags), frozenset(term["scope"]), term.get("exclusive", True),
                 frozenset(term.get("except", []) + word.get("except", [])), word["term"], re.compile(forms, flags))
        )  # fmt: skip
    return tuple(out)


def found(text: str, patterns: list[tuple[Term, re.Pattern[str]]]) -> set[str]:
    """The terms a text holds, longest first: a term inside a longer one found there is not counted
    ("Spicy Tuna Roll" is a recipe, not the card Spicy and the ingredient Tuna)."""
    hits = [(m.end() - m.start(), m.start(), m.end(), t.key) for t, p in patterns for m in p.finditer(text)]
    taken: list[tuple[int, int]] = []
    keys = set()
    for _length, start, end, key in sorted(hits, key=lambda h: (-h[0], h[1])):
        if any(start < e and s < end for s, e in taken):
            continue
        taken.append((start, end))
        keys.add(key)
    return keys


def po(domain: str, lang: str) -> Catalog:
    with open(po_path(domain, lang), "rb") as f:
        return read_po(f, locale=lang)


def glossary_problems(catalog: Catalog, domain: str, lang: str) -> list[str]:
    """Each message whose translation lacks the glossary's word for an English term it holds, or uses a glossary
    word (of a term that allows no other meaning) for an English text that does not hold its term."""
    scoped = [t for t in terms(lang) if domain in t.scope]
    problems = []
    for message in catalog:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        english = _NOT_WORDS.sub(" ", " / ".join(ids))
        applies = [t for t in scoped if ids[0] not in t.exceptions]
        wanted = found(english, [(t, t.english) for t in applies])
        for text in strings:
            text = _NOT_WORDS.sub(" ", text)
            have = found(text, [(t, t.forms) for t in applies])
            missing = {t.key: t.word for t in applies if t.key in wanted and t.forms.search(text) is None}
            stray = {t.key: t.word for t in applies if t.exclusive and t.key in have and t.key not in wanted}
            for key, word in sorted(missing.items()):
                problems.append(f"{domain}/{lang}: {ids[0]!r} -> {text!r}: lacks {word!r} ({key})")
            for key, word in sorted(stray.items()):
                problems.append(f"{domain}/{lang}: {ids[0]!r} -> {text!r}: {word!r} is {key!r}, not in the English")
    return problems


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_glossary_names_each_english_term_once(lang: str) -> None:
    """The glossary itself: every English term has its word, and no word stands for two terms of one catalog."""
    english = json.loads((GLOSSARY / "glossary.en.json").read_text(encoding="utf-8"))["terms"]
    words = json.loads((GLOSSARY / f"glossary.{lang}.json").read_text(encoding="utf-8"))["terms"]
    assert set(words) == set(english), f"{lang}: terms missing or extra: {set(words) ^ set(english)}"
    clashes = []
    for a in terms(lang):
        for b in terms(lang):
            same = a.word.casefold() == b.word.casefold()
            meet = a.scope & b.scope or DOMAIN in a.scope | b.scope
            if a.key < b.key and same and (a.exclusive or b.exclusive) and meet:
                clashes.append(f"{lang}: {a.word!r} is both {a.key!r} and {b.key!r}")
    assert not clashes, "\n".join(clashes)


@pytest.mark.parametrize(("domain", "lang"), [(d, lang) for d in domains() for lang in TRANSLATED])
def test_every_catalog_says_each_term_the_glossarys_way(domain: str, lang: str) -> None:
    problems = glossary_problems(po(domain, lang), domain, lang)
    assert not problems, f"{len(problems)} messages off the glossary:\n" + "\n".join(problems)


def test_the_check_catches_a_clash_and_a_missing_term() -> None:
    """The German Pantry and Wasabi pool in one word, and a recipe without its word, are caught."""
    catalog = Catalog(locale="de")
    catalog.add("Take Pool", "Vorrat nehmen")
    catalog.add("Draw recipes", "Karten ziehen")
    catalog.add("Take a tile from the Pantry", "Nimm ein Plättchen aus dem Vorrat")
    problems = glossary_problems(catalog, "maki", "de")
    assert any("'Take Pool'" in p and "lacks 'Wasabi-Topf'" in p for p in problems)
    assert any("'Take Pool'" in p and "'pantry'" in p for p in problems)
    assert any("'Draw recipes'" in p and "lacks 'Rezept'" in p for p in problems)
    assert not any("Take a tile" in p for p in problems)


@pytest.mark.parametrize("game", [d for d in domains() if d != DOMAIN])
@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_games_catalog_words_a_shared_message_as_the_shells(game: str, lang: str) -> None:
    """A game's catalog is read before the shell's: a message both hold (same context and English) must read the
    same in both, or the game's would silently override the shell's. A game that means something else by the same
    English gives its message a context (pgettext)."""
    shell = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m.string for m in po(DOMAIN, lang) if m.id}
    drift = [
        f"{game}/{lang}: {m.id!r}: {m.string!r}, the shell's {shell[key]!r}"
        for m in po(game, lang)
        if m.id and (key := (m.context, m.id if isinstance(m.id, str) else m.id[0])) in shell and m.string != shell[key]
    ]
    assert not drift, "\n".join(drift)


def test_the_review_prints_every_message_beside_its_english(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m devtools.wordreview ja``: every message of every domain, its English, context and notes."""
    from devtools.wordreview import main

    assert main(["ja", "--terms"]) == 0
    out = capsys.readouterr().out
    total = sum(1 for d in domains() for m in po(d, "ja") if m.id)
    assert out.rstrip().endswith(f"{total} messages in ja")
    assert "Pantry (maki, wasabi): 食材置き場" in out
    assert "  context: seat\n  en: Circle\n  ja: まる" in out
    assert "  note: TRANSLATORS: a button: draw a recipe card of {n} ingredients" in out
