"""Wasabi!'s words at the table: why a game ended (the engine's ``end_reason``, marked for the catalog), the last
moves in words (:func:`wasabi_event_text`, which the how-to's demo also finds here) and the action buttons' labels
(:func:`wasabi_action_label`), in the reader's language. The names of the ingredients, recipes and action cards are
in ``cards.json`` (extracted by ``babel.cfg``, :func:`kiosk.i18n.extract_json_words`)."""

from __future__ import annotations

from collections.abc import Callable

from kiosk.engine import Action, Event
from kiosk.i18n import N_, Translator, translator
from kiosk.ui.words import action_label, cell_name, fallback_event_text, game_over_text, join_words
from kiosk.ui.words import game_word as name
from kiosk.ui.words import recipe_label as short

__all__ = ["END_REASONS", "wasabi_action_label", "wasabi_event_text"]

END_REASONS = (N_("instant win"), N_("board full"), N_("everyone passed"), N_("finished"))

EN = translator("en", "wasabi")
#: What each action card does, as the last-moves line says it (the rulebook's card texts, shortened).
CARD_DEEDS = {
    "PlayStack": N_("this turn's tile may go on top of another"),
    "PlaySpicy": N_("two tiles this turn"),
}


def wasabi_event_text(
    ev: Event, who: Callable[[int | None], str], square: Callable[[int], str], *, tr: Translator = EN
) -> str:
    """One Wasabi! event (``kiosk/games/wasabi/rules.py``) as a line of the last-moves box, in ``tr``'s language
    (the table's for the log, the seat's for its how-to demo).

    ``who(seat)`` names a seat, ``square(sq)`` a square (``B3``). Points of a completed recipe come from the
    token data (``POINTS``, public). Nothing private: ``drew_tile`` says only that a tile was drawn."""
    from kiosk.games.wasabi.rules import POINTS

    d = dict(ev.data)
    p = who(ev.seat)
    k = ev.kind
    _ = tr.gettext
    if k == "gave_tile":
        return _("{player} chose a starting tile for {other}").format(player=p, other=who(d["to"]))
    if k == "drew_recipe":
        return _("{player} drew a {n}-ingredient recipe").format(player=p, n=tr.number(int(d["length"])))
    if k == "drew_tile":
        return _("{player} drew a tile").format(player=p)
    if k == "passed":
        n = int(d.get("discarded", 0))
        if not n:
            return _("{player} passed").format(player=p)
        return tr.ngettext("{player} passed, returning {n} recipe", "{player} passed, returning {n} recipes", n).format(
            player=p, n=tr.number(n)
        )
    if k == "placed":
        return _("{player} placed {tile} on {square}").format(
            player=p, tile=name(tr, d["tile"]), square=square(d["square"])
        )
    if k == "card_played":
        action = dict(d.get("action") or {})
        kind = action.get("type", "")
        card = name(tr, d["card"])
        if kind == "PlaySwitch":
            return _("{player} played {card}!: {a} and {b} swapped").format(
                player=p, card=card, a=square(action["a"]), b=square(action["b"])
            )
        if kind == "PlayWasabi":
            return _("{player} played {card}!: the 2\u00d72 block from {square} is covered").format(
                player=p, card=card, square=square(action["square"])
            )
        if kind in CARD_DEEDS:
            return _("{player} played {card}!: {deed}").format(player=p, card=card, deed=_(CARD_DEEDS[kind]))
        return _("{player} played {card}!").format(player=p, card=card)
    if k == "chopped":
        tile, where = name(tr, d["tile"]), square(d["square"])
        if d.get("keep"):
            return _("{player} chopped the {tile} off {square}, to play it this turn").format(
                player=p, tile=tile, square=where
            )
        return _("{player} chopped the {tile} off {square}, back to the Pantry").format(
            player=p, tile=tile, square=where
        )
    if k == "cannot_complete":
        return _("{player} cannot complete a {n}-ingredient recipe: no free {n}-ingredient token").format(
            player=p, n=tr.number(int(d["length"]))
        )
    if k == "completed":
        length = d.get("length")
        recipe = name(tr, d["recipe"])
        pts = tr.number(POINTS[length]) if isinstance(length, int) and length in POINTS else ""
        cubes = int(d.get("cubes", 0) or 0)
        if cubes:
            text = tr.ngettext(
                "{player} completed {recipe} (+{n}) with style, +{cubes} Wasabi",
                "{player} completed {recipe} (+{n}) with style, +{cubes} Wasabi",
                cubes,
            )
            return text.format(player=p, recipe=recipe, n=pts, cubes=tr.number(cubes))
        if d.get("style"):
            return _("{player} completed {recipe} (+{n}) with style").format(player=p, recipe=recipe, n=pts)
        return _("{player} completed {recipe} (+{n})").format(player=p, recipe=recipe, n=pts)
    if k == "took_card":
        sq = d.get("square", -1)
        card = name(tr, d["card"])
        if not isinstance(sq, int) or sq < 0:
            return _("{player} took the {card}! card from the Kitchen").format(player=p, card=card)
        return _("{player} took the {card}! card from the board at {square}").format(
            player=p, card=card, square=square(sq)
        )
    if k == "reward_skipped":
        return _("{player} declined the reward card").format(player=p)
    if k == "game_over":
        reason = d.get("reason")
        return game_over_text({**d, "reason": name(tr, reason)} if reason else d, who, tr)
    return fallback_event_text(ev, who, tr)


