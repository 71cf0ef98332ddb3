"""One seat-tagged input event for everything players do: touches, seat buttons, tap sticks and the keyboard.

:class:`SeatEvent` is the one kind of event screens receive. :class:`InputHub` (a Kivy ``EventDispatcher``)
dispatches ``on_seat_event`` on the UI thread. Sources:

* touches (tagged with the seat whose zone was touched, or ``None`` for the centre and corners) are fed by the
  app's window hook;
* seat buttons (``hardware.buttons.SeatButtons``, gpiozero) and tap sticks (``hardware.taps.TapReader``, serial)
  call back from their own threads; :class:`HardwareInputs` hands every event to the UI thread with
  ``Clock.schedule_once`` (thread-safe), keeping the timestamps taken in the reader thread;
* the keyboard fallback (:class:`KeyboardInputs`) turns keys into the same events, so the whole table is playable
  with a keyboard and mouse on a desktop. Keys per seat are in :data:`kiosk.seats.KEYS` and docs/kiosk.md:
  the digit is button "a", the key below it button "b", the home-row key below that the tap stick. Auto-repeat
  is ignored: holding a key is one press, then one release (a "hold" follows after 1 s, like gpiozero's).

When there is no GPIO (a desktop) or no tap-stick board, one log line says so and the keyboard fallback remains.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from kivy.clock import Clock
from kivy.event import EventDispatcher

from kiosk import clock
from kiosk.i18n import N_, Translator, translator
from kiosk.seats import SeatMap

log = logging.getLogger("kiosk.inputs")

__all__ = ["SeatEvent", "InputHub", "KeyboardInputs", "HardwareInputs", "SOURCES", "KINDS"]

SOURCES = ("touch", "button", "tap", "key")
KINDS = ("press", "release", "hold", "tap")


@dataclass(frozen=True, slots=True)
class SeatEvent:
    """Something a player did, tagged with the table seat (``Seat.index``) it belongs to.

    ``source`` is where it came from (touch, button, tap, key: keys arrive as the seat button or stick they stand
    for, with ``source="key"``). ``kind`` is press / release / hold for buttons and touches, ``tap`` for sticks.
    ``button`` names the seat button ("a" or "b") or the stick hand ("left"/"right"). ``t`` is the monotonic time
    the event happened (taken in the reader thread for hardware). ``pos`` is the window position of a touch.
    """

    seat: int | None
    source: str
    kind: str
    button: str | None = None
    t: float = field(default_factory=clock.now)
    pos: tuple[float, float] | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_press(self) -> bool:
        """A press of a seat button (real or keyboard); the "join"/"confirm" gesture when ``button == "a"``."""
        return self.kind == "press" and self.source in ("button", "key")


class InputHub(EventDispatcher):
    """Dispatches ``on_seat_event(event)`` on the UI thread and tracks which seat buttons are held."""

    __events__ = ("on_seat_event",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.held: set[tuple[int, str]] = set()
        self.last_input = clock.now()
        self.count = 0

    def emit(self, event: SeatEvent) -> None:
        """Deliver an event (call on the UI thread; other threads use :meth:`emit_threadsafe`)."""
        if event.seat is not None and event.button is not None and event.source in ("button", "key"):
            if event.kind == "press":
                self.held.add((event.seat, event.button))
            elif event.kind == "release":
                self.held.discard((event.seat, event.button))
        self.note_input()
        self.count += 1
        self.dispatch("on_seat_event", event)

    def note_input(self) -> None:
        """Someone is at the table now (the idle watch counts from here)."""
        self.last_input = clock.now()

    def emit_threadsafe(self, event: SeatEvent) -> None:
        Clock.schedule_once(partial(self._emit_from_clock, event), 0)

    def _emit_from_clock(self, event: SeatEvent, _dt: float) -> None:
        self.emit(event)

    def seat_held(self, seat: int) -> bool:
        """Whether any of the seat's buttons is held down right now (shows its private tray)."""
        return any(s == seat for s, _b in self.held)

    def release_all(self) -> None:
        self.held.clear()

    def on_seat_event(self, event: SeatEvent) -> None:
        pass


