"""Power cuts on the installed table in read-only mode, ten in a row on one table (see :mod:`system.powercut`):
after each boot every score the screen had confirmed is there, the interrupted game is offered to resume, the data
stick's file system needs no repair, and the root (read-only mode) is unchanged."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest

from devtools.image import Image
from devtools.powercut import check_after, cut_while_writing
from devtools.vm import Machine

pytestmark = [pytest.mark.system, pytest.mark.timeout(2400)]
CUTS = 10


def test_ten_power_cuts_while_playing_and_saving(machine: Machine, image: Image, artifacts: Path) -> None:
    rng = random.Random(20261206)  # the moments of the cuts: the same every run, so a failure comes back
    machine.boot()
    machine.wait_unit_status("kiosk.service", "attract mode")
    confirmed: list[tuple[str, int]] = []
    report = []
    for i in range(CUTS):
        cut = cut_while_writing(machine, rng, first=len(confirmed))
        confirmed += cut.confirmed
        check_after(machine, cut, confirmed)
        report.append(
            {
                "cut": i + 1,
                "after_s": cut.after_s,
                "confirmed": len(cut.confirmed),
                "games": len(cut.games),
                "interrupted": cut.interrupted,
            }
        )
    machine.shutdown()
    code, out = machine.stick_fsck()
    assert code == 0, out
    same = subprocess.run(["qemu-img", "compare", str(image.disk), str(machine.root_disk)], capture_output=True)
    assert same.returncode == 0, f"the root changed in read-only mode: {same.stdout.decode()}"
    (artifacts / "cuts.json").write_text(json.dumps({"confirmed_total": len(confirmed), "cuts": report}, indent=1))
