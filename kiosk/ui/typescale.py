"""One type scale and one pair of faces for the whole table, and the minimum sizes a player can use.

**Sizes.** Every text size is a step of :data:`SCALE`, in pixels at a 1080-pixel short edge, times the app's
unit ``u`` (``min(window size) / 1080``, the shell's ``app.u``): :func:`px`. The smallest step a player must read
is ``small`` (19 px at 1920x1080, 14.1 px at 1280x800), so nothing a player reads is under the minimums the
table promises: 18 px at 1080 and 14 px at 800 (:func:`min_text_px`; in between, linear). ``tiny`` (16 px at
1080) is for what nobody needs to read to play: a square's name in a corner, an operator's footnote.

**Touch.** A touch target is at least 60 x 60 px at 1920x1080 and 44 x 44 px at 1280x800
(:func:`min_target_px`; ``TARGET`` x ``u`` always meets it).

>>> px("body", 1.0), round(px("small", 800 / 1080), 1)
(22.0, 14.1)
>>> min_text_px((1920, 1080)), min_text_px((1280, 800)), min_target_px((1280, 800))
(18.0, 14.0, 44.0)

Rationale and decisions: docs/developer/design.md, section ``kiosk/ui/typescale.py``.
"""

from __future__ import annotations

import functools
import logging
import os
from pathlib import Path
from typing import Any

from kiosk.i18n import cjk_font_id, font_for, register_cjk
from kiosk.ui import textfaces

log = logging.getLogger("kiosk.ui.typescale")

__all__ = [
    "SCALE",
    "TARGET",
    "SANS",
    "SYMBOLS",
    "px",
    "min_text_px",
    "min_target_px",
    "register_fonts",
    "share_fonts_by_pixel_size",
    "face",
    "covers",
]

#: Text steps in pixels at a 1080-pixel short edge. ``small`` is the least a player must read.
SCALE: dict[str, float] = {
    "tiny": 16.0,
    "small": 19.0,
    "body": 22.0,
    "label": 26.0,
    "title": 32.0,
    "heading": 40.0,
    "display": 56.0,
    "hero": 84.0,
}
#: The side of the smallest touch target, in pixels at a 1080-pixel short edge.
TARGET = 60.0

SANS = "KioskSans"
SYMBOLS = "KioskSymbols"
INTER_DIR = Path("/usr/share/fonts/opentype/inter")
DEJAVU = "data/fonts/DejaVuSans.ttf"
#: Kivy ships DejaVu Sans without its bold; Debian's fonts-dejavu-core has it (else SDL emboldens the regular).
DEJAVU_BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")


def px(step: str, u: float) -> float:
    """The size of text step ``step`` for the app unit ``u`` (``app.u``)."""
    return SCALE[step] * u


def _between(short: float, at800: float, at1080: float) -> float:
    if short >= 1080:
        return at1080
    if short <= 800:
        return at800
    return at800 + (at1080 - at800) * (short - 800) / 280


def min_text_px(window: tuple[float, float]) -> float:
    """The smallest text a player may have to read in a window of this size (18 px at 1080, 14 px at 800)."""
    return _between(min(window), 14.0, 18.0)


def min_target_px(window: tuple[float, float]) -> float:
    """The smallest side of a touch target in a window of this size (60 px at 1080, 44 px at 800)."""
    return _between(min(window), 44.0, 60.0)


def inter_paths() -> tuple[Path, Path] | None:
    folder = Path(os.environ.get("KIOSK_UI_FONT_DIR", INTER_DIR))
    regular, bold = folder / "Inter-Regular.otf", folder / "Inter-Bold.otf"
    return (regular, bold) if regular.is_file() and bold.is_file() else None


_registered = False


def register_fonts() -> bool:
    """Register ``KioskSans``, ``KioskSymbols`` and the CJK face with Kivy (once). True when Inter is used."""
    global _registered
    # (a Kivy core provider: chosen on first import, once Kivy is set up)
    from kivy.core.text import LabelBase

    inter = inter_paths()
    if not _registered:
        bold = str(DEJAVU_BOLD) if DEJAVU_BOLD.is_file() else None
        if inter is None:
            log.warning("Inter not found in %s: text falls back to DejaVu Sans (install fonts-inter)", INTER_DIR)
            LabelBase.register(SANS, DEJAVU, fn_bold=bold)
        else:
            LabelBase.register(SANS, str(inter[0]), fn_bold=str(inter[1]))
        LabelBase.register(SYMBOLS, DEJAVU, fn_bold=bold)

        one_face = textfaces.install()  # one open face per font file, at every size
        if not one_face:
            share_fonts_by_pixel_size()
        # Japanese at a seat: kiosk.i18n.font_for (the face is opened only when text uses it), bold in its own
        # weight where that costs one face, not one per size
        register_cjk(bold=one_face)
        _registered = True
    return inter is not None


