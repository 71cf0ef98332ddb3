"""The kiosk's one configuration file: defaults, loading, validation with clear errors, saving.

The file is JSON (``kiosk.json`` in the state folder unless ``--config`` or ``$KIOSK_CONFIG`` names another).
Every key is optional: a missing key takes its default, so an empty ``{}`` is a valid file. An unknown key, a
wrong type or an out-of-range value stops the start with one message per problem, naming the key::

    >>> load_dict({"seats": {"positions": ["south", "up"]}, "sound": {"volume": 3}})
    Traceback (most recent call last):
    ...
    kiosk.config.ConfigError: invalid kiosk configuration:
      seats.positions[1]: unknown seat position 'up' (choose from south-west, south, south-east, east,
        north-east, north, north-west, west)
      sound.volume: must be between 0.0 and 1.0, got 3

Decisions written down here (the issue is silent on them):

* JSON rather than TOML/INI because the operator menu writes the file back (volume, attract text, bot levels,
  timeouts, PIN); the standard library reads and writes JSON, and ``docs/kiosk.md`` documents every key.
* The operator PIN is stored only as a salted PBKDF2-SHA256 hash (``pbkdf2_sha256$<iterations>$<salt>$<hash>``).
  The default PIN is ``2468``; ``kiosk --set-pin`` replaces it. The default hash is fixed (not made at random at
  first start) so the documentation can state the default PIN.
* Seats are named by compass position on the screen as it lies on the table, north being the top edge of the
  picture: one or two seats on each long side (``south`` or ``south-west`` + ``south-east``; the same in the
  north) and one on each short side (``east``, ``west``), at most six. Seat buttons and tap sticks are tied to a
  seat by its position name, so re-cabling a seat is an edit of this file.
* Files are saved atomically (temp file, fsync, ``os.replace``) so a power cut never leaves half a config.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
    "POSITIONS",
    "BOT_LEVELS",
    "DEFAULT_PIN",
    "load",
    "load_dict",
    "save",
    "hash_pin",
    "check_pin",
    "default_state_dir",
    "default_config_path",
]

#: Seat positions in clockwise order around the table, seen from above (north = top edge of the picture).
POSITIONS: tuple[str, ...] = ("south-east", "south", "south-west", "west", "north-west", "north", "north-east", "east")
#: The positions in the order this docstring and the picker list them (reading order).
_POSITION_HELP = ("south-west", "south", "south-east", "east", "north-east", "north", "north-west", "west")
BOT_LEVELS: tuple[str, ...] = ("random", "easy", "normal", "hard")
HANDS: tuple[str, ...] = ("left", "right")
DEFAULT_PIN = "2468"
_PIN_ITERATIONS = 120_000
# The hash of DEFAULT_PIN with a fixed salt (see the module docstring); check_pin verifies any stored hash.
_DEFAULT_PIN_HASH = (
    "pbkdf2_sha256$120000$6b696f736b2d64656661756c74$fdcf4b5c917e763de93fb06130f90cc99a1cc296b79e889542c7c6d03a62e08e"
)


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
    """The hidden operator gesture (hold a finger this long in any corner) and the hashed PIN."""

    pin_hash: str = _DEFAULT_PIN_HASH
    hold_s: float = 5.0


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
    """Attract mode: the call text, the bots' level, their pace, and how long each part of the cycle lasts."""

    text: str = "Touch to play!"
    bot_level: str = "easy"
    move_delay_s: float = 0.9
    game_s: float = 40.0
    boards_s: float = 8.0
    call_s: float = 5.0


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

    def replace(self, **sections: Any) -> Config:
        """A copy with some fields changed: ``cfg.replace(sound={"volume": 0.3})`` (dicts merge, validated)."""
        data = to_dict(self)
        for key, value in sections.items():
            if isinstance(value, Mapping) and isinstance(data.get(key), dict):
                data[key] = {**data[key], **value}
            else:
                data[key] = value
        return load_dict(data)


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
def hash_pin(pin: str, *, salt: bytes | None = None, iterations: int = _PIN_ITERATIONS) -> str:
    """Hash an operator PIN for the config file. PINs are 4 to 8 digits."""
    if not (isinstance(pin, str) and pin.isdigit() and 4 <= len(pin) <= 8):
        raise ValueError("the operator PIN must be 4 to 8 digits")
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations)
    return f"pbkdf2_sha256${iterations}${salt.hex()}${digest.hex()}"


