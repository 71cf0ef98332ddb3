"""The board screen shared by board games (Maki and Wasabi! subclass it): the board as a grid of tiles in the
centre, each seat's hand in its private tray.

The screen holds no rules: it draws ``state.view(None)`` (board, pool, display, scores) and ``state.view(seat)``
(the seat's own recipes), and every button is one of ``state.legal_actions(seat)`` for ``session.apply``.

:class:`BoardScreen` is the generic
screen (:class:`kiosk.ui.game.GenericGameScreen`: one :class:`~kiosk.ui.game.PlayerPanel` per seat with a
private tray and paged action buttons) with the centre replaced by a board of :class:`BoardTile` widgets and a
public-information column. Decisions, written down:

* **The board stays put** (the centre is a :class:`~kiosk.ui.seatzone.CentrePanel` facing the south side, and
  it does not turn when the turn passes): its tiles are pictures (:class:`~kiosk.ui.pieces.Tile`), readable
  from every side, and the seat whose turn it is has its zone highlighted (a frame in its colour and "Your
  turn"). Every tile also shows its square's name (row letter, column number, ``B3``) and the action buttons
  name squares the same way, so a player never has to count cells.
* **Colour is never the only cue:** a tile shows its ingredient's picture and its category symbol (R rice,
  M misc/maki, F fish, V vegetables, S seafood, ★ special); teacups have their own picture; Wasabi! stacks
  show ``×N`` and Wasabi-covered squares the Wasabi plant and a green frame.
* The board widgets are reused from game to game (rebuilt only when the board size changes).
* **Drawn, not written:** each seat's tray draws its own things (:class:`RecipeShelf`: its recipes as
  :class:`~kiosk.ui.pieces.RecipeCard` pieces, the ones it can serve now framed, :attr:`BoardScreen.READY`; its
  served pile; its action cards and Wasabi! hand tiles as pictures: :meth:`BoardScreen.shelf_items` per game) and
  the centre's public column draws one :class:`SeatLine` per seat and the shared pieces in two
  :class:`PieceRow` rows (:meth:`BoardScreen.seat_rows`, :meth:`BoardScreen.shared_rows` per game). Only whose
  turn it is (``turn_line``) and the last moves stay words; ``info_text`` and each panel's ``private_text`` keep
  the same things in words for tests and as a text description, undrawn.

**Playing by touch** (all from ``legal_actions``; the screen knows no rules):

* The *acting seat* is the one seat in ``to_move()`` when it is a human (never in attract mode, never a bot).
  Only it is ever acted for: a finger on the shared board or Pantry cannot be told apart by seat.
* **Tiles** (:class:`TileChoice`) are what a seat takes or places: *picks* (:attr:`BoardScreen.PICKS`, e.g.
  Maki's ``Take``, Wasabi!'s ``DrawTile``) in the centre's Pantry row, public; private picks
  (:attr:`BoardScreen.PRIVATE_PICKS`, Wasabi!'s ``GiveTile``) and the hand's tiles to place in the seat's tray
  (``ids.hand``), shown only while it is open. A placement is an action naming one square whose tile
  :meth:`BoardScreen.placed_tile` reads from its fields or the public view (Maki: the taken tile, the lifted
  teacup; Wasabi!: ``Place.tile``). A tap on a pick applies it; a tap on a hand tile chooses it
  (:attr:`BoardScreen.chosen`) and marks the squares it may go on; with one tile to place it is chosen already.
* A square is *eligible* when one of the acting seat's legal actions names it in a square field
  (:data:`SQUARE_FIELDS`: ``cell``, ``square``, ``a``, ``b``; Wasabi!'s Kitchen ``square=-1`` names none).
  Eligible squares carry a ``+`` in hint mode. This reveals nothing private (held action cards are public in
  both games, the tile to place in Maki is public, any Wasabi! hand may go on any empty square).
* **A tap on a square** with a tile chosen applies the placement of that tile there at once when it is the only
  one; otherwise (no tile chosen, several matching actions, or action cards on that square) it selects the square:
  a thick double frame and ``▶B3◀``, and the seat's buttons are the legal actions naming that square, from their
  first page; an action card is never played by a square tap alone. Tapping the selected square again, or the
  centre anywhere off the board, clears the selection; a square no legal action names says so at the seat
  ("Nothing to play on B3 now"). A drag from a tile onto a square is a tap on the tile then on the square, in
  one touch (a pick is applied, then the placement of the picked tile on that square if the engine then offers
  exactly one). Every applied action (and every new game) clears the selection and the chosen tile.
* **Buttons** are only what no tile or square reaches (:meth:`BoardScreen._button_actions`), so tiles and squares
  are never paged through.
* **The contract with seat buttons and other input paths:** everything a player can choose by touch is either
  a Kivy ``ButtonBehavior`` widget whose ``on_release`` does exactly what a tap does (the tray's action buttons,
  the page arrows), or a widget with a ``choose()`` method that does what a tap does (:class:`BoardTile`,
  :class:`TileChoice`, whose ``on_release`` also calls it), and it is on screen and enabled only while it may be
  chosen. :meth:`BoardScreen.choosable` lists a seat's choosable widgets in order (tray tiles, Pantry tiles,
  marked squares, buttons); the tray's ``open()``, ``close()`` and ``toggle()`` (``panel.ids.tray``) open what a
  tap opens.
* **Button order** with nothing selected (:attr:`BoardScreen.ACTION_ORDER`, by action class, the engine's order
  kept within a class): first the step's own choices, which are mostly few and out of reach of a board tap
  (Maki: take a tile, place it, move the teacup, serve, draw, end the turn, discard, Second Helping; Wasabi!:
  the setup and refill draws, the reward, End Step, Stack!, Spicy!, then placing the tile, the turn's main
  move), then the choices that prep or give up the turn's play (Maki: Take Pool, Gain a card, Return, so
  serving comes before prepping; Wasabi!: every Pass variant after every placement), and action cards aimed at
  squares last of all (Switch, Chop, Substitute; Switch!, Chop!, Wasabi!: many buttons, all reachable by
  tapping a square); of these, only the ones no tile or square reaches are buttons.
* **Two choices on one button** (:class:`Then`, :attr:`BoardScreen.FOLLOW_UPS`): where a choice is mostly followed
  by another of the seat's own (Maki: serving, then the deck to draw the next recipe from), the buttons offer both
  in one touch, the player still choosing each: per such action a group (:class:`ThenGroup`), a line naming it
  and the words its second halves share ("Serve Maguro N., then Draw:") over one button per choice the engine
  then offers ("2", "3", "4"...; found on a copy of the state, :meth:`BoardScreen.follow_ups`), and the plain
  button after it (serving a second recipe before drawing). The screen applies the first half, then the second
  as soon as the engine offers it in the same turn: at once, or after the steps the first brought (a 2-ingredient
  recipe's reward card: the prompt says the draw follows by itself); it is dropped when the turn passes or the
  engine offers other choices of its kind.
* **The tray at the start of a turn:** when a human seat becomes the acting seat its private tray opens by itself
  (:meth:`~kiosk.ui.seatzone.PrivateTray.turn_started`: its tiles and buttons are there without a tap); it closes
  when the turn passes, as before. A bot's tray never opens, and in attract mode no seat acts.
* **No step is played for the player** (decision, written down): a step with a single legal action still takes
  its touch (Maki's End Turn after serving with every recipe deck empty is on the serving button instead:
  "Serve Maguro N., then: End Turn"). Such steps are rare here (over twenty easy-bot games a title, Maki's human
  seat met 8 in 1138 steps: a lone reward card or discard; Wasabi! none), so carrying them out by themselves would
  save almost nothing, and a move the table makes unasked surprises the newcomer the saving is for.
* **Prompt:** the acting seat's tray says in words what to do (:meth:`BoardScreen.prompt_text`, per game, from
  the legal actions' kinds and the public view only: never which tiles or recipes the seat holds, as the prompt
  shows even while the tray is closed).
* **Last moves** (the centre's bottom lines) are the last three events in words, one formatter per game
  (``kiosk.games.maki.screen.maki_event_text``, ``kiosk.games.wasabi.screen.wasabi_event_text``) with a
  readable fallback for an unknown kind: square names, recipe names and points, never field names.
"""

from __future__ import annotations

import json
import math
import re
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from kiosk.engine import Action, Event, RuleError
from kiosk.ui.focus import reading_order
from kiosk.ui.game import ActionPanel, GenericGameScreen
from kiosk.ui.pieces import Tile

__all__ = [
    "BoardScreen",
    "BoardTile",
    "BoardPanel",
    "Then",
    "short_name",
    "cell_name",
    "action_label",
    "action_squares",
    "fallback_event_text",
    "game_over_text",
    "load_categories",
    "SQUARE_FIELDS",
]