_FONT_ID_OPTIONS = ("font_name_r", "bold", "italic", "underline", "strikethrough")


def share_fonts_by_pixel_size() -> bool:
    """Make Kivy's SDL2 text provider keep one open font per whole pixel size instead of one per exact size.

    Why (measured, docs/look.md "Memory"): SDL2_ttf opens a font at a whole point size (``int(font_size)``), but
    Kivy's SDL2 provider keys its font cache by the exact size (``str(font_size)``). Sizes computed from the
    window (``app.u * 19``, a fraction of a tile) give hundreds of distinct sizes that open the same font at
    the same whole size again: about 0.4 MB of resident memory each, never given back to the system, and a
    font file opened again whenever the 64-font cache evicts one during layout. 200 labels in 200 sizes cost
    80 MB more than in one size. Keyed by the whole size they share one font, and the text is drawn exactly
    as before (the same ``int(font_size)`` is opened). Other text providers are left alone. True when set."""
    # (a Kivy core provider: chosen on first import, once Kivy is set up)
    from kivy.core.text import Label as CoreLabel

    if CoreLabel.__name__ != "LabelSDL2":
        log.info("text provider %s: fonts are cached as Kivy does", CoreLabel.__name__)
        return False

    def _get_font_id(self: Any) -> str:
        options = self.options
        cjk_font_id(options)  # Japanese in one weight: one open face per size (kiosk.i18n.register_cjk)
        return "|".join([str(int(options["font_size"]))] + [str(options[x]) for x in _FONT_ID_OPTIONS])

    CoreLabel._get_font_id = _get_font_id
    return True


@functools.lru_cache(maxsize=4096)
def covers(ch: str) -> bool:
    """Whether the words face (Inter) has a glyph for character ``ch`` (False without Inter or Pillow)."""
    if ch.isascii():
        return inter_paths() is not None
    probe = _probe()
    if probe is None:
        return False
    font, notdef = probe
    try:
        return ch.isspace() or _ink(font, ch) != notdef
    except (OSError, ValueError):
        return False


def _ink(font: Any, ch: str) -> bytes:
    from PIL import Image, ImageDraw  # (Pillow: only when a glyph's coverage is probed)

    im = Image.new("L", (48, 48))
    ImageDraw.Draw(im).text((8, 4), ch, font=font, fill=255)
    return im.tobytes()


@functools.lru_cache(maxsize=1)
def _probe() -> tuple[Any, bytes] | None:
    inter = inter_paths()
    if inter is None:
        return None
    try:
        from PIL import ImageFont  # (Pillow: only when a glyph's coverage is probed)

        font = ImageFont.truetype(str(inter[0]), 24)
        return font, _ink(font, "\U000f0000")  # a private-use code point: what a missing glyph draws
    except (OSError, ImportError):
        return None


@functools.lru_cache(maxsize=8192)
def face(text: str) -> str:
    """The registered font name to set ``text`` in: ``KioskSans`` unless Inter lacks one of its characters.

    Markup tags are plain ASCII, so markup text works too. Japanese text (kana, kanji, full-width forms) is set in
    the CJK face (:data:`kiosk.i18n.CJK`, when registered)."""
    return cjk_face(text) or (SANS if all(covers(ch) for ch in set(text)) else SYMBOLS)


def cjk_face(text: str) -> str:
    """The CJK face (:data:`kiosk.i18n.CJK`) when ``text`` holds Japanese (kana, kanji, full-width forms) and the
    face is registered, else ``""``: kv rules write ``font_name: cjk_face(self.text) or FONT`` for a text that is
    Japanese only sometimes (a board's rows, a game's words not yet translated)."""

    if any("\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" for ch in text):
        return font_for("ja")
    return ""
