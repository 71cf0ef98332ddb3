"""The Pico firmware's logic (hardware/firmware/tapcore.py) under CPython, and the board talking to the reader."""

from __future__ import annotations

import ast
import importlib.util
import math
import random
import time
from pathlib import Path

import pytest
from hardware_testutil import Collector, LinkLog, latency_bound, wait_until
from hypothesis import given, settings
from hypothesis import strategies as st

import hardware.firmware as firmware_pkg
from hardware.firmware import tapcore
from hardware.firmware.tapcore import (
    FULL_SCALE,
    MASK32,
    Clock32,
    CommandBuffer,
    StickDetector,
    TapBoard,
    diff32,
    encode_hello,
    encode_pong,
    encode_tap,
)
from hardware.simboard import SimulatedBoard
from hardware.taps import LinkEvent, TapEvent, TapReader

FIRMWARE = Path(firmware_pkg.__file__).parent


def piezo_tap(
    peak: float, ring_ms: float = 25.0, sample_us: int = 500, noise: float = 300.0, rng: random.Random | None = None
) -> list[int]:
    """A piezo disc's response to one knock: a decaying ring (rectified by the clamp), with noise."""
    rng = rng or random.Random(1)
    n = int(ring_ms * 1000 / sample_us)
    out = []
    for i in range(n):
        t = i * sample_us / 1e6
        v = peak * math.exp(-t / 0.006) * abs(math.sin(2 * math.pi * 400 * t + 0.3)) + rng.uniform(0, noise)
        out.append(max(0, min(FULL_SCALE, int(v))))
    return out


def run_detector(det: StickDetector, samples: list[int], start_us: int = 0, step_us: int = 500) -> list[int]:
    """Feed samples at ``step_us`` spacing from ``start_us``; return the tap times (board clock)."""
    return [
        (start_us + i * step_us) & MASK32
        for i, v in enumerate(samples)
        if det.feed(v, (start_us + i * step_us) & MASK32)
    ]


def test_one_ringing_knock_is_one_tap():
    det = StickDetector(threshold=12000, dead_us=60000)
    samples = [200] * 10 + piezo_tap(60000) + [200] * 200
    taps = run_detector(det, samples)
    assert len(taps) == 1
    assert taps[0] == 10 * 500 or taps[0] == 11 * 500  # stamped at the first sample over the threshold


