"""A Makoto hand in a seat's tray: cards that stay touch targets, paged when the tray is too small for all of them.

:class:`MakotoHand` lays out the tray's card widgets (added in hand order, reused from game to game) as
:class:`~kiosk.ui.pieces.HandLayout` does: cards overlap and wrap rather than shrink, each keeping a corner at
least ``min_step`` (a touch target) wide and high in view with its whole number.

Decision: **a hand never shrinks below a touch target; when the tray cannot hold all of it, it pages.** A short
side's tray in the Blind step (a two-line prompt and two rows of actions) leaves the hand about 500 x 64 px at
1920x1080 and 370 x 47 at 1280x800: one row, too short for 14 cards as targets. Then the hand shows as many as
fit, sorted as always, with a page button at the end ("6 \u25b6": six higher cards) and, on a later page, one at
the start ("\u25c0 7": seven lower cards). The page buttons are touch targets like the cards (and seat-button
choices, in reading order); cards selected on one page stay selected on another; the page stays while the hand
changes and steps back when the hand gets shorter. A hand that fits is never paged (no page buttons at all).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.properties import NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.widget import Widget

from kiosk.games.makoto.layout import hand_pages
from kiosk.games.makoto.pieces import HandLayout, MakotoCard, hand_layout
from kiosk.ui import load_kv

__all__ = ["MakotoHand", "HandPage", "hand_pages"]


class HandPage(ButtonBehavior, Widget):
    """The page button at one end of a paged hand: ``step`` -1 (lower cards) or +1 (higher cards); ``text`` says
    which way and how many cards lie there. ``corner`` as on a card: the width left in view when a card lies over
    its right part."""

    text = StringProperty("")
    step = NumericProperty(1)
    corner = NumericProperty(0)
    hand = ObjectProperty(None, allownone=True)

    def on_release(self) -> None:
        if self.hand is not None:
            self.hand.turn(int(self.step))


class MakotoHand(HandLayout):
    """A tray's hand (see the module docstring). Its card children are the hand's cards while their ``code`` is
    a card (0 and up) and their opacity was set above 0 by the tray; ``page`` is the page shown."""

    page = NumericProperty(0)
    pages = NumericProperty(1)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.back = HandPage(step=-1, hand=self, opacity=0, disabled=True, size_hint=(None, None), size=(0, 0))
        self.fore = HandPage(step=1, hand=self, opacity=0, disabled=True, size_hint=(None, None), size=(0, 0))
        self.add_widget(self.back)
        self.add_widget(self.fore)
        self.bind(page=self._later)

    def turn(self, step: int) -> None:
        """Show the next (``step`` 1) or the previous (-1) page."""
        self.page = max(0, min(int(self.pages) - 1, int(self.page) + step))
        self.relayout()

    def capacity(self, n: int) -> int:
        """How many targets (cards and page buttons) of a hand of ``n`` fit this box, each a whole touch target."""
        touch, rows = float(self.min_step), int(self.max_rows)

        def fits(m: int) -> bool:
            cw, ch, step, per_row, _rise = hand_layout(m, self.width, self.height, touch, rows)
            return min(cw, ch) >= touch - 0.5 and (per_row == 1 or step >= touch - 0.5)

        m = n
        while m > 0 and not fits(m):
            m -= 1
        return m

    def relayout(self, *_a: Any) -> None:
        cards = [w for w in reversed(self.children) if isinstance(w, MakotoCard)]
        hand = [w for w in cards if getattr(w, "code", 0) >= 0 and (w.opacity > 0 or getattr(w, "paged_out", False))]
        pages = hand_pages(len(hand), self.capacity(len(hand))) if hand else [(0, 0)]
        self.pages = len(pages)
        page = min(int(self.page), len(pages) - 1)
        if page != self.page:
            self.page = page  # (a shorter hand: back to its last page)
        start, end = pages[page]
        shown: list[Any] = [self.back] if page > 0 else []
        shown += hand[start:end]
        shown += [self.fore] if page < len(pages) - 1 else []
        self.back.text = f"\u25c0 {start}"
        self.fore.text = f"{len(hand) - end} \u25b6"
        for w in cards + [self.back, self.fore]:
            on = w in shown
            w.paged_out = not on and w in hand
            if isinstance(w, HandPage):
                w.disabled = not on
            if not on:
                w.opacity = 0
                w.size_hint = (None, None)
                w.size = (0, 0)
                w.pos = self.pos
        for w in hand[start:end]:
            w.opacity = 1
        self.back.opacity = 1 if page > 0 else 0
        self.fore.opacity = 1 if page < len(pages) - 1 else 0
        if self.fore.opacity and self.children[0] is not self.fore:
            self.remove_widget(self.fore)  # the last in the row lies on top of the card before it
            self.add_widget(self.fore)
        self.place(shown)


load_kv(Path(__file__).with_name("hand.kv"))
