"""An update that cannot start, on the installed table in read-only mode: installed from the owner's stick across the
helper's reboots (overlay off, install, overlay back on), it is rolled back by itself; the table comes back on the
version it ran, the menu says so and why."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from devtools.guest import wait_status
from devtools.vm import Machine
from system.updating import bundle, install_from_a_stick, menu

pytestmark = [pytest.mark.system, pytest.mark.timeout(1500)]


def test_an_update_that_cannot_start_rolls_back_by_itself(machine: Machine, tmp_path: Path) -> None:
    bad = bundle(tmp_path, "0.3.0", broken=True)
    machine.boot()
    machine.wait_unit_status("kiosk.service", "attract mode")
    install_from_a_stick(machine, bad, tmp_path)
    said = menu(machine)
    assert re.search(r"^Version: 0\.1\.0-src\w+$", said, re.M), f"the bad update was not rolled back:\n{said}"
    answer = wait_status(machine, "update")
    assert answer.get("ok") is False, answer
    assert "the new kiosk does not start" in str(answer.get("message")), answer
    assert machine.out("findmnt -n -o FSTYPE /") == "overlay"
