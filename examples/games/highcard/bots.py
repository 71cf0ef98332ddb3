"""High Card's bots at the four levels every game has (the conformance test requires all four):

* ``random``: any legal card (the shared :class:`kiosk.ai.RandomBot`);
* ``easy``: always its lowest card;
* ``normal``: the lowest card that wins the trick so far, else its lowest card;
* ``hard``: the shared information-set Monte Carlo tree search (:class:`kiosk.ai.ISMCTSBot`), which needs nothing
  from the game but the contract (``determinize`` above all).
"""

from __future__ import annotations

from collections.abc import Callable

from kiosk.ai.base import BaseBot
from kiosk.ai.ismcts import ISMCTSBot
from kiosk.ai.random_bot import RandomBot
from kiosk.engine import Action, Bot, State
from kiosk.games.highcard.rules import HighCardState, Play


class LowestBot(BaseBot):
    level = "easy"

    def choose(self, state: State) -> Action:
        return min(state.legal_actions(self.seat), key=lambda a: a.card if isinstance(a, Play) else 0)


class CheapWinBot(BaseBot):
    level = "normal"

    def choose(self, state: State) -> Action:
        assert isinstance(state, HighCardState)
        cards = sorted(a.card for a in state.legal_actions(self.seat) if isinstance(a, Play))
        best = max((c for _s, c in state.trick), default=0)
        winning = [c for c in cards if c > best]
        return Play(winning[0] if winning else cards[0])


def hard(seat: int, seed: int) -> Bot:
    return ISMCTSBot(seat, seed, iterations=200, time_limit=0.15)


BOTS: dict[str, Callable[[int, int], Bot]] = {
    "random": RandomBot,
    "easy": LowestBot,
    "normal": CheapWinBot,
    "hard": hard,
}
