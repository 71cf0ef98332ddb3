"""Power on: the installed table reaches attract mode under its real unit and sandbox, drawn through KMS/DRM."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from devtools.vm import Machine
from system.screenlook import look

pytestmark = [pytest.mark.system, pytest.mark.timeout(900)]


def test_power_on_to_attract_mode_under_the_unit(machine: Machine, artifacts: Path) -> None:
    t0 = time.monotonic()
    machine.boot()
    # Type=notify: active only once the kiosk said READY=1 (after its first frame), with its STATUS= line
    unit = machine.wait_unit_status("kiosk.service", "attract mode")
    boot_to_attract = time.monotonic() - t0
    pid = unit["MainPID"]
    assert unit["Type"] == "notify" and unit["NRestarts"] == "0"
    assert unit["User"] == "kiosk" and unit["PrivateNetwork"] == "yes" and unit["ProtectSystem"] == "strict"
    # drawn through SDL's KMS/DRM driver: the kiosk itself holds the DRM device open, and no X or Wayland exists
    fds = machine.shell(f"ls -l /proc/{pid}/fd")[1]  # (ls may race a descriptor closing: its listing regardless)
    assert "/dev/dri/card0" in fds, fds
    assert machine.out(f"tr '\\0' '\\n' < /proc/{pid}/environ | grep ^SDL_VIDEODRIVER=") == "SDL_VIDEODRIVER=kmsdrm"
    # the watchdog kept fed for a minute: its timestamp moves on, the same process, no restart
    fed = [int(unit["WatchdogTimestampMonotonic"])]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        time.sleep(10)
        now = machine.unit("kiosk.service")
        assert now["MainPID"] == pid and now["ActiveState"] == "active" and now["NRestarts"] == "0"
        fed.append(int(now["WatchdogTimestampMonotonic"]))
    assert len(set(fed)) >= 5, f"the watchdog was not fed steadily: {fed}"
    shot = machine.screendump(artifacts / "attract.png")
    seen = look(shot)
    assert seen.drawn, f"not attract mode on the screen: {seen} ({shot})"
    (artifacts / "timing.json").write_text(json.dumps({"boot_to_attract_s": round(boot_to_attract, 1)}))
