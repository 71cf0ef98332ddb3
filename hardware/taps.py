"""Tap sticks: the board's USB serial line protocol (hardware/PROTOCOL.md), read with pyserial's threads.

Example (needs a board, so not a doctest)::

    reader = TapReader("/dev/tapstick0", on_event=print, sticks=DEFAULT_STICKS)
    reader.start()   # prints LinkEvent(kind='connected', ...), LinkEvent(kind='hello', ...), then e.g.
                     # TapEvent(stick=3, seat=1, hand='right', t_us=81234567, seq=17, received=5123.04, ...)
    reader.stop()

Threads: :meth:`TapReader.start` starts one supervisor thread (``tapreader``) that finds and opens the port,
runs pyserial's :class:`serial.threaded.ReaderThread` (``tapreader-serial``) with :class:`TapLineReader`, sends
``PING`` every second and reconnects after an unplug. ``on_event`` is called in the serial thread for taps and
in either thread for link events; hand them to the UI with ``Clock.schedule_once``. :meth:`TapReader.stop`
ends and joins both.

Rationale and decisions: docs/developer/design.md, section ``hardware/taps.py``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

import serial
import serial.threaded
import serial.tools.list_ports

from .config import (
    DEFAULT_STICKS,
    DEFAULT_USB_PID,
    DEFAULT_USB_VID,
    MAX_STICKS,
    HardwareConfigError,
    StickPlace,
    parse_sticks,
)
from .status import HardwareStatus

log = logging.getLogger(__name__)

MASK32 = 0xFFFFFFFF
SEQ_MOD = 0x10000
#: Longest line accepted from the board, in bytes without the newline (a TAP line is at most 24).
MAX_LINE = 128
PING_INTERVAL = 1.0
RECONNECT_INTERVAL = 0.25
SILENT_AFTER = 3.0
WRITE_TIMEOUT = 0.5

LINK_KINDS = ("connected", "hello", "silent", "awake", "lost")


@dataclass(frozen=True)
class TapEvent:
    """One tap. ``seat``/``hand`` come from the stick map (None for an unmapped stick); ``t_us`` is the board
    clock (wraps at 2**32); ``seq`` the board's sequence number; ``received`` the host's monotonic time when the
    line arrived; ``latency`` the estimated board-to-host delay in seconds (None before the first PONG);
    ``lost_before`` how many taps went missing just before this one (a sequence gap)."""

    stick: int
    seat: int | None
    hand: str | None
    t_us: int
    seq: int
    received: float
    latency: float | None = field(default=None, compare=False)
    lost_before: int = field(default=0, compare=False)


@dataclass(frozen=True)
class LinkEvent:
    """The serial link changed: ``kind`` is one of :data:`LINK_KINDS`.

    ``connected``: the port is open (``port`` says which); ``hello``: the board introduced itself
    (``firmware``, ``sticks``); ``silent``: connected but nothing heard for 3 s; ``awake``: heard again;
    ``lost``: the port failed or closed (``error`` says why). ``received`` is the host's monotonic time.
    """

    kind: str
    port: str | None
    received: float
    firmware: str | None = None
    sticks: int | None = None
    error: str | None = None


HardwareEvent = TapEvent | LinkEvent


# -- ordering ------------------------------------------------------------------------------------------------


def diff32(a: int, b: int) -> int:
    """``a - b`` on the board's 32-bit microsecond clock, as a signed number (valid while |a - b| < 2**31)."""
    d = (a - b) & MASK32
    return d - 0x100000000 if d >= 0x80000000 else d


def board_before(a: TapEvent, b: TapEvent) -> bool:
    """True when ``a`` happened strictly before ``b`` by the board's clock (wrap-aware)."""
    return diff32(a.t_us, b.t_us) < 0


def order_taps(taps: Iterable[TapEvent]) -> list[TapEvent]:
    """The taps in board-time order (earliest first), whatever order their lines arrived in.

    Equal board times keep their arrival order. All taps must come from one board and lie within 35 minutes.
    """
    taps = list(taps)
    if not taps:
        return []
    ref = taps[0].t_us
    return sorted(taps, key=lambda e: (diff32(e.t_us, ref), e.received))