ROW_LETTERS = "ABCDEFGH"
#: Category -> (letter on the tile, tile colour). Letters, not colours, are the cue; colours only help.
CATEGORY_SIGN: dict[str, tuple[str, tuple[float, float, float, float]]] = {
    "base": ("R", (0.95, 0.93, 0.85, 1)),
    "rice": ("R", (0.95, 0.93, 0.85, 1)),
    "maki": ("M", (0.30, 0.42, 0.30, 1)),
    "misc": ("M", (0.80, 0.72, 0.90, 1)),
    "fish": ("F", (0.98, 0.58, 0.45, 1)),
    "veg": ("V", (0.55, 0.85, 0.45, 1)),
    "vegetables": ("V", (0.55, 0.85, 0.45, 1)),
    "seafood": ("S", (0.50, 0.75, 1.00, 1)),
    "special": ("\u2605", (1.00, 0.85, 0.30, 1)),
}
CUP_RGBA = (0.55, 0.38, 0.25, 1)
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


EMPTY_RGBA = (1, 1, 1, 0.08)


def short_name(name: str) -> str:
    """An ingredient name short enough for a tile: up to 8 characters (``Yellowtail`` -> ``Yellowt.``)."""
    return name if len(name) <= 8 else name[:7] + "."


def short_recipe(name: str) -> str:
    """A recipe name short enough for a button: first word plus initials (``Maguro Nigiri`` -> ``Maguro N.``)."""
    words = name.split()
    return name if len(words) < 2 or len(name) <= 10 else words[0] + " " + "".join(w[0] + "." for w in words[1:])


def cell_name(cols: int, cell: int) -> str:
    """A square as players read it: row letter and column number (``B3``), as the engines name them."""
    return f"{ROW_LETTERS[cell // cols]}{cell % cols + 1}"


RECIPE_FIELDS = ("recipe", "recipes", "discard")
#: Action fields that name a board square (Maki ``cell``, Wasabi! ``square``, a Switch's ``a`` and ``b``).
SQUARE_FIELDS = ("cell", "square", "a", "b")


def action_squares(action: Action, cells: int) -> tuple[int, ...]:
    """The board squares an action names (its :data:`SQUARE_FIELDS` holding a square number in range)."""
    data = action.to_json()
    return tuple(
        v for k in SQUARE_FIELDS if isinstance(v := data.get(k), int) and not isinstance(v, bool) and 0 <= v < cells
    )


def action_label(action: Action, cols: int, cells: int, recipes: dict[int, str] | None = None) -> str:
    """A button label for ``action``: square numbers written as square names (``Place B3``), recipe ids as the
    recipe names from the seat's own view (``recipes``), ``DrawRecipe`` as ``Draw Recipe``."""
    recipes = recipes or {}
    data = action.to_json()
    name = data.pop("type")
    parts = []
    for k, v in data.items():
        if k in ("cell", "square", "a", "b") and isinstance(v, int) and 0 <= v < cells:
            parts.append(cell_name(cols, v))
        elif k in RECIPE_FIELDS and isinstance(v, int) and v in recipes:
            parts.append(short_recipe(recipes[v]))
        elif k in RECIPE_FIELDS and isinstance(v, (list, tuple)) and all(x in recipes for x in v):
            parts.append(", ".join(short_recipe(recipes[x]) for x in v) or "none")
        elif isinstance(v, bool):
            parts.append(k if v else "")
        elif isinstance(v, (list, tuple)):
            parts.append(" ".join(str(x) for x in v) or "none")
        elif v not in (None, "", -1):
            parts.append(str(v))
    name = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name)  # DrawRecipe -> Draw Recipe
    return " ".join([name] + [p for p in parts if p])


@dataclass(frozen=True)
class Then(Action):
    """One button for two of the seat's own choices: ``first`` now, then ``then`` (Maki: ``Then(Serve(4), Draw(3))``,
    "Serve Maguro N., then Draw 3"). Never applied to an engine: the board screen applies ``first``, then ``then``
    as soon as the engine offers it in the same turn (see :meth:`BoardScreen.human_action`)."""

    first: Action
    then: Action

    def to_json(self) -> dict[str, Any]:
        return {"type": "Then", "first": self.first.to_json(), "then": self.then.to_json()}


# ----------------------------------------------------------------------------------------------- events in words
def _words(v: Any) -> str:
    """A value from an event's data as plain words (never a dict, a list's brackets or an underscore)."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, dict):
        return ", ".join(_words(x) for x in v.values())
    if isinstance(v, (list, tuple)):
        return ", ".join(_words(x) for x in v)
    return str(v).replace("_", " ")


def join_names(names: Sequence[str]) -> str:
    """``["A"]`` -> ``A``; ``["A", "B", "C"]`` -> ``A, B and C``."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else "nobody"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def game_over_text(data: dict[str, Any], who: Callable[[int | None], str]) -> str:
    """``Game over: Circle wins (12 pts)`` / ``... Circle and Diamond share the win``."""
    winners = [w for w in data.get("winners", []) if isinstance(w, int)]
    scores = data.get("scores", [])
    reason = data.get("reason")
    head = f"Game over ({_words(reason)})" if reason else "Game over"
    if not winners:
        return head
    names = join_names([who(w) for w in winners])
    pts = f" ({plural(scores[winners[0]], 'pt')})" if winners[0] < len(scores) else ""
    return f"{head}: {names} {'wins' if len(winners) == 1 else 'share the win'}{pts}"


def fallback_event_text(ev: Event, who: Callable[[int | None], str]) -> str:
    """An event kind no formatter knows, still in words: ``Circle card flipped: Chop``."""
    subject = who(ev.seat) if ev.seat is not None else ""
    what = ev.kind.replace("_", " ")
    values = [_words(v) for v in dict(ev.data).values() if v not in (None, "", [], {})]
    return (f"{subject} {what}".strip() + (": " + "; ".join(values) if values else "")).strip()


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
    dark = BooleanProperty(False)

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


