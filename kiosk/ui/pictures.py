"""The pieces' pictures: one atlas (a PNG and a Kivy ``.atlas`` index) rendered from Noto Color Emoji.

Every ingredient, teacup, action card, Makoto card kind, Takoyaki topping and title picture the screens draw is a
colour glyph of the Noto Color Emoji font (SIL Open Font License 1.1; Debian ``fonts-noto-color-emoji``; the
licence text is in the repository's ``licenses/`` folder). Kivy's own text rendering draws no colour emoji, so
Pillow renders the glyphs once (the font holds bitmaps at 109 px only: ``embedded_color=True`` at that size)
into a single atlas in the cache folder, and Kivy loads them as ``atlas://`` images (one texture, one upload).

>>> sorted(gather_pictures({"maki": {"salmon": "\U0001f363"}}))
['bot', 'party', 'salmon', 'star', 'touch', 'trophy']
>>> picture_name("Cream Cheese")
'cream_cheese'

Rationale and decisions: docs/developer/design.md, section ``kiosk/ui/pictures.py``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from kiosk.config import default_state_dir

log = logging.getLogger("kiosk.ui.pictures")

__all__ = [
    "PICTURES",
    "SHELL_PICTURES",
    "gather_pictures",
    "use_pictures",
    "EMOJI_FONT",
    "CELL",
    "ATLAS_NAME",
    "picture_name",
    "cache_dir",
    "build_atlas",
    "ensure_atlas",
    "picture",
    "has_picture",
    "reset",
]

#: Where Debian's fonts-noto-color-emoji puts the font; ``KIOSK_EMOJI_FONT`` overrides it (tests, other systems).
EMOJI_FONT = Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
#: The font's only bitmap size: Pillow refuses others for this font.
GLYPH_PX = 109
#: One atlas cell, in pixels (the glyph bitmap is 136 x 128; it is scaled to fit, keeping its aspect).
CELL = 128
ATLAS_NAME = "pieces"

#: The shell's own pictures (picture name -> glyph); every game's are in its folder's ``look.PICTURES``.
SHELL_PICTURES: dict[str, str] = {
    "trophy": "\U0001f3c6",
    "touch": "\U0001f446",
    "bot": "\U0001f916",  # a robot's face: a seat a bot plays
    "party": "\U0001f389",
    "star": "\u2b50",
}


def gather_pictures(games: Mapping[str, Mapping[str, str]]) -> dict[str, str]:
    """The shell's pictures and the games' (``games``: game key -> its ``look.PICTURES``, as the registry's
    :func:`kiosk.games.pictures_of` gives them). Ingredient names are the engines' kind names through
    :func:`picture_name` ("Cream Cheese" -> ``cream_cheese``). Two games may share a picture name only with the same
    glyph."""
    found = dict(SHELL_PICTURES)
    for key, table in games.items():
        for name, glyph in table.items():
            if found.setdefault(name, glyph) != glyph:
                raise ValueError(f"picture {name!r} of {key} differs from another game's")
    return found


#: Picture name -> the glyph drawn for it: chosen to tell apart at a glance from any side of the table; the words
#: stay in the trays and the how-to. The shell's own until the caller hands the games' (:func:`use_pictures`).
PICTURES: dict[str, str] = dict(SHELL_PICTURES)


def use_pictures(games: Mapping[str, Mapping[str, str]]) -> None:
    """Make :data:`PICTURES` the shell's and ``games``' pictures (see :func:`gather_pictures`). Its caller knows
    the games: the app's build (before its first frame) and ``python -m kiosk.ui.pictures``. A changed table
    forgets the remembered atlas, which is then checked against the new table (and rendered again if stale)."""
    table = gather_pictures(games)
    if table != PICTURES:
        PICTURES.clear()
        PICTURES.update(table)
        reset()


def picture_name(kind: str) -> str:
    """The picture name of an engine's kind or card name: lower case, words joined by ``_``."""
    return "_".join(kind.lower().replace("!", "").replace("-", " ").split())


def font_path() -> Path:
    env = os.environ.get("KIOSK_EMOJI_FONT")
    return Path(env) if env else EMOJI_FONT


def cache_dir() -> Path:
    """``$KIVY_HOME/pictures``; without ``KIVY_HOME``, where the kiosk puts it by default (``<state>/kivy``)."""
    home = os.environ.get("KIVY_HOME")
    if home:
        return Path(home) / "pictures"

    return default_state_dir() / "kivy" / "pictures"


def _stamp(font: Path) -> str:
    st = font.stat()
    table = json.dumps(PICTURES, sort_keys=True)
    return hashlib.sha256(f"{table}|{CELL}|{font.name}|{st.st_size}|{int(st.st_mtime)}".encode()).hexdigest()[:16]


