"""The settings' values and their schema: one frozen dataclass per section of ``kiosk.json`` with its defaults,
the whole :class:`Config`, the names a setting may take (:data:`POSITIONS`, :data:`BOT_LEVELS`, :data:`HANDS`),
and the JSON form (:func:`to_dict`). No file and no checking here: :mod:`kiosk.config.validate` builds these
values from a parsed file, :mod:`kiosk.config.file` reads and writes it.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hardware.config import DEFAULT_SEATS, DEFAULT_WIRING, VALID_BCM_PINS
from hardware.config import HANDS as HARDWARE_HANDS

#: Seat positions in clockwise order around the table, seen from above (north = top edge of the picture).
POSITIONS: tuple[str, ...] = ("south-east", "south", "south-west", "west", "north-west", "north", "north-east", "east")
#: The positions in the order the messages and the picker list them (reading order).
POSITION_HELP = ("south-west", "south", "south-east", "east", "north-east", "north", "north-west", "west")
BOT_LEVELS: tuple[str, ...] = ("random", "easy", "normal", "hard")
HANDS: tuple[str, ...] = HARDWARE_HANDS


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

    positions: tuple[str, ...] = DEFAULT_SEATS
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
    pins: Mapping[str, Mapping[str, int]] = field(default_factory=lambda: {p: dict(b) for p, b in DEFAULT_PINS.items()})
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
        from kiosk.config.validate import load_dict  # validation builds these values: the cycle is broken here

        return load_dict(data, check_ranges=self.ranges_checked if check_ranges is None else check_ranges)


#: The table's wiring by position (seat buttons: "a" = confirm / join / TAKOYAKI!, "b" = pass / back) and the legal
#: BCM pins: the hardware settings' one schema, :mod:`hardware.config`.
DEFAULT_PINS: dict[str, dict[str, int]] = DEFAULT_WIRING
VALID_BCM = VALID_BCM_PINS


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
