"""Maki on the table: the shared board screen (:class:`kiosk.board.board.BoardScreen`: the board as a grid of tiles
in the centre, each seat's recipes in its private tray) with Maki's teacups, Wasabi pool and display, its button
order, its prompts and its last moves in words (:func:`maki_event_text`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk.board.board import BoardScreen
from kiosk.board.pieces import (
    ACTION_BACK,
    WASABI_DISC,
    backs_counter,
    load_categories,
    named_card,
    served_counter,
    wasabi_counter,
)
from kiosk.engine import Action, Event, State
from kiosk.games.maki import look
from kiosk.games.maki.rules import MakiState
from kiosk.games.maki.views import MakiView
from kiosk.games.maki.words import maki_action_label, maki_event_text
from kiosk.i18n import N_, Translator
from kiosk.ui.words import game_word as name
from kiosk.ui.words import plural

__all__ = ["GameScreen", "MakiScreen"]


class MakiScreen(BoardScreen[MakiView, MakiView]):
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

    def typed_view(self, state: State, seat: int | None) -> MakiView:
        assert isinstance(state, MakiState), state  # this screen shows Maki only
        return state.view(seat)

    def placed_tile(self, action: Action, public: MakiView) -> str | None:
        """``Place`` puts the taken tile (public: ``pending``), ``MoveCup`` the lifted teacup."""
        name = type(action).__name__
        if name == "Place":
            pending = public.get("pending")
            # a tile the view does not name: the tray captions it with this word, in the seat's language
            return pending if isinstance(pending, str) else N_("tile")
        if name == "MoveCup":
            return "teacup"
        return None

    def legend_text(self, tr: Translator) -> str:
        return tr.gettext("R rice  M misc  F fish  V veg  S seafood  {star} special  {cup} CUP teacup").format(
            star=tr.sym("\u2605"), cup=tr.sym("\u2615")
        )

    def action_words(self, action: Action, cols: int, cells: int, recipes: dict[int, str], tr: Translator) -> str:
        """Maki's buttons in the seat's words (:func:`maki_action_label`)."""
        return maki_action_label(action, cols, cells, recipes, tr)

    def event_text(self, ev: Event) -> str:
        return maki_event_text(ev, self.seat_name, self.square_name, tr=self.tr)

    def prompt_text(self, public: MakiView, kinds: set[str], board_moves: bool, tr: Translator) -> str:
        """Maki's steps in the seat's words (``phase`` and ``pending`` are public; so are held action cards)."""
        _ = tr.gettext
        if "Place" in kinds:
            tile = public.get("pending")
            if isinstance(tile, str):
                return _("Tap a marked square (empty, or a teacup) to place the {tile}").format(tile=name(tr, tile))
            return _("Tap a marked square (empty, or a teacup) to place the tile")
        if "MoveCup" in kinds:
            return _("Tap a marked empty square to move the lifted teacup there")
        if "Take" in kinds and public.get("phase") == "substitute":
            return _("Substitute: tap the new tile in the Pantry (in the middle of the table)")
        if "Take" in kinds:
            if board_moves:
                return _(
                    "Drag a tile from the Pantry (middle of the table) onto a marked square, or tap tile then "
                    "square, or tap a square for an action card"
                )
            return _("Drag a tile from the Pantry (middle of the table) onto a marked square, or tap tile then square")
        if "Discard" in kinds:
            return _("You hold too many action cards: discard one below")
        if "Gain" in kinds and "TakePool" not in kinds:
            return _("Take an action card from the display below")
        if "Draw" in kinds:
            return _("Draw recipes below until you hold three: choose each one's length (longer ones score more)")
        if "Serve" in kinds:
            if board_moves:
                return _("Serve a recipe below, or Prep, or tap a square for an action card")
            return _("Serve a recipe below, or Prep")
        if "TakePool" in kinds or "Return" in kinds:
            if board_moves:
                return _(
                    "Prep below: take an action card, the Wasabi pool, or return recipes, or tap a square for an "
                    "action card"
                )
            return _("Prep below: take an action card, the Wasabi pool, or return recipes")
        return super().prompt_text(public, kinds, board_moves, tr)

    def board_size(self, public: MakiView) -> tuple[int, int]:
        return int(public["rows"]), int(public["cols"])

    def board_cells(self, public: MakiView) -> list[dict[str, Any]]:
        return [{"kind": v or "", "stack": 1 if v and v != "teacup" else 0, "covered": False} for v in public["board"]]

    def public_lines(self, public: MakiView) -> list[str]:
        """The public information in words: the first line (whose turn, the step) is the centre's, in the
        table's language; the rest is a text description for tests."""
        s = self.session
        labels = [seat.label for seat in s.seats] if s else []
        lines = []
        tr = self.tr
        if public["phase"] == "over":
            lines.append(tr.gettext("Game over"))
        else:
            who = self.seat_name(public["turn"]) if public["turn"] < len(labels) else "?"
            step = self.step_name(public)
            lines.append(tr.gettext("Turn: {player} ({step})").format(player=who, step=step))
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

    def step_name(self, public: MakiView) -> str:
        """The step of the turn (the public ``phase``) in the table's words."""
        tr = self.tr
        phase = public.get("phase")
        if phase == "place" and isinstance(public.get("pending"), str):
            return tr.gettext("place the {tile}").format(tile=name(tr, public["pending"]))
        steps = {
            "main": tr.pgettext("maki step", "play"),
            "place": tr.pgettext("maki step", "place"),
            "cup": tr.pgettext("maki step", "move the teacup"),
            "substitute": tr.pgettext("maki step", "substitute"),
            "gain": tr.pgettext("maki step", "take an action card"),
            "discard": tr.pgettext("maki step", "discard"),
            "refill": tr.pgettext("maki step", "draw recipes"),
        }
        return steps.get(str(phase), str(phase))

    def recipe_names(self, mine: MakiView, g: int) -> dict[int, str]:
        tr = self.seat_tr(g)
        return {r["id"]: name(tr, r["name"]) for r in mine["hands"][g] if "id" in r}

    def private_lines(self, mine: MakiView, g: int) -> list[str]:
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
        self, mine: MakiView, g: int, ready: set[int]
    ) -> tuple[list[dict[str, Any]], list[str], list[tuple[str, str]]]:
        """The seat's recipes (points, style Wasabi; the ones it can serve now ready), its served recipes as one
        pile (the last one on top, with the count; recipe cards are public once served) and its action cards."""
        from kiosk.games.maki.rules import RECIPES

        tr = self.seat_tr(g)
        cards = [
            self.recipe_card(
                r,
                points=int(r.get("score", 0)),
                style=int(r.get("style", 0)),
                ready=r["id"] in ready,
                name=name(tr, r["name"]),
            )
            for r in mine["hands"][g]
            if "name" in r
        ]
        served = mine["served"][g]
        rid = served[-1]["recipe"] if served else None
        if isinstance(rid, int) and 0 <= rid < len(RECIPES):
            last = RECIPES[rid].to_json()
            cards.append(self.recipe_card(last, done=True, count=len(served), name=name(tr, last["name"])))
        return cards, [str(h["card"]) for h in mine["held"][g]], []

    def seat_rows(self, public: MakiView) -> list[dict[str, Any]]:
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
        self, public: MakiView
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
        display = [
            ("card", 1.45, {**named_card(str(c), name(self.tr, c)), "named": True, "count": 1})
            for c in public["display"]
        ]
        return counts, display


GameScreen = MakiScreen