def test_two_knocks_after_the_dead_time_are_two_taps_and_inside_it_one():
    det = StickDetector(threshold=12000, dead_us=60000)
    knock = piezo_tap(60000)
    quiet = [100] * ((70000 - len(knock) * 500) // 500)
    assert len(run_detector(det, knock + quiet + knock + [100] * 10)) == 2
    det = StickDetector(threshold=12000, dead_us=60000)
    assert len(run_detector(det, knock + [100] * 20 + knock + [100] * 10)) == 1  # 35 ms apart: one tap


def test_a_stuck_sensor_gives_one_tap_not_one_per_dead_time():
    det = StickDetector(threshold=FULL_SCALE // 2, dead_us=40000)
    closed = [FULL_SCALE] * 2000  # a switch held closed for a second
    assert len(run_detector(det, closed)) == 1
    assert len(run_detector(det, [0] * 4 + [FULL_SCALE] * 5, start_us=2000 * 500)) == 0  # 2 ms open: chatter
    assert len(run_detector(det, [0] * 12 + [FULL_SCALE] * 5, start_us=2010 * 500)) == 1  # 6 ms open, hit again


def test_a_ring_straddling_the_dead_time_end_is_not_a_second_tap():
    """A loud knock inside the dead time keeps ringing past its end; its zero crossings must not re-arm."""
    det = StickDetector(threshold=12000, dead_us=60000)
    knock = piezo_tap(65535, ring_ms=25)
    samples = knock + [50] * ((50000 - len(knock) * 500) // 500) + knock + [50] * 100  # 2nd at 50 ms
    assert len(run_detector(det, samples)) == 1


def test_noise_below_threshold_never_taps():
    det = StickDetector(threshold=12000)
    rng = random.Random(7)
    assert run_detector(det, [rng.randrange(0, 11999) for _ in range(5000)]) == []


@settings(max_examples=60, deadline=None)
@given(
    gaps_ms=st.lists(st.integers(1, 300), min_size=1, max_size=12),
    peak=st.integers(20000, 65535),
    start_us=st.integers(0, MASK32),
)
def test_knocks_count_exactly_when_spaced_beyond_the_dead_time(gaps_ms, peak, start_us):
    """Whatever the spacing, loudness and clock start (wrap included): a knock counts iff it comes after
    the dead time and after the previous ring fell under the re-arm level."""
    dead_ms, step_us = 60, 500
    det = StickDetector(threshold=12000, dead_us=dead_ms * 1000)
    knock = piezo_tap(peak, ring_ms=25)
    samples: list[int] = []
    starts = []
    for gap in gaps_ms:
        samples += [50] * (gap * 1000 // step_us)
        starts.append(len(samples))
        samples += knock
    samples += [50] * 10
    taps = run_detector(det, samples, start_us=start_us, step_us=step_us)
    # Knocks start at least 26 ms apart and any ring is under the re-arm level within 15 ms, so the quiet
    # time before each knock is always met. The tap is the knock's first sample at or above the threshold, and
    # it counts when it comes a dead time or more after the last counted tap, unless a sample of the same knock
    # before it, still inside the dead time, was at or above the re-arm level: that breaks the quiet the
    # detector needs to re-arm, and the knock is lost (as the firmware's docstring says).
    crossing = next(i for i, v in enumerate(knock) if v >= det.threshold)
    dead_samples = dead_ms * 1000 // step_us

    def counts(start: int, last_tap: int | None) -> bool:
        if last_tap is None:
            return True
        if start + crossing - last_tap < dead_samples:
            return False
        return all(knock[j] < det.rearm for j in range(crossing) if start + j - last_tap < dead_samples)

    expected, last_tap = 0, None
    for s in starts:
        if counts(s, last_tap):
            expected += 1
            last_tap = s + crossing
    assert len(taps) == expected
    for a, b in zip(taps, taps[1:]):
        assert diff32(b, a) >= dead_ms * 1000


def test_clock32_extends_a_30_bit_tick_counter_across_its_wrap():
    ticks = [2**30 - 10]
    period = 2**30

    def ticks_us():
        return ticks[0] % period

    def ticks_diff(a, b):  # MicroPython's ticks_diff for a 2**30 period
        d = (a - b) % period
        return d - period if d >= period // 2 else d

    clock = Clock32(ticks_us, ticks_diff)
    assert clock.now() == 0
    total = 0
    for step in [5, 20, 2**29 - 1, 2**29 - 1, 2**29 - 1, 2**29 - 1, 2**29 - 1, 2**29 - 1, 2**29 - 1, 2**29 - 1, 300]:
        ticks[0] += step
        total += step
        assert clock.now() == total & MASK32  # 32-bit wrap after 2**32 us, the ticks' 2**30 wrap invisible


def test_framing_and_commands():
    assert encode_tap(11, 2**32 + 5, 65536 + 3) == "TAP 11 5 3\n"
    assert encode_hello("1.0.0", 12) == "HELLO tapstick 1.0.0 12\n"
    assert encode_pong(7) == "PONG 7\n"
    buf = CommandBuffer(limit=8)
    assert buf.feed(b"PI") == []
    assert buf.feed(b"NG\r\nHELLO?\n") == ["PING", "HELLO?"]
    assert buf.feed(b"X" * 50 + b"\nPING\n") == ["PING"]  # over-long dropped whole
    assert buf.feed(b"\xff\x00PING\n") == ["PING"]  # non-printable bytes ignored
    clock = type("C", (), {"now": lambda self: 99})()
    board = TapBoard(clock, [StickDetector() for _ in range(3)])
    assert board.receive(b"PING\nHELLO?\nWHAT\n") == ["PONG 99\n", f"HELLO tapstick {tapcore.VERSION} 3\n"]
    assert [board.tap(0, 1) for _ in range(2)] == ["TAP 0 1 0\n", "TAP 0 1 1\n"]
    board.seq = 65535
    assert board.tap(2, 5) == "TAP 2 5 65535\n" and board.seq == 0
    assert board.scan([0, FULL_SCALE, 0]) == ["TAP 1 99 0\n"]
    with pytest.raises(ValueError):
        TapBoard(clock, [StickDetector() for _ in range(13)])


def test_a_terminals_enter_ends_a_command_too():
    """A terminal's Enter sends ``\\r`` (mpremote, screen, minicom), some send ``\\r\\n``: typing ``HELLO?`` and
    Enter is one command, one answer, whichever end comes, also one byte at a time as the Pico reads them."""
    buf = CommandBuffer(limit=8)
    assert buf.feed(b"HELLO?\r") == ["HELLO?"]
    assert buf.feed(b"PING\r\nPING\n\rPING\r\r") == ["PING", "PING", "", "PING", ""]  # \n\r and \r\r: two ends
    assert buf.feed(b"X" * 50 + b"\rPING\r") == ["PING"]  # an over-long line ends at a \r too, dropped whole
    clock = type("C", (), {"now": lambda self: 7})()
    board = TapBoard(clock, [StickDetector() for _ in range(12)])
    typed = b"HELLO?\r\nPING\rWHAT\r\n\r\nPING\n"
    replies = [r for byte in typed for r in board.receive(bytes([byte]))]  # the \n of a \r\n in the next read
    assert replies == [f"HELLO tapstick {tapcore.VERSION} 12\n", "PONG 7\n", "PONG 7\n"]


def test_firmware_files_parse_and_use_only_micropython_modules():
    allowed = {"sys", "select", "time", "machine", "board_config", "tapcore", "micropython"}
    for name in ("main.py", "board_config.py", "tapcore.py"):
        tree = ast.parse((FIRMWARE / name).read_text(), name)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                mods = {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                mods = {(node.module or "").split(".")[0]}
            else:
                continue
            assert mods <= allowed, (name, mods)
            assert not (isinstance(node, ast.ImportFrom) and node.module == "__future__"), name
    spec = importlib.util.spec_from_file_location("board_config", FIRMWARE / "board_config.py")
    cfg = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cfg)
    assert len(cfg.STICKS) == 12 and len({(k, g) for k, g, _t, _d in cfg.STICKS}) == 12
    for kind, _gpio, threshold, dead in cfg.STICKS:
        assert kind in ("switch", "piezo", "mux")
        StickDetector(threshold=threshold, dead_us=dead)  # valid settings


def test_simulated_board_through_the_firmware_code_to_the_reader(tmp_path):
    """End to end: tapcore's framing -> a real pty -> TapReader, with the 32-bit clock wrapping mid-game."""
    status = LinkLog()
    events = Collector()
    start = MASK32 - 1_500_000  # the board clock wraps 1.5 s after it started
    started_us = time.monotonic_ns() // 1000  # the host time (monotonic) of the board's `start`

    def board_clock() -> int:  # the simulated board's own clock (start_us=start), with its start known here
        return (start + time.monotonic_ns() // 1000 - started_us) & MASK32

    with (
        SimulatedBoard(link=tmp_path / "tapstick0", clock=board_clock) as board,
        TapReader(board.path, events, status=status, ping_interval=0.05, reconnect_interval=0.05),
    ):
        events.wait(lambda e: isinstance(e, LinkEvent) and e.kind == "hello", "the board's hello")
        wait_until(lambda: status.snapshot()["link"]["rtt_ms"] is not None, what="a PONG")
        # The first tap is stamped at the board's start, before the wrap whatever this machine's speed; its
        # line goes out now (a tap the board held back while the link came up: its latency is that long).
        first = board.tap(0, t_us=start)
        wait_until(lambda: board.now() < start, what="the board clock wrapping")
        time.sleep(0.05)  # the second tap at least 50 ms after the wrap (a slower machine: later)
        tapped_at = time.monotonic()
        second = board.tap(1)
        done = time.monotonic()
        t0 = events.wait(lambda e: isinstance(e, TapEvent) and e.stick == 0, "the first tap")
        t1 = events.wait(lambda e: isinstance(e, TapEvent) and e.stick == 1, "the second tap")
    assert (t0.t_us, t1.t_us) == (int(first.split()[2]), int(second.split()[2]))
    assert t1.t_us < t0.t_us  # the raw clock wrapped ...
    # ... the difference did not: it is the host time between the board's start and the second tap's stamp, so
    # more than the 1.5 s to the wrap plus the 50 ms after it, and no more than the time until board.tap returned
    assert 1.55e6 < diff32(t1.t_us, t0.t_us) <= done * 1e6 - started_us + 2
    assert t0.latency is not None and t1.latency is not None
    assert 0.0 <= t1.latency <= latency_bound(t1, tapped_at, status)  # a sync point from before the wrap, or after
    assert status.snapshot()["lost_taps"] == 0
    assert first.startswith("TAP 0 ") and second.startswith("TAP 1 ")