class TileChoice(ButtonBehavior, Widget):
    """A tile the acting seat may take or place: in the centre's pantry (public picks: Maki's Take, Wasabi!'s
    DrawTile) or in the seat's tray (its hand: Wasabi!'s tiles to place, the starting tiles to give). A tap is
    :meth:`choose`; a drag onto a board square drops it there (:meth:`BoardScreen.drop_tile`). Its look
    (``<TileChoice>`` in ``layouts/board.kv``): the ingredient's picture on its category colour, the category
    symbol readable at the smallest reading size, the name in fine print, a thick frame when chosen. Only ever on
    screen (and enabled) while choosable."""

    kind = StringProperty("")
    category = StringProperty("")
    label = StringProperty("")
    source = StringProperty("")
    symbol = StringProperty("")
    rgba = ListProperty([0.8, 0.8, 0.8, 1])
    selected = BooleanProperty(False)
    #: "pick": choosing it applies its action at once (``action``); "hand": choosing it selects it for placing.
    mode = StringProperty("pick")
    #: How far (in units of ``app.u``-free window pixels) a finger moves before a touch is a drag, not a tap.
    DRAG_PX = 24.0

    def __init__(self, screen: BoardScreen | None = None, action: Action | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.screen = screen
        self.action = action
        self.bind(kind=self._look, category=self._look)
        self._look()

    def _look(self, *_a: Any) -> None:
        from kiosk.ui import pictures
        from kiosk.ui.pieces import category_of

        cat = category_of(self.category)
        self.source = pictures.picture(self.kind) if self.kind else ""
        self.symbol, self.rgba = cat.symbol, list(cat.rgba)

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
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return False
        from kivy.core.window import Window

        dx = (touch.sx - touch.osx) * Window.width
        dy = (touch.sy - touch.osy) * Window.height
        if not touch.ud.get(self) and dx * dx + dy * dy >= self.DRAG_PX**2:
            touch.ud[self] = True
        if touch.ud.get(self) and self.screen is not None:
            self.screen.drag_tile(self, touch.sx * Window.width, touch.sy * Window.height)
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return False
        from kivy.core.window import Window

        touch.ungrab(self)
        if self.screen is None or self.disabled:
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
        from kiosk.ui import pictures

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

    def relayout(self, *_a: Any) -> None:
        from kiosk.ui.pieces import ActionCard

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
        from kiosk.ui.pieces import ActionCard

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
        from kivy.core.window import Window

        from kiosk.ui.typescale import min_text_px

        if not self.pieces or self.height < 8 or self.width < 8:
            return  # hidden (no room): the pieces keep their last size
        gap = max(4.0, self.height * 0.1)
        h = min(self.height, (self.width - gap * (len(self.pieces) - 1)) / max(0.1, sum(self.aspects)))
        font = max(min_text_px(Window.size), h * 0.36)
        x = self.x
        for w, aspect in zip(self.pieces, self.aspects):
            w.size = (h * aspect, h)
            w.pos = (x, self.y + (self.height - h) / 2)
            if hasattr(w, "font"):
                w.font = font
            x += w.width + gap


class RecipeShelf(Widget):
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

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.card_widgets: list[Any] = []
        self.held_widgets: list[Any] = []
        self.tile_widgets: list[Any] = []
        self._later = Clock.create_trigger(self.relayout, -1)
        self.bind(pos=self._later, size=self._later, recipes=self._later, cards=self._later, tiles=self._later)

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

    def relayout(self, *_a: Any) -> None:
        from kivy.core.window import Window

        from kiosk.ui.pieces import ActionCard, Ingredient, RecipeCard
        from kiosk.ui.typescale import min_target_px, min_text_px

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
            width = max(strip * 1.5, self.widest_word(str(name), min_text_px(Window.size)) + 12)
            named = x + width <= self.right
            w.name, w.named = str(name), named
            w.size = (width if named else strip * 1.5, strip)
            w.pos = (x, self.y)
            x += w.width + gap
            if w.parent is None:
                self.add_widget(w)
        for w, (kind, cat) in zip(
            pool(self.tile_widgets, len(self.tiles), lambda: Ingredient(size_hint=(None, None))), self.tiles
        ):
            w.kind, w.category = str(kind), str(cat)
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
                    self.widest_word(str(r.get("name", "")), title) <= cw - self.badge_width(r, title) - 20
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

    _word_px: dict[tuple[str, float], float] = {}

    @classmethod
    def widest_word(cls, name: str, px: float) -> float:
        """The width of the widest word of ``name`` set bold at ``px`` (a card's name wraps at words)."""
        from kivy.core.text import Label as CoreLabel

        from kiosk.ui.typescale import face

        widest = 0.0
        for word in name.split():
            key = (word, round(px, 1))
            if key not in cls._word_px:
                label = CoreLabel(text=word, font_size=px, bold=True, font_name=face(word))
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


class ThenGroup(BoxLayout):
    """One entry of a seat's buttons: the :class:`Then` choices sharing their first half, as a line naming it and
    the words the second halves share ("Serve Maguro N., then Draw:") over one button per second half ("2", "3"...;
    "Serve Maguro N., then:" over "End Turn"). Its buttons carry their choice in ``action``, like the panel's other
    buttons."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(orientation="vertical", **kw)
        from kivy.uix.label import Label

        self.header = Label(size_hint_y=None, halign="left", valign="middle", bold=True)
        self.header.bind(
            width=lambda w, width: setattr(w, "text_size", (width, None)),
            texture_size=lambda w, ts: setattr(w, "height", max(w.font_size * 1.35, ts[1])),
        )
        self.row = BoxLayout(orientation="horizontal")
        self.add_widget(self.header)
        self.add_widget(self.row)
        self.buttons: list[Any] = []

    def show(
        self, header: str, items: Sequence[tuple[str, Action]], press: Callable[[Action], None], u: float, font: float
    ) -> None:
        """``header`` over one button per (label, choice) of ``items``; ``u`` the window's unit, ``font`` the
        header's size (the buttons' own comes from their kv rule)."""
        from kivy.factory import Factory

        self.spacing, self.row.spacing = 2 * u, 4 * u
        self.header.font_size = font
        self.header.text = header
        while len(self.buttons) < len(items):
            button = Factory.KioskButton()
            button.bind(on_release=lambda b: press(b.action))
            self.buttons.append(button)
            self.row.add_widget(button)
        while len(self.buttons) > len(items):
            self.row.remove_widget(self.buttons.pop())
        for button, (label, action) in zip(self.buttons, items):
            button.text, button.action = label, action


def shared_words(labels: Sequence[str]) -> tuple[str, list[str]]:
    """The leading words every label shares (when each has more after them), and what is left of each:
    ``["Draw 2", "Draw 3"]`` -> ``("Draw", ["2", "3"])``; ``["End Turn"]`` -> ``("", ["End Turn"])``."""
    split = [label.split() for label in labels]
    n = 0
    while split and all(len(w) > n + 1 and w[n] == split[0][n] for w in split):
        n += 1
    return " ".join(split[0][:n]) if n else "", [" ".join(w[n:]) for w in split]


class BoardPanel(ActionPanel):
    """One seat's side of a board screen: the generic panel's behaviour (:class:`~kiosk.ui.game.ActionPanel`)
    with its own look (``<BoardPanel>`` in ``layouts/board.kv``): the hand tiles (``ids.hand``), the seat's
    private lines and the action buttons in the tray, buttons naming squares (``B3``) instead of numbers, and
    ``prompt`` (what to do now, in words) at the top of the tray, shown whether the tray is open or not (so it
    never names anything private).

    The buttons are paged *entries*: one button per action, and one :class:`ThenGroup` per run of :class:`Then`
    choices sharing their first half (a page holding a group has one column, each entry as tall as a group).
    Every button widget carries its choice in ``action``; :meth:`page_of` says on which page a choice is."""

    prompt = StringProperty("")
    #: The page shown holds a :class:`ThenGroup`: the buttons take more of the tray (a group's row of second
    #: halves, up to four decks, must keep each button a touch target wide at a short edge).
    group_shown = BooleanProperty(False)
    #: The tray holds tiles to choose (``ids.hand`` has children): the kv rule gives them a row.
    has_tiles = BooleanProperty(False)
    #: Columns of action buttons: two where two fit side by side, else one.
    button_cols = NumericProperty(2)
    #: A button's least height and width (times ``app.u``): a touch target at every size. A button is wider than
    #: ``BUTTON_W`` only when its label needs it (``Draw 3`` does not; a recipe's name may wrap onto two lines).
    BUTTON_H = 66
    BUTTON_W = 120
    #: A :class:`ThenGroup`'s least height (times ``app.u``): its line and a row of buttons a touch target high.
    GROUP_H = 96
    #: The font size (times ``app.u``) ``on_labels`` asks for its buttons (their kv rule may set its own).
    BUTTON_FONT = 19

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        #: per page, its entries (each a list: one action, or a group's Then choices); the page shown's entries
        self._pages: list[list[list[Action]]] = []
        self._shown: list[list[Action]] = []
        self._buttons: list[Any] = []
        self._groups: dict[int, ThenGroup] = {}
        #: (rows, columns, group rows) of the room: without the page arrows' row, and with it
        self._room: tuple[tuple[int, int, int], tuple[int, int, int]] = ((1, 1, 1), (1, 1, 1))
        Clock.schedule_once(self._watch_room, 0)

    def _watch_room(self, *_a: Any) -> None:
        box = self.ids.get("button_box")
        if box is not None:
            box.bind(size=self._fit_page)
        self.on_labels()

    def _unit(self) -> float:
        from kivy.app import App

        return float(getattr(App.get_running_app(), "u", 1.0) or 1.0)

    def _entries(self) -> list[list[Action]]:
        """The actions as entries: a run of :class:`Then` sharing their first half is one, any other action one."""
        out: list[list[Action]] = []
        for a in self.actions:
            last = out[-1][0] if out else None
            if isinstance(a, Then) and isinstance(last, Then) and last.first == a.first:
                out[-1].append(a)
            else:
                out.append([a])
        return out

    def _columns(self, width: float, u: float) -> int:
        """How many columns of buttons fit ``width``: up to four, each at least ``BUTTON_W`` wide and wide enough
        for every label of the step (wrapped at words onto at most two lines). More columns, fewer pages: a
        page arrow is a touch that decides nothing."""
        from kiosk.ui.seatzone import _fits

        gap = 4 * u
        sample = self._buttons[0] if self._buttons else None  # the buttons' own font (their kv rule's)
        font = sample.font_name if sample is not None else "Roboto"
        size = float(sample.font_size) if sample is not None else 26 * u
        labels = [self.describe(a) for a in self.actions if not isinstance(a, Then)]
        for cols in (4, 3, 2):
            w = (width - gap * (cols - 1)) / cols
            if w >= self.BUTTON_W * u and all(
                _fits(t, w - 16 * u, self.BUTTON_H * u - 8 * u, size, font) for t in labels
            ):
                return cols
        return 1

    def _fit_page(self, *_a: Any) -> None:
        """As many entries per page as fit the room at a touch target's size (a row for the page arrows when
        they are needed): never a squeezed button, and as many columns as the step's labels allow."""
        box = self.ids.get("button_box")
        if box is None or box.width <= 1 or box.height <= 1:
            return
        u = self._unit()
        gap = 4 * u
        cols = self._columns(box.width, u)

        def room(height: float) -> tuple[int, int, int]:
            rows = max(1, int((height + gap) // (self.BUTTON_H * u + gap)))
            return rows, cols, max(1, int((height + gap) // (self.GROUP_H * u + gap)))

        self._room = (room(box.height), room(box.height - 62 * u - gap))
        self._paginate()

    def _capacity(self, room: tuple[int, int, int], group: bool) -> int:
        rows, cols, group_rows = room
        return group_rows if group else rows * cols

    def _page_entries(self, room: tuple[int, int, int]) -> list[list[list[Action]]]:
        pages: list[list[list[Action]]] = []
        page: list[list[Action]] = []
        for entry in self._entries():
            group = any(isinstance(e[0], Then) for e in page + [entry])
            if page and len(page) + 1 > self._capacity(room, group):
                pages.append(page)
                page = []
            page.append(entry)
        return pages + [page] if page or not pages else pages

    def _paginate(self) -> None:
        pages = self._page_entries(self._room[0])
        if len(pages) > 1:
            pages = self._page_entries(self._room[1])
        self._pages = pages
        self.pages = len(pages)
        if self.page >= self.pages:
            self.page = 0
        self._fill()

    def _fill(self) -> None:
        pages = getattr(self, "_pages", None)
        if pages is None:  # the generic panel's set-up, before this one's
            return
        page = pages[int(self.page)] if int(self.page) < len(pages) else []
        group = any(isinstance(e[0], Then) for e in page)
        self.group_shown = group
        room = self._room[1 if len(pages) > 1 else 0]
        self.button_cols = 1 if group else room[1]
        self._shown = page
        labels = [self._label(e) for e in page]
        labels += [""] * (max(len(page), self._capacity(room, group)) - len(page))
        if labels == list(self.labels):
            self.on_labels()  # the same words, maybe other choices under them
        else:
            self.labels = labels

    def _label(self, entry: list[Action]) -> str:
        first = entry[0]
        if isinstance(first, Then):  # "Serve Maguro N., then Draw:" over "2", "3"...; "..., then:" over "End Turn"
            shared, _rest = shared_words([self.describe(t.then) for t in entry if isinstance(t, Then)])
            return f"{self.describe(first.first)}, then {shared}:" if shared else f"{self.describe(first.first)}, then:"
        return self.describe(first)

    def page_of(self, action: Action) -> int | None:
        """The page whose buttons offer ``action`` (None: no page)."""
        for i, page in enumerate(self._pages):
            if any(action in entry for entry in page):
                return i
        return None

    def hand_height(self, width: float, n: int) -> float:
        """The height of ``n`` tray tiles (``TileChoice``: 62 x 62 units, 6 apart) in rows across ``width``."""
        u = self._unit()
        tile, gap = 62 * u, 6 * u
        per_row = max(1, int((width + gap) // (tile + gap)))
        rows = math.ceil(n / per_row) if n else 0
        return max(0.0, rows * (tile + gap) - gap)

    def hand_visible(self) -> bool:
        """The seat's own things are on screen: its tray open and the column of its tiles and shelf (``ids.hand``,
        ``ids.shelf``) drawn with room."""
        shelf = self.ids.get("shelf")
        if shelf is None or not self.ids.tray.is_open or shelf.get_root_window() is None:
            return False
        w: Any = shelf
        while w is not None and w is not self:
            if w.opacity <= 0:
                return False
            w = w.parent
        column = shelf.parent  # the hand's tiles and the shelf (the tiles may take all of its room)
        return bool(column is not None and column.width > 1 and column.height > 1)

    def set_actions(self, actions: list[Action]) -> None:
        self.actions = actions
        self._fit_page()
        self._paginate()

    def press(self, slot: int) -> None:
        """A human pressed the plain button of entry ``slot`` of the page shown."""
        if slot < len(self._shown):
            self.press_action(self._shown[slot][0])

    def press_action(self, action: Action) -> None:
        if self.screen is not None and self.game_seat is not None and action in self.actions:
            self.screen.human_action(self.game_seat, action)

    def on_labels(self, *_a: Any) -> None:
        """The entries' widgets follow ``labels`` (one per slot of the page; an empty label hides its button)."""
        grid = self.ids.get("buttons")
        if grid is None or not hasattr(self, "_groups"):
            return
        from kivy.factory import Factory

        u = self._unit()
        wanted = []
        for slot, label in enumerate(self.labels):
            entry = self._shown[slot] if slot < len(self._shown) else []
            if entry and isinstance(entry[0], Then):
                group = self._groups.get(slot)
                if group is None:
                    group = self._groups[slot] = ThenGroup()
                pairs = [t for t in entry if isinstance(t, Then)]
                _shared, rest = shared_words([self.describe(t.then) for t in pairs])
                group.show(label, list(zip(rest, pairs)), self.press_action, u, u * self.BUTTON_FONT)
                wanted.append(group)
                continue
            while len(self._buttons) <= slot:
                n = len(self._buttons)
                button = Factory.KioskButton(font_size=u * self.BUTTON_FONT)
                button.bind(on_release=lambda _b, i=n: self.press(i))
                self._buttons.append(button)
            button = self._buttons[slot]
            button.text = label
            button.action = entry[0] if entry else None
            button.opacity = 1 if label else 0
            button.disabled = not label
            wanted.append(button)
        if list(reversed(grid.children)) != wanted:
            grid.clear_widgets()
            for w in wanted:
                grid.add_widget(w)
        box = self.ids.get("button_box")
        if box is not None and not (self.labels and self.labels[0]):
            # no buttons this step: the box takes no room (its hint is gone, its last laid-out width would stay
            # and squeeze the tray's tiles and cards beside an empty box); while the tray is only closed it keeps
            # that width, so its page size stays the open tray's
            box.width = 0


class BoardScreen(GenericGameScreen):
    """The generic screen with a board in the centre (see the module docstring). Subclasses give the board and
    texts through :meth:`board_cells`, :meth:`public_lines`, :meth:`private_lines`, :meth:`prompt_text` and
    :meth:`event_text`, the button order through :attr:`ACTION_ORDER`, and the tiles through :attr:`PICKS`,
    :attr:`PRIVATE_PICKS` and :meth:`placed_tile`."""

    #: The shared board stays put: its pictures read from every side, and the acting seat's zone is highlighted
    #: instead (turning the whole board to each player in turn was dizzying, in attract mode most of all).
    turns_to_mover = False

    categories: dict[str, str] = {}
    #: Action class names in button order when no square is selected (see the module docstring); classes not
    #: listed come after the listed ones; the engine's order is kept within a class.
    ACTION_ORDER: tuple[str, ...] = ()
    #: Actions that take a tile from the public pantry: class name -> the field naming the tile. They are tiles in
    #: the centre's pantry row, not buttons (a tap applies the action; a drag onto a square also places it).
    PICKS: dict[str, str] = {}
    #: The same for picks that must stay private (they are tiles in the seat's tray).
    PRIVATE_PICKS: dict[str, str] = {}
    #: Two choices on one button (:class:`Then`): action class name -> the class names of the choices that may
    #: follow it on the same button (Maki: ``Serve`` -> ``Draw``, ``EndTurn``). Which ones come from the engine:
    #: :meth:`follow_ups`.
    FOLLOW_UPS: dict[str, tuple[str, ...]] = {}
    #: How many of the seat's own steps :meth:`follow_ups` looks through for them (a reward card to take, a card
    #: to discard, then the draw).
    FOLLOW_DEPTH = 3
    #: How many events the last-moves box shows (newest last).
    HISTORY = 3
    #: Legal actions that serve (or complete) a recipe now: class name -> the field naming the recipe's id. The
    #: acting seat's card for that recipe is framed in gold (read from ``legal_actions``, no rule here).
    READY: dict[str, str] = {}
    board_rows = NumericProperty(6)
    board_cols = NumericProperty(6)
    #: The public information in words (kept for tests and as a text description; the centre draws it instead:
    #: :meth:`seat_rows`, :meth:`shared_rows`).
    info_text = StringProperty("")
    #: The centre's one line of words: whose turn it is and the step (the first of :meth:`public_lines`).
    turn_line = StringProperty("")
    legend = StringProperty("")
    #: The selected square (-1: none); only ever set while a human seat may act.
    selected = NumericProperty(-1)
    #: The tile chosen for placing ("" none): chosen in the tray, or the only tile there is to place.
    chosen = StringProperty("")
    #: The centre's pantry row holds tiles the acting seat may take (the kv rule gives it room then).
    has_pantry = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        from kiosk.ui import load_layouts

        load_layouts()  # idempotent: board.kv is loaded once per process
        super().__init__(**kw)
        self.tiles: list[BoardTile] = []
        #: The acting seat (game seat of the one human in ``to_move()``), else None.
        self.acting: int | None = None
        self._legal: list[Action] = []  # the acting seat's legal actions in button order
        self._squares: list[tuple[int, ...]] = []  # the squares each of those names
        #: (tile, square, action) of every legal placement of the acting seat
        self._placements: list[tuple[str, int, Action]] = []
        self.eligible: set[int] = set()
        self._public: dict[str, Any] = {}
        self._history: deque[str] = deque(maxlen=self.HISTORY)
        self._tile_key: tuple[Any, ...] = ()
        self._ghost: Tile | None = None
        #: (game seat, action): the second half of a :class:`Then` button, waiting until the engine offers it
        self._then: tuple[int, Action] | None = None
        self._follow_cache: tuple[tuple[Any, ...], dict[Action, list[Action]]] = ((), {})

    def _build_panels(self, *_a: Any) -> None:
        if self.panels or self.table is None:
            return
        for seat in self.table.seats:
            panel = BoardPanel(table=self.table, seat=seat)
            panel.screen = self
            self.panels[seat.index] = panel
            self.ids.seat_layer.add_widget(panel)
            panel.sync_shown()

    # ------------------------------------------------------------------------------------------- per game
    def board_cells(self, public: dict[str, Any]) -> list[dict[str, Any]]:
        """One dict per square: ``kind`` ("" / "teacup" / ingredient), ``stack``, ``covered``."""
        raise NotImplementedError

    def board_size(self, public: dict[str, Any]) -> tuple[int, int]:
        raise NotImplementedError

    def public_lines(self, public: dict[str, Any]) -> list[str]:
        return []

    def recipe_names(self, mine: dict[str, Any], g: int) -> dict[int, str]:
        """Recipe id -> name, for the seat's action buttons."""
        return {}

    def private_lines(self, mine: dict[str, Any], g: int) -> list[str]:
        return []

    def shelf_items(
        self, mine: dict[str, Any], g: int, ready: set[int]
    ) -> tuple[list[dict[str, Any]], list[str], list[tuple[str, str]]]:
        """What seat ``g``'s tray draws from its own view: its recipes as :class:`RecipeShelf` card dicts (``ready``:
        the ids it can serve now), the action cards it holds, the tiles in its hand ``(kind, category)``."""
        return [], [], []

    def seat_rows(self, public: dict[str, Any]) -> list[dict[str, Any]]:
        """Per game seat, its row of the public column: ``points``, ``counters`` (:class:`SeatLine`) and ``cards``."""
        return []

    def shared_rows(
        self, public: dict[str, Any]
    ) -> tuple[list[tuple[str, float, dict[str, Any]]], list[tuple[str, float, dict[str, Any]]]]:
        """The shared things as two :class:`PieceRow` spec lists: counts and decks; named cards."""
        return [], []

    def recipe_card(self, recipe: dict[str, Any], **extra: Any) -> dict[str, Any]:
        """A recipe from a view (``name``, ``ingredients``) as a :class:`RecipeShelf` card dict."""
        ingredients = [str(k) for k in recipe.get("ingredients", [])]
        card = {
            "name": str(recipe.get("name", "")),
            "ingredients": ingredients,
            "categories": [self.categories.get(k, "") for k in ingredients],
        }
        card.update(extra)
        return card

    def placed_tile(self, action: Action, public: dict[str, Any]) -> str | None:
        """The tile ``action`` puts on its square (a placement), else None. Read from the action's fields and
        the public view (Maki: the taken tile is public), never from rules."""
        return None

    def describe_action(self, action: Action, cols: int, cells: int, recipes: dict[int, str]) -> str:
        """A button's label for ``action`` (subclasses word their own actions; default :func:`action_label`); a
        :class:`Then` as both its halves: "Serve Maguro N., then Draw 3"."""
        if isinstance(action, Then):
            first = self.describe_action(action.first, cols, cells, recipes)
            return f"{first}, then {self.describe_action(action.then, cols, cells, recipes)}"
        return action_label(action, cols, cells, recipes)

    def prompt_text(self, public: dict[str, Any], kinds: set[str], board_moves: bool) -> str:
        """What the acting seat should do now, in words, from the kinds (class names) of its legal actions and
        the public view; ``board_moves``: some legal action names a square. Never names anything private."""
        if board_moves:
            return "Tap a marked square, or choose below"
        return "Choose below"

    def event_text(self, ev: Event) -> str:
        """One event as a line of the last-moves box (subclasses: the game's own formatter)."""
        return fallback_event_text(ev, self.seat_name)

    # ------------------------------------------------------------------------------------------- helpers
    def seat_name(self, g: int | None) -> str:
        """A game seat as the table names it (its shape name); None (the game itself) as "The game"."""
        s = self.session
        if g is None:
            return "The game"
        if s is not None and 0 <= g < len(s.seats):
            return str(s.seats[g].label)
        return f"Seat {g + 1}"

    def square_name(self, cell: int) -> str:
        cols = max(1, int(self.board_cols))
        if isinstance(cell, int) and 0 <= cell < cols * int(self.board_rows):
            return cell_name(cols, cell)
        return "off the board"

    @classmethod
    def order_actions(cls, actions: list[Action]) -> list[Action]:
        """Button order with nothing selected: by :attr:`ACTION_ORDER`, stable within a class."""
        rank = {name: i for i, name in enumerate(cls.ACTION_ORDER)}
        last = len(rank)
        return sorted(actions, key=lambda a: rank.get(type(a).__name__, last))

    def pick_tile(self, action: Action) -> tuple[str, bool] | None:
        """(tile, private?) when ``action`` is a pick (:attr:`PICKS`, :attr:`PRIVATE_PICKS`), else None."""
        name = type(action).__name__
        for table, private in ((self.PICKS, False), (self.PRIVATE_PICKS, True)):
            if name in table:
                value = getattr(action, table[name], None)
                if isinstance(value, str):
                    return value, private
        return None

    def acting_panel(self) -> BoardPanel | None:
        if self.session is None or self.acting is None:
            return None
        panel = self.panels.get(self.session.seats[self.acting].index)
        return panel if isinstance(panel, BoardPanel) else None

    def choosable(self, game_seat: int) -> list[Any]:
        """Every widget the seat may choose now, in the order a highlight should visit them: its tray's tiles,
        the pantry's tiles, the marked board squares, then its enabled action buttons (see the module
        docstring's contract). Empty when the seat may not act."""
        if self.session is None or self.acting != game_seat:
            return []
        panel = self.acting_panel()
        out: list[Any] = []
        if panel is not None and panel.ids.tray.is_open:
            out += [w for w in reversed(panel.ids.hand.children) if isinstance(w, TileChoice) and not w.disabled]
        out += [w for w in reversed(self.ids.pantry.children) if isinstance(w, TileChoice) and not w.disabled]
        out += [t for t in self.tiles if t.index in self.eligible]
        if panel is not None and panel.ids.tray.is_open:
            from kivy.uix.button import Button

            out += [
                b
                for b in panel.ids.tray.walk(restrict=True)
                if isinstance(b, Button) and b.text and not b.disabled and b.opacity > 0
            ]
        return out

    def focus_targets(self, seat: int) -> list[Any]:
        """Seat buttons visit :meth:`choosable` group by group (tray tiles, Pantry tiles, marked squares, buttons),
        each group in reading order as the seat sees it (the board read from that seat's side)."""
        g = self.session.game_seat_of(seat) if self.session is not None else None
        zone = self.panels.get(seat)
        if g is None or zone is None:
            return []
        found = self.choosable(g)
        hand = set(zone.ids.hand.children)
        groups: list[list[Any]] = [[], [], [], []]
        for w in found:
            groups[0 if w in hand else 1 if isinstance(w, TileChoice) else 2 if isinstance(w, BoardTile) else 3].append(
                w
            )
        return [w for group in groups for w in reading_order(zone, group)]

    def focus_back(self, seat: int) -> bool:
        """ "hold b": clear the selected square, then the chosen tile."""
        if self.selected >= 0:
            self.clear_selection()
            return True
        if self.chosen:
            self.chosen = ""
            self._apply_selection()
            return True
        return False

    def focus_after(self, seat: int, chosen: Any, targets: list[Any]) -> Any:
        """Where the highlight goes after a choice by button: a square chosen (selected) goes on to the first of
        its buttons (the actions naming it), a hand tile chosen to the first square marked for it; None (it stays)
        after anything else, or when the follow-ups are not on screen."""
        from kivy.uix.button import Button

        if isinstance(chosen, BoardTile) and self.selected >= 0 and self.selected == chosen.index:
            buttons = [w for w in targets if isinstance(w, Button)]
            return next((w for w in buttons if w.text not in ("\u25c0", "\u25b6")), buttons[0] if buttons else None)
        if isinstance(chosen, TileChoice) and chosen.mode == "hand" and self.chosen and self.chosen == chosen.kind:
            return next((w for w in targets if isinstance(w, BoardTile)), None)
        return None

    # ------------------------------------------------------------------------------------------- lifecycle
    def begin(self, session: Any) -> None:
        self.selected = -1
        self.chosen = ""
        self.acting = None
        self._then = None
        self._follow_cache = ((), {})
        self._history.clear()
        super().begin(session)
        for ev in session.last_events:  # a resumed game: its last move, in words
            self._history.append(self._event_line(ev))
        self.last_text = "\n".join(self._history)

    def end(self) -> None:
        from kiosk.ui import motion

        self.selected = -1
        self.chosen = ""
        self.acting = None
        self._then = None
        self._drop_ghost()
        self._touched, self._touched_by = [], None
        motion.clear()  # no piece of this game stays in flight
        super().end()

    def hide_private(self) -> None:
        super().hide_private()
        self.clear_selection()

    def _on_change(self, _session: Any = None, events: Any = None, *_a: Any) -> None:
        """Every applied action: its events go to the last-moves box in words, and the selection is cleared
        (the legal actions changed)."""
        for ev in events or ():
            self._history.append(self._event_line(ev))
        self.selected = -1
        self.chosen = ""
        session = self.session
        if self._then is not None and session is not None:
            g = self._then[0]
            if session.state.is_over() or g not in session.state.to_move() or session.is_bot(g):
                self._then = None  # the turn passed (or a bot took the seat): nothing waits
        if session is not None and self.acting is not None and self.acting < len(session.seats):
            state = session.state
            if state.is_over() or self.acting not in state.to_move():
                # the turn passed: the hand hides now (the redraw may come after other seats moved, and the tray
                # opens again when this seat's next turn starts)
                self.panels[session.seats[self.acting].index].ids.tray.close()
                self.acting = None
        self._redraw()
        self.animate_events(list(events or ()))

    # ------------------------------------------------------------------------------------------- motion
    #: Event kinds and the fields naming the square a tile lands on (Maki ``placed``, Wasabi! ``placed``).
    PLACED = {"placed": ("cell", "square")}
    #: Event kinds of a completed recipe (Maki ``served``, Wasabi! ``completed``) and the field with its name.
    COMPLETED = {"served": "name", "completed": "recipe"}
    _touched: list[int]  # the squares the seat now acting placed or switched this turn (what a recipe glows)
    _touched_by: int | None
    _cup_from: int  # (Maki) the square whose teacup was lifted, where the teacup flies from

    def animate_events(self, events: list[Event]) -> None:
        """Motion for the events of one applied action, on top of the state (drawn already; see
        :mod:`kiosk.ui.motion`): a placed tile flies from the acting seat's zone to its square, a tile taken off
        the board (Chop) flies to the seat, a Switch's two tiles fly past each other, an action card taken flies
        from the board or the centre to the seat, and a completed recipe glows the squares the seat touched this
        turn and shows a banner with the party picture at the seat, facing it. Never delays input: every piece
        in flight is a ghost on the window."""
        from kiosk.ui import motion
        from kiosk.ui.pictures import picture_name
        from kiosk.ui.pieces import Token

        session = self.session
        if session is None or not self.tiles or not events:
            return
        cells = self.board_cells(session.state.view(None))
        touched: list[int] = getattr(self, "_touched", [])
        mover = getattr(self, "_touched_by", None)
        for ev in events:
            d = dict(ev.data)
            g = ev.seat
            zone = self.panels.get(session.seats[g].index) if g is not None and 0 <= g < len(session.seats) else None
            if g is not None and g != mover:
                touched, mover = [], g
            if zone is None or not motion.wanted(session, g):
                continue
            size = tuple(self.tiles[0].size)

            def tile_at(cell: int) -> BoardTile | None:
                return self.tiles[cell] if isinstance(cell, int) and 0 <= cell < len(self.tiles) else None

            def piece(kind: str) -> Tile:
                return Tile(kind=kind, category=self.categories.get(kind, ""))

            kind = str(d.get("kind") or d.get("tile") or "")
            action = dict(d.get("action") or {})
            if ev.kind in self.PLACED:
                cell = next((d[k] for k in self.PLACED[ev.kind] if isinstance(d.get(k), int)), -1)
                target = tile_at(cell)
                if target is not None:
                    motion.fly(piece(kind), zone, target, 0.35, size=size)
                    touched.append(cell)
                    if d.get("teacup"):
                        self._cup_from = cell
            elif ev.kind == "teacup" and tile_at(d.get("cell", -1)) is not None:
                start = tile_at(getattr(self, "_cup_from", -1))
                motion.fly(piece("teacup"), start if start is not None else zone, self.tiles[d["cell"]], 0.3, size)
            elif ev.kind == "switch" or action.get("type") == "PlaySwitch":
                a, b = (d.get("a"), d.get("b")) if ev.kind == "switch" else (action.get("a"), action.get("b"))
                ta, tb = tile_at(a if isinstance(a, int) else -1), tile_at(b if isinstance(b, int) else -1)
                if ta is not None and tb is not None:
                    motion.fly(piece(cells[ta.index]["kind"]), tb, ta, 0.35)
                    motion.fly(piece(cells[tb.index]["kind"]), ta, tb, 0.35)
                    touched += [ta.index, tb.index]
            elif ev.kind in ("chop", "chopped"):
                start = tile_at(d.get("cell", d.get("square", -1)))
                if start is not None and kind:
                    motion.fly(piece(kind), start, zone, 0.35, size=size)
            elif ev.kind in ("gained", "took_card"):
                start = tile_at(d.get("square", -1))
                card = Token(picture=picture_name(str(d.get("card", ""))))
                motion.fly(card, start if start is not None else self.ids.centre, zone, 0.4, size=size)
            elif ev.kind in self.COMPLETED:
                for cell in dict.fromkeys(touched):
                    if (t := tile_at(cell)) is not None:
                        motion.glow(t, zone.seat_colour, 0.4, pulses=3)
                name = str(d.get(self.COMPLETED[ev.kind], ""))
                seat = session.seats[g] if g is not None else None
                motion.banner(zone, f"{name}!", "party", seat.rotation if seat is not None else 0)
            if ev.kind == "turn_over":
                touched, mover = [], None
        self._touched, self._touched_by = touched, mover

    def _event_line(self, ev: Event) -> str:
        try:
            return self.event_text(ev)
        except Exception:  # a formatter bug must not stop the game: say it plainly
            return fallback_event_text(ev, self.seat_name)

    # ------------------------------------------------------------------------------------------- tapping
    def _act(self, action: Action) -> bool:
        """Apply ``action`` for the acting seat now (and redraw at once, so that a second touch in the same frame
        sees the new choices)."""
        if self.session is None or self.acting is None:
            return False
        g = self.acting
        self.human_action(g, action)
        self._draw()
        return True

    def human_action(self, game_seat: int, action: Action) -> None:
        """Apply a human seat's choice; a :class:`Then` applies its first half now and its second as soon as the
        engine offers it in the same turn (at once, or after the steps the first one brought: Maki's reward card
        for a 2-ingredient recipe). Every choice the seat makes afterwards looks at the waiting half again
        (:meth:`_follow_up`)."""
        session = self.session
        if session is None:
            return
        before = len(session.state.journal or ())
        both = isinstance(action, Then)
        if isinstance(action, Then):
            self._then = (game_seat, action.then)
            action = action.first
        super().human_action(game_seat, action)
        if len(session.state.journal or ()) == before:
            if both:
                self._then = None  # refused (the seat was told why): nothing waits
            return
        self._follow_up()

    def _follow_up(self) -> None:
        """The waiting second half of a :class:`Then`: applied when the engine offers it to its seat now; dropped
        when the seat's turn is over, the seat is no longer a human's, or the engine offers other choices of the
        same kind instead (the player chooses again); kept while other steps of the seat's come first."""
        session = self.session
        if self._then is None or session is None:
            return
        g, then = self._then
        state = session.state
        if state.is_over() or g not in state.to_move() or session.is_bot(g):
            self._then = None
            return
        legal = state.legal_actions(g)
        if then in legal:
            self._then = None
            super().human_action(g, then)
        elif any(type(a) is type(then) for a in legal):
            self._then = None

    def follow_ups(self, action: Action) -> list[Action]:
        """The choices that may follow ``action`` on one button (:attr:`FOLLOW_UPS`), from the engine alone: on a
        copy of the state, ``action`` applied for the acting seat, the legal actions of the listed classes at the
        seat's first step that offers any, looking through at most :attr:`FOLLOW_DEPTH` steps of its own (every
        choice at a step between: Maki's reward cards). Empty when the seat's turn would be over."""
        wanted = self.FOLLOW_UPS.get(type(action).__name__)
        session, g = self.session, self.acting
        if not wanted or session is None or g is None:
            return []
        state = session.state
        key = (id(state), len(state.journal or ()), g)
        if self._follow_cache[0] != key:
            self._follow_cache = (key, {})
        cache = self._follow_cache[1]
        if action in cache:
            return cache[action]
        found: list[Action] = []
        start = state.clone()
        try:
            start.apply(g, action)
        except RuleError:
            cache[action] = found
            return found
        frontier = [start]
        for _ in range(self.FOLLOW_DEPTH):
            deeper = []
            for st in frontier:
                if st.is_over() or g not in st.to_move():
                    continue
                legal = st.legal_actions(g)
                hits = [a for a in legal if type(a).__name__ in wanted]
                found += [a for a in hits if a not in found]
                if hits:
                    continue
                for a in legal:
                    nxt = st.clone()
                    nxt.apply(g, a)
                    deeper.append(nxt)
            frontier = deeper[:24]
        cache[action] = found
        return found

    def with_follow_ups(self, actions: list[Action]) -> list[Action]:
        """``actions`` with, before each one that may be followed (:attr:`FOLLOW_UPS`), one :class:`Then` button
        per choice that may follow it (Maki: "Serve Maguro N., then Draw 2", "... Draw 3", "... Draw 4", then the
        plain "Serve Maguro N." for a player who serves another recipe before drawing)."""
        out: list[Action] = []
        for a in actions:
            out += [Then(a, b) for b in self.follow_ups(a)]
            out.append(a)
        return out

    def tap_square(self, cell: int) -> bool:
        """A finger went down on square ``cell``. True when the tap meant something (the touch is used).

        With a tile chosen (or only one to place), the placement of that tile on the square applies at once when
        it is the only one; several (variants) or other actions naming the square become the seat's buttons."""
        panel = self.acting_panel()
        if panel is None or self.attract:
            return False  # a bot's turn, attract mode, game over: the board ignores taps
        panel.ids.tray.poke()
        tile = self.chosen
        placements = [a for t, sq, a in self._placements if sq == cell and (not tile or t == tile)]
        if tile and len(placements) == 1:
            return self._act(placements[0])
        if cell == self.selected:
            self.clear_selection()
        elif cell in self.eligible:
            self.selected = cell
            panel.page = 0
            self._apply_selection()
        else:
            self.clear_selection()
            what = f"the {tile}" if tile else "anything"
            panel.show_error(
                f"Nothing to play on {self.square_name(cell)} now"
                if not tile
                else f"You cannot put {what} on {self.square_name(cell)}",
                3.0,
            )
        return True

    def choose_tile(self, widget: TileChoice) -> None:
        """A tap on a tile: a pick applies its action; a hand tile is chosen for placing (again: unchosen)."""
        panel = self.acting_panel()
        if panel is None or self.attract:
            return
        panel.ids.tray.poke()
        if widget.mode == "pick" and widget.action is not None:
            self._act(widget.action)
            return
        self.chosen = "" if self.chosen == widget.kind else widget.kind
        self.selected = -1
        self._apply_selection()

    def square_at(self, wx: float, wy: float) -> int:
        """The board square under a window point (-1: none)."""
        for tile in self.tiles:
            if tile.get_root_window() is not None and tile.collide_point(*tile.to_widget(wx, wy)):
                return tile.index
        return -1

    def drag_tile(self, widget: TileChoice, wx: float, wy: float) -> None:
        """A tile follows the finger (a copy of it, over everything)."""
        if self.acting_panel() is None or self.attract:
            return
        if self._ghost is None:
            self._ghost = Tile(kind=widget.kind, category=widget.category, size_hint=(None, None))
            self._ghost.size = widget.size
            self._ghost.opacity = 0.85
            self.add_widget(self._ghost)
        x, y = self.to_widget(wx, wy, relative=True)
        self._ghost.center = (x, y)

    def _drop_ghost(self) -> None:
        if self._ghost is not None:
            if self._ghost.parent is not None:
                self._ghost.parent.remove_widget(self._ghost)
            self._ghost = None

    def drop_tile(self, widget: TileChoice, wx: float, wy: float) -> None:
        """A tile dragged and let go at a window point: on a square, the tile goes there (a pick is applied
        first, then the placement of the picked tile on that square if the engine then offers exactly one); off
        the board, a drag counts as a tap on the tile."""
        self._drop_ghost()
        panel = self.acting_panel()
        if panel is None or self.attract:
            return
        cell = self.square_at(wx, wy)
        if cell < 0:
            self.choose_tile(widget)
            return
        panel.ids.tray.poke()
        if widget.mode == "pick" and widget.action is not None:
            if not self._act(widget.action) or self.acting is None:
                return
            if not any(sq == cell for _t, sq, _a in self._placements):
                self.tap_square(cell)  # says why nothing went there; the taken tile waits for a square
                return
        else:
            self.chosen = widget.kind
        self.tap_square(cell)

    def clear_selection(self) -> None:
        if self.selected != -1:
            self.selected = -1
            panel = self.acting_panel()
            if panel is not None:
                panel.page = 0
            self._apply_selection()

    def on_touch_down(self, touch: Any) -> bool:
        """A tap on the centre off the board clears the selection (taps in seat zones never do)."""
        if super().on_touch_down(touch):
            return True
        if self.selected >= 0 and "centre" in self.ids and self.ids.centre.collide_point(*self.to_local(*touch.pos)):
            self.clear_selection()
            return True
        return False

    def _button_actions(self) -> list[Action]:
        """The acting seat's buttons with no square selected: every legal action a tile or a square does not
        reach (picks are tiles, placements a tile and a square, actions naming a square a tap on it)."""
        placements = {id(a) for _t, _s, a in self._placements}
        return [
            a
            for a, sq in zip(self._legal, self._squares)
            if not sq and id(a) not in placements and self.pick_tile(a) is None
        ]

    def _apply_selection(self) -> None:
        """Tiles' marks, the acting seat's buttons (filtered by the selected square) and its prompt."""
        if self.selected not in self.eligible:
            self.selected = -1
        sel = int(self.selected)
        panel = self.acting_panel()
        tiles = {t for t, _s, _a in self._placements}
        if self.chosen not in tiles:
            self.chosen = next(iter(tiles)) if len(tiles) == 1 else ""
        chosen = self.chosen
        placing = {sq for t, sq, _a in self._placements if t == chosen} if chosen else set()
        marks = panel is None or panel.hints  # hint mode off at the acting seat: squares are not marked
        for i, tile in enumerate(self.tiles):
            tile.eligible = marks and (i in placing if chosen else i in self.eligible)
            tile.selected = i == sel
        for each in self.panels.values():
            if isinstance(each, BoardPanel):
                each.prompt = ""
        if panel is not None:
            for w in panel.ids.hand.children:
                if isinstance(w, TileChoice):
                    w.selected = w.mode == "hand" and w.kind == chosen and len(tiles) > 1
        if panel is None:
            return
        if sel >= 0:
            shown = [a for a, sq in zip(self._legal, self._squares) if sel in sq]
            name = self.square_name(sel)
            panel.prompt = f"{name} selected: choose below (tap {name} again to clear)"
        else:
            shown = self.with_follow_ups(self._button_actions())
            if not panel.hints:
                panel.prompt = ""
            elif chosen and len(tiles) > 1:
                panel.prompt = f"Tap a marked square for the {chosen} (or drag it there)"
            else:
                panel.prompt = self.prompt_text(
                    self._public, {type(a).__name__ for a in self._legal}, bool(self.eligible)
                )
        if self._then is not None and self._then[0] == self.acting:  # what the seat's last button still does
            then = panel.describe(self._then[1])
            panel.prompt = f"{panel.prompt} ({then} follows by itself)" if panel.prompt else f"{then} follows by itself"
        panel.set_actions(shown)

    # ------------------------------------------------------------------------------------------- drawing
    def tile_look(self, kind: str, stack: int, covered: bool) -> tuple[str, tuple[float, ...], bool]:
        """(text, colour, dark text?) of a tile."""
        if covered:
            top = f"{short_name(kind)}\n" if kind else ""
            return f"{top}W! covered", (0.35, 0.70, 0.25, 1), False
        if not kind:
            return "", EMPTY_RGBA, False
        if kind == "teacup":
            return "\u2615 CUP\nteacup", CUP_RGBA, False
        cat = self.categories.get(kind, "")
        sign, rgba = CATEGORY_SIGN.get(cat, ("?", (0.8, 0.8, 0.8, 1)))
        extra = f"  \u00d7{stack}" if stack > 1 else ""
        dark = sum(rgba[:3]) > 1.5
        return f"{short_name(kind)}\n[b]{sign}[/b]{extra}", rgba, dark

    def _draw(self, *_a: Any) -> None:
        super()._draw()
        session = self.session
        if session is None:
            return
        state = session.state
        public = state.view(None)
        self._public = public
        rows, cols = self.board_size(public)
        cells = self.board_cells(public)
        self._ensure_tiles(rows, cols)
        for _i, (tile, c) in enumerate(zip(self.tiles, cells)):
            text, rgba, dark = self.tile_look(c["kind"], c.get("stack", 0), c.get("covered", False))
            tile.category = self.categories.get(c["kind"], "")
            tile.kind = c["kind"]
            tile.stack = c.get("stack", 0)
            tile.covered = c.get("covered", False)
            tile.dark = dark
            tile.text = text
        self.info_text = "\n".join(self.public_lines(public))
        self.centre_text = ""
        self.last_text = "\n".join(self._history)
        n = rows * cols
        views: dict[int, dict[str, Any]] = {}
        for g, seat in enumerate(session.seats):
            panel = self.panels[seat.index]
            mine = state.view(g)
            names = self.recipe_names(mine, g)
            panel.describe = partial(self.describe_action, cols=cols, cells=n, recipes=names)
            panel._fill()
            lines = self.private_lines(mine, g)
            panel.private_text = "\n".join(lines) if lines else "Nothing in your hand yet"
            panel.ids.tray.always_open = False
            views[g] = mine
        # the acting seat: one human in to_move (the generic draw already gave it its legal actions)
        movers = [] if state.is_over() else state.to_move()
        was = self.acting
        self.acting = None
        self._legal, self._squares, self._placements, self.eligible = [], [], [], set()
        if len(movers) == 1 and not self.attract and not session.is_bot(movers[0]):
            g = movers[0]
            self.acting = g
            self._legal = self.order_actions(list(self.panels[session.seats[g].index].actions))
            self._squares = [action_squares(a, n) for a in self._legal]
            self.eligible = {sq for squares in self._squares for sq in squares}
            for a, squares in zip(self._legal, self._squares):
                placed = self.placed_tile(a, public)
                if placed is not None and len(squares) == 1:
                    self._placements.append((placed, squares[0], a))
        if was is not None and was != self.acting and was < len(session.seats):
            self.panels[session.seats[was].index].ids.tray.close()  # the turn passed: the hand hides
        if self.acting is not None and self.acting != was:
            self.panels[session.seats[self.acting].index].ids.tray.turn_started()  # the hand opens by itself
        self._fill_tiles()
        self._fill_shelves(views)
        self._fill_public(public)
        self._apply_selection()

    def _fill_shelves(self, views: dict[int, dict[str, Any]]) -> None:
        """Each human seat's tray draws its recipes, cards and tiles (:meth:`shelf_items`); a bot's stays empty (its
        tray never opens). The acting seat's recipes it can serve now are framed (:attr:`READY`)."""
        session = self.session
        if session is None:
            return
        ready: set[int] = set()
        for a in self._legal:
            field = self.READY.get(type(a).__name__)
            value = getattr(a, field, None) if field else None
            if isinstance(value, int) and not isinstance(value, bool):
                ready.add(value)
        for g, seat in enumerate(session.seats):
            panel = self.panels[seat.index]
            shelf = panel.ids.get("shelf") if isinstance(panel, BoardPanel) else None
            if shelf is None:
                continue
            recipes: list[dict[str, Any]] = []
            cards: list[str] = []
            tiles: list[tuple[str, str]] = []
            if not session.is_bot(g) and g in views:
                recipes, cards, tiles = self.shelf_items(views[g], g, ready if g == self.acting else set())
            if panel.has_tiles:
                tiles = []  # the hand's tiles are the tray's tiles to choose already
            shelf.recipes, shelf.cards, shelf.tiles = recipes, cards, [list(t) for t in tiles]

    def _fill_public(self, public: dict[str, Any]) -> None:
        """The centre's public column: the turn line, one :class:`SeatLine` per seat, the shared rows."""
        from kivy.core.window import Window

        from kiosk.ui.typescale import min_text_px

        session = self.session
        lines = self.public_lines(public)
        self.info_text = "\n".join(lines)
        self.turn_line = lines[0] if lines else ""
        if session is None or "seat_rows" not in self.ids:
            return
        box = self.ids.seat_rows
        rows = self.seat_rows(public)[: len(session.seats)]
        lines_now = [w for w in reversed(box.children) if isinstance(w, SeatLine)]
        if len(lines_now) != len(rows):
            box.clear_widgets()
            lines_now = [SeatLine(size_hint_y=None) for _ in rows]
            for w in lines_now:
                box.add_widget(w)
            box.bind(height=self._size_seat_rows)
        movers = set() if session.state.is_over() else set(session.state.to_move())
        font = min_text_px(Window.size) * 1.1
        for g, (w, row) in enumerate(zip(lines_now, rows)):
            seat = session.seats[g]
            w.symbol, w.rgba, w.turn, w.font = seat.symbol, list(seat.colour), g in movers, font
            w.points = int(row.get("points", 0))
            w.counters = list(row.get("counters", []))
            w.cards = list(row.get("cards", []))
        self._size_seat_rows()
        a, b = self.shared_rows(public)
        self.ids.shared_a.fill(a)
        self.ids.shared_b.fill(b)

    def _size_seat_rows(self, *_a: Any) -> None:
        """Seat rows share the room left in the column, up to a comfortable height each."""
        from kivy.app import App

        box = self.ids.seat_rows
        rows = [w for w in box.children if isinstance(w, SeatLine)]
        if not rows:
            return
        u = float(getattr(App.get_running_app(), "u", 1.0) or 1.0)
        gaps = box.spacing * (len(rows) - 1)
        h = max(1.0, min(64 * u, (box.height - gaps) / len(rows)))
        for w in rows:
            w.height = h
        spare = max(0.0, box.height - gaps - h * len(rows))
        box.padding = [0, 0, 0, spare]  # the rows sit under the turn line, the spare room below them

    def public_summary(self) -> dict[str, Any]:
        """What the public column shows (tests compare it with the view): per seat row its ``points``, counters
        by picture (``{picture or symbol: count}``) and cards; the shared pieces as ``(kind, props)``."""
        rows = [w for w in reversed(self.ids.seat_rows.children) if isinstance(w, SeatLine)]
        shared = []
        for row in (self.ids.shared_a, self.ids.shared_b):
            for w in row.pieces:
                kind = type(w).__name__
                if kind == "Counter":
                    shared.append((kind, {"picture": w.picture, "symbol": w.symbol, "count": int(w.count)}))
                elif kind == "DeckPile":
                    shared.append((kind, {"length": int(w.length), "count": int(w.count)}))
                else:
                    shared.append((kind, {"name": w.name, "count": int(w.count)}))
        return {
            "seats": [
                {
                    "symbol": w.symbol,
                    "points": int(w.points),
                    "counters": {c[0] or c[4]: int(c[3]) for c in w.counters},
                    "cards": list(w.cards),
                    "turn": bool(w.turn),
                }
                for w in rows
            ],
            "shared": shared,
        }

    def _fill_tiles(self) -> None:
        """The pantry row (public picks) in the centre and the hand row (private picks, tiles to place) in the
        acting seat's tray; rebuilt only when the choices change."""
        public: list[tuple[str, Action | None, str]] = []
        private: list[tuple[str, Action | None, str]] = []
        for a in self._legal:
            pick = self.pick_tile(a)
            if pick is not None:
                (private if pick[1] else public).append((pick[0], a, "pick"))
        tiles = []
        for t, _s, _a in self._placements:
            if t not in tiles:
                tiles.append(t)
        if len(tiles) > 1:
            private += [(t, None, "hand") for t in tiles]
        key = (self.acting, tuple(public), tuple(private))
        if key == self._tile_key:
            return
        self._tile_key = key
        self._fill_row(self.ids.pantry, public)
        self.has_pantry = bool(public)
        for panel in self.panels.values():
            if isinstance(panel, BoardPanel):
                mine = private if panel is self.acting_panel() else []
                self._fill_row(panel.ids.hand, mine)
                panel.has_tiles = bool(mine)

    def _fill_row(self, row: Any, items: list[tuple[str, Action | None, str]]) -> None:
        row.clear_widgets()
        for kind, action, mode in items:
            row.add_widget(
                TileChoice(
                    screen=self,
                    action=action,
                    mode=mode,
                    kind=kind,
                    category=self.categories.get(kind, ""),
                    label=short_name(kind),
                )
            )

    def _ensure_tiles(self, rows: int, cols: int) -> None:
        grid = self.ids.board
        if len(self.tiles) == rows * cols and grid.cols == cols:
            return
        grid.clear_widgets()
        self.board_rows, self.board_cols = rows, cols
        grid.cols = cols
        self.tiles = []
        for i in range(rows * cols):
            tile = BoardTile(index=i, on_tap=self.tap_square, cell=cell_name(cols, i))
            self.tiles.append(tile)
            grid.add_widget(tile)

    def board_summary(self) -> list[tuple[str, int, bool]]:
        """What the board widgets show: (kind, stack, covered) per square (tests compare it with view())."""
        return [(t.kind, t.stack, t.covered) for t in self.tiles]

    def offered(self, game_seat: int) -> list[Action]:
        """Every action the seat's buttons offer now, on all pages (tests compare it with legal_actions)."""
        if self.session is None:
            return []
        return list(self.panels[self.session.seats[game_seat].index].actions)
