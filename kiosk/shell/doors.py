"""The rooms' doors: what each room of the shell may use of the rest of the app, one :class:`typing.Protocol` per
room. A room's constructor takes its door (the router, :class:`kiosk.app.KioskApp`, passes itself), so mypy checks
both sides: the room uses nothing its door does not name, and the app provides everything each door names.

Only the router changes the table's mode and its shared parts: rooms ask it through :meth:`show`, :meth:`use_config`,
:meth:`use_stores`, :meth:`use_sounds` and :meth:`quit`. The game in progress is published by the launcher as its
Kivy property ``session`` and re-published by the router as ``app.session``: the one way the other rooms see it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from kiosk.config import Config, LoadedConfig
    from kiosk.engine import GameSpec
    from kiosk.inputs import HardwareInputs, InputHub
    from kiosk.pin import PinGuard
    from kiosk.seats import SeatMap
    from kiosk.session import GameSession
    from kiosk.shell.attract import AttractDirector
    from kiosk.shell.build import LazyBuild
    from kiosk.shell.desk import OperatorRoom
    from kiosk.shell.eventroom import EventRoom
    from kiosk.shell.idle import IdleWatch
    from kiosk.shell.launcher import GameLauncher
    from kiosk.shell.marks import CornerMark
    from kiosk.shell.replays import ReplayRoom
    from kiosk.shell.seathelp import SeatHelp
    from kiosk.shell.service import ServiceGlue
    from kiosk.sound import Sounds

__all__ = [
    "AttractDoor",
    "BuildDoor",
    "DeskDoor",
    "EventsDoor",
    "GesturesDoor",
    "IdleDoor",
    "LauncherDoor",
    "ReplayDoor",
    "SeatHelpDoor",
]


class _Shown(Protocol):
    """What every room reads: the table's mode, and the router's way to change what is shown."""

    mode: str
    cfg: Config
    sm: Any

    def show(self, screen: str, mode: str | None = None) -> None: ...

    def go_attract(self, *_a: Any) -> None: ...


class AttractDoor(_Shown, Protocol):
    events: EventRoom
    replays: ReplayRoom
    seed: int
    bot_iterations: int | None
    games: dict[str, GameSpec]
    table: SeatMap
    root: Any
    attract_screen: Any
    scores: Any
    service: ServiceGlue
    builder: LazyBuild
    launcher: GameLauncher


class BuildDoor(Protocol):
    cfg: Config
    games: dict[str, GameSpec]
    table: SeatMap
    state_dir: Any
    root: Any
    sm: Any
    hardware: HardwareInputs
    service: ServiceGlue
    director: AttractDirector
    launcher: GameLauncher
    replays: ReplayRoom
    idle: IdleWatch
    desk: OperatorRoom
    seat_help: SeatHelp
    events: EventRoom
    open_join: Callable[..., None]
    open_picker: Callable[..., None]
    start_game: Callable[..., None]

    def go_attract(self, *_a: Any) -> None: ...

    def use_stores(self, scores: Any, saved_games: Any, offers: list[Any]) -> None: ...

    def use_sounds(self, sounds: Sounds) -> None: ...


class DeskDoor(_Shown, Protocol):
    events: EventRoom
    games: dict[str, GameSpec]
    state_dir: Any
    config_path: Any
    loaded_config: LoadedConfig | None
    attract_screen: Any
    operator: Any
    diagnostics: Any
    corner_mark: CornerMark
    scores: Any
    saved_games: Any
    sounds: Sounds
    hub: InputHub
    hardware: HardwareInputs
    pin_guard: PinGuard
    session: GameSession | None
    builder: LazyBuild
    director: AttractDirector
    launcher: GameLauncher
    idle: IdleWatch

    def use_config(self, cfg: Config, loaded: LoadedConfig | None = None) -> None: ...

    def quit(self, reason: str) -> None: ...


class EventsDoor(Protocol):
    cfg: Config
    state_dir: Any


class GesturesDoor(Protocol):
    mode: str
    cfg: Config
    sm: Any
    table: SeatMap
    hub: InputHub
    attract_screen: Any
    picker: Any
    join_screen: Any
    results: Any
    seat_menus: Any
    builder: LazyBuild
    desk: OperatorRoom
    replays: ReplayRoom

    def leave_attract(self, seat_index: int | None) -> None: ...


class IdleDoor(_Shown, Protocol):
    root: Any
    hub: InputHub
    overlay: Any
    seat_menus: Any
    sounds: Sounds
    session: GameSession | None
    builder: LazyBuild
    launcher: GameLauncher


class LauncherDoor(_Shown, Protocol):
    seed: int
    bot_iterations: int | None
    games: dict[str, GameSpec]
    table: SeatMap
    hub: InputHub
    hardware: HardwareInputs
    scores: Any
    saved_games: Any
    sounds: Sounds
    join_screen: Any
    results: Any
    seat_menus: Any
    builder: LazyBuild
    director: AttractDirector
    idle: IdleWatch

    def open_join(self, key: str, chooser: int | None) -> None: ...


class ReplayDoor(_Shown, Protocol):
    games: dict[str, GameSpec]
    table: SeatMap
    root: Any
    scores: Any
    saved_games: Any
    results: Any
    launcher: GameLauncher


class SeatHelpDoor(Protocol):
    mode: str
    cfg: Config
    sm: Any
    bot_iterations: int | None
    join_screen: Any
    sounds: Sounds
    session: GameSession | None
    launcher: GameLauncher
