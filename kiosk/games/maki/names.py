"""Maki's game words a player reads, marked for its catalog (:func:`kiosk.i18n.N_`) and translated where they
are shown (:func:`kiosk.ui.words.game_word`): the Pantry's ingredients, the recipes' names (``cards.json``)
and the action cards. The engine and ``cards.json`` keep the English names (pictures and rules read them)."""

from __future__ import annotations

from kiosk.i18n import N_

__all__ = ["INGREDIENTS", "RECIPES", "ACTION_CARDS"]

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
