"""The widget kit every screen uses (seat zones, pieces, type scale, text faces, words); the shell's screens are in
:mod:`kiosk.shell`, the board kit in :mod:`kiosk.board`. kv lives in two kinds of places: ``layouts/*.kv`` for the
shell's screens (one file per screen, plus the shared widget rules in ``common.kv``), and beside the module of the
widgets it styles (``kiosk/ui/pieces.kv``, ``kiosk/board/board.kv``, a game's ``screen.kv`` and ``pieces.kv`` in its
folder), loaded with :func:`load_kv` by that module.

Every ``.kv`` file is loaded exactly once per process (a second load would duplicate its rules); files are
located through the packages' ``__file__``, so this works from an installed wheel.
"""

from __future__ import annotations

from pathlib import Path

_LOADED: set[str] = set()

#: The shell's kv files in load order: shared widget rules first, then one file per screen. Only these are
#: loaded (a stray ``.kv`` left in the folder, e.g. by an old build, would duplicate rules).
ORDER = (
    "common.kv",
    "overlay.kv",
    "seatmenu.kv",
    "attract.kv",
    "replay.kv",
    "picker.kv",
    "join.kv",
    "game.kv",
    "focus.kv",
    "results.kv",
    "marks.kv",
    "pinpad.kv",
    "operator.kv",
    "diagnostics.kv",
)


def layouts_dir() -> Path:
    import layouts  # (the kv files: read when the layouts load, not when the kit is imported)

    return Path(layouts.__file__).parent


def load_kv(path: Path | str) -> bool:
    """Load one ``.kv`` file unless it is loaded already; True when loaded now."""
    from kivy.lang import Builder  # (Kivy's kv parser: only when the layouts load)

    key = str(path)
    if key in _LOADED or key in Builder.files:
        return False
    Builder.load_file(key)
    _LOADED.add(key)
    return True


#: What the first attract frame needs (the call, the corner mark, the shared rules): the app's ``build`` loads only
#: these, the lazy build the rest right after the first frame (parsing all the shell's files took about 0.25 s, a
#: third of a bare Kivy app's whole start).
FIRST_FRAME = ("common.kv", "attract.kv", "marks.kv")


def load_layouts(names: tuple[str, ...] = ORDER) -> list[str]:
    """Load the shell's kv files ``names`` (default: all) not loaded yet, in :data:`ORDER`; returns the names
    loaded now."""
    folder = layouts_dir()
    from kiosk.ui import fitting  # noqa: F401  (FitLabel, FitButton, ShrinkToFit: the shared rules use them)

    return [name for name in ORDER if name in names and load_kv(folder / name)]
