"""The kiosk as a process never stays dark because of its files: a config of random bytes, or a state folder that
cannot be written (a read-only card), still gives a running table (READY=1), not exit code 2 and a restart loop.

The kiosk runs on real time here (a process of its own): each wait is for a condition it reaches (READY=1, its
exit), polled until it holds or the kiosk exits, bounded only by the test's time-out (pyproject.toml's
``timeout``); the notify socket is read all the time, as systemd reads it (see ``test_ui_process.py``).
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


def _run_until_ready(tmp_path: Path, state_dir: Path) -> str:
    assert os.environ.get("DISPLAY"), "UI tests need a display: run them under xvfb-run (see test.sh)"
    sock_path = tmp_path / "notify.sock"
    log = tmp_path / "kiosk.log"
    notify = Notify(sock_path)
    env = dict(os.environ, NOTIFY_SOCKET=str(sock_path), SDL_AUDIODRIVER="dummy", KIVY_HOME=str(tmp_path / "kivy"))
    with log.open("wb") as out:  # a file, not a pipe nobody reads until the end (a full pipe blocks the kiosk)
        proc = subprocess.Popen(
            [sys.executable, "-m", "kiosk", "--state-dir", str(state_dir), "--log-level", "warning"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for(proc, notify, lambda: notify.index("READY=1") >= 0, "READY=1", log)
        assert proc.poll() is None, f"the kiosk exited with {proc.returncode}"
        proc.send_signal(signal.SIGTERM)
        rc = wait_exit(proc, notify)
        out = log.read_text()
        assert rc == 0 and "Traceback" not in out, out
        return out
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        notify.close()


def test_a_config_of_random_bytes_starts_the_table(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "kiosk.json").write_bytes(os.urandom(300))
    out = _run_until_ready(tmp_path, state)
    assert "the kiosk runs with the defaults" in out
    assert (state / "kiosk.json").exists(), "the operator's file is left to fix"


def test_a_state_folder_that_cannot_be_written_starts_the_table(tmp_path: Path) -> None:
    blocker = tmp_path / "card"
    blocker.write_text("a file where the state folder should be")
    out = _run_until_ready(tmp_path, blocker / "state")
    assert "cannot use the state folder" in out
