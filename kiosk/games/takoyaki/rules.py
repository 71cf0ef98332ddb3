"""Takoyaki's rules engine: a real-time race, expressed through the turn-free engine contract.

Every seat races at once, so :meth:`TakoyakiState.to_move` lists every seat still in the current order and any
of them may act next; the screen applies each gesture as it happens, the simulator takes the seats in turn.

Rationale and decisions: docs/developer/design.md, section ``kiosk/games/takoyaki/rules.py``.
"""

from __future__ import annotations

import random
from typing import Any

from kiosk.engine import Action, Event, GamePhase, GameState, RuleError, State, handles, shuffle_with
from kiosk.games.takoyaki.actions import FAULT_KINDS, FAULT_TEXT, Claim, Fault, Push, Turn
from kiosk.games.takoyaki.deck import band_of, card_difficulty, catalogue
from kiosk.games.takoyaki.grill import (
    NEIGHBOURS,
    SPACES,
    START,
    Grill,
    Order,
    flipped,
    format_grill,
    matches,
    parse_order,
)
from kiosk.games.takoyaki.views import TakoyakiOrder, TakoyakiView

MIN_PLAYERS = 1
MAX_PLAYERS = 4
#: A seat holding this many order cards ends the game (and finishes a time trial).
ORDERS_TO_WIN = 5
#: The screen's pacing (``TakoyakiScreen``): the countdown before the first order, and the pause before every
#: later one, during which no grill takes a move. A time trial's clock starts at the first order's reveal.
COUNTDOWN_S = 3.0
BETWEEN_S = 1.5
#: Name of the deck's chance record in the journal.
DECK = "orders"

_order_cache: dict[str, Order] = {}


def order_of(card: str) -> Order:
    """The order tuple of a card's text form (memoized: cards repeat across games)."""
    order = _order_cache.get(card)
    if order is None:
        order = _order_cache[card] = parse_order(card)
    return order


class Phase(GamePhase):
    """Everyone races for the current order until the game is ``over``."""

    RACE = "race"
    OVER = "over"


RACE, OVER = Phase.RACE, Phase.OVER


def _is_space(v: Any) -> bool:
    return type(v) is int and 0 <= v < SPACES


