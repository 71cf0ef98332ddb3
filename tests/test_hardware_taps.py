"""Tap stick reader over a real pseudo-terminal: protocol, bad input, lost taps, unplug/replug, races, threads."""

from __future__ import annotations

import time

import pytest
import serial.tools.list_ports
from hardware_testutil import Collector, LinkLog, latency_bound, live_threads, no_new_threads, wait_until
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serial.tools.list_ports_common import ListPortInfo

from hardware.config import StickPlace
from hardware.simboard import SimulatedBoard
from hardware.status import HardwareStatus
from hardware.taps import (
    MAX_LINE,
    RECONNECT_INTERVAL,
    LinkEvent,
    TapEvent,
    TapRace,
    TapReader,
    board_before,
    diff32,
    order_taps,
    race_winner,
    race_winners,
)

FAST = {"ping_interval": 0.1, "reconnect_interval": 0.05}


def is_link(kind):
    return lambda e: isinstance(e, LinkEvent) and e.kind == kind


def is_tap(**fields):
    return lambda e: isinstance(e, TapEvent) and all(getattr(e, k) == v for k, v in fields.items())


def quiet(board: SimulatedBoard) -> None:
    """Make the board stop answering (no PONG can land inside a byte stream a test writes by hand) and return
    once no answer can still be on its way: the board's thread has read the reader's next PING since."""
    board.answer = False
    seen = len(board.received)
    wait_until(lambda: len(board.received) > seen, "the board to read one more PING without answering it")


@pytest.fixture
def board(tmp_path):
    with SimulatedBoard(link=tmp_path / "tapstick0") as b:
        yield b


@pytest.fixture
def rig(board):
    """A started reader on the board's stable path, with the board's hello received."""
    events, status = Collector(), LinkLog()
    reader = TapReader(board.path, events, status=status, **FAST)
    reader.start()
    try:
        events.wait(is_link("hello"), "the board's hello")
        yield board, reader, events, status
    finally:
        reader.stop()


def test_taps_arrive_with_seat_hand_board_time_and_host_time(rig):
    board, reader, events, status = rig
    before = time.monotonic()
    board.tap(3, t_us=123456)
    ev = events.wait(is_tap(stick=3))
    after = time.monotonic()
    assert (ev.stick, ev.seat, ev.hand, ev.t_us) == (3, 1, "right", 123456)
    assert before <= ev.received <= after
    assert ev.lost_before == 0
    snap = status.snapshot()
    assert snap["sticks"][3]["taps"] == 1
    assert snap["recent_taps"][-1]["stick"] == 3
    assert snap["link"]["state"] == "ready" and snap["link"]["firmware"] == "1.0.0"


def test_reader_asks_hello_and_pings_and_estimates_latency(rig):
    board, reader, events, status = rig
    wait_until(lambda: board.received.count(b"PING\n") >= 2, what="two PINGs")
    assert board.received.startswith(b"HELLO?\n")
    wait_until(lambda: status.snapshot()["link"]["rtt_ms"] is not None, what="a PONG")
    tapped_at = time.monotonic()
    board.tap(0)
    ev = events.wait(is_tap(stick=0))
    # the estimate is the delay from the board stamp to arrival: never negative, and in seconds, no more than the
    # delay the test saw plus the sync point's error (a unit mix-up would be 1000 times off; a pty answers in well
    # under a millisecond when quiet, and a loaded machine makes the delay and the bound grow together)
    assert ev.latency is not None and 0.0 <= ev.latency <= latency_bound(ev, tapped_at, status)
    assert status.snapshot()["sticks"][0]["last_latency_ms"] == pytest.approx(ev.latency * 1000, abs=0.001)


def test_unmapped_stick_has_no_seat(board):
    events = Collector()
    with TapReader(board.path, events, sticks={0: StickPlace(0, "left")}, **FAST):
        events.wait(is_link("hello"), "the board's hello")
        board.tap(7)
        ev = events.wait(is_tap(stick=7))
    assert (ev.seat, ev.hand) == (None, None)


