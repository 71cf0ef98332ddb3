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

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.engine import Action, Event
from kiosk.games.wasabi import look
from kiosk.ui.board import BoardScreen
from kiosk.ui.boardpieces import TILE_BACK, backs_counter, load_categories, served_counter, wasabi_counter
from kiosk.ui.words import action_label, cell_name, fallback_event_text, game_over_text, plural, short_recipe

__all__ = ["GameScreen", "WasabiScreen", "wasabi_action_label", "wasabi_event_text"]

#: What each action card does, as the last-moves line says it (the rulebook's card texts, shortened).
CARD_DEEDS = {"PlayStack": "this turn's tile may go on top of another", "PlaySpicy": "two tiles this turn"}


def wasabi_event_text(ev: Event, who: Callable[[int | None], str], square: Callable[[int], str]) -> str:
    """One Wasabi! event (``kiosk/games/wasabi/rules.py``) as a line of the last-moves box.

    ``who(seat)`` names a seat, ``square(sq)`` a square (``B3``). Points of a completed recipe come from the
    token data (``POINTS``, public). Nothing private: ``drew_tile`` says only that a tile was drawn."""
    from kiosk.games.wasabi.rules import POINTS

    d = dict(ev.data)
    p = who(ev.seat)
    k = ev.kind
    if k == "gave_tile":
        return f"{p} chose a starting tile for {who(d['to'])}"
    if k == "drew_recipe":
        return f"{p} drew a {d['length']}-ingredient recipe"
    if k == "drew_tile":
        return f"{p} drew a tile"
    if k == "passed":
        n = int(d.get("discarded", 0))
        return f"{p} passed" + (f", returning {n} recipe{'s' if n != 1 else ''}" if n else "")
    if k == "placed":
        return f"{p} placed {d['tile']} on {square(d['square'])}"
    if k == "card_played":
        action = dict(d.get("action") or {})
        kind = action.get("type", "")
        text = f"{p} played {d['card']}!"
        if kind == "PlaySwitch":
            return f"{text}: {square(action['a'])} and {square(action['b'])} swapped"
        if kind == "PlayWasabi":
            return f"{text}: the 2\u00d72 block from {square(action['square'])} is covered"
        if kind in CARD_DEEDS:
            return f"{text}: {CARD_DEEDS[kind]}"
        return text
    if k == "chopped":
        where = "to play it this turn" if d.get("keep") else "back to the Pantry"
        return f"{p} chopped the {d['tile']} off {square(d['square'])}, {where}"
    if k == "cannot_complete":
        return f"{p} cannot complete a {d['length']}-ingredient recipe: no free {d['length']}-ingredient token"
    if k == "completed":
        length = d.get("length")
        pts = f" (+{POINTS[length]})" if isinstance(length, int) and length in POINTS else ""
        cubes = int(d.get("cubes", 0) or 0)
        style = f" with style, +{cubes} Wasabi" if cubes else (" with style" if d.get("style") else "")
        return f"{p} completed {d['recipe']}{pts}{style}"
    if k == "took_card":
        sq = d.get("square", -1)
        source = "the Kitchen" if not isinstance(sq, int) or sq < 0 else f"the board at {square(sq)}"
        return f"{p} took the {d['card']}! card from {source}"
    if k == "reward_skipped":
        return f"{p} declined the reward card"
    if k == "game_over":
        return game_over_text(d, who)
    return fallback_event_text(ev, who)


def wasabi_action_label(action: Action, cols: int, cells: int, recipes: dict[int, str]) -> str:
    """A Wasabi! button's label: the reward (``TakeCard``) in words ("Give back your Wasabi! card, take the one on
    B3"), the step's choices plainly ("End step", "Play Stack!"); others as :func:`~kiosk.ui.board.action_label`."""
    name = type(action).__name__
    data = action.to_json()
    if name == "TakeCard":
        card, sq, back = str(data["card"]), data["square"], str(data.get("discard") or "")
        if isinstance(sq, int) and 0 <= sq < cells:
            if back == card:
                return f"Give back your {card}! card, take the one on {cell_name(cols, sq)}"
            text = f"Take the {card}! card on {cell_name(cols, sq)}"
        else:
            text = f"Take {card}! from the Kitchen"
        return text + (f", give back your {back}!" if back else "")
    if name == "SkipReward":
        return "No reward card"
    if name == "EndStep":
        return "End step (no action card)"
    if name in ("PlayStack", "PlaySpicy"):
        return f"Play {name[4:]}!"
    if name == "PlaySwitch":
        return f"Switch! {cell_name(cols, data['a'])} and {cell_name(cols, data['b'])}"
    if name == "PlayChop":
        where = cell_name(cols, data["square"])
        return f"Chop! {where}, place it now" if data.get("keep") else f"Chop! {where} to the Pantry"
    if name == "PlayWasabi":
        return f"Wasabi! on {cell_name(cols, data['square'])}"
    if name == "Place":
        return f"Place {data['tile']} on {cell_name(cols, data['square'])}"
    if name == "Pass":
        ids = data.get("discard") or []
        names = ", ".join(short_recipe(recipes.get(i, "?")) for i in ids) if ids else ""
        return f"Pass, give back {names}" if names else "Pass"
    if name == "DrawRecipe":
        return f"Draw a {data['length']}-long recipe"
    if name == "ChooseRecipe":
        return f"Complete {recipes.get(data['recipe'], 'this recipe')}"
    return action_label(action, cols, cells, recipes)


