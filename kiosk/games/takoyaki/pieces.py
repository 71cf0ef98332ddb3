"""Takoyaki's pieces as Kivy widgets: a ball (raw side or fried side, its sauce colour and letter) and an order
card (the target grill). Their looks are in ``pieces.kv`` beside this file (loaded once on import)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.widget import Widget

from kiosk.games.takoyaki.look import BALL_LETTER, BALL_RGBA
from kiosk.games.takoyaki.words import ball_letters
from kiosk.i18n import translator
from kiosk.ui import load_kv, pictures
from kiosk.ui.typescale import register_fonts

__all__ = ["TakoBall", "TakoOrderCard"]


class TakoBall(Widget):
    """A Takoyaki ball: ``colour`` (1 red, 2 green, 3 blue), ``fried`` (side up). Raw: the pale batter side,
    the sauce's colour only as a rim at the bottom, a lower-case letter. Fried: a golden crust, the sauce on
    top in its colour, a white mayonnaise zigzag, an upper-case letter on a cream disc. ``dragging`` draws its
    shadow. The letter (``letter_px``, set by its kv rule) is 0.4 of the ball and never under the type scale's
    minimum: a ball must be at least 2.5 times that minimum across for its letter to stay inside it (a grill's
    or an order card's layout sees to it)."""

    colour = NumericProperty(1)
    fried = BooleanProperty(False)
    #: The letters of red, green and blue in the reader's language (:func:`kiosk.games.takoyaki.words.ball_letters`)
    #: and the face they are set in ("": the usual one; the CJK face for Japanese).
    letters = StringProperty("".join(BALL_LETTER.values()))
    face = StringProperty("")
    dragging = BooleanProperty(False)
    letter = StringProperty("r")
    letter_px = NumericProperty(14.0)
    sauce = ListProperty(list(BALL_RGBA[1]))

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(colour=self._look, fried=self._look, letters=self._look)
        self._look()

    def _look(self, *_a: Any) -> None:
        c = int(self.colour) if int(self.colour) in BALL_RGBA else 1
        self.sauce = list(BALL_RGBA[c])
        letter = self.letters[c - 1] if len(self.letters) == 3 else BALL_LETTER[c]
        self.letter = letter if self.fried else letter.lower()


#: The share of an order card's space taken by a ball (the rest is the gap between two balls).
CARD_BALL = 0.84


class TakoOrderCard(Widget):
    """An order card (3 rows x 4 columns as its seat sees it): ``cells`` 12 colours or 0. A header band (``head``
    px high, set by its kv rule: at least 1.45 times the type scale's minimum) names the halves, "raw side" and
    (with fire) "fried"; the two right columns are the heated half: their balls are drawn fried, the left,
    unheated half's balls raw, as the order asks. ``shown`` False draws the card's back (a "?": not revealed
    yet). :func:`card_width` is the width whose spaces are square for a height. ``tr`` and ``face``: the language its
    header speaks (its seat's, :class:`kiosk.ui.speaks.Speaks`) and the font it is set in ("" for the usual)."""

    cells = ListProperty([0] * 12)
    shown = BooleanProperty(True)
    hot_source = StringProperty("")
    head = NumericProperty(20.0)
    flip = NumericProperty(1.0)  # drawn scaled by this across (kiosk.ui.motion.flip_in)
    tr = ObjectProperty(translator("en", "takoyaki"), rebind=True)
    face = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.hot_source = pictures.picture("hot")
        self.balls: list[TakoBall] = []
        self._later = Clock.create_trigger(self._relayout, -1)
        self.bind(cells=self._later, pos=self._later, size=self._later, shown=self._later, head=self._later)
        self.bind(tr=self._later, face=self._later)
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
        letters = ball_letters(self.tr)
        for b, (s, c) in zip(self.balls, coloured):
            row, col = divmod(s, 4)
            b.letters, b.face = letters, self.face
            b.colour = c
            b.fried = col >= 2
            b.size = (cell * CARD_BALL, cell * CARD_BALL)
            b.center = (ox + (col + 0.5) * cell, oy + (2 - row + 0.5) * cell)
            if b.parent is None:
                self.add_widget(b)


register_fonts()
load_kv(Path(__file__).with_name("pieces.kv"))
