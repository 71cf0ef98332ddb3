"""The layer above every screen: the "Still playing?" prompt at the players' seats, and short notices.

Shown by the app's idle handler: after ``timeouts.idle_s`` without input during a game, every seat where a human
plays gets a prompt facing it in the seat's language (bots' and empty seats get none) with a "Still here" button,
and the centre counts down ``timeouts.still_playing_s`` (in the table's language). Any input (a touch anywhere, a
seat button) answers it. The overlay takes no touches while hidden.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout

from kiosk.ui.seatzone import SeatZone
from kiosk.ui.speaks import Speaks

__all__ = ["Overlay", "PromptZone"]


class PromptZone(SeatZone):
    """One seat's "Still playing?", in the seat's language."""

    overlay = ObjectProperty(None, allownone=True)


class Overlay(Speaks, FloatLayout):
    """The prompts and the centre's countdown (``language``: the table's)."""

    table = ObjectProperty(None)
    prompting = BooleanProperty(False)
    seconds_left = NumericProperty(0)
    notice = StringProperty("")

    def __init__(self, on_answer: Callable[[], None] | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.on_answer = on_answer
        self.zones: list[PromptZone] = []
        for seat in self.table.seats if self.table is not None else []:
            zone = PromptZone(table=self.table, seat=seat, overlay=self)
            self.zones.append(zone)
            self.ids.prompt_layer.add_widget(zone)

    def answer(self) -> None:
        if self.prompting and self.on_answer is not None:
            self.on_answer()

    def on_touch_down(self, touch: Any) -> bool:
        if not self.prompting:
            return False
        super().on_touch_down(touch)
        self.answer()  # any touch while asking means someone is still here
        return True

    def on_touch_move(self, touch: Any) -> bool:
        return bool(self.prompting)

    def on_touch_up(self, touch: Any) -> bool:
        return bool(self.prompting)
