"""The table on the Pi's processor against the PC, both booted in QEMU in the same run: the images of
:mod:`devtools.image` for ``amd64`` and ``arm64`` (built first if the cache lacks them, which is not timed), one
machine at a time with two emulated CPUs each, so that both meet the same load. Per machine:

* ``boot_to_attract_s``: QEMU started until ``kiosk.service`` is active with the status "attract mode";
* ``kiosk_start_s``: the kiosk's own start in that boot (systemd's ``ExecMainStartTimestampMonotonic`` to its
  active state: READY=1 comes after the first frame), as the guest's clock counts it;
* ``attract_frame_ms``: attract mode's frame time on the guest's KMS/DRM display, full screen (the kiosk's unit
  stopped, then :data:`CHILD`: the bots playing Maki, Kivy's usual drawing at its 60 fps cap, which emulation never
  reaches), the mean and the 90th percentile.

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

#: the measuring child, run in the guest as root with the installed app's Python (the kiosk's unit stopped, so the
#: display is free): the kiosk in attract mode at the display's own size (a bigger window's buffers do not fit the
#: emulated card's memory: its page flips fail), the bots playing Maki at once, then the mean gap between two turns
#: of Kivy's event loop over ``seconds``; it leaves at once when measured (os._exit: the figures are written)
CHILD = """
import json, os, statistics, sys, tempfile, time
from pathlib import Path
seconds = float(sys.argv[1])
state = Path(tempfile.mkdtemp(prefix="bench-arm64-"))
from kiosk.__main__ import configure_kivy
configure_kivy(state_dir=state, fullscreen=True, width=1280, height=800, maxfps=60, log_level="warning")
from kivy.clock import Clock
from kiosk.app import KioskApp
from kiosk.config import Config
app = KioskApp(
    Config().replace(attract={"call_s": 1.0, "move_delay_s": 0.3, "game_s": 600.0}, check_ranges=False),
    state_dir=state, hardware="none", handle_signals=False, seed=7, kiosk_mode=False,
)
ticks = []
def start(_dt):
    if app.service.first_frame_at is None or app.mode != "attract":
        Clock.schedule_once(start, 0.1)
        return
    app.builder.ensure_ready()
    app.director._cancel()
    app.director.stop_game()
    app.director.start_game("maki")
    Clock.schedule_once(measure, 2.0)
def measure(_dt):
    Clock.schedule_interval(lambda _dt: ticks.append(time.monotonic()), 0)
    Clock.schedule_once(done, seconds)
def done(_dt):
    gaps = sorted(b - a for a, b in zip(ticks, ticks[1:])) or [seconds]
    result = {"frames": len(gaps), "mean_frame_s": statistics.fmean(gaps), "p90_frame_s": gaps[int(0.9 * len(gaps))]}
    Path("/tmp/bench/out.json").write_text(json.dumps(result))
    os._exit(0)
Clock.schedule_once(start, 0.5)
app.run()
"""
FRAMES = """
set -e
systemctl stop kiosk.service
rm -rf /tmp/bench && mkdir -p /tmp/bench/kivy
cat > /tmp/bench/child.py <<'CHILD_EOF'
{child}
CHILD_EOF
cd /tmp/bench
env SDL_VIDEODRIVER=kmsdrm KIVY_WINDOW=sdl2 KIVY_NO_ARGS=1 KIVY_NO_FILELOG=1 KIVY_NO_CONSOLELOG=1 \\
    KIVY_HOME=/tmp/bench/kivy SDL_AUDIODRIVER=dummy /opt/sushi-kiosk/current/bin/python /tmp/bench/child.py {seconds}
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
        out = m.out(FRAMES.format(child=CHILD, seconds=seconds), timeout=900)
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
