"""Maki's game words a player reads, marked for its catalog (:func:`kiosk.i18n.N_`) and translated where they
are shown (``tr.gettext(name)``, :func:`name`): the Pantry's ingredients, the recipes' names (``cards.json``)
and the action cards. The engine and ``cards.json`` keep the English names (pictures and rules read them)."""

from __future__ import annotations

from kiosk.i18n import N_, Translator

__all__ = ["INGREDIENTS", "RECIPES", "ACTION_CARDS", "name", "short"]

INGREDIENTS = (
    N_("Rice"), N_("Nori"), N_("Egg"), N_("Tempura"), N_("Cream Cheese"), N_("Sesame"), N_("Salmon"), N_("Tuna"),
    N_("Yellowtail"), N_("Eel"), N_("Mackerel"), N_("Avocado"), N_("Cucumber"), N_("Scallion"), N_("Mushroom"),
    N_("Radish"), N_("Shrimp"), N_("Scallop"), N_("Crab"), N_("Octopus"), N_("Geoduck"), N_("Caviar"),
)  # fmt: skip
RECIPES = (
    N_("Salmon Nigiri"), N_("Tuna Nigiri"), N_("Yellowtail Nigiri"), N_("Eel Nigiri"), N_("Mackerel Nigiri"),
    N_("Shrimp Nigiri"), N_("Scallop Nigiri"), N_("Octopus Nigiri"), N_("Mirugai"), N_("Avocado Nigiri"),
    N_("Tamago Nigiri"), N_("Kappa Maki"), N_("Tekka Maki"), N_("Crab Gunkan"), N_("Oshinko Maki"), N_("Sunomono"),
    N_("Mushroom Tempura"), N_("Negihama"), N_("Philly Bite"), N_("Hotate Bite"), N_("Sake-Avo Maki"),
    N_("California Roll"), N_("Spicy Tuna Roll"), N_("Philadelphia Roll"), N_("Unagi Don"), N_("Ebi Tempura Maki"),
    N_("Vegetable Futomaki"), N_("Hamachi Crudo"), N_("Saba Oshizushi"), N_("Tako Su"), N_("Scallop Gunkan"),
    N_("Tuna Tataki"), N_("Shiitake Gunkan"), N_("Crab Salad Roll"), N_("Chirashi Bite"), N_("Mirugai Sashimi"),
    N_("Tempura Veggie Roll"), N_("Onigiri"), N_("Red Dragon"), N_("Dynamite Roll"), N_("Rainbow Roll"),
    N_("Spider Roll"), N_("Caterpillar Roll"), N_("Dragon Roll"), N_("Alaska Roll"), N_("Boston Roll"),
    N_("Volcano Roll"), N_("Futomaki"), N_("Hamachi Jalapeno"), N_("Saba Bozushi"), N_("Tako Salad"),
    N_("Mirugai Don"), N_("Shrimp Tempura Roll"), N_("Emperor Roll"), N_("Godzilla Roll"), N_("Garden Roll"),
    N_("Surf Roll"), N_("Sunrise Roll"), N_("Ocean Platter"), N_("Bento Box"), N_("Kaisen Don"), N_("Golden Roll"),
    N_("Forest Roll"), N_("Hand Roll Feast"), N_("Rice Tower"),
)  # fmt: skip
ACTION_CARDS = (N_("Switch"), N_("Chop"), N_("Second Helping"), N_("Substitute"))


def name(tr: Translator, english: object) -> str:
    """A game word (an ingredient, a recipe, an action card, as the engine names it) in ``tr``'s language."""
    return tr.gettext(str(english)) if english else ""


def short(tr: Translator, shown: str) -> str:
    """A recipe's name (in ``tr``'s language already) short enough for a button: English shortens it
    (:func:`kiosk.ui.words.short_recipe`, ``Maguro N.``); other languages keep it whole (their word order
    differs: ``Nigiri de salmón``), and a button wraps it onto a second line."""
    from kiosk.ui.words import short_recipe

    return short_recipe(shown) if tr.language == "en" else shown
