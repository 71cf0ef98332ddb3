"""A Makoto seat on screen: its panel (the hand in the seat's private tray, the action row of play buttons), the
hand's cards and the centre's slice facing the seat; their looks in ``panel.kv`` beside this file."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.button import Button

from kiosk.games.makoto.centre import MakotoCentre  # noqa: F401  (its kv rule, used in screen.kv)
from kiosk.games.makoto.hand import MakotoHand  # noqa: F401  (the tray's paged hand, used in screen.kv)
from kiosk.games.makoto.pieces import MakotoCard
from kiosk.games.makoto.rules import (
    PLAY,
)
from kiosk.ui import load_kv
from kiosk.ui.hold import HoldExplains
from kiosk.ui.seatzone import Oriented, SeatZone, _fits

log = logging.getLogger("kiosk.games.makoto.panel")

__all__ = ["HandCard", "StepButton", "CentreSlice", "MakotoPanel", "MAX_HAND", "MAX_ACTIONS", "PLAY_WORD"]

MAX_HAND = 18
MAX_ACTIONS = 8
#: The word a play's button starts with (:class:`StepButton` drops it where the play's cards need the room).
PLAY_WORD = "Play "


class HandCard(HoldExplains, MakotoCard):
    """One card of a hand, drawn as a card (:class:`~kiosk.ui.pieces.MakotoCard`: its whole number always in view).
    ``code`` is the engine's card; the card is face up (number, symbol) only while the tray is open. A tap selects
    it; a finger held on it opens its explanation (:class:`~kiosk.ui.hold.HoldExplains`), and that lift selects
    nothing."""

    code = NumericProperty(-1)
    panel = ObjectProperty(None, allownone=True)

    def __init__(self, **kw: Any) -> None:
        kw.setdefault("face_up", False)
        kw.setdefault("must_touch", True)
        super().__init__(**kw)

    def explained_at(self, x: float, y: float) -> str:
        shown = self.code >= 0 and self.face_up and self.must_touch and self.opacity > 0
        return str(int(self.code)) if shown and self.collide_point(x, y) else ""

    def on_release(self) -> None:
        if self.panel is not None and not self.lifting_held:
            self.panel.toggle(self.slot)


class StepButton(Button):
    """One action of the tray's action row (``action`` an engine action, or a string command). ``label`` is what
    it says: ``text`` shows it whole or, where a play does not fit the button (a short edge's tray at 1280x800
    has four buttons of about 78 px to a row, and "Play 9 10 11⚔ 12 13⚔" needs three lines of its two), without
    its leading "Play " (the cards are what the player reads; decision: never a smaller font, which would go under
    the reading minimum). The words are the seat's (``panel.tr``), set in its face."""

    panel = ObjectProperty(None, allownone=True)
    label = StringProperty("")
    command: Any = None

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(label=self._fit, size=self._fit, font_size=self._fit, font_name=self._fit)

    def _fit(self, *_a: Any) -> None:
        text = self.label
        # the shorter form: the label's own (a quick play's cards, :class:`~kiosk.games.makoto.words.Worded`), or
        # an English label without its leading "Play "
        short = getattr(text, "short", "") or (text[len(PLAY_WORD) :] if text.startswith(PLAY_WORD) else "")
        if short and self.width > 1:
            from kivy.app import App

            u = getattr(App.get_running_app(), "u", 1.0)
            if not _fits(text, self.width - 6 * u, self.height, self.font_size, self.font_name):
                text = short
        self.text = str(text)

    def on_release(self) -> None:
        if self.panel is not None and self.command is not None:
            self.panel.command(self.command)


class CentreSlice(Oriented):
    """One slice of the table's centre, facing ``edge`` (the seat model gives the rotation)."""

    table = ObjectProperty(None, allownone=True)
    edge = StringProperty("bottom")
    screen = ObjectProperty(None, allownone=True)
    face = StringProperty("")  # the table's language's face (the score sheet's words)
    players = ObjectProperty(None, allownone=True)  # the seats in play: see kiosk.ui.seatzone.use_players

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(parent=self._rebind, table=self._relayout, edge=self._relayout, players=self._relayout)

    def _rebind(self, *_a: Any) -> None:
        if self.parent is not None:
            self.parent.bind(size=self._relayout)
        self._relayout()

    def _relayout(self, *_a: Any) -> None:
        if self.table is None or self.parent is None:
            return
        w, h = self.parent.size
        c = self.table.centre(w, h, self.players)
        side = min(c.w * 0.2, c.h * 0.5)
        from kiosk.seats import Rect

        rects = {
            "left": Rect(c.x, c.y, side, c.h),
            "right": Rect(c.x + c.w - side, c.y, side, c.h),
            "bottom": Rect(c.x + side, c.y, c.w - 2 * side, c.h / 2),
            "top": Rect(c.x + side, c.y + c.h / 2, c.w - 2 * side, c.h / 2),
        }
        self.place(rects[self.edge], self.table.facing_edge_rotation(self.edge))


