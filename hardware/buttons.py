"""Seat buttons on the Pi's GPIO header, through gpiozero's :class:`~gpiozero.Button`.

>>> from gpiozero.pins.mock import MockFactory
>>> events = []
>>> with SeatButtons({0: {"a": 5}}, events.append, pin_factory=MockFactory()) as buttons:
...     buttons.pin(0, "a").drive_low()
...     buttons.pin(0, "a").drive_high()
>>> [(e.seat, e.button, e.kind) for e in events]
[(0, 'a', 'press'), (0, 'a', 'release')]

Rationale and decisions: docs/developer/design.md, section ``hardware/buttons.py``.
"""

from __future__ import annotations

import glob
import logging
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .config import DEFAULT_BOUNCE_TIME, DEFAULT_HOLD_TIME, parse_pins
from .status import HardwareStatus

log = logging.getLogger(__name__)

KINDS = ("press", "release", "hold")


def _pin_library_errors() -> tuple[type[Exception], ...]:
    """lgpio's own exception (not an OSError), where lgpio is installed (Linux on ARM)."""
    try:
        from lgpio import error  # (only where lgpio is installed: a Pi; its import opens nothing)
    except ImportError:
        return ()
    return (error,)


def no_gpio_reason(exc: BaseException) -> str:
    """Why there are no GPIO buttons, in one line, the machine's side first: no GPIO chip at all (a PC), or chips
    that are no Pi's header (an Arm board or virtual machine: gpiozero finds no Pi revision), then the error."""
    what = f"{type(exc).__name__}: {exc}"
    chips = sorted(glob.glob("/dev/gpiochip*"))
    if not chips:
        return f"no GPIO chip (no /dev/gpiochip*), {what}"
    if type(exc).__name__ == "PinUnknownPi":
        labels = [Path(p).read_text().strip() for p in sorted(glob.glob("/sys/class/gpio/gpiochip*/label"))]
        return f"not a Raspberry Pi (GPIO chips here: {', '.join(labels or chips)}; no Pi header), {what}"
    return what


@dataclass(frozen=True)
class ButtonEvent:
    """One seat button changed: ``kind`` is ``"press"``, ``"release"`` or ``"hold"``.

    ``t`` is the host's monotonic time when the event was handled (not part of equality).
    """

    seat: int
    button: str
    kind: str
    t: float = field(default_factory=time.monotonic, compare=False)


