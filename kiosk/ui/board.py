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

**Playing by tapping the board** (all from ``legal_actions``; the screen knows no rules):

* The *acting seat* is the one seat in ``to_move()`` when it is a human (never in attract mode, never a bot).
  Only its buttons are ever filtered.
* A square is *eligible* when one of the acting seat's legal actions names it in a square field
  (:data:`SQUARE_FIELDS`: ``cell``, ``square``, ``a``, ``b``; Wasabi!'s Kitchen ``square=-1`` names none).
  Eligible squares carry a big ``+`` (empty) or a small one in the corner (filled): a shape. This reveals
  nothing private: what may be tapped follows from the public board and public cards (held action cards are
  public in both games, the tile to place in Maki is public, any Wasabi! hand may go on any empty square).
* Tapping an eligible square selects it: a thick double frame and ``▶B3◀`` in the corner, and the seat's
  buttons show only the legal actions naming that square, from their first page. One matching action is still
  a button: nothing is ever committed by the board tap itself. Tapping the selected square again, or the centre
  anywhere off the board, clears the selection; tapping another eligible square moves it. Tapping a square no
  legal action names clears the selection and says so at the seat ("Nothing to play on B3 now"). Taps on the
  board while no human may act (a bot's turn, attract mode, the game over) change nothing, and taps in another
  seat's zone never touch the selection. A finger on the shared board cannot be told apart by seat, so a board
  tap only ever filters the acting seat's buttons. Every applied action (and every new game) clears it.
* **Button order** with nothing selected (:attr:`BoardScreen.ACTION_ORDER`, by action class, the engine's order
  kept within a class): first the step's own choices, which are mostly few and out of reach of a board tap
  (Maki: take a tile, place it, move the teacup, serve, draw, end the turn, discard, Second Helping; Wasabi!:
  the setup and refill draws, the reward, End Step, Stack!, Spicy!, then placing the tile, the turn's main
  move), then the choices that prep or give up the turn's play (Maki: Gain a card, Take Pool, Return, so
  serving comes before prepping; Wasabi!: every Pass variant after every placement), and action cards aimed at
  squares last of all (Switch, Chop, Substitute; Switch!, Chop!, Wasabi!: many buttons, all reachable by
  tapping a square).
* **Prompt:** the acting seat's tray says in words what to do (:meth:`BoardScreen.prompt_text`, per game, from
  the legal actions' kinds and the public view only: never which tiles or recipes the seat holds, as the prompt
  shows even while the tray is closed).
