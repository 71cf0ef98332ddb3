"""Game words every screen shares: squares by name (``B3``), actions as button labels, events in words, plurals.

A game's own words (its event texts, its action names) live in its folder; these are the fallbacks and pieces
they are built from. Each takes the reader's translator (``tr``: :func:`kiosk.i18n.translator` of the seat's or the
table's language, in the game's domain); without one it writes English.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from kiosk.engine import Action, Event
from kiosk.i18n import Translator, translator

ROW_LETTERS = "ABCDEFGH"


def short_name(name: str) -> str:
    """An ingredient name short enough for a tile: up to 8 characters (``Yellowtail`` -> ``Yellowt.``)."""
    return name if len(name) <= 8 else name[:7] + "."


def game_word(tr: Translator, english: object) -> str:
    """A game word (an ingredient, a recipe, an action card, as the engine names it: its game's catalog holds it,
    extracted from the game's ``cards.json`` by :func:`kiosk.i18n.extract_json_words`) in ``tr``'s language."""
    return tr.gettext(str(english)) if english else ""


def recipe_label(tr: Translator, shown: str) -> str:
    """A recipe's name (in ``tr``'s language already) short enough for a button: English shortens it
    (:func:`short_recipe`, ``Maguro N.``); other languages keep it whole (their word order differs: ``Nigiri de
    salmón``), and a button wraps it onto a second line."""
    return short_recipe(shown) if tr.language == "en" else shown


def short_recipe(name: str) -> str:
    """A recipe name short enough for a button: first word plus initials (``Maguro Nigiri`` -> ``Maguro N.``)."""
    words = name.split()
    return name if len(words) < 2 or len(name) <= 10 else words[0] + " " + "".join(w[0] + "." for w in words[1:])


def cell_name(cols: int, cell: int) -> str:
    """A square as players read it: row letter and column number (``B3``), as the engines name them."""
    return f"{ROW_LETTERS[cell // cols]}{cell % cols + 1}"


RECIPE_FIELDS = ("recipe", "recipes", "discard")
#: Action fields that name a board square (Maki ``cell``, Wasabi! ``square``, a Switch's ``a`` and ``b``).
SQUARE_FIELDS = ("cell", "square", "a", "b")


def action_squares(action: Action, cells: int) -> tuple[int, ...]:
    """The board squares an action names (its :data:`SQUARE_FIELDS` holding a square number in range)."""
    data = action.to_json()
    return tuple(
        v for k in SQUARE_FIELDS if isinstance(v := data.get(k), int) and not isinstance(v, bool) and 0 <= v < cells
    )


def action_label(
    action: Action, cols: int, cells: int, recipes: dict[int, str] | None = None, tr: Translator | None = None
) -> str:
    """A button label for ``action`` in ``tr``'s language (the game's domain): square numbers written as square
    names (``Place B3``), recipe ids as the recipe names from the seat's own view (``recipes``), the action's name
    (``DrawRecipe`` as ``Draw Recipe``) looked up in the game's catalog, as :func:`describe_action` does."""
    tr = tr or translator("en")
    recipes = recipes or {}
    data = action.to_json()
    name = data.pop("type")
    none = "-"
    parts = []
    for k, v in data.items():
        if k in ("cell", "square", "a", "b") and isinstance(v, int) and 0 <= v < cells:
            parts.append(cell_name(cols, v))
        elif k in RECIPE_FIELDS and isinstance(v, int) and v in recipes:
            parts.append(recipe_label(tr, recipes[v]))
        elif k in RECIPE_FIELDS and isinstance(v, (list, tuple)) and all(x in recipes for x in v):
            parts.append(join_words([recipe_label(tr, recipes[x]) for x in v], tr) or none)
        elif isinstance(v, bool):
            parts.append(tr.gettext(k) if v else "")
        elif isinstance(v, (list, tuple)):
            parts.append(" ".join(game_word(tr, x) if isinstance(x, str) else tr.number(x) for x in v) or none)
        elif isinstance(v, int):
            parts.append(tr.number(v) if v != -1 else "")
        elif v not in (None, ""):
            parts.append(game_word(tr, v))
    name = tr.gettext(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name))  # DrawRecipe -> Draw Recipe
    return " ".join([name] + [p for p in parts if p])


# ----------------------------------------------------------------------------------------------- events in words
def _words(v: Any, tr: Translator) -> str:
    """A value from an event's data as plain words (never a dict, a list's brackets or an underscore)."""
    if isinstance(v, bool):
        return tr.gettext("yes") if v else tr.gettext("no")
    if isinstance(v, dict):
        return join_words([_words(x, tr) for x in v.values()], tr)
    if isinstance(v, (list, tuple)):
        return join_words([_words(x, tr) for x in v], tr)
    if isinstance(v, int):
        return tr.number(v)
    return game_word(tr, str(v).replace("_", " "))


