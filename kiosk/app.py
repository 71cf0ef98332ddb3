"""The kiosk application: screens, navigation, attract cycle, idle handling, operator gesture, hardening.

Start it through :func:`kiosk.__main__.main` (which configures Kivy before importing this module). The flows:

* **attract** (``mode == "attract"``): bots play real games of every registered title at a watchable pace,
  then that game's high-score boards, then the "touch to play" call, cycling. Any touch (anywhere) or seat
  button/stick leaves for the picker on the next frame, facing the seat nearest the touch. At start, games
  interrupted by a crash are offered first ("Resume the Makoto game from 14:05?").
* **menu**: the game picker, then seat joining. No touch for ``timeouts.menu_idle_s`` returns to attract.
* **game**: the game's screen (its own, or the generic one) with a :class:`~kiosk.ui.session.GameSession`.
  ``timeouts.idle_s`` without human input: "Still playing?" at every seat and every private tray closes;
  ``timeouts.still_playing_s`` later the game is saved (journal closed as abandoned) and attract returns.
* **results**: places, initials entry, boards; then attract (or "Play again" to the joining screen).
* **operator**: a finger held ``operator.hold_s`` in any corner (from any mode), then the PIN.

Hardening (kiosk mode): Escape does nothing (``exit_on_escape = 0`` plus a keyboard handler), F1 opens no
settings (``open_settings`` is disabled), the inspector and keybinding modules are never loaded, and a window
close request is refused only when it comes from the keyboard (Alt+F4): SDL turns SIGTERM into a close request
without a source, which must still stop the app. SIGINT (Ctrl+C) and SIGTERM are also caught in Python and stop
the app cleanly (the game in progress keeps its journal, to be offered on the next start). A callback that
raises is logged and the table goes on (``ExceptionManager``) instead of the kiosk dying.

systemd: ``READY=1`` after the first frame is drawn, ``WATCHDOG=1`` from a Clock interval on the UI thread (a
frozen UI stops the pings and systemd restarts the kiosk), ``STOPPING=1`` on the way out.
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import signal
import socket
import time
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.base import ExceptionHandler, ExceptionManager
from kivy.clock import Clock
from kivy.config import ConfigParser
from kivy.core.window import Window
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import NoTransition, ScreenManager

from kiosk import config as kconfig
from kiosk.config import Config
from kiosk.engine import GameSpec
from kiosk.inputs import HardwareInputs, InputHub, KeyboardInputs, SeatEvent
from kiosk.seats import Rect, SeatMap
from kiosk.sound import Sounds

log = logging.getLogger("kiosk.app")

__all__ = ["KioskApp", "sd_notify"]


# ------------------------------------------------------------------------------------------------ systemd
def sd_notify(message: str) -> bool:
    """Send one sd_notify datagram to ``$NOTIFY_SOCKET`` (systemd's Type=notify); False when not under systemd."""
    addr = os.environ.get("NOTIFY_SOCKET")
    if not addr:
        return False
    if addr.startswith("@"):
        addr = "\0" + addr[1:]  # abstract namespace
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(addr)
            sock.sendall(message.encode())
        return True
    except OSError as exc:
        log.warning("sd_notify(%s) failed: %s", message, exc)
        return False


class _KeepRunning(ExceptionHandler):
    """Log an exception raised in a callback and keep the table running (kiosk mode)."""

    def handle_exception(self, inst: BaseException) -> int:
        if isinstance(inst, (KeyboardInterrupt, SystemExit)):
            return ExceptionManager.RAISE
        log.exception("error in a UI callback (the kiosk keeps running)", exc_info=inst)
        return ExceptionManager.PASS


class KioskApp(App):
    """The table app. ``games`` defaults to :data:`kiosk.games.GAMES` (tests may pass their own)."""

    #: One unit of size: 1.0 on a 1080-pixel-high screen. kv rules scale fonts and pads with it.
    u = NumericProperty(1.0)
    mode = StringProperty("attract")
    title = "Sushi Table"

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
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.cfg = cfg
        self.state_dir = Path(state_dir)
        self.config_path = Path(config_path) if config_path else None
        self._games_override = games
        self.hardware_mode = hardware
        self.kiosk_mode = kiosk_mode
        self.handle_signals = handle_signals
        self.rng = random.Random(seed)
        self.games: dict[str, GameSpec] = {}
        self.scores: Any = None
        self.saved_games: Any = None
        self.offers: list[Any] = []
        self.session: Any = None
        self.game_screens: dict[str, Any] = {}
        self.stop_reason = ""
        self.quit_requested = False
        self.first_frame_at: float | None = None
        self.timings: dict[str, float] = {}
        self._attract_ev: Any = None
        self._attract_step = 0
        self._attract_session: Any = None
        self._corner_touches: dict[int, Any] = {}
        self._before_operator: tuple[str, str] | None = None
        self._watchdog_ev: Any = None
        self._idle_ev: Any = None
        self._prompting = False
        self._last_join: tuple[str, list[tuple[int, str | None]]] | None = None
        self._old_signals: dict[int, Any] = {}
        self._broken_screens: set[str] = set()
        self._steps: list[Any] = []
        self.diagnostics: Any = None
        #: How the config was loaded (``kiosk.config.LoadedConfig``; set by ``kiosk.__main__``): its problems
        #: are shown in the operator menu and marked in a corner of the attract screen.
        self.loaded_config: Any = None
        from kiosk.pin import FILE_NAME, PinGuard

        #: Wrong-PIN delays, lockout and log (kept in the state folder).
        self.pin_guard = PinGuard(self.state_dir / FILE_NAME)

    # ============================================================================================ building
    def load_config(self) -> ConfigParser:
        """No per-app .ini file: all settings live in the kiosk's own config file."""
        self.config = ConfigParser()
        return self.config

    def open_settings(self, *args: Any) -> bool:
        """F1 (Kivy's settings panel) is disabled in the kiosk."""
        return False

    def build(self) -> FloatLayout:
        """Build only what the first attract frame needs (the call at every seat); everything else is built
        one piece per frame right after it (:meth:`_build_step`), or at once by :meth:`ensure_ready` when a
        player arrives first. This keeps start-up within twice a bare Kivy app's (benchmarks/bench_ui.py)."""
        from kiosk.ui import load_layouts
        from kiosk.ui.attract import AttractScreen
        from kiosk.ui.howto import KNOWN

        load_layouts()  # every kv file once (a module that loads its own checks Builder.files as we do)
        Window.clearcolor = (0.06, 0.08, 0.12, 1)  # the table's background (cheaper than a drawn rectangle)
        self.table = SeatMap.from_config(self.cfg)
        self.hub = InputHub()
        self.hub.bind(on_seat_event=self._on_seat_event)
        self.sounds = Sounds(None, self.cfg.sound.volume, self.cfg.sound.muted)  # silent until built
        root = FloatLayout()
        self.sm = ScreenManager(transition=NoTransition())
        self.attract_screen = AttractScreen(name="attract", table=self.table, text=self.cfg.attract.text)
        self.attract_screen.games_line = "  ".join(title for title, _lo, _hi in KNOWN.values())
        self.attract_screen.bind(on_offer=self._on_offer_answer)
        from kiosk.ui.marks import CornerMark

        self.corner_mark = CornerMark()
        self.attract_screen.add_widget(self.corner_mark)
        self.update_marks()
        self.sm.add_widget(self.attract_screen)
        root.add_widget(self.sm)  # the overlay joins the root only while it asks (hidden widgets cost a draw)
        Window.bind(size=self._on_window_size)
        self._on_window_size(Window, Window.size)
        self._steps = [
            self._step_games,
            self._step_sounds,
            self._step_picker,
            self._step_join,
            self._step_results,
            self._step_operator,
            self._step_overlay,
            self._step_diagnostics,
            self._step_game_screens,
        ]
        return root

    # ---------------------------------------------------------------------------------------- lazy building
    @property
    def ready(self) -> bool:
        return not self._steps

    def ensure_ready(self) -> None:
        """Build whatever is not built yet, now (a player touched before the table finished starting)."""
        while self._steps:
            self._steps.pop(0)()
        self.wait_for_storage()

    def _build_step(self, _dt: float = 0) -> None:
        if self._steps:
            self._steps.pop(0)()
            Clock.schedule_once(self._build_step, 0)
        else:
            log.info(
                "kiosk fully built %.2f s after the first frame",
                time.monotonic() - (self.first_frame_at or time.monotonic()),
            )

    def _step_games(self) -> None:
        if self._games_override is not None:
            self.games = dict(self._games_override)
        else:
            from kiosk.games import GAMES

            self.games = dict(GAMES)
        if self.games:
            self.attract_screen.games_line = "  ".join(spec.title for spec in self.games.values())
        self._open_storage()

    def _step_sounds(self) -> None:
        self.sounds = Sounds(self.state_dir / "sounds", self.cfg.sound.volume, self.cfg.sound.muted)

    def _step_picker(self) -> None:
        from kiosk.games import ORDER
        from kiosk.ui.picker import PickerScreen

        self.picker = PickerScreen(name="picker", table=self.table, on_pick=self.open_join, on_back=self.go_attract)
        self.picker.set_games(self.games, ORDER)
        self.sm.add_widget(self.picker)

    def _step_join(self) -> None:
        from kiosk.ui.join import JoinScreen

        self.join_screen = JoinScreen(name="join", table=self.table, on_start=self.start_game, on_back=self.open_picker)
        self.sm.add_widget(self.join_screen)

    def _step_results(self) -> None:
        from kiosk.ui.results import ResultsScreen

        self.results = ResultsScreen(
            name="results", table=self.table, on_done=self.go_attract, on_again=self._play_again
        )
        self.sm.add_widget(self.results)

    def _step_operator(self) -> None:
        from kiosk.ui.operator import OperatorScreen

        self.operator = OperatorScreen(name="operator", table=self.table, app=self)
        self.sm.add_widget(self.operator)

    def _step_overlay(self) -> None:
        from kiosk.ui.overlay import Overlay

        self.overlay = Overlay(table=self.table, on_answer=self._answer_prompt)

    def _step_diagnostics(self) -> None:
        cls = self._diagnostics_class()
        if cls is None:
            return
        try:
            status = getattr(getattr(self, "hardware", None), "status", None)
            self.diagnostics = cls(name="diagnostics")
            self.diagnostics.status = status  # after construction: the screen's rows exist by then
            self.sm.add_widget(self.diagnostics)
        except Exception as exc:
            log.warning("diagnostics screen unavailable: %s", exc)
            self.diagnostics = None

    def _step_game_screens(self) -> None:
        for key in self.games:
            try:
                self._game_screen(key)
            except Exception as exc:  # a broken game screen must not stop the table: the generic one plays it
                log.exception("the %s screen failed (%s): using the generic screen", key, exc)
                self._broken_screens.add(key)
                self._game_screen(key)

    def _diagnostics_class(self) -> Any:
        try:
            from kiosk.ui.diagnostics import DiagnosticsScreen  # written by the hardware engineer

            return DiagnosticsScreen
        except ImportError:
            return None
        except Exception as exc:
            log.warning("kiosk.ui.diagnostics failed to import: %s", exc)
            return None

    def _open_storage(self) -> None:
        """Open the scores file and the journals in a thread (a large file never holds the UI); the boards, the
        journal factory and the resume offer appear when it is done (:meth:`_storage_opened`)."""
        try:
            from kiosk.storage.opener import open_in_background
        except ImportError as exc:
            log.warning("storage unavailable (%s): boards shown as unavailable, no resume", exc)
            self.scores = None
            return
        from kiosk.ui.results import trial_board

        lower = {k: s.lower_is_better for k, s in self.games.items()}
        lower.update({trial_board(k): True for k in self.games})  # time trials: the fastest first
        self._storage_thread = open_in_background(
            self.state_dir, lower_is_better=lower, specs=self.games, done=self._storage_ready
        )

    def _storage_ready(self, opened: Any) -> None:  # in the storage thread
        self._opened = opened
        Clock.schedule_once(lambda _dt: self._storage_opened(), 0)

    def _storage_opened(self) -> None:
        opened, self._opened = getattr(self, "_opened", None), None
        if opened is None:  # already taken by wait_for_storage
            return
        self.scores, self.saved_games, self.offers = opened.scores, opened.saved_games, list(opened.offers)
        if self.offers and self.mode == "attract":
            self._stop_attract_session()
            self._show_offer()

    def wait_for_storage(self, timeout: float | None = None) -> None:
        """Block until the stores are open. Only :meth:`ensure_ready` calls it (a player arrived before the
        start-up finished); the normal start never waits."""
        thread = getattr(self, "_storage_thread", None)
        if thread is not None:
            thread.join(timeout)
            self._storage_opened()

    # ---------------------------------------------------------------------------------------------- health
    def update_marks(self) -> None:
        """The attract screen's corner mark: no operator PIN, settings problems (see ``kiosk.health``)."""
        from kiosk.health import Health

        problems = tuple(self.loaded_config.problems) if self.loaded_config is not None else ()
        self.corner_mark.show(Health(pin_set=self.cfg.operator.pin_set, config_problems=problems).marks())

    def health(self) -> Any:
        """The health snapshot the operator menu shows (``kiosk.health.Health``)."""
        from kiosk import health

        journal = getattr(self.session, "journal", None) if self.session is not None else None
        return health.collect(
            state_dir=self.state_dir,
            scores=self.scores,
            saved_games=self.saved_games,
            journal=journal,
            loaded_config=self.loaded_config,
            pin_guard=self.pin_guard,
            pin_set=self.cfg.operator.pin_set,
            hardware=self.hardware_summary().splitlines(),
        )

    def _game_screen(self, key: str) -> Any:
        """The screen for a game: its own (``kiosk/games/<key>/screen.py``) or the shared generic one."""
        from kiosk.ui.game import GenericGameScreen, screen_class_for

        cls = GenericGameScreen if key in self._broken_screens else screen_class_for(key)
        name = "game:generic" if cls is GenericGameScreen else f"game:{key}"
        if name not in self.game_screens:
            screen = cls(name=name, table=self.table, hub=self.hub)
            self.game_screens[name] = screen
            self.sm.add_widget(screen)
        self.game_screens[key] = self.game_screens[name]
        return self.game_screens[name]

    def _on_window_size(self, _w: Any, size: tuple[int, int]) -> None:
        self.u = min(size) / 1080.0

    # ============================================================================================ running
    def on_start(self) -> None:
        if self.kiosk_mode:
            ExceptionManager.add_handler(_KeepRunning())
        Window.bind(
            on_touch_down=self._win_touch_down,
            on_touch_move=self._win_touch_move,
            on_touch_up=self._win_touch_up,
            on_request_close=self._on_request_close,
            on_keyboard=self._on_keyboard,
            on_flip=self._on_first_flip,
        )
        self.keyboard = KeyboardInputs(self.hub, self.table, Window)
        self.hardware = HardwareInputs(
            self.hub,
            self.table,
            mode=self.hardware_mode,
            serial_port=self.cfg.serial.port,
            sticks=self.cfg.serial.sticks,
        )
        self.hardware.start()
        if self.handle_signals:
            self._install_signals()
        self._idle_ev = Clock.schedule_interval(self._idle_tick, 0.25)

        watchdog_usec = os.environ.get("WATCHDOG_USEC")
        if watchdog_usec and watchdog_usec.isdigit():
            interval = max(0.5, int(watchdog_usec) / 1e6 / 3)
            self._watchdog_ev = Clock.schedule_interval(self._watchdog, interval)
        self.go_attract()

    def _on_first_flip(self, *_a: Any) -> None:
        # stays bound (unbinding inside the dispatch would make Kivy skip the next on_flip handler)
        if self.first_frame_at is not None:
            return
        self.first_frame_at = time.monotonic()
        sd_notify("READY=1\nSTATUS=attract mode")
        log.info("first frame drawn: kiosk ready")
        Clock.schedule_once(self._build_step, 0)

    def _watchdog(self, _dt: float) -> None:
        sd_notify("WATCHDOG=1")

    def _install_signals(self) -> None:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(ValueError):  # not the main thread
                self._old_signals[sig] = signal.signal(sig, self._on_signal)

    def _on_signal(self, signum: int, _frame: Any) -> None:
        self.stop_reason = signal.Signals(signum).name
        Clock.schedule_once(lambda _dt: self.stop(), 0)

    def on_stop(self) -> None:
        sd_notify("STOPPING=1")
        for ev in (self._attract_ev, self._watchdog_ev, self._idle_ev):
            if ev is not None:
                ev.cancel()
        self._stop_attract_session()
        if self.session is not None:
            self.session.close()  # unfinished: offered for resuming at the next start
        for name in ("hardware", "keyboard"):
            part = getattr(self, name, None)
            if part is not None:
                try:
                    part.stop() if name == "hardware" else part.close()
                except Exception as exc:
                    log.warning("stopping %s: %s", name, exc)
        for store in (self.scores, self.saved_games):
            if store is not None:
                try:
                    store.close()
                except Exception as exc:
                    log.warning("closing storage: %s", exc)
        for sig, old in self._old_signals.items():
            with contextlib.suppress(ValueError, TypeError):
                signal.signal(sig, old)
        self._old_signals.clear()

    # ============================================================================================ hardening
    def _on_request_close(self, _window: Any, *args: Any, source: str | None = None, **_kw: Any) -> bool:
        """Refuse Alt+F4 and friends in kiosk mode; let everything else (SIGTERM via SDL) close the app."""
        if self.kiosk_mode and source == "keyboard":
            log.info("close request from the keyboard refused (kiosk mode)")
            return True
        self.stop_reason = self.stop_reason or f"close request ({source or 'system'})"
        return False

    def _on_keyboard(self, _window: Any, key: int, *_args: Any) -> bool:
        return bool(self.kiosk_mode and key == 27)  # Escape (and Android back): never leaves the kiosk

    # ============================================================================================ touches
    def _win_touch_down(self, _window: Any, touch: Any) -> bool:
        w, h = Window.size
        seat = self.table.seat_at(touch.x, touch.y, w, h)
        self.hub.emit(SeatEvent(seat.index if seat else None, "touch", "press", pos=(touch.x, touch.y)))
        for corner in self.table.corners(w, h):
            if corner.contains(touch.x, touch.y):
                self._corner_touches[touch.uid] = (
                    corner,
                    Clock.schedule_once(partial(self._corner_held, corner), self.cfg.operator.hold_s),
                )
                break
        if self.mode == "attract":
            if self.attract_screen.offer_visible and self.attract_screen.offer_hit(touch.x, touch.y):
                return False  # the resume offer's buttons take it
            self.leave_attract(self.table.nearest_seat(touch.x, touch.y, w, h).index)
            return True
        return False

    def _win_touch_move(self, _window: Any, touch: Any) -> bool:
        held = self._corner_touches.get(touch.uid)
        if held is not None and not held[0].contains(touch.x, touch.y):
            held[1].cancel()
            del self._corner_touches[touch.uid]
        return False

    def _win_touch_up(self, _window: Any, touch: Any) -> bool:
        held = self._corner_touches.pop(touch.uid, None)
        if held is not None:
            held[1].cancel()
        w, h = Window.size
        seat = self.table.seat_at(touch.x, touch.y, w, h)
        self.hub.emit(SeatEvent(seat.index if seat else None, "touch", "release", pos=(touch.x, touch.y)))
        return False

    def _corner_held(self, corner: Rect, _dt: float) -> None:
        self._corner_touches.clear()
        self.open_operator("bottom" if corner.y == 0 else "top")

    # ============================================================================================ seat events
    def _on_seat_event(self, _hub: Any, event: SeatEvent) -> None:
        if event.source == "touch":
            return
        if self.mode == "attract":
            if event.kind in ("press", "tap") and event.seat is not None:
                self.leave_attract(event.seat)
            return
        if self.mode == "menu":
            if self.sm.current == "join":
                self.join_screen.seat_event(event)
            elif self.sm.current == "picker" and event.is_press and event.seat is not None:
                self.picker.face(event.seat)
            return
        if self.mode == "game":
            screen = self.sm.current_screen
            if hasattr(screen, "seat_event"):
                screen.seat_event(event)
            return
        if self.mode == "results":
            self.results.seat_event(event)

    # ============================================================================================ attract
    def go_attract(self, *_a: Any) -> None:
        """Back to attract mode (from anywhere): stop any game, start the cycle from the top."""
        self._end_game_screen()
        self._unprompt()
        if getattr(self, "results", None) is not None:
            self.results.cancel_timers()
        self.mode = "attract"
        self._attract_step = 0
        self.attract_screen.text = self.cfg.attract.text
        self.update_marks()
        if self.offers:
            self._show_offer()
        else:
            self._attract_next()

    def _attract_cycle(self) -> list[tuple[str, str | None]]:
        steps: list[tuple[str, str | None]] = []
        for key in self.games:
            steps += [("call", None), ("game", key), ("boards", key)]
        if not steps:
            from kiosk.ui.howto import KNOWN

            steps = [("call", None)] + [("boards", k) for k in KNOWN]
        return steps

    def _attract_next(self, *_a: Any) -> None:
        if self.mode != "attract":
            return
        if self._attract_ev is not None:
            self._attract_ev.cancel()
        self._stop_attract_session()
        if self._attract_step > 0 and self.first_frame_at is None:
            # Kivy's clock counts from its last tick, which is before the build: a short first step could be
            # "due" before the first frame. Never build the rest of the table before the first frame is up.
            self._attract_ev = Clock.schedule_once(self._attract_next, 0.5)
            return
        if self._attract_step > 0:
            self.ensure_ready()  # the first step (the call) needs nothing more than the first frame
        steps = self._attract_cycle()
        kind, key = steps[self._attract_step % len(steps)]
        self._attract_step += 1
        cfg = self.cfg.attract
        if kind == "game" and key is not None:
            try:
                self._start_attract_game(key)
                duration = cfg.game_s
            except Exception as exc:  # a broken engine must not stop attract mode
                log.exception("attract game %s failed to start: %s", key, exc)
                kind, duration = "call", cfg.call_s
        if kind == "boards" and key is not None:
            self._show_boards(key)
            duration = cfg.boards_s
        if kind == "call":
            self.attract_screen.show_call()
            self.sm.current = "attract"
            duration = cfg.call_s
        self._attract_ev = Clock.schedule_once(self._attract_next, duration)

    def _show_boards(self, key: str) -> None:
        from kiosk.ui.attract import board_rows

        title = self.game_title(key)
        if self.scores is None or not getattr(self.scores, "available", False):
            reason = getattr(self.scores, "reason", "") if self.scores is not None else "storage not installed"
            self.attract_screen.show_boards(title, ["(boards unavailable)"], [], str(reason)[:80])
        else:
            self.attract_screen.show_boards(
                title, board_rows(self.scores.top(key, 5)), board_rows(self.scores.top_today(key, 5))
            )
        self.sm.current = "attract"

    def _start_attract_game(self, key: str) -> None:
        from kiosk.ui.session import GameSession

        spec = self.games[key]
        n = max(spec.min_players, min(spec.max_players, 4, len(self.table)))
        seats = self._spread_seats(n)
        seed = self.rng.randrange(2**31)
        level = self.cfg.attract.bot_level if self.cfg.attract.bot_level in spec.bots else next(iter(spec.bots))
        state = spec.new_game(n, seed)
        bots = {g: spec.bots[level](g, seed + 7919 * (g + 1)) for g in range(n)}
        session = GameSession(
            spec,
            state,
            seats,
            bots,
            seed=seed,
            move_delay=self.cfg.attract.move_delay_s,
            attract=True,
            bot_levels=dict.fromkeys(range(n), level),
        )
        session.bind(on_over=self._attract_game_over, on_change=self._on_game_change)
        screen = self._game_screen(key)
        screen.begin(session)
        self._attract_session = session
        self.sm.current = screen.name
        session.start()

    def _spread_seats(self, n: int) -> list[Any]:
        """``n`` table seats spread around the table (clockwise), for attract games."""
        seats = self.table.seats
        step = len(seats) / n
        chosen = sorted({int(i * step + step / 2) % len(seats) for i in range(n)})
        return [seats[i] for i in chosen]

    def _attract_game_over(self, *_a: Any) -> None:
        if self.mode == "attract":
            if self._attract_ev is not None:
                self._attract_ev.cancel()
            self._attract_ev = Clock.schedule_once(self._attract_next, 3.0)

    def _stop_attract_session(self) -> None:
        session = self._attract_session
        if session is not None:
            session.stop()
            session.unbind(on_over=self._attract_game_over, on_change=self._on_game_change)
            screen = self.game_screens.get(session.spec.key)
            if screen is not None and screen.session is session:
                screen.end()
            self._attract_session = None

    def leave_attract(self, seat_index: int | None) -> None:
        """Any touch or seat button in attract mode: straight to the picker, facing that seat."""
        if self.mode != "attract":
            return
        t0 = time.monotonic()
        self.ensure_ready()
        if self._attract_ev is not None:
            self._attract_ev.cancel()
            self._attract_ev = None
        self._stop_attract_session()
        self.attract_screen.hide_offer()
        self.open_picker(seat_index)
        self.timings["leave_attract_s"] = time.monotonic() - t0

    # ---------------------------------------------------------------------------------------- resume offers
    def _show_offer(self) -> None:
        offer = self.offers[0]
        when = offer.last_activity.strftime("%H:%M") if getattr(offer, "last_activity", None) else ""
        series = (getattr(offer, "meta", None) or {}).get("series")  # [game, of]: a match's progress
        what = "game"
        if isinstance(series, list) and len(series) == 2 and all(isinstance(x, int) for x in series):
            what = f"match (game {series[0]} of {series[1]})"
        self.attract_screen.show_offer(f"Resume the {offer.title} {what} from {when}?")
        self.sm.current = "attract"
        if self._attract_ev is not None:
            self._attract_ev.cancel()
        # The offer stays for one attract period, then the normal cycle goes on (the offer is kept).
        self._attract_ev = Clock.schedule_once(self._offer_timeout, max(20.0, self.cfg.attract.call_s))

    def _offer_timeout(self, _dt: float) -> None:
        self.attract_screen.hide_offer()
        self.offers = []  # offered once per start; it stays in the folder until a later start or max age
        self._attract_next()

    def _on_offer_answer(self, _screen: Any, accept: bool) -> None:
        if not self.offers:
            return
        offer = self.offers.pop(0)
        self.attract_screen.hide_offer()
        if self._attract_ev is not None:
            self._attract_ev.cancel()
            self._attract_ev = None
        if accept:
            try:
                self._resume(offer)
                return
            except Exception as exc:
                log.exception("could not resume %s: %s", getattr(offer, "title", "?"), exc)
        else:
            try:
                offer.discard("declined")
            except Exception as exc:
                log.warning("could not discard the offer: %s", exc)
        self.go_attract()

    def _resume(self, offer: Any) -> None:
        state, journal = offer.resume()
        spec = self.games[offer.game]
        seats_info = offer.seats or []
        assignment = [(int(s["seat"]), s.get("bot")) for s in seats_info]
        self._launch(spec, state, assignment, int(offer.seed), journal, dict(offer.meta or {}))

    # ============================================================================================ menus
    def open_picker(self, seat_index: int | None = None) -> None:
        self.ensure_ready()
        self._end_game_screen()
        self.mode = "menu"
        self.picker.face(seat_index if seat_index is not None else self.picker.chooser)
        self.sm.current = "picker"

    def open_join(self, key: str, chooser: int | None) -> None:
        self.mode = "menu"
        self.join_screen.setup(self.games[key], chooser, self.cfg.bots.default_level)
        self.sm.current = "join"
        self.sounds.play("join")

    def _play_again(self) -> None:
        if self._last_join is None:
            self.go_attract()
            return
        key, seats = self._last_join
        self.mode = "menu"
        self.join_screen.setup(self.games[key], None, self.cfg.bots.default_level)
        for index, level in seats:
            if level is None:
                self.join_screen.join(index)
            else:
                self.join_screen.add_bot(index)
                self.join_screen.pads[index].level = level
        self.sm.current = "join"

    # ============================================================================================ games
    def start_game(self, key: str, seats: list[tuple[int, str | None]]) -> None:
        """Start ``key`` with ``seats`` = [(table seat index, None for a human or a bot level)], clockwise."""
        self.ensure_ready()
        spec = self.games[key]
        seats = sorted(seats)
        spec.check_players(len(seats))
        seed = self.rng.randrange(2**31)
        state = spec.new_game(len(seats), seed)
        meta: dict[str, Any] = {}
        join = getattr(self, "join_screen", None)
        if join is not None and join.spec is spec and join.match_choices:
            meta["match_games"] = join.match_games  # the length chosen on the joining screen
        journal = None
        if self.saved_games is not None and getattr(self.saved_games, "available", False):
            try:
                journal = self.saved_games.start(
                    key, len(seats), seed, state=state, meta=meta, seats=[{"seat": i, "bot": lv} for i, lv in seats]
                )
            except Exception as exc:
                log.warning("no journal for this game: %s", exc)
        self._last_join = (key, list(seats))
        if self.scores is not None and getattr(self.scores, "available", False):
            try:
                self.scores.record_play(key)
            except Exception as exc:
                log.warning("play count not saved: %s", exc)
        status = getattr(getattr(self, "hardware", None), "status", None)
        if status is not None and hasattr(status, "game_started"):
            try:
                status.game_started([i for i, _ in seats])
            except Exception as exc:
                log.debug("status.game_started: %s", exc)
        self._launch(spec, state, seats, seed, journal, meta)

    def _launch(
        self,
        spec: GameSpec,
        state: Any,
        seats: list[tuple[int, str | None]],
        seed: int,
        journal: Any,
        meta: dict[str, Any],
    ) -> None:
        from kiosk.ui.session import GameSession

        self._stop_attract_session()
        bots = {}
        levels = {}
        for g, (_index, level) in enumerate(seats):
            if level is not None:
                lv = level if level in spec.bots else next(iter(spec.bots))
                bots[g] = spec.bots[lv](g, seed * 1009 + g * 7919 + 1)
                levels[g] = lv
        session = GameSession(
            spec,
            state,
            [self.table[i] for i, _ in seats],
            bots,
            seed=seed,
            move_delay=self.cfg.bots.move_delay_s,
            journal=journal,
            bot_levels=levels,
        )
        session.bind(on_over=self._game_over, on_change=self._on_game_change, on_error=self._on_game_error)
        session.meta = dict(meta)
        if "match_games" in meta:
            session.match_games = meta["match_games"]
        saved = self.saved_games
        if saved is not None and getattr(saved, "available", False):
            seats_info = [{"seat": i, "bot": lv} for i, lv in seats]

            def journal_factory(
                next_state: Any, next_seed: int, setup: dict[str, Any], next_meta: dict[str, Any]
            ) -> Any:
                return saved.start(
                    spec.key, len(seats), next_seed, state=next_state, seats=seats_info, meta=next_meta, setup=setup
                )

            session.journal_factory = journal_factory
        self.session = session
        screen = self._game_screen(spec.key)
        screen.begin(session)
        self.mode = "game"
        self.hub.last_input = time.monotonic()
        self.sm.current = screen.name
        session.start()
        if state.is_over():
            self._game_over()

    def _on_game_change(self, session: Any, events: list[Any]) -> None:
        if session.attract:
            return
        kinds = {e.kind for e in events}
        self.sounds.play("claim" if any("claim" in k or "won" in k for k in kinds) else "place")

    def _on_game_error(self, *_a: Any) -> None:
        self.sounds.play("error")

    def _game_over(self, *_a: Any) -> None:
        self.sounds.play("win")
        Clock.schedule_once(self._show_results, 1.5)

    def _show_results(self, _dt: float) -> None:
        session = self.session
        if session is None or self.mode != "game":
            return
        self.results.setup(session, self.scores, self.cfg.timeouts.initials_s, self.cfg.timeouts.results_s)
        self._end_game_screen()
        self.mode = "results"
        self.sm.current = "results"

    def _end_game_screen(self) -> None:
        session = self.session
        if session is None:
            return
        session.stop()
        session.unbind(on_over=self._game_over, on_change=self._on_game_change, on_error=self._on_game_error)
        screen = self.game_screens.get(session.spec.key)
        if screen is not None and screen.session is session:
            screen.end()
        self.session = None

    def abandon_game(self) -> None:
        """Idle timeout: save (close the journal as abandoned) and return to attract."""
        if self.session is not None:
            self.session.abandon("idle")
        self.go_attract()

    # ============================================================================================ idle
    def _idle_tick(self, _dt: float) -> None:
        idle = time.monotonic() - self.hub.last_input
        t = self.cfg.timeouts
        if self.mode == "game":
            if idle >= t.idle_s + t.still_playing_s:
                log.info("nobody answered 'Still playing?': game saved and abandoned")
                self.abandon_game()
            elif idle >= t.idle_s:
                if not self._prompting:
                    self._prompt()
                self.overlay.seconds_left = max(0, int(t.idle_s + t.still_playing_s - idle + 0.999))
            elif self._prompting:
                self._unprompt()
        elif self.mode in ("menu", "operator") and idle >= t.menu_idle_s:
            self.go_attract()

    def _prompt(self) -> None:
        self._prompting = True
        screen = self.sm.current_screen
        if hasattr(screen, "hide_private"):
            screen.hide_private()
        self.hub.release_all()
        if self.session is not None:
            self.session.pause()
        self.overlay.prompting = True
        if self.overlay.parent is None:
            self.root.add_widget(self.overlay)
        self.sounds.play("tick")

    def _answer_prompt(self) -> None:
        self.hub.last_input = time.monotonic()
        self._unprompt()

    def _unprompt(self) -> None:
        if not self._prompting:
            return
        self._prompting = False
        self.overlay.prompting = False
        if self.overlay.parent is not None:
            self.overlay.parent.remove_widget(self.overlay)
        if self.session is not None and self.mode == "game":
            self.session.resume()

    # ============================================================================================ operator
    def open_operator(self, facing: str = "bottom") -> None:
        if self.mode == "operator":
            return
        self.ensure_ready()
        self._before_operator = (self.sm.current, self.mode)
        if self.session is not None:
            self.session.pause()
        self._stop_attract_session()
        if self._attract_ev is not None:
            self._attract_ev.cancel()
            self._attract_ev = None
        self._unprompt()
        self.mode = "operator"
        self.operator.open(facing)
        self.sm.current = "operator"

    def close_operator(self) -> None:
        before = self._before_operator
        self._before_operator = None
        if before is not None and before[1] == "game" and self.session is not None:
            self.mode = "game"
            self.hub.last_input = time.monotonic()
            self.sm.current = before[0]
            self.session.resume()
            return
        self.go_attract()

    def open_diagnostics(self) -> None:
        if self.diagnostics is not None:
            self.sm.current = "diagnostics"

    def diagnostics_available(self) -> bool:
        return self.diagnostics is not None

    def hardware_summary(self) -> str:
        hw = getattr(self, "hardware", None)
        lines = ["Hardware:"]
        if hw is None:
            return "Hardware: not started"
        lines += [f"  {n}" for n in hw.notes[-4:]]
        status = hw.status
        if status is not None and hasattr(status, "snapshot"):
            try:
                snap = status.snapshot()
                link = snap.get("link", {})
                state = link.get("state") if isinstance(link, dict) else link
                lines.append(f"  tap-stick link: {state}")
                if "lost_taps" in snap:
                    lines.append(f"  lost taps: {snap['lost_taps']}")
            except Exception as exc:
                lines.append(f"  status unavailable: {exc}")
        lines.append("  keyboard fallback: on (see docs/kiosk.md)")
        return "\n".join(lines)

    def all_game_keys(self) -> list[str]:
        from kiosk.ui.howto import KNOWN

        return list(self.games) + [k for k in KNOWN if k not in self.games]

    def game_title(self, key: str) -> str:
        from kiosk.ui.howto import KNOWN

        spec = self.games.get(key)
        return spec.title if spec else KNOWN.get(key, (key,))[0]

    def reset_board(self, key: str) -> int:
        if self.scores is None or not getattr(self.scores, "available", False):
            return 0
        try:
            return int(self.scores.reset(key))
        except Exception as exc:
            log.error("could not reset the %s board: %s", key, exc)
            return 0

    def update_config(self, **sections: Any) -> None:
        """Change settings from the operator menu: validate, apply, and write the config file."""
        self.cfg = self.cfg.replace(**sections)
        self.sounds.set(volume=self.cfg.sound.volume, muted=self.cfg.sound.muted)
        self.attract_screen.text = self.cfg.attract.text
        if self.config_path is not None:
            try:
                kconfig.save(self.cfg, self.config_path)
            except OSError as exc:
                log.error("could not save the config file %s: %s", self.config_path, exc)
                return
            if self.loaded_config is not None and self.loaded_config.problems:
                # the broken file was replaced (and kept aside): the table runs on a file that loads again
                self.loaded_config = kconfig.LoadedConfig(self.cfg, "file", (), self.config_path)
        self.update_marks()

    def quit_kiosk(self) -> None:
        """The operator's "quit to desktop" (the only way out from the screen)."""
        self.quit_requested = True
        self.stop_reason = "operator quit"
        self.stop()