def test_garbage_partial_crlf_overlong_and_unknown_lines_are_survived(rig):
    board, reader, events, status = rig
    quiet(board)  # the byte stream below is exactly what the reader gets
    board.send_raw(b"\x00\xff\xfe garbage\n")  # binary garbage
    board.send_raw(b"TAP 1 100 ")  # a line in two parts: the reader holds the first ...
    wait_until(lambda: bytes(reader._serial_thread.protocol.buffer) == b"TAP 1 100 ", "the first part read")
    board.send_raw(b"0\r\n")  # ... until it is finished, with CRLF
    board.send_raw(b"X" * (MAX_LINE * 3))  # over-long, no newline yet
    board.send_raw(b"TAP 2 5 99\n")  # its tail: dropped with it
    board.send_raw(b"Y" * (MAX_LINE + 5) + b"\n")  # over-long in one chunk
    board.send_raw(b"LOG hello there\n")  # unknown message
    board.send_raw(b"TAP 12 5 1\nTAP 1 -5 1\nTAP 1 +5 1\nTAP 1 5\nTAP 1 4294967296 1\nTAP 1 \xd9\xa1 1\n")
    board.send_raw(b"TAP 4 200 1\n")
    events.wait(is_tap(stick=4))
    taps = events.of(TapEvent)
    assert [(t.stick, t.t_us, t.seq) for t in taps] == [(1, 100, 0), (4, 200, 1)]
    errors = status.snapshot()["line_errors"]
    assert errors["overlong"] == 2
    assert errors["unknown"] == 1
    assert errors["garbage"] == 7
    assert reader._serial_thread is not None and reader._serial_thread.is_alive()
    assert len(reader._serial_thread.protocol.buffer) <= MAX_LINE


def test_buffer_stays_capped_under_an_endless_line(rig):
    board, reader, events, status = rig
    protocol = reader._serial_thread.protocol
    chunks: list[tuple[int, int]] = []  # every chunk the reader got: (its size, the buffer's size after it)
    handle = protocol.data_received

    def measured(data: bytes) -> None:
        handle(data)
        chunks.append((len(data), len(protocol.buffer)))

    protocol.data_received = measured
    endless = 200 * 500
    board.send_raw(b"Z" * endless)  # one write: no PONG can end the line halfway
    board.send_raw(b"\nTAP 5 1 0\n")
    events.wait(is_tap(stick=5))
    assert sum(n for n, _ in chunks) >= endless + len(b"\nTAP 5 1 0\n")  # all of it went through the reader
    assert max(size for _, size in chunks) <= MAX_LINE  # after every chunk, not just at the end
    assert len(protocol.buffer) <= MAX_LINE
    assert status.snapshot()["line_errors"]["overlong"] == 1


@pytest.fixture(scope="module")
def fuzz_rig(tmp_path_factory):
    board = SimulatedBoard(link=tmp_path_factory.mktemp("fuzz") / "tapstick0")
    events = Collector()
    reader = TapReader(board.path, events, **FAST)
    reader.start()
    events.wait(is_link("hello"), "the board's hello")
    yield board, reader, events
    reader.stop()
    board.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    chunks=st.lists(
        st.one_of(st.binary(max_size=300), st.tuples(st.integers(0, 11), st.integers(0, 2**32 - 1))), max_size=12
    )
)
def test_fuzzed_byte_stream_never_stops_the_reader_and_keeps_valid_taps(fuzz_rig, chunks):
    board, reader, events = fuzz_rig
    events.clear()
    sent = []
    for chunk in chunks:
        if isinstance(chunk, bytes):
            board.send_raw(chunk)
        else:
            stick, t_us = chunk
            line = board.board.tap(stick, t_us)
            board.send_raw(b"\n" + line.encode())  # a newline first ends whatever garbage came before
            sent.append((stick, t_us, int(line.split()[3])))
    marker = board.board.tap(11, 4242)
    board.send_raw(b"\n" + marker.encode())
    events.wait(is_tap(stick=11, t_us=4242, seq=int(marker.split()[3])))
    got = {(e.stick, e.t_us, e.seq) for e in events.of(TapEvent)}
    assert set(sent) <= got
    assert reader._serial_thread.is_alive() and reader.link_state == "ready"


def test_sequence_gaps_count_lost_taps_across_the_16_bit_wrap(rig):
    board, reader, events, status = rig
    for seq in (65533, 65534, 65535, 0, 1, 4, 4, 5):  # lost: 2, 3; one duplicate 4
        board.send_line(f"TAP 0 {seq} {seq}\n")
    events.wait(is_tap(seq=5))
    taps = events.of(TapEvent)
    assert [t.seq for t in taps] == [65533, 65534, 65535, 0, 1, 4, 5]
    assert [t.lost_before for t in taps] == [0, 0, 0, 0, 0, 2, 0]
    snap = status.snapshot()
    assert snap["lost_taps"] == 2 and snap["line_errors"]["duplicate"] == 1