class TakoyakiState(GameState[TakoyakiView, TakoyakiView]):
    """One game of Takoyaki for 1 to 4 seats.

    >>> state = new_game(2, seed=3)
    >>> state.to_move()
    [0, 1]
    >>> state.apply(0, Push(1, 2))[0].kind
    'pushed'
    >>> state.grill_text(0)
    'r.r./gg../bb..'
    """

    end_reason: str
    COPY_LISTS = ("grills", "out", "set_aside", "move_counts", "reveal_grills")
    COPY_NESTED = ("won",)  # ``cards`` is shared: never changed in place (determinize builds a new list)

    def __init__(self, players: int, seed: int) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Takoyaki is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        super().__init__(players, seed)
        self.grills: list[Grill] = [START] * players
        self.cards: list[str] = self.shuffle(DECK, [c.card for c in catalogue()])
        self.dealt = 0  # cards revealed so far (cards[:dealt])
        self.current: str | None = None  # the card everyone races for
        self.out: list[str | None] = [None] * players  # why a seat is out of the current order
        self.won: list[list[str]] = [[] for _ in range(players)]
        self.set_aside: list[str] = []
        self.move_counts: list[int] = [0] * players
        self.reveal_grills: list[Grill] = [START] * players
        self.phase: str = RACE
        self.end_reason = ""
        self._reveal([])

    # --- the contract's verbs --------------------------------------------------------------------------
    def to_move(self) -> list[int]:
        if self.phase == OVER:
            return []
        return [s for s in range(self.players) if self.out[s] is None]

    def legal_actions(self, seat: int) -> list[Action]:
        """Pushes (by from, to), turns (by space), the claim, then the three faults; empty for a seat that is
        out of the current order or when the game is over."""
        if self.phase == OVER or self.out[seat] is not None:
            return []
        grill = self.grills[seat]
        actions: list[Action] = []
        for s in range(SPACES):
            if grill[s]:
                for q in NEIGHBOURS[s]:
                    if not grill[q]:
                        actions.append(Push(s, q))
        actions += [Turn(s) for s in range(SPACES) if grill[s]]
        actions.append(Claim())
        actions += [Fault(k) for k in FAULT_KINDS]
        return actions

    def check_turn(self, seat: int) -> None:
        """Every seat races at once; a seat out of the current order waits for the next card."""
        reason = self.out[seat]
        if reason is not None:
            raise RuleError(f"You are out of this order ({reason.replace('_', ' ')}): wait for the next card")

    @handles(Push, phases=[RACE])
    def _a_push(self, seat: int, action: Push) -> list[Event]:
        grill = self.grills[seat]
        src, dst = action.src, action.dst
        if not (_is_space(src) and _is_space(dst)):
            raise RuleError("Push a ball from one grill space to another")
        if not grill[src]:
            raise RuleError("There is no ball on that space to push")
        if dst not in NEIGHBOURS[src]:
            raise RuleError("Push a ball one space up, down, left or right")
        if grill[dst]:
            raise RuleError("That space is taken: push the ball onto an empty space")
        cells = list(grill)
        cells[dst], cells[src] = cells[src], 0
        self.grills[seat] = tuple(cells)
        self.move_counts[seat] += 1
        return [Event("pushed", seat, {"src": src, "dst": dst})]

    @handles(Turn, phases=[RACE])
    def _a_turn(self, seat: int, action: Turn) -> list[Event]:
        grill = self.grills[seat]
        s = action.space
        if not _is_space(s):
            raise RuleError("Turn a ball on one of the twelve grill spaces")
        if not grill[s]:
            raise RuleError("There is no ball on that space to turn")
        cells = list(grill)
        cells[s] = flipped(cells[s])
        self.grills[seat] = tuple(cells)
        self.move_counts[seat] += 1
        return [Event("turned", seat, {"space": s})]

    @handles(Claim, phases=[RACE])
    def _a_claim(self, seat: int, action: Claim) -> list[Event]:
        return self._claim_or_fault(seat, action)

    @handles(Fault, phases=[RACE])
    def _a_fault(self, seat: int, action: Fault) -> list[Event]:
        if action.kind not in FAULT_KINDS:
            raise RuleError(f"Unknown fault {action.kind!r}: expected one of {', '.join(FAULT_KINDS)}")
        return self._claim_or_fault(seat, action)

    def _claim_or_fault(self, seat: int, action: Claim | Fault) -> list[Event]:
        """A claim wins the card or puts the seat out of it; a fault puts it out. Both are validated."""
        grill = self.grills[seat]
        assert self.current is not None
        card = self.current
        if isinstance(action, Claim):
            if matches(grill, order_of(card)):
                self.won[seat].append(card)
                events = [Event("order_won", seat, {"card": card, "orders": len(self.won[seat])})]
                self.current = None
                if len(self.won[seat]) >= ORDERS_TO_WIN:
                    return events + self._finish("five_orders")
                return self._reveal(events)
            self.out[seat] = "wrong_claim"
            events = [Event("wrong_claim", seat, {"card": card}), Event("out", seat, {"reason": "wrong_claim"})]
        else:
            self.out[seat] = action.kind
            events = [
                Event("fault", seat, {"kind": action.kind, "text": FAULT_TEXT[action.kind]}),
                Event("out", seat, {"reason": action.kind}),
            ]
        if all(r is not None for r in self.out):
            self.set_aside.append(card)
            self.current = None
            events.append(Event("order_set_aside", None, {"card": card}))
            return self._reveal(events)
        return events

    def scores(self) -> list[int]:
        """Orders won per seat (in a time trial the screen's clock, not this, ranks the high-score table)."""
        return [len(w) for w in self.won]

    def view(self, seat: int | None) -> TakoyakiView:
        """Everything public: grills, the current card with each seat's par, who is out and why, the cards won
        and set aside, and how many cards are left (never which)."""
        card = self.current
        order: TakoyakiOrder | None = None
        if card is not None:
            difficulty = card_difficulty(card)
            order = TakoyakiOrder(
                card=card,
                number=self.dealt,
                difficulty=difficulty,
                band=band_of(difficulty),
                par=[self.par(s) for s in range(self.players)],
            )
        return TakoyakiView(
            game="takoyaki",
            you=seat,
            players=self.players,
            time_trial=self.players == 1,
            orders_to_win=ORDERS_TO_WIN,
            order=order,
            deck_left=len(self.cards) - self.dealt,
            grills=[format_grill(g) for g in self.grills],
            racing=self.to_move(),
            out=list(self.out),
            won=[list(w) for w in self.won],
            set_aside=list(self.set_aside),
            moves=list(self.move_counts),
            phase=str(self.phase),
            over=self.phase == OVER,
            end_reason=self.end_reason,
            winners=self.winners(),
        )

    def determinize(self, seat: int, rng: random.Random) -> TakoyakiState:
        """A search copy (no journal, a fresh generator drawn from ``rng``) in which the undealt cards are
        reshuffled: the only hidden information."""
        other: TakoyakiState = self.search_copy(rng)
        other.cards = self.cards[: self.dealt] + shuffle_with(rng, self.cards[self.dealt :])
        return other

    # --- public helpers for screens and bots -----------------------------------------------------------
    def grill(self, seat: int) -> Grill:
        return self.grills[seat]

    def grill_text(self, seat: int) -> str:
        return format_grill(self.grills[seat])

    @property
    def current_order(self) -> Order | None:
        return None if self.current is None else order_of(self.current)

    def moves(self) -> list[int]:
        """Pushes and turns each seat has made in the whole game."""
        return list(self.move_counts)

    def par(self, seat: int) -> int | None:
        """The fewest moves from ``seat``'s grill at the reveal to the current card (None between cards)."""
        if self.current is None:
            return None
        from kiosk.games.takoyaki.solver import distance

        return distance(self.reveal_grills[seat], order_of(self.current))

    # --- internals -------------------------------------------------------------------------------------
    def _reveal(self, events: list[Event]) -> list[Event]:
        if self.dealt >= len(self.cards):
            return events + self._finish("deck_ran_out")
        self.current = self.cards[self.dealt]
        self.dealt += 1
        self.out = [None] * self.players
        self.reveal_grills = list(self.grills)
        events.append(Event("order_revealed", None, {"card": self.current, "number": self.dealt}))
        return events

    def _finish(self, reason: str) -> list[Event]:
        self.phase = OVER
        self.current = None
        self.end_reason = reason
        return [Event("game_over", None, {"reason": reason, "scores": self.scores(), "winners": self.winners()})]


def new_game(players: int, seed: int) -> TakoyakiState:
    return TakoyakiState(players, seed)


def stats(state: State) -> dict[str, float]:
    """Numbers the simulator averages: cards dealt, won and set aside, and pushes and turns per won card."""
    assert isinstance(state, TakoyakiState)
    won = sum(len(w) for w in state.won)
    return {
        "cards_dealt": state.dealt,
        "cards_won": won,
        "cards_set_aside": len(state.set_aside),
        "moves_per_won_card": sum(state.move_counts) / won if won else 0.0,
        "deck_ran_out": float(state.end_reason == "deck_ran_out"),
    }
