"""Takoyaki's words in the reader's language (no Kivy): hints, why a seat is out, the engine's refusals, the
order's difficulty, events in words and the race clock. Each function takes ``tr`` (a
:class:`kiosk.i18n.Translator` in the ``takoyaki`` domain: a seat's, or the table's for the centre); without one
it writes English. Messages defined here are marked with ``N_`` and translated where shown."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from kiosk.games.takoyaki.actions import FAULT_TEXT
from kiosk.i18n import N_, Translator, translator
from kiosk.ui.words import refusal_text

DOMAIN = "takoyaki"

#: Why a seat is out of the current order (the engine's reason), as its "OUT: ..." veil says it.
OUT_TEXT = {"wrong_claim": N_("wrong claim"), **FAULT_TEXT}
#: Hint mode: a push of a ball of a colour (1 red, 2 green, 3 blue) in a direction as the seat sees its grill,
#: whole sentences (adjectives agree with the ball in some languages).
PUSH_HINT = {
    (1, "up"): N_("Hint: push the red ball away from you"),
    (1, "down"): N_("Hint: push the red ball towards you"),
    (1, "left"): N_("Hint: push the red ball left"),
    (1, "right"): N_("Hint: push the red ball right"),
    (2, "up"): N_("Hint: push the green ball away from you"),
    (2, "down"): N_("Hint: push the green ball towards you"),
    (2, "left"): N_("Hint: push the green ball left"),
    (2, "right"): N_("Hint: push the green ball right"),
    (3, "up"): N_("Hint: push the blue ball away from you"),
    (3, "down"): N_("Hint: push the blue ball towards you"),
    (3, "left"): N_("Hint: push the blue ball left"),
    (3, "right"): N_("Hint: push the blue ball right"),
}
TURN_HINT = {
    1: N_("Hint: turn the red ball over"),
    2: N_("Hint: turn the green ball over"),
    3: N_("Hint: turn the blue ball over"),
}
MATCHED_HINT = N_("Your grill matches the order: TAKOYAKI!")
#: The engine's refusals (``RuleError`` texts) a seat may see, translated where shown (:func:`rule_error_text`).
RULE_ERRORS = (
    N_("Push a ball from one grill space to another"),
    N_("There is no ball on that space to push"),
    N_("Push a ball one space up, down, left or right"),
    N_("That space is taken: push the ball onto an empty space"),
    N_("Turn a ball on one of the twelve grill spaces"),
    N_("There is no ball on that space to turn"),
    N_("The game is over"),
)
_OUT_ERROR = re.compile(r"You are out of this order \((.+)\): wait for the next card")
#: Why the game ended (the engine's ``game_over`` reason).
END_REASONS = {"five_orders": N_("five orders won"), "deck_ran_out": N_("no order cards left")}
#: An order card's difficulty band (:data:`kiosk.games.takoyaki.deck.BANDS`), as the centre names it.
BANDS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


def _tr(tr: Translator | None) -> Translator:
    return tr or translator("en", DOMAIN)


def out_reason(reason: str, tr: Translator | None = None) -> str:
    """Why a seat is out (``wrong_claim``, a fault's kind) in words."""
    text = OUT_TEXT.get(reason)
    return _tr(tr).gettext(text) if text else reason.replace("_", " ")


def rule_error_text(error: Exception | str, tr: Translator | None = None) -> str:
    """An engine refusal (a ``RuleError``, or its English message) in the reader's language (one this game does not
    know, the shared engine's, is worded by :func:`kiosk.ui.words.refusal_text`)."""
    tr = _tr(tr)
    message = str(error)
    found = _OUT_ERROR.fullmatch(message)
    if found:
        reason = out_reason(found.group(1).replace(" ", "_"), tr)
        return tr.gettext("You are out of this order ({reason}): wait for the next card").format(reason=reason)
    return tr.gettext(message) if message in RULE_ERRORS else refusal_text(error, tr)


def ball_letters(tr: Translator | None = None) -> str:
    """The letters on the balls, red, green and blue (the colour-blind cue), in the reader's language."""
    # TRANSLATORS: the initials of red, green and blue on the balls (one character each, upper case where the
    # language has it: the raw side shows it in lower case), e.g. RVB (rouge, vert, bleu)
    letters = _tr(tr).pgettext("ball letters", "RGB")
    return letters if len(letters) == 3 else "RGB"


def band_text(band: str, tr: Translator | None = None) -> str:
    return _tr(tr).gettext(BANDS[band]) if band in BANDS else band


def race_time(seconds: float, tr: Translator | None = None) -> str:
    """A race clock: ``1:05.3`` (``1:05,3`` where the decimal mark is a comma)."""
    minutes, secs = divmod(max(0.0, seconds), 60)
    return f"{int(minutes)}:{_tr(tr).number(round(secs, 1), '00.0')}"


def takoyaki_event_text(
    ev: Any, who: Callable[[int | None], str], square: Callable[[int], str], *, tr: Translator | None = None
) -> str:
    """One Takoyaki event in words (the how-to's demo, in the seat's language)."""
    from kiosk.games.takoyaki.rules import ORDERS_TO_WIN
    from kiosk.ui.words import fallback_event_text, game_over_text

    tr = _tr(tr)
    d = dict(ev.data)
    p = who(ev.seat)
    k = ev.kind
    if k == "pushed":
        return tr.gettext("{player} pushed a ball one space").format(player=p)
    if k == "turned":
        return tr.gettext("{player} turned a ball over").format(player=p)
    if k == "order_won":
        return tr.gettext("{player}: TAKOYAKI! Order done ({orders} of {need})").format(
            player=p, orders=tr.number(d.get("orders", 0)), need=tr.number(ORDERS_TO_WIN)
        )
    if k == "order_revealed":
        return tr.gettext("Order {number} revealed: everyone races").format(number=tr.number(d.get("number", 0)))
    if k == "wrong_claim":
        return tr.gettext("{player}: wrong claim").format(player=p)
    if k == "fault":
        return tr.gettext("{player} is out: {reason}").format(player=p, reason=out_reason(str(d.get("kind")), tr))
    if k == "out":
        return ""  # said by the wrong claim or the fault just before
    if k == "order_set_aside":
        return tr.gettext("Nobody made it: the order is set aside")
    if k == "game_over":
        reason = d.get("reason")
        if isinstance(reason, str) and reason in END_REASONS:
            d["reason"] = tr.gettext(END_REASONS[reason])
        return game_over_text(d, who, tr)
    return fallback_event_text(ev, who, tr)
