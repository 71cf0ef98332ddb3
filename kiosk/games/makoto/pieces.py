"""Makoto's pieces as Kivy widgets: a card (its number sized to fit, Sword and Oracle symbols), card rows that
overlap rather than squeeze, the hand's layout, the centre's fan, deck and backs. Their looks are in
``pieces.kv`` beside this file (loaded once on import); geometry in :mod:`kiosk.games.makoto.cards`."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.widget import Widget

from kiosk.games.makoto.cards import CARD_ASPECT, card_width, row_layout
from kiosk.ui import load_kv, pictures
from kiosk.ui.pieces import text_texture
from kiosk.ui.typescale import min_text_px, register_fonts

__all__ = ["MakotoCard", "CardRow", "HandLayout", "hand_layout", "CardFan", "CardDeck", "CardBacks"]

#: Makoto card kinds, as the engine numbers them (card // 20): normal, Sword, Oracle.
CARD_NORMAL, CARD_SWORD, CARD_ORACLE = 0, 1, 2


class MakotoCard(ButtonBehavior, Widget):
    """A Makoto card face up (``number``, ``kind``: 0 normal, 1 Sword, 2 Oracle) or, with ``face_up`` False,
    its back. ``selected`` lifts it with a frame, ``fresh`` marks a just-drawn card (NEW), ``angle`` turns it
    (degrees, about its centre) in a fan. The number sits in the top-left corner and again large in the middle;
    its size comes from :func:`card_number_size`, so it always fits the card."""

    number = NumericProperty(0)
    kind = NumericProperty(CARD_NORMAL)
    face_up = BooleanProperty(True)
    selected = BooleanProperty(False)
    fresh = BooleanProperty(False)
    angle = NumericProperty(0)
    flip = NumericProperty(1.0)  # drawn scaled by this across (kiosk.ui.motion.flip_in)
    text = StringProperty("")
    source = StringProperty("")
    slot = NumericProperty(0)
    #: a card a player taps (a hand): the fit checker holds it to the touch-target minimum; others ignore touches
    must_touch = BooleanProperty(False)
    #: the width of the card that shows when the next card lies over it (0: the whole card shows): the corner
    #: number is sized to fit in it
    corner = NumericProperty(0)
    owner = ObjectProperty(None, allownone=True)
    #: the mark of a just-drawn card in its reader's language, and its face ("": the kiosk's; CJK for Japanese)
    new_text = StringProperty("NEW")
    new_face = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        from kivy.graphics import InstructionGroup

        self._face = InstructionGroup()  # under the numbers: shadow, face, frame, picture, symbol
        self._top = InstructionGroup()  # over them: NEW, the disabled veil
        super().__init__(**kw)
        self.canvas.insert(0, self._face)  # under the number labels (their canvases are in this one)
        self.canvas.after.insert(0, self._top)  # before the kv rule's PopMatrix
        self._redraw_later = Clock.create_trigger(self.redraw, -1)
        self.bind(number=self._look, kind=self._look, face_up=self._look)
        for name in ("pos", "size", "selected", "fresh", "disabled", "corner", "source", "new_text", "new_face"):
            self.bind(**{name: self._redraw_later})
        self.ids.corner.bind(height=self._redraw_later)  # the symbol sits under the corner number
        self._look()

    def _look(self, *_a: Any) -> None:
        self.text = str(self.number) if self.face_up else ""
        name = {CARD_SWORD: "sword", CARD_ORACLE: "oracle"}.get(self.kind, "")
        self.source = pictures.picture(name) if (name and self.face_up) else ""
        self._redraw_later()

    def redraw(self, *_a: Any) -> None:
        """Draw the card's face (or back) with only the instructions its state needs; the numbers are the two
        labels of its kv rule (the fit checker reads them). A card as kv instructions and child widgets for every
        state (a picture, a symbol and a NEW label even when empty, transparent frames) cost several times more
        memory under software OpenGL, and the table shows 40-odd cards."""
        from kivy.core.window import Window
        from kivy.graphics import Color, Line, Rectangle, RoundedRectangle

        x, y, w, h = self.x, self.y, self.width, self.height
        r = min(w, h) * 0.1
        up, kind = self.face_up, self.kind
        face, top = self._face, self._top
        face.clear()
        top.clear()
        face.add(Color(0, 0, 0, 0.35))
        face.add(RoundedRectangle(pos=(x + 3, y - 3), size=(w, h), radius=[r]))
        if not up:
            rgba: tuple[float, ...] = (0.55, 0.13, 0.16, 1)
        elif kind == CARD_ORACLE:
            rgba = (0.97, 0.86, 0.45, 1)
        elif kind == CARD_SWORD:
            rgba = (0.28, 0.32, 0.42, 1)
        else:
            rgba = (0.98, 0.96, 0.90, 1)
        face.add(Color(*rgba))
        face.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[r]))
        frame = (0.95, 0.78, 0.35, 1) if not up else (0.2, 0.9, 1, 1) if self.selected else (0.35, 0.30, 0.25, 1)
        face.add(Color(*frame))
        face.add(
            Line(rounded_rectangle=(x + 2, y + 2, w - 4, h - 4, min(w, h) * 0.09), width=3 if self.selected else 1.2)
        )
        if up and self.source and not self.corner:
            # Sword or Oracle: its picture in the bottom-right corner
            s = w * 0.34
            face.add(Color(1, 1, 1, 1))
            face.add(Rectangle(source=self.source, pos=(self.right - s - w * 0.04, y + w * 0.04), size=(s, s)))
        elif up and self.symbol:
            # Sword or Oracle without pictures, or covered: the symbol, under the corner number
            px = max(min_text_px(Window.size), min(w * 0.3, (self.corner or w) * 0.5))
            tex = text_texture(self.symbol, px)
            if self.corner:
                at = (x + w * 0.06, y + h * 0.97 - self.ids.corner.height - tex.height - 2)
            else:
                at = (self.right - tex.width - w * 0.08, y + w * 0.06)
            face.add(Color(*((1, 1, 1, 1) if kind == CARD_SWORD else (0.55, 0.25, 0.0, 1))))
            face.add(Rectangle(texture=tex, size=tex.size, pos=at))
        if self.fresh:
            px = max(min_text_px(Window.size), w * 0.2)
            tex = _word_texture(self.new_text, px, self.new_face)
            top.add(Color(0.85, 0.15, 0.12, 1))
            top.add(Rectangle(pos=(x + 4, y + 4), size=(tex.width + 6, tex.height)))
            top.add(Color(1, 1, 1, 1))
            top.add(Rectangle(texture=tex, size=tex.size, pos=(x + 7, y + 4)))
        if self.disabled and up:
            top.add(Color(0, 0, 0, 0.35))
            top.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[r]))

    @property
    def symbol(self) -> str:
        return {CARD_SWORD: "\u2694", CARD_ORACLE: "\u2600"}.get(self.kind, "")

    def on_touch_down(self, touch: Any) -> bool:
        if not self.must_touch:
            return False
        return bool(super().on_touch_down(touch))

    def on_release(self) -> None:
        if self.owner is not None and hasattr(self.owner, "card_pressed"):
            self.owner.card_pressed(self)


_WORDS: dict[tuple[str, int, str], Any] = {}


def _word_texture(text: str, px: float, font: str) -> Any:
    """A bold word's texture in ``font`` (``""``: :func:`~kiosk.ui.pieces.text_texture`, the kiosk's face for it)."""
    if not font:
        return text_texture(text, px, bold=True)
    key = (text, max(1, int(round(px))), font)
    tex = _WORDS.get(key)
    if tex is None:
        from kivy.core.text import Label as CoreLabel

        core = CoreLabel(text=text, font_size=key[1], bold=True, font_name=font)
        core.refresh()
        tex = _WORDS[key] = core.texture
    return tex


class CardRow(Widget):
    """A row of Makoto cards (a hand, the Blind): ``cards`` is a list of ``(number, kind)``; overlapping and
    wrapping as :func:`row_layout` decides. ``min_step`` is the least visible strip of a covered card (set it to
    the touch-target minimum for a hand). Tapped cards call ``on_card(index)`` via the ``card`` event."""

    cards = ListProperty([])
    selected = ListProperty([])  # indexes
    fresh = NumericProperty(-1)
    disabled_cards = ListProperty([])  # indexes
    face_up = BooleanProperty(True)
    min_step = NumericProperty(44)
    max_rows = NumericProperty(2)
    touchable = BooleanProperty(False)  # a hand: its cards take taps (the ``on_card`` event)
    __events__ = ("on_card",)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.widgets: list[MakotoCard] = []
        self._later = Clock.create_trigger(self._relayout, -1)  # one relayout a frame, however many changes
        self.bind(
            cards=self._later,
            pos=self._later,
            size=self._later,
            selected=self._later,
            fresh=self._later,
            disabled_cards=self._later,
            face_up=self._later,
            min_step=self._later,
            touchable=self._later,
        )
        self._relayout()

    def on_card(self, index: int) -> None:
        pass

    def card_pressed(self, card: MakotoCard) -> None:
        self.dispatch("on_card", card.slot)

    def _relayout(self, *_a: Any) -> None:
        n = len(self.cards)
        while len(self.widgets) < n:  # reuse card widgets: a new hand does not rebuild them
            w = MakotoCard(owner=self, size_hint=(None, None))
            self.widgets.append(w)
        for w in self.widgets[n:]:
            if w.parent is not None:
                self.remove_widget(w)
        cw, ch, step, per_row = row_layout(n, self.width, self.height, min_step=self.min_step, max_rows=self.max_rows)
        rows = math.ceil(n / per_row) if per_row else 0
        gap = 4.0
        total_h = rows * ch + (rows - 1) * gap
        for i, (w, (number, kind)) in enumerate(zip(self.widgets, self.cards)):
            r, c = divmod(i, per_row) if per_row else (0, 0)
            w.slot = i
            w.number, w.kind, w.face_up = int(number), int(kind), self.face_up
            w.selected = i in self.selected
            w.fresh = i == self.fresh
            w.disabled = i in self.disabled_cards
            w.must_touch = self.touchable
            w.size = (cw, ch)
            last = c == per_row - 1 or i == n - 1
            w.corner = 0 if last or step >= cw else step
            w.x = self.x + c * step
            w.top = self.y + (self.height + total_h) / 2 - r * (ch + gap) + (ch * 0.08 if w.selected else 0)
            if w.parent is None:
                self.add_widget(w)  # added in order: a later card lies on top and takes the touch first


class HandLayout(Widget):
    """Lays out its children, Makoto cards (added in hand order), as :func:`row_layout` does: the visible ones
    (opacity above 0) overlap and wrap, keeping ``min_step`` of each in view; hidden ones shrink to nothing so
    they take no touch. For a hand whose card widgets are reused from game to game; call :meth:`relayout` (or
    change size/pos) after showing or hiding cards."""

    min_step = NumericProperty(44)
    max_rows = NumericProperty(2)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._later = Clock.create_trigger(self.relayout, -1)
        self.bind(pos=self._later, size=self._later, min_step=self._later, children=self._later)

    def relayout(self, *_a: Any) -> None:
        cards = [w for w in reversed(self.children) if w.opacity > 0]
        for w in self.children:
            if w.opacity <= 0:
                w.size_hint = (None, None)
                w.size = (0, 0)
                w.pos = self.pos
        self.place(cards)

    def place(self, cards: list[Any]) -> None:
        """Lay ``cards`` out in overlapping rows (:func:`hand_layout`), each covered card keeping its corner."""
        n = len(cards)
        if not n:
            return
        cw, ch, step, per_row, rise = hand_layout(n, self.width, self.height, self.min_step, int(self.max_rows))
        rows = math.ceil(n / per_row)
        top = self.y + (self.height + ch + (rows - 1) * rise) / 2
        for i, w in enumerate(cards):
            r, c = divmod(i, per_row)
            last_in_row = c == per_row - 1 or i == n - 1
            covered_below = r < rows - 1 and rise < ch  # the next row lies over this card's lower part
            w.size_hint = (None, None)
            w.size = (cw, ch)
            w.corner = step if (step < cw and not last_in_row) else (cw if covered_below else 0)
            w.x = self.x + c * step
            w.top = top - r * rise


def hand_layout(
    n: int, width: float, height: float, touch: float, max_rows: int = 3
) -> tuple[float, float, float, int, float]:
    """A hand of ``n`` cards in a box: ``(card_w, card_h, step, per_row, rise)``. Each card keeps at least a
    ``touch`` x ``touch`` corner in view (its number's corner: the next card in the row covers its right part,
    the next row its lower part, each by at most that much), so every card is a full touch target; the fewest
    rows that allow that, the largest cards that fit.

    >>> cw, ch, step, per_row, rise = hand_layout(14, 620, 160, 44)
    >>> per_row, step >= 44, rise >= 44, ch <= 160
    (7, True, True, True)
    """
    gap = 4.0
    best: tuple[float, float, float, int, float] | None = None
    for rows in range(1, max(1, max_rows) + 1):
        per_row = math.ceil(n / rows)
        rise = touch if rows > 1 else 0.0
        ch = height - (rows - 1) * rise
        if ch < touch:
            break
        cw = max(touch, min(card_width(ch), width))
        ch = min(ch, cw / CARD_ASPECT) if cw > touch else ch
        if rows > 1:
            rise = max(touch, min(ch + gap, (height - ch) / (rows - 1)))
        step = cw + gap if per_row * (cw + gap) - gap <= width else (width - cw) / max(1, per_row - 1)
        best = (cw, ch, step, per_row, rise)
        if step >= touch or per_row == 1:
            return best
    if best is None:  # not even one row of touch-sized cards: as large as the box allows
        ch = max(1.0, height)
        cw = min(card_width(ch), width)
        return cw, ch, max(1.0, (width - cw) / max(1, n - 1)), n, 0.0
    return best


class CardFan(Widget):
    """The combination on the table, fanned: ``cards`` as ``(number, kind)``, turned a few degrees each about
    the fan's foot; every number stays in view. ``label`` names who played it (empty: nothing on the table)."""

    cards = ListProperty([])
    label = StringProperty("")
    face = StringProperty("")  # the label's face ("": the kiosk's for its characters; the CJK face for Japanese)
    spread = NumericProperty(9.0)  # degrees between two cards

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.widgets: list[MakotoCard] = []
        self._later = Clock.create_trigger(self._relayout, -1)
        self.bind(cards=self._later, pos=self._later, size=self._later)
        self._relayout()

    def _relayout(self, *_a: Any) -> None:
        n = len(self.cards)
        while len(self.widgets) < n:
            self.widgets.append(MakotoCard(size_hint=(None, None)))
        for w in self.widgets[n:]:
            if w.parent is not None:
                self.remove_widget(w)
        # the label takes a line at the bottom of the fan's box; the cards stand above it
        label_h = self.label_height()
        ch = max(1.0, (self.height - label_h) * 0.86)
        cw = card_width(ch)
        lift = cw * 0.2 if n > 1 else 0.0  # a turned card's lower corner dips: keep it off the label
        step = min(cw * 0.55, (self.width - cw) / max(1, n - 1)) if n > 1 else 0
        left = self.center_x - (cw + step * (n - 1)) / 2
        for i, (w, (number, kind)) in enumerate(zip(self.widgets, self.cards)):
            w.number, w.kind, w.face_up = int(number), int(kind), True
            w.size = (cw, ch)
            w.corner = 0 if i == n - 1 or step >= cw else step
            w.x = left + i * step
            w.y = self.y + label_h + lift - abs(i - (n - 1) / 2) * ch * 0.02
            w.angle = (((n - 1) / 2) - i) * self.spread
            if w.parent is None:
                self.add_widget(w)

    def label_height(self) -> float:
        from kivy.core.window import Window

        return max(min_text_px(Window.size) * 1.5, self.height * 0.16) if self.label else 0.0


class CardDeck(Widget):
    """A face-down pile (the Oracle deck) with its ``count`` on it; ``label`` names it; ``picture`` on the back."""

    count = NumericProperty(0)
    label = StringProperty("")
    face = StringProperty("")  # the label's face, as :attr:`CardFan.face`
    picture = StringProperty("oracle")
    source = StringProperty("")

    def on_picture(self, _w: Any, name: str) -> None:
        self.source = pictures.picture(name)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.source = pictures.picture(self.picture)


class CardBacks(Widget):
    """An opponent's hand: a few card backs fanned, and the ``count`` of cards held in words beside them."""

    count = NumericProperty(0)


register_fonts()
load_kv(Path(__file__).with_name("pieces.kv"))
