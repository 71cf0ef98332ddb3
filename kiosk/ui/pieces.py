"""The table's pieces as Kivy widgets: tiles, recipe cards, Makoto cards, Takoyaki balls and order cards, tokens.

Each piece is a widget with Kivy properties and a kv rule (``pieces.kv`` beside this file, loaded once on
import); none holds a rule of any game: a screen sets the properties from ``state.view(seat)``. Pictures come
from the atlas (:mod:`kiosk.ui.pictures`); without it every piece draws a fallback shape, never nothing.

Decisions, written down:

* **Colour is never the only cue.** An ingredient tile carries its picture *and* its category's colour and
  symbol (:data:`CATEGORIES`: R rice, M misc/maki, F fish, V vegetables, S seafood, ★ special), in a corner
  badge; a recipe card repeats each ingredient's badge. Makoto's Sword and Oracle cards carry their symbol; a
  raw Takoyaki ball has a lower-case letter and a pale batter face, a fried one an upper-case letter, a golden
  crust, its sauce on top and a mayonnaise zigzag.
* **Pictures carry the meaning on the shared board** (readable from every side); words are for the trays.
* **A Makoto card is never too narrow for its number.** A card's number is sized from the card's width and the
  number's digit count, and card rows never squeeze a card below :func:`card_width` for its height: they
  overlap cards instead (each card keeps its top-left corner, with its number, in view and at least a touch
  target's width), and a row that still does not fit wraps onto a second line.
* Pieces size their text from their own size; the type scale (:mod:`kiosk.ui.typescale`) and the widget-tree
  checker (:mod:`kiosk.ui.fit`) keep the result readable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from kiosk.ui import pictures
from kiosk.ui.cards import CARD_ASPECT, card_number_size, card_width, rounded_box, row_layout
from kiosk.ui.typescale import min_text_px, register_fonts

__all__ = [
    "Category",
    "CATEGORIES",
    "category_of",
    "rounded_box",
    "Picture",
    "FinePrint",
    "Ingredient",
    "Tile",
    "text_texture",
    "RecipeCard",
    "ActionCard",
    "MakotoCard",
    "CardRow",
    "CardFan",
    "HandLayout",
    "CardDeck",
    "CardBacks",
    "TakoBall",
    "TakoOrderCard",
    "Token",
    "TitleBanner",
    "card_width",
    "hand_layout",
    "card_number_size",
    "row_layout",
    "BALL_RGBA",
    "BALL_LETTER",
]


@dataclass(frozen=True)
class Category:
    """An ingredient category's look: ``symbol`` (the colour-blind cue) and ``rgba`` (the tile colour)."""

    symbol: str
    rgba: tuple[float, float, float, float]
    name: str


#: Every category of both games' card data (Maki: base, misc, fish, veg, seafood, special; Wasabi!: rice, maki,
#: fish, vegetables, seafood, special). Letters, not colours, are the cue; colours only help.
CATEGORIES: dict[str, Category] = {
    "base": Category("R", (0.95, 0.93, 0.85, 1), "rice"),
    "rice": Category("R", (0.95, 0.93, 0.85, 1), "rice"),
    "misc": Category("M", (0.80, 0.72, 0.90, 1), "misc"),
    "maki": Category("M", (0.55, 0.70, 0.50, 1), "maki"),
    "fish": Category("F", (0.98, 0.62, 0.50, 1), "fish"),
    "veg": Category("V", (0.60, 0.86, 0.48, 1), "vegetables"),
    "vegetables": Category("V", (0.60, 0.86, 0.48, 1), "vegetables"),
    "seafood": Category("S", (0.55, 0.78, 1.00, 1), "seafood"),
    "special": Category("\u2605", (1.00, 0.85, 0.35, 1), "special"),
}
UNKNOWN = Category("?", (0.80, 0.80, 0.80, 1), "other")
TEACUP_RGBA = (0.62, 0.45, 0.32, 1)
EMPTY_RGBA = (1, 1, 1, 0.08)
WASABI_RGBA = (0.40, 0.74, 0.30, 1)

