"""Languages (kiosk/i18n.py): the catalogs hold every marked message, translated, with the English placeholders;
the committed .mo are what the .po compile to (and are installed); plural forms, numbers and times per language;
the config's ``language`` section."""

from __future__ import annotations

import datetime
import functools
import io
import json
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st

import kiosk
from devtools.catalogs import domains, po_path, source_root, template
from kiosk.config import ConfigError, LanguageConfig, load_dict
from kiosk.i18n import (
    DOMAIN,
    LANGUAGES,
    SOURCE,
    Translator,
    extract_howto,
    extract_json_words,
    extract_kv,
    translator,
)
from kiosk.i18n import domains as installed_domains

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "kiosk" / "locale"
TRANSLATED = [lang for lang in LANGUAGES if lang != SOURCE]
DOMAINS = domains()
EVERY = [(d, lang) for d in DOMAINS for lang in TRANSLATED]


def po(lang: str, domain: str = DOMAIN) -> Catalog:
    with open(po_path(domain, lang), "rb") as f:
        return read_po(f, locale=lang)


@functools.cache
def marked(domain: str = DOMAIN) -> dict[tuple[str | None, str], tuple[str, ...]]:
    """Every message marked in a domain's sources (Python, kv and how-to, as its babel.cfg says): (context, id) ->
    its ids."""
    root = source_root(domain)
    with open(root / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    found: dict[tuple[str | None, str], tuple[str, ...]] = {}
    for _file, _line, message, _comments, context in extract_from_dir(str(root), method_map, options_map):
        ids = (message,) if isinstance(message, str) else tuple(message)
        found[(context, ids[0])] = ids
    return found


_PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}|%\((\w+)\)[sdif]")


def placeholders(text: str) -> set[str]:
    return {m.group(1) if m.group(1) is not None else m.group(2) for m in _PLACEHOLDER.finditer(text)}


def catalog_problems(catalog: Catalog, wanted: dict[tuple[str | None, str], tuple[str, ...]]) -> list[str]:
    """What is wrong with one catalog: a marked message missing, empty or fuzzy, a placeholder changed."""
    problems = []
    for (context, msgid), ids in sorted(wanted.items(), key=lambda kv: (kv[0][0] or "", kv[0][1])):
        entry = catalog.get(msgid, context=context)
        if entry is None:
            problems.append(f"missing: {msgid!r}")
            continue
        if entry.fuzzy:
            problems.append(f"fuzzy: {msgid!r}")
        strings = list(entry.string) if isinstance(entry.string, (list, tuple)) else [entry.string]
        if len(ids) > 1 and len(strings) != catalog.num_plurals:
            problems.append(f"{msgid!r}: {len(strings)} plural forms, the language has {catalog.num_plurals}")
        want = set().union(*(placeholders(i) for i in ids))
        for s in strings:
            if not s:
                problems.append(f"empty: {msgid!r}")
            elif placeholders(s) != want:
                problems.append(f"placeholders of {msgid!r}: {sorted(placeholders(s))} in {s!r}, want {sorted(want)}")
    return problems


# ------------------------------------------------------------------------------------------------ catalogs
def test_extraction_finds_python_and_kv_messages() -> None:
    found = marked()
    assert len(found) >= 50, found
    assert (None, "Join") in found  # layouts/join.kv
    assert (None, "Still playing?") in found  # layouts/overlay.kv
    assert found[(None, "{n} point")] == ("{n} point", "{n} points")  # kiosk/shell/results.py
    assert ("bot level", "hard") in found  # kiosk/i18n.py


@pytest.mark.parametrize(("domain", "lang"), EVERY)
def test_every_marked_message_is_translated_with_its_placeholders(domain: str, lang: str) -> None:
    catalog, wanted = po(lang, domain), marked(domain)
    problems = catalog_problems(catalog, wanted)
    assert not problems, f"{domain}/{lang}:\n" + "\n".join(problems)
    unused = [m.id for m in catalog if m.id and (m.context, m.id if isinstance(m.id, str) else m.id[0]) not in wanted]
    assert not unused, f"{domain}/{lang}: messages nobody marks any more: {unused}"


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_template_holds_every_marked_message(domain: str) -> None:
    with open(template(domain), "rb") as f:
        pot = read_po(f)
    ids = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in pot if m.id}
    assert ids == set(marked(domain)), "run python -m devtools.catalogs (docs/developer/languages.md)"


def test_the_installed_kiosk_has_every_domain() -> None:
    assert installed_domains() == DOMAINS


def test_a_games_words_come_before_the_shells() -> None:
    """A game's translator reads its own catalog, then the shell's; a domain without a catalog reads the shell's."""
    shell = translator("de")
    assert Translator("de", "no-such-game").gettext("Join") == shell.gettext("Join") != "Join"
    for domain in DOMAINS[1:]:
        game = translator("de", domain)
        assert game.gettext("Join") == shell.gettext("Join")
        own = next(iter(marked(domain)))
        if own[0] is None:
            assert game.gettext(own[1]) == po("de", domain).get(own[1]).string


def test_howto_extractor_reads_titles_and_texts() -> None:
    howto = b'[{"title": "Goal", "text": "Most points wins.", "pictures": ["x"]}, {"title": "", "text": "Go"}]'
    got = list(extract_howto(io.BytesIO(howto), ["gettext"], [], {}))
    assert [(line, msg) for line, _f, msg, _c in got] == [(1, "Goal"), (1, "Most points wins."), (2, "Go")]


def test_json_words_extractor_follows_its_paths() -> None:
    data = (
        b'{"_doc": ["not a word"], "pantry": {"base": {"Rice": 7}, "fish": {"Tuna": 3, "_note": 1}},'
        b' "recipes": [{"name": "Kappa Maki", "score": 2}, {"id": 3}], "actions": {"Chop": 4}, "board": {"rows": 6}}'
    )
    got = list(extract_json_words(io.BytesIO(data), ["gettext"], [], {"words": "pantry.*.@ recipes.*.name actions.@"}))
    assert [msg for _line, _f, msg, _c in got] == ["Rice", "Tuna", "Kappa Maki", "Chop"]
    assert list(extract_json_words(io.BytesIO(data), ["gettext"], [], {})) == []


@pytest.mark.parametrize("game", ["maki", "wasabi"])
def test_every_card_word_is_in_its_games_catalog(game: str) -> None:
    """Each ingredient, recipe and action card the engine reads from cards.json is a message of the game's domain."""
    cards = json.loads((ROOT / "kiosk" / "games" / game / "cards.json").read_text(encoding="utf-8"))
    pantry, actions = (
        (cards["pantry"], [cards["actions"]])
        if game == "maki"
        else (cards["categories"], [v for k, v in cards["action_cards"].items() if not k.startswith("_")])
    )
    words = {r["name"] for r in cards["recipes"]} | {kind for group in pantry.values() for kind in group}
    words |= {card for counts in actions for card in counts}
    assert {"Rice", "Chop", "California Roll"} <= words <= {msg for _ctx, msg in marked(game)}


def test_the_check_catches_a_missing_message_and_a_broken_placeholder() -> None:
    wanted = {(None, "Saved as {name}"): ("Saved as {name}",), (None, "Join"): ("Join",)}
    catalog = Catalog(locale="de")
    catalog.add("Saved as {name}", "Gespeichert als {nom}")
    problems = catalog_problems(catalog, wanted)
    assert "missing: 'Join'" in problems
    assert any("placeholders of 'Saved as {name}'" in p for p in problems), problems
    catalog.add("Join", "")
    assert "empty: 'Join'" in catalog_problems(catalog, wanted)
    catalog.add("Join", "Mitspielen", flags=["fuzzy"])
    assert "fuzzy: 'Join'" in catalog_problems(catalog, wanted)
    assert placeholders("%(count)s tiles, {n} orders, {0}") == {"count", "n", "0"}


@pytest.mark.parametrize(("domain", "lang"), EVERY)
def test_committed_mo_is_what_the_po_compiles_to_and_is_installed(domain: str, lang: str) -> None:
    compiled = io.BytesIO()
    write_mo(compiled, po(lang, domain))
    mo = po_path(domain, lang).with_suffix(".mo")
    committed = mo.read_bytes()
    assert committed == compiled.getvalue(), f"{domain}/{lang}: run python -m devtools.catalogs compile"
    installed = Path(kiosk.__file__).parent / mo.relative_to(ROOT / "kiosk")
    assert installed.read_bytes() == committed


