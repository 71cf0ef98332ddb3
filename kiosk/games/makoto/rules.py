"""Makoto, the climbing card game for 2 to 6 players: the pure rules engine.

Everything in ../shared/rules/makoto-rulebook.txt, with the gaps filled as ../shared/rules/SUPPLEMENT.md says
and the decisions below (each marked DECISION) where both are silent.

Cards are small ints: ``code = kind * 20 + number`` with kind 0 Ronin, 1 Sword (black back, sword symbol),
2 Oracle (golden back). Only the number matters for play, except that a Kensei at 4-6 players needs a Sword.

A turn is one or two steps for the same seat:

* ``Play(cards)`` then, if the Blind offers anything, ``BlindDiscard(card)`` / ``BlindTake(cards)`` /
  ``EndTurn()``;
* ``Pass(draw=False)``, or ``Pass(draw=True)`` then ``OracleDiscard(card)`` (the drawn card included).

Rationale and decisions: docs/developer/design.md, section ``kiosk/games/makoto/rules.py``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import overload

from kiosk.engine import Action, Event, GamePhase, GameState, RuleError, handles, shuffle_with
from kiosk.games.makoto.actions import (
    BlindDiscard,
    BlindTake,
    EndTurn,
    OracleDiscard,
    Pass,
    Play,
    UseLid,
)
from kiosk.games.makoto.views import MakotoPlay, MakotoSeatView, MakotoView

RONIN, SWORD, ORACLE = 0, 1, 2
POINTS = {2: 20, 5: 5, 10: 10}
REWARDS = (50, 40, 30, 20, 10)

# Combination types.
SET, RUN, KENSEI = 0, 1, 2


def code(number: int, kind: int = RONIN) -> int:
    return kind * 20 + number


def num(card: int) -> int:
    return card % 20


def kind_of(card: int) -> int:
    return card // 20


def points_of(cards: Iterable[int]) -> int:
    return sum(POINTS.get(c % 20, 0) for c in cards)


@dataclass(frozen=True)
class Setup:
    """One row of the rulebook's setup table."""

    top: int  # highest card number in the deck and the Oracle
    swords: int  # sword cards in the deck (their numbers 1..swords)
    hand: int
    blind: int


#: The rulebook's setup table (6 players' Blind from SUPPLEMENT.md: 80 - 6 x 12 = 8).
SETUP = {
    2: Setup(top=13, swords=0, hand=15, blind=7),
    3: Setup(top=13, swords=0, hand=15, blind=7),
    4: Setup(top=13, swords=13, hand=14, blind=9),
    5: Setup(top=16, swords=16, hand=14, blind=10),
    6: Setup(top=16, swords=16, hand=12, blind=8),
}


def deck_for(players: int) -> list[int]:
    s = SETUP[players]
    return [code(n) for n in range(1, s.top + 1) for _ in range(4)] + [code(n, SWORD) for n in range(1, s.swords + 1)]


def oracle_for(players: int) -> list[int]:
    return [code(n, ORACLE) for n in range(1, SETUP[players].top + 1)]


_PLAYS: dict[tuple[int, ...], Play] = {}
_TAKES: dict[tuple[int, ...], BlindTake] = {}
PASS = Pass(False)
PASS_DRAW = Pass(True)
END_TURN = EndTurn()
_BLIND_DISCARDS = {c: BlindDiscard(c) for c in range(60)}
_ORACLE_DISCARDS = {c: OracleDiscard(c) for c in range(60)}
_LIDS = {c: UseLid(c) for c in range(60)}


def _play(cards: tuple[int, ...]) -> Play:
    p = _PLAYS.get(cards)
    if p is None:
        p = _PLAYS[cards] = Play(cards)
    return p


def _take(cards: tuple[int, ...]) -> BlindTake:
    t = _TAKES.get(cards)
    if t is None:
        t = _TAKES[cards] = BlindTake(cards)
    return t


_SUBSETS: dict[tuple[tuple[int, ...], int], list[tuple[int, ...]]] = {}


def _submultisets(cards: tuple[int, ...], k: int) -> list[tuple[int, ...]]:
    """Distinct size-``k`` sub-multisets of a sorted tuple, in sorted order."""
    key = (cards, k)
    out = _SUBSETS.get(key)
    if out is None:
        out = _SUBSETS[key] = list(dict.fromkeys(itertools.combinations(cards, k)))
    return out


