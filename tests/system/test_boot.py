"""Power on, then a touch, on one booted table: the installed table reaches attract mode under its real unit and
sandbox, drawn through KMS/DRM, with the watchdog fed; then a tap through the kernel (QEMU's usb-tablet, an absolute
pointer in the guest's input stack, read by the kiosk's own input providers as the installer configured them) on a
seat's "Touch to play!" leaves attract mode for the game picker, facing that seat (the unit's status line says so).
The two tests share the table (``shared_table``) and run in this order."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from devtools.vm import Machine
from system.screenlook import look, wait_drawn, wait_still

pytestmark = [pytest.mark.system, pytest.mark.timeout(900)]


def test_power_on_to_attract_mode_under_the_unit(shared_table: Machine, artifacts: Path) -> None:
    machine = shared_table
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
    # the watchdog kept fed for a minute: its timestamp moves on, the same process, no restart (the image's drop-in
    # scales WatchdogSec for the emulated CPU; the kiosk pings at a third of it, so at least once a minute)
    fed = [int(unit["WatchdogTimestampMonotonic"])]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        time.sleep(10)
        now = machine.unit("kiosk.service")
        assert now["MainPID"] == pid and now["ActiveState"] == "active" and now["NRestarts"] == "0"
        fed.append(int(now["WatchdogTimestampMonotonic"]))
    assert len(set(fed)) >= 2, f"the watchdog was not fed for a minute: {fed}"
    shot = machine.screendump(artifacts / "attract.png")
    seen = look(shot)
    assert seen.drawn, f"not attract mode on the screen: {seen} ({shot})"
    (artifacts / "timing.json").write_text(json.dumps({"boot_to_attract_s": round(boot_to_attract, 1)}))


def test_a_tap_through_the_kernel_joins_a_seat(shared_table: Machine, artifacts: Path) -> None:
    machine = shared_table
    if machine.proc is None:  # (run on its own)
        machine.boot()
    unit = machine.wait_unit_status("kiosk.service", "attract mode")
    # the tablet is an input device the kiosk may read (DeviceAllow=char-input r, the input group)
    assert "QEMU" in machine.out("cat /proc/bus/input/devices")
    # (ls may race a descriptor closing meanwhile: its listing, whatever its exit code)
    assert "/dev/input/event" in machine.shell(f"ls -l /proc/{unit['MainPID']}/fd")[1]
    wait_drawn(machine, artifacts / "attract.png")
    before = (artifacts / "attract.png").read_bytes()
    # the bottom-left seat's "Touch to play!" (the corner of the long bottom edge)
    machine.tap(0.08, 0.88)
    machine.wait_unit_status("kiosk.service", "choosing a game", timeout=120)
    # the picker waits for the guests: a still picture (attract mode never stands still)
    wait_still(machine, artifacts / "picker.png")
    assert (artifacts / "picker.png").read_bytes() != before
