"""A touch through the kernel: QEMU's usb-tablet is an absolute pointer in the guest's input stack (evdev), read by
the kiosk's own input providers as the installer configured them; a tap on a seat's "Touch to play!" leaves attract
mode for the game picker, facing that seat (the unit's status line says so)."""

from __future__ import annotations

from pathlib import Path

import pytest

from devtools.vm import Machine
from system.screenlook import wait_drawn, wait_still

pytestmark = [pytest.mark.system, pytest.mark.timeout(900)]


def test_a_tap_through_the_kernel_joins_a_seat(machine: Machine, artifacts: Path) -> None:
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