# --------------------------------------------------------------------------------------------- combinations
def classify(cards: Sequence[int], players: int) -> tuple[int, int, int] | None:
    """``(type, size, rank)`` of a combination, or None if the cards are no combination."""
    if not cards:
        return None
    nums = sorted(c % 20 for c in cards)
    size = len(nums)
    if nums[0] == nums[-1]:
        if size == 4 and (players <= 3 or any(c // 20 == SWORD for c in cards)):
            return (KENSEI, 4, nums[0])
        return (SET, size, nums[0])
    if size >= 3 and all(nums[i + 1] == nums[i] + 1 for i in range(size - 1)):
        return (RUN, size, nums[-1])
    return None


def beats(new: tuple[int, int, int], cur: tuple[int, int, int] | None) -> bool:
    if cur is None:
        return True
    if new[0] == KENSEI:
        return cur[0] != KENSEI or new[2] > cur[2]
    return new[0] == cur[0] and new[1] == cur[1] and new[2] > cur[2]


def describe(combo: tuple[int, int, int] | None) -> str:
    if combo is None:
        return "nothing"
    t, size, rank = combo
    if t == KENSEI:
        return f"a Kensei of {rank}s"
    if t == RUN:
        return f"a run of {size} up to {rank}"
    if size == 1:
        return f"a single {rank}"
    return f"{'a pair' if size == 2 else f'a set of {size}'} of {rank}s"


def _shape(combo: tuple[int, int, int]) -> str:
    t, size, _ = combo
    if t == RUN:
        return f"a run of {size} cards"
    if size == 1:
        return "a single card"
    return "a pair" if size == 2 else f"{size} cards of one number"


def _remove(hand: list[int], cards: Iterable[int]) -> list[int] | None:
    """``hand`` minus the multiset ``cards``, or None if the hand does not hold them."""
    rest = list(hand)
    for c in cards:
        try:
            rest.remove(c)
        except ValueError:
            return None
    return rest


# ------------------------------------------------------------------------------------------------- state
class Phase(GamePhase):
    """The steps of a turn (``over`` at the end)."""

    PLAY = "play"
    BLIND = "blind"
    ORACLE_STEP = "oracle"
    OVER = "over"


PLAY, BLIND, ORACLE_STEP, OVER = Phase
WAITING = {
    PLAY: "Play cards or pass first",
    BLIND: "You have played: now use the Blind or end your turn",
    ORACLE_STEP: "Discard one card to the Oracle pile (it may be the card you drew)",
}


class MakotoState(GameState[MakotoView, MakotoSeatView]):
    """One game of Makoto. See the module docstring for the decisions taken where the rulebook is silent."""

    COPY_LISTS = ("blind", "set_aside", "oracle", "oracle_discard", "reward", "out", "pile")
    COPY_NESTED = ("hands", "won", "known")

    def __init__(self, players: int, seed: int, *, dealer: int | None = None, lid_holder: int | None = None) -> None:
        super().__init__(players, seed)
        if players not in SETUP:
            raise ValueError(f"Makoto is for 2 to 6 players, not {players}")
        setup = SETUP[players]
        self.dealer = players - 1 if dealer is None else dealer % players
        deck = self.shuffle("deck", deck_for(players))
        self.hands: list[list[int]] = []
        for s in range(players):
            self.hands.append(sorted(deck[s * setup.hand : (s + 1) * setup.hand]))
        pos = players * setup.hand
        self.blind: list[int] = sorted(deck[pos : pos + setup.blind])
        self.set_aside: list[int] = deck[pos + setup.blind :]
        self.oracle: list[int] = self.shuffle("oracle", oracle_for(players))
        self.oracle_discard: list[int] = []
        self.won: list[list[int]] = [[] for _ in range(players)]
        self.reward: list[int] = [0] * players
        self.out: list[int] = []
        self.known: list[list[int]] = [[] for _ in range(players)]
        self.turn = (self.dealer + 1) % players
        self.phase = PLAY
        self.current: tuple[int, int, int] | None = None
        self.current_cards: tuple[int, ...] = ()
        self.last_player: int | None = None
        self.pile: list[int] = []
        self.passes = 0
        self.played_low = 0
        self.played_count = 0
        self.drawn: int | None = None
        self.final_turn = False
        self.lid_holder = lid_holder
        self.end_reason = ""

    # --- copying ------------------------------------------------------------------------------------------
    def determinize(self, seat: int, rng: random.Random) -> MakotoState:
        """Resample every card ``seat`` cannot see: other hands (except cards known to have been taken from the
        Blind), the Oracle deck and the set-aside cards. Golden-backed and black-backed cards are resampled
        separately, so every hidden slot keeps the back everyone can see."""
        d: MakotoState = self.search_copy(rng)
        slots: list[tuple[list[int], int]] = []  # (zone, index) of each hidden card
        pools: dict[bool, list[int]] = {False: [], True: []}
        for s in range(self.players):
            if s == seat:
                continue
            known = list(self.known[s])
            for i, c in enumerate(d.hands[s]):
                if c in known:
                    known.remove(c)
                    continue
                slots.append((d.hands[s], i))
                pools[c // 20 == ORACLE].append(c)
        for zone in (d.oracle, d.set_aside):
            for i, c in enumerate(zone):
                slots.append((zone, i))
                pools[c // 20 == ORACLE].append(c)
        shuffled = {g: shuffle_with(rng, sorted(p)) for g, p in pools.items()}  # canonical: only the seat's view counts
        for zone, i in slots:
            zone[i] = shuffled[zone[i] // 20 == ORACLE].pop()
        for s in range(self.players):
            d.hands[s].sort()
        if d.phase == ORACLE_STEP and d.turn != seat and d.drawn not in d.hands[d.turn]:
            d.drawn = d.hands[d.turn][-1]  # which card was drawn is hidden too
        return d

    # --- queries ------------------------------------------------------------------------------------------
    def to_move(self) -> list[int]:
        return [] if self.phase == OVER else [self.turn]

    def scores(self) -> list[int]:
        out = [self.reward[s] + points_of(self.won[s]) for s in range(self.players)]
        if self.phase == OVER and self.out:
            out[self.out[0]] += points_of(self.blind)
        return out

    def legal_actions(self, seat: int) -> list[Action]:
        out: list[Action] = []
        if self.phase == OVER:
            return out
        if seat == self.turn:
            hand = self.hands[seat]
            if self.phase == PLAY:
                out = self._plays(hand, self.current)
                if self.current is not None:
                    out.append(PASS)
                    if not self.final_turn and (self.oracle or self.oracle_discard):
                        out.append(PASS_DRAW)
            elif self.phase == BLIND:
                out = self._blind_options(hand)
            elif self.phase == ORACLE_STEP:
                out = [_ORACLE_DISCARDS[c] for c in dict.fromkeys(hand)]
        if seat == self.lid_holder and self.blind and seat not in self.out:
            out.extend(_LIDS[c] for c in dict.fromkeys(self.blind))
        return out

    def _plays(self, hand: list[int], cur: tuple[int, int, int] | None) -> list[Action]:
        players = self.players
        groups: dict[int, list[int]] = {}
        for c in hand:
            groups.setdefault(c % 20, []).append(c)
        nums = sorted(groups)
        out: list[Action] = []
        ctype = None if cur is None else cur[0]
        # sets (and singles)
        if ctype is None or ctype == SET:
            for n in nums:
                if cur is not None and n <= cur[2]:
                    continue
                g = tuple(groups[n])
                sizes = range(1, len(g) + 1) if cur is None else ((cur[1],) if cur[1] <= len(g) else ())
                for k in sizes:
                    for combo in _submultisets(g, k):
                        if k == 4 and (players <= 3 or any(c >= 20 and c < 40 for c in combo)):
                            continue  # a Kensei: listed below
                        out.append(_play(combo))
        # runs
        if ctype is None or ctype == RUN:
            lengths = None if cur is None else cur[1]
            start = 0
            while start < len(nums):
                end = start
                while end + 1 < len(nums) and nums[end + 1] == nums[end] + 1:
                    end += 1
                stretch = nums[start : end + 1]
                m = len(stretch)
                for length in range(3, m + 1) if lengths is None else ((lengths,) if lengths <= m else ()):
                    for i in range(m - length + 1):
                        top = stretch[i + length - 1]
                        if cur is not None and top <= cur[2]:
                            continue
                        choices = [tuple(dict.fromkeys(groups[n])) for n in stretch[i : i + length]]
                        if all(len(c) == 1 for c in choices):
                            out.append(_play(tuple(sorted(c[0] for c in choices))))
                        else:
                            for combo in itertools.product(*choices):
                                out.append(_play(tuple(sorted(combo))))
                start = end + 1
        # Kensei
        for n in nums:
            four = groups[n]
            if len(four) < 4:
                continue
            if ctype == KENSEI and cur is not None and n <= cur[2]:
                continue
            for combo in _submultisets(tuple(four), 4):
                if players <= 3 or any(c >= 20 and c < 40 for c in combo):
                    out.append(_play(combo))
        return out

    def _blind_options(self, hand: list[int]) -> list[Action]:
        low = self.played_low
        out: list[Action] = [END_TURN]
        for c in dict.fromkeys(hand):
            if c % 20 < low:
                out.append(_BLIND_DISCARDS[c])
        groups: dict[int, list[int]] = {}
        for c in self.blind:
            if c % 20 < low:
                groups.setdefault(c % 20, []).append(c)
        for n in sorted(groups):
            g = tuple(groups[n])
            for k in range(1, min(len(g), self.played_count) + 1):
                for combo in _submultisets(g, k):
                    out.append(_take(combo))
        return out

    # --- applying -----------------------------------------------------------------------------------------
    def canonical(self, action: Action) -> Action:
        """``Play`` and ``BlindTake`` with their cards sorted by code."""
        if isinstance(action, (Play, BlindTake)) and isinstance(action.cards, tuple):
            cards = action.cards
            if all(isinstance(c, int) for c in cards) and list(cards) != sorted(cards):
                ordered = tuple(sorted(cards))
                return _play(ordered) if isinstance(action, Play) else _take(ordered)
        return action

    def waiting_for(self, seat: int) -> RuleError:
        return RuleError(WAITING.get(Phase(self.phase), "The game is over"))

    @handles(EndTurn, phases=[BLIND])
    def _a_end_turn(self, seat: int, a: EndTurn) -> list[Event]:
        return self._end_turn(seat, [])

    @handles(Play, phases=[PLAY])
    def _a_play(self, seat: int, a: Play) -> list[Event]:
        cards = a.cards
        if not isinstance(cards, tuple) or not cards or not all(isinstance(c, int) for c in cards):
            raise RuleError("Choose the cards to play")
        rest = _remove(self.hands[seat], cards)
        if rest is None:
            raise RuleError("You do not hold those cards")
        combo = classify(cards, self.players)
        if combo is None:
            raise RuleError("Play a single card, cards of one number, or a run of three or more in a row")
        cur = self.current
        if not beats(combo, cur):
            assert cur is not None
            if cur[0] == KENSEI:
                raise RuleError(f"Only a higher Kensei beats {describe(cur)}")
            if combo[0] != cur[0] or combo[1] != cur[1]:
                raise RuleError(f"You must play {_shape(cur)} (or a Kensei) to beat {describe(cur)}")
            raise RuleError(f"You must play higher than {describe(cur)}")
        cards = tuple(sorted(cards))
        self.hands[seat] = rest
        self._forget(seat, cards)
        self.pile.extend(cards)
        self.current = combo
        self.current_cards = cards
        self.last_player = seat
        self.passes = 0
        self.played_low = min(c % 20 for c in cards)
        self.played_count = len(cards)
        events = [
            Event("played", seat, {"cards": list(cards), "combination": describe(combo), "kensei": combo[0] == KENSEI})
        ]
        self.phase = BLIND
        low = self.played_low
        if not rest or (not any(c % 20 < low for c in rest) and not any(c % 20 < low for c in self.blind)):
            # out of cards (the player goes out automatically), or nothing the Blind allows: the turn ends here
            events += self._end_turn(seat, [])
        return events

    @handles(BlindDiscard, phases=[BLIND])
    def _a_blind_discard(self, seat: int, a: BlindDiscard) -> list[Event]:
        card = a.card
        hand = self.hands[seat]
        if card not in hand:
            raise RuleError("You do not hold that card")
        if card % 20 >= self.played_low:
            raise RuleError(f"The card you put in the Blind must be lower than {self.played_low}")
        hand.remove(card)
        self._forget(seat, (card,))
        self.blind.append(card)
        self.blind.sort()
        return self._end_turn(seat, [Event("blind_discard", seat, {"card": card})])

    @handles(BlindTake, phases=[BLIND])
    def _a_blind_take(self, seat: int, a: BlindTake) -> list[Event]:
        cards = a.cards
        if not isinstance(cards, tuple) or not cards or not all(isinstance(c, int) for c in cards):
            raise RuleError("Choose the Blind cards to take")
        if len(cards) > self.played_count:
            raise RuleError(f"You may take at most {self.played_count} card(s): as many as you played")
        if len({c % 20 for c in cards}) != 1:
            raise RuleError("The cards you take from the Blind must all show the same number")
        if cards[0] % 20 >= self.played_low:
            raise RuleError(f"The cards you take must be lower than {self.played_low}")
        rest = _remove(self.blind, cards)
        if rest is None:
            raise RuleError("Those cards are not in the Blind")
        self.blind = rest
        self.hands[seat].extend(cards)
        self.hands[seat].sort()
        self.known[seat].extend(cards)
        return self._end_turn(seat, [Event("blind_take", seat, {"cards": list(cards)})])

    @handles(UseLid, phases=[PLAY, BLIND, ORACLE_STEP], any_seat=True)
    def _a_use_lid(self, seat: int, a: UseLid) -> list[Event]:
        card = a.card
        if seat != self.lid_holder:
            raise RuleError("Only the player holding the box lid may use it")
        if seat in self.out:
            raise RuleError("You have gone out of this game: the box lid can no longer be used")
        if card not in self.blind:
            raise RuleError("That card is not in the Blind")
        self.blind.remove(card)
        self.hands[seat].append(card)
        self.hands[seat].sort()
        self.known[seat].append(card)
        self.lid_holder = None
        return [Event("lid_used", seat, {"card": card})]

    @handles(Pass, phases=[PLAY])
    def _a_pass(self, seat: int, a: Pass) -> list[Event]:
        draw = a.draw
        if self.current is None:
            raise RuleError("You begin this round: you must play")
        if draw:
            if self.final_turn:
                raise RuleError("No Oracle draw on the last turn of the game")
            if not self.oracle and not self.oracle_discard:
                raise RuleError("The Oracle deck and its discards are empty")
            events = [Event("passed", seat, {"draw": True})]
            if not self.oracle:
                self.oracle = self.shuffle("oracle", self.oracle_discard)
                self.oracle_discard = []
                events.append(Event("oracle_reshuffled", None, {"cards": len(self.oracle)}))
            self.drawn = self.oracle.pop()
            self.hands[seat].append(self.drawn)
            self.hands[seat].sort()
            self.phase = ORACLE_STEP
            return events
        return self._after_pass(seat, [Event("passed", seat, {"draw": False})])

    @handles(OracleDiscard, phases=[ORACLE_STEP])
    def _a_oracle_discard(self, seat: int, a: OracleDiscard) -> list[Event]:
        card = a.card
        hand = self.hands[seat]
        if card not in hand:
            raise RuleError("You do not hold that card")
        hand.remove(card)
        if card != self.drawn:
            self._forget(seat, (card,))
        self.oracle_discard.append(card)
        self.drawn = None
        return self._after_pass(seat, [Event("oracle_discard", seat, {"card": card})])

    def _after_pass(self, seat: int, events: list[Event]) -> list[Event]:
        self.phase = PLAY
        self.passes += 1
        if self.final_turn:
            return events + self._win_round(self.last_player) + self._finish("the last player passed")
        last = self.last_player
        needed = sum(1 for s in range(self.players) if s not in self.out and s != last)
        if self.passes >= needed:
            assert last is not None
            events += self._win_round(last)
            self.turn = last if last not in self.out else self._next_active(last)
            return events
        self.turn = self._next_active(seat)
        return events

    def _end_turn(self, seat: int, events: list[Event]) -> list[Event]:
        """After the Blind step: going out, the last player's extra turn, or the next seat."""
        self.phase = PLAY
        if self.final_turn:
            return events + self._win_round(seat) + self._finish("the last player won the final round")
        if not self.hands[seat]:
            self.out.append(seat)
            still_in = [s for s in range(self.players) if s not in self.out]
            prize = REWARDS[len(self.out) - 1] if len(self.out) <= len(REWARDS) else 0
            self.reward[seat] = prize
            events.append(Event("went_out", seat, {"place": len(self.out), "reward": prize}))
            if len(still_in) == 1:
                self.final_turn = True
                self.turn = still_in[0]
                events.append(Event("final_turn", still_in[0], {}))
                return events
        self.turn = self._next_active(seat)
        return events

    def _win_round(self, winner: int | None) -> list[Event]:
        if winner is None:
            return []
        cards = self.pile
        self.won[winner].extend(cards)
        self.pile = []
        self.current = None
        self.current_cards = ()
        self.last_player = None
        self.passes = 0
        return [Event("round_won", winner, {"cards": list(cards), "points": points_of(cards)})]

    def _finish(self, reason: str) -> list[Event]:
        self.phase = OVER
        self.end_reason = reason
        for s in range(self.players):
            if s not in self.out:
                self.set_aside.extend(self.hands[s])  # the last player's cards do not score
                self.hands[s] = []
        return [Event("game_over", None, {"scores": self.scores(), "winners": self.winners(), "reason": reason})]

    def _next_active(self, seat: int) -> int:
        for i in range(1, self.players + 1):
            s = (seat + i) % self.players
            if s not in self.out:
                return s
        return seat

    def _forget(self, seat: int, cards: Iterable[int]) -> None:
        known = self.known[seat]
        if known:
            for c in cards:
                if c in known:
                    known.remove(c)

    # --- views --------------------------------------------------------------------------------------------
    @overload
    def view(self, seat: None) -> MakotoView: ...
    @overload
    def view(self, seat: int) -> MakotoSeatView: ...
    @overload
    def view(self, seat: int | None) -> MakotoView | MakotoSeatView: ...
    def view(self, seat: int | None) -> MakotoView | MakotoSeatView:
        """What ``seat`` may know: a spectator's (``None``) is the public
        :class:`~kiosk.games.makoto.views.MakotoView`, a seat's the :class:`~kiosk.games.makoto.views.MakotoSeatView`
        with its hand (``ValueError`` for a seat not in the game)."""
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} in a game of {self.players}")
        over = self.phase == OVER
        current: MakotoPlay | None = None
        if self.current is not None:
            assert self.last_player is not None, "a play on the table has the seat that played it"
            current = MakotoPlay(
                type=("set", "run", "kensei")[self.current[0]],
                size=self.current[1],
                rank=self.current[2],
                cards=list(self.current_cards),
                by=self.last_player,
                text=describe(self.current),
            )
        v: MakotoView = {
            "game": "makoto",
            "players": self.players,
            "seat": seat,
            "phase": self.phase,
            "turn": None if over else self.turn,
            "to_move": self.to_move(),
            "dealer": self.dealer,
            "hand_sizes": [len(h) for h in self.hands],
            "golden_backs": [sum(1 for c in h if c // 20 == ORACLE) for h in self.hands],
            "known_in_hand": [sorted(k) for k in self.known],
            "blind": list(self.blind),
            "current": current,
            "pile": list(self.pile),
            "passes": self.passes,
            "oracle_deck": len(self.oracle),
            "oracle_discard": list(self.oracle_discard),
            "set_aside": len(self.set_aside),
            "won_cards": [len(w) for w in self.won],
            "won_points": [points_of(w) for w in self.won],
            "rewards": list(self.reward),
            "rewards_left": list(REWARDS[len(self.out) : len(REWARDS)]),
            "out": list(self.out),
            "final_turn": self.final_turn,
            "lid_holder": self.lid_holder,
            "played_low": self.played_low if self.phase == BLIND else None,
            "played_count": self.played_count if self.phase == BLIND else None,
            "scores": self.scores(),
            "winners": self.winners(),
        }
        if over:
            v["end_reason"] = self.end_reason
        if seat is None:
            return v
        drawn = self.drawn if (self.phase == ORACLE_STEP and seat == self.turn) else None
        mine: MakotoSeatView = {**v, "hand": list(self.hands[seat]), "drawn": drawn}
        return mine


def new_game(players: int, seed: int) -> MakotoState:
    return MakotoState(players, seed)
