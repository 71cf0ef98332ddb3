"""The kiosk's one clock, and its one way to run work off the UI thread.

Everything that times behaviour (idle and "Still playing?", holds, menu and results time-outs, PIN delays, tray
auto-close, bot pacing, the attract cycle, Takoyaki's countdown and race times) reads :func:`now`, which is
Kivy's frame time (``Clock.get_time()``, the same clock ``Clock.schedule_once`` keeps), or :func:`wall` for a time
that must survive a restart (the PIN's wrong tries). Work that must not hold the UI (a bot's search, the PIN's
hash, opening the stores, a how-to demo) starts with :func:`background`.

:func:`freeze` puts both on virtual time (the UI tests and the screenshot tour): Kivy's clock then reads a
:class:`VirtualTime` that only :meth:`VirtualTime.advance` moves, and :func:`settle` waits for the background work
to finish, so a frame always sees the same time and the same finished work however fast the machine is.
Compute budgets inside one call (a search bot's time limit) are real time by nature; tests give search bots a
fixed number of iterations instead (``KioskApp(bot_iterations=...)``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

__all__ = ["VirtualTime", "background", "freeze", "frozen", "now", "settle", "wall"]

_virtual: VirtualTime | None = None
_workers: set[threading.Thread] = set()
_lock = threading.Lock()


class VirtualTime:
    """Seconds that only :meth:`advance` moves; ``wall`` starts at the real wall clock of the moment it froze."""

    def __init__(self, start: float, wall_start: float) -> None:
        self.t = start
        self._t0 = start
        self._wall0 = wall_start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds

    def wall(self) -> float:
        return self._wall0 + (self.t - self._t0)


def _kivy_clock() -> Any:
    from kivy.clock import Clock

    return Clock


def now() -> float:
    """Seconds on the kiosk's clock (Kivy's time of the current frame; virtual once :func:`freeze` ran)."""
    return float(_kivy_clock().get_time())


def wall() -> float:
    """Wall-clock seconds (``time.time()``; under a frozen clock, the freeze's wall time plus virtual seconds)."""
    return _virtual.wall() if _virtual is not None else time.time()


def frozen() -> VirtualTime | None:
    """The virtual time, if :func:`freeze` put the kiosk on it."""
    return _virtual


def freeze() -> VirtualTime:
    """Put Kivy's clock (and so :func:`now`, every ``Clock.schedule_*`` and every animation) on virtual time,
    starting at its current frame time; frames then never sleep. Idempotent."""
    global _virtual
    if _virtual is None:
        clock = _kivy_clock()
        _virtual = VirtualTime(float(clock.get_time()), time.time())
        clock.time = _virtual  # the instance's clock function (a class-level staticmethod otherwise)
        clock._max_fps = 0  # no sleeping between frames: virtual time does not pass while one sleeps
    return _virtual


def background(target: Callable[[], None], name: str) -> threading.Thread:
    """Run ``target`` in a daemon thread (hand its result to the UI with ``Clock.schedule_once``)."""

    def run() -> None:
        try:
            target()
        finally:
            with _lock:
                _workers.discard(thread)

    thread = threading.Thread(target=run, name=name, daemon=True)
    with _lock:
        _workers.add(thread)
    thread.start()
    return thread


def settle(timeout: float | None = None) -> bool:
    """Wait until no :func:`background` work runs (``timeout`` real seconds at most); whether none runs."""
    end = None if timeout is None else time.monotonic() + timeout
    while True:
        with _lock:
            running = next(iter(_workers), None)
        if running is None:
            return True
        left = None if end is None else end - time.monotonic()
        if left is not None and left <= 0:
            return False
        running.join(left)
