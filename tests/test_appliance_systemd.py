"""The service units in systemd/: `systemd-analyze verify` clean and `systemd-analyze security` exposure <= 5.0,
with every exposure that is left explained in an "exposure:" comment of the unit.

The units name executables that the installer creates (/opt/sushi-kiosk/current/bin/...); verify would fail on
those alone, so each unit is verified as a copy whose executables point at a real file in a temporary folder.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNITS = sorted((ROOT / "systemd").glob("*.service"))
KIOSK = ROOT / "systemd" / "kiosk.service"
pytestmark = [
    pytest.mark.appliance,
    pytest.mark.skipif(
        shutil.which("systemd-analyze") is None, reason="systemd-analyze missing (test.sh installs the systemd package)"
    ),
]


def _security(unit: Path) -> tuple[float, list[str]]:
    proc = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        cwd=unit.parent,
        timeout=60,
    )
    out = proc.stdout + proc.stderr
    m = re.search(r"Overall exposure level for \S+: ([0-9.]+)", out)
    assert m, out
    failing = [line.split()[1] for line in out.splitlines() if line.startswith("✗")]
    return float(m.group(1)), failing


def test_units_exist():
    names = {u.name for u in UNITS}
    assert {"kiosk.service", "kiosk-admin.service", "kiosk-update-recover.service"} <= names


@pytest.mark.parametrize("unit", UNITS, ids=lambda u: u.name)
def test_verify_is_clean(unit: Path, tmp_path: Path):
    exe = tmp_path / "bin-placeholder"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    text = re.sub(r"^(Exec\w+=[-+!@]*)(/opt/sushi-kiosk/\S+)", rf"\g<1>{exe}", unit.read_text(), flags=re.M)
    copy = tmp_path / unit.name
    copy.write_text(text)
    for other in UNITS:  # units that name each other (Before=, Wants=) are verified side by side
        if other != unit:
            (tmp_path / other.name).write_text(other.read_text())
    for path in (ROOT / "systemd").glob("*.path"):
        (tmp_path / path.name).write_text(path.read_text())
    proc = subprocess.run(
        ["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, cwd=tmp_path, timeout=60
    )
    # verify exits 0 on unknown keys (a warning only): any output at all is a failure
    assert proc.returncode == 0 and not (proc.stdout + proc.stderr).strip(), proc.stdout + proc.stderr


def test_kiosk_unit_exposure_is_at_most_5_and_each_exposure_is_explained():
    level, failing = _security(KIOSK)
    assert level <= 5.0, f"exposure {level}: {failing}"
    text = KIOSK.read_text()
    comments = " ".join(line for line in text.splitlines() if line.lstrip().startswith("#") and "exposure:" in line)
    explained = {re.split(r"[=~]", name)[0] for name in failing}
    for setting in explained:
        key = "AF_" if setting == "RestrictAddressFamilies" else setting
        assert key.split("/")[0] in comments, f"{setting} counts as an exposure but no 'exposure:' comment says why"


def test_kiosk_unit_keeps_the_code_read_only_and_the_state_writable():
    text = KIOSK.read_text()
    assert re.search(r"^ProtectSystem=strict$", text, re.M)
    # the state folder by hand, not StateDirectory= (which would make the unit require the data stick's mount)
    assert not re.search(r"^StateDirectory=", text, re.M)
    assert re.findall(r"^ReadWritePaths=.*$", text, re.M) == ["ReadWritePaths=/var/lib/sushi-kiosk"], (
        "only the state folder may be writable"
    )
    assert re.search(r"^Environment=STATE_DIRECTORY=/var/lib/sushi-kiosk$", text, re.M)
    assert re.search(r"^WorkingDirectory=-/var/lib/sushi-kiosk$", text, re.M)
    # ordered after the data stick's mount, never requiring it: a table without its stick still starts
    assert re.search(r"^After=var-lib-sushi\\x2dkiosk\.mount$", text, re.M)
    assert not re.search(r"^(Requires|BindsTo|RequiresMountsFor)=.*", text, re.M)
    assert re.search(r"^DevicePolicy=closed$", text, re.M)
    assert re.search(r"^ExecStart=/opt/sushi-kiosk/current/bin/kiosk ", text, re.M)


# The root helpers must run as root. The recovery only rewrites /opt/sushi-kiosk's links; the operator helper
# mounts USB sticks, runs raspi-config (which rewrites /boot/firmware and the initramfs) and reboots, so it keeps
# the file system writable and its capabilities, but has no network and no access to homes or kernel settings.
HELPER_LIMITS = {"kiosk-update-recover.service": 2.5, "kiosk-admin.service": 6.5}


@pytest.mark.parametrize("name", sorted(HELPER_LIMITS))
def test_helper_units_are_sandboxed(name: str):
    level, failing = _security(ROOT / "systemd" / name)
    assert level <= HELPER_LIMITS[name], f"{name}: exposure {level}: {failing}"


def test_event_board_unit_is_sandboxed_and_has_only_the_network():
    """The event board (docs/owner/events.md) runs as a dynamic user with its own state folder: exposure <= 2.0."""
    unit = ROOT / "systemd" / "kiosk-eventboard.service"
    level, failing = _security(unit)
    assert level <= 2.0, f"exposure {level}: {failing}"
    text = unit.read_text()
    assert re.search(r"^DynamicUser=yes$", text, re.M) and re.search(r"^StateDirectory=eventboard$", text, re.M)