def check_pin(pin: str, pin_hash: str) -> bool:
    """True when ``pin`` matches the stored hash (constant-time comparison)."""
    try:
        algo, iterations, salt, digest = pin_hash.split("$")
        if algo != "pbkdf2_sha256":
            return False
        got = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), int(iterations))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got.hex(), digest)


def _pin_hash_problem(value: Any) -> str | None:
    if not isinstance(value, str):
        return f"must be a string made by `kiosk --set-pin`, got {value!r}"
    parts = value.split("$")
    if len(parts) != 4 or parts[0] != "pbkdf2_sha256" or not parts[1].isdigit():
        return "must look like pbkdf2_sha256$<iterations>$<salt hex>$<hash hex> (use `kiosk --set-pin`)"
    try:
        bytes.fromhex(parts[2]), bytes.fromhex(parts[3])
    except ValueError:
        return "salt and hash must be hexadecimal (use `kiosk --set-pin`)"
    if len(parts[3]) != 64:
        return "hash must be 64 hex digits (use `kiosk --set-pin`)"
    return None


# ------------------------------------------------------------------------------------------------ validation
class _Checker:
    def __init__(self) -> None:
        self.problems: list[str] = []

    def bad(self, key: str, msg: str) -> None:
        self.problems.append(f"{key}: {msg}")

    def section(self, data: Mapping[str, Any], key: str, allowed: set[str]) -> dict[str, Any]:
        raw = data.get(key, {})
        if not isinstance(raw, Mapping):
            self.bad(key, f"must be an object, got {type(raw).__name__}")
            return {}
        for extra in sorted(set(raw) - allowed):
            self.bad(f"{key}.{extra}", f"unknown key (known: {', '.join(sorted(allowed))})")
        return dict(raw)

    def number(
        self, sec: Mapping[str, Any], key: str, name: str, default: float, lo: float, hi: float, integer: bool = False
    ) -> Any:
        if name not in sec:
            return default
        v = sec[name]
        ok_type = isinstance(v, int) if integer else isinstance(v, (int, float))
        if isinstance(v, bool) or not ok_type:
            self.bad(f"{key}.{name}", f"must be {'a whole number' if integer else 'a number'}, got {v!r}")
            return default
        if not lo <= v <= hi:
            self.bad(f"{key}.{name}", f"must be between {lo} and {hi}, got {v!r}")
            return default
        return v

    def boolean(self, sec: Mapping[str, Any], key: str, name: str, default: bool) -> bool:
        v = sec.get(name, default)
        if not isinstance(v, bool):
            self.bad(f"{key}.{name}", f"must be true or false, got {v!r}")
            return default
        return v

    def choice(self, sec: Mapping[str, Any], key: str, name: str, default: str, options: tuple[str, ...]) -> str:
        v = sec.get(name, default)
        if v not in options:
            self.bad(f"{key}.{name}", f"must be one of {', '.join(options)}, got {v!r}")
            return default
        return v


_SECTIONS = {"seats", "pins", "serial", "operator", "timeouts", "sound", "attract", "bots", "window"}


