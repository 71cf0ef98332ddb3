"""Maki on the table: the shared board screen (:class:`kiosk.ui.board.BoardScreen`: the board as a grid of tiles
in the centre, each seat's recipes in its private tray) with Maki's teacups, Wasabi pool and display, its button
order, its prompts and its last moves in words (:func:`maki_event_text`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.engine import Action, Event
from kiosk.games.maki import look
from kiosk.ui.board import BoardScreen
from kiosk.ui.boardpieces import (
    ACTION_BACK,
    WASABI_DISC,
    backs_counter,
    load_categories,
    served_counter,
    wasabi_counter,
)
from kiosk.ui.words import fallback_event_text, game_over_text, join_names, plural

__all__ = ["GameScreen", "MakiScreen", "maki_event_text"]


def maki_event_text(ev: Event, who: Callable[[int | None], str], square: Callable[[int], str]) -> str:
    """One Maki event (``kiosk/games/maki/rules.py``) as a line of the last-moves box.

    ``who(seat)`` names a seat (its shape name), ``square(cell)`` a square (``B3``). Recipe points come from
    the card data (``RECIPES``), which is public once a recipe is served."""
    from kiosk.games.maki.rules import RECIPES

    d = dict(ev.data)
    p = who(ev.seat)
    k = ev.kind
    if k == "took":
        return f"{p} took a {d['kind']} tile from the Pantry"
    if k == "placed":
        return f"{p} placed {d['kind']} on {square(d['cell'])}" + (" (lifting its teacup)" if d.get("teacup") else "")
    if k == "teacup":
        return f"{p} moved the teacup to {square(d['cell'])}"
    if k == "switch":
        return f"{p} played Switch: {square(d['a'])} and {square(d['b'])} swapped"
    if k == "chop":
        return f"{p} played Chop: {d['kind']} on {square(d['cell'])} back to the Pantry"
    if k == "second_helping":
        return f"{p} played Second Helping: one more tile this turn"
    if k == "substitute":
        return f"{p} played Substitute on {square(d['cell'])}"
    if k == "substituted":
        return f"{p} swapped the {d['old']} on {square(d['cell'])} for {d['new']}"
    if k == "served":
        rid = d.get("recipe")
        pts = f" (+{RECIPES[rid].score})" if isinstance(rid, int) and 0 <= rid < len(RECIPES) else ""
        return f"{p} served {d['name']}{pts}" + (" with style" if d.get("style") else "")
    if k == "wasabi":
        return f"{p} gained {d['gain']} Wasabi for style"
    if k == "drew":
        return f"{p} drew a {d['length']}-ingredient recipe"
    if k == "gained":
        return f"{p} took the {d['card']} card"
    if k == "discarded":
        return f"{p} discarded a {d['card']} card"
    if k == "pool":
        return f"{p} took the Wasabi pool (+{d['took']} Wasabi)"
    if k == "returned":
        lengths = [str(x) for x in d.get("lengths", [])]
        return f"{p} returned {plural(len(lengths), 'recipe')} ({join_names(lengths)} ingredients) to the decks"
    if k == "turn_over":
        return f"{p}'s turn is over"
    if k == "endgame":
        return f"{p} filled the board: {plural(int(d['final_turns']), 'final turn')} left, one each"
    if k == "game_over":
        return game_over_text(d, who)
    return fallback_event_text(ev, who)


class MakiScreen(BoardScreen):
    """Maki: teacups on the board, recipes in the private tray, the Wasabi pool and display in the centre."""

    categories = load_categories(Path(__file__).with_name("cards.json"), "pantry")
    MOTION = look.MOTION
    #: Take a tile, serve, draw, Second Helping; the board moves; Prep (after serving: the Wasabi pool, one button,
    #: before the action cards of the display, and returning recipes, many buttons, last); cards aimed at squares.
    ACTION_ORDER = (
        "Take",
        "Place",
        "MoveCup",
        "Serve",
        "Draw",
        "EndTurn",
        "Discard",
        "SecondHelping",
        "TakePool",
        "Gain",
        "Return",
        "Switch",
        "Chop",
        "Substitute",
    )

    #: The Pantry is public: its tiles are taken in the centre (a tap takes one, a drag places it as well).
    PICKS = {"Take": "kind"}
    #: A recipe the acting seat can serve now (a legal ``Serve``) is framed in gold in its tray.
    READY = {"Serve": "recipe"}
    #: Serving and drawing in one touch: per recipe to serve, one button per deck the engine then offers to draw
    #: from ("Serve Maguro N., then Draw 3"; a 2-ingredient recipe's reward card is chosen first, and the draw
    #: follows by itself), or "..., then End Turn" when every deck is empty; the plain "Serve Maguro N." stays, for
    #: serving another recipe before drawing.
    FOLLOW_UPS = {"Serve": ("Draw", "EndTurn")}

    def placed_tile(self, action: Action, public: dict[str, Any]) -> str | None:
        """``Place`` puts the taken tile (public: ``pending``), ``MoveCup`` the lifted teacup."""
        name = type(action).__name__
        if name == "Place":
            pending = public.get("pending")
            return pending if isinstance(pending, str) else "tile"
        if name == "MoveCup":
            return "teacup"
        return None

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.legend = "R rice  M misc  F fish  V veg  S seafood  \u2605 special  \u2615 CUP teacup"

    def event_text(self, ev: Event) -> str:
        return maki_event_text(ev, self.seat_name, self.square_name)

    def prompt_text(self, public: dict[str, Any], kinds: set[str], board_moves: bool) -> str:
        """Maki's steps in words (``phase`` and ``pending`` are public; so are held action cards)."""
        cards = ", or tap a square for an action card" if board_moves else ""
        if "Place" in kinds:
            tile = public.get("pending")
            return f"Tap a marked square (empty, or a teacup) to place the {tile if isinstance(tile, str) else 'tile'}"
        if "MoveCup" in kinds:
            return "Tap a marked empty square to move the lifted teacup there"
        if "Take" in kinds and public.get("phase") == "substitute":
            return "Substitute: tap the new tile in the Pantry (in the middle of the table)"
        if "Take" in kinds:
            return (
                "Drag a tile from the Pantry (middle of the table) onto a marked square, or tap tile then square"
                + cards
            )
        if "Discard" in kinds:
            return "You hold too many action cards: discard one below"
        if "Gain" in kinds and "TakePool" not in kinds:
            return "Take an action card from the display below"
        if "Draw" in kinds:
            return "Draw recipes below until you hold three: choose each one's length (longer ones score more)"
        if "Serve" in kinds:
            return "Serve a recipe below, or Prep" + cards
        if "TakePool" in kinds or "Return" in kinds:
            return "Prep below: take an action card, the Wasabi pool, or return recipes" + cards
        return super().prompt_text(public, kinds, board_moves)

    def board_size(self, public: dict[str, Any]) -> tuple[int, int]:
        return int(public["rows"]), int(public["cols"])

    def board_cells(self, public: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"kind": v or "", "stack": 1 if v and v != "teacup" else 0, "covered": False} for v in public["board"]]

    def public_lines(self, public: dict[str, Any]) -> list[str]:
        s = self.session
        labels = [seat.label for seat in s.seats] if s else []
        lines = []
        if public["phase"] == "over":
            lines.append("Game over")
        else:
            who = labels[public["turn"]] if public["turn"] < len(labels) else "?"
            step = public["phase"]
            if step == "place" and isinstance(public.get("pending"), str):
                step = f"place the {public['pending']}"
            lines.append(f"Turn: {who} ({step})")
        lines.append(
            "Scores: "
            + "   ".join(
                f"{labels[i]} {plural(p, 'pt')}, {w} wasabi"
                for i, (p, w) in enumerate(zip(public["scores"], public["wasabi"]))
                if i < len(labels)
            )
        )
        lines.append(f"Wasabi pool: {public['pool']}")
        lines.append(
            "Action cards on display: "
            + (", ".join(public["display"]) or "none")
            + f"   (deck {public['action_deck']})"
        )
        held = [
            f"{labels[i]}: {', '.join(h['card'] for h in hs)}"
            for i, hs in enumerate(public["held"])
            if hs and i < len(labels)
        ]
        if held:
            lines.append("Held: " + "   ".join(held))
        lines.append("Recipe decks: " + "  ".join(f"{k}-long {d['count']}" for k, d in public["decks"].items()))
        empty = [k for k, n in public["pantry"].items() if n == 0]
        lines.append(
            f"Pantry: {sum(public['pantry'].values())} tiles" + (f" (out: {', '.join(empty)})" if empty else "")
        )
        if public.get("final_turns_left") is not None:
            lines.append(f"Board full: {public['final_turns_left']} final turns left")
        return lines

    def recipe_names(self, mine: dict[str, Any], g: int) -> dict[int, str]:
        return {r["id"]: r["name"] for r in mine["hands"][g] if "id" in r}

    def private_lines(self, mine: dict[str, Any], g: int) -> list[str]:
        lines = ["Your recipes:"]
        for r in mine["hands"][g]:
            if "name" in r:
                lines.append(f"\u2022 {r['name']} ({plural(r['score'], 'pt')}): {' + '.join(r['ingredients'])}")
        held = [h["card"] for h in mine["held"][g]]
        if held:
            lines.append("Your action cards: " + ", ".join(held))
        served = [x["name"] for x in mine["served"][g]]
        if served:
            lines.append("Served: " + ", ".join(served))
        return lines

    def shelf_items(
        self, mine: dict[str, Any], g: int, ready: set[int]
    ) -> tuple[list[dict[str, Any]], list[str], list[tuple[str, str]]]:
        """The seat's recipes (points, style Wasabi; the ones it can serve now ready), its served recipes as one
        pile (the last one on top, with the count; recipe cards are public once served) and its action cards."""
        from kiosk.games.maki.rules import RECIPES

        cards = [
            self.recipe_card(r, points=int(r.get("score", 0)), style=int(r.get("style", 0)), ready=r["id"] in ready)
            for r in mine["hands"][g]
            if "name" in r
        ]
        served = mine["served"][g]
        rid = served[-1]["recipe"] if served else None
        if isinstance(rid, int) and 0 <= rid < len(RECIPES):
            cards.append(self.recipe_card(RECIPES[rid].to_json(), done=True, count=len(served)))
        return cards, [str(h["card"]) for h in mine["held"][g]], []

    def seat_rows(self, public: dict[str, Any]) -> list[dict[str, Any]]:
        """Per seat: points, Wasabi, recipes served, recipes held (backs), held action cards."""
        return [
            {
                "points": int(points),
                "counters": [
                    wasabi_counter(int(public["wasabi"][i])),
                    served_counter(len(public["served"][i])),
                    backs_counter(len(public["hands"][i])),
                ],
                "cards": [str(h["card"]) for h in public["held"][i]],
            }
            for i, points in enumerate(public["scores"])
        ]

    def shared_rows(
        self, public: dict[str, Any]
    ) -> tuple[list[tuple[str, float, dict[str, Any]]], list[tuple[str, float, dict[str, Any]]]]:
        """The Wasabi pool, the action deck and the recipe decks (by length); the display's cards, named."""
        counts: list[tuple[str, float, dict[str, Any]]] = [
            (
                "counter",
                1.9,
                {"picture": "wasabi", "shape": "disc", "rgba": list(WASABI_DISC), "count": public["pool"]},
            ),
            (
                "counter",
                1.6,
                {
                    "picture": "",
                    "symbol": "?",
                    "shape": "card",
                    "rgba": list(ACTION_BACK),
                    "count": public["action_deck"],
                },
            ),
        ]
        counts += [
            ("deck", 0.95, {"length": int(k), "count": int(d["count"])}) for k, d in sorted(public["decks"].items())
        ]
        display = [("card", 1.45, {"name": str(c), "named": True, "count": 1}) for c in public["display"]]
        return counts, display


GameScreen = MakiScreen