def test_hello_and_restart_reset_the_sequence_baseline(rig):
    board, reader, events, status = rig
    board.send_line("TAP 0 1 100\n")
    board.send_line("HELLO tapstick 1.0.1 12\n")  # the board rebooted: sequence starts over
    board.send_line("TAP 0 2 0\n")
    board.send_line("TAP 0 3 1\n")
    board.send_line("TAP 0 4 20000\n")  # a gap of 19998: counted
    board.send_line("TAP 0 5 10000\n")  # backwards: a silent restart, not counted
    board.send_line("TAP 0 6 10001\n")
    events.wait(is_tap(t_us=6))
    assert status.snapshot()["lost_taps"] == 19998
    assert events.wait(lambda e: isinstance(e, LinkEvent) and e.kind == "hello" and e.firmware == "1.0.1")


def test_handler_exception_is_counted_and_the_reader_goes_on(board):
    status = HardwareStatus()
    got = Collector()

    def handler(event):
        if isinstance(event, TapEvent) and event.stick == 1:
            raise RuntimeError("app bug")
        got(event)

    with TapReader(board.path, handler, status=status, **FAST):
        got.wait(is_link("hello"), "the board's hello")
        board.tap(1)
        board.tap(2)
        got.wait(is_tap(stick=2))
    assert status.snapshot()["line_errors"]["callback"] == 1


# -- link: unplug, replug, absent board, silent board, discovery ---------------------------------------------


def test_unplug_then_replug_reconnects_at_the_next_attempt(board):
    events, status = Collector(), LinkLog()
    before = live_threads()
    reader = TapReader(board.path, events, status=status)  # production timing: ping 1 s, retry 0.25 s
    assert reader.reconnect_interval == RECONNECT_INTERVAL == 0.25  # a reopen attempt every 0.25 s
    reader.start()
    events.wait(is_link("hello"), "the board's hello")
    board.tap(0)
    events.wait(is_tap(stick=0))

    board.unplug()
    lost = events.wait(is_link("lost"), "the link lost")
    assert lost.error
    wait_until(lambda: status.snapshot()["link"]["state"] == "lost", what="status lost")
    assert any("unplugged" in w for w in status.snapshot()["warnings"])
    wait_until(lambda: status.failed_opens() >= 3, "three failed reopen attempts")
    assert status.snapshot()["link"]["state"] == "lost"  # and it stays lost while they fail

    events.clear()
    board.plug()
    plugged = time.monotonic()
    events.wait(is_link("connected"), "the reconnection")
    # the reader reopened at its first attempt after the plug: at most the attempt already under way when the
    # board came back (its open started before the port was there) failed afterwards
    assert status.failed_opens(after=plugged) <= 1
    events.wait(is_link("hello"), "the board's hello")  # answer to the reader's HELLO?
    board.tap(6)
    tap = events.wait(is_tap(stick=6))
    assert tap.seq == 1 and tap.lost_before == 0  # seq 0 went while unplugged: not a "lost tap"
    snap = status.snapshot()
    assert snap["link"]["state"] == "ready" and snap["link"]["connects"] == 2 and snap["lost_taps"] == 0
    reader.stop()
    no_new_threads(before | {board._thread})


def test_board_absent_at_start_is_searched_for(tmp_path):
    events, status = Collector(), HardwareStatus()
    link = tmp_path / "tapstick0"
    reader = TapReader(str(link), events, status=status, **FAST)
    reader.start()
    try:
        wait_until(lambda: status.snapshot()["link"]["last_error"] is not None, what="a failed open")
        assert status.snapshot()["link"]["state"] == "searching"
        with SimulatedBoard(link=link) as board:
            events.wait(is_link("connected"), "the board found")
            events.wait(is_link("hello"), "the board's hello")
            board.tap(2)
            events.wait(is_tap(stick=2))
    finally:
        reader.stop()


def test_silent_board_is_reported_and_wakes_again(board):
    board.answer = False
    events = Collector()
    with TapReader(board.path, events, silent_after=0.3, **FAST) as reader:
        events.wait(is_link("connected"), "the connection")
        events.wait(is_link("silent"), "the silent board reported")
        assert reader.link_state == "silent"
        board.tap(1)
        events.wait(is_link("awake"), "the board awake again")
        events.wait(is_tap(stick=1))


def _port(device, vid=None, pid=None, serial_number=None):
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.serial_number = vid, pid, serial_number
    return info


def test_no_port_configured_finds_the_board_by_usb_ids(board, monkeypatch):
    ports = [
        _port("/dev/ttyS0"),
        _port("/dev/ttyACM9", 0x2E8A, 0x0005, "OTHER"),
        _port(board.slave_path, 0x2E8A, 0x0005, "E66138935F2B2A2C"),
    ]
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda *a, **k: ports)
    # not pinned to a serial number: the first matching device by name (ports listing order varies)
    assert TapReader(None, print).find_port() == min("/dev/ttyACM9", board.slave_path)
    assert TapReader(None, print, vid=0x1234).find_port() is None
    events = Collector()
    with TapReader(None, events, serial_number="E66138935F2B2A2C", **FAST) as reader:
        connected = events.wait(is_link("connected"), "the board found by its USB ids")
        assert connected.port == board.slave_path
        events.wait(is_link("hello"), "the board's hello")
        board.tap(9)
        assert events.wait(is_tap(stick=9)).seat == 4
        assert reader.connected_port == board.slave_path


