"""Maki's look, as data (no Kivy): its pictures, its ingredient categories' colours and symbols, and its motion
table (which event moves which piece on the shared board screen, :attr:`kiosk.board.board.BoardScreen.MOTION`)."""

from __future__ import annotations

#: Picture name -> glyph (the atlas of :mod:`kiosk.ui.pictures` draws every game's). Ingredient names are the
#: engine's kind names through :func:`kiosk.ui.pictures.picture_name` ("Cream Cheese" -> ``cream_cheese``).
PICTURES: dict[str, str] = {
    "rice": "\U0001f35a",  # bowl of rice
    "nori": "\U0001f359",  # rice ball wrapped in nori
    "egg": "\U0001f95a",
    "tempura": "\U0001f364",  # fried shrimp
    "cream_cheese": "\U0001f9c0",
    "sesame": "\U0001fad8",  # beans: the seeds
    "salmon": "\U0001f363",  # sushi (salmon nigiri)
    "tuna": "\U0001f41f",  # blue fish
    "yellowtail": "\U0001f420",  # yellow tropical fish
    "eel": "\U0001f40d",
    "mackerel": "\U0001f421",
    "avocado": "\U0001f951",
    "cucumber": "\U0001f952",
    "scallion": "\U0001f331",
    "mushroom": "\U0001f344",
    "radish": "\U0001fada",  # root
    "shrimp": "\U0001f990",
    "scallop": "\U0001f41a",
    "crab": "\U0001f980",
    "octopus": "\U0001f419",
    "geoduck": "\U0001f9aa",  # oyster
    "caviar": "\U0001fad0",  # dark small spheres
    "teacup": "\U0001f375",
    "wasabi": "\U0001f33f",  # the green plant: a Wasabi cube
    "switch": "\U0001f504",
    "chop": "\U0001f52a",
    "second_helping": "\U0001f37d",
    "substitute": "\U0001f501",
    "game_maki": "\U0001f363",
}

#: Category (cards.json's pantry sections) -> (symbol, tile colour, name). Letters, not colours, are the cue.
CATEGORIES: dict[str, tuple[str, tuple[float, float, float, float], str]] = {
    "base": ("R", (0.95, 0.93, 0.85, 1), "rice"),
    "misc": ("M", (0.80, 0.72, 0.90, 1), "misc"),
    "fish": ("F", (0.98, 0.62, 0.50, 1), "fish"),
    "veg": ("V", (0.60, 0.86, 0.48, 1), "vegetables"),
    "seafood": ("S", (0.55, 0.78, 1.00, 1), "seafood"),
    "special": ("\u2605", (1.00, 0.85, 0.35, 1), "special"),
}

#: Event kind -> (motion, the fields naming its squares or its name); see BoardScreen.MOTION.
MOTION: dict[str, tuple[str, tuple[str, ...]]] = {
    "placed": ("place", ("cell",)),
    "teacup": ("cup", ("cell",)),
    "switch": ("swap", ("a", "b")),
    "chop": ("take", ("cell",)),
    "gained": ("card", ("square",)),
    "served": ("complete", ("name",)),
}
