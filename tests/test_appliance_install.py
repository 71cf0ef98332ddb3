"""The installer (scripts/install.sh): its dry run here on the test machine, and the real check in a fresh Debian
root (scripts/check_install.py: mmdebstrap, the installer run twice in a chroot, everything it set up asserted).

The real check needs root, mmdebstrap (test.sh installs it) and the Debian archive and PyPI; without them it is
skipped with the reason. Its Debian root is cached in /var/cache/sushi-kiosk-check, so only the first run on a
machine builds it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.appliance

ROOT = Path(__file__).resolve().parents[1]
INSTALLED = (
    Path("/etc/systemd/system/kiosk.service"),
    Path("/etc/udev/rules.d/99-tapstick.rules"),
    Path("/etc/sysctl.d/90-kiosk.conf"),
    Path("/opt/sushi-kiosk"),
)


@pytest.mark.skipif(any(p.exists() for p in INSTALLED), reason="the table is installed on this machine")
def test_dry_run_prints_every_step_and_changes_nothing():
    before = {p: p.exists() for p in INSTALLED}
    r = subprocess.run(
        [str(ROOT / "scripts" / "install.sh"), "--dry-run", "--pin", "1357", "--rotate", "180"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout
    assert "dry run: nothing changes" in out
    for step in ("app:", "udev:", "service:", "consoles:", "display:", "operator PIN:"):
        assert step in out, f"no {step} line in:\n{out}"
    for line in ("mask getty@.service", "mask ctrl-alt-del.target", "enable kiosk.service", "kiosk.service.d/rotation"):
        assert line in out, f"{line!r} missing from the dry run:\n{out}"
    assert "[done]" not in out and "change(s) would be made" in out
    assert {p: p.exists() for p in INSTALLED} == before


def test_a_bad_pin_is_refused_before_anything_happens():
    r = subprocess.run(
        [str(ROOT / "scripts" / "install.sh"), "--dry-run", "--pin", "12"], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 2 and "--pin must be 4 to 8 digits" in r.stderr


def test_on_arm_the_installer_brings_what_pip_builds_lgpio_with(monkeypatch):
    """lgpio (the app's dependency on Linux on ARM) has only its source on PyPI: on a Pi, Raspberry Pi OS or plain
    Debian alike, the packages step adds swig and a compiler; a PC needs neither (the arm64 tier runs it for real)."""
    from kiosk.appliance import install

    monkeypatch.setattr(install.platform, "machine", lambda: "aarch64")
    assert install.Installer._gpio_build() == ("swig", "gcc", "libc6-dev", "python3-dev")
    monkeypatch.setattr(install.platform, "machine", lambda: "x86_64")
    assert install.Installer._gpio_build() == ()


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_installer_in_a_fresh_debian_root_twice():
    if os.geteuid() != 0:
        pytest.skip("needs root (chroot and mounts)")
    r = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "check_install.py")], capture_output=True, text=True, timeout=1700
    )
    if r.returncode == 77:
        pytest.skip(r.stderr.strip())
    assert r.returncode == 0, (r.stdout + r.stderr)[-6000:]
    assert "PASSED" in r.stdout
