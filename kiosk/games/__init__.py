"""The registry of games: ``GAMES`` maps a key to its :class:`kiosk.engine.GameSpec`.

A game is one folder ``kiosk/games/<key>/`` whose ``__init__.py`` exposes ``SPEC``; it is found here without
being listed, so a fifth game is one folder (plus its screen's ``.kv`` file).
"""

from __future__ import annotations

import importlib
import pkgutil

from kiosk.engine import GameSpec

#: The order games appear in on the picker; discovered games not listed here follow alphabetically.
ORDER = ("maki", "wasabi", "makoto", "takoyaki")


def _discover() -> dict[str, GameSpec]:
    found: dict[str, GameSpec] = {}
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        spec = getattr(module, "SPEC", None)
        if isinstance(spec, GameSpec):
            if spec.key != info.name:
                raise RuntimeError(f"game folder {info.name!r} declares key {spec.key!r}")
            found[spec.key] = spec
    ordered = [k for k in ORDER if k in found] + sorted(k for k in found if k not in ORDER)
    return {k: found[k] for k in ordered}


GAMES: dict[str, GameSpec] = _discover()

__all__ = ["GAMES", "GameSpec"]
