"""The one schema of the hardware settings, as plain data: the table's wiring (seat buttons' BCM pins), the stick
map, the board's USB ids, the legal values (:data:`VALID_BCM_PINS`, :data:`HANDS`, :data:`MAX_STICKS`).

The kiosk's configuration file (:mod:`kiosk.config`) takes its ``pins`` and ``serial`` defaults and limits from
here, and this module gives the hardware package one validation function per part, so a typo is a
:class:`HardwareConfigError` with a message an operator can act on, not a stick tapping for the wrong seat.

Everything here is plain ``dict``/``list``/``int``/``str`` so it round-trips through JSON unchanged, except
that JSON object keys are strings: the ``parse_*`` functions accept ``"0"`` as well as ``0`` for a seat or
stick number and always return ints.

>>> pins = parse_pins(DEFAULT_PINS)
>>> pins[1]
{'a': 5, 'b': 6}
>>> sticks = parse_sticks({"0": {"seat": 0, "hand": "left"}})
>>> sticks[0]
StickPlace(seat=0, hand='left')

Rationale and decisions: docs/developer/design.md, section ``hardware/config.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: Button names every seat has by default, with what the games use them for.
BUTTON_ROLES: dict[str, str] = {"a": "confirm / TAKOYAKI!", "b": "pass / back"}

#: The table's wiring by seat position: {button name: BCM pin}, pins free of I2C/SPI/UART/PWM audio/one-wire. The
#: kiosk's ``pins`` default (``kiosk.json``) and the maker's wiring table (``scripts/gen_docs.py``) are this map.
DEFAULT_WIRING: dict[str, dict[str, int]] = {
    "south-west": {"a": 5, "b": 6},
    "south-east": {"a": 12, "b": 13},
    "east": {"a": 16, "b": 19},
    "north-east": {"a": 20, "b": 21},
    "north-west": {"a": 22, "b": 23},
    "west": {"a": 24, "b": 25},
}

#: The default table's seats, clockwise from above (the kiosk's ``seats.positions`` default): seat ``n`` sits at
#: ``DEFAULT_SEATS[n]``.
DEFAULT_SEATS: tuple[str, ...] = ("south-east", "south-west", "west", "north-west", "north-east", "east")

#: seat -> {button name: BCM pin}: the default table's wiring by seat number.
DEFAULT_PINS: dict[int, dict[str, int]] = {n: dict(DEFAULT_WIRING[pos]) for n, pos in enumerate(DEFAULT_SEATS)}

#: Legal BCM GPIO numbers on the 40-pin header (Pi 4 and Pi 5).
VALID_BCM_PINS = frozenset(range(2, 28))

HANDS = ("left", "right")
MAX_STICKS = 12

#: stick number -> {"seat": s, "hand": "left" | "right"}
DEFAULT_STICKS: dict[int, dict[str, Any]] = {
    stick: {"seat": stick // 2, "hand": HANDS[stick % 2]} for stick in range(MAX_STICKS)
}

#: MicroPython's USB ids for the Raspberry Pi Pico (RP2040); see hardware/udev/99-tapstick.rules.
DEFAULT_USB_VID = 0x2E8A
DEFAULT_USB_PID = 0x0005

#: The serial side: ``port`` None means "find the board by vid/pid (and serial_number when set)".
DEFAULT_SERIAL: dict[str, Any] = {
    "port": None,
    "vid": DEFAULT_USB_VID,
    "pid": DEFAULT_USB_PID,
    "serial_number": None,
    "baudrate": 115200,
}

#: Button timing (seconds): gpiozero's ``bounce_time`` and ``hold_time``.
DEFAULT_BOUNCE_TIME = 0.02
DEFAULT_HOLD_TIME = 1.0

#: Diagnostics: a device not used in this many games is flagged as a possible dead switch.
DEFAULT_DEAD_AFTER_GAMES = 5


class HardwareConfigError(ValueError):
    """The hardware configuration is wrong; the message names the entry and what is expected."""


@dataclass(frozen=True)
class StickPlace:
    """Where a stick is: which seat holds it, in which hand."""

    seat: int
    hand: str


def _int_key(key: Any, what: str) -> int:
    try:
        value = int(key)
    except (TypeError, ValueError):
        raise HardwareConfigError(f"{what} {key!r} is not a number") from None
    if isinstance(key, (float, bool)):
        raise HardwareConfigError(f"{what} {key!r} is not a whole number")
    return value


def parse_pins(pins: Mapping[Any, Mapping[str, Any]]) -> dict[int, dict[str, int]]:
    """Validate a seat -> {button: BCM pin} map and return it with int keys.

    Rules: seats are numbers 0 or more; button names are non-empty strings; pins are BCM 2..27; no pin is
    used twice (two buttons on one pin would press together).
    """
    if not isinstance(pins, Mapping):
        raise HardwareConfigError("the pin map must map seat numbers to {button: pin}")
    out: dict[int, dict[str, int]] = {}
    used: dict[int, str] = {}
    for seat_key, buttons in pins.items():
        seat = _int_key(seat_key, "seat")
        if seat < 0:
            raise HardwareConfigError(f"seat {seat} is negative")
        if seat in out:
            raise HardwareConfigError(f"seat {seat} appears twice in the pin map")
        if not isinstance(buttons, Mapping):
            raise HardwareConfigError(f"seat {seat}: expected {{button name: pin}}, got {buttons!r}")
        out[seat] = {}
        for name, pin in buttons.items():
            if not isinstance(name, str) or not name:
                raise HardwareConfigError(f"seat {seat}: button name {name!r} must be a non-empty string")
            if isinstance(pin, bool) or not isinstance(pin, int):
                raise HardwareConfigError(f"seat {seat} button {name!r}: pin {pin!r} is not a BCM number")
            if pin not in VALID_BCM_PINS:
                raise HardwareConfigError(f"seat {seat} button {name!r}: BCM pin {pin} is not a header GPIO (2-27)")
            where = f"seat {seat} button {name!r}"
            if pin in used:
                raise HardwareConfigError(f"BCM pin {pin} is used by both {used[pin]} and {where}")
            used[pin] = where
            out[seat][name] = pin
    return out


def parse_sticks(sticks: Mapping[Any, Mapping[str, Any]]) -> dict[int, StickPlace]:
    """Validate a stick -> {"seat", "hand"} map and return stick -> :class:`StickPlace`.

    Rules: sticks are 0..11 (the protocol's range); hands are "left" or "right"; one seat cannot hold two
    sticks in the same hand. Sticks missing from the map are allowed: their taps arrive with seat ``None``.
    """
    if not isinstance(sticks, Mapping):
        raise HardwareConfigError("the stick map must map stick numbers to {seat, hand}")
    out: dict[int, StickPlace] = {}
    taken: dict[tuple[int, str], int] = {}
    for stick_key, place in sticks.items():
        stick = _int_key(stick_key, "stick")
        if not 0 <= stick < MAX_STICKS:
            raise HardwareConfigError(f"stick {stick} is outside 0-{MAX_STICKS - 1}")
        if stick in out:
            raise HardwareConfigError(f"stick {stick} appears twice in the stick map")
        if not isinstance(place, Mapping) or "seat" not in place or "hand" not in place:
            raise HardwareConfigError(f"stick {stick}: expected {{'seat': n, 'hand': 'left'|'right'}}, got {place!r}")
        seat = _int_key(place["seat"], f"stick {stick}: seat")
        if seat < 0:
            raise HardwareConfigError(f"stick {stick}: seat {seat} is negative")
        hand = place["hand"]
        if hand not in HANDS:
            raise HardwareConfigError(f"stick {stick}: hand {hand!r} must be 'left' or 'right'")
        if (seat, hand) in taken:
            raise HardwareConfigError(f"seat {seat} {hand} hand has two sticks: {taken[(seat, hand)]} and {stick}")
        taken[(seat, hand)] = stick
        out[stick] = StickPlace(seat, hand)
    return out


def parse_serial(serial: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validate the serial section; missing keys take :data:`DEFAULT_SERIAL`'s values.

    ``vid``/``pid`` may be ints or hex strings (``"2e8a"``), as ``lsusb`` prints them.
    """
    out = dict(DEFAULT_SERIAL)
    if serial is None:
        return out
    unknown = set(serial) - set(DEFAULT_SERIAL)
    if unknown:
        raise HardwareConfigError(f"unknown serial setting(s): {', '.join(sorted(unknown))}")
    out.update(serial)
    for key in ("vid", "pid"):
        value = out[key]
        if isinstance(value, str):
            try:
                value = int(value, 16)
            except ValueError:
                raise HardwareConfigError(f"serial {key} {value!r} is not a hex number") from None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 0xFFFF:
            raise HardwareConfigError(f"serial {key} {out[key]!r} must be a 16-bit USB id")
        out[key] = value
    if out["port"] is not None and (not isinstance(out["port"], str) or not out["port"]):
        raise HardwareConfigError(f"serial port {out['port']!r} must be a device path, a pyserial URL or null")
    if out["serial_number"] is not None and not isinstance(out["serial_number"], str):
        raise HardwareConfigError("serial serial_number must be a string or null")
    if isinstance(out["baudrate"], bool) or not isinstance(out["baudrate"], int) or out["baudrate"] <= 0:
        raise HardwareConfigError(f"serial baudrate {out['baudrate']!r} must be a positive number")
    return out


def default_config() -> dict[str, Any]:
    """A fresh copy of the whole default hardware section, ready to be stored as JSON."""
    return {
        "pins": {seat: dict(buttons) for seat, buttons in DEFAULT_PINS.items()},
        "sticks": {stick: dict(place) for stick, place in DEFAULT_STICKS.items()},
        "serial": dict(DEFAULT_SERIAL),
        "bounce_time": DEFAULT_BOUNCE_TIME,
        "hold_time": DEFAULT_HOLD_TIME,
        "dead_after_games": DEFAULT_DEAD_AFTER_GAMES,
    }


def parse_config(cfg: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validate a whole hardware section (missing keys take the defaults) and return it normalised."""
    base = default_config()
    if cfg is None:
        cfg = {}
    unknown = set(cfg) - set(base)
    if unknown:
        raise HardwareConfigError(f"unknown hardware setting(s): {', '.join(sorted(unknown))}")
    merged = {**base, **cfg}
    out: dict[str, Any] = {
        "pins": parse_pins(merged["pins"]),
        "sticks": parse_sticks(merged["sticks"]),
        "serial": parse_serial(merged["serial"]),
    }
    for key in ("bounce_time", "hold_time"):
        value = merged[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 10:
            raise HardwareConfigError(f"{key} {value!r} must be seconds between 0 and 10")
        out[key] = float(value)
    dead = merged["dead_after_games"]
    if isinstance(dead, bool) or not isinstance(dead, int) or dead < 1:
        raise HardwareConfigError(f"dead_after_games {dead!r} must be a whole number of games, 1 or more")
    out["dead_after_games"] = dead
    return out
