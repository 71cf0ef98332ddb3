"""The hard bots' old determinize path, kept for the search benchmark's before/after (``benchmarks/bench_ismcts.py``).

Before :meth:`kiosk.engine.State.search_copy`, every sample was a full :meth:`~kiosk.engine.State.clone` (the
journal and the generator's state copied) reseeded from the searcher's generator, and Maki's bots analysed the
board afresh each time. :func:`legacy_search_copy` puts that path back for the length of a ``with`` block; the
product never uses it, so it lives here, beside the other tooling, and not in the engine.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

from kiosk.engine import State
from kiosk.games.maki import bots as maki_bots


def _old_search_copy(self: State, rng: random.Random) -> State:
    old = self.clone()
    old.rng = random.Random(int(rng.random() * 2**53))
    return old


@contextmanager
def legacy_search_copy(enabled: bool = True) -> Iterator[None]:
    """Within the block, determinize as before the search copy: a full clone, no memo of Maki's board analysis."""
    if not enabled:
        yield
        return
    search_copy, progress = State.search_copy, maki_bots.segment_progress
    State.search_copy = _old_search_copy  # type: ignore[method-assign,assignment]
    maki_bots.segment_progress = maki_bots._segment_progress
    try:
        yield
    finally:
        State.search_copy = search_copy  # type: ignore[method-assign]
        maki_bots.segment_progress = progress
