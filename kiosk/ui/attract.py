# mypy: allow-subclassing-any
"""Attract mode's own screen: the "touch to play" call at every seat, and the high-score boards.

The attract *cycle* (bot games of every registered title, then boards, then the call) is driven by
:class:`kiosk.app.KioskApp`; bot games are shown on the game screens themselves with attract sessions. This
screen shows the two other parts:

* ``call``: the operator's attract text in every seat zone, facing that seat, plus the game list in the centre;
* ``boards``: one game's all-time and today's boards, twice: one copy facing each long side (the short sides
  read them sideways, never upside down). Boards unavailable (no storage) say so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, OptionProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from kiosk.ui.seatzone import SeatZone

__all__ = ["AttractScreen", "BoardView", "CallZone", "board_rows"]


def board_rows(entries: Sequence[Any], n: int = 5, fmt: Callable[[int], str] = str) -> list[str]:
    """Board lines ``"1.  ABC   123"`` for up to ``n`` entries (``ScoreEntry``-like: name, score)."""
    rows = [f"{i}.  {e.name:<3}   {fmt(e.score)}" for i, e in enumerate(entries[:n], start=1)]
    return rows or ["(no scores yet)"]


class BoardView(BoxLayout):
    """One game's boards: all-time and today side by side."""

    title = StringProperty("")
    alltime = ListProperty([])
    today = ListProperty([])
    note = StringProperty("")


class CallZone(SeatZone):
    """The attract call facing one seat."""

    text = StringProperty("")


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

    def show_boards(self, title: str, alltime: list[str], today: list[str], note: str = "") -> None:
        self.board_title = title
        self.alltime = alltime
        self.today = today
        self.board_note = note
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
