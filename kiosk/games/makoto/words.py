"""Makoto in words, in the reader's language (no Kivy): cards, combinations, the moves in the log, the engine's
refusals. Each takes ``tr``, a :class:`~kiosk.i18n.Translator` in the ``makoto`` domain: a seat's (its tray, its
errors, its how-to demo) or the table's (``screen.tr``: the centre, the log). Without one it writes English.

The engine (``rules.py``) stays as it is: its combination names and its ``RuleError`` messages are English
f-strings, so a refusal is matched here against a table of its templates (:func:`error_text`) and said again in
the seat's language; a message the table does not know (the shared engine's) is worded by the shell's
:func:`~kiosk.ui.words.refusal_text`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from kiosk.i18n import CJK, Translator, translator
from kiosk.ui.words import fallback_event_text, game_over_text, join_names, points, refusal_text

__all__ = ["card_text", "cards_text", "grouped", "combo_text", "makoto_event_text", "error_text", "seat_label"]

SWORD, ORACLE = 1, 2
SYMBOL = {SWORD: "\u2694", ORACLE: "\u2600"}
#: The Sword's mark in the CJK face, which lacks the crossed swords (a dagger rather than ``tr.sym``'s ``×``, which
#: would read as "times" beside a number).
CJK_SWORD = "\u2020"


def _tr(tr: Translator | None) -> Translator:
    return tr if tr is not None else translator("en", "makoto")


def mark(kind: int, tr: Translator | None = None) -> str:
    """A card kind's symbol in ``tr``'s face: ``⚔`` Sword, ``☀`` Oracle, ``""`` Ronin."""
    symbol = SYMBOL.get(kind, "")
    if tr is not None and symbol == SYMBOL[SWORD] and tr.face == CJK:
        return CJK_SWORD
    return tr.sym(symbol) if tr is not None and symbol else symbol


def card_text(card: int, tr: Translator | None = None) -> str:
    """A card as players read it: its number, and the kind's symbol (``9\u2694`` Sword, ``4\u2600`` Oracle)."""
    return f"{card % 20}{mark(card // 20, tr)}"


