"""The rooms' doors: what each room of the shell may use of the rest of the app, one :class:`typing.Protocol` per
room. A room's constructor takes its door (the router, :class:`kiosk.app.KioskApp`, passes itself), so mypy checks
both sides: the room uses nothing its door does not name, and the app provides everything each door names.

A door names only what its room uses, and never another room (``tests/test_house.py`` checks): where a room needs
another room's work, the router offers a narrow method (:class:`kiosk.shell.routes.Routes`, e.g. ``stop_bots``).
Only the router changes the table's mode and shared parts (rooms ask: ``show``, ``use_config``, ``use_stores``,
``use_sounds``, ``quit``); the launcher's ``session`` (re-published as ``app.session``) is the game in progress.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.screenmanager import ScreenManager

    from kiosk.config import Config, LoadedConfig
    from kiosk.engine import Event, GameSpec
    from kiosk.i18n import Translator
    from kiosk.inputs import HardwareInputs, InputHub
    from kiosk.pin import PinGuard
    from kiosk.seats import SeatMap
    from kiosk.session import GameSession
    from kiosk.shell.attractscreen import AttractScreen
    from kiosk.shell.diagnostics import DiagnosticsScreen
    from kiosk.shell.join import JoinScreen
    from kiosk.shell.launcher import Seats
    from kiosk.shell.operator import OperatorDesk, OperatorScreen
    from kiosk.shell.overlay import Overlay
    from kiosk.shell.picker import PickerScreen
    from kiosk.shell.results import ResultsScreen
    from kiosk.shell.screens import GameScreens
    from kiosk.shell.seatmenu import SeatMenus
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
    "SeatHooks",
]


class SeatHooks(Protocol):
    """What the seats' menus ask of the seats' help (:class:`kiosk.shell.seathelp.SeatHelp`), seat by seat."""

    def menu_offered(self, table_index: int) -> tuple[GameSpec, bool] | None: ...
    def leave_question(self, table_index: int) -> str: ...
    def leave_seat(self, table_index: int) -> str: ...
    def hints_at(self, table_index: int) -> bool | None: ...
    def switch_hints(self, table_index: int) -> bool: ...
    def language_at(self, table_index: int) -> str: ...


class AttractDoor(Protocol):
    mode: str
    cfg: Config
    seed: int
    bot_iterations: int | None
    games: dict[str, GameSpec]
    table: SeatMap
    root: FloatLayout
    attract_screen: AttractScreen
    scores: ScoreStore
    game_screens: GameScreens

    @property
    def first_frame_at(self) -> float | None: ...
    def ensure_ready(self, guests: bool = False) -> None: ...
    def event_rows(self, key: str, tr: Translator | None = None) -> tuple[str, list[str]]: ...
    def on_game_change(self, session: GameSession, events: list[Event]) -> None: ...
    def resume_game(self, offer: UnfinishedGame) -> None: ...
    def refresh_replays(self) -> None: ...
    def has_best_replay(self, key: str) -> bool: ...
    def show_best_replay(self, key: str, done: Callable[..., None]) -> float | None: ...
    def stop_replay(self) -> None: ...
    def show(self, screen: str, mode: str | None = None) -> None: ...
    def go_attract(self, *_a: object) -> None: ...


class BuildDoor(Protocol):
    cfg: Config
    games: dict[str, GameSpec]
    table: SeatMap
    state_dir: Path
    root: FloatLayout
    sm: ScreenManager
    hardware: HardwareInputs

    @property
    def first_frame_at(self) -> float | None: ...
    @property
    def operator_desk(self) -> OperatorDesk: ...
    @property
    def seat_hooks(self) -> SeatHooks: ...
    def go_attract(self, *_a: object) -> None: ...
    def open_picker(self, seat_index: int | None = None) -> None: ...
    def open_join(self, key: str, chooser: int | None) -> None: ...
    def start_game(self, key: str, seats: Seats, seed: int | None = None) -> None: ...
    def answer_offer(self, accept: bool) -> None: ...
    def answer_idle(self) -> None: ...
    def play_again(self) -> None: ...
    def can_watch(self, journal_id: str) -> bool: ...
    def watch_again(self, journal_id: str, languages: Mapping[int, str]) -> bool: ...
    def event_game_over(
        self, session: GameSession, key: str, players: list[dict[str, object]], lower_is_better: bool = False
    ) -> None: ...
    def use_stores(self, scores: ScoreStore, saved_games: GameStore, offers: list[UnfinishedGame]) -> None: ...
    def use_sounds(self, sounds: Sounds) -> None: ...


class DeskDoor(Protocol):
    mode: str
    cfg: Config
    sm: ScreenManager
    games: dict[str, GameSpec]
    state_dir: Path
    config_path: Path | None
    loaded_config: LoadedConfig | None
    attract_screen: AttractScreen
    operator: OperatorScreen
    diagnostics: DiagnosticsScreen
    scores: ScoreStore
    saved_games: GameStore
    sounds: Sounds
    hub: InputHub
    hardware: HardwareInputs
    pin_guard: PinGuard
    session: GameSession | None

    def use_config(self, cfg: Config, loaded: LoadedConfig | None = None) -> None: ...
    def quit(self, reason: str) -> None: ...
    def show_marks(self, marks: list[str]) -> None: ...
    def ensure_ready(self, guests: bool = False) -> None: ...
    def pause_game(self) -> None: ...
    def resume_play(self) -> None: ...
    def abandon_game(self, reason: str) -> None: ...
    def stop_attract(self) -> None: ...
    def unprompt(self) -> None: ...
    def event_status(self) -> Mapping[str, object]: ...
    def restart_events(self) -> None: ...
    def ask_for_network(self) -> None: ...
    def show(self, screen: str, mode: str | None = None) -> None: ...
    def go_attract(self, *_a: object) -> None: ...


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

    def leave_attract(self, seat_index: int | None) -> None: ...
    def is_built(self, name: str) -> bool: ...
    def open_desk(self, facing: str) -> None: ...
    def skip_replay(self) -> None: ...


class IdleDoor(Protocol):
    mode: str
    cfg: Config
    sm: ScreenManager
    root: FloatLayout
    hub: InputHub
    overlay: Overlay
    seat_menus: SeatMenus
    sounds: Sounds
    session: GameSession | None

    def is_built(self, name: str) -> bool: ...
    def pause_game(self) -> None: ...
    def resume_play(self) -> None: ...
    def abandon_game(self, reason: str) -> None: ...
    def go_attract(self, *_a: object) -> None: ...


class LauncherDoor(Protocol):
    mode: str
    cfg: Config
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
    game_screens: GameScreens

    def open_join(self, key: str, chooser: int | None) -> None: ...
    def is_built(self, name: str) -> bool: ...
    def ensure_ready(self, guests: bool = False) -> None: ...
    def prepare(self, *names: str) -> None: ...
    def stop_bots(self) -> None: ...
    def unprompt(self) -> None: ...
    def show(self, screen: str, mode: str | None = None) -> None: ...
    def go_attract(self, *_a: object) -> None: ...


class ReplayDoor(Protocol):
    cfg: Config
    games: dict[str, GameSpec]
    table: SeatMap
    root: FloatLayout
    scores: ScoreStore
    saved_games: GameStore
    results: ResultsScreen
    game_screens: GameScreens

    def show(self, screen: str, mode: str | None = None) -> None: ...


class SeatHelpDoor(Protocol):
    mode: str
    cfg: Config
    sm: ScreenManager
    bot_iterations: int | None
    join_screen: JoinScreen
    sounds: Sounds
    session: GameSession | None
    game_screens: GameScreens

    def end_game(self, reason: str = "ended") -> None: ...
