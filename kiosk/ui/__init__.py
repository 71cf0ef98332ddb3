"""The kiosk's screens and widgets. Their looks live in ``layouts/*.kv`` (one file per screen).

:func:`load_layouts` loads every ``.kv`` file of the ``layouts`` package exactly once per process (a second load
would duplicate its rules), located through ``Path(layouts.__file__).parent`` so it works from an installed
wheel. ``layouts/diagnostics.kv`` belongs to the hardware layer and is loaded with the rest when present.
"""

from __future__ import annotations

from pathlib import Path

_LOADED: set[str] = set()

#: Load order: shared widget rules first, then one file per screen.
ORDER = ("common.kv", "overlay.kv", "attract.kv", "picker.kv", "join.kv", "game.kv", "results.kv", "operator.kv")


def layouts_dir() -> Path:
    import layouts

    return Path(layouts.__file__).parent


def load_layouts() -> list[str]:
    """Load the kv files not loaded yet; returns the names loaded now."""
    from kivy.lang import Builder

    folder = layouts_dir()
    names = [n for n in ORDER if (folder / n).exists()]
    names += sorted(p.name for p in folder.glob("*.kv") if p.name not in ORDER)
    loaded = []
    for name in names:
        path = str(folder / name)
        if path in _LOADED or path in Builder.files:
            continue
        Builder.load_file(path)
        _LOADED.add(path)
        loaded.append(name)
    return loaded
