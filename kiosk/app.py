"""The kiosk application: the router between the table's modes; the flows are :mod:`kiosk.shell`'s rooms.

Start it through :func:`kiosk.__main__.main` (which configures Kivy before importing this module). Modes:
**attract** (bots' games, boards, the call, resume offers), **menu** (picker, then joining), **game**,
**results** (places, initials, boards) and **operator** (a finger held in a corner, then the PIN).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.core.window import Window
from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout

from kiosk.config import Config, LoadedConfig
from kiosk.engine import GameSpec
from kiosk.inputs import HardwareInputs, InputHub, KeyboardInputs
from kiosk.pin import FILE_NAME as PIN_FILE
from kiosk.pin import PinGuard
from kiosk.seats import SeatMap
from kiosk.shell.attract import AttractDirector
from kiosk.shell.build import LazyBuild
from kiosk.shell.desk import OperatorRoom
from kiosk.shell.eventroom import EventRoom
from kiosk.shell.gestures import TableGestures
from kiosk.shell.idle import IdleWatch
from kiosk.shell.launcher import GameLauncher
from kiosk.shell.replays import ReplayRoom
from kiosk.shell.rooms import BuiltRooms
from kiosk.shell.routes import Routes
from kiosk.shell.screens import GameScreens
from kiosk.shell.seathelp import SeatHelp
from kiosk.shell.service import KioskHardening, ServiceGlue
from kiosk.sound import Sounds
from kiosk.storage import GameStore, ScoreStore, UnavailableHighScores, UnavailableSavedGames, UnfinishedGame

if TYPE_CHECKING:
    from kiosk.shell.marks import CornerMark

__all__ = ["KioskApp"]


class KioskApp(KioskHardening, BuiltRooms, Routes, App):
    """The table app. ``games`` defaults to :data:`kiosk.games.GAMES` (tests may pass their own)."""

    #: One unit of size: 1.0 on a 1080-pixel-high screen. kv rules scale fonts and pads with it.
    u = NumericProperty(1.0)
    mode = StringProperty("attract")
    #: The game in progress (published by the launcher; None between games): what the other rooms read.
    session = ObjectProperty(None, allownone=True)
    operator_marks = ListProperty([])  # what the operator's corner says (the desk's update_marks)
    title = "Sushi Table"
    corner_mark: CornerMark

    def __init__(
        self,
        cfg: Config,
        *,
        state_dir: Path | str,
        config_path: Path | str | None = None,
        games: Mapping[str, GameSpec] | None = None,
        hardware: str = "mock",
        kiosk_mode: bool = True,
        handle_signals: bool = True,
        seed: int | None = None,
        bot_iterations: int | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        if games is None:
            from kiosk.games import GAMES  # (the registry imports every game: only when the caller passes none)

            games = GAMES
        self.cfg = cfg
        self.state_dir = Path(state_dir)
        self.config_path = Path(config_path) if config_path else None
        self.games: dict[str, GameSpec] = dict(games)
        self.hardware_mode = hardware
        #: The seed every flow's own generator starts from (None: a new one each start).
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        #: A fixed search budget for every bot (None: their time limits): a UI test's bots depend on the seed alone.
        self.bot_iterations = bot_iterations
        self.table = SeatMap.from_config(cfg)
        self.hub = InputHub()
        self.sounds = Sounds(None, cfg.sound.volume, cfg.sound.muted)  # silent until the build loads them
        self.scores: ScoreStore = UnavailableHighScores("not opened yet")
        self.saved_games: GameStore = UnavailableSavedGames("not opened yet")
        self.builder = LazyBuild(self)
        self.service = ServiceGlue(self.stop, self.builder.start, kiosk_mode=kiosk_mode, handle_signals=handle_signals)
        #: Every game's screen, built when first shown: the launcher's, attract mode's, the replays' and seat help's
        self.game_screens = GameScreens(self.table, self.hub, lambda: self.sm, lambda: self.mode == "attract")
        self.director = AttractDirector(self)
        self.launcher, self.replays = GameLauncher(self), ReplayRoom(self)
        self.launcher.bind(session=self.setter("session"))
        self.idle, self.gestures = IdleWatch(self), TableGestures(self)
        self.desk = OperatorRoom(self)
        self.seat_help = SeatHelp(self)
        self.events = EventRoom(self)
        #: How the config was loaded (``kiosk.__main__``): its problems show in the menu and the attract corner.
        self.loaded_config: LoadedConfig | None = None
        #: Wrong-PIN delays, lockout and log (kept in the state folder).
        self.pin_guard = PinGuard(self.state_dir / PIN_FILE)

    # ---------------------------------------------------------------------------------------------- building
    def build(self) -> FloatLayout:
        """Only what the first attract frame needs (the call at every seat); the rest: :class:`LazyBuild`."""
        root, self.sm = self.builder.first_frame()
        self.corner_mark = self.desk.corner_mark_on(self.attract_screen)
        Window.bind(size=lambda _w, size: setattr(self, "u", min(size) / 1080.0))
        self.u = min(Window.size) / 1080.0
        return root

    # ---------------------------------------------------------------------------------------------- the rooms' doors
    def show(self, screen: str, mode: str | None = None) -> None:
        """The rooms' one way to change what the table shows (and, with ``mode``, the table's mode)."""
        if mode is not None:
            self.mode = mode
        self.sm.current = screen

    def use_config(self, cfg: Config, loaded: LoadedConfig | None = None) -> None:
        self.cfg, self.loaded_config = cfg, loaded if loaded is not None else self.loaded_config

    def use_stores(self, scores: ScoreStore, saved_games: GameStore, offers: list[UnfinishedGame]) -> None:
        """The stores opened (:class:`LazyBuild`): the boards and journals, and the resume offers to make."""
        self.scores, self.saved_games, self.director.offers = scores, saved_games, offers
        self.director.offer_if_any()

    def use_sounds(self, sounds: Sounds) -> None:
        self.sounds = sounds

    def show_marks(self, marks: list[str]) -> None:
        """What the operator's corner says (the desk's ``update_marks``)."""
        self.operator_marks = marks

    def quit(self, reason: str) -> None:
        self.service.stop_reason = reason
        self.stop()

    # ---------------------------------------------------------------------------------------------- running
    def on_start(self) -> None:
        self.service.start(follow=self)
        self.gestures.start()
        self.keyboard = KeyboardInputs(self.hub, self.table, Window)
        port, sticks = self.cfg.serial.port, self.cfg.serial.sticks
        self.hardware = HardwareInputs(self.hub, self.table, mode=self.hardware_mode, serial_port=port, sticks=sticks)
        self.hardware.start()
        self.events.start()
        self.events.ask_for_network(at_start=True)
        self.idle.start()
        self.go_attract()

    def on_stop(self) -> None:
        for room in (self.service, self.gestures, self.idle, self.director):
            room.stop()
        self.launcher.close()
        for part in (self.hardware, self.events):
            part.stop()
        for store in (self.keyboard, self.scores, self.saved_games):
            store.close()
