"""The kiosk's one configuration file: defaults, loading, validation with clear errors, saving.

The file is JSON (``kiosk.json`` in the state folder unless ``--config`` or ``$KIOSK_CONFIG`` names another).
Every key is optional: a missing key takes its default, so an empty ``{}`` is a valid file. An unknown key, a
wrong type or an out-of-range value is reported with one message per problem, naming the key and what is
allowed::

    >>> load_dict({"seats": {"positions": ["south", "up"]}, "sound": {"volume": 3}})
    Traceback (most recent call last):
    ...
    kiosk.config.ConfigError: invalid kiosk configuration:
      seats.positions[1]: unknown seat position 'up' (choose from south-west, south, south-east, east,
        north-east, north, north-west, west)
      sound.volume: must be between 0 and 1, got 3

Two ways to load: :func:`load` is strict (``kiosk --check-config`` and tests: any problem raises
:class:`ConfigError`); :func:`load_safely` is what the kiosk starts with and never fails (see below).

Rationale and decisions: docs/developer/design.md, section ``kiosk/config.py``.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import hmac
import json
import logging
import math
import os
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk import safejson
from kiosk.files import aside_name, atomic_write_bytes
from kiosk.i18n import LANGUAGES

__all__ = [
    "ConfigError",
    "Config",
    "SeatsConfig",
    "SerialConfig",
    "OperatorConfig",
    "TimeoutsConfig",
    "SoundConfig",
    "AttractConfig",
    "BotsConfig",
    "WindowConfig",
    "EventConfig",
    "LanguageConfig",
    "POSITIONS",
    "BOT_LEVELS",
    "LoadedConfig",
    "load",
    "load_safely",
    "load_dict",
    "save",
    "last_good_path",
    "hash_pin",
    "check_pin",
    "pin_hash_problem",
    "PIN_ITERATIONS",
    "FORMER_DEFAULT_PIN",
    "FORMER_DEFAULT_PIN_HASH",
    "DEFAULT_PIN",
    "default_state_dir",
    "table_state_dir",
    "default_config_path",
]

#: Seat positions in clockwise order around the table, seen from above (north = top edge of the picture).
POSITIONS: tuple[str, ...] = ("south-east", "south", "south-west", "west", "north-west", "north", "north-east", "east")
#: The positions in the order this docstring and the picker list them (reading order).
_POSITION_HELP = ("south-west", "south", "south-east", "east", "north-east", "north", "north-west", "west")
BOT_LEVELS: tuple[str, ...] = ("random", "easy", "normal", "hard")
HANDS: tuple[str, ...] = ("left", "right")
#: The factory PIN of the versions that had one. Never accepted now: a config still holding its factory hash
#: (:data:`FORMER_DEFAULT_PIN_HASH`, fixed salt) loads as "no PIN", with a problem for the operator, and the
#: installer uses the PIN to recognise an old install's hash and replace it. (``DEFAULT_PIN`` is its old name.)
FORMER_DEFAULT_PIN = "2468"
DEFAULT_PIN = FORMER_DEFAULT_PIN
FORMER_DEFAULT_PIN_HASH = (
    "pbkdf2_sha256$120000$6b696f736b2d64656661756c74$fdcf4b5c917e763de93fb06130f90cc99a1cc296b79e889542c7c6d03a62e08e"
)
#: PBKDF2 iterations of a new PIN hash, and the range a stored hash may use.
PIN_ITERATIONS = 120_000
PIN_ITERATIONS_RANGE = (10_000, 600_000)
#: The largest config file read, and its deepest nesting (the real file is 2 KB and 3 levels deep).
MAX_BYTES = 256 * 1024
MAX_DEPTH = 8
_PIN_HASH = re.compile(r"pbkdf2_sha256\$([0-9]{1,9})\$([0-9a-fA-F]{16,128})\$([0-9a-fA-F]{64})\Z")
_PIN = re.compile(r"[0-9]{4,8}\Z")

log = logging.getLogger("kiosk.config")


class ConfigError(ValueError):
    """The configuration cannot be used. ``problems`` lists one readable line per wrong key."""

    def __init__(self, problems: list[str], source: str | None = None) -> None:
        self.problems = list(problems)
        head = f"invalid kiosk configuration{f' in {source}' if source else ''}:"
        super().__init__("\n  ".join([head] + self.problems))


# ------------------------------------------------------------------------------------------------ sections
@dataclass(frozen=True)
class SeatsConfig:
    """Which seats exist and how deep each seat's zone reaches into the screen.

    ``depth`` is the depth of every seat zone as a fraction of the screen's short side (1080 px on a 1920x1080
    panel: 0.25 gives 270 px). The four corners (depth x depth squares) belong to no seat; the operator gesture
    lives there.
    """

    positions: tuple[str, ...] = ("south-east", "south-west", "west", "north-west", "north-east", "east")
    depth: float = 0.25


@dataclass(frozen=True)
class SerialConfig:
    """Tap sticks: the serial port (None = find the board by USB id) and which seat and hand each stick is."""

    port: str | None = None
    sticks: Mapping[int, tuple[str, str]] = field(default_factory=dict)  # stick -> (position, hand)


@dataclass(frozen=True)
class OperatorConfig:
    """The hidden operator gesture (hold a finger this long in any corner) and the hashed PIN (None: not set yet,
    the gesture opens the PIN set-up)."""

    pin_hash: str | None = None
    hold_s: float = 5.0

    @property
    def pin_set(self) -> bool:
        return self.pin_hash is not None


@dataclass(frozen=True)
class TimeoutsConfig:
    """Seconds. ``idle_s`` without input in a game asks "Still playing?"; ``still_playing_s`` later the game is
    saved and abandoned. ``initials_s`` limits initials entry, ``results_s`` how long results and boards stay,
    ``menu_idle_s`` how long the picker/joining/operator screens wait for a touch before attract mode returns."""

    idle_s: float = 90.0
    still_playing_s: float = 30.0
    initials_s: float = 30.0
    results_s: float = 25.0
    menu_idle_s: float = 60.0


@dataclass(frozen=True)
class SoundConfig:
    volume: float = 0.7
    muted: bool = False


@dataclass(frozen=True)
class AttractConfig:
    """Attract mode: the call text, the bots' level, their pace, how long each part of the cycle lasts, and whether
    the day's best games are replayed (in the cycle, and "Watch again" after a game)."""

    text: str = "Touch to play!"
    bot_level: str = "easy"
    move_delay_s: float = 0.9
    game_s: float = 40.0
    boards_s: float = 8.0
    call_s: float = 5.0
    replays: bool = True


