"""The board screen's pieces: board squares, pantry and tray tiles, counters, decks, seat lines, piece rows and the
recipe shelf (their kv rules are in ``kiosk/board/board.kv``). They hold no rule: the screen sets their properties."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from kiosk.engine import Action
from kiosk.ui import pictures
from kiosk.ui.fitting import laid_out
from kiosk.ui.hold import HoldExplains
from kiosk.ui.pieces import ActionCard, Ingredient, Pictured, RecipeCard, Tile
from kiosk.ui.typescale import face, min_target_px, min_text_px

if TYPE_CHECKING:
    from kiosk.board.board import BoardScreen

#: The public column's pieces (:class:`Counter` looks): a Wasabi cube, a served recipe, a recipe's back, a tile's
#: back, an action card's back.
WASABI_DISC = (0.40, 0.74, 0.30, 1)
SERVED_CARD = (0.30, 0.55, 0.32, 1)
RECIPE_BACK = (0.66, 0.16, 0.20, 1)
TILE_BACK = (0.62, 0.52, 0.36, 1)
ACTION_BACK = (0.55, 0.38, 0.18, 1)


def wasabi_counter(count: int) -> tuple[str, str, tuple[float, ...], int, str]:
    """A :class:`SeatLine` counter: Wasabi cubes (the plant on a green disc)."""
    return ("wasabi", "disc", WASABI_DISC, count, "W")


def served_counter(count: int) -> tuple[str, str, tuple[float, ...], int, str]:
    """A :class:`SeatLine` counter: recipes served or completed (a green card with a tick)."""
    return ("", "card", SERVED_CARD, count, "\u2714")


def backs_counter(count: int) -> tuple[str, str, tuple[float, ...], int, str]:
    """A :class:`SeatLine` counter: recipes held, face down (a recipe card's back)."""
    return ("", "card", RECIPE_BACK, count, "?")


def wide(ch: str) -> bool:
    """A character of CJK text (kana, kanji, full-width forms): set in the CJK face, about twice as wide."""
    return "\u2e80" <= ch <= "\u9fff" or "\uf900" <= ch <= "\uffef"


def _text_height(text: str, font: float, bold: bool = False, face_name: str = "") -> float:
    """The height (px) a one-line Label of ``text`` at ``font`` px needs (its texture's height)."""
    key = (text, round(font, 2), bold, face_name or face(text))
    if key not in _HEIGHTS:
        lab = CoreLabel(text=text, font_size=font, bold=bold, font_name=key[3])
        lab.refresh()
        _HEIGHTS[key] = float(lab.texture.size[1]) if lab.texture is not None else font * 1.25
    return _HEIGHTS[key]


_HEIGHTS: dict[tuple[str, float, bool, str], float] = {}


def set_face(root: Any, face: str) -> Any:
    """Set the Japanese words of every label under ``root`` (itself too) in ``face``, the reader's face (the CJK
    face; ``""``, or a label without CJK text: its own face again). For labels built elsewhere (buttons, cards, a
    banner) whose rule picks a Latin face: call it after their text is set. Returns ``root``."""
    if root is None:
        return root
    for w in root.walk(restrict=True):
        if not isinstance(w, Label):
            continue
        if face and any(wide(ch) for ch in w.text):
            if w.font_name != face:
                w.latin_face = w.font_name
                w.font_name = face
        elif getattr(w, "latin_face", ""):
            w.font_name, w.latin_face = w.latin_face, ""
    return root


def named_card(english: str, shown: str) -> dict[str, Any]:
    """An :class:`~kiosk.ui.pieces.ActionCard`'s props for a :class:`PieceRow`: its picture from the engine's
    (English) name, ``shown`` the name in the reader's language."""
    return {"name": shown, "source": pictures.picture(pictures.picture_name(english)) if english else ""}


def load_categories(path: Path, section: str) -> dict[str, str]:
    """Ingredient -> category from a game's cards.json (``{section: {category: {kind: count}}}``)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {kind: cat for cat, kinds in data[section].items() for kind in kinds}


class BoardTile(Tile):
    """One square of the board, drawn as a :class:`~kiosk.ui.pieces.Tile` (the ingredient's picture, its category
    colour and symbol). ``kind`` is "" (empty), "teacup" or an ingredient; ``stack`` the tiles on it (Wasabi!),
    ``covered`` true under a Wasabi card. ``text`` names what is there in words (for tests and the fallback
    description; the picture carries the meaning on screen). :meth:`choose` does what a tap on it does."""

    text = StringProperty("")

    def __init__(self, index: int = -1, on_tap: Callable[[int], bool] | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.index = index
        self.on_tap = on_tap

    def choose(self) -> bool:
        """What a tap on this square does (the screen decides what it means); True when it meant something."""
        return self.on_tap is not None and self.on_tap(self.index)

    def on_touch_down(self, touch: Any) -> bool:
        """A finger down on the square is a tap on it (the screen decides whether it means anything)."""
        if self.on_tap is not None and self.collide_point(*touch.pos) and self.choose():
            return True
        return bool(super().on_touch_down(touch))


class TileChoice(HoldExplains, Pictured, ButtonBehavior, Widget):
    """A tile the acting seat may take or place: in the centre's pantry (public picks: Maki's Take, Wasabi!'s
    DrawTile) or in the seat's tray (its hand: Wasabi!'s tiles to place, the starting tiles to give). A tap is
    :meth:`choose`; a drag onto a board square drops it there (:meth:`BoardScreen.drop_tile`). Its look
    (``<TileChoice>`` in ``kiosk/board/board.kv``): the ingredient's picture on its category colour, the category
    symbol readable at the smallest reading size, the name in fine print, a thick frame when chosen. Only ever on
    screen (and enabled) while choosable."""

    label = StringProperty("")
    selected = BooleanProperty(False)
    #: "pick": choosing it applies its action at once (``action``); "hand": choosing it selects it for placing.
    mode = StringProperty("pick")
    #: How far (in units of ``app.u``-free window pixels) a finger moves before a touch is a drag, not a tap.
    DRAG_PX = 24.0

    def __init__(self, screen: BoardScreen[Any, Any] | None = None, action: Action | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.screen = screen
        self.action = action

    @staticmethod
    def units(text: str) -> int:
        """How many Latin letters ``text`` is about as wide as (a CJK character counts two): its name's size."""
        return sum(2 if wide(ch) else 1 for ch in text)

    def choose(self) -> None:
        """What a tap on the tile does: a pick applies its action, a hand tile is selected (or unselected)."""
        if self.screen is not None and not self.disabled:
            self.screen.choose_tile(self)

    def on_release(self) -> None:
        """A release that did not come from a finger (``trigger_action``: the seat buttons' confirm)."""
        self.choose()

    def on_touch_down(self, touch: Any) -> bool:
        if self.disabled or not self.collide_point(*touch.pos):
            return False
        touch.grab(self)
        touch.ud[self] = False  # not dragging yet
        self.hold_down(touch)
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return False
        from kivy.core.window import Window  # (importing it opens the window: only once the app runs)

        dx = (touch.sx - touch.osx) * Window.width
        dy = (touch.sy - touch.osy) * Window.height
        self.hold_move(touch)
        if not touch.ud.get(self) and dx * dx + dy * dy >= self.DRAG_PX**2:
            touch.ud[self] = True
        if touch.ud.get(self) and self.screen is not None:
            self.screen.drag_tile(self, touch.sx * Window.width, touch.sy * Window.height)
        return True

    def explained_at(self, x: float, y: float) -> str:
        """A finger held on a tile in a seat's tray explains it (:class:`~kiosk.ui.hold.HoldExplains`)."""
        return self.kind if self.kind and not self.disabled and self.collide_point(x, y) else ""

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return False
        from kivy.core.window import Window  # (importing it opens the window: only once the app runs)

        touch.ungrab(self)
        if self.hold_up(touch) or self.screen is None or self.disabled:  # a hold's lift: its explanation is open
            return True
        if touch.ud.get(self):
            self.screen.drop_tile(self, touch.sx * Window.width, touch.sy * Window.height)
        else:
            self.choose()
        return True


