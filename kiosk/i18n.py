"""Languages: every seat reads its own (English, Japanese, German, French, Spanish) through gettext catalogs.

``kiosk/locale/<lang>/LC_MESSAGES/kiosk.po`` are the sources (the shell's messages, domain ``kiosk``), their
compiled ``kiosk.mo`` are committed beside them; a game's own words are its own domain, named by its folder
(``kiosk/games/maki/locale/<lang>/LC_MESSAGES/maki.po``), read before the shell's. English is the source (no
catalog). A :class:`Translator` per language and domain gives ``gettext`` (alias ``_``), ``ngettext`` and
``pgettext`` (plural forms by the catalog), numbers and times by Babel, and the face its text is set in (Japanese
needs the CJK face, :data:`CJK`). kv rules write ``root.tr._('...')`` (:func:`extract_kv`), how-to steps are found
by :func:`extract_howto`, a game's words in its data (ingredients, recipes: ``cards.json``) by
:func:`extract_json_words`; extract, update and compile: ``python -m devtools.catalogs`` (docs/developer/languages.md).

>>> translator("de").ngettext("{n} bot", "{n} bots", 2).format(n=2)
'2 Bots'
>>> translator("fr").pgettext("bot level", "hard"), translator("en").gettext("Join"), LANGUAGES["ja"]
('difficile', 'Join', '日本語')
"""

from __future__ import annotations

import datetime
import decimal
import functools
import gettext as _gettext
import io
import json
import os
import re
import tokenize
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any

__all__ = [
    "LANGUAGES",
    "SOURCE",
    "DOMAIN",
    "LOCALE_DIR",
    "CJK",
    "CJK_PATH",
    "Translator",
    "translator",
    "font_for",
    "register_cjk",
    "N_",
    "extract_kv",
    "extract_howto",
    "extract_json_words",
    "domains",
    "locale_dir",
    "PSEUDO_ENV",
    "PSEUDO_MARKS",
]

#: Every language a seat may read, by code, with the language's own name (what its button shows).
LANGUAGES: dict[str, str] = {"en": "English", "ja": "日本語", "de": "Deutsch", "fr": "Français", "es": "Español"}
#: The language the messages are written in (no catalog: the message is its own translation).
SOURCE = "en"
DOMAIN = "kiosk"
LOCALE_DIR = Path(__file__).parent / "locale"
#: The registered name of the Japanese face (Debian ``fonts-noto-cjk``; Kivy has no per-glyph fallback).
CJK = "KioskCJK"
CJK_PATH = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
#: Symbols the CJK face lacks, and the stand-in a text set in it shows (``Translator.sym``).
_CJK_SYMBOLS: dict[str, str] = {
    "\u2714": "\u2713",  # heavy check mark -> check mark
    "\u2716": "\u00d7",  # heavy multiplication x -> multiplication sign
    "\u21bb": "\u21c4",  # clockwise open circle arrow (next) -> arrows left and right
    "\u2b50": "\u2605",  # star -> black star
    "\u232b": "\u2190",  # erase to the left -> leftwards arrow
    "\u21b6": "\u2190",  # anticlockwise top semicircle arrow (undo) -> leftwards arrow
    "\u2694": "\u00d7",  # crossed swords -> multiplication sign
    "\u2615": "\u25cf",  # hot beverage (teacup) -> black circle
}
#: Languages whose text needs the CJK face.
_CJK_LANGUAGES = frozenset({"ja"})
_cjk_registered = False


def locale_dir(domain: str = DOMAIN) -> Path:
    """Where a domain's catalogs are: ``kiosk/locale`` for the shell's, ``kiosk/games/<domain>/locale`` for a game's."""
    return LOCALE_DIR if domain == DOMAIN else Path(__file__).parent / "games" / domain / "locale"


def domains() -> list[str]:
    """Every domain with messages: the shell's, then each game folder holding a ``babel.cfg``."""
    games = sorted(p.parent.name for p in (Path(__file__).parent / "games").glob("*/babel.cfg"))
    return [DOMAIN, *games]


