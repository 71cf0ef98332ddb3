"""The registry of games: ``GAMES`` maps a key to its :class:`kiosk.engine.GameSpec`.

A game is one folder ``<key>/`` in this package whose ``__init__.py`` exposes ``SPEC``; it is found here without
being listed, so a fifth game is one folder: rules and ``SPEC`` with bots at the four levels (``random``,
``easy``, ``normal``, ``hard``: ``tests/test_conformance.py`` plays each); optionally ``screen.py`` (with its ``.kv``
next to it; without one the game plays on the generic screen) and ``howto.json``. The developer's guide starts
from ``examples/games/highcard/``.

* ``howto.json``: the how-to-play steps, a list of ``{"title": ..., "text": ..., "pictures": [names]}`` (a step
  may add ``"demo": {"players", "seed", "moves", "level"}``: real moves shown by :mod:`kiosk.shell.demo`), loaded
  into ``SPEC.howto`` when the spec declares none (the shell builds a generic how-to from the spec otherwise).
* Extra folders: ``$KIOSK_GAMES_PATH`` (directories separated by ``os.pathsep``) is added to this package's
  search path before discovery, so a game kept outside the installed package (a game in development, a test's
  throwaway game) is imported as ``kiosk.games.<key>`` like the built-in ones and shows up in the picker.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import pkgutil
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from kiosk.engine import GameSpec

#: The order games appear in on the picker; discovered games not listed here follow alphabetically.
ORDER = ("maki", "wasabi", "makoto", "takoyaki")

#: The environment variable naming extra game folders (see the module docstring).
PATH_ENV = "KIOSK_GAMES_PATH"


def load_howto(path: Path) -> list[dict[str, Any]]:
    """The steps of a ``howto.json``; a step without a title or text is refused with a message naming the file."""
    steps = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(steps, list):
        raise ValueError(f"{path}: a how-to is a list of steps")
    out = []
    for i, step in enumerate(steps):
        if (
            not isinstance(step, dict)
            or not isinstance(step.get("title"), str)
            or not isinstance(step.get("text"), str)
        ):
            raise ValueError(f"{path}: step {i + 1} needs a text 'title' and 'text'")
        pictures = step.get("pictures", [])
        if not isinstance(pictures, list) or not all(isinstance(p, str) for p in pictures):
            raise ValueError(f"{path}: step {i + 1}'s 'pictures' must be a list of names")
        demo = step.get("demo")
        if demo is not None and (
            not isinstance(demo, dict)
            or not set(demo) <= {"players", "seed", "moves", "level"}
            or not all(isinstance(v, int) for k, v in demo.items() if k != "level")
            or not isinstance(demo.get("level", ""), str)
        ):
            raise ValueError(
                f"{path}: step {i + 1}'s 'demo' must be an object with whole numbers 'players', 'seed', 'moves' "
                "and a text 'level'"
            )
        entry: dict[str, Any] = {"title": step["title"], "text": step["text"], "pictures": list(pictures)}
        if demo is not None:
            entry["demo"] = dict(demo)
        out.append(entry)
    return out


def look_of(key: str) -> ModuleType | None:
    """A game's look (``kiosk.games.<key>.look``: its pictures, colours, motion table), None when it has none."""
    name = f"{__name__}.{key}.look"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None
        raise


def pictures_of(keys: Iterable[str]) -> dict[str, dict[str, str]]:
    """Each game's pictures by key (its ``look.PICTURES``: picture name -> glyph; none without a look): what the
    caller hands the picture kit (:func:`kiosk.ui.pictures.use_pictures`)."""
    return {key: dict(getattr(look_of(key), "PICTURES", {})) for key in keys}


def categories_of(keys: Iterable[str]) -> dict[str, dict[str, tuple[str, tuple[float, float, float, float], str]]]:
    """Each game's ingredient categories by key (its ``look.CATEGORIES``: category -> symbol, rgba, name): what the
    caller hands the piece kit (:func:`kiosk.ui.pieces.use_categories`)."""
    return {key: dict(getattr(look_of(key), "CATEGORIES", {})) for key in keys}


def discover(extra_paths: Iterable[str | Path] = ()) -> dict[str, GameSpec]:
    """Every game folder of this package (and of ``extra_paths``, added to its search path), in picker order."""
    for extra in extra_paths:
        if str(extra) not in __path__:
            __path__.append(str(extra))
    found: dict[str, GameSpec] = {}
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg or info.name in found:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        spec = getattr(module, "SPEC", None)
        if not isinstance(spec, GameSpec):
            continue
        if spec.key != info.name:
            raise RuntimeError(f"game folder {info.name!r} declares key {spec.key!r}")
        howto = Path(module.__file__ or "").parent / "howto.json"
        if not spec.howto and howto.exists():
            spec = dataclasses.replace(spec, howto=tuple(load_howto(howto)))
            vars(module)["SPEC"] = spec  # one spec object, wherever it is looked up
        found[spec.key] = spec
    ordered = [k for k in ORDER if k in found] + sorted(k for k in found if k not in ORDER)
    return {k: found[k] for k in ordered}


def _env_paths(env: Mapping[str, str]) -> list[str]:
    return [p for p in env.get(PATH_ENV, "").split(os.pathsep) if p]


GAMES: dict[str, GameSpec] = discover(_env_paths(os.environ))

__all__ = [
    "GAMES",
    "ORDER",
    "PATH_ENV",
    "GameSpec",
    "discover",
    "load_howto",
    "look_of",
    "pictures_of",
    "categories_of",
]
