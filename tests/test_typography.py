"""Typography per language (docs/developer/languages.md, "Typography"): Japanese full-width punctuation in running
text, French no-break spaces before : ; ! ? and one apostrophe, Spanish opening ¡ ¿, German „quotes“, and one
plural rule per language in every catalog."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from devtools.catalogs import domains, po_path
from kiosk.i18n import LANGUAGES, SOURCE

TRANSLATED = [lang for lang in LANGUAGES if lang != SOURCE]
#: Not words of the message: placeholders, markup, the call and the game's name with their own "!", a command line.
_NOT_TEXT = re.compile(r"\{[^{}]*\}|\[/?\w+\]|TAKOYAKI!|Wasabi!|W!|--hardware none|hardware\.\w+")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
#: Each language's plural rule, the same in every catalog.
PLURAL_FORMS = {
    "ja": "nplurals=1; plural=0;",
    "de": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "es": "nplurals=2; plural=(n != 1);",
}


def japanese(text: str) -> list[str]:
    """Running Japanese text takes full-width punctuation (：（）！？、；) and the ellipsis …, never ASCII."""
    if not _JAPANESE.search(text):
        return []
    return [f"ASCII {c!r}" for c in sorted(set(re.findall(r"[!?:;,()]|\.\.\.", text)))]


def french(text: str) -> list[str]:
    """A no-break space (U+00A0 or U+202F) before : ; ! ? and the one apostrophe ’ (never ')."""
    problems = [f"no no-break space before {m.group(1)!r}" for m in re.finditer(r"(?<![\u00a0\u202f])([:;!?])", text)]
    return problems + (["ASCII apostrophe '"] if "'" in text else [])


def spanish(text: str) -> list[str]:
    """A sentence with ! or ? opens it with ¡ or ¿."""
    problems = []
    for sentence in re.split(r"(?<=[.!?])\s+|\n", text):
        for close, opening in (("!", "¡"), ("?", "¿")):
            if close in sentence and opening not in sentence:
                problems.append(f"{close!r} without {opening!r}: {sentence!r}")
    return problems


def german(text: str) -> list[str]:
    """Quotes are „…“ (never "…", «…» or “…” opened high)."""
    problems = [f"quote {c!r}" for c in sorted(set(re.findall(r"[\"«»”]", text)))]
    opened = text.count("„")
    return problems + (["“ without „"] if text.count("“") != opened else [])


RULES = {"ja": japanese, "fr": french, "es": spanish, "de": german}


def typography_problems(catalog: Catalog, lang: str) -> list[str]:
    problems = []
    for message in catalog:
        if not message.id:
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        for text in [message.string] if isinstance(message.string, str) else message.string:
            problems += [f"{msgid!r} -> {text!r}: {p}" for p in RULES[lang](_NOT_TEXT.sub(" ", text))]
    return problems


def po(domain: str, lang: str) -> Catalog:
    with open(po_path(domain, lang), "rb") as f:
        return read_po(f, locale=lang)


@pytest.mark.parametrize(("domain", "lang"), [(d, lang) for d in domains() for lang in TRANSLATED])
def test_every_message_follows_its_languages_typography(domain: str, lang: str) -> None:
    problems = typography_problems(po(domain, lang), lang)
    assert not problems, f"{domain}/{lang}: {len(problems)} messages:\n" + "\n".join(problems)


@pytest.mark.parametrize(("domain", "lang"), [(d, lang) for d in domains() for lang in TRANSLATED])
def test_every_catalog_of_a_language_has_its_plural_rule(domain: str, lang: str) -> None:
    header = po_path(domain, lang).read_text(encoding="utf-8").split("\n\n", 1)[0]
    found = re.search(r'"Plural-Forms: ([^"\\]*)\\n"', header)
    assert found is not None and found.group(1) == PLURAL_FORMS[lang], f"{domain}/{lang}: {found and found.group(1)}"


def test_the_rules_catch_what_they_name() -> None:
    catalog = Catalog(locale="fr")
    catalog.add("Ready?", "Prêt ?")
    catalog.add("Today", "aujourd'hui")
    assert len(typography_problems(catalog, "fr")) == 2
    assert japanese("ボット (easy)") == ["ASCII '('", "ASCII ')'"] and japanese("Bot (easy)") == []
    assert spanish("Toca Pila!") and not spanish("¿Listo? ¡Cántalo!")
    assert german('Alle: "Nächste Partie"') and not german("Alle: „Nächste Partie“")
    assert french("Fini\u00a0? Annoncez-le\u00a0!") == []