def wasabi_action_label(action: Action, cols: int, cells: int, recipes: dict[int, str], tr: Translator = EN) -> str:
    """A Wasabi! button's label in the seat's language ``tr``: the reward (``TakeCard``) in words ("Give back your
    Wasabi! card, take the one on B3"), the step's choices plainly ("End step", "Play Stack!")."""
    kind = type(action).__name__
    data = action.to_json()
    _ = tr.gettext
    if kind == "TakeCard":
        card, sq, back = str(data["card"]), data["square"], str(data.get("discard") or "")
        shown, gone = name(tr, card), name(tr, back)
        if isinstance(sq, int) and 0 <= sq < cells:
            where = cell_name(cols, sq)
            if back == card:
                return _("Give back your {card}! card, take the one on {square}").format(card=shown, square=where)
            if back:
                return _("Take the {card}! card on {square}, give back your {back}!").format(
                    card=shown, square=where, back=gone
                )
            return _("Take the {card}! card on {square}").format(card=shown, square=where)
        if back:
            return _("Take {card}! from the Kitchen, give back your {back}!").format(card=shown, back=gone)
        return _("Take {card}! from the Kitchen").format(card=shown)
    if kind == "SkipReward":
        return _("No reward card")
    if kind == "EndStep":
        return _("End step (no action card)")
    if kind in ("PlayStack", "PlaySpicy"):
        return _("Play {card}!").format(card=name(tr, kind[4:]))
    if kind == "PlaySwitch":
        return _("{card}! {a} and {b}").format(
            card=name(tr, "Switch"), a=cell_name(cols, data["a"]), b=cell_name(cols, data["b"])
        )
    if kind == "PlayChop":
        where = cell_name(cols, data["square"])
        if data.get("keep"):
            return _("{card}! {square}, place it now").format(card=name(tr, "Chop"), square=where)
        return _("{card}! {square} to the Pantry").format(card=name(tr, "Chop"), square=where)
    if kind == "PlayWasabi":
        return _("{card}! on {square}").format(card=name(tr, "Wasabi"), square=cell_name(cols, data["square"]))
    if kind == "Place":
        return _("Place {tile} on {square}").format(tile=name(tr, data["tile"]), square=cell_name(cols, data["square"]))
    if kind == "Pass":
        ids = data.get("discard") or []
        names = join_words([short(tr, recipes.get(i, "?")) for i in ids], tr) if ids else ""
        return _("Pass, give back {recipes}").format(recipes=names) if names else _("Pass")
    if kind == "DrawRecipe":
        return _("Draw a {n}-long recipe").format(n=tr.number(int(data["length"])))
    if kind == "ChooseRecipe":
        rid = data["recipe"]
        return _("Complete {recipe}").format(recipe=recipes[rid]) if rid in recipes else _("Complete this recipe")
    if kind == "GiveTile":
        return _("Give {tile}").format(tile=name(tr, data["tile"]))
    if kind == "DrawTile":
        return _("Take {tile}").format(tile=name(tr, data["tile"]))
    return action_label(action, cols, cells, recipes, tr)
