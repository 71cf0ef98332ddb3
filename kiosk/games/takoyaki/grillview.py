"""The Takoyaki grill on screen: the balls, the move marks, the order card and the grill widget that turns touches
(push, swipe, double tap) into the engine's actions; its looks in ``grillview.kv`` beside this file."""

from __future__ import annotations

import logging
import math
from pathlib import Path
from typing import Any

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from kiosk import clock
from kiosk.engine import Action
from kiosk.games.takoyaki.actions import Fault, Push, Turn
from kiosk.games.takoyaki.grill import COLS, NEIGHBOURS, ROWS, SPACES, colour_of, is_fried
from kiosk.games.takoyaki.look import BALL_LETTER, BALL_RGBA
from kiosk.games.takoyaki.pieces import TakoBall, TakoOrderCard
from kiosk.games.takoyaki.words import ball_letters
from kiosk.i18n import translator
from kiosk.ui import load_kv, pictures
from kiosk.ui.hold import HoldExplains

log = logging.getLogger("kiosk.games.takoyaki.grillview")

__all__ = ["BallWidget", "MoveMark", "OrderCard", "GrillWidget", "GrillVeil", "LETTER", "COLOUR_RGBA", "DIRECTIONS"]

#: Letters and colours on balls and order cells (the game's look): colour is never the only cue (R/G/B; upper
#: case = fried side up).
LETTER = BALL_LETTER
COLOUR_RGBA = BALL_RGBA

#: A push's direction as the grill's player sees it (the grill is drawn from its own seat).
DIRECTIONS = {"up": -COLS, "left": -1, "right": 1, "down": COLS}


class BallWidget(TakoBall):
    """One ball on a grill, drawn as a :class:`~kiosk.ui.pieces.TakoBall` (colour, letter, raw or fried side)."""

    grill: Any = None
    space = -1  # the space it lies on (-1: not on the grill)

    def set_code(self, code: int) -> None:
        self.colour = colour_of(code)
        self.fried = is_fried(code)

    def choose(self) -> None:
        """Seat buttons: choose this ball (its moves show as marks on the grill)."""
        if self.grill is not None:
            self.grill.select(self.space)


class MoveMark(Widget):
    """A move for seat buttons on the chosen ball: an arrow on an empty space it can be pushed to
    (``direction``), or a ring on the ball itself to turn it over (``direction == "turn"``). Shown only while a
    ball is chosen by button; ``choose()`` makes the move (its look: ``screen.kv``)."""

    direction = StringProperty("turn")
    dst = NumericProperty(-1)
    grill = ObjectProperty(None, allownone=True)
    colour = ListProperty([1, 1, 1, 1])

    def choose(self) -> None:
        if self.grill is not None:
            self.grill.use_mark(self)


class OrderCard(HoldExplains, TakoOrderCard):
    """A 3 x 4 order card as its seat sees it (:class:`~kiosk.ui.pieces.TakoOrderCard`: the unheated half's balls
    raw, the heated half's fried and marked with fire). A finger held on it opens its explanation (``explain``: the
    order's card as the engine writes it; the balls' before an order shows)."""

    explain = StringProperty("")


