"""Maki on the table: the board as a grid of tiles in the centre, each seat's recipes in its private tray.

The screen holds no rules: it draws ``state.view(None)`` (board, pool, display, scores) and ``state.view(seat)``
(the seat's own recipes), and every button is one of ``state.legal_actions(seat)`` for ``session.apply``.

:class:`BoardScreen` is shared with Wasabi! (``kiosk/games/wasabi/screen.py`` subclasses it): it is the generic
screen (:class:`kiosk.ui.game.GenericGameScreen`: one :class:`~kiosk.ui.game.PlayerPanel` per seat with a
private tray and paged action buttons) with the centre replaced by a board of :class:`BoardTile` widgets and a
public-information column. Decisions, written down:

* **The board faces the seat whose turn it is** (the centre is a :class:`~kiosk.ui.seatzone.CentrePanel`; the
  seat model turns it). Every tile also shows its square's name (row letter, column number, ``B3``) and the
  action buttons name squares the same way, so a player never has to count cells.
* **Colour is never the only cue:** a tile shows its ingredient's short name and its category letter
  (see ``CATEGORY_SIGN``); teacups say ``CUP``; Wasabi! stacks show ``×N`` and Wasabi-covered squares ``W!``.
* The board widgets are reused from game to game (rebuilt only when the board size changes).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.label import Label

from kiosk.engine import Action
from kiosk.ui.game import ActionPanel, GenericGameScreen

__all__ = ["GameScreen", "MakiScreen", "BoardScreen", "BoardTile", "BoardPanel", "short_name", "cell_name",
           "action_label"]

ROW_LETTERS = "ABCDEFGH"
#: Category -> (letter on the tile, tile colour). Letters, not colours, are the cue; colours only help.
CATEGORY_SIGN: dict[str, tuple[str, tuple[float, float, float, float]]] = {
    "base": ("R", (0.95, 0.93, 0.85, 1)), "rice": ("R", (0.95, 0.93, 0.85, 1)),
    "maki": ("M", (0.30, 0.42, 0.30, 1)),
    "misc": ("M", (0.80, 0.72, 0.90, 1)),
    "fish": ("F", (0.98, 0.58, 0.45, 1)),
    "veg": ("V", (0.55, 0.85, 0.45, 1)), "vegetables": ("V", (0.55, 0.85, 0.45, 1)),
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
    name = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name)      # DrawRecipe -> Draw Recipe
    return " ".join([name] + [p for p in parts if p])


def load_categories(path: Path, section: str) -> dict[str, str]:
    """Ingredient -> category from a game's cards.json (``{section: {category: {kind: count}}}``)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {kind: cat for cat, kinds in data[section].items() for kind in kinds}


class BoardTile(Label):
    """One square of the board. ``kind`` is "" (empty), "teacup" or an ingredient; ``stack`` the tiles on it
    (Wasabi!), ``covered`` true under a Wasabi card. ``text`` always names what is there (tests read it)."""

    kind = StringProperty("")
    cell = StringProperty("")
    stack = NumericProperty(0)
    covered = BooleanProperty(False)
    rgba = ListProperty(list(EMPTY_RGBA))
    dark = BooleanProperty(False)


class BoardPanel(ActionPanel):
    """One seat's side of a board screen: the generic panel's behaviour (:class:`~kiosk.ui.game.ActionPanel`)
    with its own look (``<BoardPanel>`` in ``layouts/maki.kv``): the hand and the action buttons side by side in
    the tray, buttons naming squares (``B3``) instead of numbers."""