@dataclass(frozen=True)
class BotsConfig:
    """Bots in empty seats: the level offered first on the joining screen, and their pace in real games."""

    default_level: str = "normal"
    move_delay_s: float = 1.0


@dataclass(frozen=True)
class WindowConfig:
    """Window size when not fullscreen (a desktop); the Pi service runs ``--fullscreen``."""

    width: int = 1280
    height: int = 720


@dataclass(frozen=True)
class EventConfig:
    """The event or café this table shares a leaderboard with, through an MQTT broker (:mod:`kiosk.events`).
    Off by default: a lone table needs none of it."""

    enabled: bool = False
    broker: str = ""
    port: int = 1883
    event: str = ""
    table: str = ""
    user: str = ""
    password: str = ""
    tls: bool = False
    ca_file: str = ""


@dataclass(frozen=True)
class LanguageConfig:
    """Languages (:mod:`kiosk.i18n`): ``default`` is the table's (the shared centre, and every seat until it picks
    another); ``enabled`` the ones a seat's language button offers, in that order (one: no button)."""

    default: str = "en"
    enabled: tuple[str, ...] = ("en",)


@dataclass(frozen=True)
class Config:
    """The whole configuration. ``pins`` maps a seat position to ``{button name: BCM pin}``."""

    seats: SeatsConfig = SeatsConfig()
    pins: Mapping[str, Mapping[str, int]] = field(default_factory=lambda: dict(_DEFAULT_PINS))
    serial: SerialConfig = SerialConfig()
    operator: OperatorConfig = OperatorConfig()
    timeouts: TimeoutsConfig = TimeoutsConfig()
    sound: SoundConfig = SoundConfig()
    attract: AttractConfig = AttractConfig()
    bots: BotsConfig = BotsConfig()
    window: WindowConfig = WindowConfig()
    event: EventConfig = EventConfig()
    language: LanguageConfig = LanguageConfig()
    #: False for a configuration built with ``check_ranges=False`` (tests, benchmarks; see :meth:`replace`).
    ranges_checked: bool = field(default=True, compare=False, repr=False)

    def replace(self, *, check_ranges: bool | None = None, **sections: Any) -> Config:
        """A copy with some fields changed: ``cfg.replace(sound={"volume": 0.3})`` (dicts merge, validated).

        ``check_ranges=False`` is for tests and benchmarks that need a fast table (timeouts of a second, bots
        without a pause): types are still checked, the ranges that keep a café table usable are not, and later
        ``replace`` calls on the result (the operator menu's changes) inherit that. Files and ``--check-config``
        always check them."""
        data = to_dict(self)
        for key, value in sections.items():
            if isinstance(value, Mapping) and isinstance(data.get(key), dict):
                data[key] = {**data[key], **value}
            else:
                data[key] = value
        return load_dict(data, check_ranges=self.ranges_checked if check_ranges is None else check_ranges)


