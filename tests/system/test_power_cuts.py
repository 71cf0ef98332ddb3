"""Power cuts on the installed table in read-only mode (see :mod:`devtools.powercut`): ten in the tier, five on each
of two tables (two machines, so that two workers share them); after each boot every score the screen had confirmed
is there, the interrupted game is offered to resume, the data stick's file system needs no repair, and the root
(read-only mode) is unchanged."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest

from devtools.image import Image
from devtools.powercut import PowerCuts
from devtools.vm import Machine

pytestmark = [pytest.mark.system, pytest.mark.timeout(1500)]
CUTS = 5


@pytest.mark.parametrize("table", ["first", "second"])
def test_five_power_cuts_while_playing_and_saving(machine: Machine, image: Image, artifacts: Path, table: str) -> None:
    # the moments of the cuts: the same every run, so a failure comes back; each table its own
    cuts = PowerCuts(machine, random.Random(f"20261206-{table}"))
    cuts.boot()
    for _ in range(CUTS):
        cuts.cut()
    cuts.finish()
    assert any(c.interrupted for c in cuts.cuts), "no cut came in the middle of a game"
    machine.shutdown()
    code, out = machine.stick_fsck()
    assert code == 0, out
    same = subprocess.run(["qemu-img", "compare", str(image.disk), str(machine.root_disk)], capture_output=True)
    assert same.returncode == 0, f"the root changed in read-only mode: {same.stdout.decode()}"
    report = [
        {"after_s": c.after_s, "confirmed": len(c.confirmed), "games": len(c.games), "interrupted": c.interrupted}
        for c in cuts.cuts
    ]
    (artifacts / "cuts.json").write_text(json.dumps({"confirmed_total": len(cuts.confirmed), "cuts": report}, indent=1))