class BoardScreen(GenericGameScreen):
    """The generic screen with a board in the centre (see the module docstring). Subclasses give the board and
    texts through :meth:`board_cells`, :meth:`public_lines` and :meth:`private_lines`."""

    categories: dict[str, str] = {}
    board_rows = NumericProperty(6)
    board_cols = NumericProperty(6)
    info_text = StringProperty("")
    legend = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        from kiosk.ui import load_layouts
        load_layouts()                      # idempotent: maki.kv / wasabi.kv are loaded once per process
        super().__init__(**kw)
        self.tiles: list[BoardTile] = []

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
        rows, cols = self.board_size(public)
        cells = self.board_cells(public)
        self._ensure_tiles(rows, cols)
        for i, (tile, c) in enumerate(zip(self.tiles, cells)):
            text, rgba, dark = self.tile_look(c["kind"], c.get("stack", 0), c.get("covered", False))
            tile.kind = c["kind"]
            tile.stack = c.get("stack", 0)
            tile.covered = c.get("covered", False)
            tile.rgba = list(rgba)
            tile.dark = dark
            tile.text = text
        self.info_text = "\n".join(self.public_lines(public))
        self.centre_text = ""
        n = rows * cols
        for g, seat in enumerate(session.seats):
            panel = self.panels[seat.index]
            mine = state.view(g)
            names = self.recipe_names(mine, g)
            panel.describe = lambda a, c=cols, n=n, r=names: action_label(a, c, n, r)
            panel._fill()
            lines = self.private_lines(mine, g)
            panel.private_text = "\n".join(lines) if lines else "Nothing in your hand yet"
            panel.ids.tray.always_open = False

    def _ensure_tiles(self, rows: int, cols: int) -> None:
        grid = self.ids.board
        if len(self.tiles) == rows * cols and grid.cols == cols:
            return
        grid.clear_widgets()
        self.board_rows, self.board_cols = rows, cols
        grid.cols = cols
        self.tiles = []
        for i in range(rows * cols):
            tile = BoardTile(cell=cell_name(cols, i))
            self.tiles.append(tile)
            grid.add_widget(tile)

    def board_summary(self) -> list[tuple[str, int, bool]]:
        """What the board widgets show: (kind, stack, covered) per square (tests compare it with view())."""
        return [(t.kind, t.stack, t.covered) for t in self.tiles]


class MakiScreen(BoardScreen):
    """Maki: teacups on the board, recipes in the private tray, the Wasabi pool and display in the centre."""

    categories = load_categories(Path(__file__).with_name("cards.json"), "pantry")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.legend = "R rice  M misc  F fish  V veg  S seafood  \u2605 special  \u2615 CUP teacup"

    def board_size(self, public: dict[str, Any]) -> tuple[int, int]:
        return int(public["rows"]), int(public["cols"])

    def board_cells(self, public: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"kind": v or "", "stack": 1 if v and v != "teacup" else 0, "covered": False}
                for v in public["board"]]

    def public_lines(self, public: dict[str, Any]) -> list[str]:
        s = self.session
        labels = [seat.label for seat in s.seats] if s else []
        lines = []
        if public["phase"] == "over":
            lines.append("Game over")
        else:
            who = labels[public["turn"]] if public["turn"] < len(labels) else "?"
            step = public["phase"]
            if step == "place" and isinstance(public.get("pending"), str):
                step = f"place the {public['pending']}"
            lines.append(f"Turn: {who} ({step})")
        lines.append("Scores: " + "   ".join(f"{labels[i]} {p} pts, {w} wasabi"
                                             for i, (p, w) in enumerate(zip(public["scores"], public["wasabi"]))
                                             if i < len(labels)))
        lines.append(f"Wasabi pool: {public['pool']}")
        lines.append("Action cards on display: " + (", ".join(public["display"]) or "none")
                     + f"   (deck {public['action_deck']})")
        held = [f"{labels[i]}: {', '.join(h['card'] for h in hs)}" for i, hs in enumerate(public["held"])
                if hs and i < len(labels)]
        if held:
            lines.append("Held: " + "   ".join(held))
        lines.append("Recipe decks: " + "  ".join(f"{k}-long {d['count']}" for k, d in public["decks"].items()))
        empty = [k for k, n in public["pantry"].items() if n == 0]
        lines.append(f"Pantry: {sum(public['pantry'].values())} tiles"
                     + (f" (out: {', '.join(empty)})" if empty else ""))
        if public.get("final_turns_left") is not None:
            lines.append(f"Board full: {public['final_turns_left']} final turns left")
        return lines

    def recipe_names(self, mine: dict[str, Any], g: int) -> dict[int, str]:
        return {r["id"]: r["name"] for r in mine["hands"][g] if "id" in r}

    def private_lines(self, mine: dict[str, Any], g: int) -> list[str]:
        lines = ["Your recipes:"]
        for r in mine["hands"][g]:
            if "name" in r:
                lines.append(f"\u2022 {r['name']} ({r['score']} pts): {' + '.join(r['ingredients'])}")
        held = [h["card"] for h in mine["held"][g]]
        if held:
            lines.append("Your action cards: " + ", ".join(held))
        served = [x["name"] for x in mine["served"][g]]
        if served:
            lines.append("Served: " + ", ".join(served))
        return lines


GameScreen = MakiScreen
