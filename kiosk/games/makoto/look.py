"""Makoto's look, as data (no Kivy): its pictures (the card pieces are in :mod:`kiosk.games.makoto.pieces`)."""

from __future__ import annotations

#: Picture name -> glyph (the atlas of :mod:`kiosk.ui.pictures` draws every game's).
PICTURES: dict[str, str] = {
    "sword": "\u2694",
    "oracle": "\u2600",
    "kensei": "\U0001f451",
    "game_makoto": "\U0001f3b4",
}
