"""The board screen shared by board games (Maki and Wasabi! subclass it): the board as a grid of tiles in the
centre, each seat's hand in its private tray, the public pieces in the centre's column.

The screen holds no rules: it draws ``state.view(None)`` and each seat's ``state.view(seat)``, and every button,
tile and square is one of ``state.legal_actions(seat)`` for ``session.apply``. Its decisions (the board stays
put, colour is never the only cue, drawn not written, playing by touch, two choices on one button, the tray at
the start of a turn, no step played for the player) are in ``docs/screens.md``. Its parts: the words
(:mod:`kiosk.ui.words`), the pieces (:mod:`kiosk.board.pieces`), the two-step buttons and seat panel
(:mod:`kiosk.board.twostep`), the selection and gestures (:mod:`kiosk.board.play`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping
from functools import partial
from pathlib import Path
from typing import Any, cast

from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from kiosk.board.hooks import BoardHooks, SeatViewT, ViewT
from kiosk.board.pieces import BoardTile, SeatLine, TileChoice, fit_public_column, set_face, size_seat_rows
from kiosk.board.play import BoardPlay, SeatPanel
from kiosk.board.touch import board_plan
from kiosk.board.twostep import BoardPanel, Then
from kiosk.engine import Action, Event
from kiosk.i18n import Translator
from kiosk.ui.focus import reading_order
from kiosk.ui.pieces import Tile, category_of
from kiosk.ui.touchplan import NextIntent, Step
from kiosk.ui.words import action_label, action_squares, cell_name, fallback_event_text, points, short_name

__all__ = ["BoardScreen"]


class BoardScreen(BoardPlay, BoardHooks[ViewT, SeatViewT]):
    """The generic screen with a board in the centre (see the module docstring). Subclasses give the board and
    texts through :meth:`board_cells`, :meth:`public_lines`, :meth:`private_lines`, :meth:`prompt_text` and
    :meth:`event_text`, the button order through :attr:`ACTION_ORDER`, and the tiles through :attr:`PICKS`,
    :attr:`PRIVATE_PICKS` and :meth:`placed_tile`."""

    #: The shared board stays put: its pictures read from every side, and the acting seat's zone is highlighted
    #: instead (turning the whole board to each player in turn was dizzying, in attract mode most of all).
    turns_to_mover = False

    categories: dict[str, str] = {}
    #: The picture drawn on a covered square (the game's card lying there), "" for a game that covers none.
    cover_picture = ""
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
    #: The centre's pantry row holds tiles the acting seat may take (the kv rule gives it room then).
    has_pantry = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        from kiosk.ui import load_kv, load_layouts

        load_layouts()  # idempotent: each kv file is loaded once per process
        load_kv(Path(__file__).with_name("board.kv"))  # the board's pieces and seat panel
        super().__init__(**kw)
        self.tiles: list[BoardTile] = []
        #: The acting seat (game seat of the one human in ``to_move()``), else None.
        self.acting: int | None = None
        self._legal: list[Action] = []  # the acting seat's legal actions in button order
        self._squares: list[tuple[int, ...]] = []  # the squares each of those names
        #: (tile, square, action) of every legal placement of the acting seat
        self._placements: list[tuple[str, int, Action]] = []
        self.eligible: set[int] = set()
        self._public: ViewT = cast(ViewT, {})  # the game's public view, empty until the first draw
        self._history: deque[str] = deque(maxlen=self.HISTORY)
        self._tile_key: tuple[Any, ...] = ()
        self._ghost: Tile | None = None
        #: (game seat, action): the second half of a :class:`Then` button, waiting until the engine offers it
        self._then: tuple[int, Action] | None = None
        self._follow_cache: tuple[tuple[Any, ...], dict[Action, list[Action]]] = ((), {})
        self._seat_floor = 0.0  # a seat row's least height (px): SeatLine.floor_height at the rows' font
        self._fit_later = fit = Clock.create_trigger(self._fit_column, -1)
        col, rows = self.ids.public_col, self.ids.seat_rows.__self__
        for w in [col, *(w for w in col.children if w is not rows)]:  # (the last moves' height: _fit_column's)
            w.bind(height=fit)
        self.ids.last_move.bind(width=fit, font_size=fit)
        self.bind(last_text=fit)

    def _build_panels(self, *_a: Any) -> None:
        if self.panels or self.table is None:
            return
        for seat in self.table.seats:
            panel = SeatPanel(table=self.table, seat=seat)
            panel.screen = self
            self.panels[seat.index] = panel
            self.ids.seat_layer.add_widget(panel)
            panel.sync_shown()

    # ------------------------------------------------------------------------------------------- per game
    def recipe_card(self, recipe: Mapping[str, object], **extra: Any) -> dict[str, Any]:
        """A recipe from a view (``name``, ``ingredients``) as a :class:`RecipeShelf` card dict."""
        listed = recipe.get("ingredients", [])
        ingredients = [str(k) for k in listed] if isinstance(listed, list) else []
        name = str(recipe.get("name", ""))  # "key": the engine's name, which a touch-and-hold explains
        card = {"name": name, "key": name, "ingredients": ingredients}
        card.update(categories=[self.categories.get(k, "") for k in ingredients], **extra)
        return card

    def describe_action(
        self, action: Action, cols: int, cells: int, recipes: dict[int, str], tr: Translator | None = None
    ) -> str:
        """A button's label for ``action`` in the seat's language ``tr`` (:meth:`action_words`); a :class:`Then` as
        both its halves: "Serve Maguro N., then Draw 3"."""
        tr = tr or self.tr
        if isinstance(action, Then):
            first = self.describe_action(action.first, cols, cells, recipes, tr)
            then = self.describe_action(action.then, cols, cells, recipes, tr)
            return tr.gettext("{first}, then {then}").format(first=first, then=then)
        return self.action_words(action, cols, cells, recipes, tr)

    def action_words(self, action: Action, cols: int, cells: int, recipes: dict[int, str], tr: Translator) -> str:
        """One action's words on a button: subclasses word their own in ``tr`` (default :func:`action_label`)."""
        return action_label(action, cols, cells, recipes, tr)

    def event_text(self, ev: Event) -> str:
        """One event as a line of the last-moves box, in the table's language (subclasses: the game's formatter)."""
        return fallback_event_text(ev, self.seat_name, self.tr)

    # ------------------------------------------------------------------------------------------- helpers
    def seat_name(self, g: int | None, tr: Translator | None = None) -> str:
        """A game seat as the table (or ``tr``'s reader) names it: its symbol and shape name; None (the game
        itself) as "The game"."""
        s = self.session
        tr = tr or self.tr
        if g is None:
            return tr.gettext("The game")
        if s is not None and 0 <= g < len(s.seats):
            seat = s.seats[g]
            return f"{seat.symbol} {tr.seat_name(seat.name)}"
        return tr.gettext("Seat {n}").format(n=tr.number(g + 1))

    def seat_tr(self, g: int) -> Translator:
        """Game seat ``g``'s translator: its zone's (the seat's language, the game's words), else the table's."""
        s = self.session
        panel = self.panels.get(s.seats[g].index) if s is not None and 0 <= g < len(s.seats) else None
        return panel.tr if panel is not None else self.tr

    def square_name(self, cell: int, tr: Translator | None = None) -> str:
        cols = max(1, int(self.board_cols))
        if isinstance(cell, int) and 0 <= cell < cols * int(self.board_rows):
            return cell_name(cols, cell)
        return (tr or self.tr).gettext("off the board")

    @classmethod
    def order_actions(cls, actions: list[Action]) -> list[Action]:
        """Button order with nothing selected: by :attr:`ACTION_ORDER`, stable within a class."""
        rank = {name: i for i, name in enumerate(cls.ACTION_ORDER)}
        last = len(rank)
        return sorted(actions, key=lambda a: rank.get(type(a).__name__, last))

    def touch_plan(self, seat_index: int, action: Action, next_intent: NextIntent) -> Iterator[Step]:
        """Tiles, squares and the tray's buttons (:func:`kiosk.board.touch.board_plan`)."""
        return board_plan(self, seat_index, action, next_intent)

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
        self.legend = self.legend_text(self.tr)
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
    #: Which event moves which piece: the game's motion table (its ``look.MOTION``). Event kind (or
    #: ``kind:ActionType`` for an event carrying the action it played) -> (motion, fields naming squares or the
    #: name): ``place`` a tile flies from the seat to the square, ``cup`` the lifted teacup flies to the square,
    #: ``swap`` two squares' tiles fly past each other, ``take`` a tile flies from the square to the seat, ``card`` a
    #: card flies from the square (or the centre) to the seat, ``complete`` the squares the seat touched this turn
    #: glow and a banner names the recipe.
    MOTION: dict[str, tuple[str, tuple[str, ...]]] = {}
    _touched: list[int]  # the squares the seat now acting placed or switched this turn (what a recipe glows)
    _touched_by: int | None
    _cup_from: int  # the square whose teacup was lifted, where the teacup flies from

    def animate_events(self, events: list[Event]) -> None:
        """Motion for the events of one applied action (:attr:`MOTION`), on top of the state (drawn already; see
        :mod:`kiosk.ui.motion`). Never delays input: every piece in flight is a ghost on the window."""
        from kiosk.ui import motion
        from kiosk.ui.pictures import picture_name
        from kiosk.ui.pieces import Token

        session = self.session
        if session is None or not self.tiles or not events:
            return
        cells = self.board_cells(self.typed_view(session.state, None))
        touched: list[int] = getattr(self, "_touched", [])
        mover = getattr(self, "_touched_by", None)
        for ev in events:
            d = dict(ev.data)
            g = ev.seat
            zone = self.panels.get(session.seats[g].index) if g is not None and 0 <= g < len(session.seats) else None
            if g is not None and g != mover:
                touched, mover = [], g
            action = dict(d.get("action") or {})
            entry = self.MOTION.get(f"{ev.kind}:{action.get('type')}") if action else None
            fields_from = action if entry is not None else d
            entry = entry or self.MOTION.get(ev.kind)
            if ev.kind == "turn_over":
                touched, mover = [], None
            if zone is None or entry is None or not motion.wanted(session, g):
                continue
            how, fields = entry
            size = tuple(self.tiles[0].size)

            def tile_at(cell: Any) -> BoardTile | None:
                return self.tiles[cell] if isinstance(cell, int) and 0 <= cell < len(self.tiles) else None

            def piece(kind: str) -> Tile:
                return Tile(kind=kind, category=self.categories.get(kind, ""))

            squares = [v for f in fields if isinstance(v := fields_from.get(f), int) and tile_at(v) is not None]
            first = tile_at(squares[0]) if squares else None
            kind = str(d.get("kind") or d.get("tile") or "")
            if how == "place" and first is not None:
                motion.fly(piece(kind), zone, first, 0.35, size=size)
                touched.append(first.index)
                if d.get("teacup"):
                    self._cup_from = first.index
            elif how == "cup" and first is not None:
                start = tile_at(getattr(self, "_cup_from", -1))
                motion.fly(piece("teacup"), start if start is not None else zone, first, 0.3, size)
            elif how == "swap" and len(squares) == 2:
                ta, tb = self.tiles[squares[0]], self.tiles[squares[1]]
                motion.fly(piece(cells[ta.index]["kind"]), tb, ta, 0.35)
                motion.fly(piece(cells[tb.index]["kind"]), ta, tb, 0.35)
                touched += [ta.index, tb.index]
            elif how == "take" and first is not None and kind:
                motion.fly(piece(kind), first, zone, 0.35, size=size)
            elif how == "card":
                card = Token(picture=picture_name(str(d.get("card", ""))))
                motion.fly(card, first if first is not None else self.ids.centre, zone, 0.4, size=size)
            elif how == "complete":
                for cell in dict.fromkeys(touched):
                    if (t := tile_at(cell)) is not None:
                        motion.glow(t, zone.seat_colour, 0.4, pulses=3)
                name = zone.tr.gettext(str(d.get(fields[0], ""))) if fields else ""
                seat = session.seats[g] if g is not None else None
                text = zone.tr.gettext("{recipe}!").format(recipe=name)
                set_face(motion.banner(zone, text, "party", seat.rotation if seat is not None else 0), zone.face)
        self._touched, self._touched_by = touched, mover

    def _event_line(self, ev: Event) -> str:
        try:
            return self.event_text(ev)
        except Exception:  # a formatter bug must not stop the game: say it plainly
            return fallback_event_text(ev, self.seat_name, self.tr)

    # ------------------------------------------------------------------------------------------- drawing
    def tile_text(self, kind: str, stack: int, covered: bool) -> str:
        """What a square holds in words (tests, a text description; the tile's picture carries it on screen)."""
        if covered:
            top = f"{short_name(kind)}\n" if kind else ""
            return f"{top}covered"
        if not kind:
            return ""
        if kind == "teacup":
            return "\u2615 CUP\nteacup"
        extra = f"  \u00d7{stack}" if stack > 1 else ""
        return f"{short_name(kind)}\n[b]{category_of(self.categories.get(kind, '')).symbol}[/b]{extra}"

    def _draw(self, *_a: Any) -> None:
        super()._draw()
        session = self.session
        if session is None:
            return
        state = session.state
        public = self.typed_view(state, None)
        self._public = public
        rows, cols = self.board_size(public)
        cells = self.board_cells(public)
        self._ensure_tiles(rows, cols)
        for _i, (tile, c) in enumerate(zip(self.tiles, cells)):
            tile.category = self.categories.get(c["kind"], "")
            tile.kind = c["kind"]
            tile.stack = c.get("stack", 0)
            tile.covered = c.get("covered", False)
            tile.cover = self.cover_picture
            tile.text = self.tile_text(c["kind"], c.get("stack", 0), c.get("covered", False))
        self.info_text = "\n".join(self.public_lines(public))
        self.centre_text = ""
        self.last_text = "\n".join(self._history)
        n = rows * cols
        views: dict[int, SeatViewT] = {}
        for g, seat in enumerate(session.seats):
            panel = self.panels[seat.index]
            mine = self.typed_view(state, g)
            names = self.recipe_names(mine, g)
            panel.describe = partial(self.describe_action, cols=cols, cells=n, recipes=names, tr=panel.tr)
            panel._fill()
            lines = self.private_lines(mine, g)
            panel.private_text = "\n".join(lines) if lines else panel.tr.gettext("Nothing in your hand yet")
            self._seat_words(panel, g)
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

    def _seat_words(self, panel: Any, g: int) -> None:
        """The seat's column in its own language: whose turn, its points."""
        state = self.session.state if self.session is not None else None
        if state is None:
            return
        tr = panel.tr
        movers = [] if state.is_over() else state.to_move()
        if g in movers:
            panel.status = self.turn_word(panel, tr)
        try:
            scores = state.scores()
        except Exception:
            scores = []
        panel.score = points(int(scores[g]), tr) if g < len(scores) else ""

    def _fill_shelves(self, views: dict[int, SeatViewT]) -> None:
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

    def _fill_public(self, public: ViewT) -> None:
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
            box.bind(height=self._fit_later)
        movers = set() if session.state.is_over() else set(session.state.to_move())
        font = min_text_px(Window.size) * 1.1
        self._seat_floor = SeatLine.floor_height(font, "".join(s.symbol for s in session.seats))
        for g, (w, row) in enumerate(zip(lines_now, rows)):
            seat = session.seats[g]
            w.symbol, w.rgba, w.turn, w.font = seat.symbol, list(seat.colour), g in movers, font
            w.points = int(row.get("points", 0))
            w.counters = list(row.get("counters", []))
            w.cards = list(row.get("cards", []))
        self._fit_column()
        a, b = self.shared_rows(public)
        self.ids.shared_a.fill(a)
        self.ids.shared_b.fill(b)
        set_face(self.ids.shared_b, self.face)  # the named cards, in the table's words

    def _fit_column(self, *_a: Any) -> None:
        """The public column's room: the seat rows first, then the last moves (:func:`fit_public_column`; the ids
        are proxies: the widgets themselves are compared with the column's children)."""
        from kivy.app import App

        ids, u = self.ids, float(getattr(App.get_running_app(), "u", 1.0) or 1.0)
        if "public_col" in ids:
            fit_public_column(ids.public_col.__self__, ids.seat_rows.__self__, ids.last_move.__self__,
                              self._seat_floor, self.last_text, u)  # fmt: skip
            size_seat_rows(ids.seat_rows, self._seat_floor, u)

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
        self._fill_row(self.ids.pantry, public, self.tr)
        self.has_pantry = bool(public)
        for panel in self.panels.values():
            if isinstance(panel, BoardPanel):
                mine = private if panel is self.acting_panel() else []
                self._fill_row(panel.ids.hand, mine, panel.tr)
                panel.has_tiles = bool(mine)

    def _fill_row(self, row: Any, items: list[tuple[str, Action | None, str]], tr: Translator) -> None:
        """A row of tiles to choose, their names in ``tr``'s language (the centre's Pantry: the table's). The row's
        tile widgets are reused from move to move (building one with its kv rule costs more than redrawing it)."""
        shown = [w for w in reversed(row.children) if isinstance(w, TileChoice)]
        for w in shown[len(items) :]:
            row.remove_widget(w)
        for i, (kind, action, mode) in enumerate(items):
            tile = shown[i] if i < len(shown) else None
            if tile is None:
                tile = TileChoice(screen=self)
                row.add_widget(tile)
            tile.action, tile.mode, tile.selected = action, mode, False
            tile.kind, tile.category = kind, self.categories.get(kind, "")
            tile.label = short_name(tr.gettext(kind))
            set_face(tile, tr.face)

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
