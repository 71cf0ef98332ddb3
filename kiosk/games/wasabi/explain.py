"""Every Wasabi! card and tile explained where it is played (no Kivy): what it is, what it does and what it
scores, in the reader's language (``tr``: the seat's translator in the ``wasabi`` domain), with its picture. The
seat menu shows them (:func:`kiosk.shell.howto.card_steps`)."""

from __future__ import annotations

from kiosk.games.wasabi.cards import ACTION_RULES, CARDS, KINDS, PANTRY, POINTS, RECIPES, STYLE_CUBES
from kiosk.i18n import Translator
from kiosk.shell.howto import HowToStep
from kiosk.ui.pictures import picture_name
from kiosk.ui.words import game_word, join_words

__all__ = ["explanations"]


def explanations(tr: Translator) -> dict[str, HowToStep]:
    """Card or tile name (as the engine names it) -> its explanation: the action cards, the ingredient tiles, the
    recipes."""
    out: dict[str, HowToStep] = {}
    for card in CARDS:
        out[card] = HowToStep(
            tr.gettext("Action card: {card}!").format(card=game_word(tr, card)),
            tr.gettext("{rule} One action card per turn; it scores nothing itself.").format(
                rule=tr.gettext(ACTION_RULES[card])
            ),
            (picture_name(card),),
        )
    for kind, count in zip(KINDS, PANTRY, strict=True):
        uses = sum(1 for r in RECIPES if KINDS.index(kind) in r.seq)
        out[kind] = HowToStep(
            tr.gettext("Ingredient tile: {tile}").format(tile=game_word(tr, kind)),
            tr.gettext(
                "Place it from your hand on an empty square. In the Pantry: {count}. Recipes with it: {n}."
            ).format(count=tr.number(count), n=tr.number(uses)),
            (picture_name(kind),),
        )
    for recipe in RECIPES:
        n = recipe.length
        text = tr.gettext(
            "{ingredients} in a line, across or down, no gaps, any order: complete it. Points: {points}."
        ).format(
            ingredients=join_words([game_word(tr, k) for k in recipe.ingredients], tr), points=tr.number(POINTS[n])
        )
        if STYLE_CUBES[n]:
            text += " " + tr.gettext("In the recipe's order: Wasabi cubes +{n}.").format(n=tr.number(STYLE_CUBES[n]))
        out[recipe.name] = HowToStep(
            tr.gettext("Recipe: {recipe}").format(recipe=game_word(tr, recipe.name)),
            text,
            tuple(picture_name(k) for k in dict.fromkeys(recipe.ingredients))[:3],
        )
    return out
