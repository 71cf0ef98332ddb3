"""Wasabi!'s actions: small immutable values, one per decision (see the phases in ``rules.py``)."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.engine import Action, action_codec


@dataclass(frozen=True, slots=True)
class GiveTile(Action):
    """Setup: choose one starting tile (from the Pantry) for the seat on your left."""

    tile: str


@dataclass(frozen=True, slots=True)
class DrawRecipe(Action):
    """Draw the top recipe of the stack of this length (setup, or step 2.3)."""

    length: int


@dataclass(frozen=True, slots=True)
class Place(Action):
    """Lay an ingredient tile from your hand (or the tile you chopped) on a square."""

    tile: str
    square: int


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Skip step 1 and return these recipes (ids) to the bottom of their stacks."""

    discard: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayStack(Action):
    """Stack!: this turn's tile may go on top of a tile already on the board."""


@dataclass(frozen=True, slots=True)
class PlaySpicy(Action):
    """Spicy!: play two tiles this turn."""


@dataclass(frozen=True, slots=True)
class PlaySwitch(Action):
    """Switch!: swap the contents of two orthogonally adjacent squares."""

    a: int
    b: int


@dataclass(frozen=True, slots=True)
class PlayChop(Action):
    """Chop!: take the top tile off a square; ``keep`` plays it as this turn's tile, else it goes to the Pantry."""

    square: int
    keep: bool


@dataclass(frozen=True, slots=True)
class PlayWasabi(Action):
    """Wasabi!: cover the 2x2 block whose top-left square is ``square`` and take one cube."""

    square: int


@dataclass(frozen=True, slots=True)
class EndStep(Action):
    """Finish step 1 without playing (another) action card."""


@dataclass(frozen=True, slots=True)
class TakeCard(Action):
    """Reward: take ``card`` from the Kitchen (``square`` -1) or the Wasabi! card lying at ``square``;
    ``discard`` names the card returned to the Kitchen when your hand is full ("" otherwise)."""

    card: str
    square: int
    discard: str


@dataclass(frozen=True, slots=True)
class ChooseRecipe(Action):
    """Complete this recipe (an id from your screen) with the free token it is competing for."""

    recipe: int


@dataclass(frozen=True, slots=True)
class SkipReward(Action):
    """Decline a reward card."""


@dataclass(frozen=True, slots=True)
class DrawTile(Action):
    """Refill: take this ingredient from the Pantry."""

    tile: str


ACTION_CLASSES = (
    GiveTile,
    DrawRecipe,
    Place,
    Pass,
    PlayStack,
    PlaySpicy,
    PlaySwitch,
    PlayChop,
    PlayWasabi,
    EndStep,
    TakeCard,
    SkipReward,
    DrawTile,
    ChooseRecipe,
)
action_from_json = action_codec(*ACTION_CLASSES)

END_STEP = EndStep()
SKIP = SkipReward()
STACK_PLAY = PlayStack()
SPICY_PLAY = PlaySpicy()
