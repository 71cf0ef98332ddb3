"""Takoyaki's look, as data (no Kivy): its pictures and the balls' colours and letters."""

from __future__ import annotations

#: Picture name -> glyph (the atlas of :mod:`kiosk.ui.pictures` draws every game's).
PICTURES: dict[str, str] = {
    "hot": "\U0001f525",
    "takoyaki": "\U0001f9c6",
    "game_takoyaki": "\U0001f419",
}

#: Ball colours (the sauce) and letters: red, green, blue. The letter is the colour-blind cue.
BALL_RGBA: dict[int, tuple[float, float, float, float]] = {
    1: (0.90, 0.25, 0.22, 1),
    2: (0.22, 0.70, 0.30, 1),
    3: (0.25, 0.45, 0.95, 1),
}
BALL_LETTER = {1: "R", 2: "G", 3: "B"}
