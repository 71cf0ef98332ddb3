"""The settings' validation: a parsed ``kiosk.json`` to a :class:`~kiosk.config.values.Config`, one function per
section, every problem reported at once with one message per key naming what is allowed::

    >>> load_dict({"seats": {"positions": ["south", "up"]}, "sound": {"volume": 3}})
    Traceback (most recent call last):
    ...
    kiosk.config.values.ConfigError: invalid kiosk configuration:
      seats.positions[1]: unknown seat position 'up' (choose from south-west, south, south-east, east,
        north-east, north, north-west, west)
      sound.volume: must be between 0 and 1, got 3
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from hardware.config import MAX_STICKS
from kiosk.config.values import (
    BOT_LEVELS,
    DEFAULT_PINS,
    HANDS,
    POSITION_HELP,
    POSITIONS,
    VALID_BCM,
    AttractConfig,
    BotsConfig,
    Config,
    ConfigError,
    EventConfig,
    LanguageConfig,
    OperatorConfig,
    SeatsConfig,
    SerialConfig,
    SoundConfig,
    TimeoutsConfig,
    WindowConfig,
)
from kiosk.events.contract import SLUG
from kiosk.i18n import LANGUAGES
from kiosk.pin import FORMER_DEFAULT_PIN, FORMER_DEFAULT_PIN_HASH, pin_hash_problem

__all__ = ["load_dict"]


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _num(x: float) -> str:
    return f"{x:g}"


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
        unit: str = "",
    ) -> float:
        if name not in sec:
            return default
        v = sec[name]
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            self.bad(f"{key}.{name}", f"must be a number from {_num(lo)} to {_num(hi)}{unit}, got {_short(v)}")
            return default
        if not math.isfinite(v) or (self.check_ranges and not lo <= v <= hi):
            self.bad(f"{key}.{name}", f"must be between {_num(lo)} and {_num(hi)}{unit}, got {_short(v)}")
            return default
        return float(v)

    def whole(self, sec: Mapping[str, Any], key: str, name: str, default: int, lo: int, hi: int, unit: str = "") -> int:
        if name not in sec:
            return default
        v = sec[name]
        if isinstance(v, bool) or not isinstance(v, int):
            self.bad(f"{key}.{name}", f"must be a whole number from {_num(lo)} to {_num(hi)}{unit}, got {_short(v)}")
            return default
        if self.check_ranges and not lo <= v <= hi:
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


def load_dict(data: Mapping[str, Any], source: str | None = None, *, check_ranges: bool = True) -> Config:
    """Validate a parsed configuration and build a :class:`Config`; raise :class:`ConfigError` listing every
    problem at once (so an operator fixes the file in one go)."""
    c = _Checker(check_ranges)
    if not isinstance(data, Mapping):
        raise ConfigError([f"the file must hold a JSON object, got {type(data).__name__}"], source)
    for extra in sorted(set(data) - set(_SECTIONS)):
        c.bad(extra[:40], f"unknown section (known: {', '.join(sorted(_SECTIONS))})")
    seats = _seats(c, c.section(data, "seats", {"positions", "depth"}))
    cfg = Config(
        seats=seats,
        pins=_pins(c, data.get("pins", DEFAULT_PINS)),
        serial=_serial(c, c.section(data, "serial", {"port", "sticks"})),
        operator=_operator(c, c.section(data, "operator", {"pin_hash", "hold_s"})),
        timeouts=_timeouts(c, c.section(data, "timeouts", _fields(TimeoutsConfig))),
        sound=_sound(c, c.section(data, "sound", {"volume", "muted"})),
        attract=_attract(c, c.section(data, "attract", _fields(AttractConfig))),
        bots=_bots(c, c.section(data, "bots", {"default_level", "move_delay_s"})),
        window=_window(c, c.section(data, "window", {"width", "height"})),
        event=_event(c, c.section(data, "event", _fields(EventConfig))),
        language=_language(c, c.section(data, "language", {"default", "enabled"})),
        ranges_checked=check_ranges,
    )
    if c.problems:
        raise ConfigError(c.problems, source)
    return cfg


def _fields(section: type) -> set[str]:
    return {f.name for f in dataclasses.fields(section)}


def _seats(c: _Checker, s: Mapping[str, Any]) -> SeatsConfig:
    """``seats``: known positions, none twice, at least two, a centred seat alone on its side; ``depth``."""
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
                        f"unknown seat position {_short(p)} (choose from {', '.join(POSITION_HELP)})",
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
    return SeatsConfig(positions=positions, depth=depth)


def _pins(c: _Checker, raw_pins: Any) -> dict[str, dict[str, int]]:
    """``pins``: position -> {button name: BCM pin}, every pin a header GPIO used once. Pins of a seat that is not
    configured are kept (re-enabling the seat brings them back)."""
    pins: dict[str, dict[str, int]] = {}
    if not isinstance(raw_pins, Mapping):
        c.bad("pins", "must map a seat position to {button name: BCM pin}")
        return pins
    used: dict[int, str] = {}
    for pos, buttons in raw_pins.items():
        if pos not in POSITIONS:
            c.bad(f"pins.{pos[:40]}", f"unknown seat position (choose from {', '.join(POSITION_HELP)})")
            continue
        if not isinstance(buttons, Mapping) or not buttons:
            c.bad(f"pins.{pos}", 'must map a button name (for example "a") to a BCM pin number')
            continue
        pins[pos] = {}
        for name, pin in buttons.items():
            key = f"pins.{pos}.{name[:40]}"
            if isinstance(pin, bool) or not isinstance(pin, int) or pin not in VALID_BCM:
                c.bad(key, f"must be a BCM GPIO number from 2 to 27, got {_short(pin)}")
            elif pin in used:
                c.bad(key, f"GPIO {pin} is already used by {used[pin]}")
            else:
                used[pin] = key
                pins[pos][str(name)] = pin
    return pins


def _serial(c: _Checker, s: Mapping[str, Any]) -> SerialConfig:
    """``serial``: the port (a path or URL, or null: find the board) and stick -> seat and hand."""
    port = s.get("port")
    if port is not None and (not isinstance(port, str) or not port):
        c.bad("serial.port", f"must be a device path or pyserial URL, or null to find the board, got {_short(port)}")
        port = None
    sticks: dict[int, tuple[str, str]] = {}
    raw_sticks = s.get("sticks", {})
    if not isinstance(raw_sticks, Mapping):
        c.bad("serial.sticks", 'must map a stick number to {"seat": position, "hand": "left"|"right"}')
        return SerialConfig(port=port, sticks=sticks)
    for k, v in raw_sticks.items():
        key = f"serial.sticks.{k[:40]}"
        if not re.fullmatch(r"[0-9]{1,2}", k) or not 0 <= int(k) < MAX_STICKS:
            c.bad(key, f"stick numbers are 0 to {MAX_STICKS - 1}")
            continue
        if (
            not isinstance(v, Mapping)
            or not isinstance(v.get("seat"), str)
            or v.get("seat") not in POSITIONS
            or v.get("hand") not in HANDS
        ):
            c.bad(key, f'must be {{"seat": <position>, "hand": "left" or "right"}}, got {_short(v)}')
            continue
        sticks[int(k)] = (v["seat"], v["hand"])
    return SerialConfig(port=port, sticks=sticks)


def _operator(c: _Checker, s: Mapping[str, Any]) -> OperatorConfig:
    """``operator``: a well-formed PIN hash (never the former factory PIN's) and the corner hold's seconds."""
    pin_hash = s.get("pin_hash", OperatorConfig.pin_hash)
    problem = pin_hash_problem(pin_hash)
    if problem is None and pin_hash == FORMER_DEFAULT_PIN_HASH:
        problem = f"is the former factory PIN {FORMER_DEFAULT_PIN}, which is no longer accepted: set a PIN"
    if problem:
        c.bad("operator.pin_hash", problem)
        pin_hash = OperatorConfig.pin_hash
    return OperatorConfig(pin_hash=pin_hash, hold_s=c.number(s, "operator", "hold_s", 5.0, 2, 30, unit=" seconds"))


def _timeouts(c: _Checker, s: Mapping[str, Any]) -> TimeoutsConfig:
    """``timeouts``: seconds, each within the range that keeps the table usable."""
    d = TimeoutsConfig()
    return TimeoutsConfig(
        **{
            f.name: c.number(s, "timeouts", f.name, getattr(d, f.name), *_TIMEOUT_RANGES[f.name], unit=" seconds")
            for f in dataclasses.fields(TimeoutsConfig)
        }
    )


def _sound(c: _Checker, s: Mapping[str, Any]) -> SoundConfig:
    """``sound``: the volume (0 to 1) and whether it is muted."""
    return SoundConfig(
        volume=c.number(s, "sound", "volume", 0.7, 0.0, 1.0), muted=c.boolean(s, "sound", "muted", False)
    )


def _attract(c: _Checker, s: Mapping[str, Any]) -> AttractConfig:
    """``attract``: the call's text (1 to 60 printable characters), the bots' level and pace, the cycle's parts."""
    text = s.get("text", AttractConfig.text)
    if not isinstance(text, str) or not text.strip() or len(text) > 60 or not text.isprintable():
        c.bad("attract.text", f"must be 1 to 60 printable characters, got {_short(text)}")
        text = AttractConfig.text
    a = AttractConfig()
    return AttractConfig(
        text=text,
        bot_level=c.choice(s, "attract", "bot_level", a.bot_level, BOT_LEVELS),
        move_delay_s=c.number(s, "attract", "move_delay_s", a.move_delay_s, 0.1, 10, unit=" seconds"),
        game_s=c.number(s, "attract", "game_s", a.game_s, 10, 600, unit=" seconds"),
        boards_s=c.number(s, "attract", "boards_s", a.boards_s, 2, 120, unit=" seconds"),
        call_s=c.number(s, "attract", "call_s", a.call_s, 2, 120, unit=" seconds"),
        replays=c.boolean(s, "attract", "replays", a.replays),
    )


def _bots(c: _Checker, s: Mapping[str, Any]) -> BotsConfig:
    """``bots``: the level offered first and the bots' pause between moves."""
    return BotsConfig(
        default_level=c.choice(s, "bots", "default_level", "normal", BOT_LEVELS),
        move_delay_s=c.number(s, "bots", "move_delay_s", 1.0, 0.0, 10, unit=" seconds"),
    )


def _window(c: _Checker, s: Mapping[str, Any]) -> WindowConfig:
    """``window``: the desktop window's size in pixels."""
    return WindowConfig(
        width=c.whole(s, "window", "width", 1280, 320, 7680, unit=" pixels"),
        height=c.whole(s, "window", "height", 720, 240, 4320, unit=" pixels"),
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
        port=c.whole(s, "event", "port", 1883, 1, 65535),
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


#: Every section of the file and the function that checks it (the order of :func:`load_dict`'s messages).
_SECTIONS: dict[str, Callable[..., Any]] = {
    "seats": _seats,
    "pins": _pins,
    "serial": _serial,
    "operator": _operator,
    "timeouts": _timeouts,
    "sound": _sound,
    "attract": _attract,
    "bots": _bots,
    "window": _window,
    "event": _event,
    "language": _language,
}