class Counter(Widget):
    """A piece with a count beside it, for the public column: ``picture`` (an atlas picture, e.g. the Wasabi plant)
    on a ``shape`` ("disc", "card", "tile") of ``rgba``, or ``symbol`` on it without a picture; ``count`` in big
    digits to its right. Its width follows its height and the digits (:meth:`want_width`)."""

    picture = StringProperty("")
    source = StringProperty("")
    symbol = StringProperty("")
    shape = StringProperty("disc")
    count = NumericProperty(0)
    rgba = ListProperty([0.96, 0.93, 0.85, 1])
    #: the digits' size (px): the row sets it from its height, never under the reading minimum
    font = NumericProperty(18.0)

    def on_picture(self, _w: Any, name: str) -> None:
        self.source = pictures.picture(name) if name else ""

    def want_width(self) -> float:
        """The piece (as wide as it is high; a card two thirds of that) and its count's digits."""
        piece = self.height * (0.7 if self.shape == "card" else 1.0)
        return piece + self.font * 0.62 * len(str(int(self.count))) + self.font * 0.5


class DeckPile(Widget):
    """A recipe deck face down: its recipes' ``length`` as that many dots on the back (the ingredients a recipe of
    that deck needs) and its ``count`` (cards left) large; an empty deck is a pale outline with 0."""

    length = NumericProperty(2)
    count = NumericProperty(0)
    font = NumericProperty(18.0)