def list_separator(tr: Translator | None = None) -> str:
    """What separates the items of a list in ``tr``'s language (``, ``; Japanese ``、``), from the catalog."""
    tr = tr or translator("en")
    # TRANSLATORS: what separates the items of a list ("A, B, C"), with its space where the language puts one
    return tr.pgettext("list separator", ", ")


def join_words(words: Sequence[str], tr: Translator | None = None) -> str:
    """``["A", "B", "C"]`` -> ``A, B, C`` (``A、B、C`` in Japanese)."""
    return list_separator(tr).join(words)


def refusal_text(error: Exception | str, tr: Translator | None = None) -> str:
    """A refusal (a :class:`~kiosk.engine.RuleError`: its message id and values) in ``tr``'s language.

    The message id is looked up in ``tr``'s catalog (the game's, then the shell's); each value is worded too: a
    number by ``tr.number``, a game word (an ingredient, a card, a recipe) by the game's catalog, a square's name
    (``B3``) as it is. A plain string (a message without values) is looked up as it stands.
    """
    tr = tr or translator("en")
    msgid = getattr(error, "msgid", None) or str(error)
    values = getattr(error, "values", None) or {}
    words = {k: _value_words(v, tr) for k, v in values.items()}
    try:
        return tr.gettext(msgid).format(**words)
    except (KeyError, IndexError, ValueError):  # a catalog's broken placeholder: the English, never a crash
        return msgid.format(**words) if words else msgid


def _value_words(v: Any, tr: Translator) -> str:
    if isinstance(v, bool):
        return tr.gettext("yes") if v else tr.gettext("no")
    if isinstance(v, int):
        return tr.number(v)
    if isinstance(v, (list, tuple)):
        return join_words([_value_words(x, tr) for x in v], tr)
    return game_word(tr, v) if v else ""


def board_rank(place: int, tr: Translator | None = None) -> str:
    """A place on a high-score board: ``1.`` (``1位``, ``1.º``), from the catalog."""
    tr = tr or translator("en")
    # TRANSLATORS: a place on a high-score board, before the player's initials ("1.  ABC   120")
    return tr.pgettext("board rank", "{n}.").format(n=tr.number(place))


def join_names(names: Sequence[str], tr: Translator | None = None) -> str:
    """``["A"]`` -> ``A``; ``["A", "B", "C"]`` -> ``A, B and C`` (``A, B und C``...)."""
    tr = tr or translator("en")
    names = list(names)
    if not names:
        return tr.gettext("nobody")
    if len(names) == 1:
        return names[0]
    return tr.gettext("{names} and {last}").format(names=join_words(names[:-1], tr), last=names[-1])


def plural(n: int, word: str) -> str:
    """English only (``1 pt``, ``2 pts``): a reader's language needs ``tr.ngettext`` (see :func:`points`)."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def points(n: int, tr: Translator | None = None) -> str:
    """``1 pt`` / ``12 pts`` in the reader's language (plural forms by the catalog)."""
    tr = tr or translator("en")
    return tr.ngettext("{n} pt", "{n} pts", n).format(n=tr.number(n))


def game_over_text(data: dict[str, Any], who: Callable[[int | None], str], tr: Translator | None = None) -> str:
    """``Game over: Circle wins (12 pts)`` / ``... Circle and Diamond share the win``."""
    tr = tr or translator("en")
    winners = [w for w in data.get("winners", []) if isinstance(w, int)]
    scores = data.get("scores", [])
    reason = data.get("reason")
    head = tr.gettext("Game over ({reason})").format(reason=_words(reason, tr)) if reason else tr.gettext("Game over")
    if not winners:
        return head
    names = join_names([who(w) for w in winners], tr)
    if len(winners) == 1:
        text = tr.gettext("{head}: {names} wins").format(head=head, names=names)
    else:
        text = tr.gettext("{head}: {names} share the win").format(head=head, names=names)
    return f"{text} ({points(scores[winners[0]], tr)})" if winners[0] < len(scores) else text


def fallback_event_text(ev: Event, who: Callable[[int | None], str], tr: Translator | None = None) -> str:
    """An event kind no formatter knows, still in words: ``Circle card flipped: Chop`` (the kind's own name: a
    game's formatter covers every event it shows); in another language ``Circle: Chop`` (``○: 包丁``), its values
    worded by the game's catalog."""
    tr = tr or translator("en")
    subject = who(ev.seat) if ev.seat is not None else ""
    values = join_words([_words(v, tr) for v in dict(ev.data).values() if v not in (None, "", [], {})], tr)
    if tr.language != "en":  # the kind is the engine's English: the reader gets who and the (worded) values
        return tr.gettext("{player}: {details}").format(player=subject, details=values) if values else subject
    what = ev.kind.replace("_", " ")
    return (f"{subject} {what}".strip() + (": " + values if values else "")).strip()
