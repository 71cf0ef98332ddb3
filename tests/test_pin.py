"""The operator PIN's policy (delays, lockout, failure log that survives a restart) and the health snapshot
(no Kivy; a real state file on disk)."""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk import health
from kiosk.config import load_safely
from kiosk.pin import LOCKOUT_AFTER, LOCKOUT_S, PinGuard, check_in_background, delay_after, hash_pin, new_pin_hash
from kiosk.storage import HighScores, SavedGames


class Clock:
    def __init__(self, t: float = 1_800_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def test_three_free_tries_then_growing_delays_then_a_lockout() -> None:
    """Reproduces: each corner hold gave three fresh tries with no delay, so the PIN space fell to patience."""
    assert [delay_after(n) for n in range(12)] == [0, 0, 0, 5, 10, 20, 40, 60, 60, 60, LOCKOUT_S, LOCKOUT_S]
    clock = Clock()
    guard = PinGuard(None, clock=clock)
    waits = [guard.record_failure() for _ in range(LOCKOUT_AFTER)]
    assert waits == [0, 0, 5, 10, 20, 40, 60, 60, 60, LOCKOUT_S], "the 4th try waits 5 s, the 11th 15 minutes"
    assert guard.locked_out and guard.wait_s() == LOCKOUT_S
    clock.t += LOCKOUT_S - 1
    assert guard.locked_out and guard.wait_s() == pytest.approx(1)
    clock.t += 1
    assert not guard.locked_out and guard.wait_s() == 0
    assert guard.record_failure() == LOCKOUT_S, "after the lockout, every wrong PIN locks again"
    guard.record_success()
    assert guard.wait_s() == 0 and guard.consecutive == 0


def test_the_count_and_the_log_survive_a_restart(tmp_path: Path, caplog: Any) -> None:
    clock = Clock()
    path = tmp_path / "operator-pin.json"
    with caplog.at_level(logging.WARNING, logger="kiosk.operator"):
        guard = PinGuard(path, clock=clock)
        for _ in range(4):
            clock.t += 1
            guard.record_failure()
    assert caplog.text.count("wrong operator PIN at ") == 4, "each failure is logged with its time"
    again = PinGuard(path, clock=clock)  # pulling the plug buys nothing
    assert again.consecutive == 4 and again.wait_s() == 10
    assert len(again.failures_since_menu()) == 4
    again.menu_opened()
    assert PinGuard(path, clock=clock).failures_since_menu() == []
    clock.t += 100
    again.record_failure()
    assert len(PinGuard(path, clock=clock).failures_since_menu()) == 1


def test_a_clock_that_goes_back_never_lengthens_a_wait() -> None:
    clock = Clock()
    guard = PinGuard(None, clock=clock)
    for _ in range(5):
        guard.record_failure()
    clock.t -= 10 * 365 * 86400  # a Pi without a real-time clock boots in the past
    assert guard.wait_s() == delay_after(5)


@settings(max_examples=80, deadline=None)
@given(content=st.one_of(st.binary(max_size=200), st.builds(lambda n: b"[" * n, st.integers(1, 20_000))))
def test_a_damaged_failure_log_is_moved_aside(tmp_path_factory: Any, content: bytes) -> None:
    folder = tmp_path_factory.mktemp("pin")
    path = folder / "operator-pin.json"
    path.write_bytes(content)
    guard = PinGuard(path)
    assert guard.consecutive == 0 and guard.failures == []
    assert guard.problem is not None and "moved aside" in guard.problem
    assert [p.read_bytes() for p in folder.glob("operator-pin.corrupt-*.json")] == [content]
    guard.record_failure()
    assert json.loads(path.read_text())["consecutive"] == 1


def test_the_pin_set_up_wants_the_same_digits_twice() -> None:
    with pytest.raises(ValueError, match="differ"):
        new_pin_hash("1234", "1243")
    with pytest.raises(ValueError, match="4 to 8 digits"):
        new_pin_hash("12", "12")
    assert new_pin_hash("123456", "123456").startswith("pbkdf2_sha256$120000$")


def test_checking_a_pin_runs_in_a_thread() -> None:
    h = hash_pin("2580", iterations=10_000)
    got: list[tuple[bool, str]] = []
    done = threading.Event()

    def record(ok: bool) -> None:
        got.append((ok, threading.current_thread().name))
        done.set()

    check_in_background("2580", h, record).join(10)
    assert done.is_set() and got == [(True, "pin-check")]


# ------------------------------------------------------------------------------------------------ health
def test_health_snapshot_shows_what_needs_the_operator(tmp_path: Path) -> None:
    (tmp_path / "scores.json").write_bytes(b'{"plays/2026": {"x": {"game": "maki", "day": "2026-11-29", "count": 1}}}')
    (tmp_path / "kiosk.json").write_bytes(b"\x00garbage")
    loaded = load_safely(tmp_path / "kiosk.json")
    clock = Clock()
    guard = PinGuard(tmp_path / "operator-pin.json", clock=clock)
    guard.record_failure()
    with HighScores(tmp_path / "scores.json") as scores, SavedGames(tmp_path / "games") as saved:
        scores.add("maki", "ANA", 3)
        h = health.collect(
            state_dir=tmp_path,
            scores=scores,
            saved_games=saved,
            loaded_config=loaded,
            pin_guard=guard,
            pin_set=loaded.config.operator.pin_set,
            hardware=["Hardware: mock pins"],
        )
    assert h.marks() == ["No operator PIN", "Settings problem"]
    assert h.boards == {"maki": 1} and len(h.scores_problems) == 1
    assert h.files_aside and h.files_aside[0].startswith("scores.corrupt-")
    assert h.free_bytes is not None and h.total_bytes
    assert len(h.pin_failures) == 1 and h.config_source == "defaults"
    text = "\n".join(h.lines())
    for needle in (
        "1 entry on 1 board",
        "Damaged files kept aside: 1",
        "MB free",
        "running on the defaults",
        "not valid JSON",
        "Operator PIN: NOT SET; wrong PINs since last visit: 1",
        "Hardware: mock pins",
    ):
        assert needle in text, (needle, text)
    assert any("wrong PIN" in p for p in h.problems())
    assert health.Health().marks() == [] and health.Health().problems() == []
    assert not h.data_stick_missing  # no fstab entry for this folder: no data stick expected
    assert health.data_stick_missing(None) is False and health.data_stick_missing(tmp_path) is False


def test_a_missing_data_stick_is_marked_first_and_said_first() -> None:
    h = health.Health(data_stick_missing=True, pin_set=False, config_problems=("x",))
    assert h.marks() == ["No data stick", "No operator PIN", "Settings problem"]
    assert h.problems()[0] == health.DATA_STICK_MISSING and "nothing is kept" in h.problems()[0]
    assert h.lines()[0] == health.DATA_STICK_MISSING and h.lines()[1].startswith("High scores: ")
    assert health.Health(data_stick_missing=True).marks() == ["No data stick"]
    assert health.DATA_STICK_MISSING not in health.Health().lines()
