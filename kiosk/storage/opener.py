"""Opening the kiosk's stores off the UI thread: the scores file, the game journals and the resume offers.

Reading a large scores file or replaying journals can take seconds on a Pi's SD card; none of it may hold the
UI thread (the rule is 100 ms). :func:`open_in_background` does all of it in a thread and hands the result to a
callback (the app passes it on to the UI thread with ``Clock.schedule_once``). The files are parsed record by
record (:mod:`kiosk.safejson`) and the cyclic garbage collector pauses meanwhile (see ``run`` below), so
the UI thread keeps drawing: ``benchmarks/bench_storage.py`` measures its longest stall while a large file
opens::

    thread = open_in_background(state_dir, lower_is_better=lower, specs=GAMES, done=on_opened)

:func:`open_storage` is the same work in the caller's thread, for tools and tests. Neither ever raises: a store
that cannot be used is an ``Unavailable...`` object with its reason, and a failure while looking for unfinished
games (which the stores themselves already guard per journal) leaves no offers and a log line.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk import clock

from .journal import SavedGames, UnavailableSavedGames, UnfinishedGame
from .scores import HighScores, UnavailableHighScores

__all__ = ["OpenedStorage", "open_storage", "open_in_background"]

log = logging.getLogger("kiosk.storage")


@dataclass
class OpenedStorage:
    """The stores the kiosk runs with, the games to offer back, and how long opening took."""

    scores: HighScores | UnavailableHighScores
    saved_games: SavedGames | UnavailableSavedGames
    offers: list[UnfinishedGame] = field(default_factory=list)
    seconds: float = 0.0


def open_storage(
    state_dir: Path | str, *, lower_is_better: Mapping[str, bool] | None = None, specs: Mapping[str, Any] | None = None
) -> OpenedStorage:
    """Open ``<state_dir>/scores.json`` and ``<state_dir>/games`` and look for unfinished games. Never raises."""
    start = time.monotonic()
    state_dir = Path(state_dir)
    scores = HighScores.open_or_unavailable(state_dir / "scores.json", lower_is_better=lower_is_better)
    saved = SavedGames.open_or_unavailable(state_dir / "games", specs=specs)
    try:
        offers = list(saved.startup())
    except Exception as exc:  # startup guards every journal; this is the last line of defence
        log.error("could not look for unfinished games: %s", exc)
        offers = []
    return OpenedStorage(scores, saved, offers, time.monotonic() - start)


def open_in_background(
    state_dir: Path | str,
    *,
    done: Callable[[OpenedStorage], None],
    lower_is_better: Mapping[str, bool] | None = None,
    specs: Mapping[str, Any] | None = None,
) -> threading.Thread:
    """:func:`open_storage` in a daemon thread; ``done(result)`` is called from that thread."""

    def run() -> None:
        # Python's cyclic garbage collector stops every thread while it walks all objects, and loading a large
        # scores file makes millions of them: a full collection in the middle would freeze the UI for hundreds
        # of milliseconds. So it pauses while the stores load (a few seconds at most, once per start), and what
        # was loaded is frozen (gc.freeze) so later full collections skip these long-lived records.
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            opened = open_storage(state_dir, lower_is_better=lower_is_better, specs=specs)
        finally:
            gc.freeze()
            if was_enabled:
                gc.enable()
        log.info("storage opened in %.2f s", opened.seconds)
        done(opened)

    return clock.background(run, "storage-open")
