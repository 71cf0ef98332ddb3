"""The table on the Pi's processor against the PC, both booted in QEMU in the same run: the images of
:mod:`devtools.image` for ``amd64`` and ``arm64`` (built first if the cache lacks them, which is not timed), one
machine at a time with two emulated CPUs each, so that both meet the same load. Per machine:

* ``boot_to_attract_s``: QEMU started until ``kiosk.service`` is active with the status "attract mode";
* ``kiosk_start_s``: the kiosk's own start in that boot (systemd's ``ExecMainStartTimestampMonotonic`` to its
  active state: READY=1 comes after the first frame), as the guest's clock counts it;
* ``attract_frame_ms``: attract mode's full redraw on the guest's KMS/DRM display (the kiosk's unit stopped, then
  :func:`benchmarks.bench_motion.child` from the image's copy of this checkout: the bots playing Maki, no frame cap,
  a redraw forced every frame), the mean and the 90th percentile.

``arm_to_x86`` holds each figure's ratio. Both machines are pure emulation on this one (TCG), so no figure is a
Pi's; a change that costs ARM more than the PC moves the ratio. Needs root and both QEMU system emulators; skipped
(``{"skipped": reason}``) without them.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

#: the measuring child in the guest: as root (the kiosk's unit stopped, so the display is free), this checkout's
#: benchmarks package (the image's copy in /srv/sushi-kiosk) beside the installed app
FRAMES = """
set -e
systemctl stop kiosk.service
rm -rf /tmp/bench && mkdir -p /tmp/bench/path /tmp/bench/kivy
ln -s /srv/sushi-kiosk/benchmarks /tmp/bench/path/benchmarks
cd /tmp/bench
env SDL_VIDEODRIVER=kmsdrm KIVY_WINDOW=sdl2 KIVY_NO_ARGS=1 KIVY_NO_FILELOG=1 KIVY_NO_CONSOLELOG=1 \\
    KIVY_HOME=/tmp/bench/kivy SDL_AUDIODRIVER=dummy PYTHONPATH=/tmp/bench/path \\
    /opt/sushi-kiosk/current/bin/python -c \\
    "import benchmarks.bench_motion as b; b.child('maki', '/tmp/bench/out.json', {seconds}, True)"
cat /tmp/bench/out.json
"""


def _measure(arch: str, folder: Path, seconds: float) -> dict[str, Any]:
    from devtools.image import build
    from devtools.vm import Machine

    image = build(arch=arch)
    with Machine(image, folder, data_stick=image.arch == "amd64", cpus=2) as m:
        t0 = time.monotonic()
        m.boot(timeout=900)
        unit = m.wait_unit_status("kiosk.service", "attract mode", timeout=900)
        attract = time.monotonic() - t0
        start = (int(unit["ActiveEnterTimestampMonotonic"]) - int(unit["ExecMainStartTimestampMonotonic"])) / 1e6
        out = m.out(FRAMES.format(seconds=seconds), timeout=900)
        frames = json.loads(out.strip().splitlines()[-1])
        m.power_cut()
    return {
        "boot_to_attract_s": round(attract, 1),
        "kiosk_start_s": round(start, 1),
        "attract_frame_ms": round(1000 * frames["mean_frame_s"], 1),
        "attract_frame_p90_ms": round(1000 * frames["p90_frame_s"], 1),
        "frames": frames["frames"],
    }


def run(quick: bool = False) -> dict[str, Any]:
    missing = [t for t in ("qemu-system-x86_64", "qemu-system-aarch64", "qemu-aarch64-static") if not shutil.which(t)]
    if os.geteuid() != 0 or missing:
        return {"skipped": f"needs root and {', '.join(missing) or 'QEMU'}"}
    seconds = 10.0 if quick else 30.0
    with tempfile.TemporaryDirectory(prefix="bench-arm64-") as d:
        x86 = _measure("amd64", Path(d) / "x86", seconds)
        arm = _measure("arm64", Path(d) / "arm", seconds)
    ratios = {k: round(arm[k] / x86[k], 2) for k in x86 if k != "frames" and x86[k]}
    return {"x86_64": x86, "aarch64": arm, "arm_to_x86": ratios, "frame_seconds": seconds}
