"""Languages: every seat reads its own (English, Japanese, German, French, Spanish) through gettext catalogs.

``kiosk/locale/<lang>/LC_MESSAGES/kiosk.po`` are the sources, their compiled ``kiosk.mo`` are committed beside
them; English is the source language (no catalog). A :class:`Translator` per language gives ``gettext`` (alias
``_``), ``ngettext`` and ``pgettext`` (plural forms by the catalog's ``Plural-Forms``), numbers and times by Babel,
and the face its text is set in (Japanese needs the CJK face, :data:`CJK`). Strings in kv are marked as
``root.tr._('...')`` and found by :func:`extract_kv` (``babel.cfg``); extract, update and compile:
docs/developer/languages.md.

>>> translator("de").ngettext("{n} bot", "{n} bots", 2).format(n=2)
'2 Bots'
>>> translator("fr").pgettext("bot level", "hard"), translator("en").gettext("Join"), LANGUAGES["ja"]
('difficile', 'Join', '日本語')
"""

from __future__ import annotations

import datetime
import functools
import gettext as _gettext
import io
import os
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
    "extract_kv",
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
CJK_BOLD_PATH = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc")
#: Symbols the CJK face lacks, and the stand-in a text set in it shows (``Translator.sym``).
_CJK_SYMBOLS: dict[str, str] = {}
#: Languages whose text needs the CJK face.
_CJK_LANGUAGES = frozenset({"ja"})
_cjk_registered = False


class Translator:
    """One language's messages, numbers and times. ``_`` is ``gettext``: kv rules write ``root.tr._('Join')``."""

    def __init__(self, language: str) -> None:
        if language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r} (known: {', '.join(LANGUAGES)})")
        self.language = language
        self.name = LANGUAGES[language]
        self._catalog: _gettext.NullTranslations = (
            _gettext.NullTranslations()
            if language == SOURCE
            else _gettext.translation(DOMAIN, str(LOCALE_DIR), [language], fallback=False)
        )

    def __repr__(self) -> str:
        return f"Translator({self.language!r})"

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
        if self.language == SOURCE:
            return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
        return self.npgettext("place", "{n}st", "{n}th", n).format(n=n)

    def number(self, value: float, format: str | None = None) -> str:
        """``value`` written the language's way (``1,234.5``, ``1.234,5``, ``1 234,5``)."""
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


@functools.cache
def translator(language: str) -> Translator:
    """The one :class:`Translator` of ``language`` (loaded once)."""
    return Translator(language)


def font_for(language: str) -> str:
    """The registered face for text in ``language``: :data:`CJK` for Japanese when the face is there, else ``""``."""
    return CJK if language in _CJK_LANGUAGES and _cjk_registered else ""


def register_cjk() -> bool:
    """Register the CJK face with Kivy (only the file names: the 19 MB face is opened when text first uses it).
    False when ``fonts-noto-cjk`` is missing (Japanese text then falls back to the default face)."""
    global _cjk_registered
    path = Path(os.environ.get("KIOSK_CJK_FONT", CJK_PATH))
    if not _cjk_registered and path.is_file():
        from kivy.core.text import LabelBase

        bold = str(CJK_BOLD_PATH) if CJK_BOLD_PATH.is_file() and "KIOSK_CJK_FONT" not in os.environ else None
        LabelBase.register(CJK, str(path), fn_bold=bold)
        _cjk_registered = True
    return _cjk_registered


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