class SeatLine(Widget):
    """One seat's row in the public column: its symbol in its colour, its points (a gold disc with the number), and
    :class:`Counter` pieces (``counters``: ``(picture, shape, rgba, count, symbol)``: Wasabi, recipes served, ...),
    then the action cards it holds as small :class:`~kiosk.ui.pieces.ActionCard` pictures (``cards``). ``turn``
    frames the row in the seat's colour. Laid out by hand (:meth:`relayout`): everything scales with the row's
    height, and held cards overlap when the row runs out of width."""

    symbol = StringProperty("")
    rgba = ListProperty([1, 1, 1, 1])
    points = NumericProperty(0)
    counters = ListProperty([])
    cards = ListProperty([])
    turn = BooleanProperty(False)
    font = NumericProperty(18.0)
    #: the row's padding and inner height (set by :meth:`relayout`; the kv rule places the symbol and points)
    pad = NumericProperty(2.0)
    inner = NumericProperty(1.0)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.counter_widgets: list[Counter] = []
        self.card_widgets: list[Any] = []
        self._later = Clock.create_trigger(self.relayout, -1)
        self.bind(pos=self._later, size=self._later, counters=self._later, cards=self._later, font=self._later)

    @staticmethod
    def floor_height(font: float, symbols: str = "") -> float:
        """The least height a row may get so that its texts at ``font`` px fit: the points (bold digits) in the
        disc's inner height (the row's height less its padding, :meth:`relayout`) and each seat symbol in the
        row's height (the symbol grows with the row: ``max(font, inner * 0.8)``, the kv rule)."""
        need = max(_text_height("0", font, bold=True), _text_height("8", font, bold=True))
        h = float(math.ceil(max(need + 4.0, need / 0.84)))  # inner = h - 2 * max(2, 0.08 h) >= need
        for ch in symbols or "●":
            while h < 400:
                inner = h - 2 * max(2.0, h * 0.08)
                if inner >= need and _text_height(ch, max(font, inner * 0.8), face_name=face(ch)) <= h:
                    break
                h += 1.0
        return h

    def relayout(self, *_a: Any) -> None:
        h = self.height
        if h < 8 or self.width < 8:
            return  # no room yet: laid out when the row gets its size
        pad = max(2.0, h * 0.08)
        inner = max(1.0, h - 2 * pad)
        self.pad, self.inner = pad, inner
        x = self.x + h * 0.15 + inner * 0.95 + inner * 1.25 + pad * 2  # after the symbol and the points disc
        while len(self.counter_widgets) < len(self.counters):
            self.counter_widgets.append(Counter(size_hint=(None, None)))
        for w in self.counter_widgets[len(self.counters) :]:
            if w.parent is not None:
                self.remove_widget(w)
        for w, (pic, shape, rgba, count, symbol) in zip(self.counter_widgets, self.counters):
            w.picture, w.shape, w.rgba, w.count, w.symbol, w.font = (
                pic,
                shape,
                list(rgba),
                int(count),
                symbol,
                self.font,
            )
            w.height = inner * 0.92
            w.width = w.want_width()
            w.pos = (x, self.y + (h - w.height) / 2)
            x += w.width + pad * 2
            if w.parent is None:
                self.add_widget(w)
        while len(self.card_widgets) < len(self.cards):
            self.card_widgets.append(ActionCard(size_hint=(None, None), named=False))
        for w in self.card_widgets[len(self.cards) :]:
            if w.parent is not None:
                self.remove_widget(w)
        n = len(self.cards)
        cw, ch = inner * 0.8, inner
        room = self.right - pad - x
        step = cw + pad if n * (cw + pad) <= room or n < 2 else max(4.0, (room - cw) / (n - 1))
        for i, (w, name) in enumerate(zip(self.card_widgets, self.cards)):
            w.name, w.size = str(name), (cw, ch)
            w.pos = (x + i * step, self.y + pad)
            if w.parent is None:
                self.add_widget(w)