def race_winners(taps: Iterable[TapEvent]) -> list[TapEvent]:
    """Every tap sharing the earliest board time (usually one; two when both sticks hit in the same scan)."""
    ordered = order_taps(taps)
    if not ordered:
        return []
    first = ordered[0].t_us
    return [e for e in ordered if e.t_us == first]


def race_winner(taps: Iterable[TapEvent]) -> TapEvent | None:
    """The earliest tap by board time; an exact tie goes to the line that arrived first. None if no taps."""
    winners = race_winners(taps)
    return winners[0] if winners else None


class TapRace:
    """Collects the taps of one race and names the winner once late lines can no longer change it.

    A tap's line can arrive after a later tap's line (the board stamps the tap when it sees it, and the lines
    share one USB pipe), but never more than a few milliseconds late. So the race is decided ``window``
    seconds (host time) after the first tap arrived: every tap with an earlier board time is in by then.

    >>> race = TapRace(window=0.01)
    >>> race.add(TapEvent(1, 0, "right", t_us=500, seq=8, received=10.002))
    >>> race.add(TapEvent(4, 2, "left", t_us=420, seq=7, received=10.003))
    >>> race.winner(now=10.005) is None      # too early to say
    True
    >>> race.winner(now=10.013).stick
    4
    """

    def __init__(self, window: float = 0.01) -> None:
        self.window = window
        self.taps: list[TapEvent] = []

    def add(self, tap: TapEvent) -> None:
        self.taps.append(tap)

    def first_received(self) -> float | None:
        return min((t.received for t in self.taps), default=None)

    def winner(self, now: float | None = None) -> TapEvent | None:
        """The winner, or None while no tap arrived or the window (from the first arrival) is still open."""
        first = self.first_received()
        if first is None:
            return None
        if (time.monotonic() if now is None else now) - first < self.window:
            return None
        return race_winner(self.taps)


# -- the line protocol ---------------------------------------------------------------------------------------


def _num(token: str, limit: int) -> int | None:
    """A plain decimal number 0..limit (ASCII digits only: ``int()`` would also take '+1', '1_0', '١')."""
    if not token or len(token) > 10 or not all("0" <= c <= "9" for c in token):
        return None
    value = int(token)
    return value if value <= limit else None


class TapLineReader(serial.threaded.LineReader):
    """pyserial's line reader for the board: LF terminator, capped buffer, never raises into the thread."""

    TERMINATOR = b"\n"
    ENCODING = "ascii"
    UNICODE_HANDLING = "replace"

    def __init__(self, owner: TapReader, generation: int) -> None:
        super().__init__()
        self.owner = owner
        self.generation = generation  # which connection this is: a late call from an old one is ignored
        self.discarding = False
        self.chunk_time = 0.0

    def data_received(self, data: bytes) -> None:
        self.chunk_time = time.monotonic()
        super().data_received(data)
        if len(self.buffer) > MAX_LINE:
            # no newline within MAX_LINE bytes: drop what we have and everything up to the next newline
            self.buffer.clear()
            if not self.discarding:
                self.discarding = True
                self.owner._line_error("overlong")

    def handle_packet(self, packet: bytes) -> None:
        if self.discarding:  # the tail of an over-long line
            self.discarding = False
            return
        if len(packet) > MAX_LINE:  # arrived whole in one chunk
            self.owner._line_error("overlong")
            return
        super().handle_packet(packet)

    def handle_line(self, line: str) -> None:
        try:
            if self.generation == self.owner._generation:
                self.owner._handle_line(line, self.chunk_time)
        except Exception:  # a bug here must not end the serial thread
            log.exception("tap line %r could not be handled", line)

    def connection_lost(self, exc: BaseException | None) -> None:
        # The base class re-raises exc in the serial thread; we only tell the supervisor.
        self.transport = None
        self.owner._connection_lost(exc, self.generation)


