"""A simulated tap stick board on a real pseudo-terminal, speaking the firmware's protocol through the
firmware's own :mod:`hardware.firmware.tapcore`.

Used by the tests, the latency benchmark and a desktop demo (the kiosk can point its ``TapReader`` at
``board.path`` and tap with the keyboard). Linux/macOS only (``os.openpty``).

Example::

    with SimulatedBoard(link=Path("/tmp/tapstick0")) as board:
        reader = TapReader(board.path, print)
        reader.start()
        board.tap(3)          # TAP 3 <now> 0
        board.unplug()        # the reader reports "lost"
        board.plug()          # and reconnects to the same path
        reader.stop()

``link``, when given, is a symlink kept pointing at the current pty (what the udev rule does for a real
board), so a reader configured with that path finds the board again after :meth:`unplug` / :meth:`plug`.
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

from .firmware.tapcore import MASK32, StickDetector, TapBoard


class _HostClock:
    """The board clock: microseconds since the board started, plus ``start_us``, wrapping at 2**32."""

    def __init__(self, start_us: int = 0) -> None:
        self.start_us = start_us
        self.t0 = time.monotonic_ns() // 1000

    def now(self) -> int:
        return (self.start_us + time.monotonic_ns() // 1000 - self.t0) & MASK32


class SimulatedBoard:
    """A board on a pty pair: answers ``PING``/``HELLO?``, sends ``TAP`` lines on :meth:`tap`.

    ``start_us`` sets the board clock's start (near 2**32 to test the wrap); ``answer=False`` makes a board that
    never replies (a hung board).
    """

    def __init__(
        self,
        link: Path | None = None,
        sticks: int = 12,
        start_us: int = 0,
        answer: bool = True,
        clock: Callable[[], int] | None = None,
    ) -> None:
        self.link = link
        self.answer = answer
        self._clock = _HostClock(start_us)
        if clock is not None:
            self._clock.now = clock  # type: ignore[method-assign]
        self.board = TapBoard(self._clock, [StickDetector() for _ in range(sticks)])
        self.master: int | None = None
        self.slave: int | None = None
        self.slave_path: str | None = None
        self.received = bytearray()  # everything the kiosk sent, for tests
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.plug()

    @property
    def path(self) -> str:
        """Where the kiosk should open the board: the symlink when there is one, else the pty itself."""
        return str(self.link) if self.link is not None else str(self.slave_path)

    @property
    def plugged(self) -> bool:
        return self.master is not None

    def plug(self, hello: bool = True) -> None:
        """Create the pty (a new one each time, as a replugged USB device is a new device) and start answering."""
        if self.master is not None:
            return
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line discipline: bytes as the board sends them
        tty.setraw(master)
        self.master, self.slave = master, slave
        self.slave_path = os.ttyname(slave)
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".tmp")
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(self.slave_path)
            os.replace(tmp, self.link)
        self._stop.clear()
        self._thread = threading.Thread(target=self._serve, name="simboard", daemon=True)
        self._thread.start()
        if hello:
            self.send_line(self.board.hello())

    def unplug(self) -> None:
        """Close both ends: the kiosk's read fails as with a pulled USB cable; the symlink goes too."""
        if self.master is None:
            return
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
            self._thread = None
        if self.link is not None:
            self.link.unlink(missing_ok=True)
        with self._lock:
            for fd in (self.master, self.slave):
                if fd is not None:
                    os.close(fd)
            self.master = self.slave = None

    def close(self) -> None:
        self.unplug()

    def __enter__(self) -> SimulatedBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def now(self) -> int:
        """The board clock now (microseconds, 32-bit)."""
        return self._clock.now()

    def send_raw(self, data: bytes) -> None:
        """Write bytes as the board (garbage, partial lines, anything)."""
        with self._lock:
            if self.master is None:
                raise OSError("board unplugged")
            view = memoryview(data)
            while view:
                n = os.write(self.master, view)
                view = view[n:]

    def send_line(self, line: str) -> None:
        self.send_raw(line.encode("ascii"))

    def tap(self, stick: int, t_us: int | None = None) -> str:
        """Send a tap of ``stick`` stamped ``t_us`` (default: now) with the next sequence number; returns the line."""
        line: str = self.board.tap(stick, self.now() if t_us is None else t_us)
        self.send_line(line)
        return line

    def _serve(self) -> None:
        master = self.master
        while not self._stop.is_set() and master is not None:
            try:
                ready, _, _ = select.select([master], [], [], 0.05)
                if not ready:
                    continue
                data = os.read(master, 1024)
            except OSError:
                return
            if not data:
                return
            self.received.extend(data)
            if self.answer:
                for reply in self.board.receive(data):
                    try:
                        self.send_line(reply)
                    except OSError:
                        return