class KeyboardInputs:
    """The keyboard fallback: keys from :data:`kiosk.seats.KEYS` become seat events with ``source="key"``."""

    HOLD_AFTER_S = 1.0

    def __init__(self, hub: InputHub, seats: SeatMap, window: Any) -> None:
        self.hub = hub
        self.seats = seats
        self.window = window
        self._down: dict[str, Any] = {}
        window.bind(on_key_down=self._on_key_down, on_key_up=self._on_key_up)

    def close(self) -> None:
        self.window.unbind(on_key_down=self._on_key_down, on_key_up=self._on_key_up)
        for ev in self._down.values():
            if ev is not None:
                ev.cancel()
        self._down.clear()

    @staticmethod
    def _key_text(key: int, codepoint: str | None) -> str | None:
        if codepoint:
            return codepoint.lower()
        if 32 < key < 127:
            return chr(key).lower()
        return None

    def _on_key_down(self, _window: Any, key: int, _scancode: int, codepoint: str | None, modifiers: list[str]) -> bool:
        text = self._key_text(key, codepoint)
        if text is None or "ctrl" in modifiers or "alt" in modifiers:
            return False
        found = self.seats.seat_for_key(text)
        if found is None:
            return False
        if text in self._down:  # auto-repeat
            return True
        seat, what = found
        if what == "tap":
            self._down[text] = None
            self.hub.emit(SeatEvent(seat.index, "key", "tap", button="right", detail={"key": text}))
            return True
        hold = Clock.schedule_once(partial(self._hold, seat.index, what, text), self.HOLD_AFTER_S)
        self._down[text] = hold
        self.hub.emit(SeatEvent(seat.index, "key", "press", button=what, detail={"key": text}))
        return True

    def _hold(self, seat: int, button: str, text: str, _dt: float) -> None:
        if text in self._down:
            self.hub.emit(SeatEvent(seat, "key", "hold", button=button, detail={"key": text}))

    def _on_key_up(self, _window: Any, key: int, _scancode: int, *args: Any) -> bool:
        text = self._key_text(key, None)
        if text is None or text not in self._down:
            return False
        hold = self._down.pop(text)
        found = self.seats.seat_for_key(text)
        if hold is not None:
            hold.cancel()
            if found:
                self.hub.emit(SeatEvent(found[0].index, "key", "release", button=found[1], detail={"key": text}))
        return True