#: Takoyaki ball colours (the sauce) and letters: red, green, blue.
BALL_RGBA: dict[int, tuple[float, float, float, float]] = {
    1: (0.90, 0.25, 0.22, 1),
    2: (0.22, 0.70, 0.30, 1),
    3: (0.25, 0.45, 0.95, 1),
}
BALL_LETTER = {1: "R", 2: "G", 3: "B"}

#: Makoto card kinds, as the engine numbers them (card // 20): normal, Sword, Oracle.
CARD_NORMAL, CARD_SWORD, CARD_ORACLE = 0, 1, 2


def category_of(name: str) -> Category:
    return CATEGORIES.get(name, UNKNOWN)


class Picture(Widget):
    """A picture from the atlas (``name``: see :data:`kiosk.ui.pictures.PICTURES`), or, without the atlas, a
    rounded shape in ``fallback_rgba`` with ``symbol`` on it."""

    name = StringProperty("")
    source = StringProperty("")
    symbol = StringProperty("")
    fallback_rgba = ListProperty([0.8, 0.8, 0.8, 1])

    def on_name(self, _w: Any, name: str) -> None:
        self.source = pictures.picture(name) if name else ""
        if not self.symbol:
            self.symbol = name[:2].title()


class Tile(ButtonBehavior, Widget):
    """A square of the Maki / Wasabi! board: ``kind`` is the ingredient (``""`` empty, ``"teacup"``),
    ``category`` its category key; ``stack`` (Wasabi! stacks: ``×N`` badge), ``covered`` (under a Wasabi card),
    ``eligible`` (the acting player may tap it: a ``+``), ``selected`` (a thick double frame), ``cell`` (the
    square's name, ``B3``, small in a corner).

    A board has 42 of them and they are most of what the table draws, so a tile draws itself in one canvas
    (:meth:`redraw`) with only the instructions its state needs, and no child widgets: its words (the category
    symbol, the square's name, the stack count, the ``+``) are textures shared by every tile
    (:func:`text_texture`). Every square as child widgets (two images, five labels, ~13 canvas instructions even
    when empty) cost about 0.5 MB of resident memory per square under software OpenGL. The category symbol is
    never under the type scale's minimum (:attr:`symbol_px`)."""

    kind = StringProperty("")
    category = StringProperty("")
    stack = NumericProperty(0)
    covered = BooleanProperty(False)
    eligible = BooleanProperty(False)
    selected = BooleanProperty(False)
    cell = StringProperty("")
    source = StringProperty("")
    symbol = StringProperty("")
    rgba = ListProperty(list(EMPTY_RGBA))

    def __init__(self, **kw: Any) -> None:
        #: the words drawn on the square, as drawn (symbol, stack count, name, ``+``): for tests and descriptions
        self.words: list[str] = []
        super().__init__(**kw)
        self._redraw_later = Clock.create_trigger(self.redraw, -1)
        self.bind(kind=self._look, category=self._look)
        self.bind(
            pos=self._redraw_later,
            size=self._redraw_later,
            stack=self._redraw_later,
            covered=self._redraw_later,
            eligible=self._redraw_later,
            selected=self._redraw_later,
            cell=self._redraw_later,
            source=self._redraw_later,
            symbol=self._redraw_later,
            rgba=self._redraw_later,
        )
        self._look()

    def _look(self, *_a: Any) -> None:
        kind = self.kind
        if not kind:
            self.source, self.symbol, self.rgba = "", "", list(EMPTY_RGBA)
        elif kind == "teacup":
            self.source, self.symbol, self.rgba = pictures.picture("teacup"), "CUP", list(TEACUP_RGBA)
        else:
            cat = category_of(self.category)
            self.source, self.symbol, self.rgba = pictures.picture(kind), cat.symbol, list(cat.rgba)
        self._redraw_later()

    @property
    def symbol_px(self) -> float:
        """The corner symbol's font size: a fraction of the square, never under the reading minimum."""
        from kivy.core.window import Window

        return max(min_text_px(Window.size), min(self.size) * 0.17)

    def redraw(self, *_a: Any) -> None:
        """Draw the square as its properties say (called once a frame at most, after any change)."""
        from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle

        x, y, w, h = self.x, self.y, self.width, self.height
        side = min(w, h)
        filled = bool(self.kind)
        words: list[str] = []
        self.canvas.clear()
        with self.canvas:
            Color(*self.rgba)
            RoundedRectangle(pos=(x + 2, y + 2), size=(w - 4, h - 4), radius=[side * 0.12])
            if self.covered:
                Color(0.2, 0.9, 0.25, 1)
                Line(rounded_rectangle=(x + 4, y + 4, w - 8, h - 8, side * 0.1), width=2.5)
            if self.source:
                # the ingredient (or teacup) picture, centred, most of the square
                s = side * 0.66
                Color(1, 1, 1, 1)
                Rectangle(
                    source=self.source, pos=(self.center_x - s / 2, self.center_y - side * 0.02 - s / 2), size=(s, s)
                )
            if self.covered:
                wasabi = pictures.picture("wasabi")
                if wasabi:  # a Wasabi card on the square: its plant, large, over whatever lies under it
                    s = side * 0.5
                    Color(1, 1, 1, 1)
                    Rectangle(source=wasabi, pos=(self.right - s - 4, y + 4), size=(s, s))
            if filled and not self.source and self.symbol:
                # without pictures: the symbol large (the category letter, or CUP)
                tex = text_texture(self.symbol, side * 0.34, bold=True)
                words.append(self.symbol)
                Color(0.08, 0.08, 0.10, 1)
                Rectangle(
                    texture=tex, size=tex.size, pos=(self.center_x - tex.width / 2, self.center_y - tex.height / 2)
                )
            if filled and self.kind != "teacup" and self.source and self.symbol:
                # the category badge in the top-right corner: the colour-blind cue
                px = self.symbol_px
                d = max(px * 1.45, side * 0.26)
                dx, dy = self.right - d - 4, self.top - d - 4
                tex = text_texture(self.symbol, px, bold=True)
                words.append(self.symbol)
                Color(1, 1, 1, 0.85)
                Ellipse(pos=(dx, dy), size=(d, d), segments=20)
                Color(0.08, 0.08, 0.10, 1)
                Rectangle(texture=tex, size=tex.size, pos=(dx + (d - tex.width) / 2, dy + (d - tex.height) / 2))
            if self.stack > 1:
                # a Wasabi! stack: how many tiles lie there
                words.append(f"\u00d7{int(self.stack)}")
                tex = text_texture(words[-1], max(self.symbol_px, side * 0.2), bold=True)
                Color(0.1, 0.1, 0.14, 0.85)
                RoundedRectangle(pos=(x + 4, y + 4), size=(tex.width + 8, tex.height), radius=[4])
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, size=tex.size, pos=(x + 8, y + 4))
            if self.cell:
                # the square's name (B3): the action buttons use the same names; a tag >B3< when selected
                name = ("\u25b6" + self.cell + "\u25c0") if self.selected else self.cell
                tex = text_texture(name, side * 0.15, bold=self.selected)
                words.append(name)
                Color(*((0, 0, 0, 0.5) if filled else (1, 1, 1, 0.45)))
                Rectangle(texture=tex, size=tex.size, pos=(x + 5, self.top - tex.height - 3))
            if self.eligible:
                # a square the acting player may tap: a big "+" when empty, a small one in the corner when filled
                big = not filled and not self.covered
                tex = text_texture("+", side * (0.45 if big else 0.2), bold=True)
                words.append("+")
                Color(*((1, 0.9, 0.4, 1) if self.selected else ((1, 1, 1, 0.55) if not filled else (0, 0, 0, 0.6))))
                at = (self.center_x - tex.width / 2, self.center_y - tex.height / 2) if big else (x + 6, y + 2)
                Rectangle(texture=tex, size=tex.size, pos=at)
            if self.selected:
                # selected: a thick outer frame and a thin inner one (a shape, not only colour)
                Color(1, 0.82, 0.1, 1)
                Line(rectangle=(x + 3, y + 3, w - 6, h - 6), width=4)
                Color(1, 1, 1, 0.9)
                Line(rectangle=(x + 12, y + 12, w - 24, h - 24), width=1.3)
        self.words = words