class WasabiScreen(BoardScreen):
    """Wasabi!: stacks and Wasabi covers on the board, hand tiles and recipes in the private tray."""

    categories = load_categories(Path(__file__).with_name("cards.json"), "categories")
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

    def placed_tile(self, action: Action, public: dict[str, Any]) -> str | None:
        return str(getattr(action, "tile", "")) if type(action).__name__ == "Place" else None

    def describe_action(self, action: Action, cols: int, cells: int, recipes: dict[int, str]) -> str:
        """Wasabi!'s buttons in words: a reward card says where it comes from and what goes back."""
        return wasabi_action_label(action, cols, cells, recipes)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.legend = (
            "R rice  M maki  F fish  S seafood  V vegetables  \u2605 special   \u00d7N stacked   W! Wasabi card"
        )

    def event_text(self, ev: Event) -> str:
        return wasabi_event_text(ev, self.seat_name, self.square_name)

    def prompt_text(self, public: dict[str, Any], kinds: set[str], board_moves: bool) -> str:
        """Wasabi!'s steps in words (from the public view and the kinds of the legal actions only)."""
        cards = ", or tap a square for an action card" if board_moves else ""
        t = public.get("turn", {})
        if "ChooseRecipe" in kinds:
            return "Two recipes of the same length are done but one token is free: choose which one to complete below"
        if "GiveTile" in kinds:
            nxt = public.get("current")
            name = self.seat_name((nxt + 1) % int(public.get("players", 2))) if isinstance(nxt, int) else "them"
            return f"Set-up: give {name} a starting tile below (3 tiles of 3 different kinds; no rice, maki or special)"
        if "DrawRecipe" in kinds:
            return "Draw a recipe below: choose its length (longer ones score more but are harder to make)"
        if "DrawTile" in kinds:
            return "Refill your hand: tap a tile in the Pantry (in the middle of the table)"
        if "TakeCard" in kinds or "SkipReward" in kinds:
            return "Recipe completed! Take a reward card below" + (
                ", or tap a Wasabi! card on the board" if board_moves else ""
            )
        if "Place" in kinds:
            if t.get("chopped"):
                return f"Tap a marked square to place the chopped {t['chopped']}"
            if t.get("stack"):
                return "Drag a tile from your hand onto a marked square (Stack!: on top of a tile too)"
            return "Open your hand, then drag a tile onto a marked square (or tap tile, then square)"
        if "EndStep" in kinds:
            return "Play an action card, or End Step below" + (
                " (tap a square for Switch!, Chop! or Wasabi!)" if board_moves else ""
            )
        if "Pass" in kinds:
            return "Pass below" + cards
        return super().prompt_text(public, kinds, board_moves)

    def board_size(self, public: dict[str, Any]) -> tuple[int, int]:
        return int(public["rows"]), int(public["columns"])

    def board_cells(self, public: dict[str, Any]) -> list[dict[str, Any]]:
        covered = set(public["covered"])
        return [
            {"kind": st[-1] if st else "", "stack": len(st), "covered": i in covered}
            for i, st in enumerate(public["board"])
        ]

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
                public["phase"], str(public["phase"]).replace("_", " ")
            )
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

    def shelf_items(
        self, mine: dict[str, Any], g: int, ready: set[int]
    ) -> tuple[list[dict[str, Any]], list[str], list[tuple[str, str]]]:
        """The seat's recipes (points from the token for their length), its completed recipes as one pile, its
        reward cards and its hand's tiles."""
        from kiosk.games.wasabi.cards import POINTS

        me = mine["seats"][g]
        cards = [
            self.recipe_card(r, points=POINTS.get(len(r.get("ingredients", [])), 0), ready=r.get("id") in ready)
            for r in me.get("recipes", [])
        ]
        done = me.get("completed", [])
        if done:
            last = done[-1]
            cards.append(
                self.recipe_card(
                    {"name": last["recipe"], "ingredients": last["ingredients"]},
                    points=POINTS.get(int(last.get("length", 0)), 0),
                    done=True,
                    count=len(done),
                )
            )
        tiles = [(str(k), self.categories.get(str(k), "")) for k in me.get("hand", [])]
        giving = mine["turn"]["giving"]
        if isinstance(giving, list):
            tiles += [(str(k), self.categories.get(str(k), "")) for k in giving]
        return cards, [str(c) for c in me.get("cards", [])], tiles

    def seat_rows(self, public: dict[str, Any]) -> list[dict[str, Any]]:
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
        self, public: dict[str, Any]
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
            ("card", 1.0, {"name": str(c), "named": True, "count": int(n)}) for c, n in public["kitchen"].items()
        ]
        return counts, kitchen


GameScreen = WasabiScreen
