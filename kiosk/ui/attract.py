"""Attract mode's own screen: the "touch to play" call at every seat, and the high-score boards.

The attract *cycle* (bot games of every registered title, then boards, then the call) is driven by
:class:`kiosk.app.KioskApp`; bot games are shown on the game screens themselves with attract sessions. This
screen shows the two other parts:

* ``call``: the operator's attract text in every seat zone, facing that seat, plus the game list in the centre;
* ``boards``: one game's all-time and today's boards, twice: one copy facing each long side (the short sides
  read them sideways, never upside down). Boards unavailable (no storage) say so.

While the bots' games are shown on the game screens, :class:`EdgeCalls` lays "Touch to play" over them in the
four corners of the table (which belong to no seat, so the call covers no piece of the game), each facing one
edge (the seat model's rotation for that edge; the south-west corner faces south, the north-east north, the
north-west west, the south-east east): a passer-by on any side reads that the table is free. Static (no pulse):
a moving call would redraw the whole table every frame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from kiosk.ui.seatzone import SeatZone

__all__ = ["AttractScreen", "BoardView", "CallZone", "EdgeCall", "EdgeCalls", "board_rows"]


def board_rows(entries: Sequence[Any], n: int = 5, fmt: Callable[[int], str] = str) -> list[str]:
    """Board lines ``"1.  ABC   123"`` for up to ``n`` entries (``ScoreEntry``-like: name, score)."""
    rows = [f"{i}.  {e.name:<3}   {fmt(e.score)}" for i, e in enumerate(entries[:n], start=1)]
    return rows or ["(no scores yet)"]


class BoardView(BoxLayout):
    """One game's boards: all-time and today side by side, and the event's beside them when the table is paired
    with one (``event_title``: the event's name; "" for a lone table, whose view has two columns)."""

    title = StringProperty("")
    alltime = ListProperty([])
    today = ListProperty([])
    note = StringProperty("")
    event_title = StringProperty("")
    event_rows = ListProperty([])


class CallZone(SeatZone):
    """The attract call facing one seat."""

    text = StringProperty("")


class EdgeCall(Label):
    """One "Touch to play" facing an edge: drawn turned by ``rotation`` about its centre (its kv rule); its
    ``size`` is as its reader sees it."""

    rotation = NumericProperty(0)
    edge = StringProperty("bottom")

    def on_touch_down(self, touch: Any) -> bool:
        return False  # a call takes no touches (the shell's gestures leave attract mode on any touch)


class EdgeCalls(Widget):
    """ "Touch to play" at the middle of every edge of the table, over a bots' game (see the module docstring)."""

    table = ObjectProperty(None)
    text = StringProperty("Touch to play!")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.calls: list[EdgeCall] = []
        for edge in ("bottom", "top", "left", "right"):
            rot = self.table.facing_edge_rotation(edge) if self.table is not None else 0
            call = EdgeCall(edge=edge, rotation=rot, text=self.text)
            self.bind(text=call.setter("text"))
            self.calls.append(call)
            self.add_widget(call)
        self.bind(size=self._layout, pos=self._layout)

    def on_touch_down(self, touch: Any) -> bool:
        return False

    def _layout(self, *_a: Any) -> None:
        from kivy.core.window import Window

        w, h = Window.size
        if self.table is None:
            return
        # the corners belong to no seat: one call in each, facing one edge, over no seat's pieces
        sw, se, nw, ne = self.table.corners(w, h)
        corner = {"bottom": sw, "right": se, "left": nw, "top": ne}
        for call in self.calls:
            r = corner[call.edge]
            side = r.w * 0.9
            call.size_hint = (None, None)
            call.size = (side, side)
            call.pos = (r.x + (r.w - side) / 2, r.y + (r.h - side) / 2)


class AttractScreen(Screen):
    """Dispatches ``on_offer(accept)`` when the resume offer is answered."""

    __events__ = ("on_offer",)
    offer_text = StringProperty("")
    offer_visible = BooleanProperty(False)
    phase = OptionProperty("call", options=["call", "boards"])
    table = ObjectProperty(None)
    text = StringProperty("Touch to play!")
    games_line = StringProperty("")
    board_title = StringProperty("")
    alltime = ListProperty([])
    today = ListProperty([])
    board_note = StringProperty("")
    #: the event's board for the game on show (its name, its best rows), when the table is paired with an event
    event_title = StringProperty("")
    event_rows = ListProperty([])

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.zones: list[CallZone] = []
        if self.table is not None:
            for seat in self.table.seats:
                zone = CallZone(table=self.table, seat=seat)
                self.bind(text=zone.setter("text"))
                zone.text = self.text
                self.zones.append(zone)
                self.ids.seat_layer.add_widget(zone)

    def show_boards(
        self, title: str, alltime: list[str], today: list[str], note: str = "", event: tuple[str, list[str]] = ("", [])
    ) -> None:
        self.board_title = title
        self.alltime = alltime
        self.today = today
        self.board_note = note
        self.event_title, self.event_rows = event[0], list(event[1])
        self.phase = "boards"

    def show_call(self) -> None:
        self.phase = "call"

    # --- the resume offer ("Resume the Makoto game from 14:05?"), facing both long sides ------------------
    def show_offer(self, text: str) -> None:
        self.offer_text = text
        self.offer_visible = True
        self.phase = "call"

    def hide_offer(self) -> None:
        self.offer_visible = False

    def offer_hit(self, x: float, y: float) -> bool:
        """Whether a window point lies on the offer's panels (their buttons take the touch)."""
        return any(p.collide_point(x, y) for p in (self.ids.offer_south, self.ids.offer_north))

    def answer_offer(self, accept: bool) -> None:
        if self.offer_visible:
            self.dispatch("on_offer", accept)

    def on_offer(self, accept: bool) -> None:
        pass