_TEXTURES: dict[tuple[str, int, bool], Any] = {}


def text_texture(text: str, px: float, bold: bool = False) -> Any:
    """The texture of ``text`` set in white at ``px`` (a whole pixel size) in the kiosk's face for it, shared by
    every caller (a piece tints it with a ``Color``): the board's 42 squares draw a handful of symbols and names."""
    key = (text, max(1, int(round(px))), bold)
    tex = _TEXTURES.get(key)
    if tex is None:
        from kivy.core.text import Label as CoreLabel

        from kiosk.ui.typescale import face

        core = CoreLabel(text=text, font_size=key[1], bold=bold, font_name=face(text))
        core.refresh()
        tex = core.texture
        if len(_TEXTURES) >= 512:  # sizes change with the window; old ones are not needed again
            _TEXTURES.clear()
        _TEXTURES[key] = tex
    return tex


class FinePrint(Label):
    """Text nobody needs to read to play (a square's name in a corner): the fit checker does not hold it to the
    reading minimum, only to fitting its box."""

    must_read = BooleanProperty(False)


class Ingredient(Widget):
    """One ingredient of a recipe card: its picture on its category's colour, and the category symbol."""

    kind = StringProperty("")
    category = StringProperty("")
    source = StringProperty("")
    symbol = StringProperty("")
    rgba = ListProperty(list(UNKNOWN.rgba))

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(kind=self._look, category=self._look)
        self._look()

    def _look(self, *_a: Any) -> None:
        cat = category_of(self.category)
        self.source = pictures.picture(self.kind) if self.kind else ""
        self.symbol, self.rgba = cat.symbol, list(cat.rgba)


