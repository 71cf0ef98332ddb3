"""The booted table: power on to attract mode, in QEMU under pure emulation (``devtools.vm``), from the image the
installer makes (``devtools.image``; built first if the cache lacks it, which is not timed).

* ``boot_to_attract_s``: QEMU started until ``kiosk.service`` is active with the status "attract mode" (READY=1
  after the first frame), per boot; ``shell_s``: until the test's shell answers (systemd's basic boot), the part
  of the boot that is the kernel and systemd rather than the kiosk;
* ``kiosk_start_s``: the same boot's kiosk alone (systemd's ``ExecMainStartTimestampMonotonic`` to the unit's
  active state), as the guest's own clock counts it.

Emulation makes every figure many times a Pi's; they are for comparing changes in the same run and on the same
machine (the image's kernel and Debian stay fixed between runs of a checkout). Needs root and QEMU; skipped
(``{"skipped": reason}``) without them.
"""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any


def run(quick: bool = False) -> dict[str, Any]:
    if os.geteuid() != 0 or not shutil.which("qemu-system-x86_64"):
        return {"skipped": "needs root and qemu-system-x86_64"}
    from devtools.image import build
    from devtools.vm import Machine

    image = build()
    boots = 1 if quick else 3
    attract: list[float] = []
    shell: list[float] = []
    kiosk: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-boot-") as d:
        for i in range(boots):
            with Machine(image, Path(d) / f"vm{i}") as m:
                t0 = time.monotonic()
                m.boot()
                shell.append(time.monotonic() - t0)
                unit = m.wait_unit_status("kiosk.service", "attract mode")
                attract.append(time.monotonic() - t0)
                started = int(unit["ExecMainStartTimestampMonotonic"])
                active = int(unit["ActiveEnterTimestampMonotonic"])
                kiosk.append((active - started) / 1e6)
                m.power_cut()
    return {
        "accel": os.environ.get("KIOSK_VM_ACCEL", "tcg"),
        "boots": boots,
        "boot_to_attract_s": [round(x, 1) for x in attract],
        "boot_to_attract_median_s": round(statistics.median(attract), 1),
        "shell_s": [round(x, 1) for x in shell],
        "kiosk_start_s": [round(x, 1) for x in kiosk],
    }
