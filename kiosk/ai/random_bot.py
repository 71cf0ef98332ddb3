"""The uniformly random bot, for empty seats at level "random" and for simulations."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from kiosk.ai.base import BaseBot
from kiosk.engine import Action, State

T = TypeVar("T")


def pick(rng: random.Random, items: Sequence[T]) -> T:
    """A uniform choice drawn with ``rng.random()`` only, so it is the same on every Python version."""
    return items[int(rng.random() * len(items))]


class RandomBot(BaseBot):
    """Plays a uniformly random legal action.

    >>> from kiosk.games import GAMES
    >>> state = GAMES["makoto"].new_game(2, seed=1)
    >>> bot = RandomBot(seat=0, seed=5)
    >>> bot.choose(state) in state.legal_actions(0)
    True
    """

    level = "random"

    def choose(self, state: State) -> Action:
        return pick(self.rng, state.legal_actions(self.seat))
