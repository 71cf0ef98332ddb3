"""The seat menu: how to play and leaving, at one seat, facing it, while the rest of the table plays on.

During a game every human seat's badge (its symbol and name) carries a "? Help / Leave" mark; a tap on the badge,
or on the "?" of the seat's open tray (:class:`~kiosk.ui.seatzone.TrayHelp`: the open hand takes the badge's
column), opens this seat's menu over that seat's zone only: "How to play", "Hints: on/off" (hint mode at this
seat: legal moves marked and a prompt of what to do now), "Leave the game", "Back to the game". On the
joining screen the join pad's "? How to play" opens the how-to directly. Nothing waits for the reader: the game
goes on (a reader whose turn comes sees "Your turn" again when closing the menu), other seats keep playing, bots
keep their pace.

* **How to play**: the game's steps (``howto.json`` through :func:`kiosk.shell.howto.howto_steps`), one at a time,
  each with its pictures from the atlas (``pictures`` names) and its words; "Next" / "Back" / "Close".
* **Demos**: a step with a ``demo`` plays a few real moves of an example game, one every ``DEMO_STEP_S``
  seconds, in words and, for a board game, on a small board of pictures (:mod:`kiosk.shell.demo`).
* **Cards** (menu, how-to, a touch-and-hold in the tray): each card explained (:func:`kiosk.shell.howto.card_steps`).
* **Leave**: a confirmation naming what happens ("A bot plays your seat on" or, for the last player, "The game
  ends; no scores are saved"); "Yes, leave" hands the seat to the shell's ``leave(table index)``.

Rationale and decisions: docs/developer/design.md, section ``kiosk/shell/seatmenu.py``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.floatlayout import FloatLayout

from kiosk import clock
from kiosk.engine import GameSpec
from kiosk.i18n import SOURCE, translator
from kiosk.inputs import SeatEvent
from kiosk.shell.demo import DemoFrame, demo_frames
from kiosk.shell.howto import HowToStep, card_steps, howto_steps
from kiosk.ui.focus import FocusRing, reading_order, top_layer, walk_choices
from kiosk.ui.pieces import Picture
from kiosk.ui.seatzone import SeatBadge, SeatZone

log = logging.getLogger("kiosk.shell.seatmenu")

__all__ = ["SeatMenu", "SeatMenus", "DEMO_STEP_S"]

#: Seconds each move of a how-to demo stays on screen.
DEMO_STEP_S = 1.6


class SeatMenu(SeatZone):
    """One seat's menu over its zone (see the module docstring). ``page``: menu, howto or leave."""

    page = OptionProperty("menu", options=["menu", "howto", "leave"])
    covers = True  # drawn opaque over the seat's zone: the fit checker skips what lies under it
    layer = ObjectProperty(None, allownone=True)
    title = StringProperty("")
    can_leave = BooleanProperty(False)
    #: Hint mode at this seat (shown on the menu's switch); None-like False when the seat has none.
    hints_on = BooleanProperty(False)
    leave_text = StringProperty("")
    step = NumericProperty(0)
    step_count = NumericProperty(0)
    step_title = StringProperty("")
    step_text = StringProperty("")
    step_pictures = ListProperty([])
    #: The demo's current move in words ("" when the step has no demo) and its board's columns (0: no board).
    demo_caption = StringProperty("")
    demo_cols = NumericProperty(0)
    #: The how-to page walks the game's cards (each card and tile explained, :func:`kiosk.shell.howto.card_steps`)
    #: instead of its steps; ``has_cards``: the game explains its cards.
    cards_mode = BooleanProperty(False)
    has_cards = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.steps: list[HowToStep] = []
        self.card_names: list[str] = []
        self.spec: GameSpec | None = None
        self._demo: list[DemoFrame] = []
        self._demo_i = 0
        self._demo_ev: Any = None
        self._demo_token = 0

    def show_howto(self, i: int = 0) -> None:
        """The game's how-to steps, from step ``i``."""
        if self.spec is not None and self.cards_mode:
            self.steps = howto_steps(self.spec, translator(self.language, self.spec.key))
        self.cards_mode = False
        self.show_step(i)

    def show_cards(self, name: str | None = None) -> None:
        """Every card of the game explained, one at a time, from card ``name`` (the engine's name for it: a held
        card, a tile, a recipe; the first card without one)."""
        if self.spec is None:
            return
        cards = card_steps(self.spec, translator(self.language, self.spec.key))
        if not cards:
            return
        self.card_names = list(cards)
        self.steps = list(cards.values())
        self.cards_mode = True
        self.show_step(self.card_names.index(name) if name in cards else 0)

    def show_step(self, i: int) -> None:
        if not self.steps:
            return
        i = max(0, min(len(self.steps) - 1, i))
        s = self.steps[i]
        self.step = i
        self.step_count = len(self.steps)
        self.step_title = s.title
        self.step_text = s.text
        self.step_pictures = list(s.pictures)
        box = self.ids.pictures
        box.clear_widgets()
        for name in s.pictures[:3]:
            box.add_widget(Picture(name=name))
        self.stop_demo()
        if s.demo is not None and self.spec is not None:
            self.start_demo(self.spec, s.demo)
        self.page = "howto"

    # ------------------------------------------------------------------------------------------------ demo
    def start_demo(self, spec: GameSpec, params: dict[str, Any]) -> None:
        """Work out the demo's moves in a thread (the engine is pure; a search bot may take a moment), then
        show one move every ``DEMO_STEP_S`` seconds, from the start again after the last."""
        self._demo_token += 1
        token = self._demo_token
        self.demo_caption = self.tr.gettext("Watch: dealing an example game...")
        tr = translator(self.language, spec.key)  # the seat's language in the game's words

        def work() -> None:
            try:
                frames = demo_frames(spec, **params, tr=tr)
            except Exception as exc:  # a demo must never break the how-to
                log.warning("the %s demo failed: %s", spec.key, exc)
                frames = []
            Clock.schedule_once(lambda _dt: self._demo_ready(token, frames), 0)

        clock.background(work, f"demo-{spec.key}")

    def _demo_ready(self, token: int, frames: list[DemoFrame]) -> None:
        if token != self._demo_token or self.page != "howto":
            return
        self._demo = frames
        self._demo_i = 0
        if not frames:
            self.demo_caption = ""
            return
        self._show_frame()
        self._demo_ev = Clock.schedule_interval(self._demo_tick, DEMO_STEP_S)

    def _demo_tick(self, _dt: float) -> None:
        self._demo_i = (self._demo_i + 1) % len(self._demo)
        self._show_frame()

    def _show_frame(self) -> None:
        frame = self._demo[self._demo_i]
        n, total = self.tr.number(self._demo_i), self.tr.number(len(self._demo) - 1)
        self.demo_caption = f"{n}/{total}  {frame.caption}"
        grid = self.ids.demo_board
        self.demo_cols = frame.cols
        grid.cols = max(1, frame.cols)
        while len(grid.children) < len(frame.cells):
            grid.add_widget(Picture())
        while len(grid.children) > len(frame.cells):
            grid.remove_widget(grid.children[0])
        for widget, name in zip(reversed(grid.children), frame.cells, strict=True):
            if widget.name != name:
                widget.symbol = ""  # a reused picture: no stale fallback letters on an empty square
                widget.name = name

    def stop_demo(self) -> None:
        self._demo_token += 1
        if self._demo_ev is not None:
            self._demo_ev.cancel()
            self._demo_ev = None
        self._demo = []
        self.demo_caption = ""
        self.demo_cols = 0
        self.ids.demo_board.clear_widgets()

    def next_step(self) -> None:
        if self.step + 1 >= len(self.steps):
            self.close()
        else:
            self.show_step(int(self.step) + 1)

    def back_step(self) -> None:
        if self.step == 0 and self.cards_mode:  # back to where the cards were opened from: the menu, the how-to
            if self.can_leave:
                self.page = "menu"
            else:
                self.show_howto(0)
        elif self.step == 0:
            self.page = "menu" if self.can_leave else self.page
            if not self.can_leave:
                self.close()
        else:
            self.show_step(int(self.step) - 1)

    def switch_hints(self) -> None:
        if self.layer is not None and self.can_leave:
            self.hints_on = self.layer.switch_hints(self.seat.index)

    def ask_leave(self) -> None:
        if self.can_leave and self.layer is not None:
            self.leave_text = self.layer.leave_question(self.seat.index)
            self.page = "leave"

    def confirm_leave(self) -> None:
        if self.layer is not None and self.page == "leave":
            self.layer.leave(self.seat.index)

    def close(self) -> None:
        self.stop_demo()
        if self.layer is not None:
            self.layer.close(self.seat.index)

    def on_touch_down(self, touch: Any) -> bool:
        super().on_touch_down(touch)
        return self.collide_point(*touch.pos)  # the menu covers its seat's zone: nothing reaches the game under it

    def on_touch_move(self, touch: Any) -> bool:
        super().on_touch_move(touch)
        return self.collide_point(*touch.pos)

    def on_touch_up(self, touch: Any) -> bool:
        super().on_touch_up(touch)
        return self.collide_point(*touch.pos)


