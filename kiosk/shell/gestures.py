"""Table gestures: every touch on the window becomes a seat event (``SeatEvent(seat, "touch", ...)``, the seat
whose zone holds it) for the input hub; a finger held ``operator.hold_s`` in any corner opens the operator menu
(facing the long side of that corner); in attract mode any touch or seat button leaves for the picker, facing the
seat nearest the touch; during Watch again any touch or seat button skips it. Seat buttons and tap sticks go to
the screen of the current mode, except a seat's "hold a" (its seat menu opens or closes, where the menu is
offered) and the buttons of a seat whose menu is open (they move the menu's highlight): the seat menus lie over
every screen (:mod:`kiosk.ui.focus`).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock, ClockEvent
from kivy.core.window import Window

from kiosk.inputs import InputHub, SeatEvent
from kiosk.seats import Rect
from kiosk.ui.focus import FocusRing

if TYPE_CHECKING:
    from kiosk.shell.doors import GesturesDoor

__all__ = ["TableGestures"]


class TableGestures:
    """Routes window touches and seat events; holds the corner-hold timers of the fingers down."""

    def __init__(self, app: GesturesDoor) -> None:
        self.app = app
        self._corner_touches: dict[int, tuple[Rect, ClockEvent]] = {}

    def start(self) -> None:
        Window.bind(on_touch_down=self._down, on_touch_move=self._move, on_touch_up=self._up)
        self.app.hub.bind(on_seat_event=self.seat_event)

    def stop(self) -> None:
        """Let go of the window: a stopped kiosk's handlers must not take the touches of the next app (one window
        serves every app in a process, as in the tests)."""
        Window.unbind(on_touch_down=self._down, on_touch_move=self._move, on_touch_up=self._up)
        self.app.hub.unbind(on_seat_event=self.seat_event)
        for _corner, ev in self._corner_touches.values():
            ev.cancel()
        self._corner_touches.clear()

    def _down(self, _window: Any, touch: Any) -> bool:
        app = self.app
        w, h = Window.size
        seat = app.table.seat_at(touch.x, touch.y, w, h)
        app.hub.emit(SeatEvent(seat.index if seat else None, "touch", "press", pos=(touch.x, touch.y)))
        for corner in app.table.corners(w, h):
            if corner.contains(touch.x, touch.y):
                ev = Clock.schedule_once(partial(self._corner_held, corner), app.cfg.operator.hold_s)
                self._corner_touches[touch.uid] = (corner, ev)
                break
        if app.mode == "replay":  # Watch again: any touch skips it
            app.skip_replay()
            return True
        if app.mode == "attract":
            screen = app.attract_screen
            if screen.offer_visible and screen.offer_hit(touch.x, touch.y):
                return False  # the resume offer's buttons take it
            app.leave_attract(app.table.nearest_seat(touch.x, touch.y, w, h).index)
            return True
        return False

    def _move(self, _window: Any, touch: Any) -> bool:
        held = self._corner_touches.get(touch.uid)
        if held is not None and not held[0].contains(touch.x, touch.y):
            held[1].cancel()
            del self._corner_touches[touch.uid]
        return False

    def _up(self, _window: Any, touch: Any) -> bool:
        held = self._corner_touches.pop(touch.uid, None)
        if held is not None:
            held[1].cancel()
        w, h = Window.size
        seat = self.app.table.seat_at(touch.x, touch.y, w, h)
        self.app.hub.emit(SeatEvent(seat.index if seat else None, "touch", "release", pos=(touch.x, touch.y)))
        return False

    def _corner_held(self, corner: Rect, _dt: float) -> None:
        self._corner_touches.clear()
        self.app.open_desk("bottom" if corner.y == 0 else "top")

    def _seat_menu_button(self, event: SeatEvent) -> bool:
        """A seat button for the seat menus (True when used there): "hold a" where a menu is offered, or any button
        of a seat whose menu is open (nothing before the menus are built, in the first frames after start-up)."""
        app = self.app
        seat = event.seat
        if seat is None or event.source not in ("button", "key"):
            return False
        if not app.is_built("seat_menus"):
            return False
        menus = app.seat_menus
        if not menus.seat_button(event):
            return False
        ring = getattr(app.sm.current_screen, "focus", None)
        if menus.is_open(seat) and isinstance(ring, FocusRing):
            ring.let_go(seat)  # the menu covers the seat's zone: the seat's buttons are the menu's now
        return True

    def seat_event(self, _hub: InputHub, event: SeatEvent) -> None:
        """A seat button, tap stick or key (touches are routed by the widgets themselves)."""
        app = self.app
        if event.source == "touch":
            return
        if self._seat_menu_button(event):
            return
        if app.mode == "attract":
            if event.kind in ("press", "tap") and event.seat is not None:
                app.leave_attract(event.seat)
        elif app.mode == "menu":
            if app.sm.current == "join":
                app.join_screen.seat_event(event)
            elif app.sm.current == "picker" and event.is_press and event.seat is not None:
                app.picker.seat_button(event.seat, event.button)
        elif app.mode == "game":
            screen: Any = app.sm.current_screen
            if hasattr(screen, "seat_event"):  # every game screen has one; the overlay's moment has none
                screen.seat_event(event)
        elif app.mode == "results":
            app.results.seat_event(event)
        elif app.mode == "replay" and event.kind in ("press", "tap"):
            app.skip_replay()