class GrillWidget(HoldExplains, Widget):
    """A seat's grill: draws the balls and turns touches into actions (see the module docstring)."""

    SWIPE_CELLS = 0.35  # a swipe travels at least this fraction of a space
    DOUBLE_TAP_S = 0.45  # two taps on one ball within this time turn it
    HAND_CONTACTS = 3  # this many fingers on one grill at once is a hand on the grill

    cells = ListProperty([0] * SPACES)
    locked = BooleanProperty(True)
    panel = ObjectProperty(None, allownone=True)
    cell = NumericProperty(10)
    gx = NumericProperty(0)  # the grill's own origin (bottom-left) in parent coordinates
    gy = NumericProperty(0)
    #: The ball chosen by seat buttons (its space, -1: none): its moves show as :class:`MoveMark` widgets.
    selected = NumericProperty(-1)
    #: The hint's move (hint mode): ``(src, dst)`` for a push, ``(space, space)`` for a turn, ``()`` for none;
    #: drawn as ``hint_line`` (an arrow) or ``hint_ring`` (x, y, radius).
    hint = ListProperty([])
    hint_line = ListProperty([])
    hint_ring = ListProperty([0, 0, 0])
    #: The fire picture marking the heated half's spaces ("" without pictures: the half's colour and the order
    #: card's header say it).
    hot_source = StringProperty("")
    #: The language of the balls' letters (its seat's) and their face (:class:`kiosk.ui.speaks.Speaks`).
    tr = ObjectProperty(translator("en", "takoyaki"), rebind=True)
    face = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.hot_source = pictures.picture("hot")
        self.balls: list[BallWidget] = [BallWidget() for _ in range(6)]
        for b in self.balls:
            b.grill = self
            self.add_widget(b)
        #: (on the grill only while shown: an invisible widget still costs its drawing under software OpenGL)
        self.marks: list[MoveMark] = [MoveMark(direction=d, grill=self) for d in (*DIRECTIONS, "turn")]
        self.bind(selected=self._layout, locked=self._unlock, hint=self._layout)
        self._at: dict[int, BallWidget] = {}
        self._touches: dict[int, dict[str, Any]] = {}
        self._last_tap: tuple[int, float] | None = None
        self.bind(pos=self._layout, size=self._layout, cells=self._layout)
        self.bind(tr=self._letters, face=self._letters)

    def _letters(self, *_a: Any) -> None:
        letters = ball_letters(self.tr)
        for b in self.balls:
            b.letters, b.face = letters, self.face

    # ------------------------------------------------------------------------------------------- geometry
    def _layout(self, *_a: Any) -> None:
        self.cell = max(1.0, min(self.width / COLS, self.height / ROWS))
        self.gx = self.x + (self.width - self.cell * COLS) / 2
        self.gy = self.y + (self.height - self.cell * ROWS) / 2
        self._at.clear()
        for b in self.balls:
            b.space = -1
        spare = iter(self.balls)
        for s, code in enumerate(self.cells):
            if code:
                b = next(spare)
                b.set_code(code)
                b.space = s
                self._at[s] = b
        # only a live finger holds a ball off its space (a faulted or forgotten one does not)
        dragged = {
            t["ball_widget"] for t in self._touches.values() if t.get("ball_widget") is not None and not t["dead"]
        }
        for s, b in self._at.items():
            if b not in dragged:
                self._place(b, s)
        for b in self.balls:  # a ball on no space (fewer balls on the grill): no shadow, out of the way
            if b not in self._at.values():
                b.dragging = False
                b.size = (0, 0)
        self._place_marks()
        self._place_hint()

    # ------------------------------------------------------------------------------------------- buttons
    def _unlock(self, *_a: Any) -> None:
        if self.locked:
            self.selected = -1

    def select(self, s: int) -> None:
        """Choose the ball on space ``s`` for the seat's buttons (-1: none)."""
        self.selected = s if (0 <= s < SPACES and self.cells[s] and not self.locked) else -1

    def _place_marks(self) -> None:
        sel = int(self.selected)
        chosen = 0 <= sel < SPACES and bool(self.cells[sel]) and not self.locked
        colour = list(self.panel.seat_colour) if self.panel is not None else [1, 1, 1, 1]
        for m in self.marks:
            m.colour = colour
            if m.direction == "turn":
                dst = sel if chosen else -1
            else:
                dst = sel + DIRECTIONS[m.direction] if chosen else -1
                if dst not in (NEIGHBOURS[sel] if chosen else ()) or self.cells[dst]:
                    dst = -1
            m.dst = dst
            on = dst >= 0
            m.opacity = 1 if on else 0
            m.disabled = not on
            if on and m.parent is None:
                self.add_widget(m)  # over the balls
            elif not on and m.parent is not None:
                self.remove_widget(m)
            size = self.cell * (0.9 if m.direction == "turn" else 0.6) if on else 0
            m.size = (size, size)
            if on:
                m.center = self.space_center(dst)

    def use_mark(self, mark: MoveMark) -> None:
        """Make the move of a :class:`MoveMark`; a pushed ball stays chosen."""
        sel = int(self.selected)
        if mark.dst < 0 or sel < 0 or self.panel is None:
            return
        action: Action = Turn(sel) if mark.direction == "turn" else Push(sel, int(mark.dst))
        if self.panel.gesture(action) and isinstance(action, Push):
            self.selected = action.dst

    def _place_hint(self) -> None:
        if len(self.hint) == 2 and 0 <= self.hint[0] < SPACES:
            src, dst = int(self.hint[0]), int(self.hint[1])
            sx, sy = self.space_center(src)
            if src == dst:
                self.hint_ring, self.hint_line = [sx, sy, self.cell * 0.47], []
                return
            dx, dy = self.space_center(dst)
            ux, uy = (dx - sx) / self.cell, (dy - sy) / self.cell  # a unit step
            head = self.cell * 0.18
            tip = (dx - ux * self.cell * 0.25, dy - uy * self.cell * 0.25)
            left = (tip[0] - ux * head - uy * head, tip[1] - uy * head + ux * head)
            right = (tip[0] - ux * head + uy * head, tip[1] - uy * head - ux * head)
            start = (sx + ux * self.cell * 0.47, sy + uy * self.cell * 0.47)  # from the ring: the letter stays in view
            self.hint_line = [*start, *tip, *left, *tip, *right]
            self.hint_ring = [sx, sy, self.cell * 0.47]
        else:
            self.hint_line, self.hint_ring = [], [0, 0, 0]

    def _place(self, b: BallWidget, s: int) -> None:
        size = self.cell * 0.82
        b.size = (size, size)
        b.center = self.space_center(s)
        b.dragging = False

    def space_center(self, s: int) -> tuple[float, float]:
        r, c = divmod(s, COLS)
        return (self.gx + (c + 0.5) * self.cell, self.gy + (ROWS - r - 0.5) * self.cell)

    def space_at(self, x: float, y: float) -> int | None:
        """The space under a point (parent coordinates), or None off the grill. Row 0 is the far row."""
        c = math.floor((x - self.gx) / self.cell)
        r = ROWS - 1 - math.floor((y - self.gy) / self.cell)
        if 0 <= c < COLS and 0 <= r < ROWS:
            return int(r * COLS + c)
        return None

    def on_grill(self, x: float, y: float) -> bool:
        return bool(self.gx <= x < self.gx + COLS * self.cell and self.gy <= y < self.gy + ROWS * self.cell)

    # ------------------------------------------------------------------------------------------- gestures
    def explained_at(self, x: float, y: float) -> str:
        """A finger held on a ball while the grill waits (no race on: the countdown, out of an order) explains the
        balls; while racing a finger resting on a ball is play, never a hold."""
        if not self.locked or getattr(self.panel, "is_bot", True) or not self.on_grill(x, y):
            return ""
        s = self.space_at(x, y)
        return "ball" if s is not None and self.cells[s] else ""

    def on_touch_down(self, touch: Any) -> bool:
        if not self.on_grill(*touch.pos):
            return False
        touch.grab(self)
        self.hold_down(touch)
        s = self.space_at(*touch.pos)
        ball = s is not None and bool(self.cells[s])
        self._touches[touch.uid] = {
            "start": s,
            "ball": ball,
            "path": [s],
            "travel": 0.0,
            "origin": touch.pos,
            "ball_widget": self._at.get(s) if s is not None and ball else None,
            "dead": self.locked,
        }
        if not self.locked and len(self._touches) >= self.HAND_CONTACTS:
            self._fault("hand_on_grill")
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return False
        self.hold_move(touch)
        info = self._touches.get(touch.uid)
        if info is None or info["dead"] or not info["ball"]:
            return True
        ox, oy = info["origin"]
        info["travel"] = max(info["travel"], math.hypot(touch.x - ox, touch.y - oy))
        b = info["ball_widget"]
        if b is not None:
            b.center = touch.pos
            b.dragging = True
        s = self.space_at(*touch.pos)
        if s is None:
            self._fault("ball_fell_off")
            return True
        start = info["start"]
        if s != start:
            if s not in NEIGHBOURS[start] or self.cells[s]:
                self._fault("ball_picked_up")
                return True
            if s not in info["path"]:
                info["path"].append(s)
            if len(info["path"]) > 2:  # visited two different neighbours: it was lifted over
                self._fault("ball_picked_up")
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return False
        touch.ungrab(self)
        self.hold_up(touch)  # (a hold only times on a waiting grill, whose touches move nothing)
        info = self._touches.pop(touch.uid, None)
        if info is None or info["dead"] or not info["ball"]:
            if not self._touches:
                self._layout()
            return True
        start = info["start"]
        end = self.space_at(*touch.pos)
        action: Action | None = None
        if end is not None and end != start and end in NEIGHBOURS[start] and not self.cells[end]:
            action = Push(start, end)
        elif end == start:
            if info["travel"] >= self.SWIPE_CELLS * self.cell:
                action = Turn(start)
            else:
                now = clock.now()
                if (
                    self._last_tap is not None
                    and self._last_tap[0] == start
                    and now - self._last_tap[1] <= self.DOUBLE_TAP_S
                ):
                    action = Turn(start)
                    self._last_tap = None
                else:
                    self._last_tap = (start, now)
        self._layout()  # spring back (a push redraws from the new state)
        if action is not None and self.panel is not None:
            self.panel.gesture(action)
        return True

    def _fault(self, kind: str) -> None:
        for info in self._touches.values():
            info["dead"] = True
        self._layout()
        if self.panel is not None:
            self.panel.gesture(Fault(kind))

    def reset_touches(self) -> None:
        """Forget fingers (a new order, the game ended): they must lift and touch again. A ball a forgotten finger
        was dragging goes back to its space and loses its shadow (the finger's later moves and lift do nothing).
        A ball chosen by button is let go."""
        self._touches.clear()
        self._last_tap = None
        self.selected = -1
        for b in self.balls:
            b.dragging = False
        self._layout()


class GrillVeil(Label):
    """The veil over a seat's grill with a word on it ("OUT: ..." while the seat is out, the countdown before an
    order): it covers the balls' letters (``covers`` for the fit checker) while it shows a text."""

    covers = BooleanProperty(False)


load_kv(Path(__file__).with_name("grillview.kv"))