class MakotoPanel(SeatZone):
    """One seat's side of the Makoto screen (see the module docstring)."""

    status = StringProperty("")
    my_turn = BooleanProperty(False)
    info = StringProperty("")
    match_line = StringProperty("")  # a match's running total ("Match total 135"); empty in a single game
    hand_count = NumericProperty(0)  # drawn as card backs with the count
    action_rows = NumericProperty(1)  # rows of action buttons in the tray (4 a row)
    lid = StringProperty("")
    prompt = StringProperty("")
    labels = ListProperty([])  # texts of the enabled action buttons (what the seat can do now)
    sheet = BooleanProperty(False)  # the score sheet is up: show "Next game"
    screen = ObjectProperty(None, allownone=True)
    log = StringProperty("")  # the table's last moves in words, newest last (shown while the tray is closed)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.hand: list[int] = []
        self.selected: set[int] = set()
        self.lid_mode = False
        self.drawn: int | None = None
        self.cards: list[HandCard] = []
        self.actions: list[StepButton] = []
        self._built = False

    def _build(self, *_a: Any) -> None:
        """Start following the tray (once, the first time the seat is in a game). The hand's card widgets and the
        action buttons are made the first time the tray opens (:meth:`_more_widgets`) and reused from then on, so
        a bot's seat, whose tray never opens, never has any: a card is a dozen canvas instructions and six
        widgets, and a 4-seat attract game with every seat's 18 cards and 8 buttons built cost about 100 MB more
        under software OpenGL."""
        if self._built:
            return
        self._built = True
        self.ids.tray.bind(is_open=self._fill)
        self._fill()

    def _more_widgets(self, cards: int) -> None:
        """At least ``cards`` card widgets in the hand (up to ``MAX_HAND``), made face down and hidden, and the
        action buttons."""
        while len(self.cards) < min(cards, MAX_HAND):
            b = HandCard(panel=self, slot=len(self.cards), opacity=0, disabled=True)
            self.cards.append(b)
            self.ids.hand.add_widget(b)  # on top of the cards before it (the hand lays the page button over them)
        while len(self.actions) < MAX_ACTIONS:
            a = StepButton(panel=self)
            self.actions.append(a)
            self.ids.actions.add_widget(a)

    # ------------------------------------------------------------------------------------------- input
    def toggle(self, slot: int) -> None:
        if slot >= len(self.hand) or not self.ids.tray.is_open:
            return
        if slot in self.selected:
            self.selected.discard(slot)
        else:
            if self.screen is not None and self.screen.phase_of(self) != PLAY:
                self.selected.clear()  # Blind and Oracle steps: one card at a time
            self.selected.add(slot)
        self.refresh()

    def command(self, command: Any) -> None:
        if self.screen is not None:
            self.screen.command(self, command)

    def show_error(self, message: str, seconds: float = 6.0) -> None:
        super().show_error(message, seconds)

    def who_text(self, who: str, bot: bool, tr: Any) -> str:
        """Who sits here (the session's ``Player``, ``Bot (easy)``) in the seat's language."""
        if not bot:
            return str(tr.gettext("Player"))
        if not who or who.isupper():  # a replay's guest: the initials entered for that game, or none
            return who
        level = who[len("Bot (") : -1] if who.startswith("Bot (") and who.endswith(")") else ""
        return str(tr.gettext("Bot ({level})").format(level=tr.level(level)) if level else tr.gettext("Bot"))

    def next_game(self) -> None:
        if self.screen is not None:
            self.screen.next_game()

    # ------------------------------------------------------------------------------------------- drawing
    def refresh(self) -> None:
        if self.screen is not None:
            self.screen.fill_panel(self)
        self._fill()

    def _fill(self, *_a: Any) -> None:
        """Card and action widgets from the panel's data; no card text at all while the tray is closed."""
        if not self._built:
            return
        open_ = self.ids.tray.is_open
        if open_:
            self._more_widgets(len(self.hand))
        enabled = self.screen.enabled_cards(self) if (self.screen is not None and open_) else set()
        for i, b in enumerate(self.cards):
            if open_ and i < len(self.hand):
                c = self.hand[i]
                b.code, b.number, b.kind, b.face_up = c, c % 20, c // 20, True
                b.selected = i in self.selected
                b.fresh = c == self.drawn and i == self.hand.index(c)
                # TRANSLATORS: a tag on the card just drawn from the Oracle (a few letters)
                b.new_text, b.new_face = self.tr.gettext("NEW"), self.face
                b.disabled = i not in enabled
                b.opacity = 1
            else:
                b.face_up = False  # no number, no symbol: nothing of the hand on screen
                b.code, b.number, b.kind, b.selected, b.fresh = -1, 0, 0, False, False
                b.disabled = True
                b.opacity = 0
        self.ids.hand.relayout()
        commands = self.screen.commands_for(self) if self.screen is not None else []
        for i, a in enumerate(self.actions):
            if open_ and i < len(commands):
                text, cmd, ok = commands[i]
                a.label, a.command, a.disabled, a.opacity = text, cmd, not ok, 1
                if a.parent is None:  # (the shown ones are always the first: the grid keeps their order)
                    self.ids.actions.add_widget(a)
            else:
                a.label, a.command, a.disabled, a.opacity = "", None, True, 0
                if a.parent is not None and i >= 4:  # an unused button takes no row of the grid
                    a.parent.remove_widget(a)
        self.labels = [text for text, _cmd, ok in commands if ok]
        self.action_rows = max(1, -(-min(len(commands), MAX_ACTIONS) // 4))


load_kv(Path(__file__).with_name("panel.kv"))