def test_pyserial_url_port(tmp_path):
    events, status = Collector(), HardwareStatus()
    with TapReader("loop://", events, status=status, **FAST) as reader:
        events.wait(is_link("connected"), "the loop:// port open")
        # loop:// echoes our own HELLO?/PING back: not board messages, so counted (HELLO? as garbage, PING as an
        # unknown message), never fatal: wait until the echoes of the HELLO? and of two PINGs were handled
        wait_until(
            lambda: (
                status.snapshot()["line_errors"]["garbage"] >= 1 and status.snapshot()["line_errors"]["unknown"] >= 2
            ),
            "the echoed HELLO? and two echoed PINGs handled",
        )
        assert reader.link_state == "connected"
        assert reader._serial_thread is not None and reader._serial_thread.is_alive()


def test_stop_leaves_no_thread_behind_in_any_state(tmp_path):
    before = live_threads()
    # stopped while searching (after a failed open)
    status = HardwareStatus()
    r = TapReader(str(tmp_path / "none"), print, status=status, **FAST)
    r.start()
    wait_until(lambda: status.snapshot()["link"]["last_error"] is not None, what="a failed open")
    assert r.link_state == "searching"
    r.stop()
    no_new_threads(before)
    # stopped while connected, twice
    with SimulatedBoard(link=tmp_path / "tapstick0") as board:
        events = Collector()
        r = TapReader(board.path, events, **FAST)
        r.start()
        events.wait(is_link("hello"), "the board's hello")
        r.stop()
        r.stop()
        no_new_threads(before | {board._thread})
    no_new_threads(before)
    assert not [e for e in events.events if isinstance(e, LinkEvent) and e.kind == "lost"]


# -- ordering: the earlier board time wins --------------------------------------------------------------------


def _tap(stick, t_us, seq=0, received=0.0):
    return TapEvent(stick, stick // 2, "left", t_us, seq, received)


def test_earlier_board_time_wins_even_when_its_line_arrives_second():
    late_line = _tap(4, t_us=1_000, seq=1, received=5.003)
    early_line = _tap(2, t_us=1_200, seq=0, received=5.001)
    assert race_winner([early_line, late_line]) is late_line
    assert board_before(late_line, early_line)
    race = TapRace(window=0.01)
    race.add(early_line)
    assert race.winner(now=5.005) is None
    race.add(late_line)
    assert race.winner(now=5.0115) is late_line


def test_ordering_across_the_32_bit_clock_wrap():
    before_wrap = _tap(0, 2**32 - 100, received=1.002)
    after_wrap = _tap(1, 50, received=1.001)
    assert diff32(50, 2**32 - 100) == 150
    assert order_taps([after_wrap, before_wrap]) == [before_wrap, after_wrap]
    assert race_winner([after_wrap, before_wrap]) is before_wrap


def test_exact_tie_lists_both_and_first_arrival_breaks_it():
    a, b = _tap(0, 777, received=2.0), _tap(5, 777, received=1.0)
    assert race_winners([a, b]) == [b, a]
    assert race_winner([a, b]) is b
    assert race_winner([]) is None and TapRace().winner() is None


@given(
    base=st.integers(0, 2**32 - 1), offsets=st.lists(st.integers(-(2**29), 2**29), min_size=1, max_size=8, unique=True)
)
def test_order_taps_matches_true_time_order_wherever_the_clock_wraps(base, offsets):
    taps = [_tap(i % 12, (base + off) % 2**32, received=float(-off)) for i, off in enumerate(offsets)]
    expected = [t for _, t in sorted(zip(offsets, taps), key=lambda p: p[0])]
    assert order_taps(taps) == expected


def test_race_end_to_end_through_the_pty(rig):
    board, reader, events, status = rig
    race = TapRace(window=0.02)
    board.send_line("TAP 2 90000 0\n")  # the board sent stick 2's line first ...
    board.send_line("TAP 5 89990 1\n")  # ... but stick 5 was hit 10 us earlier
    for stick in (2, 5):
        race.add(events.wait(is_tap(stick=stick)))
    wait_until(lambda: race.winner() is not None, what="race decided")
    assert race.winner().stick == 5