class RecipeCard(Widget):
    """A recipe: its ``name``, its ``ingredients`` (kind names, in card order) with their ``categories``,
    ``points`` and ``style`` (Wasabi earned for serving in order). ``done`` marks a completed recipe (a green card;
    ``count`` above 1 draws it as a stack of that many, ``×N``), ``ready`` one its seat can serve right now (a gold
    frame and a tick: a shape as well as a colour).

    The ingredients are a row of pictures, each on its category's colour with the category symbol (the order
    on the card is the order that earns style), under the name; the name wraps onto a second line rather than
    being cut, and the pictures take the room left under it."""

    name = StringProperty("")
    ingredients = ListProperty([])
    categories = ListProperty([])
    points = NumericProperty(0)
    style = NumericProperty(0)
    done = BooleanProperty(False)
    ready = BooleanProperty(False)
    count = NumericProperty(1)
    #: no name, only the pictures' row and the points (a narrow tray beside the buttons: the buttons name it)
    compact = BooleanProperty(False)
    #: the name's and the points' size (px): never under the reading minimum
    title_px = NumericProperty(18.0)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.slots: list[Ingredient] = []
        self._later = Clock.create_trigger(self._relayout, -1)  # one relayout a frame, however many changes
        self.bind(ingredients=self._later, categories=self._later, pos=self._later, size=self._later)
        for part in ("title", "badge"):
            if part in self.ids:
                self.ids[part].bind(height=self._later, width=self._later, opacity=self._later)
        self._relayout()

    def _relayout(self, *_a: Any) -> None:
        n = len(self.ingredients)
        while len(self.slots) < n:
            self.slots.append(Ingredient(size_hint=(None, None)))
        for w in self.slots[n:]:
            if w.parent is not None:
                self.remove_widget(w)
        pad = max(3.0, self.height * 0.05)
        title, badge = self.ids.get("title"), self.ids.get("badge")
        head = title.height + 4 if title is not None and title.height > 0 else 0.0
        right = badge.width + 10 if badge is not None and badge.opacity and self.compact else 0.0
        if title is not None and badge is not None and badge.opacity and not self.compact:
            head = max(head, badge.height + 6)
        band = max(1.0, self.height - head - 2 * pad)  # the pictures' row, under the name, left of the points
        side = max(1.0, min(band, (self.width - 2 * pad - right) / max(1, n) - 4))
        left = self.x + pad + 2
        cats = list(self.categories) + [""] * n
        for i, (w, kind) in enumerate(zip(self.slots, self.ingredients)):
            w.kind, w.category = kind, cats[i]
            w.size = (side, side)
            w.pos = (left + i * (side + 4), self.y + pad + (band - side) / 2)
            if w.parent is None:
                self.add_widget(w)


