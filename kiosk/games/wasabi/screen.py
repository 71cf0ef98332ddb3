"""Wasabi! on the table: the board of stacks in the centre, each seat's hand and recipes in its private tray.

Built on Maki's :class:`kiosk.games.maki.screen.BoardScreen` (the generic screen's seat panels with a board of
tiles in the centre; the board faces the seat whose turn it is). The screen holds no rules: it draws
``state.view(None)`` and ``state.view(seat)`` and offers ``state.legal_actions(seat)`` as buttons.

Decisions, written down: a square shows the *top* tile of its stack (the one that counts for recipes) with
``×N`` when N tiles are stacked; a square under a Wasabi card is drawn green with a bright border and says
``W! covered`` (with the top tile's name when there is one). The starting tiles being chosen for a neighbour
(``turn.giving``) are public only as a count, so the centre shows the count and the two seats concerned see
the tiles in their trays.

Tapping the board, the button order and the prompt are the board screen's (see ``kiosk/games/maki/screen.py``);
Wasabi!'s own parts: :attr:`WasabiScreen.ACTION_ORDER` (the setup and refill choices, the reward, End Step,
Stack! and Spicy! first; placing a tile next; Pass variants after the placements; Switch!, Chop! and Wasabi!
aimed at squares last, as tapping a square reaches them), its prompts, and :func:`wasabi_event_text`, the
last-moves line in words ("Circle placed Eel on A5", "Diamond drew a tile").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, overload

from kiosk.board.board import BoardScreen
from kiosk.board.pieces import (
    TILE_BACK,
    backs_counter,
    load_categories,
    named_card,
    served_counter,
    wasabi_counter,
)
from kiosk.engine import Action, Event, State
from kiosk.games.wasabi import look
from kiosk.games.wasabi.rules import WasabiState
from kiosk.games.wasabi.views import WasabiSeatView, WasabiView
from kiosk.games.wasabi.words import wasabi_action_label, wasabi_event_text
from kiosk.i18n import Translator
from kiosk.ui.words import game_word as name
from kiosk.ui.words import plural, short_name

__all__ = ["GameScreen", "WasabiScreen"]


class WasabiScreen(BoardScreen[WasabiView, WasabiSeatView]):
    """Wasabi!: stacks and Wasabi covers on the board, hand tiles and recipes in the private tray."""

    categories = load_categories(Path(__file__).with_name("cards.json"), "categories")
    #: A Wasabi card lying on a square: its plant drawn over the square.
    cover_picture = "wasabi"
    MOTION = look.MOTION
    #: Setup and refill draws, the reward, End Step, Stack!, Spicy!; placing; Pass; cards aimed at squares.
    ACTION_ORDER = (
        "ChooseRecipe",
        "GiveTile",
        "DrawRecipe",
        "DrawTile",
        "TakeCard",
        "SkipReward",
        "EndStep",
        "PlayStack",
        "PlaySpicy",
        "Place",
        "Pass",
        "PlaySwitch",
        "PlayChop",
        "PlayWasabi",
    )

    #: Refill tiles come from the public Pantry (tiles in the centre); starting tiles for a neighbour stay in the
    #: giver's tray (which categories were given is private).
    PICKS = {"DrawTile": "tile"}
    PRIVATE_PICKS = {"GiveTile": "tile"}
    #: Two recipes of one length done and one token free: the ones the seat may complete are framed in gold.
    READY = {"ChooseRecipe": "recipe"}

    @overload
    def typed_view(self, state: State, seat: None) -> WasabiView: ...
    @overload
    def typed_view(self, state: State, seat: int) -> WasabiSeatView: ...
    def typed_view(self, state: State, seat: int | None) -> WasabiView | WasabiSeatView:
        assert isinstance(state, WasabiState), state  # this screen shows Wasabi only
        return state.view(seat)

    def tile_text(self, kind: str, stack: int, covered: bool) -> str:
        """A square under a Wasabi card reads ``W! covered`` (with the top tile's name when there is one)."""
        if covered:
            top = f"{short_name(kind)}\n" if kind else ""
            return f"{top}W! covered"
        return super().tile_text(kind, stack, covered)

    def placed_tile(self, action: Action, public: WasabiView) -> str | None:
        return str(getattr(action, "tile", "")) if type(action).__name__ == "Place" else None

    def action_words(self, action: Action, cols: int, cells: int, recipes: dict[int, str], tr: Translator) -> str:
        """Wasabi!'s buttons in the seat's words: a reward card says where it comes from and what goes back."""
        return wasabi_action_label(action, cols, cells, recipes, tr)

    def legend_text(self, tr: Translator) -> str:
        return tr.gettext(
            "R rice  M maki  F fish  S seafood  V vegetables  {star} special   {times}N stacked   W! Wasabi card"
        ).format(star=tr.sym("\u2605"), times="\u00d7")

    def event_text(self, ev: Event) -> str:
        return wasabi_event_text(ev, self.seat_name, self.square_name, tr=self.tr)

    def prompt_text(self, public: WasabiView, kinds: set[str], board_moves: bool, tr: Translator) -> str:
        """Wasabi!'s steps in the seat's words (from the public view and the kinds of the legal actions only)."""
        _ = tr.gettext
        t = public.get("turn", {})
        if "ChooseRecipe" in kinds:
            return _(
                "Two recipes of the same length are done but one token is free: choose which one to complete below"
            )
        if "GiveTile" in kinds:
            nxt = public.get("current")
            if isinstance(nxt, int):
                other = self.seat_name((nxt + 1) % int(public.get("players", 2)), tr)
                return _(
                    "Set-up: give {player} a starting tile below (3 tiles of 3 different kinds; no rice, maki or "
                    "special)"
                ).format(player=other)
            return _("Set-up: give the next player a starting tile below (3 tiles of 3 different kinds)")
        if "DrawRecipe" in kinds:
            return _("Draw a recipe below: choose its length (longer ones score more but are harder to make)")
        if "DrawTile" in kinds:
            return _("Refill your hand: tap a tile in the Pantry (in the middle of the table)")
        if "TakeCard" in kinds or "SkipReward" in kinds:
            if board_moves:
                return _("Recipe completed! Take a reward card below, or tap a Wasabi! card on the board")
            return _("Recipe completed! Take a reward card below")
        if "Place" in kinds:
            if t.get("chopped"):
                return _("Tap a marked square to place the chopped {tile}").format(tile=name(tr, t["chopped"]))
            if t.get("stack"):
                return _("Drag a tile from your hand onto a marked square (Stack!: on top of a tile too)")
            return _("Open your hand, then drag a tile onto a marked square (or tap tile, then square)")
        if "EndStep" in kinds:
            if board_moves:
                return _("Play an action card, or End Step below (tap a square for Switch!, Chop! or Wasabi!)")
            return _("Play an action card, or End Step below")
        if "Pass" in kinds:
            return _("Pass below, or tap a square for an action card") if board_moves else _("Pass below")
        return super().prompt_text(public, kinds, board_moves, tr)

    def board_size(self, public: WasabiView) -> tuple[int, int]:
        return int(public["rows"]), int(public["columns"])

    def board_cells(self, public: WasabiView) -> list[dict[str, Any]]:
        covered = set(public["covered"])
        return [
            {"kind": st[-1] if st else "", "stack": len(st), "covered": i in covered}
            for i, st in enumerate(public["board"])
        ]

    def public_lines(self, public: WasabiView) -> list[str]:
        """The public information in words: the first line (whose turn, the step) is the centre's, in the
        table's language; the rest is a text description for tests."""
        s = self.session
        labels = [seat.label for seat in s.seats] if s else []
        lines = []
        cur = public["current"]
        t = public["turn"]
        tr = self.tr
        if public["over"]:
            reason = name(tr, public["end_reason"] or "finished")
            lines.append(tr.gettext("Game over ({reason})").format(reason=reason))
        elif cur is not None and cur < len(labels):
            steps = {
                "give": tr.pgettext("wasabi step", "choosing starting tiles for the next seat"),
                "setup_recipes": tr.pgettext("wasabi step", "drawing recipes"),
                "draw_recipes": tr.pgettext("wasabi step", "drawing recipes"),
                "draw": tr.pgettext("wasabi step", "drawing recipes"),
                "play": tr.pgettext("wasabi step", "play"),
                "choose": tr.pgettext("wasabi step", "choose a recipe"),
                "reward": tr.pgettext("wasabi step", "reward"),
                "draw_tiles": tr.pgettext("wasabi step", "draw tiles"),
            }
            step = steps.get(str(public["phase"]), str(public["phase"]).replace("_", " "))
            lines.append(tr.gettext("Turn: {player} ({step})").format(player=self.seat_name(cur), step=step))
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
                lines.append(
                    f"{labels[i]}: {plural(p['score'], 'pt')}, {p['cubes']} wasabi, {p['hand_size']} tiles, "
                    f"{len(p['recipe_lengths'])} recipes, {len(p['completed'])} done"
                    + (f", cards {' '.join(p['cards'])}" if p["cards"] else "")
                )
        lines.append("Kitchen: " + "  ".join(f"{k} {n}" for k, n in public["kitchen"].items()))
        lines.append(
            f"Pantry: {len(public['pantry_available'])} kinds left   Recipe stacks: "
            + "  ".join(f"{k}-long {n}" for k, n in public["recipe_stacks"].items())
        )
        return lines

    def recipe_names(self, mine: WasabiSeatView, g: int) -> dict[int, str]:
        tr = self.seat_tr(g)
        return {r["id"]: name(tr, r["name"]) for r in mine["recipes"]}

    def private_lines(self, mine: WasabiSeatView, g: int) -> list[str]:
        lines = ["Your tiles: " + (", ".join(mine["hand"]) or "none")]
        recipes = mine["recipes"]
        if recipes:
            lines.append("Your recipes:")
            lines += [f"\u2022 {r['name']}: {' + '.join(r['ingredients'])}" for r in recipes]
        giving = mine["turn"]["giving"]
        if isinstance(giving, list) and giving:
            lines.append("Starting tiles chosen: " + ", ".join(giving))
        return lines

    def shelf_items(
        self, mine: WasabiSeatView, g: int, ready: set[int]
    ) -> tuple[list[dict[str, Any]], list[str], list[tuple[str, str]]]:
        """The seat's recipes (points from the token for their length), its completed recipes as one pile, its
        reward cards and its hand's tiles."""
        from kiosk.games.wasabi.cards import POINTS

        me = mine["seats"][g]
        tr = self.seat_tr(g)
        cards = [
            self.recipe_card(
                r,
                points=POINTS.get(len(r["ingredients"]), 0),
                ready=r["id"] in ready,
                name=name(tr, r["name"]),
            )
            for r in mine["recipes"]
        ]
        done = me["completed"]
        if done:
            last = done[-1]
            cards.append(
                self.recipe_card(
                    {"name": last["recipe"], "ingredients": last["ingredients"]},
                    name=name(tr, last["recipe"]),
                    points=POINTS.get(last["length"], 0),
                    done=True,
                    count=len(done),
                )
            )
        tiles = [(str(k), self.categories.get(str(k), "")) for k in mine["hand"]]
        giving = mine["turn"]["giving"]
        if isinstance(giving, list):
            tiles += [(str(k), self.categories.get(str(k), "")) for k in giving]
        return cards, [str(c) for c in me["cards"]], tiles

    def seat_rows(self, public: WasabiView) -> list[dict[str, Any]]:
        """Per seat: points, Wasabi cubes, recipes completed, recipes held (backs), tiles in hand, reward cards."""
        return [
            {
                "points": int(p["score"]),
                "counters": [
                    wasabi_counter(int(p["cubes"])),
                    served_counter(len(p["completed"])),
                    backs_counter(len(p["recipe_lengths"])),
                    ("", "tile", TILE_BACK, int(p["hand_size"]), "?"),
                ],
                "cards": [str(c) for c in p["cards"]],
            }
            for p in public["seats"]
        ]

    def shared_rows(
        self, public: WasabiView
    ) -> tuple[list[tuple[str, float, dict[str, Any]]], list[tuple[str, float, dict[str, Any]]]]:
        """The Pantry (kinds left) and the recipe stacks by length; the Kitchen's cards, named, with their counts."""
        counts: list[tuple[str, float, dict[str, Any]]] = [
            (
                "counter",
                1.9,
                {
                    "picture": "rice",
                    "shape": "tile",
                    "rgba": [0.95, 0.93, 0.85, 1],
                    "count": len(public["pantry_available"]),
                },
            )
        ]
        counts += [
            ("deck", 0.95, {"length": int(k), "count": int(n)}) for k, n in sorted(public["recipe_stacks"].items())
        ]
        kitchen = [
            ("card", 1.0, {**named_card(str(c), name(self.tr, c)), "named": True, "count": int(n)})
            for c, n in public["kitchen"].items()
        ]
        return counts, kitchen


GameScreen = WasabiScreen