def build_atlas(folder: Path, font: Path | None = None) -> Path:
    """Render every picture of :data:`PICTURES` into ``folder/pieces.png`` + ``folder/pieces.atlas``.

    Returns the ``.atlas`` path. Raises ``OSError`` if the font cannot be read and ``ImportError`` without
    Pillow (:func:`ensure_atlas` turns both into "no pictures")."""
    from PIL import Image, ImageDraw, ImageFont  # (Pillow's drawing: only when the atlas is rendered)

    font = font or font_path()
    face = ImageFont.truetype(str(font), GLYPH_PX)
    names = sorted(PICTURES)
    cols = 8
    rows = (len(names) + cols - 1) // cols
    sheet = Image.new("RGBA", (cols * CELL, rows * CELL), (0, 0, 0, 0))
    index: dict[str, list[int]] = {}
    for i, name in enumerate(names):
        glyph = PICTURES[name]
        left, top, right, bottom = (int(v) for v in face.getbbox(glyph))
        w, h = max(1, right - left), max(1, bottom - top)
        one = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        ImageDraw.Draw(one).text((-left, -top), glyph, font=face, embedded_color=True)
        box = one.getbbox()  # the inked part: the glyphs' bitmaps have uneven margins
        if box:
            one = one.crop(box)
        scale = (CELL - 4) / max(one.size)
        one = one.resize(
            (max(1, round(one.width * scale)), max(1, round(one.height * scale))), Image.Resampling.LANCZOS
        )
        col, row = i % cols, i // cols
        x = col * CELL + (CELL - one.width) // 2
        y = row * CELL + (CELL - one.height) // 2
        sheet.alpha_composite(one, (x, y))
        # Kivy's atlas coordinates start at the image's bottom-left corner
        index[name] = [col * CELL, sheet.height - (row + 1) * CELL, CELL, CELL]
    folder.mkdir(parents=True, exist_ok=True)
    png = folder / f"{ATLAS_NAME}.png"
    atlas = folder / f"{ATLAS_NAME}.atlas"
    tmp_png = folder / f".{ATLAS_NAME}.png.tmp"
    tmp_atlas = folder / f".{ATLAS_NAME}.atlas.tmp"
    sheet.save(tmp_png, format="PNG")
    tmp_atlas.write_text(json.dumps({f"{ATLAS_NAME}.png": index}), encoding="utf-8")
    os.replace(tmp_png, png)
    os.replace(tmp_atlas, atlas)
    (folder / "stamp").write_text(_stamp(font), encoding="utf-8")  # last: a half-built atlas is never stamped
    return atlas


_atlas: Path | None = None
_checked = False


def ensure_atlas(folder: Path | None = None) -> Path | None:
    """The atlas's ``.atlas`` path, built if missing or stale; ``None`` when pictures cannot be had here.

    Checked once per process (the result is remembered; :func:`reset` forgets it)."""
    global _atlas, _checked
    if _checked and folder is None:
        return _atlas
    folder = folder or cache_dir()
    font = font_path()
    result: Path | None = None
    try:
        atlas = folder / f"{ATLAS_NAME}.atlas"
        stamp = folder / "stamp"
        if not font.is_file():
            log.warning("no picture font at %s: pieces are drawn as shapes (install fonts-noto-color-emoji)", font)
        elif atlas.is_file() and stamp.is_file() and stamp.read_text(encoding="utf-8") == _stamp(font):
            result = atlas
        else:
            result = build_atlas(folder, font)
            log.info("pictures rendered into %s", result)
    except (OSError, ImportError, ValueError) as exc:
        log.warning("pictures unavailable (%s): pieces are drawn as shapes", exc)
        result = None
    _atlas, _checked = result, True
    return result


def reset() -> None:
    """Forget the remembered atlas (tests, or after the cache folder was cleared)."""
    global _atlas, _checked
    _atlas, _checked = None, False


def picture(name: str) -> str:
    """A Kivy image source for picture ``name`` (``atlas://…/pieces/salmon``), or ``""`` without pictures.

    Unknown names give ``""`` too: a widget then shows its fallback shape."""
    atlas = ensure_atlas()
    key = picture_name(name)
    if atlas is None or key not in PICTURES:
        return ""
    return f"atlas://{atlas.with_suffix('')}/{key}"


def has_picture(name: str) -> bool:
    return picture_name(name) in PICTURES


def main(argv: list[str] | None = None, games: Mapping[str, Mapping[str, str]] | None = None) -> int:
    """``python -m kiosk.ui.pictures [FOLDER]``: render the atlas of the registered games' pictures now (at install
    time); prints its path. ``games``: as for :func:`use_pictures` (None: the table as it is)."""
    if games is not None:
        use_pictures(games)
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else cache_dir()
    atlas = ensure_atlas(folder)
    if atlas is None:
        print("pictures unavailable: pieces will be drawn as shapes", file=sys.stderr)
        return 1
    print(atlas)
    return 0


if __name__ == "__main__":  # the command is the top: it reads the game registry and hands it to the kit
    from kiosk.games import GAMES, pictures_of

    raise SystemExit(main(games=pictures_of(GAMES)))