# Seat buttons: "a" = confirm / join / TAKOYAKI!, "b" = pass / back. BCM pins free of I2C/SPI/UART defaults.
_DEFAULT_PINS: dict[str, dict[str, int]] = {
    "south-west": {"a": 5, "b": 6},
    "south-east": {"a": 12, "b": 13},
    "east": {"a": 16, "b": 19},
    "north-east": {"a": 20, "b": 21},
    "north-west": {"a": 22, "b": 23},
    "west": {"a": 24, "b": 25},
}
_VALID_BCM = range(2, 28)


# ------------------------------------------------------------------------------------------------ PIN hashing
def hash_pin(pin: str, *, salt: bytes | None = None, iterations: int = PIN_ITERATIONS) -> str:
    """Hash an operator PIN for the config file. PINs are 4 to 8 digits (0-9)."""
    if not (isinstance(pin, str) and _PIN.match(pin)):
        raise ValueError("the operator PIN must be 4 to 8 digits (0-9)")
    lo, hi = PIN_ITERATIONS_RANGE
    if not lo <= iterations <= hi:
        raise ValueError(f"iterations must be between {lo} and {hi}")
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations)
    return f"pbkdf2_sha256${iterations}${salt.hex()}${digest.hex()}"


def check_pin(pin: str, pin_hash: str | None) -> bool:
    """True when ``pin`` matches the stored hash (constant-time comparison). False for no hash or a hash whose
    parameters are out of range (never a multi-second computation). Takes about 0.1 to 0.5 s: call it off the UI
    thread."""
    if pin_hash is None or pin_hash_problem(pin_hash) is not None or not _PIN.match(pin or ""):
        return False
    _algo, iterations, salt, digest = pin_hash.split("$")
    got = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), int(iterations))
    return hmac.compare_digest(got.hex(), digest.lower())


def pin_hash_problem(value: Any) -> str | None:
    """Why ``value`` cannot be an operator PIN hash (None if it can); the text names what is allowed."""
    if value is None:
        return None
    if not isinstance(value, str):
        return f"must be a string made by `kiosk --set-pin` (or null: no PIN yet), got {_short(value)}"
    if not value.startswith("pbkdf2_sha256$"):
        return (
            "unknown algorithm: must look like pbkdf2_sha256$<iterations>$<salt hex>$<hash hex> (use `kiosk --set-pin`)"
        )
    m = _PIN_HASH.match(value)
    if not m:
        return (
            "must look like pbkdf2_sha256$<iterations>$<salt hex>$<hash hex>: iterations in digits 0-9, a salt of "
            "16 to 128 and a hash of 64 hexadecimal digits (use `kiosk --set-pin`)"
        )
    lo, hi = PIN_ITERATIONS_RANGE
    if not lo <= int(m.group(1)) <= hi:
        return f"iterations must be between {lo} and {hi}, got {int(m.group(1))} (use `kiosk --set-pin`)"
    if len(m.group(2)) % 2:
        return "the salt must have an even number of hexadecimal digits (use `kiosk --set-pin`)"
    return None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _num(x: float) -> str:
    return f"{x:g}"