class PieceRow(Widget):
    """A row of pieces for the public column, laid out by hand: each piece keeps its shape (``aspect``, width over
    height, from :meth:`fill`'s specs) and the row's pieces shrink together until they fit its width. ``fill``
    takes specs ``(kind, aspect, props)`` (``kind``: "counter", "deck", "card") and reuses the widgets while the
    kinds stay the same (a count changing rebuilds nothing)."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.pieces: list[Any] = []
        self.aspects: list[float] = []
        self._kinds: tuple[str, ...] = ()
        self._later = Clock.create_trigger(self.relayout, -1)
        self.bind(pos=self._later, size=self._later)

    def fill(self, specs: list[tuple[str, float, dict[str, Any]]]) -> None:
        kinds = tuple(k for k, _a, _p in specs)
        if kinds != self._kinds:
            self.clear_widgets()
            make = {"counter": Counter, "deck": DeckPile, "card": ActionCard}
            self.pieces = [make[k](size_hint=(None, None)) for k in kinds]
            for w in self.pieces:
                self.add_widget(w)
            self._kinds = kinds
        self.aspects = [a for _k, a, _p in specs]
        for w, (_k, _a, props) in zip(self.pieces, specs):
            for name, value in props.items():
                setattr(w, name, value)
        self._later()

    def relayout(self, *_a: Any) -> None:
        from kivy.core.window import Window  # (importing it opens the window: only once the app runs)

        if not self.pieces or self.height < 8 or self.width < 8:
            return  # hidden (no room): the pieces keep their last size
        gap = max(4.0, self.height * 0.1)
        h = min(self.height, (self.width - gap * (len(self.pieces) - 1)) / max(0.1, sum(self.aspects)))
        font = max(min_text_px(Window.size), h * 0.36)
        # a named card is widened to its name's longest word while the row has room (a word is never broken);
        # where the row has none, the cards whose word does not fit show their picture only (the tray names them)
        widths = [h * aspect for aspect in self.aspects]
        words = [self._word(w) for w in self.pieces]
        wanted = [max(width, word + 8) for width, word in zip(widths, words)]
        if sum(wanted) + gap * (len(wanted) - 1) <= self.width:
            widths = wanted
        x = self.x
        for w, width, word in zip(self.pieces, widths, words):
            w.size = (width, h)
            w.pos = (x, self.y + (self.height - h) / 2)
            if hasattr(w, "font"):
                w.font = font
            if word:
                w.named = word + 6 <= width
            x += w.width + gap

    @staticmethod
    def _word(w: Any) -> float:
        """The width of a named card's longest word at the reading size (0: not a named card)."""
        from kivy.core.window import Window  # (importing it opens the window: only once the app runs)

        label = w.ids.get("label") if hasattr(w, "named") else None
        if label is None or not w.name:
            return 0.0
        return RecipeShelf.widest_word(w.name, min_text_px(Window.size), label.font_name)


