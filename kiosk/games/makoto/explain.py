"""Every Makoto card explained where it is played (no Kivy): what it is, how it plays and what it scores, in the
reader's language (``tr``: the seat's translator in the ``makoto`` domain), with its picture. The seat menu shows
them (:func:`kiosk.shell.howto.card_steps`)."""

from __future__ import annotations

from kiosk.games.makoto.rules import ORACLE, POINTS, RONIN, SETUP, SWORD, code
from kiosk.games.makoto.words import card_text
from kiosk.i18n import Translator
from kiosk.shell.howto import HowToStep

__all__ = ["explanations"]


def explanations(tr: Translator) -> dict[str, HowToStep]:
    """Card (its code, as text) -> its explanation, for every card of the largest deck: the numbers, the Swords and
    the Oracle cards."""
    top = max(s.top for s in SETUP.values())
    swords = max(s.swords for s in SETUP.values())
    out: dict[str, HowToStep] = {}
    for kind, last in ((RONIN, top), (SWORD, swords), (ORACLE, top)):
        for n in range(1, last + 1):
            card = code(n, kind)
            if kind == SWORD:
                title = tr.gettext("Sword card: {card}")
                text = tr.gettext(
                    "It plays as the number {n}. With 4 or more players a Kensei (four cards of one number) needs a "
                    "Sword."
                )
            elif kind == ORACLE:
                title = tr.gettext("Oracle card: {card}")
                text = tr.gettext(
                    "From the golden Oracle deck: after passing you may draw one and keep it by throwing away "
                    "another card. It plays as the number {n}."
                )
            else:
                title = tr.gettext("Number card: {card}")
                text = tr.gettext(
                    "Play it alone, with cards of the same number, or in a run of numbers in a row; the higher "
                    "play beats the lower. It plays as the number {n}."
                )
            worth = POINTS.get(n, 0)
            score = (
                tr.ngettext("Won in a round, it scores {points} point.", "Won in a round, it scores {points} points.",
                            worth).format(points=tr.number(worth))
                if worth
                else tr.gettext("Won in a round, it scores nothing.")
            )  # fmt: skip
            # a number card: the card picture (the game's own, a playing card); its number is in the title
            pictures = ("sword",) if kind == SWORD else ("oracle",) if kind == ORACLE else ("game_makoto",)
            out[str(card)] = HowToStep(
                title.format(card=card_text(card, tr)), f"{text.format(n=tr.number(n))} {score}", pictures
            )
    return out
