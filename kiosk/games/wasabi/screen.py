"""Wasabi! on the table: the board of stacks in the centre, each seat's hand and recipes in its private tray.

Built on Maki's :class:`kiosk.games.maki.screen.BoardScreen` (the generic screen's seat panels with a board of
tiles in the centre; the board faces the seat whose turn it is). The screen holds no rules: it draws
``state.view(None)`` and ``state.view(seat)`` and offers ``state.legal_actions(seat)`` as buttons.

Decisions, written down: a square shows the *top* tile of its stack (the one that counts for recipes) with
``×N`` when N tiles are stacked; a square under a Wasabi card is drawn green with a bright border and says
``W! covered`` (with the top tile's name when there is one). The starting tiles being chosen for a neighbour
(``turn.giving``) are public only as a count, so the centre shows the count and the two seats concerned see
the tiles in their trays.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk.games.maki.screen import BoardScreen, load_categories

__all__ = ["GameScreen", "WasabiScreen"]


class WasabiScreen(BoardScreen):
    """Wasabi!: stacks and Wasabi covers on the board, hand tiles and recipes in the private tray."""

    categories = load_categories(Path(__file__).with_name("cards.json"), "categories")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.legend = ("R rice  M maki  F fish  S seafood  V vegetables  \u2605 special   "
                       "\u00d7N stacked   W! Wasabi card")

    def board_size(self, public: dict[str, Any]) -> tuple[int, int]:
        return int(public["rows"]), int(public["columns"])

    def board_cells(self, public: dict[str, Any]) -> list[dict[str, Any]]:
        covered = set(public["covered"])
        return [{"kind": st[-1] if st else "", "stack": len(st), "covered": i in covered}
                for i, st in enumerate(public["board"])]

    def public_lines(self, public: dict[str, Any]) -> list[str]:
        s = self.session
        labels = [seat.label for seat in s.seats] if s else []
        lines = []
        cur = public["current"]
        t = public["turn"]
        if public["over"]:
            lines.append(f"Game over ({public['end_reason'] or 'finished'})")
        elif cur is not None and cur < len(labels):
            step = {"give": "choosing starting tiles for the next seat", "draw": "drawing recipes"}.get(
                public["phase"], str(public["phase"]).replace("_", " "))
            lines.append(f"Turn: {labels[cur]} ({step})")
            extra = []
            if t["tiles_left"]:
                extra.append(f"{t['tiles_left']} tile{'s' if t['tiles_left'] != 1 else ''} to place")
            if t["card_played"]:
                extra.append(f"played {t['card_played']}")
            if t["chopped"]:
                extra.append(f"chopped {t['chopped']}")
            if isinstance(t["giving"], int) and t["giving"]:
                extra.append(f"{t['giving']} starting tiles chosen")
            if extra:
                lines.append("   " + ", ".join(extra))
        for i, p in enumerate(public["seats"]):
            if i < len(labels):
                lines.append(f"{labels[i]}: {p['score']} pts, {p['cubes']} wasabi, {p['hand_size']} tiles, "
                             f"{len(p['recipe_lengths'])} recipes, {len(p['completed'])} done"
                             + (f", cards {' '.join(p['cards'])}" if p["cards"] else ""))
        lines.append("Kitchen: " + "  ".join(f"{k} {n}" for k, n in public["kitchen"].items()))
        lines.append(f"Pantry: {len(public['pantry_available'])} kinds left   Recipe stacks: "
                     + "  ".join(f"{k}-long {n}" for k, n in public["recipe_stacks"].items()))
        return lines

    def recipe_names(self, mine: dict[str, Any], g: int) -> dict[int, str]:
        return {r["id"]: r["name"] for r in mine["seats"][g].get("recipes", [])}

    def private_lines(self, mine: dict[str, Any], g: int) -> list[str]:
        me = mine["seats"][g]
        lines = ["Your tiles: " + (", ".join(me.get("hand", [])) or "none")]
        recipes = me.get("recipes", [])
        if recipes:
            lines.append("Your recipes:")
            lines += [f"\u2022 {r['name']}: {' + '.join(r['ingredients'])}" for r in recipes]
        giving = mine["turn"]["giving"]
        if isinstance(giving, list) and giving:
            lines.append("Starting tiles chosen: " + ", ".join(giving))
        return lines


GameScreen = WasabiScreen
