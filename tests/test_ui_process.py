"""The kiosk as a process: ``python -m kiosk`` starts windowed in attract mode, tells systemd it is ready after
its first frame, pings the watchdog, and stops cleanly (exit 0, STOPPING=1) on SIGTERM and on Ctrl+C.

The kiosk runs on real time here (a process of its own): each wait is for a condition the kiosk reaches (a
datagram, a file, its exit), polled until it holds or the kiosk exits, bounded only by the test's time-out
(pyproject.toml's ``timeout``). The notify socket is read all the time, as systemd reads it: a kiosk whose
datagrams nobody reads blocks in its next ``sd_notify`` once the socket's queue is full
(``net.unix.max_dgram_qlen``, 10 by default), its UI thread with it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.ui


class Notify:
    """A notify socket (``$NOTIFY_SOCKET``) and every datagram read from it so far, in order."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.got: list[str] = []

    def drain(self, wait: float = 0.0) -> None:
        """Read what is queued, waiting up to ``wait`` seconds for a first datagram (the polls' pace)."""
        self.sock.settimeout(wait if wait > 0 else 0.0)  # 0.0: non-blocking
        while True:
            try:
                self.got.append(self.sock.recv(4096).decode())
            except (BlockingIOError, TimeoutError):
                return
            self.sock.settimeout(0.0)

    def index(self, text: str, after: int = -1) -> int:
        """The index of the first datagram after ``after`` that contains ``text`` (-1: none)."""
        return next((i for i, m in enumerate(self.got) if i > after and text in m), -1)

    def close(self) -> None:
        self.sock.close()


def wait_for(proc: subprocess.Popen[bytes], notify: Notify, pred: Callable[[], bool], what: str, log: Path) -> None:
    """Poll until ``pred()`` (reading the notify socket meanwhile); fails at once if the kiosk exits first."""
    while not pred():
        if proc.poll() is not None:
            notify.drain()
            if pred():
                return
            raise AssertionError(f"the kiosk exited ({proc.returncode}) before {what}:\n{log.read_text()[-6000:]}")
        notify.drain(0.1)


def wait_exit(proc: subprocess.Popen[bytes], notify: Notify) -> int:
    """The kiosk's exit code, once it exits (reading the notify socket meanwhile, and all it sent afterwards)."""
    while proc.poll() is None:
        notify.drain(0.1)
    notify.drain()
    return proc.returncode


def _start(tmp_path: Path, sock_path: Path, log: Path) -> subprocess.Popen[bytes]:
    assert os.environ.get("DISPLAY"), "UI tests need a display: run them under xvfb-run (see test.sh)"
    env = dict(
        os.environ,
        NOTIFY_SOCKET=str(sock_path),
        WATCHDOG_USEC="1500000",
        SDL_AUDIODRIVER="dummy",
        KIVY_HOME=str(tmp_path / "kivy"),
    )
    with log.open("wb") as out:  # a file, not a pipe nobody reads until the end (a full pipe blocks the kiosk)
        return subprocess.Popen(
            [sys.executable, "-m", "kiosk", "--state-dir", str(tmp_path / "state"), "--log-level", "warning"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_ready_watchdog_and_clean_stop(tmp_path: Path, sig: signal.Signals) -> None:
    sock_path = tmp_path / "notify.sock"
    log = tmp_path / "kiosk.log"
    notify = Notify(sock_path)
    proc = _start(tmp_path, sock_path, log)
    try:
        wait_for(proc, notify, lambda: notify.index("READY=1") >= 0, "READY=1", log)
        ready = notify.index("READY=1")
        wait_for(proc, notify, lambda: notify.index("WATCHDOG=1", ready) >= 0, "a WATCHDOG=1 after READY=1", log)
        assert notify.index("WATCHDOG=1", ready) > ready, "the UI thread pings the watchdog"
        assert proc.poll() is None
        assert (tmp_path / "state" / "kiosk.json").exists(), "the default config file was written"
        # The effects are synthesised by a lazy build step after the first frame (READY=1 comes first, so
        # systemd sees the kiosk up at once); on a loaded machine that step can come seconds later.
        sounds = tmp_path / "state" / "sounds"
        wait_for(proc, notify, lambda: len(list(sounds.glob("*.wav"))) >= 5, "the effects", log)
        assert len(list(sounds.glob("*.wav"))) >= 5, "effects synthesised at start"
        assert proc.poll() is None
        stopping_before = notify.index("STOPPING=1")
        proc.send_signal(sig)
        rc = wait_exit(proc, notify)
        out = log.read_text()
        assert rc == 0, out
        assert "Traceback" not in out, out
        assert stopping_before == -1, "STOPPING=1 only once asked to stop"
        assert notify.index("STOPPING=1", ready) > ready, notify.got
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        notify.close()
