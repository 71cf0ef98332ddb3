"""The one base class of every bot: a seat, its own seeded generator, and ``choose(state)``."""

from __future__ import annotations

import random

from kiosk.engine import Action, State


class BaseBot:
    """A bot plays one seat. It reads only what that seat may see (``state.view(seat)``'s information, its
    legal actions, or ``determinize(seat)`` samples) and draws every random choice from ``self.rng``, seeded
    once, so a game with bots replays the same for the same seeds."""

    level: str = ""

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(seed)

    def legal(self, state: State) -> list[Action]:
        """The seat's legal actions now."""
        return state.legal_actions(self.seat)

    def choose(self, state: State) -> Action:
        """The action this bot plays for its seat in ``state`` (always one of ``legal(state)``)."""
        raise NotImplementedError
