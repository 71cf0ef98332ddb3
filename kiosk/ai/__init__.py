"""Game-independent bots: they see a game only through the engine contract (``kiosk.engine``).

Bots never read hidden state: :class:`ISMCTSBot` searches over ``state.determinize(seat, rng)`` copies.
"""

from kiosk.ai.base import BaseBot
from kiosk.ai.ismcts import ISMCTSBot, win_share
from kiosk.ai.random_bot import RandomBot, pick

__all__ = ["BaseBot", "RandomBot", "ISMCTSBot", "pick", "win_share"]
