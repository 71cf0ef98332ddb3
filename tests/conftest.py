"""The shared Kivy harness of the UI tests.

Kivy allows one App per process. ``test_ui.py`` runs the real :class:`kiosk.app.KioskApp` inside the pytest
process; every other UI test file runs its scenarios in one child process (the test file run as a script, see
:func:`run_child` and :func:`run_scenarios`), which writes each scenario's result to a JSON file the pytest side
asserts on, one test per scenario. Both build the app with :func:`start_kiosk`, exactly as ``app.run()`` does,
then step Kivy's event loop themselves (:func:`frames`, :func:`run_until`) and drive the app with simulated
touches (``kivy.tests.common.UnitTestTouch`` dispatched through the window, :class:`Finger`, :func:`tap`) and
seat events (:func:`seat_event`). Screenshots go to ``artifacts/`` (``$KIOSK_ARTIFACTS``) for a human to look at.

Test files and their child scripts import these helpers as ``from conftest import ...`` (pytest puts this
folder on ``sys.path`` for its conftest; a script run as ``python tests/test_x.py`` has its own folder there).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

#: The search bots' fixed budget in UI tests (a decision then depends on the seed alone).
BOT_ITERATIONS = 40

ARTIFACTS = Path(os.environ.get("KIOSK_ARTIFACTS", Path(__file__).resolve().parents[1] / "artifacts"))


# =============================================================================================== pytest
#: The tiers other than ``unit``: a test marked with none of them is a unit test (see pyproject.toml's markers).
TIERS = ("ui", "slow", "appliance", "events", "system", "arm64")

try:  # the child scripts import this file without pytest's plugins configured; hypothesis is always installed
    from hypothesis import HealthCheck, settings

    #: ci: the same examples every run (a red run is about the change, not the draw); dev: new examples each run,
    #: a failure kept in .hypothesis/ and tried first next time. ./test.sh picks dev, .ci/run picks ci.
    settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
    settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
    HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
    settings.load_profile(HYPOTHESIS_PROFILE)
except ImportError:  # pragma: no cover
    HYPOTHESIS_PROFILE = "none"


def pytest_report_header(config: Any) -> str:
    return f"hypothesis profile: {HYPOTHESIS_PROFILE} (HYPOTHESIS_PROFILE=ci or dev)"


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    """Mark every test outside the other tiers ``unit``; give a UI file's tests its child's bound (``CHILD_S``)
    plus a minute, so pytest-timeout never cuts a child short."""
    booted = {Path(__file__).parent / tier: tier for tier in ("system", "arm64")}
    for item in items:
        for folder, tier in booted.items():  # the booted tiers are never run by the everyday tiers
            if folder in Path(str(item.fspath)).parents and not item.get_closest_marker(tier):
                item.add_marker(getattr(pytest.mark, tier))
        if not any(item.get_closest_marker(t) for t in TIERS):
            item.add_marker(pytest.mark.unit)
        child_s = getattr(item.module, "CHILD_S", None)
        if child_s is not None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(child_s + 60))


def pytest_xdist_make_scheduler(config: Any, log: Any) -> Any:
    """The booted tier (``-m system``) spreads its few long tests one by one (a file's tests together only when
    they share one booted table: see tests/system/conftest.py), so that two workers each run a VM to the end."""
    if (config.getoption("markexpr") or "").strip() != "system":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class OneTablePerScope(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            from system.conftest import scope_of

            return scope_of(nodeid)

    config.option.loadscopereorder = False  # (xdist would put the files with the most tests first)
    return OneTablePerScope(config, log)


# =============================================================================================== the app
def start_kiosk(state: Path, cfg: Any, **app_kw: Any) -> Any:
    """Configure Kivy, build and start the real kiosk in a 1920x1080 window, build every screen now."""
    from kiosk.__main__ import configure_kivy

    configure_kivy(state_dir=state, fullscreen=False, width=1920, height=1080, log_level="warning")
    from kivy.base import runTouchApp
    from kivy.core.window import Window

    from kiosk import clock
    from kiosk.app import KioskApp

    clock.freeze()  # virtual time from here: see frames()
    app_kw.setdefault("seed", 1)
    app_kw.setdefault("bot_iterations", BOT_ITERATIONS)

    assert type(Window).__module__ == "kivy.core.window.window_sdl2", f"window provider is {type(Window)}"
    assert os.environ.get("SDL_VIDEODRIVER", "x11") == "x11", "SDL must draw to the X display, not offscreen"
    app = KioskApp(
        cfg, state_dir=state, config_path=state / "kiosk.json", hardware="mock", handle_signals=False, **app_kw
    )
    Window.size = (1920, 1080)
    app._run_prepare()  # App.run() without its loop: the tests turn the loop themselves
    runTouchApp(embedded=True)
    frames(3)
    assert app.service.first_frame_at is not None, "the first frame was drawn"
    app.builder.ensure_ready()  # normally built one piece per frame after the first frame
    frames(2)
    return app


def build_app(state: Path, **cfg_overrides: Any) -> Any:
    """A child's kiosk: long timeouts (no idle prompt, no attract return while a scenario runs); ``timeouts``
    among the overrides changes only the ones it names."""
    from kiosk.config import Config

    timeouts = {
        "idle_s": 900.0,
        "still_playing_s": 60.0,
        "menu_idle_s": 900.0,
        "initials_s": 30.0,
        "results_s": 60.0,
    }
    timeouts.update(cfg_overrides.pop("timeouts", {}))
    cfg = Config().replace(
        timeouts=timeouts,
        attract={"move_delay_s": 0.05, "game_s": 600.0, "boards_s": 1.0, "call_s": 1.0, "bot_level": "random"},
        check_ranges=False,  # a fast attract cycle (outside the ranges a config file may use)
        **cfg_overrides,
    )
    return start_kiosk(state, cfg)


# =============================================================================================== the loop, touches
# The one harness (devtools/harness.py): the touch driver and the screenshot tour turn the loop the same way.
from devtools.harness import (  # noqa: E402, F401  (the test files import them from here)
    STEP,
    Finger,
    centre_of,
    frames,
    run_for,
    run_until,
    tap,
    tap_at,
    tick,
    to_window,
    touch_down,
    touch_up,
    window_point,
)


def buttons(root: Any, text: str | None = None, enabled: bool = True) -> list[Any]:
    """The buttons under ``root`` (with ``text``; only the enabled, visible ones unless ``enabled`` is False)."""
    from kivy.uix.button import Button

    return [
        w
        for w in root.walk(restrict=True)
        if isinstance(w, Button)
        and (text is None or w.text == text)
        and (not enabled or (not w.disabled and w.opacity > 0))
    ]


def button_with_text(root: Any, text: str) -> Any:
    found = buttons(root, text)
    assert found, f"no enabled button {text!r} in {root}"
    return found[0]


def seat_event(app: Any, seat_index: int, source: str, kind: str, button: str | None = None) -> None:
    from kiosk.inputs import SeatEvent

    app.hub.emit(SeatEvent(seat_index, source, kind, button=button))
    frames(1)


def screenshot(name: str) -> Path:
    from kivy.core.window import Window

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    frames(3)
    made = Window.screenshot(name=str(ARTIFACTS / f"{name}.png"))
    target = ARTIFACTS / f"{name}.png"
    shutil.move(made, target)
    return target


# =============================================================================================== child processes
def run_child(script: Path, tmp: Path, timeout: float = 150, env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Run a test file as a script (``child_main(tmp, out)``) under this display; its scenario results."""
    assert os.environ.get("DISPLAY"), "UI tests need a display: run them under xvfb-run (see test.sh)"
    out = tmp / "results.json"
    child_env = dict(
        os.environ,
        SDL_AUDIODRIVER="dummy",
        KIVY_NO_ARGS="1",
        KIVY_NO_FILELOG="1",
        KIVY_HOME=str(tmp / "kivy"),
        KIOSK_ARTIFACTS=str(ARTIFACTS),
        **(env or {}),
    )
    proc = subprocess.run(
        [sys.executable, str(script), str(tmp), str(out)],
        env=child_env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if not out.exists():
        raise AssertionError(f"child failed (rc {proc.returncode}):\n{proc.stdout[-4000:]}\n{proc.stderr[-6000:]}")
    results: dict[str, Any] = json.loads(out.read_text())
    return results


def run_scenarios(scenarios: dict[str, Callable[[], None]], out: Path) -> None:
    """In the child: run each scenario, writing "ok" or its traceback to ``out`` after each one."""
    results: dict[str, str] = {}
    for name, fn in scenarios.items():
        t0 = time.monotonic()
        try:
            fn()
            results[name] = "ok"
        except Exception:
            results[name] = traceback.format_exc()
        print(f"{name}: {results[name]} ({time.monotonic() - t0:.1f} s)", flush=True)
        out.write_text(json.dumps(results))


def sd_messages(sock: socket.socket, until: str, timeout: float) -> list[str]:
    """The sd_notify datagrams a kiosk sends to ``sock`` until one contains ``until`` (or ``timeout`` s)."""
    got: list[str] = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        sock.settimeout(max(0.05, end - time.monotonic()))
        try:
            got.append(sock.recv(4096).decode())
        except TimeoutError:
            break
        if any(until in m for m in got):
            break
    return got