#: Set to "1" (before the first translator is made): every language shows each message its domain's template holds
#: between :data:`PSEUDO_MARKS` (pseudo-translation, for devtools.fit's ``unmarked`` check: a word on screen outside
#: them was never marked for translation, or never extracted).
PSEUDO_ENV = "KIOSK_PSEUDO_LOCALE"
PSEUDO_MARKS = ("\u27e6", "\u27e7")


class _Pseudo(_gettext.NullTranslations):
    """The pseudo-translation of a domain (and the shell's, as a game's translator falls back to it)."""

    def __init__(self, domain: str) -> None:
        super().__init__()
        from babel.messages.pofile import read_po

        self._known: set[tuple[str | None, str]] = set()
        for d in {DOMAIN, domain}:
            pot = locale_dir(d) / f"{d}.pot"
            if pot.is_file():
                with open(pot, "rb") as f:
                    self._known |= {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in read_po(f)}

    def _mark(self, context: str | None, msgid: str, text: str) -> str:
        return f"{PSEUDO_MARKS[0]}{text}{PSEUDO_MARKS[1]}" if (context, msgid) in self._known else text

    def gettext(self, message: str) -> str:
        return self._mark(None, message, message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self._mark(None, msgid1, msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return self._mark(context, message, message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self._mark(context, msgid1, msgid1 if n == 1 else msgid2)


class Translator:
    """One language's messages, numbers and times. ``_`` is ``gettext``: kv rules write ``root.tr._('Join')``.

    ``domain``: a game's words (its folder's catalog) before the shell's; a game without a catalog reads the shell's."""

    def __init__(self, language: str, domain: str = DOMAIN) -> None:
        if language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r} (known: {', '.join(LANGUAGES)})")
        self.language = language
        self.domain = domain
        self.name = LANGUAGES[language]
        self._catalog: _gettext.NullTranslations = _gettext.NullTranslations()
        if os.environ.get(PSEUDO_ENV) == "1":
            self._catalog = _Pseudo(domain)
        elif language != SOURCE:
            self._catalog = _gettext.translation(DOMAIN, str(LOCALE_DIR), [language], fallback=False)
            if domain != DOMAIN:
                game = _gettext.translation(domain, str(locale_dir(domain)), [language], fallback=True)
                if type(game) is not _gettext.NullTranslations:  # the game has its own catalog
                    game.add_fallback(self._catalog)
                    self._catalog = game

    def __repr__(self) -> str:
        domain = "" if self.domain == DOMAIN else f", {self.domain!r}"
        return f"Translator({self.language!r}{domain})"

    def gettext(self, message: str) -> str:
        return self._catalog.gettext(message)

    _ = gettext

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._catalog.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self._catalog.pgettext(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self._catalog.npgettext(context, singular, plural, n)

    def sym(self, symbol: str) -> str:
        """A symbol (``✔``, ``↻``) in a text of this language: itself, or a stand-in its face has."""
        return _CJK_SYMBOLS.get(symbol, symbol) if self.face == CJK else symbol

    def level(self, level: str) -> str:
        """A bot level's name (``random``, ``easy``, ``normal``, ``hard``) in this language."""
        names = {
            "random": self.pgettext("bot level", "random"),
            "easy": self.pgettext("bot level", "easy"),
            "normal": self.pgettext("bot level", "normal"),
            "hard": self.pgettext("bot level", "hard"),
        }
        return names.get(level, level)

    def seat_name(self, name: str) -> str:
        """A seat's shape name (``kiosk.seats.SEAT_STYLES``: Circle, Triangle...) in this language."""
        names = {
            "Circle": self.pgettext("seat", "Circle"),
            "Triangle": self.pgettext("seat", "Triangle"),
            "Square": self.pgettext("seat", "Square"),
            "Diamond": self.pgettext("seat", "Diamond"),
            "Star": self.pgettext("seat", "Star"),
            "Heart": self.pgettext("seat", "Heart"),
        }
        return names.get(name, name)

    def ordinal(self, n: int) -> str:
        """A place: ``1st``, ``1位``, ``1.``, ``1er``/``2e``, ``1.º`` (the catalog's plural forms carry French's
        ``er``/``e``; a place is never 0)."""
        if self.language == SOURCE and not isinstance(self._catalog, _Pseudo):
            return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
        return self.npgettext("place", "{n}st", "{n}th", n).format(n=n)

    def number(self, value: float, format: str | None = None) -> str:
        """``value`` written the language's way (``1,234.5``, ``1.234,5``, ``1 234,5``). A whole number under 1000
        is its digits in every one of :data:`LANGUAGES`, and a number from 0 to 999 in a plain pattern (``0.0``,
        ``00.0``, ``0.00``: fixed digits, no grouping) is its digits rounded half to even around the language's
        decimal mark (:func:`decimal_mark`), as Babel writes them (tests/test_i18n.py checks), so scores, counts and
        race times are written without loading Babel (9 MB resident, in attract mode's budget)."""
        if format is None:
            if type(value) is int and -1000 < value < 1000:
                return str(value)
        elif (
            0 <= value < 1000 and (plain := _PLAIN_PATTERN.fullmatch(format)) and (mark := decimal_mark(self.language))
        ):
            whole, fraction = len(plain.group(1)), len(plain.group(2) or "")
            step = decimal.Decimal(1).scaleb(-fraction)
            rounded = decimal.Decimal(str(value)).quantize(step, decimal.ROUND_HALF_EVEN)
            text = f"{rounded:0{whole + (fraction + 1 if fraction else 0)}f}"
            return text.replace(".", mark)
        from babel.numbers import format_decimal

        return str(format_decimal(value, format=format, locale=self.language))

    def time(self, value: datetime.time | datetime.datetime, format: str = "short") -> str:
        """A clock time the language's way (``3:05 PM``, ``15:05``)."""
        from babel.dates import format_time

        return str(format_time(value, format=format, locale=self.language))

    @property
    def face(self) -> str:
        """The font this language's text is set in: :data:`CJK` for Japanese (once registered), else ``""``
        (the widget's own face)."""
        return font_for(self.language)


#: A number pattern of fixed digits and no grouping (``0``, ``00.0``, ``0.00``): :meth:`Translator.number` writes it.
_PLAIN_PATTERN = re.compile(r"(0+)(?:\.(0+))?")
#: Each language's decimal mark as Babel (CLDR) has it, written by ``python -m devtools.catalogs``.
NUMBERS_PATH = Path(__file__).parent / "locale" / "numbers.json"


@functools.cache
def decimal_mark(language: str) -> str | None:
    """The decimal mark of ``language`` (``.``, ``,``), from :data:`NUMBERS_PATH`; None for a language it lacks."""
    try:
        marks = json.loads(NUMBERS_PATH.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    mark = marks.get(language, {}).get("decimal")
    return mark if isinstance(mark, str) and mark else None


def N_(message: str) -> str:
    """Mark ``message`` for extraction where it is defined (a game's blurb, a table of names); it is translated
    where it is shown, through the reader's :class:`Translator` (``tr.gettext(spec.blurb)``)."""
    return message


@functools.cache
def translator(language: str, domain: str = DOMAIN) -> Translator:
    """The one :class:`Translator` of ``language`` for ``domain`` (the shell's, or a game's folder name), loaded
    once."""
    return Translator(language, domain)


def font_for(language: str) -> str:
    """The registered face for text in ``language``: :data:`CJK` for Japanese when the face is there, else ``""``."""
    return CJK if language in _CJK_LANGUAGES and _cjk_registered else ""


def register_cjk(bold: bool = False) -> bool:
    """Register the CJK face with Kivy (only the file names: the 19 MB face is opened when text first uses it).
    False when ``fonts-noto-cjk`` is missing (Japanese text then falls back to the default face).

    ``bold``: Japanese bold text in the face's bold (``NotoSansCJK-Bold.ttc`` beside the regular), asked for where
    every size of a weight is drawn from one open face (:mod:`kiosk.ui.textfaces`). Elsewhere Japanese is set in
    one weight, the regular (bold asked for is drawn regular: :func:`cjk_font_id`): a face opened per size costs
    about 2.5 MB resident for each size of each weight (FreeType's tables of a 65,000-glyph CFF font)."""
    global _cjk_registered
    path = Path(os.environ.get("KIOSK_CJK_FONT", CJK_PATH))
    if path.is_file() and (not _cjk_registered or bold and not _CJK_BOLD):
        from kivy.core.text import LabelBase

        heavy = path.with_name(path.name.replace("-Regular", "-Bold"))
        with_bold = bold and heavy != path and heavy.is_file()
        LabelBase.register(CJK, str(path), fn_bold=str(heavy) if with_bold else None)
        _CJK_FILES.add(str(path))
        if with_bold:
            _CJK_BOLD.add(str(heavy))
        _cjk_registered = True
    return _cjk_registered


_CJK_FILES: set[str] = set()
_CJK_BOLD: set[str] = set()


def cjk_font_id(options: dict[str, Any]) -> None:
    """Called as Kivy keys a text's font (``kiosk.ui.typescale.share_fonts_by_pixel_size``): text in the CJK face
    is set regular (see :func:`register_cjk`), so that bold and regular text of one size share one open face."""
    if options.get("bold") and options.get("font_name_r") in _CJK_FILES:
        options["bold"] = False


def extract_kv(
    fileobj: Any, keywords: Any, comment_tags: Collection[str], options: dict[str, Any]
) -> Iterator[tuple[Any, ...]]:
    """Babel extraction for kv files: each line's Python expression through Babel's Python extractor (so
    ``root.tr._('Join')``, ``ngettext`` and ``pgettext`` calls are found; a call must sit on one line)."""
    from babel.messages.extract import extract_python

    encoding = options.get("encoding", "utf-8")
    for lineno, line in enumerate(fileobj.read().decode(encoding).splitlines(), 1):
        code = line.strip()
        if "(" not in code or code.startswith("#"):
            continue
        try:
            found = list(extract_python(io.BytesIO(code.encode("utf-8")), keywords, comment_tags, {}))
        except (SyntaxError, tokenize.TokenError):
            continue
        for _line, funcname, messages, comments in found:
            yield lineno, funcname, messages, comments


def extract_json_words(
    fileobj: Any, keywords: Any, comment_tags: Collection[str], options: dict[str, Any]
) -> Iterator[tuple[Any, ...]]:
    """Babel extraction for the words a player reads in a game's data file (``cards.json``: ingredients, recipes'
    names, action cards), where the engine keeps them in English; they are translated where shown
    (:func:`kiosk.ui.words.game_word`). ``babel.cfg`` names them by paths (option ``words``, space-separated):
    a path's steps are keys, ``*`` every value of a mapping or list, and a last ``@`` the keys of the mapping
    there (``pantry.*.@ recipes.*.name actions.@``); keys starting with ``_`` are notes, never words."""
    import json

    data = json.loads(fileobj.read().decode(options.get("encoding", "utf-8")))

    def walk(node: Any, steps: list[str]) -> Iterator[str]:
        if not steps:
            if isinstance(node, str) and node:
                yield node
            return
        step, rest = steps[0], steps[1:]
        if isinstance(node, dict):
            keys = [k for k in node if k and not k.startswith("_")]
            if step == "@":
                yield from keys
            elif step == "*":
                for k in keys:
                    yield from walk(node[k], rest)
            elif step in node:
                yield from walk(node[step], rest)
        elif isinstance(node, list) and step == "*":
            for value in node:
                yield from walk(value, rest)

    for path in str(options.get("words", "")).split():
        for word in walk(data, path.split(".")):
            yield 1, "gettext", word, []


def extract_howto(
    fileobj: Any, keywords: Any, comment_tags: Collection[str], options: dict[str, Any]
) -> Iterator[tuple[Any, ...]]:
    """Babel extraction for a game's ``howto.json``: each step's ``title`` and ``text`` (a step's words are looked up
    with ``gettext`` as they stand in the file)."""
    import json

    steps = json.loads(fileobj.read().decode(options.get("encoding", "utf-8")))
    for number, step in enumerate(steps, 1):
        for field in ("title", "text"):
            if isinstance(step, dict) and isinstance(step.get(field), str) and step[field]:
                yield number, "gettext", step[field], [f"how-to step {number}: {field}"]