def load_dict(data: Mapping[str, Any], source: str | None = None) -> Config:
    """Validate a parsed configuration and build a :class:`Config`; raise :class:`ConfigError` listing every
    problem at once (so an operator fixes the file in one go)."""
    c = _Checker()
    if not isinstance(data, Mapping):
        raise ConfigError([f"the file must hold a JSON object, got {type(data).__name__}"], source)
    for extra in sorted(set(data) - _SECTIONS):
        c.bad(extra, f"unknown section (known: {', '.join(sorted(_SECTIONS))})")

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
                if p not in POSITIONS:
                    c.bad(
                        f"seats.positions[{i}]",
                        f"unknown seat position {p!r} (choose from {', '.join(_POSITION_HELP)})",
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
    depth = c.number(s, "seats", "depth", SeatsConfig.depth, 0.12, 0.4)
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
                c.bad(f"pins.{pos}", f"unknown seat position (choose from {', '.join(_POSITION_HELP)})")
                continue
            if not isinstance(buttons, Mapping) or not buttons:
                c.bad(f"pins.{pos}", 'must map a button name (for example "a") to a BCM pin number')
                continue
            pins[pos] = {}
            for name, pin in buttons.items():
                key = f"pins.{pos}.{name}"
                if isinstance(pin, bool) or not isinstance(pin, int) or pin not in _VALID_BCM:
                    c.bad(key, f"must be a BCM GPIO number from 2 to 27, got {pin!r}")
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
        c.bad("serial.port", f"must be a device path or pyserial URL, or null to find the board, got {port!r}")
        port = None
    sticks: dict[int, tuple[str, str]] = {}
    raw_sticks = s.get("sticks", {})
    if not isinstance(raw_sticks, Mapping):
        c.bad("serial.sticks", 'must map a stick number to {"seat": position, "hand": "left"|"right"}')
    else:
        for k, v in raw_sticks.items():
            key = f"serial.sticks.{k}"
            try:
                stick = int(k)
            except (TypeError, ValueError):
                c.bad(key, "stick numbers are 0 to 11")
                continue
            if not 0 <= stick <= 11:
                c.bad(key, "stick numbers are 0 to 11")
                continue
            if not isinstance(v, Mapping) or v.get("seat") not in POSITIONS or v.get("hand") not in HANDS:
                c.bad(key, f'must be {{"seat": <position>, "hand": "left" or "right"}}, got {v!r}')
                continue
            sticks[stick] = (v["seat"], v["hand"])
    serial = SerialConfig(port=port, sticks=sticks)

    # operator
    s = c.section(data, "operator", {"pin_hash", "hold_s"})
    pin_hash = s.get("pin_hash", OperatorConfig.pin_hash)
    problem = _pin_hash_problem(pin_hash)
    if problem:
        c.bad("operator.pin_hash", problem)
        pin_hash = OperatorConfig.pin_hash
    operator = OperatorConfig(pin_hash=pin_hash, hold_s=float(c.number(s, "operator", "hold_s", 5.0, 0.5, 30)))

    # timeouts
    s = c.section(data, "timeouts", {f.name for f in dataclasses.fields(TimeoutsConfig)})
    d = TimeoutsConfig()
    timeouts = TimeoutsConfig(
        **{
            f.name: float(c.number(s, "timeouts", f.name, getattr(d, f.name), 0.1, 3600))
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
    if not isinstance(text, str) or not text.strip() or len(text) > 60:
        c.bad("attract.text", f"must be 1 to 60 characters, got {text!r}")
        text = AttractConfig.text
    a = AttractConfig()
    attract = AttractConfig(
        text=text,
        bot_level=c.choice(s, "attract", "bot_level", a.bot_level, BOT_LEVELS),
        move_delay_s=float(c.number(s, "attract", "move_delay_s", a.move_delay_s, 0.05, 10)),
        game_s=float(c.number(s, "attract", "game_s", a.game_s, 1, 600)),
        boards_s=float(c.number(s, "attract", "boards_s", a.boards_s, 0.5, 120)),
        call_s=float(c.number(s, "attract", "call_s", a.call_s, 0.5, 120)),
    )

    # bots
    s = c.section(data, "bots", {"default_level", "move_delay_s"})
    bots = BotsConfig(
        default_level=c.choice(s, "bots", "default_level", "normal", BOT_LEVELS),
        move_delay_s=float(c.number(s, "bots", "move_delay_s", 1.0, 0.0, 10)),
    )

    # window
    s = c.section(data, "window", {"width", "height"})
    window = WindowConfig(
        width=c.number(s, "window", "width", 1280, 320, 7680, integer=True),
        height=c.number(s, "window", "height", 720, 240, 4320, integer=True),
    )

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
    )


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
    for name in ("operator", "timeouts", "sound", "attract", "bots", "window"):
        out[name] = dataclasses.asdict(getattr(cfg, name))
    return copy.deepcopy(out)


# ------------------------------------------------------------------------------------------------ files
def default_state_dir() -> Path:
    """``$STATE_DIRECTORY`` (systemd's StateDirectory=) or ``$XDG_STATE_HOME/sushi-kiosk`` (~/.local/state)."""
    env = os.environ.get("STATE_DIRECTORY")
    if env:
        return Path(env.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "sushi-kiosk"


def default_config_path() -> Path:
    env = os.environ.get("KIOSK_CONFIG")
    return Path(env) if env else default_state_dir() / "kiosk.json"


def load(path: Path | str, *, create: bool = True) -> Config:
    """Load and validate ``path``. A missing file is created with the defaults when ``create`` is true."""
    path = Path(path)
    if not path.exists():
        cfg = Config()
        if create:
            save(cfg, path)
        return cfg
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ConfigError([f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"], str(path)) from exc
    except OSError as exc:
        raise ConfigError([f"cannot read the file: {exc.strerror}"], str(path)) from exc
    return load_dict(data, str(path))


def save(cfg: Config, path: Path | str) -> None:
    """Write the configuration atomically (temp file in the same folder, fsync, rename, fsync the folder)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(to_dict(cfg), fh, indent=2)
        fh.write("\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    try:
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass
