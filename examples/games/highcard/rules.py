"""High Card's rules (pure Python: the engine contract of ``kiosk/engine.py``, nothing else).

Cards 1 to 15, shuffled (the deal is recorded in the journal). Each player gets three, hidden from the others.
Three tricks: the leader plays a card face up, then each other player in turn (clockwise, up the seat numbers);
the highest card wins the trick, a point, and leads the next one. Seat 0 leads the first trick. After three
tricks the most points win (a tie is a shared win).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from kiosk.engine import Action, Event, GamePhase, GameState, RuleError, State, handles
from kiosk.games.highcard.views import HighCardView

DECK = tuple(range(1, 16))
HAND = 3


class Phase(GamePhase):
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play one card of your hand face up."""

    card: int


class HighCardState(GameState[HighCardView, HighCardView]):
    COPY_NESTED = ("hands",)
    COPY_LISTS = ("trick", "points", "unseen")

    def __init__(self, players: int, seed: int) -> None:
        if not 2 <= players <= 4:
            raise ValueError(f"High Card is for 2 to 4 players, not {players}")
        super().__init__(players, seed)
        deck = self.shuffle("deal", DECK)
        self.hands: list[list[int]] = [sorted(deck[s * HAND : (s + 1) * HAND]) for s in range(players)]
        self.unseen: list[int] = sorted(deck[players * HAND :])  # never dealt: nobody sees them
        self.trick: list[tuple[int, int]] = []  # (seat, card) in the order played
        self.points = [0] * players
        self.leader = 0
        self.phase: str = Phase.PLAY

    # --- the contract's verbs ------------------------------------------------------------------------
    def to_move(self) -> list[int]:
        if self.is_over():
            return []
        return [(self.leader + len(self.trick)) % self.players]

    def legal_actions(self, seat: int) -> list[Action]:
        if self.is_over() or seat not in self.to_move():
            return []
        return [Play(c) for c in self.hands[seat]]

    @handles(Play, phases=[Phase.PLAY])
    def _a_play(self, seat: int, action: Action) -> list[Event]:
        assert isinstance(action, Play)
        if action.card not in self.hands[seat]:
            raise RuleError(f"Card {action.card} is not in your hand")
        self.hands[seat] = [c for c in self.hands[seat] if c != action.card]
        self.trick = [*self.trick, (seat, action.card)]
        events = [Event("played", seat, {"card": action.card})]
        if len(self.trick) == self.players:
            winner, best = max(self.trick, key=lambda sc: sc[1])
            self.points[winner] += 1
            events.append(Event("trick_won", winner, {"card": best}))
            self.trick = []
            self.leader = winner
            if not any(self.hands):
                self.phase = Phase.OVER
                events.append(Event("game_over", None, {"points": list(self.points)}))
        return events

    def scores(self) -> list[int]:
        return list(self.points)

    def view(self, seat: int | None) -> HighCardView:
        return {
            "phase": str(self.phase),
            "hand": list(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "trick": [[s, c] for s, c in self.trick],
            "points": list(self.points),
            "to_move": self.to_move(),
        }

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A copy in which every card ``seat`` cannot see (other hands, the undealt cards) is dealt anew."""
        out = self.search_copy(rng)
        hidden = [c for s, h in enumerate(self.hands) if s != seat for c in h] + list(self.unseen)
        order = hidden[:]
        rng.shuffle(order)
        for s in range(self.players):
            if s != seat:
                n = len(self.hands[s])
                out.hands[s], order = sorted(order[:n]), order[n:]
        out.unseen = sorted(order)
        return out