class SeatButtons:
    """Every seat's buttons, calling ``on_event(ButtonEvent)`` for each press, release and hold.

    ``pins`` maps seat -> {button name: BCM pin} (validated with :func:`hardware.config.parse_pins`).
    ``pin_factory`` is passed to gpiozero (None: gpiozero's default choice). ``status``, when given, is kept
    up to date. Close with :meth:`close` (or use as a context manager); closing stops gpiozero's hold threads.

    ``available`` is False when gpiozero found no GPIO at all; ``unavailable_reason`` then says why.
    """

    def __init__(
        self,
        pins: Mapping[Any, Mapping[str, Any]],
        on_event: Callable[[ButtonEvent], Any],
        bounce_time: float | None = DEFAULT_BOUNCE_TIME,
        *,
        hold_time: float = DEFAULT_HOLD_TIME,
        pin_factory: Any = None,
        status: HardwareStatus | None = None,
    ) -> None:
        self.pins = parse_pins(pins)
        self.on_event = on_event
        self.bounce_time = bounce_time
        self.hold_time = hold_time
        self.status = status
        self.available = True
        self.unavailable_reason: str | None = None
        self._buttons: dict[tuple[int, str], Any] = {}
        self._where: dict[int, tuple[int, str]] = {}  # id(Button) -> (seat, name)
        self.closed = False
        if status is not None:
            status.register_buttons(self.pins)
        try:
            self._open(pin_factory)
        except BaseException:
            self.close()
            raise
        if status is not None:
            status.set_gpio(self.available, self.unavailable_reason)

    def _open(self, pin_factory: Any) -> None:
        from gpiozero import Button
        from gpiozero.exc import GPIOZeroError, PinFactoryFallback

        for seat, named in self.pins.items():
            for name, pin in named.items():
                try:
                    with warnings.catch_warnings():
                        # gpiozero warns once per factory it tries; the one line below says it all
                        warnings.simplefilter("ignore", PinFactoryFallback)
                        btn = Button(
                            pin,
                            pull_up=True,
                            bounce_time=self.bounce_time,
                            hold_time=self.hold_time,
                            hold_repeat=False,
                            pin_factory=pin_factory,
                        )
                except (GPIOZeroError, ImportError, OSError, *_pin_library_errors()) as exc:
                    # BadPinFactory: gpiozero tried every factory (a desktop). ImportError/OSError: the factory
                    # named by GPIOZERO_PIN_FACTORY is not installed, or /dev/gpiochip* cannot be opened. Another
                    # GPIOZeroError (PinUnknownPi) or lgpio's own error: a machine that is not a Pi (an Arm board,
                    # a virtual machine), where the named factory loads and then finds no chip or no Pi.
                    self.available = False
                    self.unavailable_reason = no_gpio_reason(exc)
                    log.warning("No GPIO (%s): seat buttons use the keyboard fallback", self.unavailable_reason)
                    self._close_buttons()
                    return
                self._buttons[(seat, name)] = btn
                self._where[id(btn)] = (seat, name)
                # One bound method per kind serves every button: gpiozero passes the device in.
                btn.when_pressed = self._pressed
                btn.when_released = self._released
                btn.when_held = self._held

    # gpiozero calls these with the Button (in the pin factory's callback thread or the hold thread)
    def _pressed(self, device: Any) -> None:
        self._fire(device, "press")

    def _released(self, device: Any) -> None:
        self._fire(device, "release")

    def _held(self, device: Any) -> None:
        self._fire(device, "hold")

    def _fire(self, device: Any, kind: str) -> None:
        where = self._where.get(id(device))
        if where is None or self.closed:
            return
        self.inject(where[0], where[1], kind)

    def inject(self, seat: int, button: str, kind: str) -> ButtonEvent:
        """Deliver an event as if the button had done it (the keyboard fallback uses this).

        Raises ``ValueError`` for an unknown seat/button or kind, so a wrong key map fails loudly.
        """
        if kind not in KINDS:
            raise ValueError(f"button event kind must be one of {KINDS}, not {kind!r}")
        if button not in self.pins.get(seat, {}):
            raise ValueError(f"there is no button {button!r} at seat {seat!r}")
        event = ButtonEvent(seat, button, kind)
        if self.status is not None:
            self.status.record_button(seat, button, kind, event.t)
        try:
            self.on_event(event)
        except Exception:
            log.exception("seat button handler failed on %r", event)
            if self.status is not None:
                self.status.add_line_error("callback")
        return event

    def pin(self, seat: int, button: str) -> Any:
        """The gpiozero pin object behind a button (a MockPin in tests: ``drive_low()`` presses)."""
        return self._buttons[(seat, button)].pin

    def is_pressed(self, seat: int, button: str) -> bool:
        """The button's current state as gpiozero sees it (False when GPIO is unavailable)."""
        btn = self._buttons.get((seat, button))
        return bool(btn is not None and btn.is_pressed)

    def _close_buttons(self) -> None:
        for btn in self._buttons.values():
            # gpiozero's hold thread waits on the button's release for up to hold_time, and close() joins it:
            # closing a pressed (or stuck) button would take hold_time, and even an idle one up to 0.1 s, one
            # button after the other. Wake and stop every hold thread first, then close (and join) them.
            inactive = getattr(btn, "_inactive_event", None)
            hold_thread = getattr(btn, "_hold_thread", None)
            if hold_thread is not None:
                hold_thread.stopping.set()
            if inactive is not None:
                inactive.set()
        for btn in self._buttons.values():
            try:
                btn.close()
            except Exception:  # closing must always finish
                log.exception("closing %r failed", btn)
        self._buttons.clear()
        self._where.clear()

    def close(self) -> None:
        """Release the pins and stop gpiozero's hold threads; safe to call twice."""
        self.closed = True
        self._close_buttons()

    def __enter__(self) -> SeatButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