class SeatMenus(FloatLayout):
    """Every seat's menu; ``host`` is the root widget it joins while a menu is open.

    ``offered(table index) -> (spec, in_game) or None`` says whether a seat gets a menu now, for which game and
    whether it plays in it; ``leave_question(index) -> str`` and ``on_leave(index)`` carry out leaving (the
    shell's launcher); ``language_at(index)`` is the seat's language. :meth:`open` and :meth:`close` per seat.
    """

    table = ObjectProperty(None)

    def __init__(
        self,
        host: Any = None,
        offered: Callable[[int], tuple[GameSpec, bool] | None] | None = None,
        leave_question: Callable[[int], str] | None = None,
        on_leave: Callable[[int], object] | None = None,
        hints_at: Callable[[int], bool | None] | None = None,
        on_switch_hints: Callable[[int], bool] | None = None,
        language_at: Callable[[int], str] | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.host = host
        self.offered = offered or (lambda _i: None)
        self._question = leave_question or (lambda _i: "Leave the game?")
        self.on_leave = on_leave
        self.hints_at = hints_at or (lambda _i: None)
        self.on_switch_hints = on_switch_hints
        #: ``language_at(table index)``: the language that seat reads (the menu speaks it)
        self.language_at = language_at or (lambda _i: SOURCE)
        #: the seats' menus built so far, by table index: a seat's menu is built when it first opens (a Pi takes
        #: a good part of a second for all six, and guests arrive after every attract round)
        self.menus: dict[int, SeatMenu] = {}
        self._seats = {seat.index: seat for seat in (self.table.seats if self.table is not None else [])}
        #: every seat's button highlight over its open menu (see :mod:`kiosk.ui.focus`)
        self.focus = FocusRing(self)
        self._focus_layer: Any = None
        SeatBadge.opener = self.open_from_badge

    def menu(self, index: int) -> SeatMenu:
        """Seat ``index``'s menu, built the first time it is asked for."""
        if index not in self.menus:
            menu = SeatMenu(table=self.table, seat=self._seats[index], layer=self, shown=False)
            self.menus[index] = menu
            self.add_widget(menu)
            menu.sync_shown()
        return self.menus[index]

    # ---------------------------------------------------------------------------------------------- opening
    def open(self, index: int, spec: GameSpec, *, in_game: bool, howto: bool = False) -> SeatMenu:
        """Open seat ``index``'s menu for ``spec`` (``in_game``: Leave offered); ``howto`` opens the how-to."""
        menu = self.menu(index)
        menu.domain, menu.language = spec.key, self.language_at(index)
        menu.title = spec.title
        menu.spec = spec
        menu.steps = howto_steps(spec, translator(menu.language, spec.key))
        menu.cards_mode = False
        menu.has_cards = bool(card_steps(spec, translator(menu.language, spec.key)))
        menu.can_leave = in_game
        menu.hints_on = bool(self.hints_at(index)) if in_game else False
        menu.page = "menu"
        if howto or not in_game:
            menu.show_step(0)
        menu.shown = True
        if self.parent is None and self.host is not None:
            self.host.add_widget(self)
        return menu

    def open_from_badge(self, index: int) -> bool:
        """A tap on seat ``index``'s badge: its menu opens when one is offered there (True: the tap is used)."""
        what = self.offered(index)
        if what is None:
            return False
        self.open(index, what[0], in_game=what[1])
        return True

    def is_open(self, index: int) -> bool:
        menu = self.menus.get(index)
        return menu is not None and bool(menu.shown)

    def close(self, index: int) -> None:
        self.focus.let_go(index)
        if index in self.menus:
            self.menus[index].shown = False
        if not any(m.shown for m in self.menus.values()) and self.parent is not None:
            self.parent.remove_widget(self)

    def close_all(self) -> None:
        for index in list(self.menus):
            self.close(index)

    # ---------------------------------------------------------------------------------------------- buttons
    def seat_button(self, event: SeatEvent) -> bool:
        """A seat button or its key (True when used here): "hold a" opens the seat's menu where its badge would
        (the highlight on its first choice) or closes it; while the menu is open, the seat's buttons are its."""
        seat = event.seat
        if seat is None or seat not in self._seats or event.source not in ("button", "key"):
            return False
        if event.kind == "hold" and event.button == "a":
            if self.is_open(seat):
                self.menus[seat].close()
                return True
            if not self.open_from_badge(seat):
                return False
            self.focus.show(seat)
            return True
        if not self.is_open(seat):
            return False
        self.focus.handle(event)
        return True

    def focus_playing(self, seat: int) -> bool:
        return self.is_open(seat)

    def focus_zone(self, seat: int) -> Any:
        return self.menus.get(seat)

    def focus_tray(self, seat: int) -> Any:
        return None

    def focus_targets(self, seat: int) -> list[Any]:
        menu = self.menus.get(seat)
        return reading_order(menu, walk_choices(menu)) if menu is not None and menu.shown else []

    def focus_back(self, seat: int) -> bool:
        """ "hold b": the how-to's previous step (from the first, the menu), the Leave question's "No, stay", and
        from the menu, back to the game."""
        menu = self.menus[seat]
        if menu.page == "howto":
            menu.back_step()
        elif menu.page == "leave":
            menu.page = "menu"
        else:
            menu.close()
        return True

    def focus_next(self, seat: int, gone: Any, targets: list[Any]) -> Any:
        """A new page: the highlight goes to its big button ("? How to play", "Next", "No, stay")."""
        big = ("BigButton", "FitBigButton")  # (kv's dynamic classes: by name)
        return next((w for w in targets if type(w).__name__ in big), targets[0])

    def focus_layer(self) -> Any:
        self._focus_layer = top_layer(self, self._focus_layer)
        return self._focus_layer

    # ---------------------------------------------------------------------------------------------- leaving
    def switch_hints(self, index: int) -> bool:
        return self.on_switch_hints(index) if self.on_switch_hints is not None else False

    def leave_question(self, index: int) -> str:
        return self._question(index)

    def leave(self, index: int) -> None:
        self.close(index)
        if self.on_leave is not None:
            self.on_leave(index)