class ActionCard(Widget):
    """An action card (Maki's Switch, Chop, ...; Wasabi!'s Kitchen cards) face up: its ``picture`` (from the card's
    name, :func:`kiosk.ui.pictures.picture_name`) and, when ``named``, its ``name`` under it (wrapping onto two
    lines rather than cut); ``count`` above 1 draws ``×N`` (a pile), 0 an empty pile (dimmed). A picture only
    (``named`` False) for the small cards a seat holds, where the name would not fit; the tray and the display
    name them."""

    name = StringProperty("")
    source = StringProperty("")
    count = NumericProperty(1)
    named = BooleanProperty(True)
    fresh = BooleanProperty(False)

    def on_name(self, _w: Any, name: str) -> None:
        self.source = pictures.picture(pictures.picture_name(name)) if name else ""


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

    def __init__(self, **kw: Any) -> None:
        from kivy.graphics import InstructionGroup

        self._face = InstructionGroup()  # under the numbers: shadow, face, frame, picture, symbol
        self._top = InstructionGroup()  # over them: NEW, the disabled veil
        super().__init__(**kw)
        self.canvas.insert(0, self._face)  # under the number labels (their canvases are in this one)
        self.canvas.after.insert(0, self._top)  # before the kv rule's PopMatrix
        self._redraw_later = Clock.create_trigger(self.redraw, -1)
        self.bind(number=self._look, kind=self._look, face_up=self._look)
        for name in ("pos", "size", "selected", "fresh", "disabled", "corner", "source"):
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
            tex = text_texture("NEW", px, bold=True)
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


class TakoBall(Widget):
    """A Takoyaki ball: ``colour`` (1 red, 2 green, 3 blue), ``fried`` (side up). Raw: the pale batter side,
    the sauce's colour only as a rim at the bottom, a lower-case letter. Fried: a golden crust, the sauce on
    top in its colour, a white mayonnaise zigzag, an upper-case letter on a cream disc. ``dragging`` draws its
    shadow. The letter (``letter_px``, set by its kv rule) is 0.4 of the ball and never under the type scale's
    minimum: a ball must be at least 2.5 times that minimum across for its letter to stay inside it (a grill's
    or an order card's layout sees to it)."""

    colour = NumericProperty(1)
    fried = BooleanProperty(False)
    dragging = BooleanProperty(False)
    letter = StringProperty("r")
    letter_px = NumericProperty(14.0)
    sauce = ListProperty(list(BALL_RGBA[1]))

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(colour=self._look, fried=self._look)
        self._look()

    def _look(self, *_a: Any) -> None:
        c = int(self.colour) if int(self.colour) in BALL_RGBA else 1
        self.sauce = list(BALL_RGBA[c])
        self.letter = BALL_LETTER[c] if self.fried else BALL_LETTER[c].lower()


#: The share of an order card's space taken by a ball (the rest is the gap between two balls).
CARD_BALL = 0.84