def test_kv_extractor_reads_each_lines_expression() -> None:
    kv = b"<Pad>:\n    Button:\n        text: root.tr._('Join') + ' \\u261d'\n        font_size: f(2\n    # _('no')\n"
    got = list(extract_kv(io.BytesIO(kv), ["_"], [], {}))
    assert got == [(3, "_", "Join", [])]


# ------------------------------------------------------------------------------------------------ translators
def test_languages_are_named_in_their_own_language() -> None:
    assert LANGUAGES == {"en": "English", "ja": "日本語", "de": "Deutsch", "fr": "Français", "es": "Español"}
    assert translator("ja") is translator("ja") and translator("ja").name == "日本語"
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        Translator("xx")


def test_plural_forms_follow_each_language() -> None:
    def points(lang: str, n: int) -> str:
        return translator(lang).ngettext("{n} point", "{n} points", n).format(n=n)

    assert [points("en", n) for n in (0, 1, 2)] == ["0 points", "1 point", "2 points"]
    assert [points("de", n) for n in (0, 1, 2)] == ["0 Punkte", "1 Punkt", "2 Punkte"]
    assert [points("fr", n) for n in (0, 1, 2)] == ["0 point", "1 point", "2 points"]  # French: 0 is singular
    assert [points("es", n) for n in (0, 1, 2)] == ["0 puntos", "1 punto", "2 puntos"]
    assert [points("ja", n) for n in (0, 1, 2)] == ["0点", "1点", "2点"]
    assert [translator("fr").ordinal(n) for n in (1, 2)] == ["1er", "2e"]
    assert [translator("en").ordinal(n) for n in (1, 2, 3, 11, 22)] == ["1st", "2nd", "3rd", "11th", "22nd"]
    assert translator("ja").ordinal(3) == "3位" and translator("de").ordinal(3) == "3."
    assert translator("es").level("easy") == "fácil" and translator("en").level("easy") == "easy"


def test_numbers_and_times_per_language() -> None:
    def plain(text: str) -> str:
        return text.replace("\u202f", " ").replace("\xa0", " ")

    assert translator("en").number(1234.5) == "1,234.5"
    assert translator("de").number(1234.5) == "1.234,5"
    assert plain(translator("fr").number(1234.5)) == "1 234,5"
    assert translator("de").number(42.5, "0.00") == "42,50" and translator("en").number(42.5, "0.00") == "42.50"
    t = datetime.time(15, 5)
    assert plain(translator("en").time(t)) == "3:05 PM"
    assert translator("de").time(t) == "15:05" and translator("ja").time(t) == "15:05"


def test_module_examples_run() -> None:
    import doctest

    import kiosk.i18n

    result = doctest.testmod(kiosk.i18n)
    assert result.attempted >= 2 and result.failed == 0


def test_english_is_the_source_and_needs_no_catalog() -> None:
    en = translator("en")
    assert en.gettext("Join") == "Join" and en._("Leave") == "Leave"
    assert en.ngettext("{n} bot", "{n} bots", 2) == "{n} bots"
    assert not (LOCALE / "en").exists()


# ------------------------------------------------------------------------------------------------ config
def test_language_section_defaults_and_valid_values() -> None:
    assert load_dict({}).language == LanguageConfig("en", ("en",))
    cfg = load_dict({"language": {"default": "de"}})
    assert cfg.language == LanguageConfig("de", ("de",))
    cfg = load_dict({"language": {"default": "ja", "enabled": ["en", "ja", "fr"]}})
    assert cfg.language.enabled == ("en", "ja", "fr")
    assert cfg.replace(sound={"volume": 0.2}).language == cfg.language  # kept through the menu's changes


def test_language_section_problems_name_the_key() -> None:
    with pytest.raises(ConfigError) as err:
        load_dict({"language": {"default": "xx", "enabled": "en", "extra": 1}})
    msg = str(err.value)
    assert "language.default: must be one of en, ja, de, fr, es, got 'xx'" in msg
    assert "language.enabled: must be a non-empty list of languages" in msg
    assert "language.extra: unknown key" in msg
    with pytest.raises(ConfigError) as err:
        load_dict({"language": {"default": "de", "enabled": ["en", "kl", "en", 3]}})
    msg = str(err.value)
    assert "language.enabled[1]: unknown language 'kl'" in msg
    assert "language.enabled: lists 'en' twice" in msg
    assert "language.enabled[3]: unknown language 3" in msg
    assert "language.enabled: must contain the default language 'de'" in msg
    with pytest.raises(ConfigError, match="language.enabled: must be a non-empty list"):
        load_dict({"language": {"enabled": []}})


