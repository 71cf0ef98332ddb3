"""Every Maki card and tile explained where it is played (no Kivy): what it is, what it does and what it scores,
in the reader's language (``tr``: the seat's translator in the ``maki`` domain), with its picture. The seat menu
shows them (:func:`kiosk.shell.howto.card_steps`)."""

from __future__ import annotations

from kiosk.games.maki.cards import ACTION_CARDS, ACTION_RULES, KINDS, PANTRY, RECIPES
from kiosk.i18n import Translator
from kiosk.shell.howto import HowToStep
from kiosk.ui.pictures import picture_name
from kiosk.ui.words import game_word, join_words

__all__ = ["explanations"]


def explanations(tr: Translator) -> dict[str, HowToStep]:
    """Card or tile name (as the engine names it) -> its explanation: the action cards, the Pantry's tiles, the
    recipes."""
    out: dict[str, HowToStep] = {}
    for card in ACTION_CARDS:
        out[card] = HowToStep(
            tr.gettext("Action card: {card}").format(card=game_word(tr, card)),
            tr.gettext(
                "{rule} Play it in your turn, from your next turn after taking it; it scores nothing itself."
            ).format(rule=tr.gettext(ACTION_RULES[card])),
            (picture_name(card),),
        )
    for kind, count in zip(KINDS, PANTRY, strict=True):
        uses = sum(1 for r in RECIPES if KINDS.index(kind) in r.ingredients)
        out[kind] = HowToStep(
            tr.gettext("Ingredient tile: {tile}").format(tile=game_word(tr, kind)),
            tr.gettext(
                "Take it from the Pantry and place it on an empty space. In the Pantry: {count}. Recipes with it: {n}."
            ).format(count=tr.number(count), n=tr.number(uses)),
            (picture_name(kind),),
        )
    for recipe in RECIPES:
        names = [KINDS[k] for k in recipe.ingredients]
        text = tr.gettext(
            "{ingredients} in a line, across or down, no gaps, any order: serve it. Points: {points}."
        ).format(ingredients=join_words([game_word(tr, n) for n in names], tr), points=tr.number(recipe.score))
        if recipe.length == 2:
            text += " " + tr.gettext("Serving it also lets you take an action card from the display.")
        if recipe.style and recipe.length > 2:
            text += " " + tr.gettext("In the card's order: Wasabi +{n}.").format(n=tr.number(recipe.style))
        out[recipe.name] = HowToStep(
            tr.gettext("Recipe: {recipe}").format(recipe=game_word(tr, recipe.name)),
            text,
            tuple(picture_name(n) for n in dict.fromkeys(names))[:3],
        )
    return out