def cards_text(cards: Iterable[int], tr: Translator | None = None) -> str:
    return " ".join(card_text(c, tr) for c in sorted(cards, key=lambda c: (c % 20, c // 20)))


def grouped(cards: Iterable[int], tr: Translator | None = None) -> str:
    """The Blind grouped by number: ``1 | 3 3 | 9\u2694`` (numbers ascending)."""
    groups: dict[int, list[int]] = {}
    for c in sorted(cards, key=lambda c: (c % 20, c // 20)):
        groups.setdefault(c % 20, []).append(c)
    return "  |  ".join(" ".join(card_text(c, tr) for c in g) for g in groups.values()) or _tr(tr).gettext("empty")


def combo_text(kind: str, size: int, rank: int, tr: Translator | None = None) -> str:
    """A combination (the view's ``current``: ``kind`` ``set``, ``run`` or ``kensei``) in words: ``a pair of 5s``."""
    tr = _tr(tr)
    if kind == "kensei":
        return tr.gettext("a Kensei of {rank}s").format(rank=rank)
    if kind == "run":
        return tr.gettext("a run of {n} up to {rank}").format(n=size, rank=rank)
    if size == 1:
        return tr.gettext("a single {rank}").format(rank=rank)
    if size == 2:
        return tr.gettext("a pair of {rank}s").format(rank=rank)
    return tr.gettext("a set of {n} of {rank}s").format(n=size, rank=rank)


def cards_combo(cards: list[int], kensei: bool) -> tuple[str, int, int]:
    """``(kind, size, rank)`` of a played combination from its cards (an event's ``cards`` and ``kensei``)."""
    nums = sorted(c % 20 for c in cards)
    if kensei:
        return "kensei", len(nums), nums[0]
    if nums and nums[0] != nums[-1]:
        return "run", len(nums), nums[-1]
    return "set", len(nums), nums[0] if nums else 0


def seat_label(seat: Any, tr: Translator | None = None) -> str:
    """A seat as the reader names it: its symbol and its shape's name (``● Kreis``)."""
    return f"{seat.symbol} {_tr(tr).seat_name(seat.name)}"


# ----------------------------------------------------------------------------------------------- events
def makoto_event_text(
    ev: Any, who: Callable[[int | None], str], square: Callable[[int], str] = str, *, tr: Translator | None = None
) -> str:
    """One Makoto event in words (the log, the how-to's demo); public things only (a card drawn from the Oracle is
    never named)."""
    tr = _tr(tr)
    d = dict(ev.data)
    p = who(ev.seat)
    k = ev.kind
    if k == "played":
        combo = combo_text(*cards_combo(list(d.get("cards", [])), bool(d.get("kensei"))), tr)
        if d.get("kensei"):
            return tr.gettext("{name} played {combo} (a Kensei!)").format(name=p, combo=combo)
        return tr.gettext("{name} played {combo}").format(name=p, combo=combo)
    if k == "passed":
        if d.get("draw"):
            return tr.gettext("{name} passed and drew from the Oracle").format(name=p)
        return tr.gettext("{name} passed").format(name=p)
    if k == "blind_discard":
        return tr.gettext("{name} put the {card} into the Blind").format(name=p, card=card_text(d["card"], tr))
    if k == "blind_take":
        return tr.gettext("{name} took {cards} from the Blind").format(name=p, cards=cards_text(d["cards"], tr))
    if k == "oracle_discard":
        return tr.gettext("{name} threw away the {card}").format(name=p, card=card_text(d["card"], tr))
    if k == "lid_used":
        return tr.gettext("{name} used the box lid and took the {card}").format(name=p, card=card_text(d["card"], tr))
    if k == "oracle_reshuffled":
        n = int(d.get("cards", 0))
        return tr.ngettext(
            "The Oracle discards are shuffled: a new deck of {n} card",
            "The Oracle discards are shuffled: a new deck of {n} cards",
            n,
        ).format(n=tr.number(n))
    if k == "round_won":
        n, pts = len(d["cards"]), int(d["points"])
        cards = tr.ngettext("{n} card", "{n} cards", n).format(n=tr.number(n))
        worth = tr.ngettext("{n} point", "{n} points", pts).format(n=tr.number(pts))
        return tr.gettext("{name} won the round: {cards}, {points}").format(name=p, cards=cards, points=worth)
    if k == "went_out":
        return tr.gettext("{name} played out their hand: reward {reward}").format(name=p, reward=d["reward"])
    if k == "final_turn":
        return tr.gettext("{name} has one last turn").format(name=p)
    if k == "game_over":
        reasons = {
            "the last player passed": tr.gettext("the last player passed"),
            "the last player won the final round": tr.gettext("the last player won the final round"),
        }
        reason = d.get("reason")
        if isinstance(reason, str):
            d["reason"] = reasons.get(reason, reason)
        return game_over_text(d, who, tr)
    return fallback_event_text(ev, who, tr)


# ----------------------------------------------------------------------------------------------- refusals
#: The engine's names of combinations (``rules.describe``), read back into ``(kind, size, rank)``.
_COMBO = r"(a Kensei of \d+s|a run of \d+ up to \d+|a single \d+|a pair of \d+s|a set of \d+ of \d+s|nothing)"


def _combo_back(english: str, tr: Translator) -> str:
    n = [int(x) for x in re.findall(r"\d+", english)]
    if english.startswith("a Kensei"):
        return combo_text("kensei", 4, n[0], tr)
    if english.startswith("a run"):
        return combo_text("run", n[0], n[1], tr)
    if english.startswith("a single"):
        return combo_text("set", 1, n[0], tr)
    if english.startswith("a pair"):
        return combo_text("set", 2, n[0], tr)
    if english.startswith("a set"):
        return combo_text("set", n[0], n[1], tr)
    return tr.gettext("nothing")


def _shape_back(english: str, tr: Translator) -> str:
    """The engine's ``_shape`` (what a play must look like) in the reader's words."""
    if english.startswith("a run of"):
        n = int(re.findall(r"\d+", english)[0])
        return tr.ngettext("a run of {n} card", "a run of {n} cards", n).format(n=n)
    if english == "a single card":
        return tr.gettext("a single card")
    if english == "a pair":
        return tr.gettext("a pair")
    n = int(re.findall(r"\d+", english)[0]) if re.findall(r"\d+", english) else 0
    return tr.gettext("{n} cards of one number").format(n=n)


def error_text(error: Exception | str, tr: Translator | None = None) -> str:
    """A refusal from the engine (a ``RuleError``, or its English message) in the reader's language."""
    tr = _tr(tr)
    message = str(error)
    fixed = {
        "Choose the cards to play": tr.gettext("Choose the cards to play"),
        "You do not hold those cards": tr.gettext("You do not hold those cards"),
        "Play a single card, cards of one number, or a run of three or more in a row": tr.gettext(
            "Play a single card, cards of one number, or a run of three or more in a row"
        ),
        "You do not hold that card": tr.gettext("You do not hold that card"),
        "Choose the Blind cards to take": tr.gettext("Choose the Blind cards to take"),
        "The cards you take from the Blind must all show the same number": tr.gettext(
            "The cards you take from the Blind must all show the same number"
        ),
        "Those cards are not in the Blind": tr.gettext("Those cards are not in the Blind"),
        "Only the player holding the box lid may use it": tr.gettext("Only the player holding the box lid may use it"),
        "You have gone out of this game: the box lid can no longer be used": tr.gettext(
            "You have gone out of this game: the box lid can no longer be used"
        ),
        "That card is not in the Blind": tr.gettext("That card is not in the Blind"),
        "You begin this round: you must play": tr.gettext("You begin this round: you must play"),
        "No Oracle draw on the last turn of the game": tr.gettext("No Oracle draw on the last turn of the game"),
        "The Oracle deck and its discards are empty": tr.gettext("The Oracle deck and its discards are empty"),
        "Play cards or pass first": tr.gettext("Play cards or pass first"),
        "You have played: now use the Blind or end your turn": tr.gettext(
            "You have played: now use the Blind or end your turn"
        ),
        "Discard one card to the Oracle pile (it may be the card you drew)": tr.gettext(
            "Discard one card to the Oracle pile (it may be the card you drew)"
        ),
        "The game is over": tr.gettext("The game is over"),
    }
    if message in fixed:
        return fixed[message]
    m = re.fullmatch(f"Only a higher Kensei beats {_COMBO}", message)
    if m:
        return tr.gettext("Only a higher Kensei beats {combo}").format(combo=_combo_back(m[1], tr))
    m = re.fullmatch(f"You must play (.+) \\(or a Kensei\\) to beat {_COMBO}", message)
    if m:
        return tr.gettext("You must play {shape} (or a Kensei) to beat {combo}").format(
            shape=_shape_back(m[1], tr), combo=_combo_back(m[2], tr)
        )
    m = re.fullmatch(f"You must play higher than {_COMBO}", message)
    if m:
        return tr.gettext("You must play higher than {combo}").format(combo=_combo_back(m[1], tr))
    m = re.fullmatch(r"The card you put in the Blind must be lower than (\d+)", message)
    if m:
        return tr.gettext("The card you put in the Blind must be lower than {n}").format(n=m[1])
    m = re.fullmatch(r"You may take at most (\d+) card\(s\): as many as you played", message)
    if m:
        n = int(m[1])
        return tr.ngettext(
            "You may take at most {n} card: as many as you played",
            "You may take at most {n} cards: as many as you played",
            n,
        ).format(n=n)
    m = re.fullmatch(r"The cards you take must be lower than (\d+)", message)
    if m:
        return tr.gettext("The cards you take must be lower than {n}").format(n=m[1])
    return refusal_text(error, tr) if message else message


def joined(names: list[str], tr: Translator | None = None) -> str:
    """``A, B and C`` in the reader's language (the shell's :func:`~kiosk.ui.words.join_names`)."""
    return join_names(names, _tr(tr))


def pts(n: int, tr: Translator | None = None) -> str:
    """``12 pts`` in the reader's language (the shell's :func:`~kiosk.ui.words.points`)."""
    return points(n, _tr(tr))


class Worded(str):
    """A button's words with a shorter form, ``short`` (a quick play's cards without "Play"), for a button too
    narrow for the whole of them (:class:`~kiosk.games.makoto.panel.StepButton`)."""

    short: str

    def __new__(cls, text: str, short: str = "") -> Worded:
        obj = super().__new__(cls, text)
        obj.short = short
        return obj