class RecipeShelf(HoldExplains, Widget):
    """A seat's own things in its private tray, drawn: its recipes as :class:`~kiosk.ui.pieces.RecipeCard` pieces
    (``recipes``: dicts of ``name``, ``ingredients``, ``categories``, ``points``, ``style``, ``done``, ``ready``,
    ``count``; a served pile is one card with ``done`` and its ``count``), and under them a strip with the action
    cards it holds (``cards``, named card pictures) and, in Wasabi!, the tiles in its hand (``tiles``: ``(kind,
    category)``) as small pictures.

    Layout (decision, written down): the strip takes the bottom when there is anything in it (at most a third of
    the shelf); the cards take the rest in the grid of columns that gives each card the most room at a card's
    shape (about 1.8 times as wide as high), so three recipes sit side by side in a wide tray and one above the
    other in a narrow one. Where a card would be too small for its name (two lines of it over a row of pictures,
    at the reading minimum), the cards are compact: the ingredients' pictures and the points only (the tray's
    buttons name the recipes)."""

    recipes = ListProperty([])
    cards = ListProperty([])
    tiles = ListProperty([])
    #: the seat's translator and face (its kv rule passes the seat's): the held cards' names are read in it
    tr = ObjectProperty(None, allownone=True)
    face = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.card_widgets: list[Any] = []
        self.held_widgets: list[Any] = []
        self.tile_widgets: list[Any] = []
        self._later = Clock.create_trigger(self.relayout, -1)
        self.bind(pos=self._later, size=self._later, recipes=self._later, cards=self._later, tiles=self._later)
        self.bind(tr=self._later, face=self._later)

    @staticmethod
    def grid(n: int, width: float, height: float, gap: float, aspect: float = 1.8) -> tuple[int, float, float]:
        """(columns, card width, card height) for ``n`` cards in a box: the columns giving the largest card
        at ``aspect`` (width / height) or flatter.

        >>> RecipeShelf.grid(3, 900, 150, 6)[0], RecipeShelf.grid(3, 300, 300, 6)[0]
        (3, 1)
        """
        best = (1, width, height)
        score = -1.0
        for cols in range(1, max(1, n) + 1):
            rows = math.ceil(max(1, n) / cols)
            w = (width - gap * (cols - 1)) / cols
            h = (height - gap * (rows - 1)) / rows
            s = min(w / aspect, h)
            if s > score + 0.5:
                best, score = (cols, w, min(h, w / 1.2)), s
        return best

    # ------------------------------------------------------------- touch and hold: the card explained (HoldExplains)
    def explained_at(self, x: float, y: float) -> str:
        """The engine's name of the card or tile under ``(x, y)`` (its ``explain``), "" for none."""
        for w in self.children:
            if getattr(w, "explain", "") and w.collide_point(x, y):
                return str(w.explain)
        return ""

    def relayout(self, *_a: Any) -> None:
        from kivy.core.window import Window  # (importing it opens the window: only once the app runs)

        def pool(widgets: list[Any], n: int, make: Callable[[], Any]) -> list[Any]:
            while len(widgets) < n:
                widgets.append(make())
            for w in widgets[n:]:
                if w.parent is not None:
                    self.remove_widget(w)
            return widgets[:n]

        if self.width < 8 or self.height < 8:
            for w in list(self.children):  # no room (a closed tray): nothing drawn; laid out again when it opens
                self.remove_widget(w)
            return
        gap = max(4.0, self.height * 0.03)
        strip = 0.0
        if self.cards or self.tiles:
            strip = min(self.height / 3, max(min_target_px(Window.size), self.height * 0.28))
        # the strip: held cards (named), then the hand's tiles
        x = self.x
        for w, name in zip(
            pool(self.held_widgets, len(self.cards), lambda: ActionCard(size_hint=(None, None))), self.cards
        ):
            # named when its widest word fits at the reading minimum (widened for it while the row has room;
            # a word is never broken across lines), else a picture only (the tray's buttons name it)
            shown = self.tr.gettext(str(name)) if self.tr is not None else str(name)
            width = max(strip * 1.5, self.widest_word(shown, min_text_px(Window.size), self.face) + 12)
            named = x + width <= self.right
            w.name, w.named, w.explain = shown, named, str(name)
            w.source = pictures.picture(pictures.picture_name(str(name))) if name else ""
            set_face(w, self.face)
            w.size = (width if named else strip * 1.5, strip)
            w.pos = (x, self.y)
            x += w.width + gap
            if w.parent is None:
                self.add_widget(w)
        for w, (kind, cat) in zip(
            pool(self.tile_widgets, len(self.tiles), lambda: Ingredient(size_hint=(None, None))), self.tiles
        ):
            w.kind, w.category, w.explain = str(kind), str(cat), str(kind)
            w.size = (strip * 0.92, strip * 0.92)
            w.pos = (x, self.y + strip * 0.04)
            x += w.width + gap * 0.6
            if w.parent is None:
                self.add_widget(w)
        area = self.height - (strip + gap if strip else 0)
        n = len(self.recipes)
        font = min_text_px(Window.size)
        cols, cw, ch, title, compact = self.plan(n, self.width, area, gap, font)
        for i, (w, r) in enumerate(
            zip(pool(self.card_widgets, n, lambda: RecipeCard(size_hint=(None, None))), self.recipes)
        ):
            row, col = divmod(i, cols)
            w.name = str(r.get("name", ""))
            w.explain = str(r.get("key", r.get("name", "")))
            w.ingredients = list(r.get("ingredients", []))
            w.categories = list(r.get("categories", []))
            w.points = int(r.get("points", 0))
            w.style = int(r.get("style", 0))
            w.done = bool(r.get("done", False))
            w.ready = bool(r.get("ready", False))
            w.count = int(r.get("count", 1))
            w.compact = compact
            w.title_px = title
            w.size = (cw, ch)
            w.pos = (self.x + col * (cw + gap), self.top - (row + 1) * ch - row * gap)
            set_face(w, self.face)
            if w.parent is None:
                self.add_widget(w)

    def plan(
        self, n: int, width: float, height: float, gap: float, font: float
    ) -> tuple[int, float, float, float, bool]:
        """(columns, card width, card height, name size, compact?) for the shelf's ``n`` cards in a box.

        A card with its name needs room for about two lines of the name over a row of pictures, and each word of
        the name across it beside the points badge (a name wraps at words, never inside one). Of the column counts
        whose cards allow that (the name at up to 1.3 times the reading minimum ``font``, down to the minimum),
        the one with the largest cards (:meth:`grid`'s measure); where none does (a narrow tray beside its
        buttons), compact cards: the ingredients' pictures and the points only."""
        best: tuple[int, float, float, float, bool] | None = None
        score = -1.0
        for cols in range(1, max(1, n) + 1):
            rows = math.ceil(max(1, n) / cols)
            cw = (width - gap * (cols - 1)) / cols
            ch = min((height - gap * (rows - 1)) / rows, cw / 1.2)
            for title in dict.fromkeys((max(font, min(ch * 0.17, font * 1.3)), font)):
                fits = ch >= title * 3.6 and all(
                    self.widest_word(str(r.get("name", "")), title, self.face) <= cw - self.badge_width(r, title) - 20
                    for r in self.recipes
                )
                if fits:
                    s = min(cw / 1.8, ch)
                    if s > score + 0.5:
                        best, score = (cols, cw, ch, title, False), s
                    break
        if best is not None:
            return best
        cols, cw, ch = self.grid(n, width, height, gap, aspect=4.0)
        return cols, cw, ch, font, True

    _word_px: dict[tuple[str, float, str], float] = {}

    @classmethod
    def widest_word(cls, name: str, px: float, font: str = "") -> float:
        """The width of the widest word of ``name`` set bold at ``px`` in ``font`` (``""``: the face its characters
        need; a card's name wraps at words)."""
        widest = 0.0
        for word in name.split():
            key = (word, round(px, 1), font)
            if key not in cls._word_px:
                label = CoreLabel(text=word, font_size=px, bold=True, font_name=font or face(word))
                label.refresh()
                cls._word_px[key] = float(label.texture.size[0]) if label.texture else len(word) * px * 0.7
            widest = max(widest, cls._word_px[key])
        return widest

    @staticmethod
    def badge_width(recipe: dict[str, Any], px: float) -> float:
        """About the width of a card's points badge (its rule: the text and 10 px, at least 1.6 times ``px``)."""
        count, done = int(recipe.get("count", 1)), bool(recipe.get("done", False))
        style = int(recipe.get("style", 0))
        text = f"x{count}" if done and count > 1 else f"{int(recipe.get('points', 0))}" + (f"+{style}" if style else "")
        return max(px * 1.6, len(text) * px * 0.66 + 10)

    def shown_recipes(self) -> list[tuple[str, list[str], bool, bool]]:
        """What the shelf shows (tests): ``(name, ingredients, done, ready)`` per card on screen."""
        return [
            (w.name, list(w.ingredients), bool(w.done), bool(w.ready)) for w in self.card_widgets if w.parent is self
        ]