# ------------------------------------------------------------------------------------------------ validation
class _Checker:
    def __init__(self, check_ranges: bool = True) -> None:
        self.problems: list[str] = []
        self.check_ranges = check_ranges

    def bad(self, key: str, msg: str) -> None:
        self.problems.append(f"{key}: {msg}")

    def section(self, data: Mapping[str, Any], key: str, allowed: set[str]) -> dict[str, Any]:
        raw = data.get(key, {})
        if not isinstance(raw, Mapping):
            self.bad(key, f"must be an object {{...}}, got {type(raw).__name__}")
            return {}
        for extra in sorted(set(raw) - allowed):
            self.bad(f"{key}.{extra[:40]}", f"unknown key (known: {', '.join(sorted(allowed))})")
        return dict(raw)

    def number(
        self,
        sec: Mapping[str, Any],
        key: str,
        name: str,
        default: float,
        lo: float,
        hi: float,
        integer: bool = False,
        unit: str = "",
    ) -> Any:
        if name not in sec:
            return default
        v = sec[name]
        ok_type = isinstance(v, int) if integer else isinstance(v, (int, float))
        if isinstance(v, bool) or not ok_type:
            what = "a whole number" if integer else "a number"
            self.bad(f"{key}.{name}", f"must be {what} from {_num(lo)} to {_num(hi)}{unit}, got {_short(v)}")
            return default
        if not math.isfinite(v) or (self.check_ranges and not lo <= v <= hi):
            self.bad(f"{key}.{name}", f"must be between {_num(lo)} and {_num(hi)}{unit}, got {_short(v)}")
            return default
        return v

    def boolean(self, sec: Mapping[str, Any], key: str, name: str, default: bool) -> bool:
        v = sec.get(name, default)
        if not isinstance(v, bool):
            self.bad(f"{key}.{name}", f"must be true or false, got {_short(v)}")
            return default
        return v

    def choice(self, sec: Mapping[str, Any], key: str, name: str, default: str, options: tuple[str, ...]) -> str:
        v = sec.get(name, default)
        if not isinstance(v, str) or v not in options:
            self.bad(f"{key}.{name}", f"must be one of {', '.join(options)}, got {_short(v)}")
            return default
        return v


#: Allowed range of each timeout, in seconds: none may make the table unusable.
_TIMEOUT_RANGES: dict[str, tuple[float, float]] = {
    "idle_s": (15, 3600),
    "still_playing_s": (5, 600),
    "initials_s": (5, 300),
    "results_s": (3, 600),
    "menu_idle_s": (10, 3600),
}

_SECTIONS = {
    "seats",
    "pins",
    "serial",
    "operator",
    "timeouts",
    "sound",
    "attract",
    "bots",
    "window",
    "event",
    "language",
}


