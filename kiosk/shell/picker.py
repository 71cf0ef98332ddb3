"""The game picker: the registered games with player counts and a one-screen how-to-play each.

The picker is shared, so it faces one seat at a time: the player who touched the table to leave attract mode
(the seat nearest the touch, or the seat whose button was pressed). Every seat zone has a "Turn to me" button
that turns it to face that seat instead. Everything a card and its how-to show comes from the game's
``GameSpec`` (title, players, symbol, ``howto``; see :mod:`kiosk.shell.howto`).

Seat buttons (the mapping of :mod:`kiosk.ui.focus`): a press at a seat the picker does not face turns it to that
seat and highlights the first game; then "b" highlights the next game and "a" plays the highlighted one (the
highlight is the focus frame, in the seat's colour).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kivy.clock import Clock
from kivy.properties import (
    ListProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from kiosk.engine import GameSpec
from kiosk.i18n import SOURCE, translator
from kiosk.shell.howto import howto_text, players_text
from kiosk.ui.focus import FocusFrame, window_box
from kiosk.ui.seatzone import SeatZone
from kiosk.ui.speaks import Speaks
from kiosk.ui.typescale import min_text_px

__all__ = ["PickerScreen", "GameCard", "TurnZone"]


class GameCard(Speaks, BoxLayout):
    key = StringProperty("")
    title = StringProperty("")
    players = StringProperty("")
    symbol = StringProperty("")
    screen = ObjectProperty(None, allownone=True)


class TurnZone(SeatZone):
    screen = ObjectProperty(None, allownone=True)


class PickerScreen(Screen):
    """In the table's language (:meth:`speak`: ``tr``, its face ``font``; ``face`` turns the picker to a seat)."""

    table = ObjectProperty(None)
    language = StringProperty(SOURCE)
    tr = ObjectProperty(translator(SOURCE), rebind=True)
    font = StringProperty("")
    facing = OptionProperty("bottom", options=["bottom", "right", "top", "left"])
    howto_key = StringProperty("")
    howto_title = StringProperty("")
    howto_text = StringProperty("")
    #: the how-to's text size (its kv rule: 23 units), made smaller while the text does not fit (:meth:`fit_howto`)
    howto_base = NumericProperty(23)
    cards = ListProperty([])

    def __init__(
        self,
        on_pick: Callable[[str, int | None], None] | None = None,
        on_back: Callable[[], None] | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.on_pick = on_pick
        self.on_back = on_back
        #: the table's language now (the operator may change it): the picker speaks it when shown
        self.table_language: Callable[[], str] = lambda: self.language
        self.chooser: int | None = None  # table seat index facing the picker
        self.highlighted: int | None = None  # the game card a seat's buttons highlight (index in card order)
        self._frame: Any = None
        self.games: Mapping[str, GameSpec] = {}
        self.card_widgets: dict[str, GameCard] = {}
        for seat in self.table.seats if self.table is not None else []:
            self.ids.seat_layer.add_widget(TurnZone(table=self.table, seat=seat, screen=self))

    def set_games(self, games: Mapping[str, GameSpec]) -> None:
        """Show the registered games in the registry's order."""
        self.games = games
        grid = self.ids.cards
        grid.clear_widgets()
        self.card_widgets = {}
        for key, spec in games.items():
            card = GameCard(key=key, title=spec.title, screen=self, symbol=spec.symbol)
            self.card_widgets[key] = card
            grid.add_widget(card)
        self.speak(self.language, force=True)

    def speak(self, language: str, force: bool = False) -> None:
        """Speak ``language`` (the table's): the captions, each card's players and the how-to shown."""
        if language == self.language and not force:
            return
        self.language = language
        self.tr = translator(language)
        self.font = self.tr.face
        for key, card in self.card_widgets.items():
            card.language = language
            card.players = players_text(self.games[key], self.tr)
        for zone in self.ids.seat_layer.children:
            zone.language = language
        if self.howto_key in self.games:
            self.show_howto(self.howto_key)

    def face(self, seat_index: int | None) -> None:
        if seat_index != self.chooser:
            self._highlight(None)
        self.chooser = seat_index
        if seat_index is not None and self.table is not None:
            self.facing = self.table[seat_index].edge

    def show_howto(self, key: str) -> None:
        spec = self.games[key]
        self.howto_title = spec.title
        self.howto_text = howto_text(spec, translator(self.language, spec.key))
        self.howto_key = key

    def fit_howto(self) -> None:
        """The how-to's text, after the next layout, at the largest size from ``howto_base`` down to the smallest a
        player reads (a step at a time) that fits its box (a language's steps may be longer than English's)."""
        if getattr(self, "_fit_ev", None) is None:
            self._fit_ev = Clock.create_trigger(self._fit_howto, -1)
        self._fit_ev()

    def _fit_howto(self, *_a: Any) -> None:
        # (Kivy's window opens on its first import: not when tools import this module)
        from kivy.core.window import Window

        label = self.ids.howto_label
        if not self.howto_key or label.height < 2 or label.width < 2:
            return
        smallest = min_text_px(Window.size)
        label.font_size = self.howto_base
        label.texture_update()
        while label.texture_size[1] > label.height and label.font_size > smallest:
            label.font_size = max(smallest, label.font_size - 1)
            label.texture_update()

    def close_howto(self) -> None:
        self.howto_key = ""

    def pick(self, key: str) -> None:
        if key in self.games and self.on_pick is not None:
            self.on_pick(key, self.chooser)

    def back(self) -> None:
        if self.on_back is not None:
            self.on_back()

    def on_pre_enter(self, *_a: Any) -> None:
        self.howto_key = ""
        self.speak(self.table_language())
        self._highlight(None)

    def seat_button(self, seat_index: int, button: str | None) -> None:
        """A seat button pressed (see the module docstring)."""
        keys = list(self.card_widgets)
        if not keys:
            return
        if seat_index != self.chooser or self.highlighted is None:
            self.face(seat_index)
            self._highlight(0)
        elif button == "b":
            self._highlight((self.highlighted + 1) % len(keys))
        elif button == "a":
            self.pick(keys[self.highlighted])

    def _highlight(self, index: int | None) -> None:
        self.highlighted = index
        if index is None:
            if self._frame is not None:
                self._frame.hide()
            return
        if self._frame is None:
            self._frame = FocusFrame(thickness=5)
        if self._frame.parent is None:
            self.add_widget(self._frame)
        if self.table is not None and self.chooser is not None:
            self._frame.colour = list(self.table[self.chooser].colour)
        self._place_frame()
        Clock.schedule_once(self._place_frame, 0.05)  # the picker may have just turned: its cards move

    def _place_frame(self, *_a: Any) -> None:
        if self._frame is None or self.highlighted is None:
            return
        cards = list(self.card_widgets.values())
        if self.highlighted < len(cards):
            self._frame.show(window_box(cards[self.highlighted]))