def fit_public_column(col: Any, box: Any, last: Any, floor: float, last_text: str, u: float) -> None:
    """A board screen's public column (``col``): its seat rows (``box``) come first, each at least ``floor`` (what
    its texts need at the reading size: :meth:`SeatLine.floor_height`), then the last moves (``last``: ``u * 60``
    kept for them while there is room; when there is less, only the newest of ``last_text``'s lines that fit, down
    to none); the rest is the seat rows' again."""
    n = sum(1 for w in box.children if isinstance(w, SeatLine))
    others = [w for w in col.children if w is not box and w is not last]
    taken = sum(w.height for w in others) + col.spacing * (len(col.children) - 1) + col.padding[1] + col.padding[3]
    rows_need = n * floor + box.spacing * max(0, n - 1)
    room = max(0.0, col.height - taken - rows_need)
    lines = last_text.split("\n") if last_text else []
    text, need = "", 0.0
    for k in range(len(lines), 0, -1):  # the newest lines that fit (a long move wraps), measured undrawn
        h = laid_out(last, "\n".join(lines[-k:]))[1]
        if h <= room:
            text, need = "\n".join(lines[-k:]), h
            break
    last.text = text
    last.height = max(u * 60, need) if room >= u * 60 else need  # short of room: the rest is the rows'


def size_seat_rows(box: Any, floor: float, u: float) -> None:
    """The seat rows (``box``'s :class:`SeatLine` children) share its room, up to a comfortable height each, never
    under what their texts need (``floor``); the spare room goes under them."""
    rows = [w for w in box.children if isinstance(w, SeatLine)]
    if not rows:
        return
    gaps = box.spacing * (len(rows) - 1)
    h = max(1.0, floor, min(64 * u, (box.height - gaps) / len(rows)))
    for w in rows:
        w.height = h
    spare = max(0.0, box.height - gaps - h * len(rows))
    box.padding = [0, 0, 0, spare]  # the rows sit under the turn line, the spare room below them