def load_dict(data: Mapping[str, Any], source: str | None = None, *, check_ranges: bool = True) -> Config:
    """Validate a parsed configuration and build a :class:`Config`; raise :class:`ConfigError` listing every
    problem at once (so an operator fixes the file in one go)."""
    c = _Checker(check_ranges)
    if not isinstance(data, Mapping):
        raise ConfigError([f"the file must hold a JSON object, got {type(data).__name__}"], source)
    for extra in sorted(set(data) - _SECTIONS):
        c.bad(extra[:40], f"unknown section (known: {', '.join(sorted(_SECTIONS))})")

    # seats
    s = c.section(data, "seats", {"positions", "depth"})
    positions = tuple(SeatsConfig.positions)
    if "positions" in s:
        raw = s["positions"]
        if not isinstance(raw, list) or not raw:
            c.bad("seats.positions", "must be a non-empty list of seat positions")
        else:
            ok = True
            for i, p in enumerate(raw):
                if not isinstance(p, str) or p not in POSITIONS:
                    c.bad(
                        f"seats.positions[{i}]",
                        f"unknown seat position {_short(p)} (choose from {', '.join(_POSITION_HELP)})",
                    )
                    ok = False
            if ok:
                if len(set(raw)) != len(raw):
                    c.bad("seats.positions", "lists a position twice")
                    ok = False
                for side in ("south", "north"):
                    if side in raw and (f"{side}-west" in raw or f"{side}-east" in raw):
                        c.bad(
                            "seats.positions",
                            f"{side!r} is the single centred seat of its side: it cannot be "
                            f"combined with {side}-west or {side}-east",
                        )
                        ok = False
                if len(raw) < 2:
                    c.bad("seats.positions", "the table needs at least 2 seats")
                    ok = False
            if ok:
                positions = tuple(p for p in POSITIONS if p in raw)  # clockwise order, whatever the file's order
    depth = c.number(s, "seats", "depth", SeatsConfig.depth, 0.12, 0.4, unit=" of the screen's short side")
    seats = SeatsConfig(positions=positions, depth=float(depth))

    # pins
    pins: dict[str, dict[str, int]] = {}
    raw_pins = data.get("pins", _DEFAULT_PINS)
    if not isinstance(raw_pins, Mapping):
        c.bad("pins", "must map a seat position to {button name: BCM pin}")
    else:
        used: dict[int, str] = {}
        for pos, buttons in raw_pins.items():
            if pos not in POSITIONS:
                c.bad(f"pins.{pos[:40]}", f"unknown seat position (choose from {', '.join(_POSITION_HELP)})")
                continue
            if not isinstance(buttons, Mapping) or not buttons:
                c.bad(f"pins.{pos}", 'must map a button name (for example "a") to a BCM pin number')
                continue
            pins[pos] = {}
            for name, pin in buttons.items():
                key = f"pins.{pos}.{name[:40]}"
                if isinstance(pin, bool) or not isinstance(pin, int) or pin not in _VALID_BCM:
                    c.bad(key, f"must be a BCM GPIO number from 2 to 27, got {_short(pin)}")
                elif pin in used:
                    c.bad(key, f"GPIO {pin} is already used by {used[pin]}")
                else:
                    used[pin] = key
                    pins[pos][str(name)] = pin
        for pos in pins:
            if pos not in positions:
                # Pins for a seat that is not configured are kept (re-enabling the seat brings them back).
                pass

    # serial
    s = c.section(data, "serial", {"port", "sticks"})
    port = s.get("port")
    if port is not None and (not isinstance(port, str) or not port):
        c.bad("serial.port", f"must be a device path or pyserial URL, or null to find the board, got {_short(port)}")
        port = None
    sticks: dict[int, tuple[str, str]] = {}
    raw_sticks = s.get("sticks", {})
    if not isinstance(raw_sticks, Mapping):
        c.bad("serial.sticks", 'must map a stick number to {"seat": position, "hand": "left"|"right"}')
    else:
        for k, v in raw_sticks.items():
            key = f"serial.sticks.{k[:40]}"
            if not re.fullmatch(r"[0-9]{1,2}", k):
                c.bad(key, "stick numbers are 0 to 11")
                continue
            stick = int(k)
            if not 0 <= stick <= 11:
                c.bad(key, "stick numbers are 0 to 11")
                continue
            if (
                not isinstance(v, Mapping)
                or not isinstance(v.get("seat"), str)
                or v.get("seat") not in POSITIONS
                or v.get("hand") not in HANDS
            ):
                c.bad(key, f'must be {{"seat": <position>, "hand": "left" or "right"}}, got {_short(v)}')
                continue
            sticks[stick] = (v["seat"], v["hand"])
    serial = SerialConfig(port=port, sticks=sticks)

    # operator
    s = c.section(data, "operator", {"pin_hash", "hold_s"})
    pin_hash = s.get("pin_hash", OperatorConfig.pin_hash)
    problem = pin_hash_problem(pin_hash)
    if problem is None and pin_hash == FORMER_DEFAULT_PIN_HASH:
        problem = f"is the former factory PIN {FORMER_DEFAULT_PIN}, which is no longer accepted: set a PIN"
    if problem:
        c.bad("operator.pin_hash", problem)
        pin_hash = OperatorConfig.pin_hash
    operator = OperatorConfig(
        pin_hash=pin_hash, hold_s=float(c.number(s, "operator", "hold_s", 5.0, 2, 30, unit=" seconds"))
    )

    # timeouts
    s = c.section(data, "timeouts", {f.name for f in dataclasses.fields(TimeoutsConfig)})
    d = TimeoutsConfig()
    timeouts = TimeoutsConfig(
        **{
            f.name: float(
                c.number(s, "timeouts", f.name, getattr(d, f.name), *_TIMEOUT_RANGES[f.name], unit=" seconds")
            )
            for f in dataclasses.fields(TimeoutsConfig)
        }
    )

    # sound
    s = c.section(data, "sound", {"volume", "muted"})
    sound = SoundConfig(
        volume=float(c.number(s, "sound", "volume", 0.7, 0.0, 1.0)), muted=c.boolean(s, "sound", "muted", False)
    )

    # attract
    s = c.section(data, "attract", {f.name for f in dataclasses.fields(AttractConfig)})
    text = s.get("text", AttractConfig.text)
    if not isinstance(text, str) or not text.strip() or len(text) > 60 or not text.isprintable():
        c.bad("attract.text", f"must be 1 to 60 printable characters, got {_short(text)}")
        text = AttractConfig.text
    a = AttractConfig()
    attract = AttractConfig(
        text=text,
        bot_level=c.choice(s, "attract", "bot_level", a.bot_level, BOT_LEVELS),
        move_delay_s=float(c.number(s, "attract", "move_delay_s", a.move_delay_s, 0.1, 10, unit=" seconds")),
        game_s=float(c.number(s, "attract", "game_s", a.game_s, 10, 600, unit=" seconds")),
        boards_s=float(c.number(s, "attract", "boards_s", a.boards_s, 2, 120, unit=" seconds")),
        call_s=float(c.number(s, "attract", "call_s", a.call_s, 2, 120, unit=" seconds")),
        replays=c.boolean(s, "attract", "replays", a.replays),
    )

    # bots
    s = c.section(data, "bots", {"default_level", "move_delay_s"})
    bots = BotsConfig(
        default_level=c.choice(s, "bots", "default_level", "normal", BOT_LEVELS),
        move_delay_s=float(c.number(s, "bots", "move_delay_s", 1.0, 0.0, 10, unit=" seconds")),
    )

    # window
    s = c.section(data, "window", {"width", "height"})
    window = WindowConfig(
        width=c.number(s, "window", "width", 1280, 320, 7680, integer=True, unit=" pixels"),
        height=c.number(s, "window", "height", 720, 240, 4320, integer=True, unit=" pixels"),
    )

    event = _event(c, c.section(data, "event", {f.name for f in dataclasses.fields(EventConfig)}))
    language = _language(c, c.section(data, "language", {"default", "enabled"}))

    if c.problems:
        raise ConfigError(c.problems, source)
    return Config(
        seats=seats,
        pins=pins,
        serial=serial,
        operator=operator,
        timeouts=timeouts,
        sound=sound,
        attract=attract,
        bots=bots,
        window=window,
        event=event,
        language=language,
        ranges_checked=check_ranges,
    )


