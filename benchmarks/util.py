"""Small helpers shared by the benchmark modules."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any


def percentiles(samples: Sequence[float], scale: float = 1000.0) -> dict[str, float]:
    """p50/p90/p99/max of samples (seconds), reported in milliseconds by default."""
    xs = sorted(samples)
    if not xs:
        return {}

    def q(p: float) -> float:
        return xs[min(len(xs) - 1, int(p * len(xs)))] * scale

    return {
        "n": len(xs),
        "p50": round(q(0.50), 3),
        "p90": round(q(0.90), 3),
        "p99": round(q(0.99), 3),
        "max": round(xs[-1] * scale, 3),
        "mean": round(statistics.fmean(xs) * scale, 3),
    }


def timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def display_env() -> tuple[dict[str, str], subprocess.Popen[bytes] | None]:
    """The environment for a child with a display: ``$DISPLAY``, or an Xvfb started here (stop it after)."""
    env = dict(os.environ)
    if env.get("DISPLAY"):
        return env, None
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise RuntimeError("no $DISPLAY and no Xvfb to start one (apt install xvfb)")
    r, w = os.pipe()
    proc = subprocess.Popen(
        [xvfb, "-displayfd", str(w), "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
        pass_fds=(w,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(w)
    with os.fdopen(r) as fh:
        number = fh.readline().strip()
    env["DISPLAY"] = f":{number}"
    return env, proc


#: The checkout the benchmark children run from (``cwd``: they import ``kiosk`` and ``benchmarks`` from here).
ROOT = Path(__file__).resolve().parents[1]


def compile_like_install() -> None:
    """Byte-compile the checkout's ``kiosk`` and ``benchmarks`` packages into their ``__pycache__`` folders, as
    ``pip install`` does for the kiosk on the table (``run.sh``, the installer). Without it, where
    ``PYTHONDONTWRITEBYTECODE`` is set (as on the build machine), every child would compile the kiosk's ~150
    modules from source at each start (about 0.4 s on this machine, while Kivy and the standard library load their
    installed bytecode), and a start-up figure would measure the compiler rather than the kiosk. Untimed; a no-op
    for files whose bytecode is up to date."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "-j", "0", "kiosk", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )


def child_env(env: dict[str, str], home: Path) -> dict[str, str]:
    """``env`` for a Kivy child of a benchmark: no argument parsing, no log files or console log, silent audio, and
    its own Kivy home (``home``) so that a user's Kivy configuration never changes a measurement. The checkout's
    bytecode is compiled first (:func:`compile_like_install`), as installed on a table."""
    compile_like_install()
    return dict(
        env,
        KIVY_NO_ARGS="1",
        KIVY_NO_FILELOG="1",
        KIVY_NO_CONSOLELOG="1",
        SDL_AUDIODRIVER="dummy",
        KIVY_HOME=str(home),
    )


#: The table's language in a UI benchmark's kiosk child (unset: English only, as a table ships).
BENCH_LANGUAGE_ENV = "KIOSK_BENCH_LANGUAGE"


def measured_app(kind: str, state: Path, attract: dict[str, float] | None = None) -> Any:
    """The app a UI benchmark child measures: ``"label"`` (a bare Kivy app showing one label, the baseline) or
    the kiosk in attract mode (its call lasting 1 s instead of 5, so that a measurement catches the bots
    playing; ``attract``: more of the ``[attract]`` settings, e.g. a shorter ``game_s`` to see every game).
    Kivy is imported here, in the child, after its configuration."""
    from kivy.app import App

    if kind == "label":
        from kivy.uix.label import Label

        class Bare(App):
            def build(self) -> Any:
                return Label(text="Hello, table", font_size=48)

        return Bare()
    from kiosk.app import KioskApp
    from kiosk.config import Config
    from kiosk.i18n import LANGUAGES

    # KIOSK_BENCH_LANGUAGE=ja: the table speaks it and every language is enabled (the attract call cycles them all)
    lang = os.environ.get(BENCH_LANGUAGE_ENV, "en")
    language = {"default": lang, "enabled": [lang] + [x for x in LANGUAGES if x != lang]} if lang != "en" else {}
    return KioskApp(
        Config().replace(
            attract={"call_s": 1.0, **(attract or {})}, check_ranges=False, **{"language": language} if language else {}
        ),
        state_dir=state,
        hardware="none",
        handle_signals=False,
        seed=7,
        kiosk_mode=False,
    )
