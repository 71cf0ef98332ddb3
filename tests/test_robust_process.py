"""The kiosk as a process never stays dark because of its files: a config of random bytes, or a state folder that
cannot be written (a read-only card), still gives a running table (READY=1), not exit code 2 and a restart loop."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import sd_messages

pytestmark = pytest.mark.ui


def _run_until_ready(tmp_path: Path, state_dir: Path) -> str:
    assert os.environ.get("DISPLAY"), "UI tests need a display: run them under xvfb-run (see test.sh)"
    sock_path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    env = dict(os.environ, NOTIFY_SOCKET=str(sock_path), SDL_AUDIODRIVER="dummy", KIVY_HOME=str(tmp_path / "kivy"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "kiosk", "--state-dir", str(state_dir), "--log-level", "warning"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        msgs = sd_messages(sock, "READY=1", 60)
        ready = any("READY=1" in m for m in msgs)
        assert proc.poll() is None, f"the kiosk exited with {proc.returncode}"
        proc.send_signal(signal.SIGTERM)
        rc = proc.wait(timeout=20)
        out = proc.stdout.read().decode() if proc.stdout else ""
        assert ready, out
        assert rc == 0 and "Traceback" not in out, out
        return out
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        sock.close()


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