class HardwareInputs:
    """Seat buttons and tap sticks from the ``hardware`` package, handed to the UI thread.

    ``mode`` is ``"real"`` (gpiozero picks the Pi's pin factory), ``"mock"`` (gpiozero's MockFactory: a desktop
    with the real code paths and pins nobody presses) or ``"none"``. Anything missing (the hardware package,
    GPIO, the serial board) is one log line and the keyboard fallback stays. ``status`` is the
    ``hardware.status.HardwareStatus`` when the hardware package provides one.
    """

    def __init__(
        self,
        hub: InputHub,
        seats: SeatMap,
        *,
        mode: str = "real",
        serial_port: str | None = None,
        sticks: Mapping[int, tuple[str, str]] | None = None,
    ) -> None:
        self.hub = hub
        self.seats = seats
        self.mode = mode
        self.serial_port = serial_port
        self.sticks = dict(sticks or {})
        self.buttons: Any = None
        self.taps: Any = None
        self.status: Any = None
        self._notes: list[tuple[str, dict[str, str]]] = []

    # ------------------------------------------------------------------------------------------- start/stop
    def start(self) -> None:
        if self.mode == "none":
            self._note(N_("hardware disabled (--hardware none): keyboard fallback only"))
            return
        try:
            from hardware.status import HardwareStatus

            self.status = HardwareStatus()
        except Exception as exc:  # the hardware package may not exist yet, or differ
            log.debug("no hardware status: %s", exc)
        self._start_buttons()
        self._start_taps()

    def _start_buttons(self) -> None:
        pins = self.seats.button_pins()
        if not pins:
            self._note(N_("no seat button pins configured: keyboard fallback for seat buttons"))
            return
        try:
            from hardware.buttons import SeatButtons
        except ImportError:
            self._note(N_("hardware.buttons is not installed: keyboard fallback for seat buttons"))
            return
        try:
            extra: dict[str, Any] = {}
            if self.mode == "mock":
                from gpiozero.pins.mock import MockFactory

                extra["pin_factory"] = MockFactory()
            buttons = self._construct(SeatButtons, pins, self._on_button, **extra)
            self.buttons = buttons
            if not buttons.available:
                self._note(
                    N_("no GPIO seat buttons ({reason}): keyboard fallback for seat buttons"),
                    reason=buttons.unavailable_reason,
                )
        except Exception as exc:  # a busy pin, a bad pin map, ...
            self.buttons = None
            self._note(
                N_("no GPIO seat buttons ({reason}): keyboard fallback for seat buttons"),
                reason=f"{type(exc).__name__}: {exc}",
            )

    def _start_taps(self) -> None:
        if self.mode == "mock" and not self.serial_port:
            self._note(N_("mock hardware: no tap-stick board; keyboard fallback for tap sticks"))
            return
        try:
            from hardware.taps import TapReader
        except ImportError:
            self._note(N_("hardware.taps is not installed: keyboard fallback for tap sticks"))
            return
        try:
            self.taps = self._construct(TapReader, self.serial_port, self._on_tap)
            self.taps.start()
        except Exception as exc:
            self.taps = None
            self._note(
                N_("no tap-stick reader ({reason}): keyboard fallback for tap sticks"),
                reason=f"{type(exc).__name__}: {exc}",
            )

    def _construct(self, cls: Any, first: Any, on_event: Callable[[Any], None], **extra: Any) -> Any:
        """Build a hardware object, passing the optional keyword arguments it declares (status, sticks, ...)."""
        import inspect

        kwargs: dict[str, Any] = {}
        params: Mapping[str, Any]
        try:
            params = inspect.signature(cls).parameters
        except (TypeError, ValueError):
            params = {}
        if "status" in params and self.status is not None:
            kwargs["status"] = self.status
        if "sticks" in params and self.sticks:
            here = {s.position for s in self.seats}
            kwargs["sticks"] = {
                k: {"seat": self.seats.by_position(p).index, "hand": hand}
                for k, (p, hand) in self.sticks.items()
                if p in here
            }
        kwargs.update({k: v for k, v in extra.items() if k in params})
        return cls(first, on_event, **kwargs)

    def stop(self) -> None:
        for dev in (self.taps, self.buttons):
            if dev is None:
                continue
            for verb in ("stop", "close"):
                fn = getattr(dev, verb, None)
                if callable(fn):
                    try:
                        fn()
                    except Exception as exc:
                        log.warning("stopping %s: %s", type(dev).__name__, exc)
                    break
        self.taps = self.buttons = None

    def _note(self, msg: str, **values: str) -> None:
        """A note for the operator (a message marked with ``N_``, its values: a reason from the hardware layer, as
        it writes it); :meth:`note_lines` gives them in a reader's language, the log in English."""
        self._notes.append((msg, {k: str(v) for k, v in values.items()}))
        log.info("inputs: %s", msg.format(**values))

    @property
    def notes(self) -> list[str]:
        """The notes in English (what the log says)."""
        return self.note_lines()

    def note_lines(self, tr: Translator | None = None) -> list[str]:
        """The notes in ``tr``'s language (English by default)."""
        tr = tr or translator("en")
        return [tr.gettext(msg).format(**values) for msg, values in self._notes]

    # ------------------------------------------------------------------------------------------- callbacks
    # These run in gpiozero's / pyserial's threads: build the event here (timestamp included), deliver on the UI.
    def _on_button(self, ev: Any) -> None:
        seat = getattr(ev, "seat", None)
        kind = getattr(ev, "kind", "press")
        t = getattr(ev, "t", None) or clock.now()
        self.hub.emit_threadsafe(SeatEvent(seat, "button", kind, button=getattr(ev, "button", None), t=t))

    def _on_tap(self, ev: Any) -> None:
        if not hasattr(ev, "stick"):  # a link event (connected / hello / gone): status only
            return
        seat = getattr(ev, "seat", None)
        if seat is None:
            found = self.seats.seat_for_stick(ev.stick)
            seat = found.index if found else None
        elif isinstance(seat, str):
            seat = self.seats.by_position(seat).index
        t = getattr(ev, "received", None) or clock.now()
        self.hub.emit_threadsafe(
            SeatEvent(
                seat,
                "tap",
                "tap",
                button=getattr(ev, "hand", None),
                t=t,
                detail={"stick": ev.stick, "t_us": getattr(ev, "t_us", None), "seq": getattr(ev, "seq", None)},
            )
        )
