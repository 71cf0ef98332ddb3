"""Wasabi!'s game words a player reads, marked for its catalog (:func:`kiosk.i18n.N_`) and translated where they
are shown (:func:`kiosk.ui.words.game_word`): the Pantry's ingredients, the recipes' names (``cards.json``),
the action cards and why a game ended. The engine and ``cards.json`` keep the English names."""

from __future__ import annotations

from kiosk.i18n import N_

__all__ = ["INGREDIENTS", "RECIPES", "ACTION_CARDS", "END_REASONS"]

INGREDIENTS = (
    N_("Rice"), N_("Maki"), N_("Tuna"), N_("Salmon"), N_("Yellowtail"), N_("Eel"), N_("Shrimp"), N_("Crab"),
    N_("Squid"), N_("Roe"), N_("Avocado"), N_("Cucumber"), N_("Pickle"), N_("Scallion"), N_("Egg"), N_("Tempura"),
    N_("Cream Cheese"),
)  # fmt: skip
RECIPES = (
    N_("Tekkamaki"), N_("Kappamaki"), N_("Salmon Nigiri"), N_("Maguro Nigiri"), N_("Ebi Nigiri"),
    N_("Hamachi Nigiri"), N_("Unagi Nigiri"), N_("Ika Nigiri"), N_("Tamago Nigiri"), N_("Ikura Gunkan"),
    N_("Kani Maki"), N_("Oshinko Maki"), N_("Avocado Maki"), N_("Negihama"), N_("Salmon Cream"), N_("Ebi Tempura"),
    N_("Crunchy Tuna"), N_("Pickle Barrel"), N_("Philadelphia Roll"), N_("California Roll"), N_("Spicy Tuna Roll"),
    N_("Salmon Avocado Roll"), N_("Unadon"), N_("Ebi Avocado"), N_("Ikura Don"), N_("Squid Salad"), N_("Negitoro"),
    N_("Tamago Roll"), N_("Hamachi Avocado"), N_("Shrimp Tempura Roll"), N_("Dragon Roll"), N_("Rainbow Roll"),
    N_("Spider Roll"), N_("Futomaki"), N_("Caterpillar Roll"), N_("Alaska Roll"), N_("Seafood Salad"),
    N_("Tiger Roll"), N_("Poke Bowl"), N_("Volcano Roll"), N_("Salmon Skin Roll"), N_("Chirashi"), N_("Kaiseki"),
    N_("Boston Roll"), N_("Godzilla Roll"), N_("Oceanic Roll"), N_("Garden Roll"), N_("Omakase"),
    N_("Las Vegas Roll"), N_("Bento"), N_("Sashimi Moriawase"), N_("Hosomaki Platter"),
)  # fmt: skip
ACTION_CARDS = (N_("Chop"), N_("Spicy"), N_("Stack"), N_("Switch"), N_("Wasabi"))
#: Why a game ended (the engine's ``end_reason``), as the game-over line says it.
END_REASONS = (N_("instant win"), N_("board full"), N_("everyone passed"), N_("finished"))
