"""Makoto's shared centre drawn as cards: the play on the table fanned, the Blind as a row, the Oracle as a deck.

:class:`MakotoCentre` is one view of the centre (the screen shows one per side of the table, each turned to face
its side by the seat model); it holds no rules: :meth:`MakotoCentre.show` takes ``state.view(None)`` (public
information only) and the seats' labels. Looks in the kv rule below (loaded once).

What it shows: whose turn it is (or the winner); the current combination as a :class:`PlayFan` with its name and
who played it; the Blind as a :class:`BlindRow` (sorted); the Oracle as a :class:`~kiosk.ui.pieces.CardDeck` with
its count; the rewards still to win. ``compact`` (the narrow slices facing the short sides) leaves out the rewards.

Rationale and decisions: docs/developer/design.md, section ``kiosk/games/makoto/centre.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.widget import Widget

from kiosk.games.makoto.cards import card_width
from kiosk.games.makoto.layout import PILE_STEP, blind_steps, legible_strip
from kiosk.games.makoto.pieces import CardFan, CardRow, MakotoCard
from kiosk.games.makoto.views import MakotoView
from kiosk.i18n import Translator
from kiosk.ui import load_kv
from kiosk.ui.speaks import Speaks
from kiosk.ui.typescale import min_text_px

__all__ = ["MakotoCentre", "PlayFan", "BlindRow", "card_pairs", "legible_strip", "blind_steps"]


class PlayFan(CardFan):
    """The play on the table, fanned (a :class:`~kiosk.ui.pieces.CardFan`) with every corner number readable: the
    cards lie at least :func:`legible_strip` apart, and a play longer than the fan holds shows its highest cards
    (``hidden``: how many lower ones give way)."""

    hidden = NumericProperty(0)

    def _relayout(self, *_a: Any) -> None:
        from kivy.core.window import Window

        label_h = self.label_height()
        ch = max(1.0, (self.height - label_h) * 0.86)
        cw = card_width(ch)
        strip = legible_strip(min_text_px(Window.size))
        room = 1 + int(max(0.0, self.width - cw) // strip)
        cards = list(self.cards)
        self.hidden = max(0, len(cards) - room)
        cards = cards[self.hidden :]
        n = len(cards)
        while len(self.widgets) < n:
            self.widgets.append(MakotoCard(size_hint=(None, None)))
        for w in self.widgets[n:]:
            if w.parent is not None:
                self.remove_widget(w)
        lift = cw * 0.2 if n > 1 else 0.0  # a turned card's lower corner dips: keep it off the label
        step = max(strip, min(cw * 0.55, (self.width - cw) / max(1, n - 1))) if n > 1 else 0.0
        left = self.center_x - (cw + step * (n - 1)) / 2
        spread = min(self.spread, 40.0 / max(1, n - 1))  # a long play fans no wider than a short one
        for i, (w, (number, kind)) in enumerate(zip(self.widgets, cards)):
            w.number, w.kind, w.face_up = int(number), int(kind), True
            w.size = (cw, ch)
            w.corner = 0 if i == n - 1 or step >= cw else step
            w.x = left + i * step
            w.y = self.y + label_h + lift - abs(i - (n - 1) / 2) * ch * 0.02
            w.angle = (((n - 1) / 2) - i) * spread
            if w.parent is None:
                self.add_widget(w)


class BlindRow(CardRow):
    """The Blind as one row of cards (a :class:`~kiosk.ui.pieces.CardRow` on display only), laid out by
    :func:`blind_steps`: every number readable; ``hidden`` counts the highest cards that gave way."""

    hidden = NumericProperty(0)

    def _relayout(self, *_a: Any) -> None:
        from kivy.core.window import Window

        cards = list(self.cards)
        while len(self.widgets) < len(cards):
            self.widgets.append(MakotoCard(owner=self, size_hint=(None, None)))
        ch = max(1.0, self.height)
        cw = card_width(ch)
        if cw > self.width:
            cw = max(1.0, self.width)
            ch = cw / 0.68
        numbers = [int(c[0]) for c in cards]
        steps = blind_steps(numbers, self.width, cw, legible_strip(min_text_px(Window.size)))
        n = len(steps) if cards else 0
        self.hidden = len(cards) - n
        for w in self.widgets[n:]:
            if w.parent is not None:
                self.remove_widget(w)
        x = self.x
        for i, (w, (number, kind)) in enumerate(zip(self.widgets, cards[:n])):
            w.slot = i
            w.number, w.kind, w.face_up = int(number), int(kind), self.face_up
            w._look()  # (a piled card's number was blanked: its text comes back from its number)
            w.selected = w.fresh = w.must_touch = False
            w.size = (cw, ch)
            step = steps[i]
            piled = i < n - 1 and step < cw and numbers[i] == numbers[i + 1] and step <= PILE_STEP
            w.corner = 0 if (i == n - 1 or step >= cw or piled) else step
            if piled:
                w.text = ""  # under the pile's top card: its edge shows, the top card carries the number
            w.x = x
            w.center_y = self.center_y
            x += step
            if w.parent is None:
                self.add_widget(w)


def card_pairs(cards: Any) -> list[tuple[int, int]]:
    """Engine card codes as ``(number, kind)`` pairs, sorted by number then kind (``code % 20``, ``code // 20``)."""
    return [(c % 20, c // 20) for c in sorted(cards, key=lambda c: (c % 20, c // 20))]


class MakotoCentre(Speaks, Widget):
    """One view of the centre (see the module docstring), in the table's language (:meth:`show` sets it)."""

    headline = StringProperty("")
    play = ListProperty([])
    play_label = StringProperty("")
    blind = ListProperty([])
    oracle = NumericProperty(0)
    rewards = ListProperty([])
    compact = BooleanProperty(False)

    def band(self) -> float:
        """The headline's band at the top."""
        from kivy.core.window import Window

        from kiosk.ui.typescale import min_text_px

        return float(max(min_text_px(Window.size) * 1.7, self.height * 0.14))

    def show(self, view: MakotoView, labels: list[str], headline: str, tr: Translator | None = None) -> None:
        """Fill from the public view; ``labels`` names each game seat ("● Circle"); ``tr``: the table's language
        (the game's words)."""
        from kiosk.games.makoto.words import combo_text

        if tr is not None:
            self.domain, self.language = tr.domain, tr.language
        tr = self.tr
        cur = view.get("current")
        self.headline = headline
        if cur is not None:
            self.play = card_pairs(cur["cards"])
            combo = combo_text(cur["type"], cur["size"], cur["rank"], tr)
            self.play_label = tr.gettext("{combination}, by {name}").format(combination=combo, name=labels[cur["by"]])
        else:
            self.play = []
            self.play_label = tr.gettext("Nothing on the table: the next player leads")
        self.blind = card_pairs(view.get("blind", []))
        self.oracle = int(view.get("oracle_deck", 0))
        self.rewards = list(view.get("rewards_left", []))


load_kv(Path(__file__).with_name("centre.kv"))
