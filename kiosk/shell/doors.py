"""The rooms' doors: what each room of the shell may use of the rest of the app, one :class:`typing.Protocol` per
room. A room's constructor takes its door (the router, :class:`kiosk.app.KioskApp`, passes itself), so mypy checks
both sides: the room uses nothing its door does not name, and the app provides everything each door names.

Only the router changes the table's mode and its shared parts: rooms ask it through :meth:`show`, :meth:`use_config`,
:meth:`use_stores`, :meth:`use_sounds` and :meth:`quit`. The game in progress is published by the launcher as its
Kivy property ``session`` and re-published by the router as ``app.session``: the one way the other rooms see it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.screenmanager import ScreenManager

    from kiosk.config import Config, LoadedConfig
    from kiosk.engine import GameSpec
    from kiosk.inputs import HardwareInputs, InputHub
    from kiosk.pin import PinGuard
    from kiosk.seats import SeatMap
    from kiosk.session import GameSession
    from kiosk.shell.attract import AttractDirector
    from kiosk.shell.attractscreen import AttractScreen
    from kiosk.shell.build import LazyBuild
    from kiosk.shell.desk import OperatorRoom
    from kiosk.shell.diagnostics import DiagnosticsScreen
    from kiosk.shell.eventroom import EventRoom
    from kiosk.shell.idle import IdleWatch
    from kiosk.shell.join import JoinScreen
    from kiosk.shell.launcher import GameLauncher
    from kiosk.shell.operator import OperatorScreen
    from kiosk.shell.overlay import Overlay
    from kiosk.shell.picker import PickerScreen
    from kiosk.shell.replays import ReplayRoom
    from kiosk.shell.results import ResultsScreen
    from kiosk.shell.seathelp import SeatHelp
    from kiosk.shell.seatmenu import SeatMenus
    from kiosk.shell.service import ServiceGlue
    from kiosk.sound import Sounds
    from kiosk.storage.journal import UnfinishedGame
    from kiosk.storage.stores import GameStore, ScoreStore

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
    sm: ScreenManager

    def show(self, screen: str, mode: str | None = None) -> None: ...

    def go_attract(self, *_a: object) -> None: ...


class AttractDoor(_Shown, Protocol):
    events: EventRoom
    replays: ReplayRoom
    seed: int
    bot_iterations: int | None
    games: dict[str, GameSpec]
    table: SeatMap
    root: FloatLayout
    attract_screen: AttractScreen
    scores: ScoreStore
    service: ServiceGlue
    builder: LazyBuild
    launcher: GameLauncher


class BuildDoor(Protocol):
    cfg: Config
    games: dict[str, GameSpec]
    table: SeatMap
    state_dir: Path
    root: FloatLayout
    sm: ScreenManager
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

    def go_attract(self, *_a: object) -> None: ...

    def use_stores(self, scores: ScoreStore, saved_games: GameStore, offers: list[UnfinishedGame]) -> None: ...

    def use_sounds(self, sounds: Sounds) -> None: ...


class DeskDoor(_Shown, Protocol):
    events: EventRoom
    games: dict[str, GameSpec]
    state_dir: Path
    config_path: Path | None
    loaded_config: LoadedConfig | None
    attract_screen: AttractScreen
    operator: OperatorScreen
    diagnostics: DiagnosticsScreen
    operator_marks: list[str]
    scores: ScoreStore
    saved_games: GameStore
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
    state_dir: Path


class GesturesDoor(Protocol):
    mode: str
    cfg: Config
    sm: ScreenManager
    table: SeatMap
    hub: InputHub
    attract_screen: AttractScreen
    picker: PickerScreen
    join_screen: JoinScreen
    results: ResultsScreen
    seat_menus: SeatMenus
    builder: LazyBuild
    desk: OperatorRoom
    replays: ReplayRoom

    def leave_attract(self, seat_index: int | None) -> None: ...


class IdleDoor(_Shown, Protocol):
    root: FloatLayout
    hub: InputHub
    overlay: Overlay
    seat_menus: SeatMenus
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
    scores: ScoreStore
    saved_games: GameStore
    sounds: Sounds
    join_screen: JoinScreen
    results: ResultsScreen
    seat_menus: SeatMenus
    builder: LazyBuild
    director: AttractDirector
    idle: IdleWatch

    def open_join(self, key: str, chooser: int | None) -> None: ...


class ReplayDoor(_Shown, Protocol):
    games: dict[str, GameSpec]
    table: SeatMap
    root: FloatLayout
    scores: ScoreStore
    saved_games: GameStore
    results: ResultsScreen
    launcher: GameLauncher


class SeatHelpDoor(Protocol):
    mode: str
    cfg: Config
    sm: ScreenManager
    bot_iterations: int | None
    join_screen: JoinScreen
    sounds: Sounds
    session: GameSession | None
    launcher: GameLauncher
