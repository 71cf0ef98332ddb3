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
* **replay stage**: the same frame time (``kiosk_replay_ms``, ``replay_ratio``, held to the same budget) while
  attract mode replays a guest's finished 207-move Maki game of four as the day's best (:mod:`kiosk.shell.replays`);
  and ``replay_start``: from asking for that replay to its return (``start_ms``: the journal read, replayed whole
  and checked, the screen set up) and to the flip of its first frame (budget 200 ms), with the game's screen
  already built (the first start of a screen attract mode had not shown is reported apart).
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
#: The replay stage: a guest's Maki game of four (seed 0: 207 moves) replayed in attract mode; its start's budget.
REPLAY_GAME, REPLAY_SEED = "maki", 0
REPLAY_STARTS = 4
REPLAY_START_BUDGET_MS = 200.0


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
        """The kiosk: measure once it is fully built and its bots play (the label app: at once); the replay stage:
        once the stores are open too, after the replay's start is timed (:func:`start_replays`)."""
        kiosk = kind in ("kiosk", "replay")
        stores = kind != "replay" or app.saved_games.available
        if kiosk and not (app.builder.ready and app.sm.current.startswith("game:") and stores):
            Clock.schedule_once(wait_for_attract_game, 0.1)
            return
        if kiosk:
            result["ready_after_first_frame_s"] = time.monotonic() - flips[0]
            result["app_first_frame"] = app.service.first_frame_at
        if kind == "replay":
            start_replays()
            return
        measure(0)

    def start_replays() -> None:
        """A guest's finished 200-move game of :data:`REPLAY_GAME` made the day's best, then its replay started
        :data:`REPLAY_STARTS` times in attract mode, each timed from the request to its return and to the flip of
        its first frame (the first start builds the game's screen if attract mode had not shown it yet); the last
        replay stays on screen for the frame-time measurement."""
        from devtools.guestgames import finished_game

        seats = [{"seat": seat.index, "bot": None if g == 0 else "easy"} for g, seat in enumerate(app.table.seats[:4])]
        _path, state = finished_game(app.saved_games, REPLAY_GAME, seats, REPLAY_SEED)
        result["replay_moves"] = sum(1 for r in state.journal if "seat" in r)
        app.go_attract()
        starts: list[tuple[float, float]] = []

        def one(_dt: float) -> None:
            n, t0 = len(flips), time.monotonic()
            app.director.jump_to("replay", REPLAY_GAME, hold=True)
            returned = time.monotonic() - t0

            def flipped(_dt: float) -> None:
                if len(flips) <= n or app.replays.session is None:
                    Clock.schedule_once(flipped, 0)
                    return
                starts.append((returned, flips[n] - t0))
                if len(starts) < REPLAY_STARTS:
                    Clock.schedule_once(one, 0.5)
                    return
                result["replay_starts"] = starts
                result["replay_screen"] = app.sm.current
                measure(0)

            Clock.schedule_once(flipped, 0)

        Clock.schedule_once(one, 0.5)

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
                if kind in ("kiosk", "replay"):
                    result["attract_screen"] = app.sm.current
                    result["replay_on_screen"] = app.replays.session is not None
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
            kind != "label"
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
        replay = [_run_child("replay", env, seconds) for _ in range(rounds)]
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
    frame["kiosk_replay_ms"] = round(1000 * med(replay, "mean_frame_s"), 2)
    frame["replay_ratio"] = round(frame["kiosk_replay_ms"] / frame["bare_label_ms"], 3)
    frame["within_budget"] = frame["within_budget"] and frame["replay_ratio"] <= FRAME_BUDGET
    warm = [s for r in replay for s in r["replay_starts"][1:]]  # the game's screen built already
    replay_start = {
        "moves": replay[0]["replay_moves"],
        "first_start_to_first_frame_ms": round(1000 * statistics.median(r["replay_starts"][0][1] for r in replay), 1),
        "start_ms": round(1000 * statistics.median(s[0] for s in warm), 1),
        "start_to_first_frame_ms": round(1000 * statistics.median(s[1] for s in warm), 1),
        "budget_ms": REPLAY_START_BUDGET_MS,
        "on_screen_while_measured": all(r.get("replay_on_screen") for r in replay),
    }
    replay_start["within_budget"] = replay_start["start_to_first_frame_ms"] <= REPLAY_START_BUDGET_MS
    leave = [r["leave_attract_s"] for r in kiosk if "leave_attract_s" in r]
    startup["kiosk_fully_built_after_first_frame_s"] = round(med(kiosk, "ready_after_first_frame_s"), 3)
    return {
        "startup": startup,
        "attract_frame": frame,
        "full_redraw_info": redraw,
        "replay_start": replay_start,
        "leave_attract_ms": round(1000 * statistics.median(leave), 1) if leave else None,
        "rounds": rounds,
        "display": "own Xvfb" if xvfb is not None else env.get("DISPLAY"),
        "budget": {"startup_ratio": STARTUP_BUDGET, "frame_ratio": FRAME_BUDGET},
        "within_budget": startup["within_budget"] and frame["within_budget"] and replay_start["within_budget"],
    }


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=2))
