"""Wasabi!'s look, as data (no Kivy): its pictures, its ingredient categories' colours and symbols, and its motion
table (which event moves which piece on the shared board screen, :attr:`kiosk.board.board.BoardScreen.MOTION`)."""

from __future__ import annotations

#: Picture name -> glyph (the atlas of :mod:`kiosk.ui.pictures` draws every game's).
PICTURES: dict[str, str] = {
    "rice": "\U0001f35a",  # bowl of rice
    "maki": "\U0001f365",  # the swirl of a rolled maki
    "egg": "\U0001f95a",
    "tempura": "\U0001f364",  # fried shrimp
    "cream_cheese": "\U0001f9c0",
    "salmon": "\U0001f363",  # sushi (salmon nigiri)
    "tuna": "\U0001f41f",  # blue fish
    "yellowtail": "\U0001f420",  # yellow tropical fish
    "eel": "\U0001f40d",
    "avocado": "\U0001f951",
    "cucumber": "\U0001f952",
    "scallion": "\U0001f331",
    "pickle": "\U0001fad9",  # jar
    "shrimp": "\U0001f990",
    "crab": "\U0001f980",
    "squid": "\U0001f991",
    "roe": "\U0001fae7",  # bubbles: the round eggs
    "wasabi": "\U0001f33f",  # the green plant: a Wasabi card
    "switch": "\U0001f504",
    "chop": "\U0001f52a",
    "spicy": "\U0001f336",
    "stack": "\U0001f95e",  # a stack of pancakes
    "game_wasabi": "\U0001f371",
}

#: Category (cards.json's categories) -> (symbol, tile colour, name). Letters, not colours, are the cue.
CATEGORIES: dict[str, tuple[str, tuple[float, float, float, float], str]] = {
    "rice": ("R", (0.95, 0.93, 0.85, 1), "rice"),
    "maki": ("M", (0.55, 0.70, 0.50, 1), "maki"),
    "fish": ("F", (0.98, 0.62, 0.50, 1), "fish"),
    "vegetables": ("V", (0.60, 0.86, 0.48, 1), "vegetables"),
    "seafood": ("S", (0.55, 0.78, 1.00, 1), "seafood"),
    "special": ("\u2605", (1.00, 0.85, 0.35, 1), "special"),
}

#: Event kind (or kind:ActionType) -> (motion, the fields naming its squares or its name); see BoardScreen.MOTION.
MOTION: dict[str, tuple[str, tuple[str, ...]]] = {
    "placed": ("place", ("square",)),
    "card_played:PlaySwitch": ("swap", ("a", "b")),
    "chopped": ("take", ("square",)),
    "took_card": ("card", ("square",)),
    "completed": ("complete", ("recipe",)),
}
