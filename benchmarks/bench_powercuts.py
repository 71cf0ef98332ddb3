"""Power cuts on the booted table (``devtools.powercut``): QEMU killed at a random moment while a game's journal
and high scores are written on the data stick in read-only mode, then booted and checked, ``KIOSK_POWERCUTS`` times
in all (default 50; ``--quick``: 4), shared by ``KIOSK_POWERCUTS_TABLES`` tables cut side by side (default 2, one
emulated CPU each). Reported: the cuts survived with nothing lost (every confirmed score there, the interrupted game
offered, the stick's file system clean at the end, the root unchanged), the scores confirmed in all, and the time
per cut. Needs root and QEMU (``{"skipped": reason}`` without them); the system tier runs 10.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any


def _table(image: Any, folder: Path, cuts: int, seed: str, cpus: int) -> dict[str, Any]:
    """``cuts`` power cuts on one table; what survived and what failed."""
    from devtools.powercut import PowerCuts
    from devtools.vm import Machine

    survived, failures, per_cut = 0, [], []
    with Machine(image, folder, cpus=cpus) as m:
        table = PowerCuts(m, random.Random(seed))
        table.boot()
        for i in range(cuts):
            t0 = time.monotonic()
            try:
                table.cut()  # (its writing checks the boot before it: a loss there is that cut's failure)
                survived += 1
            except AssertionError as exc:
                failures.append(f"{seed} cut {i + 1}: {str(exc)[:300]}")
                m.power_cut()
                table.boot()
            per_cut.append(time.monotonic() - t0)
        try:
            table.finish()
        except AssertionError as exc:
            failures.append(f"{seed} after the last cut: {str(exc)[:300]}")
            survived -= 1
        m.shutdown()
        fsck = m.stick_fsck()[0]
        same = subprocess.run(["qemu-img", "compare", str(image.disk), str(m.root_disk)], capture_output=True)
    return {
        "survived": survived,
        "failures": failures,
        "confirmed": len(table.confirmed),
        "interrupted": sum(1 for c in table.cuts if c.interrupted),
        "fsck_clean": fsck == 0,
        "root_unchanged": same.returncode == 0,
        "per_cut": per_cut,
    }


def run(quick: bool = False) -> dict[str, Any]:
    if os.geteuid() != 0 or not shutil.which("qemu-system-x86_64"):
        return {"skipped": "needs root and qemu-system-x86_64"}
    from devtools.image import build

    image = build()
    cuts = 4 if quick else int(os.environ.get("KIOSK_POWERCUTS", "50"))
    tables = max(1, int(os.environ.get("KIOSK_POWERCUTS_TABLES", "2")))
    seed = os.environ.get("KIOSK_POWERCUTS_SEED", "bench")
    share = [cuts // tables + (1 if i < cuts % tables else 0) for i in range(tables)]
    cpus = max(1, (os.cpu_count() or 2) // tables)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-powercuts-") as d, ThreadPoolExecutor(tables) as pool:
        futures = [
            pool.submit(_table, image, Path(d) / f"table{i}", n, f"{seed}-{i}", cpus) for i, n in enumerate(share)
        ]
        done = [f.result() for f in futures]
    per_cut = sorted(t for r in done for t in r["per_cut"])
    return {
        "cuts": cuts,
        "tables": tables,
        "survived_with_nothing_lost": sum(r["survived"] for r in done),
        "failures": [f for r in done for f in r["failures"]],
        "cuts_mid_game": sum(r["interrupted"] for r in done),
        "scores_confirmed": sum(r["confirmed"] for r in done),
        "stick_fsck_clean": all(r["fsck_clean"] for r in done),
        "root_unchanged": all(r["root_unchanged"] for r in done),
        "per_cut_s_median": round(per_cut[len(per_cut) // 2], 1) if per_cut else None,
        "wall_s": round(time.monotonic() - t0, 1),
    }
