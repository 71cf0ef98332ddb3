"""The board screen's selection and gestures: taps on squares and tiles, drags onto squares, the selected
square, the chosen tile and the two-step buttons' follow-ups. A mixin of :class:`kiosk.board.board.BoardScreen`
(its methods take the screen as ``self``); the rules stay in the engine: every choice is a legal action.
:class:`SeatPanel` is the board screen's seat: its buttons and prompts in the seat's language (``tr``)."""

from __future__ import annotations

from typing import Any

from kivy.properties import NumericProperty, StringProperty

from kiosk.board.pieces import TileChoice
from kiosk.board.twostep import BoardPanel, Then, shared_words
from kiosk.engine import Action, RuleError
from kiosk.ui.game import GenericGameScreen
from kiosk.ui.pieces import Tile

__all__ = ["BoardPlay", "SeatPanel"]


class SeatPanel(BoardPanel):
    """A board screen's seat (:class:`~kiosk.board.twostep.BoardPanel`, its look ``<BoardPanel>``) whose words are
    the seat's: a two-choice group's line ("Serve Maguro N., then Draw:") in its language, and its buttons set in
    its face (Japanese in the CJK face)."""

    def _label(self, entry: list[Action]) -> str:
        first = entry[0]
        if not isinstance(first, Then):
            return self.describe(first)
        shared, _rest = shared_words([self.describe(t.then) for t in entry if isinstance(t, Then)])
        what = self.describe(first.first)
        if shared:
            return self.tr.gettext("{first}, then {what}:").format(first=what, what=shared)
        return self.tr.gettext("{first}, then:").format(first=what)

    def on_labels(self, *_a: Any) -> None:
        super().on_labels()
        from kiosk.board.pieces import set_face

        grid = self.ids.get("buttons")
        if grid is not None:
            set_face(grid, self.face)


class BoardPlay(GenericGameScreen):
    """Taps, drags and selection on a board screen (see ``docs/screens.md``, "Playing by touch")."""

    #: The selected square (-1: none); only ever set while a human seat may act.
    selected = NumericProperty(-1)
    #: The tile chosen for placing ("" none): chosen in the tray, or the only tile there is to place.
    chosen = StringProperty("")
    #: (game seat, action): the second half of a :class:`Then` button, waiting until the engine offers it
    _then: tuple[int, Action] | None = None
    _ghost: Tile | None = None  # the tile a finger drags
    _follow_cache: tuple[tuple[Any, ...], dict[Action, list[Action]]] = ((), {})

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
        tr = panel.tr
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
            square = self.square_name(cell, tr)
            panel.show_error(
                tr.gettext("Nothing to play on {square} now").format(square=square)
                if not tile
                else tr.gettext("You cannot put the {tile} on {square}").format(tile=tr.gettext(tile), square=square),
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
        tr = panel.tr
        if sel >= 0:
            shown = [a for a, sq in zip(self._legal, self._squares) if sel in sq]
            name = self.square_name(sel, tr)
            panel.prompt = tr.gettext("{square} selected: choose below (tap {square} again to clear)").format(
                square=name
            )
        else:
            shown = self.with_follow_ups(self._button_actions())
            if not panel.hints:
                panel.prompt = ""
            elif chosen and len(tiles) > 1:
                panel.prompt = tr.gettext("Tap a marked square for the {tile} (or drag it there)").format(
                    tile=tr.gettext(chosen)
                )
            else:
                panel.prompt = self.prompt_text(
                    self._public, {type(a).__name__ for a in self._legal}, bool(self.eligible), tr
                )
        if self._then is not None and self._then[0] == self.acting:  # what the seat's last button still does
            then = tr.gettext("{then} follows by itself").format(then=panel.describe(self._then[1]))
            panel.prompt = (
                tr.gettext("{prompt} ({then})").format(prompt=panel.prompt, then=then) if panel.prompt else then
            )
        panel.set_actions(shown)