def _language(c: _Checker, s: Mapping[str, Any]) -> LanguageConfig:
    """The ``language`` section: known language codes; ``enabled`` (default: just ``default``) holds ``default``."""
    known = tuple(LANGUAGES)
    default = c.choice(s, "language", "default", LanguageConfig.default, known)
    raw = s.get("enabled", [default])
    if not isinstance(raw, (list, tuple)) or not raw:
        c.bad("language.enabled", f"must be a non-empty list of languages (from {', '.join(known)}), got {_short(raw)}")
        return LanguageConfig(default=default, enabled=(default,))
    enabled: list[str] = []
    for i, code in enumerate(raw):
        if not isinstance(code, str) or code not in known:
            c.bad(f"language.enabled[{i}]", f"unknown language {_short(code)} (choose from {', '.join(known)})")
        elif code in enabled:
            c.bad("language.enabled", f"lists {code!r} twice")
        else:
            enabled.append(code)
    if "language.default" not in " ".join(c.problems) and enabled and default not in enabled:
        c.bad("language.enabled", f"must contain the default language {default!r}")
    return LanguageConfig(default=default, enabled=tuple(enabled) or (default,))


def _event(c: _Checker, s: Mapping[str, Any]) -> EventConfig:
    """The ``event`` section: every field checked; with ``enabled`` the broker, event and table must be set."""
    from kiosk.events.contract import SLUG

    def text(name: str, limit: int, pattern: re.Pattern[str] | None = None, what: str = "") -> str:
        v = s.get(name, "")
        if (
            not isinstance(v, str)
            or len(v) > limit
            or not v.isprintable()
            or (v and pattern and not pattern.fullmatch(v))
        ):
            c.bad(f"event.{name}", f"must be {what or f'text of at most {limit} characters'}, got {_short(v)}")
            return ""
        return v

    slug = "lower-case letters, digits and dashes (at most 40, starting with a letter or digit)"
    host = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.:-]{0,252})")
    ev = EventConfig(
        enabled=c.boolean(s, "event", "enabled", False),
        broker=text("broker", 253, host, "a host name or address"),
        port=c.number(s, "event", "port", 1883, 1, 65535, integer=True),
        event=text("event", 40, SLUG, slug),
        table=text("table", 40, SLUG, slug),
        user=text("user", 64),
        password=text("password", 128),
        tls=c.boolean(s, "event", "tls", False),
        ca_file=text("ca_file", 4096),
    )
    if ev.enabled:
        for name in ("broker", "event", "table"):
            if not s.get(name):  # (a value given but refused has its own message above)
                c.bad(f"event.{name}", "must be set when the event link is enabled")
    return ev


