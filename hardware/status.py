"""What the hardware is doing right now, shared by the app and the diagnostics screen.

:class:`HardwareStatus` is written from the hardware threads (gpiozero's callback and hold threads, the tap
reader's threads) and read from the UI thread, so every method takes one lock and :meth:`snapshot` returns a
plain ``dict`` copy the reader can keep. It never calls out while holding the lock.

>>> status = HardwareStatus(dead_after_games=2)
>>> status.register_buttons({0: {"a": 5, "b": 6}})
>>> status.record_button(0, "a", "press")
>>> status.snapshot()["buttons"][0]["a"]["pressed"]
True

Rationale and decisions: docs/developer/design.md, section ``hardware/status.py``.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .config import DEFAULT_DEAD_AFTER_GAMES, StickPlace

#: Link states, in the order a connection goes through them.
LINK_STATES = ("stopped", "searching", "connected", "ready", "silent", "lost")


@dataclass
class _Usage:
    last_used_game: int = 0
    missed: int = 0
    uses: int = 0


@dataclass
class _ButtonState:
    pressed: bool = False
    since: float | None = None
    held: bool = False
    usage: _Usage = field(default_factory=_Usage)


@dataclass
class _StickState:
    seat: int | None
    hand: str | None
    last_tap: float | None = None
    last_latency: float | None = None
    max_latency: float | None = None
    usage: _Usage = field(default_factory=_Usage)


class HardwareStatus:
    """Thread-safe model of buttons, taps, the serial link and device usage.

    ``clock`` is the monotonic clock used for "held for" and "ago" figures (injectable for tests).
    """

    def __init__(
        self,
        dead_after_games: int = DEFAULT_DEAD_AFTER_GAMES,
        recent_taps: int = 40,
        stuck_after: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._lock = threading.Lock()
        self._clock = clock
        self.dead_after_games = dead_after_games
        self.stuck_after = stuck_after
        self._version = 0
        self._games = 0
        self._gpio_available: bool | None = None
        self._gpio_reason: str | None = None
        self._buttons: dict[int, dict[str, _ButtonState]] = {}
        self._sticks: dict[int, _StickState] = {}
        self._recent: deque[dict[str, Any]] = deque(maxlen=recent_taps)
        self._taps_total = 0
        self._lost_taps = 0
        self._line_errors = {"garbage": 0, "overlong": 0, "unknown": 0, "callback": 0}
        self._link: dict[str, Any] = {
            "state": "stopped",
            "port": None,
            "firmware": None,
            "stick_count": None,
            "since": None,
            "connects": 0,
            "last_error": None,
            "rtt_ms": None,
        }

    # -- registration -------------------------------------------------------------------------------------

    def register_buttons(self, pins: Mapping[int, Mapping[str, Any]]) -> None:
        """Declare the buttons that exist (seat -> {name: pin}); they show up even before first use."""
        with self._lock:
            for seat, buttons in pins.items():
                for name in buttons:
                    self._buttons.setdefault(int(seat), {}).setdefault(
                        name, _ButtonState(usage=_Usage(last_used_game=self._games))
                    )
            self._version += 1

    def register_sticks(self, sticks: Mapping[int, StickPlace]) -> None:
        """Declare the sticks that exist (stick -> :class:`StickPlace`)."""
        with self._lock:
            for stick, place in sticks.items():
                st = self._sticks.get(int(stick))
                if st is None:
                    self._sticks[int(stick)] = _StickState(
                        place.seat, place.hand, usage=_Usage(last_used_game=self._games)
                    )
                else:
                    st.seat, st.hand = place.seat, place.hand
            self._version += 1

    # -- writers (hardware threads) ----------------------------------------------------------------------

    def set_gpio(self, available: bool, reason: str | None = None) -> None:
        """Record whether real GPIO buttons are in use (False: keyboard fallback)."""
        with self._lock:
            self._gpio_available = available
            self._gpio_reason = reason
            self._version += 1

    def record_button(self, seat: int, button: str, kind: str, when: float | None = None) -> None:
        """Record a ``press``, ``release`` or ``hold`` of one seat's button."""
        now = self._clock() if when is None else when
        with self._lock:
            st = self._buttons.setdefault(seat, {}).setdefault(button, _ButtonState())
            if kind == "press":
                st.pressed, st.since, st.held = True, now, False
                self._use(st.usage)
            elif kind == "release":
                st.pressed, st.since, st.held = False, None, False
            elif kind == "hold":
                st.held = True
                if not st.pressed:  # a hold without its press (e.g. status attached late)
                    st.pressed, st.since = True, now
            self._version += 1

    def record_tap(
        self,
        stick: int,
        t_us: int,
        seq: int,
        received: float,
        latency: float | None,
        seat: int | None = None,
        hand: str | None = None,
    ) -> None:
        """Record one tap; ``latency`` (seconds) is the estimated board-to-host delay, or None if unknown."""
        with self._lock:
            st = self._sticks.get(stick)
            if st is None:
                st = self._sticks[stick] = _StickState(seat, hand)
            st.last_tap = received
            st.last_latency = latency
            if latency is not None and (st.max_latency is None or latency > st.max_latency):
                st.max_latency = latency
            self._use(st.usage)
            self._taps_total += 1
            self._recent.append(
                {
                    "stick": stick,
                    "seat": st.seat,
                    "hand": st.hand,
                    "t_us": t_us,
                    "seq": seq,
                    "received": received,
                    "latency_ms": None if latency is None else round(latency * 1000, 3),
                }
            )
            self._version += 1

    def add_lost_taps(self, n: int) -> None:
        """Add ``n`` taps the board sent but the host never saw (from a sequence gap)."""
        with self._lock:
            self._lost_taps += n
            self._version += 1

    def add_line_error(self, kind: str) -> None:
        """Count a bad line: ``garbage``, ``overlong``, ``unknown`` or ``callback`` (the app's handler raised)."""
        with self._lock:
            self._line_errors[kind] = self._line_errors.get(kind, 0) + 1
            self._version += 1

    def set_link(self, state: str, **info: Any) -> None:
        """Set the serial link state (one of :data:`LINK_STATES`) and any of ``port``, ``firmware``,
        ``stick_count``, ``last_error``, ``rtt_ms``. Entering ``connected`` counts a connection."""
        if state not in LINK_STATES:
            raise ValueError(f"unknown link state {state!r}")
        with self._lock:
            if state != self._link["state"]:
                self._link["since"] = self._clock()
                if state == "connected":
                    self._link["connects"] += 1
                    self._link["firmware"] = None
                    self._link["stick_count"] = None
            self._link["state"] = state
            for key, value in info.items():
                if key not in self._link or key in ("state", "since", "connects"):
                    raise ValueError(f"unknown link field {key!r}")
                self._link[key] = value
            self._version += 1

    # -- games and usage ---------------------------------------------------------------------------------

    def game_started(self, seats: Iterable[int] | None = None, buttons: bool = True, sticks: bool = True) -> None:
        """A game started at ``seats`` (None: every seat); count it for the devices it could use."""
        with self._lock:
            self._games += 1
            chosen = None if seats is None else set(seats)
            if buttons:
                for seat, named in self._buttons.items():
                    if chosen is None or seat in chosen:
                        for st in named.values():
                            st.usage.missed += 1
            if sticks:
                for stk in self._sticks.values():
                    if chosen is None or stk.seat in chosen:
                        stk.usage.missed += 1
            self._version += 1

    def _use(self, usage: _Usage) -> None:
        usage.last_used_game = self._games
        usage.missed = 0
        usage.uses += 1

    def usage(self) -> dict[str, Any]:
        """Usage counters as JSON-ready data (to keep across restarts with :meth:`load_usage`)."""
        with self._lock:
            return {
                "games": self._games,
                "buttons": {
                    f"{seat}/{name}": {"last_used_game": st.usage.last_used_game, "missed": st.usage.missed}
                    for seat, named in self._buttons.items()
                    for name, st in named.items()
                },
                "sticks": {
                    str(stick): {"last_used_game": st.usage.last_used_game, "missed": st.usage.missed}
                    for stick, st in self._sticks.items()
                },
            }

    def load_usage(self, data: Mapping[str, Any]) -> None:
        """Restore counters from :meth:`usage`; entries for devices not registered are ignored, bad data too."""
        with self._lock:
            try:
                self._games = max(self._games, int(data.get("games", 0)))
                for key, rec in dict(data.get("buttons", {})).items():
                    seat_s, _, name = str(key).partition("/")
                    st = self._buttons.get(int(seat_s), {}).get(name)
                    if st is not None:
                        st.usage.last_used_game = int(rec["last_used_game"])
                        st.usage.missed = int(rec["missed"])
                for key, rec in dict(data.get("sticks", {})).items():
                    stk = self._sticks.get(int(key))
                    if stk is not None:
                        stk.usage.last_used_game = int(rec["last_used_game"])
                        stk.usage.missed = int(rec["missed"])
            except (TypeError, ValueError, KeyError, AttributeError):
                pass  # a damaged usage file must not stop the table; the counters simply restart
            self._version += 1

    # -- reader (UI thread) ------------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """Grows on every change."""
        with self._lock:
            return self._version

    def snapshot(self) -> dict[str, Any]:
        """Everything as a plain dict (a copy): see docs/hardware.md for the keys."""
        now = self._clock()
        with self._lock:
            warnings: list[str] = []
            buttons: dict[int, dict[str, dict[str, Any]]] = {}
            for seat in sorted(self._buttons):
                buttons[seat] = {}
                for name in sorted(self._buttons[seat]):
                    st = self._buttons[seat][name]
                    held_for = None if st.since is None else max(0.0, now - st.since)
                    stuck = held_for is not None and held_for >= self.stuck_after
                    dead = st.usage.missed > self.dead_after_games
                    buttons[seat][name] = {
                        "pressed": st.pressed,
                        "held": st.held,
                        "held_for": held_for,
                        "stuck": stuck,
                        "uses": st.usage.uses,
                        "last_used_game": st.usage.last_used_game,
                        "games_missed": st.usage.missed,
                        "dead": dead,
                    }
                    if stuck:
                        warnings.append(f"Seat {seat} button {name} has been held for {held_for:.0f} s: stuck?")
                    if dead:
                        warnings.append(
                            f"Seat {seat} button {name} not used in the last "
                            f"{st.usage.missed - 1} games: check the switch"
                        )
            sticks: dict[int, dict[str, Any]] = {}
            for stick in sorted(self._sticks):
                stk = self._sticks[stick]
                dead = stk.usage.missed > self.dead_after_games
                sticks[stick] = {
                    "seat": stk.seat,
                    "hand": stk.hand,
                    "taps": stk.usage.uses,
                    "last_tap_ago": None if stk.last_tap is None else max(0.0, now - stk.last_tap),
                    "last_latency_ms": _ms(stk.last_latency),
                    "max_latency_ms": _ms(stk.max_latency),
                    "last_used_game": stk.usage.last_used_game,
                    "games_missed": stk.usage.missed,
                    "dead": dead,
                }
                if dead:
                    where = "" if stk.seat is None else f" (seat {stk.seat} {stk.hand})"
                    warnings.append(
                        f"Stick {stick}{where} not used in the last {stk.usage.missed - 1} games: check the sensor"
                    )
            link = dict(self._link)
            link["for"] = None if link["since"] is None else max(0.0, now - link["since"])
            if link["state"] in ("lost", "silent", "searching") and self._sticks:
                warnings.append(
                    {
                        "lost": "Tap stick board unplugged or not answering: reconnecting",
                        "silent": "Tap stick board connected but not answering",
                        "searching": "Tap stick board not found",
                    }[link["state"]]
                )
            if self._gpio_available is False:
                warnings.append(f"No GPIO: seat buttons are on the keyboard ({self._gpio_reason})")
            return {
                "version": self._version,
                "games": self._games,
                "dead_after_games": self.dead_after_games,
                "gpio_available": self._gpio_available,
                "gpio_reason": self._gpio_reason,
                "buttons": buttons,
                "sticks": sticks,
                "recent_taps": list(self._recent),
                "taps_total": self._taps_total,
                "lost_taps": self._lost_taps,
                "line_errors": dict(self._line_errors),
                "link": link,
                "warnings": warnings,
            }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 3)
