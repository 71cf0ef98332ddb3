"""Updates on the installed table in read-only mode, across real reboots: a good bundle from the owner's USB stick
installs (the root helper turns the overlay off, reboots, installs beside the running version, turns the overlay
back on, reboots) and the table comes back on it; the operator menu says which version runs. (A bundle that cannot
start: test_update_rollback.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from devtools.vm import Machine
from system.screenlook import wait_drawn
from system.updating import bundle, install_from_a_stick, menu

pytestmark = [pytest.mark.system, pytest.mark.timeout(1500)]


def test_an_update_installs_across_reboots(machine: Machine, tmp_path: Path, artifacts: Path) -> None:
    good = bundle(tmp_path, "0.2.0")
    machine.boot()
    machine.wait_unit_status("kiosk.service", "attract mode")
    before = menu(machine)
    assert re.search(r"^Version: 0\.1\.0-src\w+$", before, re.M), before
    install_from_a_stick(machine, good, tmp_path)
    said = menu(machine)
    assert "Version: 0.2.0-" in said and "System: read-only" in said, said
    assert machine.out("findmnt -n -o FSTYPE /") == "overlay"
    wait_drawn(machine, artifacts / "after-update.png")