class TapReader:
    """Reads the tap stick board and calls ``on_event`` with :class:`TapEvent` and :class:`LinkEvent`.

    ``port``: a device path (``/dev/tapstick0``), a pyserial URL (``loop://``, ``rfc2217://...``), or None to
    find the board among ``serial.tools.list_ports.comports()`` by ``vid``/``pid`` (and ``serial_number`` when
    given). ``sticks``: stick -> :class:`~hardware.config.StickPlace` or the config's plain dict form.
    ``status``: a :class:`~hardware.status.HardwareStatus` kept up to date.

    ``on_event`` must return quickly and must not call :meth:`stop` (it runs in the threads ``stop`` joins).
    """

    def __init__(
        self,
        port: str | None,
        on_event: Callable[[HardwareEvent], Any],
        *,
        sticks: Mapping[Any, Any] | None = None,
        vid: int = DEFAULT_USB_VID,
        pid: int = DEFAULT_USB_PID,
        serial_number: str | None = None,
        baudrate: int = 115200,
        status: HardwareStatus | None = None,
        ping_interval: float = PING_INTERVAL,
        reconnect_interval: float = RECONNECT_INTERVAL,
        silent_after: float = SILENT_AFTER,
    ) -> None:
        self.port = port
        self.on_event = on_event
        self.sticks = _stick_map(DEFAULT_STICKS if sticks is None else sticks)
        self.vid, self.pid, self.serial_number = vid, pid, serial_number
        self.baudrate = baudrate
        self.status = status
        self.ping_interval = ping_interval
        self.reconnect_interval = reconnect_interval
        self.silent_after = silent_after
        if status is not None:
            status.register_sticks(self.sticks)
        self._thread: threading.Thread | None = None
        self._wake = threading.Event()
        self._stopping = False
        self._serial_thread: serial.threaded.ReaderThread[TapLineReader] | None = None
        self._lost_error: str | None = None
        self._lost_flag = False
        self._generation = 0
        self._current_port: str | None = None
        # protocol state (serial thread)
        self._last_seq: int | None = None
        self._pending_lost = 0
        self._last_rx = 0.0
        self._silent = False
        self._ping_sent: float | None = None
        self._syncs: deque[tuple[float, float, int]] = deque(maxlen=4)  # (rtt, host time, board t_us)
        self._errors_logged = 0
        self.link_state = "stopped"
        self.firmware: str | None = None
        self.board_sticks: int | None = None

    # -- lifecycle ------------------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the supervisor thread; it returns at once (the board may come later)."""
        if self._thread is not None:
            raise RuntimeError("TapReader already started")
        self._stopping = False
        self._set_state("searching")
        self._thread = threading.Thread(target=self._supervise, name="tapreader", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Close the port and end both threads (joined); safe to call twice."""
        thread = self._thread
        if thread is None:
            return
        self._stopping = True
        self._wake.set()
        thread.join(timeout)
        if thread.is_alive():
            log.error("tap reader did not stop within %.1f s", timeout)
        self._thread = None
        self._set_state("stopped")

    def __enter__(self) -> TapReader:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def connected_port(self) -> str | None:
        """The port in use now, or None."""
        return self._current_port if self._serial_thread is not None else None

    def request_hello(self) -> bool:
        """Send ``HELLO?`` now; False when not connected."""
        return self._write(b"HELLO?\n")

    # -- supervisor thread ------------------------------------------------------------------------------------

    def find_port(self) -> str | None:
        """The configured port, or the first serial port with our vid/pid (and serial number), or None."""
        if self.port:
            return self.port
        found = sorted(
            p.device
            for p in serial.tools.list_ports.comports()
            if p.vid == self.vid
            and p.pid == self.pid
            and (self.serial_number is None or p.serial_number == self.serial_number)
        )
        return found[0] if found else None

    def _open(self, port: str) -> serial.SerialBase:
        if "://" in port:
            return serial.serial_for_url(port, baudrate=self.baudrate, timeout=None, write_timeout=WRITE_TIMEOUT)
        return serial.Serial(port, baudrate=self.baudrate, timeout=None, write_timeout=WRITE_TIMEOUT, exclusive=True)

    def _supervise(self) -> None:
        last_error: str | None = None
        next_ping = 0.0
        try:
            while not self._stopping:
                if self._serial_thread is None:
                    port = self.find_port()
                    if port is None:
                        self._set_state(
                            "lost" if self.link_state == "lost" else "searching",
                            last_error=f"no board with USB id {self.vid:04x}:{self.pid:04x}",
                        )
                        self._wake.wait(self.reconnect_interval)
                        self._wake.clear()
                        continue
                    try:
                        ser = self._open(port)
                    except (serial.SerialException, OSError, ValueError) as exc:
                        if str(exc) != last_error:
                            log.debug("tap board port %s: %s", port, exc)
                        last_error = str(exc)
                        self._set_state(
                            "lost" if self.link_state == "lost" else "searching", port=port, last_error=last_error
                        )
                        self._wake.wait(self.reconnect_interval)
                        self._wake.clear()
                        continue
                    self._connect(ser, port)
                    next_ping = time.monotonic() + self.ping_interval
                    last_error = None
                    continue
                thread = self._serial_thread
                if self._lost_flag or not thread.is_alive():
                    self._disconnect(self._lost_error or "serial thread ended")
                    continue
                now = time.monotonic()
                if now >= next_ping:
                    self._ping_sent = time.monotonic()
                    self._write(b"PING\n")
                    next_ping = now + self.ping_interval
                if not self._silent and now - self._last_rx > self.silent_after:
                    self._silent = True
                    self._set_state("silent")
                    self._emit(LinkEvent("silent", self._current_port, now))
                    self._write(b"HELLO?\n")
                self._wake.wait(max(0.0, min(next_ping - time.monotonic(), self.reconnect_interval)))
                self._wake.clear()
        except Exception:  # pragma: no cover - the supervisor must log, never vanish silently
            log.exception("tap reader supervisor failed")
        finally:
            if self._serial_thread is not None:
                self._disconnect(None, emit=False)

    def _connect(self, ser: serial.SerialBase, port: str) -> None:
        self._lost_flag = False
        self._lost_error = None
        self._last_seq = None
        self._pending_lost = 0
        self._silent = False
        self._ping_sent = None
        self._syncs.clear()
        self._last_rx = time.monotonic()
        self._current_port = port
        self.firmware = self.board_sticks = None
        self._generation += 1
        generation = self._generation
        # serial_for_url is typed as returning the base class; ReaderThread only reads and writes through it
        thread = serial.threaded.ReaderThread(cast(serial.Serial, ser), lambda: TapLineReader(self, generation))
        thread.name = "tapreader-serial"
        self._serial_thread = thread
        self._set_state("connected", port=port, last_error=None)
        log.info("tap board connected on %s", port)
        self._emit(LinkEvent("connected", port, time.monotonic()))
        thread.start()
        self._write(b"HELLO?\n")

    def _disconnect(self, error: str | None, emit: bool = True) -> None:
        thread, self._serial_thread = self._serial_thread, None
        if thread is not None:
            try:
                thread.close()
            except Exception:  # closing a dead port can fail in many ways; the thread is gone either way
                log.debug("closing the tap board port failed", exc_info=True)
        port = self._current_port
        if emit and not self._stopping:
            log.warning("tap board on %s lost: %s", port, error)
            self._set_state("lost", last_error=error)
            self._emit(LinkEvent("lost", port, time.monotonic(), error=error))

    def _write(self, data: bytes) -> bool:
        thread = self._serial_thread
        if thread is None:
            return False
        try:
            thread.write(data)
            return True
        except serial.SerialTimeoutException:
            log.debug("tap board did not take %r in time", data)
            return False
        except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
            # the port went away under us; the serial thread reports it (or the supervisor sees it die)
            log.debug("writing %r failed: %s", data, exc)
            return False

    # -- serial thread ---------------------------------------------------------------------------------------

    def _connection_lost(self, exc: BaseException | None, generation: int) -> None:
        if generation != self._generation:
            return
        self._lost_error = str(exc) if exc is not None else "port closed"
        self._lost_flag = True
        self._wake.set()

    def _line_error(self, kind: str) -> None:
        if self.status is not None:
            self.status.add_line_error(kind)

    def _handle_line(self, line: str, received: float) -> None:
        parts = line.split()
        if not parts:
            return  # blank line: harmless
        self._last_rx = received
        if self._silent:
            self._silent = False
            self._set_state("ready" if self.firmware else "connected")
            self._emit(LinkEvent("awake", self._current_port, received))
        verb = parts[0]
        if verb == "TAP":
            if len(parts) == 4:
                stick, t_us, seq = _num(parts[1], MAX_STICKS - 1), _num(parts[2], MASK32), _num(parts[3], 0xFFFF)
                if stick is not None and t_us is not None and seq is not None:
                    self._tap(stick, t_us, seq, received)
                    return
        elif verb == "PONG":
            if len(parts) == 2 and (t_us := _num(parts[1], MASK32)) is not None:
                self._pong(t_us, received)
                return
        elif verb == "HELLO":
            if len(parts) == 4 and parts[1] == "tapstick" and (count := _num(parts[3], 64)) is not None:
                self._hello(parts[2], count, received)
                return
        elif verb.isascii() and verb.isalpha() and verb.isupper() and "\ufffd" not in line:
            self._line_error("unknown")
            return
        self._line_error("garbage")

    def _tap(self, stick: int, t_us: int, seq: int, received: float) -> None:
        if self._last_seq is not None:
            gap = (seq - self._last_seq) % SEQ_MOD
            if gap == 0:
                self._line_error("duplicate")
                return
            if gap < SEQ_MOD // 2 and gap > 1:
                self._pending_lost += gap - 1
                if self.status is not None:
                    self.status.add_lost_taps(gap - 1)
            # else: the sequence went back: a board restart without HELLO; new baseline
        self._last_seq = seq
        place = self.sticks.get(stick)
        event = TapEvent(
            stick,
            place.seat if place else None,
            place.hand if place else None,
            t_us,
            seq,
            received,
            self._latency(t_us, received),
            self._pending_lost,
        )
        self._pending_lost = 0
        if self.status is not None:
            self.status.record_tap(stick, t_us, seq, received, event.latency, event.seat, event.hand)
        self._emit(event)

    def _latency(self, t_us: int, received: float) -> float | None:
        if not self._syncs:
            return None
        _rtt, host, board = min(self._syncs)
        return max(0.0, received - (host + diff32(t_us, board) / 1e6))

    def _pong(self, t_us: int, received: float) -> None:
        sent, self._ping_sent = self._ping_sent, None
        if sent is None:
            return
        rtt = received - sent
        self._syncs.append((rtt, sent + rtt / 2, t_us))
        if self.status is not None:
            self.status.set_link(self.link_state, rtt_ms=round(rtt * 1000, 3))

    def _hello(self, firmware: str, count: int, received: float) -> None:
        self.firmware, self.board_sticks = firmware, count
        self._last_seq = None  # a HELLO at boot restarts the sequence
        self._set_state("ready", firmware=firmware, stick_count=count)
        log.info("tap board says hello: firmware %s, %d sticks", firmware, count)
        self._emit(LinkEvent("hello", self._current_port, received, firmware=firmware, sticks=count))

    # -- shared ----------------------------------------------------------------------------------------------

    def _set_state(self, state: str, **info: Any) -> None:
        self.link_state = state
        if self.status is not None:
            if state in ("connected", "searching") and "port" not in info and self._current_port:
                info["port"] = self._current_port
            self.status.set_link(state, **info)

    def _emit(self, event: HardwareEvent) -> None:
        try:
            self.on_event(event)
        except Exception:
            self._line_error("callback")
            self._errors_logged += 1
            if self._errors_logged <= 3 or self._errors_logged % 1000 == 0:
                log.exception("tap event handler failed on %r (%d so far)", event, self._errors_logged)


def _stick_map(sticks: Mapping[Any, Any]) -> dict[int, StickPlace]:
    if all(isinstance(v, StickPlace) for v in sticks.values()):
        out = {int(k): v for k, v in sticks.items()}
        for k in out:
            if not 0 <= k < MAX_STICKS:
                raise HardwareConfigError(f"stick {k} is outside 0-{MAX_STICKS - 1}")
        return out
    return parse_sticks(sticks)


__all__ = [
    "TapEvent",
    "LinkEvent",
    "TapReader",
    "TapLineReader",
    "TapRace",
    "order_taps",
    "race_winner",
    "race_winners",
    "board_before",
    "diff32",
    "MAX_LINE",
    "LINK_KINDS",
]
