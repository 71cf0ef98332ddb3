"""Takoyaki's actions: small frozen values with a JSON form (``kiosk.engine.Action``).

Spaces are numbered as in :mod:`kiosk.games.takoyaki.grill` (``row * 4 + column`` as the seat sees its grill).
The screen turns gestures into these: a one-space drag of a ball to an empty neighbour is a :class:`Push`, a
twist of a ball is a :class:`Turn`, the seat's claim pad, button or stick tap is :class:`Claim`, and the three
dropped-out gestures are :class:`Fault` values.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.engine import Action, action_codec
from kiosk.i18n import N_

#: The three faults of the rulebook, as the screen reports them:
#: a ball dragged off the grill (it fell), more than two contacts on the grill at once (a hand touched it),
#: a ball dragged more than one space or over another ball (it was picked up). The texts are marked (``N_``) and
#: translated where shown (:mod:`kiosk.games.takoyaki.words`).
FAULT_KINDS = ("ball_fell_off", "hand_on_grill", "ball_picked_up")
FAULT_TEXT = {
    "ball_fell_off": N_("a ball fell off the grill"),
    "hand_on_grill": N_("a hand touched the grill"),
    "ball_picked_up": N_("a ball was picked up instead of pushed"),
}


@dataclass(frozen=True, slots=True)
class Push(Action):
    """Push the seat's ball on ``src`` to the orthogonally adjacent empty space ``dst`` (it keeps its side)."""

    src: int
    dst: int


@dataclass(frozen=True, slots=True)
class Turn(Action):
    """Turn the ball on ``space`` between its raw and fried sides."""

    space: int


@dataclass(frozen=True, slots=True)
class Claim(Action):
    """ "TAKOYAKI!": the seat says its grill meets the current order."""


@dataclass(frozen=True, slots=True)
class Fault(Action):
    """A fault the screen saw (one of :data:`FAULT_KINDS`): the seat drops out of the current order."""

    kind: str


action_from_json = action_codec(Push, Turn, Claim, Fault)
