"""Maki's words at the table: the last moves in words (:func:`maki_event_text`, which the how-to's demo also finds
here) and the action buttons' labels (:func:`maki_action_label`), in the reader's language. The names of the
ingredients, recipes and action cards are in ``cards.json`` (extracted by ``babel.cfg``)."""

from __future__ import annotations

from collections.abc import Callable

from kiosk.engine import Action, Event
from kiosk.i18n import Translator, translator
from kiosk.ui.words import action_label, cell_name, fallback_event_text, game_over_text, join_names, join_words
from kiosk.ui.words import game_word as name
from kiosk.ui.words import recipe_label as short

__all__ = ["maki_action_label", "maki_event_text"]

EN = translator("en", "maki")


def maki_event_text(
    ev: Event, who: Callable[[int | None], str], square: Callable[[int], str], *, tr: Translator = EN
) -> str:
    """One Maki event (``kiosk/games/maki/rules.py``) as a line of the last-moves box, in ``tr``'s language (the
    table's for the log, the seat's for its how-to demo).

    ``who(seat)`` names a seat (its shape name), ``square(cell)`` a square (``B3``). Recipe points come from
    the card data (``RECIPES``), which is public once a recipe is served."""
    from kiosk.games.maki.rules import RECIPES

    d = dict(ev.data)
    p = who(ev.seat)
    k = ev.kind
    _ = tr.gettext
    if k == "took":
        return _("{player} took {tile} from the Pantry").format(player=p, tile=name(tr, d["kind"]))
    if k == "placed":
        if d.get("teacup"):
            return _("{player} placed {tile} on {square} (lifting its teacup)").format(
                player=p, tile=name(tr, d["kind"]), square=square(d["cell"])
            )
        return _("{player} placed {tile} on {square}").format(
            player=p, tile=name(tr, d["kind"]), square=square(d["cell"])
        )
    if k == "teacup":
        return _("{player} moved the teacup to {square}").format(player=p, square=square(d["cell"]))
    if k == "switch":
        return _("{player} played Switch: {a} and {b} swapped").format(player=p, a=square(d["a"]), b=square(d["b"]))
    if k == "chop":
        return _("{player} played Chop: {tile} on {square} back to the Pantry").format(
            player=p, tile=name(tr, d["kind"]), square=square(d["cell"])
        )
    if k == "second_helping":
        return _("{player} played Second Helping: one more tile this turn").format(player=p)
    if k == "substitute":
        return _("{player} played Substitute on {square}").format(player=p, square=square(d["cell"]))
    if k == "substituted":
        return _("{player} swapped the {old} on {square} for {new}").format(
            player=p, old=name(tr, d["old"]), square=square(d["cell"]), new=name(tr, d["new"])
        )
    if k == "served":
        rid = d.get("recipe")
        recipe = name(tr, d["name"])
        if isinstance(rid, int) and 0 <= rid < len(RECIPES):
            pts = tr.number(RECIPES[rid].score)
            if d.get("style"):
                return _("{player} served {recipe} (+{n}) with style").format(player=p, recipe=recipe, n=pts)
            return _("{player} served {recipe} (+{n})").format(player=p, recipe=recipe, n=pts)
        if d.get("style"):
            return _("{player} served {recipe} with style").format(player=p, recipe=recipe)
        return _("{player} served {recipe}").format(player=p, recipe=recipe)
    if k == "wasabi":
        n = int(d["gain"])
        return tr.ngettext("{player} gained {n} Wasabi for style", "{player} gained {n} Wasabi for style", n).format(
            player=p, n=tr.number(n)
        )
    if k == "drew":
        return _("{player} drew a {n}-ingredient recipe").format(player=p, n=tr.number(int(d["length"])))
    if k == "gained":
        return _("{player} took the {card} card").format(player=p, card=name(tr, d["card"]))
    if k == "discarded":
        return _("{player} discarded the {card} card").format(player=p, card=name(tr, d["card"]))
    if k == "pool":
        return _("{player} took the Wasabi pool (+{n} Wasabi)").format(player=p, n=tr.number(int(d["took"])))
    if k == "returned":
        lengths = [tr.number(int(x)) for x in d.get("lengths", [])]
        return tr.ngettext(
            "{player} returned {n} recipe ({lengths} ingredients) to the decks",
            "{player} returned {n} recipes ({lengths} ingredients) to the decks",
            len(lengths),
        ).format(player=p, n=tr.number(len(lengths)), lengths=join_names(lengths, tr))
    if k == "turn_over":
        return _("{player}'s turn is over").format(player=p)
    if k == "endgame":
        n = int(d["final_turns"])
        return tr.ngettext(
            "{player} filled the board: {n} final turn left, one each",
            "{player} filled the board: {n} final turns left, one each",
            n,
        ).format(player=p, n=tr.number(n))
    if k == "game_over":
        return game_over_text(d, who, tr)
    return fallback_event_text(ev, who, tr)


def maki_action_label(action: Action, cols: int, cells: int, recipes: dict[int, str], tr: Translator = EN) -> str:
    """A Maki button's label in the seat's language ``tr``: squares by name (``Place B3``), recipes by their
    (short) names from the seat's own view (``recipes``, in its language already)."""
    _ = tr.gettext
    kind = type(action).__name__
    data = action.to_json()

    def sq(field: str) -> str:
        v = data.get(field)
        return cell_name(cols, v) if isinstance(v, int) and 0 <= v < cells else "?"

    def recipe(rid: object) -> str:
        return short(tr, recipes[rid]) if isinstance(rid, int) and rid in recipes else "?"

    if kind == "Take":
        return _("Take {tile}").format(tile=name(tr, data["kind"]))
    if kind == "Place":
        return _("Place {square}").format(square=sq("cell"))
    if kind == "MoveCup":
        return _("Move Cup {square}").format(square=sq("cell"))
    if kind == "Switch":
        return _("Switch {a} {b}").format(a=sq("a"), b=sq("b"))
    if kind == "Chop":
        return _("Chop {square}").format(square=sq("cell"))
    if kind == "SecondHelping":
        return _("Second Helping")
    if kind == "Substitute":
        return _("Substitute {square}").format(square=sq("cell"))
    if kind == "Serve":
        return _("Serve {recipe}").format(recipe=recipe(data["recipe"]))
    if kind == "Draw":
        # TRANSLATORS: a button: draw a recipe card of {n} ingredients (its length; longer ones score more)
        return _("Draw {n}").format(n=tr.number(int(data["length"])))
    if kind == "EndTurn":
        return _("End Turn")
    if kind == "Gain":
        return _("Gain {card}").format(card=name(tr, data["card"]))
    if kind == "Discard":
        return _("Discard {card}").format(card=name(tr, data["card"]))
    if kind == "TakePool":
        return _("Take Pool")
    if kind == "Return":
        names = [recipe(r) for r in data.get("recipes", [])]
        return _("Return {recipes}").format(recipes=join_words(names, tr) or "?")
    return action_label(action, cols, cells, recipes, tr)
