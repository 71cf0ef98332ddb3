"""Every Takoyaki order card explained where it is played (no Kivy): what it asks, how hard it is and what it
scores, in the reader's language (``tr``: the seat's translator in the ``takoyaki`` domain), with its picture. The
seat menu shows them (:func:`kiosk.shell.howto.card_steps`)."""

from __future__ import annotations

from kiosk.games.takoyaki.deck import catalogue
from kiosk.games.takoyaki.rules import ORDERS_TO_WIN
from kiosk.games.takoyaki.words import band_text
from kiosk.i18n import Translator
from kiosk.shell.howto import HowToStep

__all__ = ["explanations"]


def explanations(tr: Translator) -> dict[str, HowToStep]:
    """Order card (its text form) -> its explanation, for every card of the deck, and the balls."""
    out: dict[str, HowToStep] = {
        "ball": HowToStep(
            tr.gettext("Takoyaki balls"),
            tr.gettext(
                "Six balls on your grill: red, green and blue, two of each, each with a raw side and a fried side. "
                "Drag a ball one space, or swipe it to turn it over."
            ),
            ("takoyaki",),
        )
    }
    for i, card in enumerate(catalogue(), start=1):
        out[card.card] = HowToStep(
            tr.gettext("Order card {n} ({band})").format(n=tr.number(i), band=band_text(card.band, tr)),
            tr.ngettext(
                "Match it on your grill: each ball on its space, fried side up on the HOT half, raw side up on the "
                "cold half, then claim TAKOYAKI! It takes at least {moves} move. Each order won counts toward the "
                "{need} that win the game.",
                "Match it on your grill: each ball on its space, fried side up on the HOT half, raw side up on the "
                "cold half, then claim TAKOYAKI! It takes at least {moves} moves. Each order won counts toward the "
                "{need} that win the game.",
                card.difficulty,
            ).format(moves=tr.number(card.difficulty), need=tr.number(ORDERS_TO_WIN)),
            ("takoyaki", "hot"),
        )
    return out