def test_the_operators_health_lines_speak_the_tables_language() -> None:
    from kiosk.health import DATA_STICK_MISSING, Health

    assert Health(pin_set=False).marks(translator("de")) == ["Keine Betreiber-PIN"]
    assert Health(pin_set=False).marks() == ["No operator PIN"]
    h = Health(pin_set=True, files_aside=("a", "b"), pin_failures=(1.0,))
    assert "2 beschädigte Dateien beiseitegelegt." in h.problems(translator("de"))
    assert "1\u00a0PIN erroné depuis la dernière ouverture du menu." in h.problems(translator("fr"))
    assert "1 wrong PIN since the menu was last opened." in h.problems()
    stick = Health(data_stick_missing=True, pin_set=False)
    assert stick.marks(translator("de")) == ["Kein Daten-Stick", "Keine Betreiber-PIN"]
    assert stick.marks(translator("ja")) == ["データ用USBメモリなし", "管理者PINなし"]
    for lang in ("de", "ja"):
        said = translator(lang)._(DATA_STICK_MISSING)
        assert said != DATA_STICK_MISSING and stick.problems(translator(lang))[0] == said
        assert stick.lines(translator(lang))[0] == said
    assert stick.lines(translator("de"))[0].startswith("Der Daten-Stick fehlt: Nichts bleibt erhalten")


def test_whole_numbers_under_a_thousand_are_written_as_babel_writes_them() -> None:
    """Translator.number skips Babel for them (its locale data is 9 MB resident): the same text in every language."""
    from babel.numbers import format_decimal

    for lang in LANGUAGES:
        tr = translator(lang)
        assert all(tr.number(n) == format_decimal(n, locale=lang) for n in range(-999, 1000)), lang
        assert tr.number(1000) == format_decimal(1000, locale=lang) and tr.number(2.5) == format_decimal(
            2.5, locale=lang
        )


PLAIN_PATTERNS = ["0", "00", "0.0", "00.0", "0.00", "000.000"]


@given(
    lang=st.sampled_from(list(LANGUAGES)),
    pattern=st.sampled_from(PLAIN_PATTERNS),
    value=st.one_of(
        st.floats(min_value=0, max_value=999.999, allow_nan=False),
        st.integers(min_value=0, max_value=999),
        st.integers(min_value=0, max_value=99_999).map(lambda n: n / 100),  # a value rounded as the callers do
        st.integers(min_value=0, max_value=9_999).map(lambda n: n / 1000 + 0.0005),  # a tie, or nearly
    ),
)
def test_plain_patterns_are_written_as_babel_writes_them(lang: str, pattern: str, value: float) -> None:
    """Translator.number writes numbers from 0 to 999 in a plain pattern (race times, seconds) without Babel: the
    same text as Babel's, rounding included."""
    from babel.numbers import format_decimal

    assert translator(lang).number(value, pattern) == format_decimal(value, format=pattern, locale=lang)


def test_the_decimal_marks_are_babels_and_installed() -> None:
    """kiosk/locale/numbers.json is what ``python -m devtools.catalogs`` writes from Babel, and is installed; a
    language it lacks (or a pattern with grouping, a negative number) is written by Babel itself."""
    from babel.numbers import get_decimal_symbol

    from kiosk.i18n import NUMBERS_PATH, decimal_mark

    committed = LOCALE / "numbers.json"
    assert json.loads(committed.read_text(encoding="utf-8")) == {
        lang: {"decimal": get_decimal_symbol(lang)} for lang in LANGUAGES
    }, "run python -m devtools.catalogs compile"
    assert NUMBERS_PATH.read_bytes() == committed.read_bytes()
    assert [decimal_mark(lang) for lang in LANGUAGES] == [get_decimal_symbol(lang) for lang in LANGUAGES]
    assert decimal_mark("xx") is None
    assert translator("de").number(-2.5, "0.0") == "-2,5" and translator("de").number(1234.5, "#,##0.0") == "1.234,5"