* **Last moves** (the centre's bottom lines) are the last three events in words, one formatter per game
  (``kiosk.games.maki.screen.maki_event_text``, ``kiosk.games.wasabi.screen.wasabi_event_text``) with a
  readable fallback for an unknown kind: square names, recipe names and points, never field names.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from kiosk.engine import Action, Event
from kiosk.ui.game import ActionPanel, GenericGameScreen
from kiosk.ui.pieces import Tile

__all__ = [
    "BoardScreen",
    "BoardTile",
    "BoardPanel",
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
    description; the picture carries the meaning on screen)."""

    text = StringProperty("")
    dark = BooleanProperty(False)

    def __init__(self, index: int = -1, on_tap: Callable[[int], bool] | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.index = index
        self.on_tap = on_tap

    def on_touch_down(self, touch: Any) -> bool:
        """A finger down on the square is a tap on it (the screen decides whether it means anything)."""
        if self.on_tap is not None and self.collide_point(*touch.pos) and self.on_tap(self.index):
            return True
        return bool(super().on_touch_down(touch))


class BoardPanel(ActionPanel):
    """One seat's side of a board screen: the generic panel's behaviour (:class:`~kiosk.ui.game.ActionPanel`)
    with its own look (``<BoardPanel>`` in ``layouts/board.kv``): the hand and the action buttons side by side in
    the tray, buttons naming squares (``B3``) instead of numbers, and ``prompt`` (what to do now, in words) at
    the top of the tray, shown whether the tray is open or not (so it never names anything private)."""

    prompt = StringProperty("")


class BoardScreen(GenericGameScreen):
    """The generic screen with a board in the centre (see the module docstring). Subclasses give the board and
    texts through :meth:`board_cells`, :meth:`public_lines`, :meth:`private_lines`, :meth:`prompt_text` and
    :meth:`event_text`, and the button order through :attr:`ACTION_ORDER`."""

    #: The shared board stays put: its pictures read from every side, and the acting seat's zone is highlighted
    #: instead (turning the whole board to each player in turn was dizzying, in attract mode most of all).
    turns_to_mover = False

    categories: dict[str, str] = {}
    #: Action class names in button order when no square is selected (see the module docstring); classes not
    #: listed come after the listed ones; the engine's order is kept within a class.
    ACTION_ORDER: tuple[str, ...] = ()
    #: How many events the last-moves box shows (newest last).
    HISTORY = 3
    board_rows = NumericProperty(6)
    board_cols = NumericProperty(6)
    info_text = StringProperty("")
    legend = StringProperty("")
    #: The selected square (-1: none); only ever set while a human seat may act.
    selected = NumericProperty(-1)

    def __init__(self, **kw: Any) -> None:
        from kiosk.ui import load_layouts

        load_layouts()  # idempotent: board.kv is loaded once per process
        super().__init__(**kw)
        self.tiles: list[BoardTile] = []
        #: The acting seat (game seat of the one human in ``to_move()``), else None.
        self.acting: int | None = None
        self._legal: list[Action] = []  # the acting seat's legal actions in button order
        self._squares: list[tuple[int, ...]] = []  # the squares each of those names
        self.eligible: set[int] = set()
        self._public: dict[str, Any] = {}
        self._history: deque[str] = deque(maxlen=self.HISTORY)

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

    def acting_panel(self) -> BoardPanel | None:
        if self.session is None or self.acting is None:
            return None
        panel = self.panels.get(self.session.seats[self.acting].index)
        return panel if isinstance(panel, BoardPanel) else None

    # ------------------------------------------------------------------------------------------- lifecycle
    def begin(self, session: Any) -> None:
        self.selected = -1
        self.acting = None
        self._history.clear()
        super().begin(session)
        for ev in session.last_events:  # a resumed game: its last move, in words
            self._history.append(self._event_line(ev))
        self.last_text = "\n".join(self._history)

    def end(self) -> None:
        from kiosk.ui import motion

        self.selected = -1
        self.acting = None
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
            if zone is None:
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
    def tap_square(self, cell: int) -> bool:
        """A finger went down on square ``cell``. True when the tap meant something (the touch is used)."""
        panel = self.acting_panel()
        if panel is None or self.attract:
            return False  # a bot's turn, attract mode, game over: the board ignores taps
        if cell == self.selected:
            self.clear_selection()
        elif cell in self.eligible:
            self.selected = cell
            panel.page = 0
            self._apply_selection()
        else:
            self.clear_selection()
            panel.show_error(f"Nothing to play on {self.square_name(cell)} now", 3.0)
        return True

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

    def _apply_selection(self) -> None:
        """Tiles' marks, the acting seat's buttons (filtered by the selected square) and its prompt."""
        if self.selected not in self.eligible:
            self.selected = -1
        sel = int(self.selected)
        panel = self.acting_panel()
        marks = panel is None or panel.hints  # hint mode off at the acting seat: squares are not marked
        for i, tile in enumerate(self.tiles):
            tile.eligible = marks and i in self.eligible
            tile.selected = i == sel
        for each in self.panels.values():
            if isinstance(each, BoardPanel):
                each.prompt = ""
        if panel is None:
            return
        if sel >= 0:
            shown = [a for a, sq in zip(self._legal, self._squares) if sel in sq]
            name = self.square_name(sel)
            panel.prompt = f"{name} selected: choose below (tap {name} again to clear)"
        else:
            shown = self._legal
            panel.prompt = (
                self.prompt_text(self._public, {type(a).__name__ for a in self._legal}, bool(self.eligible))
                if panel.hints
                else ""
            )
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
        for g, seat in enumerate(session.seats):
            panel = self.panels[seat.index]
            mine = state.view(g)
            names = self.recipe_names(mine, g)
            panel.describe = partial(action_label, cols=cols, cells=n, recipes=names)
            panel._fill()
            lines = self.private_lines(mine, g)
            panel.private_text = "\n".join(lines) if lines else "Nothing in your hand yet"
            panel.ids.tray.always_open = False
        # the acting seat: one human in to_move (the generic draw already gave it its legal actions)
        movers = [] if state.is_over() else state.to_move()
        self.acting = None
        self._legal, self._squares, self.eligible = [], [], set()
        if len(movers) == 1 and not self.attract and not session.is_bot(movers[0]):
            g = movers[0]
            self.acting = g
            self._legal = self.order_actions(list(self.panels[session.seats[g].index].actions))
            self._squares = [action_squares(a, n) for a in self._legal]
            self.eligible = {sq for squares in self._squares for sq in squares}
        self._apply_selection()

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