class TakoOrderCard(Widget):
    """An order card (3 rows x 4 columns as its seat sees it): ``cells`` 12 colours or 0. A header band (``head``
    px high, set by its kv rule: at least 1.45 times the type scale's minimum) names the halves, "raw side" and
    (with fire) "fried"; the two right columns are the heated half: their balls are drawn fried, the left,
    unheated half's balls raw, as the order asks. ``shown`` False draws the card's back (a "?": not revealed
    yet). :func:`card_width` is the width whose spaces are square for a height."""

    cells = ListProperty([0] * 12)
    shown = BooleanProperty(True)
    hot_source = StringProperty("")
    head = NumericProperty(20.0)
    flip = NumericProperty(1.0)  # drawn scaled by this across (kiosk.ui.motion.flip_in)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.hot_source = pictures.picture("hot")
        self.balls: list[TakoBall] = []
        self._later = Clock.create_trigger(self._relayout, -1)
        self.bind(cells=self._later, pos=self._later, size=self._later, shown=self._later, head=self._later)
        self._relayout()

    @staticmethod
    def card_width(height: float, head: float) -> float:
        """The width of a card ``height`` high with a ``head`` band whose 3 x 4 spaces are square."""
        return max(0.0, height - head) * 4 / 3

    def _relayout(self, *_a: Any) -> None:
        # the band at the top names the halves; the 3 x 4 spaces below it
        cell = max(0.0, min(self.width / 4, (self.height - self.head) / 3))
        ox = self.x + (self.width - cell * 4) / 2
        oy = self.y + (self.height - self.head - cell * 3) / 2
        coloured = [(s, c) for s, c in enumerate(self.cells) if c] if self.shown else []
        while len(self.balls) < len(coloured):
            self.balls.append(TakoBall(size_hint=(None, None)))
        for b in self.balls[len(coloured) :]:
            if b.parent is not None:
                self.remove_widget(b)
        for b, (s, c) in zip(self.balls, coloured):
            row, col = divmod(s, 4)
            b.colour = c
            b.fried = col >= 2
            b.size = (cell * CARD_BALL, cell * CARD_BALL)
            b.center = (ox + (col + 0.5) * cell, oy + (2 - row + 0.5) * cell)
            if b.parent is None:
                self.add_widget(b)


class Token(Widget):
    """A round token: a ``picture`` (or ``text``, e.g. points) on a disc of ``rgba``, with an optional ``count``
    badge (``×N`` when above 1)."""

    picture = StringProperty("")
    source = StringProperty("")
    text = StringProperty("")
    count = NumericProperty(1)
    rgba = ListProperty([0.96, 0.93, 0.85, 1])

    def on_picture(self, _w: Any, name: str) -> None:
        self.source = pictures.picture(name) if name else ""


class TitleBanner(Widget):
    """The table's title with the games' pictures under it (attract mode): ``title``, ``subtitle`` and ``games``,
    a list of game keys (each drawn as its ``game_<key>`` picture with the game's title beneath, ``titles``)."""

    title = StringProperty("")
    subtitle = StringProperty("")
    games = ListProperty([])
    titles = ListProperty([])

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.badges: list[Picture] = []
        self._later = Clock.create_trigger(self._relayout, -1)
        self.bind(games=self._later, pos=self._later, size=self._later)
        self._relayout()

    def _relayout(self, *_a: Any) -> None:
        n = len(self.games)
        while len(self.badges) < n:
            self.badges.append(Picture(size_hint=(None, None)))
        for w in self.badges[n:]:
            if w.parent is not None:
                self.remove_widget(w)
        side = min(self.height * 0.42, self.width / max(1, n) * 0.6)
        gap = side * 0.5
        left = self.center_x - (n * side + (n - 1) * gap) / 2
        for i, (w, key) in enumerate(zip(self.badges, self.games)):
            w.symbol = (self.titles[i] if i < len(self.titles) else key)[:1].upper()
            w.name = f"game_{key}"
            w.size = (side, side)
            w.pos = (left + i * (side + gap), self.y + self.height * 0.08)
            if w.parent is None:
                self.add_widget(w)


_loaded = False


def load_kv() -> None:
    """Load ``pieces.kv`` once (a second load would duplicate its rules)."""
    global _loaded
    if not _loaded:
        register_fonts()
        Builder.load_file(str(Path(__file__).with_name("pieces.kv")))
        _loaded = True


load_kv()
