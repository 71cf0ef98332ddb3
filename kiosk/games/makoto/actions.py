"""Makoto's actions: small frozen values with a JSON form (``kiosk.engine.Action``).

A turn is ``Play(cards)`` then, when the Blind offers anything, ``BlindDiscard(card)``, ``BlindTake(cards)`` or
``EndTurn()``; or ``Pass(draw=False)``, or ``Pass(draw=True)`` then ``OracleDiscard(card)``. ``UseLid(card)`` is
the box lid's catch-up move, playable out of turn. Cards are the engine's codes (``kind * 20 + number``).
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.engine import Action, action_codec


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play one card, cards of one number, or a run (``cards`` sorted by code: the canonical form)."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Pass; with ``draw`` the seat draws from the Oracle and then discards a card."""

    draw: bool = False


@dataclass(frozen=True, slots=True)
class BlindDiscard(Action):
    """After a play: put one card lower than the play into the Blind."""

    card: int


@dataclass(frozen=True, slots=True)
class BlindTake(Action):
    """After a play: take up to as many Blind cards of one lower number as were played."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """After a play: leave the Blind as it is."""


@dataclass(frozen=True, slots=True)
class OracleDiscard(Action):
    """After an Oracle draw: discard one card of the hand (the drawn one included)."""

    card: int


@dataclass(frozen=True, slots=True)
class UseLid(Action):
    """The box lid's holder takes ``card`` from the Blind, at any moment, even out of turn."""

    card: int


action_from_json = action_codec(Play, Pass, BlindDiscard, BlindTake, EndTurn, OracleDiscard, UseLid)
