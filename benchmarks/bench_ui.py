"""Kiosk start-up and attract-mode frame time, each as a ratio to a bare Kivy app (one Label) started the same way
in the same run (issue 6). Budgets: start-up at most 2x the bare app, frame time at most 1.5x; the kiosk is
measured as it ships (English) and with the table in Japanese, every language enabled (``japanese_ratio``: the
CJK face in use from the first attract call), both held to the budgets.

Both apps run as child processes started identically (``python -c ...`` with the same environment and Kivy
configuration from :func:`kiosk.__main__.configure_kivy`), on the same X display (an Xvfb started here when
``$DISPLAY`` is unset), in a 1920x1080 window:

* **start-up**: from just before the parent starts the child until the child's first frame is flipped (for the
  kiosk: the first attract-mode frame), as ``time.monotonic()`` (one clock for all processes on Linux). The
  kiosk's picture atlas is rendered into the child's Kivy home first, untimed, as ``run.sh`` does before every
  start: a normal start finds it; a first start's render (about 0.3 s) is ``bench_look``'s figure. Both children
  load the checkout's bytecode, compiled before (untimed) as ``pip install`` compiles it on the table
  (:func:`benchmarks.util.compile_like_install`; with ``PYTHONDONTWRITEBYTECODE`` set, each start would otherwise
  recompile the kiosk from source, ~0.4 s of a ~1 s start).
* **frame time** (the budget): the mean time between two turns of Kivy's event loop over a few seconds, with the
  kiosk's own frame cap (60 fps) and Kivy's usual drawing (a frame is drawn when something changed); for the
  kiosk while attract mode's bots play a real game, for the bare app while its Label sits there. A ratio near
  1 means attract mode keeps the frame rate of an idle app.
* **full redraw** (for information): the same with no frame cap and a redraw forced every frame, i.e. what
  drawing the whole attract scene costs against drawing one Label. Under Xvfb's software renderer this is
  fill-rate bound (a full-screen rectangle alone costs ~30 ms on this machine), so it is far above the 1.5x
  budget here; it is reported so that changes in the scene's drawing cost are visible.
* **leave attract** (extra figure): from a touch being dispatched in attract mode to the flip of the first frame
  that shows the picker (the issue asks for 200 ms; under Xvfb's software renderer one 1080p frame alone takes
  a large part of it).

Under Xvfb, OpenGL is Mesa's software renderer, so absolute times are far above a Pi's GPU; the ratios are what
the budget is about.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.util import BENCH_LANGUAGE_ENV, child_env, display_env, measured_app

STARTUP_BUDGET = 2.0
FRAME_BUDGET = 1.5


# --------------------------------------------------------------------------------------------- child side
def child(kind: str, out: str, seconds: float) -> None:
    """Run inside the child process: the bare Label app or the kiosk; write figures as JSON to ``out``."""
    state = Path(tempfile.mkdtemp(prefix=f"bench-{kind}-"))
    from kiosk.__main__ import configure_kivy

    configure_kivy(state_dir=state, fullscreen=False, width=1920, height=1080, maxfps=60, log_level="warning")
    from kivy.clock import Clock
    from kivy.core.window import Window

    flips: list[float] = []
    ticks: list[float] = []
    result: dict[str, Any] = {}

    def on_tick(_dt: float) -> None:
        ticks.append(time.monotonic())

    def on_flip(*_a: Any) -> None:
        flips.append(time.monotonic())
        if len(flips) == 1:  # let start-up settle for a second after the first frame, then measure
            result["first_frame"] = flips[0]
            Clock.schedule_once(wait_for_attract_game, 1.0)

    def wait_for_attract_game(_dt: float) -> None:
        """The kiosk: measure once it is fully built and its bots play (the label app: at once)."""
        if kind == "kiosk" and not (app.builder.ready and app.sm.current.startswith("game:")):
            Clock.schedule_once(wait_for_attract_game, 0.1)
            return
        if kind == "kiosk":
            result["ready_after_first_frame_s"] = time.monotonic() - flips[0]
            result["app_first_frame"] = app.service.first_frame_at
        measure(0)

    def force_redraw(_dt: float) -> None:
        Window.canvas.ask_update()

    app = measured_app(kind, state)

    def gaps(ts: list[float]) -> list[float]:
        return [b - a for a, b in zip(ts, ts[1:])]

    def measure(_dt: float) -> None:
        tick = Clock.schedule_interval(on_tick, 0)

        def natural_done(_dt: float) -> None:
            g = gaps(ticks)
            if len(g) < 3:  # a slow first frame of a game screen (built when first shown) filled the window
                Clock.schedule_once(natural_done, seconds)
                return
            tick.cancel()
            result["frames"] = len(g)
            result["mean_frame_s"] = statistics.fmean(g)
            result["p90_frame_s"] = sorted(g)[int(0.9 * len(g))]
            result["drawn_frames"] = len(flips)
            # phase 2: no cap, a redraw forced every frame
            Clock._max_fps = 0
            start = len(flips)
            redraw = Clock.schedule_interval(force_redraw, 0)

            def forced_done(_dt: float) -> None:
                g2 = gaps(flips[start:])
                if len(g2) < 3:  # the same on a loaded machine: a few frames at least
                    Clock.schedule_once(forced_done, seconds / 2)
                    return
                redraw.cancel()
                result["redraw_frames"] = len(g2)
                result["redraw_mean_s"] = statistics.fmean(g2)
                Clock._max_fps = 60
                if kind == "kiosk":
                    result["attract_screen"] = app.sm.current
                    leave_attract()
                else:
                    app.stop()

            Clock.schedule_once(forced_done, seconds / 2)

        Clock.schedule_once(natural_done, seconds)

    def leave_attract() -> None:
        from kivy.tests.common import UnitTestTouch

        t = UnitTestTouch(1800, 540)
        t0 = time.monotonic()
        n = len(flips)
        t.touch_down()

        def check(_dt: float) -> None:
            if len(flips) > n and app.sm.current == "picker":
                result["leave_attract_s"] = flips[n] - t0
                t.touch_up()
                app.stop()
            else:
                Clock.schedule_once(check, 0)

        Clock.schedule_once(check, 0)

    Window.bind(on_flip=on_flip)
    app.run()
    Path(out).write_text(json.dumps(result))
    shutil.rmtree(state, ignore_errors=True)


# --------------------------------------------------------------------------------------------- parent side


def _run_child(kind: str, env: dict[str, str], seconds: float, language: str = "en") -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "result.json"
        code = f"import benchmarks.bench_ui as b; b.child({kind!r}, {str(out)!r}, {seconds!r})"
        kivy_env = child_env(env, Path(tmp) / "kivy")
        kivy_env[BENCH_LANGUAGE_ENV] = language
        root = Path(__file__).resolve().parents[1]
        if (
            kind == "kiosk"
        ):  # the picture atlas as run.sh renders it before every start (bench_look times a first start's)
            subprocess.run([sys.executable, "-m", "kiosk.ui.pictures"], env=kivy_env, cwd=root, capture_output=True)
        t0 = time.monotonic()
        proc = subprocess.run([sys.executable, "-c", code], env=kivy_env, cwd=root, capture_output=True, timeout=180)
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(f"{kind} child failed ({proc.returncode}): {proc.stderr.decode()[-2000:]}")
        res: dict[str, Any] = json.loads(out.read_text())
        res["startup_s"] = res["first_frame"] - t0
        return res


def run(quick: bool) -> dict[str, Any]:
    env, xvfb = display_env()
    try:
        rounds = 1 if quick else 3
        seconds = 2.0 if quick else 5.0
        bare = [_run_child("label", env, seconds) for _ in range(rounds)]
        kiosk = [_run_child("kiosk", env, seconds) for _ in range(rounds)]
        japanese = [_run_child("kiosk", env, seconds, language="ja") for _ in range(rounds)]
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(timeout=10)

    def med(rs: list[dict[str, Any]], key: str) -> float:
        return float(statistics.median(r[key] for r in rs))

    startup: dict[str, Any] = {
        "kiosk_s": round(med(kiosk, "startup_s"), 3),
        "bare_label_s": round(med(bare, "startup_s"), 3),
    }
    startup["ratio"] = round(startup["kiosk_s"] / startup["bare_label_s"], 3)
    startup["budget"] = STARTUP_BUDGET
    # the table in Japanese with every language enabled: the CJK face in use from the first attract call
    startup["kiosk_japanese_s"] = round(med(japanese, "startup_s"), 3)
    startup["japanese_ratio"] = round(startup["kiosk_japanese_s"] / startup["bare_label_s"], 3)
    startup["within_budget"] = startup["ratio"] <= STARTUP_BUDGET and startup["japanese_ratio"] <= STARTUP_BUDGET
    frame: dict[str, Any] = {
        "kiosk_ms": round(1000 * med(kiosk, "mean_frame_s"), 2),
        "bare_label_ms": round(1000 * med(bare, "mean_frame_s"), 2),
        "kiosk_p90_ms": round(1000 * med(kiosk, "p90_frame_s"), 2),
        "frames_measured": [r["frames"] for r in kiosk],
    }
    frame["ratio"] = round(frame["kiosk_ms"] / frame["bare_label_ms"], 3)
    frame["budget"] = FRAME_BUDGET
    frame["kiosk_japanese_ms"] = round(1000 * med(japanese, "mean_frame_s"), 2)
    frame["japanese_ratio"] = round(frame["kiosk_japanese_ms"] / frame["bare_label_ms"], 3)
    frame["within_budget"] = frame["ratio"] <= FRAME_BUDGET and frame["japanese_ratio"] <= FRAME_BUDGET
    redraw = {
        "kiosk_ms": round(1000 * med(kiosk, "redraw_mean_s"), 2),
        "bare_label_ms": round(1000 * med(bare, "redraw_mean_s"), 2),
    }
    redraw["ratio"] = round(redraw["kiosk_ms"] / redraw["bare_label_ms"], 3)
    leave = [r["leave_attract_s"] for r in kiosk if "leave_attract_s" in r]
    startup["kiosk_fully_built_after_first_frame_s"] = round(med(kiosk, "ready_after_first_frame_s"), 3)
    return {
        "startup": startup,
        "attract_frame": frame,
        "full_redraw_info": redraw,
        "leave_attract_ms": round(1000 * statistics.median(leave), 1) if leave else None,
        "rounds": rounds,
        "display": "own Xvfb" if xvfb is not None else env.get("DISPLAY"),
        "budget": {"startup_ratio": STARTUP_BUDGET, "frame_ratio": FRAME_BUDGET},
        "within_budget": startup["within_budget"] and frame["within_budget"],
    }


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=2))
