"""The operator menu's system entries in the real kiosk window: read-only mode off/on and an update from a USB
stick, each after a confirmation, handed to the root helper as request files in the state folder.

On this machine the table is not installed (no ``kiosk-admin.path``): the entries are disabled and say so. The
test then points the menu at a unit file of its own, as the installer would have put one in /etc.
"""

from __future__ import annotations

import json
import os
from typing import Any

import conftest
import pytest
from conftest import button_with_text, buttons, frames, screenshot, start_kiosk, tap, touch_down, touch_up

from kiosk.appliance import requests

pytestmark = [pytest.mark.appliance, pytest.mark.ui]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    assert os.environ.get("DISPLAY"), "UI tests need a display: run them under xvfb-run (see test.sh)"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    state = tmp_path_factory.mktemp("kiosk-state")
    from kiosk.config import Config
    from kiosk.pin import hash_pin

    cfg = Config().replace(
        timeouts={"menu_idle_s": 120.0},
        attract={"move_delay_s": 0.05, "game_s": 3.0, "boards_s": 1.0, "call_s": 1.0, "bot_level": "random"},
        operator={"hold_s": 0.6, "pin_hash": hash_pin("2468", iterations=10_000)},  # no factory PIN: set one
        check_ranges=False,  # a fast attract cycle
    )
    kiosk = start_kiosk(state, cfg, seed=3)
    yield kiosk
    from kivy.base import stopTouchApp

    kiosk.stop()
    stopTouchApp()


def _open_menu(app: Any) -> Any:
    conftest.run_until(lambda: app.mode == "attract", 10, "attract mode", settle=2)
    app.leave_attract(0)
    frames(2)
    hold = touch_down(20, 20)
    conftest.run_until(lambda: app.mode == "operator", 10, "the operator PIN pad", settle=2)
    touch_up(hold)
    op = app.operator
    for d in "2468":
        tap(button_with_text(op, d))
    tap(button_with_text(op, "OK"))
    conftest.run_until(lambda: op.phase == "menu", 10, "the menu (the PIN is checked in a thread)", settle=2)
    return op


def test_system_entries_hand_requests_to_the_root_helper(app: Any, tmp_path, monkeypatch) -> None:
    op = _open_menu(app)
    assert "not installed as a table" in op.system_text
    assert [b.disabled for b in buttons(op, "Update from USB stick...", enabled=False)] == [True]
    unit = tmp_path / "kiosk-admin.path"
    unit.write_text("[Path]\n")
    monkeypatch.setattr(requests, "HELPER_UNIT", unit)
    op.refresh()
    frames(2)
    assert "writable (maintenance)" in op.system_text and not op.read_only
    screenshot("operator_system")
    reqs = app.state_dir / "requests"
    tap(button_with_text(op, "Read-only: turn on..."))
    assert op.phase == "confirm" and "read-only mode back on" in op.confirm_text
    tap(button_with_text(op, "Cancel"))
    assert not (reqs / "read-only.request").exists(), "cancel asks nothing"
    tap(button_with_text(op, "Read-only: turn on..."))
    tap(button_with_text(op, "Yes, do it"))
    assert json.loads((reqs / "read-only.request").read_text())["on"] is True
    frames(2)
    assert "Working on: read-only" in op.system_text
    assert not buttons(op, "Update from USB stick..."), "one request at a time"
    # the helper carried it out and reported
    (reqs / "read-only.request").unlink()
    requests.write_status(app.state_dir, kind="read-only", ok=True, message="read-only mode on: the table restarts")
    tap(button_with_text(op, "\u21bb Refresh"))
    assert "read-only mode on: the table restarts" in op.system_text
    # readable on a smaller screen too: the system lines fit their label
    from kivy.core.window import Window

    for size in ((1280, 800), (1920, 1080)):
        Window.size = size
        frames(4)
        [label] = [w for w in op.walk(restrict=True) if getattr(w, "text", None) == op.system_text]
        assert label.texture_size[1] <= label.height + 1, (size, label.texture_size, label.height)
        screenshot(f"operator_system_{size[0]}x{size[1]}")
    tap(button_with_text(op, "Update from USB stick..."))
    assert "USB stick" in op.confirm_text
    tap(button_with_text(op, "Yes, do it"))
    assert json.loads((reqs / "update.request").read_text()) == {"from": "usb"}
    tap(button_with_text(op, "Close menu"))
    assert app.mode == "attract"
