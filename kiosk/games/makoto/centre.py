"""Makoto's shared centre drawn as cards: the play on the table fanned, the Blind as a row, the Oracle as a deck.

:class:`MakotoCentre` is one view of the centre (the screen shows one per side of the table, each turned to face
its side by the seat model); it holds no rules: :meth:`MakotoCentre.show` takes ``state.view(None)`` (public
information only) and the seats' labels. Looks in the kv rule below (loaded once).

What it shows: whose turn it is (or the winner); the current combination as a :class:`~kiosk.ui.pieces.CardFan`
with its name and who played it; the Blind as a :class:`~kiosk.ui.pieces.CardRow` (every number visible, sorted);
the Oracle as a :class:`~kiosk.ui.pieces.CardDeck` with its count; the rewards still to win as tokens. ``compact``
(the narrow slices facing the short sides) leaves out the rewards.
"""

from __future__ import annotations

from typing import Any

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.widget import Widget

from kiosk.ui import pieces  # noqa: F401  (the piece widgets' kv rules)

__all__ = ["MakotoCentre", "card_pairs"]


def card_pairs(cards: Any) -> list[tuple[int, int]]:
    """Engine card codes as ``(number, kind)`` pairs, sorted by number then kind (``code % 20``, ``code // 20``)."""
    return [(c % 20, c // 20) for c in sorted(cards, key=lambda c: (c % 20, c // 20))]


class MakotoCentre(Widget):
    """One view of the centre (see the module docstring)."""

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

    def show(self, view: dict[str, Any], labels: list[str], headline: str) -> None:
        """Fill from the public view; ``labels`` names each game seat ("● Circle")."""
        cur = view.get("current")
        self.headline = headline
        if cur is not None:
            self.play = card_pairs(cur["cards"])
            self.play_label = f"{cur['text']}, by {labels[cur['by']]}"
        else:
            self.play = []
            self.play_label = "Nothing on the table: the next player leads"
        self.blind = card_pairs(view.get("blind", []))
        self.oracle = int(view.get("oracle_deck", 0))
        self.rewards = list(view.get("rewards_left", []))


KV = r"""
#:import face kiosk.ui.typescale.face
#:import min_text_px kiosk.ui.typescale.min_text_px
#:import Window kivy.core.window.Window

<MakotoCentre>:
    canvas.before:
        Color:
            rgba: 0.10, 0.30, 0.22, 1
        RoundedRectangle:
            pos: self.x + 4, self.y + 4
            size: self.width - 8, self.height - 8
            radius: [min(self.size) * 0.06]
    Label:
        text: root.headline
        font_name: face(self.text)
        bold: True
        font_size: max(min_text_px(Window.size), min(root.band() * 0.62, root.width * 0.05))
        color: 0.98, 0.74, 0.25, 1
        text_size: root.width - 24, None
        halign: 'center'
        size: root.width - 24, self.texture_size[1]
        pos: root.x + 12, root.top - self.height - 8
    CardFan:
        id: fan
        cards: root.play
        label: root.play_label
        size: root.width * (0.66 if root.compact else 0.52), root.height * 0.62 - root.band()
        pos: root.x + root.width * 0.03, root.y + root.height * 0.36
    CardDeck:
        count: root.oracle
        label: 'Oracle'
        size: self.height * 0.7, (root.height * 0.62 - root.band()) * 0.62
        pos: fan.right + (root.width - fan.right + root.x) * (0.35 if root.compact else 0.12), fan.y + fan.height * 0.36
    Label:
        text: 'Blind' if root.blind else 'Blind: empty'
        font_name: face(self.text)
        font_size: max(min_text_px(Window.size), root.height * 0.06)
        color: 1, 1, 1, 0.85
        size: self.texture_size
        pos: root.x + 14, root.y + root.height * 0.17 - self.height / 2
    CardRow:
        cards: root.blind
        min_step: min_text_px(Window.size) * 2.2
        max_rows: 1
        size: root.width - 42 - root.height * 0.2 - min_text_px(Window.size) * 3, root.height * 0.3
        pos: root.right - 14 - self.width, root.y + root.height * 0.03
    Label:
        # the rewards still to win (the next player out takes the first)
        text: ('Rewards\n' + '  '.join(str(r) for r in root.rewards)) if (root.rewards and not root.compact) else ''
        font_name: face(self.text)
        font_size: max(min_text_px(Window.size), root.height * 0.06)
        color: 0.98, 0.85, 0.45, 1
        halign: 'center'
        size: self.texture_size
        pos: root.right - self.width - root.width * 0.03, fan.y + fan.height * 0.4
"""

_loaded = False


def load_kv() -> None:
    global _loaded
    if not _loaded:
        Builder.load_string(KV, filename="makoto-centre.kv")
        _loaded = True


load_kv()
