"""Helpers shared by the tests/test_hardware*.py files (not a test module itself)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any


class Collector:
    """An ``on_event`` that keeps every event and lets a test wait for one."""

    def __init__(self) -> None:
        self.events: list[Any] = []
        self.cond = threading.Condition()

    def __call__(self, event: Any) -> None:
        with self.cond:
            self.events.append(event)
            self.cond.notify_all()

    def wait(self, pred: Callable[[Any], bool], timeout: float = 3.0) -> Any:
        """The first event matching ``pred`` (waiting up to ``timeout``); AssertionError if none came."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for e in self.events:
                    if pred(e):
                        return e
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no matching event within {timeout} s; got {self.events!r}")
                self.cond.wait(left)

    def of(self, cls: type) -> list[Any]:
        with self.cond:
            return [e for e in self.events if isinstance(e, cls)]

    def clear(self) -> None:
        with self.cond:
            self.events.clear()


def wait_until(pred: Callable[[], bool], timeout: float = 3.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not reached within {timeout} s")
        time.sleep(0.005)


def thread_idents() -> set[int]:
    return {t.ident for t in threading.enumerate() if t.ident is not None}


def no_new_threads(before: set[int], timeout: float = 3.0) -> None:
    """Assert every thread started since ``before`` has ended (waiting a little for joins in flight)."""
    try:
        wait_until(lambda: thread_idents() <= before, timeout, "new threads ending")
    except AssertionError:
        left = [t.name for t in threading.enumerate() if t.ident not in before]
        raise AssertionError(f"threads left behind: {left}") from None
