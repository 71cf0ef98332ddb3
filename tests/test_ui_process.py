"""The kiosk as a process: ``python -m kiosk`` starts windowed in attract mode, tells systemd it is ready after
its first frame, pings the watchdog, and stops cleanly (exit 0, STOPPING=1) on SIGTERM and on Ctrl+C."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import sd_messages

pytestmark = pytest.mark.ui


def _start(tmp_path: Path, sock_path: Path) -> subprocess.Popen[bytes]:
    assert os.environ.get("DISPLAY"), "UI tests need a display: run them under xvfb-run (see test.sh)"
    env = dict(
        os.environ,
        NOTIFY_SOCKET=str(sock_path),
        WATCHDOG_USEC="1500000",
        SDL_AUDIODRIVER="dummy",
        KIVY_HOME=str(tmp_path / "kivy"),
    )
    return subprocess.Popen(
        [sys.executable, "-m", "kiosk", "--state-dir", str(tmp_path / "state"), "--log-level", "warning"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_ready_watchdog_and_clean_stop(tmp_path: Path, sig: signal.Signals) -> None:
    sock_path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    proc = _start(tmp_path, sock_path)
    try:
        msgs = sd_messages(sock, "READY=1", 60)
        assert any("READY=1" in m for m in msgs), f"no READY=1; output:\n{proc.stdout and proc.stdout.read1()}"
        msgs = sd_messages(sock, "WATCHDOG=1", 5)
        assert any("WATCHDOG=1" in m for m in msgs), "the UI thread pings the watchdog"
        assert proc.poll() is None
        assert (tmp_path / "state" / "kiosk.json").exists(), "the default config file was written"
        # The effects are synthesised by a lazy build step after the first frame (READY=1 comes first, so
        # systemd sees the kiosk up at once); on a loaded machine that step can come seconds later.
        sounds = tmp_path / "state" / "sounds"
        deadline = time.monotonic() + 45
        while len(list(sounds.glob("*.wav"))) < 5 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
        assert len(list(sounds.glob("*.wav"))) >= 5, "effects synthesised at start"
        assert proc.poll() is None
        proc.send_signal(sig)
        rc = proc.wait(timeout=20)
        out = proc.stdout.read().decode() if proc.stdout else ""
        assert rc == 0, out
        assert "Traceback" not in out, out
        assert any("STOPPING=1" in m for m in sd_messages(sock, "STOPPING=1", 2))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        sock.close()
