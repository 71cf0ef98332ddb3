"""Tap sticks over real USB: a board plugged into the running table (a USB gadget with the Pico's ids on the guest's
dummy host controller: the guest's own USB stack, cdc_acm and udev) gets /dev/tapstick0 from the shipped udev rule,
the kiosk finds it from inside its sandbox (which gets no hot-plug events: the reader polls) and a TAP line the
board sends reaches the kiosk: a stick's tap in attract mode brings its seat to the game picker."""

from __future__ import annotations

import re
import shlex
import time
from pathlib import Path

import pytest

from devtools.guest import BOARD, GADGET, PYTHON
from devtools.vm import Machine
from system.screenlook import wait_still

pytestmark = [pytest.mark.system, pytest.mark.timeout(900)]


def test_a_tap_stick_board_on_usb_reaches_the_kiosk(machine: Machine, artifacts: Path) -> None:
    machine.boot()
    machine.wait_unit_status("kiosk.service", "attract mode")
    machine.out(GADGET)
    machine.wait_until("the shipped rule's /dev/tapstick0", lambda: machine.shell("test -e /dev/tapstick0")[0] == 0, 60)
    assert re.fullmatch(r"/dev/ttyACM\d+", machine.out("readlink -f /dev/tapstick0"))
    assert machine.out("stat -L -c %G /dev/tapstick0") == "dialout"
    machine.out(f"echo {shlex.quote(BOARD)} > /tmp/board.py")
    assert machine.tty is not None
    start = len(machine.tty.data)
    # the board runs in the background; its lines come to the test's console
    machine.tty.send(f"PYTHONPATH= {PYTHON} /tmp/board.py 0 &\n")
    try:
        machine.tty.wait(re.compile(rb"@@sent TAP 0 \d+ 0@@"), start, time.monotonic() + 180)
    except AssertionError:
        machine.tty.send("\n")  # the board's script runs on: the shell still answers
        (artifacts / "kiosk-journal.txt").write_text(machine.journal(lines=300))
        raise
    assert "tap board connected" in machine.journal()
    machine.wait_unit_status("kiosk.service", "choosing a game", timeout=120)
    wait_still(machine, artifacts / "picker-from-a-tap.png")
