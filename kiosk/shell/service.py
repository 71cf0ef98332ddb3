"""Service glue: what makes the app a well-behaved systemd service and a locked-down kiosk.

* ``READY=1`` after the first frame is drawn, ``WATCHDOG=1`` from a Clock interval on the UI thread (a frozen UI
  stops the pings and systemd restarts the kiosk), ``STOPPING=1`` on the way out (:func:`sd_notify`).
* SIGINT (Ctrl+C) and SIGTERM are caught in Python and stop the app cleanly (the game in progress keeps its
  journal, to be offered on the next start).
* Kiosk mode: a callback that raises is logged and the table goes on (``ExceptionManager``); Escape does
  nothing; a window close request is refused only when it comes from the keyboard (Alt+F4): SDL turns SIGTERM
  into a close request without a source, which must still stop the app.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

from kivy.base import ExceptionHandler, ExceptionManager
from kivy.clock import Clock, ClockEvent
from kivy.config import ConfigParser
from kivy.core.window import Window
from kivy.event import EventDispatcher

log = logging.getLogger("kiosk.shell.service")

__all__ = ["KioskHardening", "ServiceGlue", "sd_notify"]


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
            return int(ExceptionManager.RAISE)
        log.exception("error in a UI callback (the kiosk keeps running)", exc_info=inst)
        return int(ExceptionManager.PASS)


class KioskHardening:
    """For the app class: no per-app ``.ini`` file (all settings live in the kiosk's own config file) and no
    settings panel on F1."""

    config: ConfigParser | None

    def load_config(self) -> ConfigParser:
        self.config = ConfigParser()
        return self.config

    def open_settings(self, *args: Any) -> bool:
        return False


#: What the table is doing, in systemd's words for the owner (``systemctl status kiosk``: the unit's status line),
#: by the app's mode.
STATUS = {
    "attract": "attract mode",
    "menu": "guests at the table, choosing a game",
    "game": "a game is played",
    "results": "results",
    "operator": "operator menu",
}


class ServiceGlue:
    """Signals, sd_notify and the watchdog, and the kiosk-mode hardening of the window.

    ``stop`` stops the app (``App.stop``); ``on_first_frame`` runs once, right after ``READY=1``.
    """

    def __init__(
        self, stop: Callable[[], Any], on_first_frame: Callable[[], None], *, kiosk_mode: bool, handle_signals: bool
    ) -> None:
        self._stop = stop
        self._on_first_frame = on_first_frame
        self.kiosk_mode = kiosk_mode
        self.handle_signals = handle_signals
        self.first_frame_at: float | None = None
        self.stop_reason = ""
        self._old_signals: dict[int, Any] = {}
        self._watchdog_ev: ClockEvent | None = None
        self._status: str | None = None  # the status line to send once a frame showing it is on the screen

    def start(self, follow: EventDispatcher | None = None) -> None:
        """Signals, the watchdog; with ``follow`` (the app) the unit's status line follows its ``mode``."""
        if follow is not None:
            follow.bind(mode=lambda _app, mode: self.say_mode(mode))
        if self.kiosk_mode:
            ExceptionManager.add_handler(_KeepRunning())
        Window.bind(on_request_close=self.on_request_close, on_keyboard=self._on_keyboard, on_flip=self._on_flip)
        if self.handle_signals:
            for sig in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(ValueError):  # not the main thread
                    self._old_signals[sig] = signal.signal(sig, self._on_signal)
        watchdog_usec = os.environ.get("WATCHDOG_USEC")
        if watchdog_usec and watchdog_usec.isdigit():
            interval = max(0.5, int(watchdog_usec) / 1e6 / 3)
            self._watchdog_ev = Clock.schedule_interval(lambda _dt: sd_notify("WATCHDOG=1"), interval)

    def stop(self) -> None:
        sd_notify("STOPPING=1")
        if self._watchdog_ev is not None:
            self._watchdog_ev.cancel()
        for sig, old in self._old_signals.items():
            with contextlib.suppress(ValueError, TypeError):
                signal.signal(sig, old)
        self._old_signals.clear()

    def _on_flip(self, *_a: Any) -> None:
        # stays bound (unbinding inside the dispatch would make Kivy skip the next on_flip handler)
        if self.first_frame_at is not None:
            if self._status is not None:
                sd_notify(f"STATUS={self._status}")
                self._status = None
            return
        self.first_frame_at = time.monotonic()
        sd_notify("READY=1\nSTATUS=attract mode")
        log.info("first frame drawn: kiosk ready")
        self._on_first_frame()

    def say_mode(self, mode: str) -> None:
        """The unit's status line follows what the table shows: sent with the next frame drawn, so that it says what
        is on the screen (from the first frame on: READY=1 says the first)."""
        if self.first_frame_at is not None:
            self._status = STATUS.get(mode, mode)

    def _on_signal(self, signum: int, _frame: FrameType | None) -> None:
        self.stop_reason = signal.Signals(signum).name
        Clock.schedule_once(lambda _dt: self._stop(), 0)

    def on_request_close(self, _window: Any, *args: Any, source: str | None = None, **_kw: Any) -> bool:
        """Refuse Alt+F4 and friends in kiosk mode; let everything else (SIGTERM via SDL) close the app."""
        if self.kiosk_mode and source == "keyboard":
            log.info("close request from the keyboard refused (kiosk mode)")
            return True
        self.stop_reason = self.stop_reason or f"close request ({source or 'system'})"
        return False

    def _on_keyboard(self, _window: Any, key: int, *_args: Any) -> bool:
        return bool(self.kiosk_mode and key == 27)  # Escape (and Android back): never leaves the kiosk
