"""What the booted tiers share (tests/system/ on the PC image, tests/arm64/ on the Pi's processor): a test's
artifacts folder, and a machine switched off with its logs and its last boot's journal kept there."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

from devtools.vm import Machine

ROOT = Path(__file__).resolve().parents[2]


def artifacts_folder(name: str, tier: str = "system") -> Path:
    """``artifacts/<tier>/<name>/``, emptied (a new run's screendumps and logs only)."""
    folder = ROOT / "artifacts" / tier / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def switched_off(m: Machine, artifacts: Path) -> None:
    """The machine's power cut, its journal (while still on: the kiosk's log lines say what the screen did) and its
    console, shell and QEMU logs kept in ``artifacts``."""
    if m.proc is not None:
        with contextlib.suppress(Exception):
            (artifacts / "journal.txt").write_text(m.shell("journalctl -b --no-pager -o short-monotonic", 60)[1])
    m.power_cut()
    for log in ("console.log", "shell.log", "qemu.log"):
        if (m.folder / log).exists():
            shutil.copyfile(m.folder / log, artifacts / log)
