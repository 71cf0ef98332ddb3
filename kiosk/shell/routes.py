"""The router's routes and the narrow services it offers the rooms: the part of :class:`kiosk.app.KioskApp` that
moves the table between its modes, and the one-line methods through which a room asks for another room's work (a
room's door names these, never the other room: see :mod:`kiosk.shell.doors`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from kiosk.shell.build import GUEST_ROOMS

if TYPE_CHECKING:
    from kivy.uix.screenmanager import ScreenManager

    from kiosk.config import Config
    from kiosk.engine import Event, GameSpec
    from kiosk.i18n import Translator
    from kiosk.session import GameSession
    from kiosk.shell.attract import AttractDirector
    from kiosk.shell.build import LazyBuild
    from kiosk.shell.desk import OperatorRoom
    from kiosk.shell.doors import SeatHooks
    from kiosk.shell.eventroom import EventRoom
    from kiosk.shell.idle import IdleWatch
    from kiosk.shell.join import JoinScreen
    from kiosk.shell.launcher import GameLauncher, Seats
    from kiosk.shell.operator import OperatorDesk
    from kiosk.shell.picker import PickerScreen
    from kiosk.shell.replays import ReplayRoom
    from kiosk.shell.results import ResultsScreen
    from kiosk.shell.seathelp import SeatHelp
    from kiosk.shell.seatmenu import SeatMenus
    from kiosk.shell.service import ServiceGlue
    from kiosk.sound import Sounds
    from kiosk.storage.journal import UnfinishedGame

__all__ = ["Routes"]


class Routes:
    """Mixed into the app: its routes between the modes, and the rooms' services, each a method of one line."""

    mode: str
    cfg: Config
    sm: ScreenManager
    games: dict[str, GameSpec]
    sounds: Sounds
    builder: LazyBuild
    service: ServiceGlue
    director: AttractDirector
    launcher: GameLauncher
    replays: ReplayRoom
    idle: IdleWatch
    desk: OperatorRoom
    seat_help: SeatHelp
    events: EventRoom
    picker: PickerScreen
    join_screen: JoinScreen
    results: ResultsScreen
    seat_menus: SeatMenus

    # ---------------------------------------------------------------------------------------------- routes
    def go_attract(self, *_a: Any) -> None:
        """Back to attract mode (from anywhere): stop any game, start the cycle from the top."""
        self.launcher.end()
        self.idle.unprompt()
        if self.sm.has_screen("results"):
            self.results.cancel_timers()
        self.mode = "attract"
        self.desk.update_marks()
        self.director.begin()
        self.builder.forget(*GUEST_ROOMS)  # nobody opens them in attract mode: built again for the next guests

    def leave_attract(self, seat_index: int | None) -> None:
        """Any touch or seat button in attract mode: straight to the picker, facing that seat."""
        if self.mode == "attract":
            self.builder.ensure_ready()
            self.director.leave()
            self.open_picker(seat_index)

    def open_picker(self, seat_index: int | None = None) -> None:
        self.builder.ensure_ready(guests=True)
        self.launcher.end()
        self.mode = "menu"
        self.picker.face(seat_index if seat_index is not None else self.picker.chooser)
        self.sm.current = "picker"

    def open_join(self, key: str, chooser: int | None) -> None:
        self.mode = "menu"
        if self.builder.built("seat_menus"):
            self.seat_menus.close_all()
        self.join_screen.setup(self.games[key], chooser, self.cfg.bots.default_level, self.cfg.language)
        self.sm.current = "join"
        self.sounds.play("join")

    def start_game(self, key: str, seats: Seats, seed: int | None = None) -> None:
        """Start ``key`` with ``seats`` = [(table seat index, None for a human or a bot level)], clockwise,
        in the match length chosen on the joining screen (when it was set up for this game); ``seed``: the
        launcher draws one unless given."""
        self.builder.ensure_ready(guests=True)
        join = self.join_screen
        match = join.match_games if join.spec is self.games[key] and join.match_choices else None
        self.launcher.start(key, seats, match, seed)

    # ---------------------------------------------------------------------------------------------- the build
    def ensure_ready(self, guests: bool = False) -> None:
        self.builder.ensure_ready(guests)

    def is_built(self, name: str) -> bool:
        """Whether the app's room ``name`` (``seat_menus``, ``join_screen``...) is built yet."""
        return self.builder.built(name)

    def prepare(self, *names: str) -> None:
        self.builder.prepare(*names)

    @property
    def first_frame_at(self) -> float | None:
        """When the first frame was drawn (None before it)."""
        return self.service.first_frame_at

    # ---------------------------------------------------------------------------------------------- the games
    def stop_bots(self) -> None:
        """Stop attract mode's bots' game (a guests' game starts)."""
        self.director.stop_game()

    def stop_attract(self) -> None:
        self.director.stop()

    def answer_offer(self, accept: bool) -> None:
        self.director.answer_offer(accept)

    def resume_game(self, offer: UnfinishedGame) -> None:
        self.launcher.resume(offer)

    def on_game_change(self, session: GameSession, events: list[Event]) -> None:
        """A shown game's moves: its sounds (bound to a game's ``on_change``)."""
        self.launcher.on_change(session, events)

    def pause_game(self) -> None:
        self.launcher.pause()

    def resume_play(self) -> None:
        self.launcher.resume_play()

    def abandon_game(self, reason: str) -> None:
        self.launcher.abandon(reason)

    def end_game(self, reason: str = "ended") -> None:
        self.launcher.end_game(reason)

    def play_again(self) -> None:
        self.launcher.play_again()

    def unprompt(self) -> None:
        """Take down a "Still playing?" question, if one is up."""
        self.idle.unprompt()

    def answer_idle(self) -> None:
        """The "Still playing?" question's answer (a touch): play on."""
        self.idle.answer()

    def open_desk(self, facing: str) -> None:
        """A finger held in a corner: the PIN pad, facing that edge (``"bottom"``/``"top"``)."""
        self.desk.open(facing)

    @property
    def operator_desk(self) -> OperatorDesk:
        """What the operator menu may ask of the operator's room (that Protocol, not the room)."""
        return self.desk

    @property
    def seat_hooks(self) -> SeatHooks:
        """What the seats' menus may ask of the seats' help (that Protocol, not the room)."""
        return self.seat_help

    # ---------------------------------------------------------------------------------------------- replays
    def refresh_replays(self) -> None:
        self.replays.refresh()

    def has_best_replay(self, key: str) -> bool:
        return self.replays.has_best(key)

    def show_best_replay(self, key: str, done: Callable[..., None]) -> float | None:
        """Play ``key``'s best game again (its length in seconds; None: none to show)."""
        return self.replays.show_best(key, done)

    def stop_replay(self) -> None:
        self.replays.stop()

    def skip_replay(self) -> None:
        self.replays.skip()

    def can_watch(self, journal_id: str) -> bool:
        return self.replays.can_watch(journal_id)

    def watch_again(self, journal_id: str, languages: Mapping[int, str]) -> bool:
        return self.replays.watch_again(journal_id, languages)

    # ---------------------------------------------------------------------------------------------- the event
    def event_rows(self, key: str, tr: Translator | None = None) -> tuple[str, list[str]]:
        """The event's board for ``key`` (its title and rows, in ``tr``'s way; empty without an event)."""
        return self.events.board_rows(key, tr)

    def event_status(self) -> Mapping[str, object]:
        return self.events.status()

    def event_game_over(
        self, session: GameSession, key: str, players: list[dict[str, object]], lower_is_better: bool = False
    ) -> None:
        """A finished game's results, for the event's board."""
        self.events.game_over(session, key, players, lower_is_better)

    def restart_events(self) -> None:
        self.events.start()

    def ask_for_network(self) -> None:
        self.events.ask_for_network()
