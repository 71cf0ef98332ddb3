"""Helpers shared by the tests/test_hardware*.py files (not a test module itself).

These tests drive real threads (gpiozero's hold threads, pyserial's reader, the simulated board), so they wait
for real things to happen. Every wait here is for a CONDITION and has no wall-clock bound of its own: the test's
pytest-timeout (the whole test's bound, pyproject.toml) is the only one, so a loaded machine can only make a test
slower, never make it fail. While a wait goes on it says on stderr what it is waiting for (every
:data:`NOTE_EVERY` seconds); pytest shows that output with the failure when pytest-timeout ends a hang.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from hardware.status import HardwareStatus
from hardware.taps import TapEvent

#: How often a long wait says on stderr what it still waits for (a note, never a bound).
NOTE_EVERY = 10.0
#: A gpiozero ``hold_time`` longer than any test may run (pytest-timeout ends it first): no hold ever fires.
NO_HOLD = 3600.0


def _note(what: str, since: float, detail: str = "") -> None:
    print(f"still waiting for {what} after {time.monotonic() - since:.0f} s{detail}", file=sys.stderr, flush=True)


class Collector:
    """An ``on_event`` that keeps every event and lets a test wait for one."""

    def __init__(self) -> None:
        self.events: list[Any] = []
        self.cond = threading.Condition()

    def __call__(self, event: Any) -> None:
        with self.cond:
            self.events.append(event)
            self.cond.notify_all()

    def wait(self, pred: Callable[[Any], bool], what: str = "a matching event") -> Any:
        """The first event matching ``pred``, waiting as long as it takes (the test's time-out ends a hang)."""
        since = time.monotonic()
        with self.cond:
            while True:
                for e in self.events:
                    if pred(e):
                        return e
                if not self.cond.wait(NOTE_EVERY):
                    _note(what, since, f"; the last events: {self.events[-20:]!r}")

    def of(self, cls: type) -> list[Any]:
        with self.cond:
            return [e for e in self.events if isinstance(e, cls)]

    def clear(self) -> None:
        with self.cond:
            self.events.clear()


def wait_until(pred: Callable[[], bool], what: str = "condition") -> None:
    """Poll ``pred`` until it holds, however long that takes (the test's time-out ends a hang)."""
    since = next_note = time.monotonic()
    next_note += NOTE_EVERY
    while not pred():
        if time.monotonic() >= next_note:
            _note(what, since)
            next_note += NOTE_EVERY
        time.sleep(0.005)


def live_threads() -> set[threading.Thread]:
    """The threads alive now (the objects: a finished thread's ident can be reused by a new one)."""
    return set(threading.enumerate())


def no_new_threads(before: set[threading.Thread]) -> None:
    """Wait until every thread started since ``before`` has ended (joins in flight finish; a thread left
    behind hangs here, and the stderr note names it)."""
    since = next_note = time.monotonic()
    next_note += NOTE_EVERY
    while left := live_threads() - before:
        if time.monotonic() >= next_note:
            _note("new threads to end", since, f"; threads left behind: {sorted(t.name for t in left)}")
            next_note += NOTE_EVERY
        time.sleep(0.005)


class LinkLog(HardwareStatus):
    """A status that also keeps every link update, with the host time it came: the round trips the reader
    measured and the reconnect attempts that failed."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.updates: list[tuple[float, str, dict]] = []

    def set_link(self, state: str, **info) -> None:
        self.updates.append((time.monotonic(), state, dict(info)))
        super().set_link(state, **info)

    def rtts(self) -> list[float]:
        """Every round trip measured so far, in seconds."""
        return [info["rtt_ms"] / 1000 for _t, _s, info in list(self.updates) if info.get("rtt_ms") is not None]

    def failed_opens(self, after: float = 0.0) -> int:
        """Reopen attempts that failed (reported at or after host time ``after``)."""
        return sum(
            1
            for t, state, info in list(self.updates)
            if t >= after and state in ("lost", "searching") and info.get("last_error") and "port" in info
        )


def latency_bound(tap: TapEvent, tapped_at: float, status: LinkLog) -> float:
    """The most a tap's estimated latency can be, from what the test saw: the board stamped it no earlier than
    ``tapped_at`` (host time taken just before ``board.tap``), the line arrived at ``tap.received``, and the clock
    sync point the estimate used is off by at most half its round trip (the longest seen bounds it), plus a few
    microseconds of rounding. A slow machine makes this bound larger, never the estimate wrong."""
    return tap.received - tapped_at + max(status.rtts()) / 2 + 1e-5
