"""The lazy build: the first attract frame needs only the call at every seat; everything else is built one piece
per frame right after it, or at once by :meth:`LazyBuild.ensure_ready` when a player arrives first. This keeps
start-up within twice a bare Kivy app's (``benchmarks/bench_ui.py``).

The steps, in order: the shell's other kv files, storage (high scores, saved games, resume offers; opened in a
thread, see :meth:`LazyBuild._games`), the sound effects, the picker and the "Still playing?" overlay: what a
guest's first touch needs at once. Built the first time they are used (:func:`on_demand`: the app's attribute is
built by its step when first read): the results screen (prepared during a game), the operator menu and the hardware
diagnostics (staff only); about 15 MB of resident memory in attract mode for rooms most passers-by never open. The
joining screen and the seats' menus (:data:`GUEST_ROOMS`: six join pads, about 200 labels, and the menus' layer;
each seat's menu is built when that seat first opens it) are built the frame after a guest's first touch
(:meth:`LazyBuild.ensure_ready` with ``guests``, while the picker shows) and let go when the table goes back to
attract mode (:meth:`LazyBuild.forget`), where nobody opens them. A game's screen
is built when it is first shown (:class:`kiosk.shell.screens.GameScreens`: building all four at start cost about
100 MB of resident memory for screens nobody was looking at).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from kivy.clock import Clock
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import NoTransition, ScreenManager

from kiosk.engine import trial_board
from kiosk.shell.attractscreen import AttractScreen
from kiosk.shell.factories import RoomFactories
from kiosk.sound import Sounds
from kiosk.ui import FIRST_FRAME, load_layouts, pictures

if TYPE_CHECKING:
    from kivy.uix.widget import Widget

    from kiosk.shell.doors import BuildDoor
    from kiosk.storage.opener import OpenedStorage

log = logging.getLogger("kiosk.shell.build")

__all__ = ["LazyBuild", "GUEST_ROOMS"]

#: Built the frame after a guest's first touch (:meth:`LazyBuild.ensure_ready` with ``guests``), let go when the
#: table goes back to attract mode, where nobody opens them (:meth:`LazyBuild.forget`).
R = TypeVar("R")
GUEST_ROOMS = ("join_screen", "seat_menus")


class LazyBuild(RoomFactories):
    """Builds the app's screens onto ``app`` (``picker``, ``join_screen``, ``overlay``), one step per frame after
    :meth:`start`; ``results``, ``operator``, ``diagnostics`` and ``seat_menus`` when first used (:func:`on_demand`).
    """

    def __init__(self, app: BuildDoor) -> None:
        self.app = app
        #: the rooms built so far, by the app's attribute name (read through :func:`on_demand`)
        self.rooms: dict[str, Widget] = {}
        self._storage_thread: threading.Thread | None = None
        self._opened: OpenedStorage | None = None
        self.steps: list[Callable[[], object]] = [
            self._layouts,
            self._games,
            self._sounds,
            lambda: self.room("picker", LazyBuild.picker),
            lambda: self.room("overlay", LazyBuild.overlay),
        ]

    @property
    def ready(self) -> bool:
        return not self.steps

    def start(self) -> None:
        """Build the rest one step per frame, from the next frame on."""
        Clock.schedule_once(self._step, 0)

    def built(self, name: str) -> bool:
        """Whether the app's room ``name`` (``seat_menus``, ``results``...) has been built yet."""
        return name in self.rooms

    def room(self, name: str, factory: Callable[[LazyBuild], R]) -> R:
        """The room ``name``, built by ``factory`` (one of this class's room methods) the first time."""
        if name not in self.rooms:
            from kiosk.ui import load_layouts  # (Kivy's kv parser: off the import of the app's start)

            load_layouts()  # (read before the lazy build's first step: its looks first)
            self.rooms[name] = factory(self)
        return cast(R, self.rooms[name])  # what ``factory`` built under ``name``

    def prepare(self, *names: str) -> None:
        """Build the on-demand rooms ``names`` (the app's attributes) now, ahead of their first use."""
        for name in names:
            getattr(self.app, name)

    def ensure_ready(self, guests: bool = False) -> None:
        """Build whatever is not built yet, now (a player touched before the table finished starting); with
        ``guests`` (someone is at the table) the seats' menus too, on the next frame (see the module docstring)."""
        while self.steps:
            self.steps.pop(0)()
        self.wait_for_storage()
        if guests:
            Clock.schedule_once(lambda _dt: self.prepare(*GUEST_ROOMS), 0)

    def forget(self, *names: str) -> None:
        """Let the built rooms ``names`` go (off the screen, out of the app); each is built again when next used."""
        for name in names:
            self._forget(name)

    def _forget(self, name: str) -> None:
        room = self.rooms.pop(name, None)
        if room is not None and getattr(room, "manager", None) is not None:  # a screen: out of the manager
            room.manager.remove_widget(room)
        elif room is not None and room.parent is not None:
            room.parent.remove_widget(room)

    def _step(self, _dt: float = 0) -> None:
        if self.steps:
            self.steps.pop(0)()
            Clock.schedule_once(self._step, 0)
        else:
            first = self.app.first_frame_at or time.monotonic()
            log.info("kiosk fully built %.2f s after the first frame", time.monotonic() - first)

    def first_frame(self) -> Any:
        """The app's root with only what the first attract frame needs (the call at every seat); the rest of the
        build follows one step per frame (:meth:`start`)."""
        # (Kivy's window opens on its first import: not when tools import this module)
        from kivy.core.window import Window

        from kiosk.games import categories_of, pictures_of  # (every game's look: when the table starts, not tools)
        from kiosk.ui import pieces  # (the pieces' kv: loaded with the first frame, not when tools import this)

        app = self.app
        pictures.use_pictures(pictures_of(app.games))  # the kit knows no game: the build hands it their looks
        pieces.use_categories(categories_of(app.games))
        load_layouts(FIRST_FRAME)
        Window.clearcolor = (0.06, 0.08, 0.12, 1)  # the table's background (cheaper than a drawn rectangle)
        root = FloatLayout()
        sm = ScreenManager(transition=NoTransition())
        screen = AttractScreen(name="attract", table=app.table, text=app.cfg.attract.text)
        screen.games_line = "  ".join(spec.title for spec in app.games.values())
        screen.bind(on_offer=lambda _screen, accept: app.answer_offer(accept))
        sm.add_widget(screen)
        root.add_widget(sm)  # the overlay joins the root only while it asks (hidden widgets cost a draw)
        self.rooms["attract_screen"] = screen
        return root, sm

    # ----------------------------------------------------------------------------------------------- steps
    def _layouts(self) -> None:
        """The shell's kv files the first frame did not need (:data:`kiosk.ui.FIRST_FRAME`)."""

        load_layouts()

    def _games(self) -> None:
        """High scores and saved games (each falls back to its unavailable stand-in), and the resume offers:
        opened in a thread (a large scores file or a long journal never holds the UI), taken by the app on the
        next frame after they are ready (:meth:`storage_opened`). Until then the boards say "not opened yet"."""
        from kiosk.storage.opener import open_in_background  # (the storage step's: off the first frame)

        app = self.app
        lower = {k: s.lower_is_better for k, s in app.games.items()}
        lower.update({trial_board(k): True for k in app.games})  # time trials: the fastest first
        self._storage_thread = open_in_background(
            app.state_dir, lower_is_better=lower, specs=app.games, done=self._storage_ready
        )

    def _storage_ready(self, opened: OpenedStorage) -> None:  # in the storage thread
        self._opened = opened
        Clock.schedule_once(lambda _dt: self.storage_opened(), 0)

    def storage_opened(self) -> None:
        """Hand the opened stores to the app (once) and show a resume offer."""
        opened, self._opened = self._opened, None
        if opened is None:
            return
        self.app.use_stores(opened.scores, opened.saved_games, list(opened.offers))

    def wait_for_storage(self, timeout: float | None = None) -> None:
        """Block until the stores are open (only :meth:`ensure_ready`: a player arrived before the start-up
        finished; the normal start never waits)."""
        if self._storage_thread is not None:
            self._storage_thread.join(timeout)
            self.storage_opened()

    def _sounds(self) -> None:
        cfg = self.app.cfg.sound
        self.app.use_sounds(Sounds(self.app.state_dir / "sounds", cfg.volume, cfg.muted))
