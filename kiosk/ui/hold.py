"""Touch and hold: a finger held still on a card or a tile at a seat opens that seat's menu on the card's
explanation (the seat menu's Cards page, :meth:`kiosk.shell.seatmenu.SeatMenu.show_cards`), in the seat's language.

:class:`HoldExplains` is a mixin for the widget the cards lie in (a board game's tray shelf, a Makoto card, a
Takoyaki order card): :meth:`~HoldExplains.explained_at` names the card under a finger (the engine's name for it,
the key of the game's ``explain.py``), ``""`` for none. A finger that moves further than :data:`HOLD_SLOP_PX` is a
drag, not a hold; one lifted before :data:`HOLD_S` is a tap (the widget's own, unchanged). A hold that opened an
explanation marks its touch (:func:`held`), so that a card that is also a button does not take its lift for a tap.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock

__all__ = ["HOLD_S", "HOLD_SLOP_PX", "HoldExplains", "held", "explain_at_seat"]

#: Seconds a finger holds a card or a tile at a seat before its explanation opens.
HOLD_S = 0.6
#: How far (px) a finger may wander and still be holding.
HOLD_SLOP_PX = 20.0
_KEY = "explain"
_HELD = "explained"


def held(touch: Any) -> bool:
    """True when ``touch`` opened an explanation by holding (its lift is no tap)."""
    return bool(touch.ud.get(_HELD))


def explain_at_seat(widget: Any, name: str) -> bool:
    """Open the menu of the seat ``widget`` sits at (its :class:`~kiosk.ui.seatzone.SeatZone`) on the explanation of
    card ``name``, in the running game; False where there is no seat, game or menu."""
    zone = widget.parent  # the seat's zone: the first one up holding a seat (seatzone imports this module)
    while zone is not None and getattr(zone, "seat", None) is None:
        zone = zone.parent
    app = App.get_running_app()
    session = getattr(app, "session", None)
    if zone is None or zone.seat is None or session is None or not hasattr(app, "seat_menus"):
        return False
    app.seat_menus.open(zone.seat.index, session.spec, in_game=True).show_cards(name)
    return True


class HoldExplains:
    """Mixin (before the widget class): a hold on a card under this widget opens its explanation at the seat. A
    class with touch handlers of its own calls :meth:`hold_down`, :meth:`hold_move` and :meth:`hold_up` from them."""

    #: True while the lift of a finger that opened an explanation is handled (a button's ``on_release`` skips it)
    lifting_held = False

    def explained_at(self, x: float, y: float) -> str:
        """The engine's name of the card under ``(x, y)``: the widget's own ``explain`` where it is hit."""
        name = str(getattr(self, "explain", "") or "")
        return name if name and self.collide_point(x, y) else ""  # type: ignore[attr-defined]

    def hold_down(self, touch: Any) -> None:
        """A finger down: its hold is timed when it is on a card."""
        if _KEY not in touch.ud and (name := self.explained_at(*touch.pos)):
            touch.ud[_KEY] = Clock.schedule_once(lambda _dt: self._hold_fired(touch, name), HOLD_S)

    def hold_move(self, touch: Any) -> None:
        """A finger moving further than :data:`HOLD_SLOP_PX` drags: no hold."""
        ev = touch.ud.get(_KEY)
        if ev is not None and max(abs(touch.x - touch.ox), abs(touch.y - touch.oy)) > HOLD_SLOP_PX:
            ev.cancel()

    def hold_up(self, touch: Any) -> bool:
        """A finger lifted: True when its hold opened an explanation (the lift is no tap)."""
        if (ev := touch.ud.get(_KEY)) is not None:
            ev.cancel()
        return held(touch)

    def on_touch_down(self, touch: Any) -> bool:
        self.hold_down(touch)
        return bool(super().on_touch_down(touch))  # type: ignore[misc]

    def on_touch_move(self, touch: Any) -> bool:
        self.hold_move(touch)
        return bool(super().on_touch_move(touch))  # type: ignore[misc]

    def on_touch_up(self, touch: Any) -> bool:
        self.lifting_held = self.hold_up(touch)
        try:
            return bool(super().on_touch_up(touch))  # type: ignore[misc]
        finally:
            self.lifting_held = False

    def _hold_fired(self, touch: Any, name: str) -> None:
        if explain_at_seat(self, name):
            touch.ud[_HELD] = True
