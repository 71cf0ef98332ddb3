"""Power cuts on the booted table (``devtools.powercut``): QEMU killed at a random moment while a game's journal
and high scores are written on the data stick in read-only mode, then booted and checked, ``KIOSK_POWERCUTS`` times
(default 50; ``--quick``: 3). Reported: the cuts survived with nothing lost (every confirmed score there, the
interrupted game offered, the stick's file system clean at the end, the root unchanged), the scores confirmed in
all, and the time per cut. Needs root and QEMU (``{"skipped": reason}`` without them); the system tier runs 10.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any


def run(quick: bool = False) -> dict[str, Any]:
    if os.geteuid() != 0 or not shutil.which("qemu-system-x86_64"):
        return {"skipped": "needs root and qemu-system-x86_64"}
    from devtools.image import build
    from devtools.powercut import check_after, cut_while_writing
    from devtools.vm import Machine

    image = build()
    cuts = 3 if quick else int(os.environ.get("KIOSK_POWERCUTS", "50"))
    rng = random.Random(os.environ.get("KIOSK_POWERCUTS_SEED", "bench"))
    confirmed: list[tuple[str, int]] = []
    survived, failures, per_cut = 0, [], []
    with tempfile.TemporaryDirectory(prefix="bench-powercuts-") as d, Machine(image, Path(d) / "vm") as m:
        m.boot()
        m.wait_unit_status("kiosk.service", "attract mode")
        for i in range(cuts):
            t0 = time.monotonic()
            cut = cut_while_writing(m, rng, first=len(confirmed))
            confirmed += cut.confirmed
            try:
                check_after(m, cut, confirmed)
                survived += 1
            except AssertionError as exc:
                failures.append(f"cut {i + 1}: {str(exc)[:300]}")
                m.power_cut()
                m.boot()
                m.wait_unit_status("kiosk.service", "attract mode")
            per_cut.append(time.monotonic() - t0)
        m.shutdown()
        fsck = m.stick_fsck()[0]
        same = subprocess.run(["qemu-img", "compare", str(image.disk), str(m.root_disk)], capture_output=True)
    return {
        "cuts": cuts,
        "survived_with_nothing_lost": survived,
        "failures": failures,
        "scores_confirmed": len(confirmed),
        "stick_fsck_clean": fsck == 0,
        "root_unchanged": same.returncode == 0,
        "per_cut_s_median": round(sorted(per_cut)[len(per_cut) // 2], 1) if per_cut else None,
    }
