"""The look's costs: resident memory in attract mode against a bare Kivy app showing one label, and the picture
atlas's first-start rendering time.

Budget: the kiosk's resident memory (RSS) in attract mode, while bots play, at most 2x a bare Kivy app (one Label)
started the same way in the same run; the absolute megabytes are reported too (a Pi 4 has 2-8 GB, a Pi 3 1 GB).
Attract mode shows the four games in turn, each with its own screen, so the figure judged is the **peak over a
whole cycle** (each game shown for 12 s instead of 40; RSS read every half second, per screen), not the first
game's: Makoto's screen is the heaviest, and memory a game's screen took is not all given back when it goes.
The kiosk is measured twice, as it ships (English only) and with the table in Japanese and every language enabled
(the call in all five, Japanese in the CJK face: ``attract_japanese_mb``, held to the same budget). It is also
measured without the picture font (``KIOSK_EMOJI_FONT`` pointing nowhere: pieces drawn as
shapes), so the atlas's own share is visible. The replay stage (``attract_replay_mb``, held to the same budget):
a guest's finished Makoto game of four replayed in attract mode as the day's best (:mod:`kiosk.shell.replays`).
Each figure is one child process (``python -c``), 1920x1080, on the same X display (Xvfb started here when
``$DISPLAY`` is unset: :func:`benchmarks.util.display_env`); RSS is
read from ``/proc/self/status`` after the kiosk is fully built and an attract game has played for a while.

The atlas: :func:`kiosk.ui.pictures.build_atlas` timed in this process into a temporary folder (what the first
start pays when ``python -m kiosk.ui.pictures`` did not run at install), and the PNG's size.
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

from benchmarks.util import BENCH_LANGUAGE_ENV, child_env, measured_app

MEMORY_BUDGET = 2.0
#: The replay stage's game: Makoto's screen is the heaviest.
REPLAY_GAME = "makoto"
CYCLE_GAME_S = 12.0  # each attract game's slot while a cycle is measured (the product's default: 40 s)
CYCLE_LIMIT_S = 200.0


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def child(kind: str, out: str, settle: float, cycle: bool = False) -> None:
    """Inside the child: the bare Label app or the kiosk in attract mode; writes {"rss_mb": ...} to ``out``.

    ``cycle``: the kiosk through a whole attract cycle (every game once, then the first again for a while):
    ``rss_mb`` is the peak, ``per_screen`` each screen's peak, ``first_game_mb`` the first game's after
    ``settle`` seconds (the figure this benchmark reported before)."""
    state = Path(tempfile.mkdtemp(prefix=f"bench-look-{kind}-"))
    from kiosk.__main__ import configure_kivy

    configure_kivy(state_dir=state, fullscreen=False, width=1920, height=1080, maxfps=60, log_level="warning")
    from kivy.clock import Clock

    result: dict[str, Any] = {}
    app = measured_app(kind, state, attract={"game_s": CYCLE_GAME_S, "boards_s": 2.0} if cycle else None)
    peaks: dict[str, float] = {}
    seen: list[str] = []
    started = time.monotonic()

    def ready() -> bool:
        stores = kind != "replay" or app.saved_games.available
        return kind == "label" or (app.builder.ready and app.sm.current.startswith("game:") and stores)

    def poll(_dt: float) -> None:
        if not ready():
            Clock.schedule_once(poll, 0.1)
            return
        if kind == "replay":  # a guest's Makoto game of four (the heaviest screen) replayed as the day's best
            from devtools.guestgames import finished_game

            seats = [{"seat": s.index, "bot": None if g == 0 else "easy"} for g, s in enumerate(app.table.seats[:4])]
            finished_game(app.saved_games, REPLAY_GAME, seats, 1)
            app.go_attract()
            app.director.jump_to("replay", REPLAY_GAME, hold=True)
        Clock.schedule_once(done, settle)
        if cycle:
            Clock.schedule_once(sample, 0.5)

    def sample(_dt: float) -> None:
        screen = app.sm.current
        peaks[screen] = max(peaks.get(screen, 0.0), _rss_mb())
        if screen.startswith("game:") and (not seen or seen[-1] != screen):
            seen.append(screen)
        games = [s for s in seen if s.startswith("game:")]
        back_to_first = len(games) > len(set(games))  # every game shown, and the first one again
        if (back_to_first and time.monotonic() - started > 10) or time.monotonic() - started > CYCLE_LIMIT_S:
            result.update(
                rss_mb=max(peaks.values()), per_screen={k: round(v, 1) for k, v in peaks.items()}, games=games
            )
            app.stop()
            return
        Clock.schedule_once(sample, 0.5)

    def done(_dt: float) -> None:
        if kind != "label":
            result["screen"] = app.sm.current
            result["replay_on_screen"] = app.replays.session is not None
        if cycle:
            result["first_game_mb"] = _rss_mb()
            return
        result["rss_mb"] = _rss_mb()
        app.stop()

    Clock.schedule_once(poll, 1.0)
    app.run()
    Path(out).write_text(json.dumps(result))
    shutil.rmtree(state, ignore_errors=True)


def _run_child(
    kind: str, env: dict[str, str], settle: float, font: str | None = None, cycle: bool = False, language: str = "en"
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "result.json"
        code = f"import benchmarks.bench_look as b; b.child({kind!r}, {str(out)!r}, {settle!r}, {cycle!r})"
        kivy_env = child_env(env, Path(tmp) / "kivy")
        if font is not None:
            kivy_env["KIOSK_EMOJI_FONT"] = font
        kivy_env[BENCH_LANGUAGE_ENV] = language
        root = Path(__file__).resolve().parents[1]
        proc = subprocess.run([sys.executable, "-c", code], env=kivy_env, cwd=root, capture_output=True, timeout=400)
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(f"{kind} child failed ({proc.returncode}): {proc.stderr.decode()[-2000:]}")
        result: dict[str, Any] = json.loads(out.read_text())
        return result


def _atlas() -> dict[str, Any]:
    from kiosk.games import GAMES, pictures_of
    from kiosk.ui import pictures

    pictures.use_pictures(pictures_of(GAMES))  # what the app's build hands the kit
    if not pictures.font_path().is_file():
        return {"error": f"no picture font at {pictures.font_path()}"}
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        pictures.build_atlas(Path(tmp))
        seconds = time.perf_counter() - t0
        png = Path(tmp) / f"{pictures.ATLAS_NAME}.png"
        return {
            "build_s": round(seconds, 3),
            "pictures": len(pictures.PICTURES),
            "png_kb": round(png.stat().st_size / 1024, 1),
            "texture_mb": round(png_texture_mb(png), 2),
        }


def png_texture_mb(png: Path) -> float:
    from PIL import Image

    with Image.open(png) as im:
        return im.width * im.height * 4 / 2**20


def run(quick: bool) -> dict[str, Any]:
    from benchmarks.util import display_env

    env, xvfb = display_env()
    settle = 2.0 if quick else 5.0
    rounds = 1 if quick else 2
    try:
        bare = [_run_child("label", env, settle) for _ in range(rounds)]
        kiosk = [_run_child("kiosk", env, settle, cycle=True) for _ in range(rounds)]
        japanese = [_run_child("kiosk", env, settle, cycle=True, language="ja") for _ in range(rounds)]
        shapes = [_run_child("kiosk", env, settle, font=os.devnull + ".missing") for _ in range(rounds)]
        replay = [_run_child("replay", env, settle) for _ in range(rounds)]
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(timeout=10)
    bare_mb = statistics.median(r["rss_mb"] for r in bare)
    kiosk_mb = statistics.median(r["rss_mb"] for r in kiosk)
    first_mb = statistics.median(r["first_game_mb"] for r in kiosk)
    shapes_mb = statistics.median(r["rss_mb"] for r in shapes)
    ja_mb = statistics.median(r["rss_mb"] for r in japanese)
    replay_mb = statistics.median(r["rss_mb"] for r in replay)
    ratio, ja_ratio, replay_ratio = kiosk_mb / bare_mb, ja_mb / bare_mb, replay_mb / bare_mb
    return {
        "memory": {
            "bare_label_mb": round(bare_mb, 1),
            "attract_mb": round(kiosk_mb, 1),  # the peak over a whole attract cycle
            "attract_first_game_mb": round(first_mb, 1),
            "attract_per_screen_mb": kiosk[0].get("per_screen"),
            "attract_without_pictures_mb": round(shapes_mb, 1),
            "ratio": round(ratio, 3),
            # the table in Japanese, every language enabled (the call in all five, the CJK face in use)
            "attract_japanese_mb": round(ja_mb, 1),
            "japanese_ratio": round(ja_ratio, 3),
            # a guest's Makoto game replayed as the day's best (kiosk.shell.replays), a few seconds in
            "attract_replay_mb": round(replay_mb, 1),
            "replay_ratio": round(replay_ratio, 3),
            "replay_on_screen": all(r.get("replay_on_screen") for r in replay),
            "budget": MEMORY_BUDGET,
            "within_budget": ratio <= MEMORY_BUDGET and ja_ratio <= MEMORY_BUDGET and replay_ratio <= MEMORY_BUDGET,
            "attract_screen": kiosk[0].get("screen"),
            "attract_games": kiosk[0].get("games"),
        },
        "atlas": _atlas(),
    }
