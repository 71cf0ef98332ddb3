"""A match of Makoto: several games, the deal moving left, and the box-lid catch-up rule.

The rulebook recommends playing until everyone has dealt once (3-6 players) or four games (2 players). Before
each new game, whoever scored fewest in the previous game receives the box lid: during that game they may return
it, at any moment, to take any one card from the Blind (``UseLid``).

DECISIONS: a tie for fewest points gives the lid to the tied player with the lower match total, then to the
first of them in turn order of the new game. An unused lid is not kept: it goes to the next game's lowest scorer.
The match winner is whoever has the most points over all games; a tie is shared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kiosk.games.makoto.rules import MakotoState


def recommended_games(players: int) -> int:
    return 4 if players == 2 else players


@dataclass
class MakotoMatch:
    players: int
    seed: int
    games: int = 0
    results: list[list[int]] = field(default_factory=list)
    lid_holder: int | None = None

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 6:
            raise ValueError(f"Makoto is for 2 to 6 players, not {self.players}")
        if self.games <= 0:
            self.games = recommended_games(self.players)

    @property
    def index(self) -> int:
        """The number of the game to play next (0-based)."""
        return len(self.results)

    def dealer(self, index: int | None = None) -> int:
        """The first game's dealer is the last seat (so seat 0 begins); the deal then moves one seat left."""
        i = self.index if index is None else index
        return (self.players - 1 + i) % self.players

    def game_seed(self, index: int) -> int:
        return self.seed * 1000 + index

    def setup(self) -> dict[str, Any]:
        """The next game's set-up beyond its seed (``SPEC.setup_game`` takes it; journals keep it)."""
        return {"dealer": self.dealer(), "lid_holder": self.lid_holder}

    def next_game(self) -> MakotoState:
        if self.is_over():
            raise ValueError("The match is over")
        setup = self.setup()
        return MakotoState(
            self.players, self.game_seed(self.index), dealer=setup["dealer"], lid_holder=setup["lid_holder"]
        )

    def to_json(self) -> dict[str, Any]:
        """What a game's journal keeps so a crash mid-match resumes the match, not only its current game."""
        return {
            "players": self.players,
            "seed": self.seed,
            "games": self.games,
            "results": [list(r) for r in self.results],
            "lid_holder": self.lid_holder,
        }

    @classmethod
    def from_json(cls, data: Any) -> MakotoMatch:
        """The inverse of :meth:`to_json`; ValueError (with the reason) for anything that is not a match."""
        try:
            players, seed, games = int(data["players"]), int(data["seed"]), int(data["games"])
            results = [[int(x) for x in row] for row in data["results"]]
            lid = data.get("lid_holder")
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a Makoto match record: {exc!r}") from exc
        match = cls(players, seed, games=games)
        if len(results) >= match.games or any(len(r) != players for r in results):
            raise ValueError(
                f"not a Makoto match record: {len(results)} results for a {match.games}-game match of {players} players"
            )
        if lid is not None and (not isinstance(lid, int) or not 0 <= lid < players):
            raise ValueError(f"not a Makoto match record: lid holder {lid!r}")
        match.results = results
        match.lid_holder = lid
        return match

    def record(self, state: MakotoState) -> None:
        """Add a finished game's scores and hand the lid to its lowest scorer."""
        if not state.is_over():
            raise ValueError("Only a finished game can be recorded")
        scores = state.scores()
        totals = [t + s for t, s in zip(self.totals(), scores)]
        self.results.append(scores)
        low = min(scores)
        first = (self.dealer() + 1) % self.players  # the next game's first player
        order = [(first + i) % self.players for i in range(self.players)]
        tied = [s for s in order if scores[s] == low]
        self.lid_holder = min(tied, key=lambda s: (totals[s], order.index(s)))

    def totals(self) -> list[int]:
        return [sum(r[s] for r in self.results) for s in range(self.players)]

    def is_over(self) -> bool:
        return len(self.results) >= self.games

    def winners(self) -> list[int]:
        if not self.is_over():
            return []
        t = self.totals()
        return [s for s in range(self.players) if t[s] == max(t)]

    def score_sheet(self) -> dict[str, Any]:
        """The sheet shown between games: one row per game, and the totals."""
        return {
            "games": self.games,
            "played": len(self.results),
            "rows": [list(r) for r in self.results],
            "totals": self.totals(),
            "lid_holder": self.lid_holder,
            "winners": self.winners(),
        }
