"""The diagnostics screen in a real Kivy window (its own process: see tests/hardware_diag_child.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.ui

CHILD = Path(__file__).with_name("hardware_diag_child.py")
#: The child's one bound (conftest gives this file's tests a pytest-timeout a minute longer): its screen runs on
#: frames of virtual time; it waits on the hardware threads for as long as they take, up to this.
CHILD_S = 600
ARTIFACTS = Path(os.environ.get("KIOSK_ARTIFACTS", Path(__file__).resolve().parents[1] / "artifacts"))


@pytest.fixture(scope="module")
def obs(tmp_path_factory):
    out = tmp_path_factory.mktemp("diag")
    cmd = [sys.executable, str(CHILD), str(out)]
    if not os.environ.get("DISPLAY"):
        xvfb = shutil.which("xvfb-run")
        if xvfb is None:
            pytest.skip("no display and no xvfb-run: the diagnostics screen needs a real window (see test.sh)")
        cmd = [xvfb, "-a", "-s", "-screen 0 1920x1080x24"] + cmd
    env = dict(os.environ, KIVY_NO_ARGS="1", KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1", SDL_AUDIODRIVER="dummy")
    env.pop("SDL_VIDEODRIVER", None)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=CHILD_S, env=env)
    except subprocess.TimeoutExpired as exc:  # the child's last "waiting for" line says where it hung
        raise AssertionError(f"child still running after {CHILD_S} s:\n{exc.stdout}\n{exc.stderr}") from None
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("OBS ")]
    assert proc.returncode == 0 and lines, f"child failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    data = json.loads(lines[-1][4:])
    shot = out / "diagnostics.png"
    if shot.exists():
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, ARTIFACTS / "diagnostics.png")
    data["_shot"] = str(shot)
    return data


def test_runs_in_a_real_window(obs):
    assert obs["window"] == "kivy.core.window.window_sdl2"
    assert obs["screenshot"] == ["diagnostics.png"]
    assert Path(obs["_shot"]).stat().st_size > 10_000


def test_kv_loaded_once_and_one_widget_per_device(obs):
    assert obs["kv_loaded_once"] == 1
    assert obs["seat_rows"] == 6 and obs["stick_cells"] == 12


def test_buttons_light_up_live_and_stuck_ones_warn(obs):
    assert obs["lamp_2a_lit"] and not obs["lamp_2b_lit"]
    assert obs["stuck_warning"] and "Seat 2 button a" in obs["stuck_warning"][0]
    assert obs["lamp_2a_warn"]


def test_taps_show_with_latency_and_link_state(obs):
    assert obs["stick5_text"].startswith("Stick 5\nseat 2 right\n1 tap ") and obs["stick5_text"].endswith(" ms")
    assert "stick  5  seat 2 right" in obs["taps_text"] and obs["taps_text"].endswith(" ms")
    assert (
        obs["link_text_ready"].startswith("Tap board: ready") and "firmware 1.0.0, 12 sticks" in obs["link_text_ready"]
    )
    assert obs["link_text_lost"].startswith("Tap board: LOST - reconnecting")


def test_lost_taps_and_dead_switches(obs):
    assert "Lost taps: 39" in obs["counters_text"] and "Games: 3" in obs["counters_text"]
    assert "Seat 0 button b not used in the last 2 games: check the switch" in obs["warnings_text"]
    assert obs["lamp_0b_warn"] and not obs["lamp_4b_warn"]


def test_refresh_runs_only_while_shown_and_back_returns(obs):
    assert obs["refreshing_before_enter"] is False
    assert obs["refreshing_when_shown"] is True
    assert obs["refreshing_after_leave"] is False and obs["refreshes_while_hidden"] == 0
    assert obs["after_back"] == "operator" and obs["refreshing_after_back"] is False
