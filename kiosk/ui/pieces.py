"""The table's pieces as Kivy widgets: tiles, recipe cards, Makoto cards, Takoyaki balls and order cards, tokens.

Each piece is a widget with Kivy properties and a kv rule (``pieces.kv`` beside this file, loaded once on
import); none holds a rule of any game: a screen sets the properties from ``state.view(seat)``. Pictures come
from the atlas (:mod:`kiosk.ui.pictures`); without it every piece draws a fallback shape, never nothing.

Rationale and decisions: docs/developer/design.md, section ``kiosk/ui/pieces.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.lang import Builder
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from kiosk.ui import pictures
from kiosk.ui.shapes import rounded_box
from kiosk.ui.typescale import face, min_text_px, register_fonts

__all__ = [
    "Category",
    "categories",
    "use_categories",
    "CategoryLook",
    "category_of",
    "rounded_box",
    "Picture",
    "FinePrint",
    "Ingredient",
    "Pictured",
    "Tile",
    "text_texture",
    "RecipeCard",
    "ActionCard",
    "Token",
    "TitleBanner",
]


@dataclass(frozen=True)
class Category:
    """An ingredient category's look: ``symbol`` (the colour-blind cue) and ``rgba`` (the tile colour)."""

    symbol: str
    rgba: tuple[float, float, float, float]
    name: str


#: A category's look as a game's ``look.CATEGORIES`` declares it: symbol, rgba, name.
CategoryLook = tuple[str, tuple[float, float, float, float], str]
UNKNOWN = Category("?", (0.80, 0.80, 0.80, 1), "other")
TEACUP_RGBA = (0.62, 0.45, 0.32, 1)
EMPTY_RGBA = (1, 1, 1, 0.08)
_CATEGORIES: dict[str, Category] = {}


def use_categories(games: Mapping[str, Mapping[str, CategoryLook]]) -> None:
    """The ingredient categories' looks the tiles draw: ``games`` maps a game key to its ``look.CATEGORIES``
    (category -> symbol, rgba, name; as the registry's :func:`kiosk.games.categories_of` gives them), handed by
    the caller that knows the games (the app's build, before its first frame). The first game naming a category
    gives its look."""
    found: dict[str, Category] = {}
    for table in games.values():
        for name, (symbol, rgba, title) in table.items():
            found.setdefault(name, Category(symbol, rgba, title))
    _CATEGORIES.clear()
    _CATEGORIES.update(found)


def categories() -> dict[str, Category]:
    """The ingredient categories' looks handed by :func:`use_categories` (none before)."""
    return _CATEGORIES


def category_of(name: str) -> Category:
    """An ingredient category's look (a game's, see :func:`categories`); :data:`UNKNOWN` for none."""
    return categories().get(name, UNKNOWN)


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
    """A square of a board: ``kind`` is the ingredient (``""`` empty, ``"teacup"``), ``category`` its category
    key; ``stack`` (tiles stacked there: ``×N`` badge), ``covered`` (a card lies on it: the picture ``cover``),
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
    #: The picture of what covers a covered square (the game's: the board screen's ``cover_picture``).
    cover = StringProperty("")
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
            cover=self._redraw_later,
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
        # (Kivy's window opens on its first import: not when tools import this module)
        from kivy.core.window import Window

        return max(min_text_px(Window.size), min(self.size) * 0.17)

    def redraw(self, *_a: Any) -> None:
        """Draw the square as its properties say (called once a frame at most, after any change)."""

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
                cover = pictures.picture(self.cover) if self.cover else ""
                if cover:  # the card on the square: its picture, large, over whatever lies under it
                    s = side * 0.5
                    Color(1, 1, 1, 1)
                    Rectangle(source=cover, pos=(self.right - s - 4, y + 4), size=(s, s))
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
                # a stack: how many tiles lie there
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
        # (a Kivy core provider: chosen on first import, once Kivy is set up)
        from kivy.core.text import Label as CoreLabel

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


class Pictured:
    """Mixin (before ``Widget``): an ingredient's ``kind`` and ``category`` give its ``source`` (its picture in the
    atlas), ``symbol`` and ``rgba`` (its category's), kept up to date as they change."""

    kind = StringProperty("")
    category = StringProperty("")
    source = StringProperty("")
    symbol = StringProperty("")
    rgba = ListProperty(list(UNKNOWN.rgba))
    bind: Any  # (the widget's)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(kind=self._look, category=self._look)
        self._look()

    def _look(self, *_a: Any) -> None:
        cat = category_of(self.category)
        self.source = pictures.picture(self.kind) if self.kind else ""
        self.symbol, self.rgba = cat.symbol, list(cat.rgba)


class Ingredient(Pictured, Widget):
    """One ingredient of a recipe card: its picture on its category's colour, and the category symbol."""


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
