"""The game screens: each game's own (``kiosk/games/<key>/screen.py``) or the shared generic one, built when first
shown and let go in attract mode when another game is shown. A game screen that fails to build is logged and its
game is played on the generic screen.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import logging
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock

from kiosk.inputs import InputHub
from kiosk.seats import SeatMap
from kiosk.ui import load_layouts
from kiosk.ui.game import BaseGameScreen, GenericGameScreen, screen_class_for
from kiosk.ui.seatzone import Oriented

log = logging.getLogger("kiosk.shell.screens")

__all__ = ["GameScreens", "give_back_memory"]


def give_back_memory(_dt: float = 0.0) -> None:
    """Collect what a let-go game screen left and give the freed heap back to the system (glibc's
    ``malloc_trim``; elsewhere only the collection). Without it a kiosk in attract mode keeps the high-water mark
    of its heaviest game screen (about 50 MB more under software OpenGL) while it shows the lighter ones."""

    gc.collect()
    with contextlib.suppress(OSError, AttributeError):  # not glibc
        ctypes.CDLL("libc.so.6").malloc_trim(0)


class GameScreens(dict[str, BaseGameScreen]):
    """ "game:<key>" / "game:generic" and every game key -> its screen, built when first shown (a game screen with
    its seats' panels weighs 10-40 MB: only the games being shown are kept).

    When attract mode shows a game, every other game screen is let go (:meth:`drop_others`: out of the screen
    manager, its hidden panels forgotten) and built again the next time it is shown; the screen on display stays
    until the next change. Indexing (``screens["makoto"]``) builds a missing screen and keeps that one for good
    (a caller holding a screen expects it to stay the game's)."""

    def __init__(self, table: SeatMap, hub: InputHub, sm: Callable[[], Any], in_attract: Callable[[], bool]) -> None:
        super().__init__()
        self.table, self.hub, self.sm, self.in_attract = table, hub, sm, in_attract
        self.pinned: set[str] = set()
        self._broken: set[str] = set()

    def __missing__(self, key: str) -> BaseGameScreen:
        return self.screen_for(key)

    def screen_for(self, key: str) -> BaseGameScreen:
        """The screen for a game, built on first use. In attract mode the other game screens are let go."""
        try:
            screen = self._screen(key)
        except Exception as exc:  # a broken game screen must not stop the table: the generic one plays it
            log.exception("the %s screen failed (%s): using the generic screen", key, exc)
            self._broken.add(key)
            screen = self._screen(key)
        if self.in_attract():
            self.drop_others(screen, self.sm())
        return screen

    def _screen(self, key: str) -> BaseGameScreen:
        load_layouts()  # the shell's looks a game screen uses (loaded after the first frame; at once if earlier)
        cls = GenericGameScreen if key in self._broken else screen_class_for(key)
        name = "game:generic" if cls is GenericGameScreen else f"game:{key}"
        screen = self.get(name)
        if screen is None:
            screen = cls(name=name, table=self.table, hub=self.hub)
            self[name] = screen
            self.sm().add_widget(screen)
        self[key] = screen
        return screen

    def __getitem__(self, key: str) -> BaseGameScreen:
        screen = super().__getitem__(key)
        self.pinned.add(screen.name)
        return screen

    def drop_others(self, keep: BaseGameScreen, sm: Any) -> None:
        dropped = False
        for screen in {id(s): s for s in self.values()}.values():
            if screen is keep or screen.name in self.pinned or screen.name == sm.current:
                continue
            dropped = True
            if screen.session is not None:
                screen.end()
            sm.remove_widget(screen)
            Oriented.forget_parked(screen)
            for k in [k for k, s in self.items() if s is screen]:
                del self[k]
        if dropped:
            Clock.schedule_once(give_back_memory, 3.0)  # once Kivy has deleted its GL objects (next frames)