def to_dict(cfg: Config) -> dict[str, Any]:
    """The JSON form of a configuration (what :func:`save` writes)."""
    out = {
        "seats": {"positions": list(cfg.seats.positions), "depth": cfg.seats.depth},
        "pins": {pos: dict(b) for pos, b in cfg.pins.items()},
        "serial": {
            "port": cfg.serial.port,
            "sticks": {str(k): {"seat": v[0], "hand": v[1]} for k, v in sorted(cfg.serial.sticks.items())},
        },
    }
    for name in ("operator", "timeouts", "sound", "attract", "bots", "window", "event"):
        out[name] = dataclasses.asdict(getattr(cfg, name))
    out["language"] = {"default": cfg.language.default, "enabled": list(cfg.language.enabled)}
    return copy.deepcopy(out)


# ------------------------------------------------------------------------------------------------ files
def default_state_dir() -> Path:
    """``$STATE_DIRECTORY`` (the unit's ``Environment=STATE_DIRECTORY=/var/lib/sushi-kiosk``) or
    ``$XDG_STATE_HOME/sushi-kiosk`` (~/.local/state)."""
    env = os.environ.get("STATE_DIRECTORY")
    if env:
        return Path(env.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "sushi-kiosk"


def table_state_dir() -> Path:
    """The installed table's state folder (the unit's ``STATE_DIRECTORY`` and ``ReadWritePaths=``):
    ``/var/lib/sushi-kiosk``, or ``$KIOSK_TABLE_STATE_DIR`` (tests). ``kiosk --set-pin`` run by root writes here, as
    the folder's owner."""
    return Path(os.environ.get("KIOSK_TABLE_STATE_DIR") or "/var/lib/sushi-kiosk")


def default_config_path() -> Path:
    env = os.environ.get("KIOSK_CONFIG")
    return Path(env) if env else default_state_dir() / "kiosk.json"


def last_good_path(path: Path | str) -> Path:
    """Where the last good copy of the config at ``path`` is kept: ``kiosk.last-good.json`` beside it."""
    path = Path(path)
    return path.with_name(f"{path.stem}.last-good{path.suffix or '.json'}")


def _read(path: Path, source: str) -> Config:
    """Read and validate one file; :class:`ConfigError` for anything wrong with it, ``OSError`` to the caller."""
    try:
        data = safejson.read_file(path, max_bytes=MAX_BYTES, max_depth=MAX_DEPTH)
    except safejson.Unreadable as exc:
        raise ConfigError([str(exc)], source) from None
    return load_dict(data, source)


def load(path: Path | str, *, create: bool = True) -> Config:
    """Load and validate ``path`` strictly (:class:`ConfigError` for any problem, also for a file that cannot be
    read). A missing file is created with the defaults when ``create`` is true."""
    path = Path(path)
    if not path.exists():
        cfg = Config()
        if create:
            save(cfg, path)
        return cfg
    try:
        return _read(path, str(path))
    except OSError as exc:
        raise ConfigError([f"cannot read the file: {exc.strerror or exc}"], str(path)) from exc


@dataclass(frozen=True)
class LoadedConfig:
    """What :func:`load_safely` started with: the configuration, where it came from, and what was wrong.

    ``source`` is ``"file"`` (the config file as it is), ``"last good copy"`` or ``"defaults"``. ``problems`` is
    empty when the file was fine; otherwise one line per problem, for the operator menu.
    """

    config: Config
    source: str
    problems: tuple[str, ...] = ()
    path: Path | None = None

    @property
    def ok(self) -> bool:
        return not self.problems


def load_safely(path: Path | str, *, create: bool = True) -> LoadedConfig:
    """Load the config the kiosk starts with. Never raises: see the module docstring for the fallbacks."""
    path = Path(path)
    good = last_good_path(path)
    problems: list[str] = []
    broken_pin: str | None = None
    try:
        cfg = _read(path, path.name)
    except (FileNotFoundError, NotADirectoryError):
        fallback = _fallback(good, problems, None)
        source = "defaults" if fallback is None else "last good copy"
        cfg = fallback or Config()
        if fallback is not None:
            problems.insert(0, f"{path.name} was missing: restored from {good.name}")
        if create:
            try:
                save(cfg, path)
            except OSError as exc:
                problems.append(f"{path.name} could not be created ({exc.strerror or exc}): changes are not kept")
        for line in problems:
            log.warning("config: %s", line)
        return LoadedConfig(cfg, source if problems else "file", tuple(problems), path)
    except ConfigError as exc:
        problems.extend(exc.problems)
        broken_pin = _salvage_pin(path)
    except OSError as exc:
        problems.append(f"{path.name} cannot be read: {exc.strerror or exc}")
    else:
        _refresh_last_good(cfg, path)
        return LoadedConfig(cfg, "file", (), path)
    fallback = _fallback(good, problems, broken_pin)
    if fallback is not None:
        source = "last good copy"
        cfg = fallback
    else:
        source = "defaults"
        cfg = Config() if broken_pin is None else Config(operator=OperatorConfig(pin_hash=broken_pin))
    log.warning(
        "config %s has %d problem(s); the kiosk runs with the %s: %s", path, len(problems), source, "; ".join(problems)
    )
    return LoadedConfig(cfg, source, tuple(problems), path)


def _fallback(good: Path, problems: list[str], broken_pin: str | None) -> Config | None:
    try:
        cfg = _read(good, good.name)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (ConfigError, OSError) as exc:
        problems.append(f"the last good copy {good.name} is not usable either: {str(exc).splitlines()[-1].strip()}")
        return None
    if broken_pin is not None and broken_pin != cfg.operator.pin_hash:
        cfg = dataclasses.replace(cfg, operator=dataclasses.replace(cfg.operator, pin_hash=broken_pin))
    return cfg


def _salvage_pin(path: Path) -> str | None:
    """A valid PIN hash in a config that does not load as a whole (so a typo elsewhere keeps the PIN)."""
    try:
        data = safejson.read_file(path, max_bytes=MAX_BYTES, max_depth=MAX_DEPTH)
        value = data["operator"]["pin_hash"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    ok = isinstance(value, str) and pin_hash_problem(value) is None and value != FORMER_DEFAULT_PIN_HASH
    return value if ok else None


def _refresh_last_good(cfg: Config, path: Path) -> None:
    good = last_good_path(path)
    blob = _encode(cfg)
    try:
        if good.exists() and good.read_bytes() == blob:
            return
        atomic_write_bytes(good, blob)
    except OSError as exc:
        log.warning("could not keep the last good config %s: %s", good, exc.strerror or exc)


def _encode(cfg: Config) -> bytes:
    return (json.dumps(to_dict(cfg), indent=2) + "\n").encode("utf-8")


def save(cfg: Config, path: Path | str) -> None:
    """Write the configuration atomically (temp file in the same folder, fsync, rename, fsync the folder) and
    keep it as the last good copy. A file in the way that does not load is moved aside first
    (``kiosk.rejected-<stamp>.json``). ``OSError`` if the card refuses the write (the old file is untouched)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        try:
            _read(path, path.name)
        except (ConfigError, OSError) as exc:
            dest = aside_name(path, "rejected")
            try:
                os.replace(path, dest)
                log.warning("%s did not load (%s); moved aside to %s", path, str(exc).splitlines()[-1].strip(), dest)
            except OSError as move_exc:
                log.warning("could not move %s aside: %s", path, move_exc)
    blob = _encode(cfg)
    atomic_write_bytes(path, blob)
    _refresh_last_good(cfg, path)
