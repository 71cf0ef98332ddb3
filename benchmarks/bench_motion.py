"""Frame time of every game in attract mode with its motion running, against attract mode's full redraw.

The budget (decision): a game's frame time, with pieces flying, order cards flipping and banners showing, is at
most 1.5x (``bench_ui.FRAME_BUDGET``) attract mode's *full redraw* measured in the same run (as bench_ui measures
it: no frame cap, a redraw forced every frame, while the bots play; here on the Maki game attract mode shows
first, measured by this module's own child so that it also runs on another checkout). Like bench_screens, the
like-for-like baseline is the full redraw: a frame with something in flight is drawn whole.

One child per game: the kiosk in attract mode, the director's bots' game of that title started at once with a
fast bot pace (``move_delay_s`` 0.3, the fastest that still shows a bot's motion: a move, and so a motion, about
every 0.3 s), then the mean time between two turns of Kivy's event loop (60 fps cap, Kivy's usual drawing) over
a few seconds, sampling how many ghosts (:func:`kiosk.ui.motion.active`) are in flight each frame, so the figure
says whether motion ran.

``KIOSK_BENCH_TREE`` (a folder holding another checkout of the kiosk) runs the same children on that tree, for a
before/after comparison in one run: ``KIOSK_BENCH_TREE=/tmp/before python -m benchmarks --only motion``.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import bench_ui
from benchmarks.util import child_env, display_env

FRAME_BUDGET = bench_ui.FRAME_BUDGET
GAMES = ("maki", "wasabi", "makoto", "takoyaki")


def child(key: str, out: str, seconds: float, redraw: bool = False) -> None:
    """Inside the child: the kiosk in attract mode showing ``key``'s bots; figures as JSON to ``out``. With
    ``redraw``: no frame cap and a redraw forced every frame (the full-redraw baseline), timed by the flips."""
    state = Path(tempfile.mkdtemp(prefix="bench-motion-"))
    from kiosk.__main__ import configure_kivy

    configure_kivy(state_dir=state, fullscreen=False, width=1920, height=1080, maxfps=60, log_level="warning")
    from kivy.clock import Clock
    from kivy.core.window import Window

    from kiosk.app import KioskApp
    from kiosk.config import Config
    from kiosk.ui import motion

    app = KioskApp(
        Config().replace(attract={"call_s": 1.0, "move_delay_s": 0.3, "game_s": 600.0}, check_ranges=False),
        state_dir=state,
        hardware="none",
        handle_signals=False,
        seed=7,
        kiosk_mode=False,
    )
    ticks: list[float] = []
    ghosts: list[int] = []
    result: dict[str, Any] = {"key": key}

    def on_tick(_dt: float) -> None:
        if not redraw:
            ticks.append(time.monotonic())
        ghosts.append(motion.active())

    def on_flip(*_a: Any) -> None:
        if redraw and measuring:
            ticks.append(time.monotonic())

    measuring: list[bool] = []
    Window.bind(on_flip=on_flip)

    def start(_dt: float) -> None:
        if app.service.first_frame_at is None or app.mode != "attract":
            Clock.schedule_once(start, 0.1)
            return
        app.builder.ensure_ready()
        director = app.director
        director._cancel()
        director.stop_game()
        director.start_game(key)
        Clock.schedule_once(measure, 2.0)

    def force(_dt: float) -> None:
        Window.canvas.ask_update()

    def measure(_dt: float) -> None:
        tick = Clock.schedule_interval(on_tick, 0)
        forcing = None
        if redraw:
            Clock._max_fps = 0
            forcing = Clock.schedule_interval(force, 0)
        measuring.append(True)

        def done(_dt: float) -> None:
            tick.cancel()
            if forcing is not None:
                forcing.cancel()
            gaps = [b - a for a, b in zip(ticks, ticks[1:])] or [float(seconds)]  # (one frame longer than all)
            result["frames"] = len(gaps)
            result["mean_frame_s"] = statistics.fmean(gaps)
            result["p90_frame_s"] = sorted(gaps)[int(0.9 * len(gaps))]
            result["frames_with_motion"] = sum(1 for n in ghosts if n)
            result["max_ghosts"] = max(ghosts) if ghosts else 0
            result["screen"] = app.sm.current
            app.stop()

        Clock.schedule_once(done, seconds)

    Clock.schedule_once(start, 0.5)
    app.run()
    Path(out).write_text(json.dumps(result))
    shutil.rmtree(state, ignore_errors=True)


def _run_game(key: str, env: dict[str, str], seconds: float, tree: Path, redraw: bool = False) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "result.json"
        # the child module from this checkout, the kiosk from ``tree`` (this one, or the one compared with)
        here = Path(__file__).resolve().parents[1]
        code = (
            f"import sys; sys.path[:0] = [{str(tree)!r}, {str(here)!r}]; "
            f"import benchmarks.bench_motion as b; b.child({key!r}, {str(out)!r}, {seconds!r}, {redraw!r})"
        )
        kivy_env = child_env(env, Path(tmp) / "kivy")
        proc = subprocess.run([sys.executable, "-c", code], env=kivy_env, cwd=tmp, capture_output=True, timeout=180)
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(f"{key} child failed ({proc.returncode}): {proc.stderr.decode()[-2000:]}")
        res: dict[str, Any] = json.loads(out.read_text())
        return res


def run(quick: bool) -> dict[str, Any]:
    env, xvfb = display_env()
    root = Path(__file__).resolve().parents[1]
    other = os.environ.get("KIOSK_BENCH_TREE")
    base_tree = Path(other) if other else root  # "today's" attract: the tree compared with, else this one
    try:
        seconds = 4.0 if quick else 8.0
        first = _run_game("maki", env, seconds / 2, base_tree, redraw=True)
        games = {k: _run_game(k, env, seconds, root) for k in GAMES}
        before = {k: _run_game(k, env, seconds, Path(other)) for k in GAMES} if other else {}
        last = _run_game("maki", env, seconds / 2, base_tree, redraw=True)
        mine = _run_game("maki", env, seconds / 2, root, redraw=True) if other else last
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(timeout=10)
    redraw_ms = 1000 * statistics.fmean([first["mean_frame_s"], last["mean_frame_s"]])
    report: dict[str, Any] = {
        "attract_full_redraw_ms": round(redraw_ms, 2),
        "attract_full_redraw_first_last_ms": [
            round(1000 * first["mean_frame_s"], 2),
            round(1000 * last["mean_frame_s"], 2),
        ],
        "attract_full_redraw_this_tree_ms": round(1000 * mine["mean_frame_s"], 2),
        "baseline_tree": str(base_tree),
        "budget": FRAME_BUDGET,
        "games": {},
    }
    ok = True
    for key, r in games.items():
        ms = 1000 * r["mean_frame_s"]
        ratio = ms / redraw_ms
        ok = ok and ratio <= FRAME_BUDGET
        row: dict[str, Any] = {
            "frame_ms": round(ms, 2),
            "p90_ms": round(1000 * r["p90_frame_s"], 2),
            "ratio_to_attract_full_redraw": round(ratio, 3),
            "frames": r["frames"],
            "frames_with_motion": r["frames_with_motion"],
            "max_ghosts": r["max_ghosts"],
        }
        if key in before:
            b = before[key]
            row["before_frame_ms"] = round(1000 * b["mean_frame_s"], 2)
            row["before_ratio"] = round(1000 * b["mean_frame_s"] / redraw_ms, 3)
            row["before_frames"] = b["frames"]
        report["games"][key] = row
    report["within_budget"] = ok
    return report


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=2))
