"""Game-independent bots: they see a game only through the engine contract (``kiosk.engine``).

Bots never read hidden state: :class:`ISMCTSBot` searches over ``state.determinize(seat, rng)`` copies.
"""

from typing import Any

from kiosk.ai.base import BaseBot
from kiosk.ai.ismcts import ISMCTSBot, win_share
from kiosk.ai.random_bot import RandomBot, pick
from kiosk.engine import GameSpec

__all__ = ["BaseBot", "RandomBot", "ISMCTSBot", "make_bot", "pick", "win_share"]


def make_bot(spec: GameSpec, level: str, seat: int, seed: int, iterations: int | None = None) -> Any:
    """The bot for ``level`` (the game's first level if it has no such one); with ``iterations``, a search bot
    gets exactly that budget and no time limit (its decisions then depend on the seed alone, not the machine)."""
    bot = spec.bots[level if level in spec.bots else next(iter(spec.bots))](seat, seed)
    if iterations is not None and isinstance(bot, ISMCTSBot):
        bot.iterations = iterations
        bot.time_limit = None
    return bot
