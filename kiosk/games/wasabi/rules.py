"""Wasabi!: the pure rules engine (no Kivy, no I/O besides reading ``cards.json`` once).

The rulebook is ``shared/rules/wasabi-rulebook.txt`` completed by the Wasabi! section of ``SUPPLEMENT.md``.
The card set (pantry, recipes, tokens, action cards per player count, board size) is data in ``cards.json``.

Rationale and decisions: docs/developer/design.md, section ``kiosk/games/wasabi/rules.py``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, overload

from kiosk.engine import Action, Event, GamePhase, GameState, RuleError, handles, shuffle_with
from kiosk.games.wasabi.actions import (
    ACTION_CLASSES,
    END_STEP,
    SKIP,
    SPICY_PLAY,
    STACK_PLAY,
    ChooseRecipe,
    DrawRecipe,
    DrawTile,
    EndStep,
    GiveTile,
    Pass,
    Place,
    PlayChop,
    PlaySpicy,
    PlayStack,
    PlaySwitch,
    PlayWasabi,
    SkipReward,
    TakeCard,
    action_from_json,
)
from kiosk.games.wasabi.board import COVERED, EMPTY, GEOMETRY, Geometry
from kiosk.games.wasabi.cards import (
    ALL_TOKENS,
    CARD_ID,
    CARDS,
    CATEGORY,
    CHOP,
    COLUMNS,
    KIND_ID,
    KINDS,
    KITCHEN,
    LENGTHS,
    PANTRY,
    POINTS,
    RECIPE_BY_NAME,
    RECIPES,
    ROWS,
    SPICY,
    STACK,
    START_CATEGORIES,
    STYLE_CUBES,
    SWITCH,
    TOKENS,
    WASABI,
    Recipe,
)
from kiosk.games.wasabi.views import (
    WasabiCandidate,
    WasabiDone,
    WasabiRecipe,
    WasabiSeat,
    WasabiSeatView,
    WasabiView,
)

#: The rules module is the game's one entry point: the card set, the board and the actions are re-exported.
__all__ = [
    "ACTION_CLASSES",
    "ALL_TOKENS",
    "CARDS",
    "CARD_ID",
    "CATEGORY",
    "CHOP",
    "COLUMNS",
    "COVERED",
    "EMPTY",
    "GEOMETRY",
    "HAND_SIZE",
    "KINDS",
    "KIND_ID",
    "KITCHEN",
    "LENGTHS",
    "PANTRY",
    "POINTS",
    "RECIPES",
    "RECIPE_BY_NAME",
    "ROWS",
    "SCREEN_SIZE",
    "SPICY",
    "STACK",
    "START_CATEGORIES",
    "STYLE_CUBES",
    "SWITCH",
    "TOKENS",
    "WASABI",
    "waiting",
    "ChooseRecipe",
    "DrawRecipe",
    "DrawTile",
    "EndStep",
    "Geometry",
    "GiveTile",
    "Pass",
    "Phase",
    "Place",
    "PlayChop",
    "PlaySpicy",
    "PlayStack",
    "PlaySwitch",
    "PlayWasabi",
    "Recipe",
    "SkipReward",
    "TakeCard",
    "WasabiState",
    "action_from_json",
    "new_game",
]

HAND_SIZE = 3
SCREEN_SIZE = 3


class Phase(GamePhase):
    """The phases of a game (see the module docstring)."""

    GIVE = "give"
    SETUP_RECIPES = "setup_recipes"
    PLAY = "play"
    CHOOSE = "choose"
    REWARD = "reward"
    DRAW_TILES = "draw_tiles"
    DRAW_RECIPES = "draw_recipes"
    OVER = "over"


def waiting(phase: str) -> RuleError | None:
    """What the game waits for in ``phase``, when a seat tries something else (None: nothing more to say)."""
    if phase == Phase.GIVE:
        return RuleError("Choose the starting tiles for the player on your left first")
    if phase in (Phase.SETUP_RECIPES, Phase.DRAW_RECIPES):
        return RuleError("Draw your recipes first (choose a length)")
    if phase == Phase.DRAW_TILES:
        return RuleError("Refill your hand first: take an ingredient from the Pantry")
    if phase == Phase.REWARD:
        return RuleError("Collect your reward card (or decline it) first")
    if phase == Phase.CHOOSE:
        return RuleError("Choose which recipe to complete first")
    if phase == Phase.PLAY:
        return RuleError("That is not possible now: place an ingredient tile or pass")
    return None


_CARD_CLASS = {PlayStack: STACK, PlaySpicy: SPICY, PlaySwitch: SWITCH, PlayChop: CHOP, PlayWasabi: WASABI}


def _ints(*values: Any) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def _kind(name: Any) -> int:
    k = KIND_ID.get(name) if isinstance(name, str) else None
    if k is None:
        raise RuleError("There is no ingredient called {name}", name=repr(name))
    return k


# ----------------------------------------------------------------------------------------------------- state
class WasabiState(GameState[WasabiView, WasabiSeatView]):
    """A Wasabi! game. See the module docstring for phases and rules decisions."""

    RANDOM_START = True
    COPY_LISTS = ("stacks", "tops", "covers", "pantry", "kitchen", "cubes", "known", "card_counts")
    COPY_NESTED = ("hands", "screens", "free", "done", "cards", "rstacks")

    def __init__(self, players: int, seed: int) -> None:
        if players not in COLUMNS:
            raise ValueError(f"Wasabi! is for 2 to 4 players, not {players}")
        super().__init__(players, seed)
        geo = GEOMETRY[players]
        self.geo = geo
        self.stacks: list[tuple[int, ...]] = [()] * geo.size  # bottom -> top
        self.tops: list[int] = [EMPTY] * geo.size
        self.covers: list[int] = []  # top-left squares of Wasabi! cards on the board
        self.pantry: list[int] = list(PANTRY)
        self.kitchen: list[int] = list(KITCHEN[players])
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.screens: list[list[int]] = [[] for _ in range(players)]
        self.free: list[list[int]] = [[0, 0] + [TOKENS[n] for n in LENGTHS] for _ in range(players)]
        self.done: list[list[tuple[int, bool]]] = [[] for _ in range(players)]  # (recipe id, with style)
        self.cubes: list[int] = [0] * players
        self.cards: list[list[int]] = [[] for _ in range(players)]
        self.rstacks: list[list[int]] = [[] for _ in range(6)]  # index = length; position 0 is the top
        for n in LENGTHS:
            ids = [r.id for r in RECIPES if r.length == n]
            self.rstacks[n] = list(self.shuffle(f"recipes{n}", ids))
        self.known: list[frozenset[int]] = [frozenset()] * players  # recipes each seat put under a stack
        self.phase = Phase.GIVE
        self.current = 0
        self.giving: tuple[int, ...] = ()
        # turn state
        self.tiles_left = 0
        self.tiles_played = 0
        self.card_played = -1
        self.stack_on = False
        self.chopped = EMPTY
        self.rewards = 0
        self.snapshot: tuple[int, ...] = tuple(self.tops)
        self.choosing: tuple[tuple[int, bool], ...] = ()  # recipes still to complete (phase choose)
        self.idle_turns = 0
        # results and statistics
        self.instant_winner = -1
        self.end_reason = ""
        self.turns = 0
        self.card_counts = [0] * len(CARDS)
        self.passes = 0

    # --- copying ----------------------------------------------------------------------------------------
    def determinize(self, seat: int, rng: random.Random) -> WasabiState:
        """A copy where everything ``seat`` cannot see is resampled consistently with its view.

        Resampled: the other seats' ingredient hands (sizes kept) together with the Pantry's counts (every kind
        shown available keeps at least one tile, a sold-out kind stays sold out); the other seats' recipes
        (lengths kept) together with the stacks' order, except the recipes ``seat`` itself put under a stack,
        which stay where it knows they are. Hidden stack tiles are public and stay.
        """
        d: WasabiState = self.search_copy(rng)
        others = [s for s in range(self.players) if s != seat]
        # ingredients
        sizes = [len(self.hands[s]) for s in others]
        slots = sum(sizes)
        if slots:
            forced: list[int] = []
            free_pool: list[int] = []
            for s in others:
                for k in self.hands[s]:
                    (free_pool if self.pantry[k] else forced).append(k)
            pantry = [1 if c else 0 for c in self.pantry]
            for k, c in enumerate(self.pantry):
                free_pool.extend([k] * (c - 1 if c else 0))
            free_pool = shuffle_with(rng, free_pool)
            take = slots - len(forced)
            chosen = shuffle_with(rng, forced + free_pool[:take])
            for k in free_pool[take:]:
                pantry[k] += 1
            d.pantry = pantry
            i = 0
            for s, n in zip(others, sizes):
                d.hands[s] = sorted(chosen[i : i + n])
                i += n
        # recipes
        known = self.known[seat]
        for n in LENGTHS:
            pool: list[int] = []
            for s in others:
                pool.extend(r for r in self.screens[s] if RECIPES[r].length == n)
            pool.extend(r for r in self.rstacks[n] if r not in known)
            if len(pool) < 2:
                continue
            it = iter(shuffle_with(rng, pool))
            for s in others:
                scr = d.screens[s]
                for j, r in enumerate(scr):
                    if RECIPES[r].length == n:
                        scr[j] = next(it)
            st = d.rstacks[n]
            for j, r in enumerate(st):
                if r not in known:
                    st[j] = next(it)
        if self.choosing and self.current != seat:  # the pending choice follows its screen slots
            moved = dict(zip(self.screens[self.current], d.screens[self.current]))
            d.choosing = tuple((moved[r], style) for r, style in self.choosing)
        return d

    # --- contract verbs ---------------------------------------------------------------------------------
    def to_move(self) -> list[int]:
        return [] if self.phase == "over" else [self.current]

    def score_of(self, seat: int) -> int:
        return sum(POINTS[RECIPES[r].length] for r, _ in self.done[seat]) + self.cubes[seat]

    def scores(self) -> list[int]:
        return [self.score_of(s) for s in range(self.players)]

    def tiebreaks(self) -> list[int]:
        """Ties go to more cubes, then the win is shared."""
        return self.cubes

    def winners(self) -> list[int]:
        if self.phase == "over" and self.instant_winner >= 0:
            return [self.instant_winner]
        return super().winners()

    # --- helpers ----------------------------------------------------------------------------------------
    def empties(self) -> int:
        return self.tops.count(EMPTY)

    def board_full(self) -> bool:
        return EMPTY not in self.tops

    def _set_stack(self, sq: int, stack: tuple[int, ...]) -> None:
        self.stacks[sq] = stack
        if self.tops[sq] != COVERED:
            self.tops[sq] = stack[-1] if stack else EMPTY

    def _available_rewards(self) -> list[tuple[int, int]]:
        """(card, square) choices for a reward, ignoring the played-type restriction."""
        out = [(c, -1) for c in range(len(CARDS)) if self.kitchen[c]]
        out += [(WASABI, sq) for sq in sorted(self.covers)]
        return out

    def _reward_choices(self) -> list[tuple[int, int]]:
        avail = self._available_rewards()
        other = [x for x in avail if x[0] != self.card_played]
        return other if other else avail

    def _card_can_be_played(self, card: int) -> bool:
        return any(True for _ in self._card_actions(card))

    def _card_actions(self, card: int) -> Iterable[Action]:
        """Legal plays of one held card now (phase play, no card played yet)."""
        seat = self.current
        tops = self.tops
        if self.chopped != EMPTY:
            return
        if card == STACK:
            if self.tiles_played == 0 and self.hands[seat] and any(t >= 0 for t in tops):
                yield STACK_PLAY
        elif card == SPICY:
            need = self.tiles_left + 1
            if len(self.hands[seat]) >= need and self.empties() >= need:
                yield SPICY_PLAY
        elif card == SWITCH:
            stacks = self.stacks
            for a, b in self.geo.pairs:
                if tops[a] != COVERED and tops[b] != COVERED and stacks[a] != stacks[b]:
                    yield PlaySwitch(a, b)
        elif card == CHOP:
            for sq, t in enumerate(tops):
                if t >= 0:
                    yield PlayChop(sq, False)
                    # the chopped tile must find an empty square
                    if self.tiles_played == 0 and (len(self.stacks[sq]) == 1 or self.empties() > 0):
                        yield PlayChop(sq, True)
        elif card == WASABI:
            need = self.tiles_left
            empties = self.empties()
            for blk in self.geo.blocks:
                if all(tops[q] != COVERED for q in blk) and empties - sum(1 for q in blk if tops[q] == EMPTY) >= need:
                    yield PlayWasabi(blk[0])

    # --- legal actions ----------------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal action of ``seat``, in canonical order (sorted by class name, then fields)."""
        if self.phase == "over" or seat != self.current:
            return []
        ph = self.phase
        if ph == "give":
            cats = {CATEGORY[k] for k in self.giving}
            return [
                GiveTile(KINDS[k])
                for k in range(len(KINDS))
                if self.pantry[k] and CATEGORY[k] in START_CATEGORIES and CATEGORY[k] not in cats
            ]
        if ph in ("setup_recipes", "draw_recipes"):
            return [DrawRecipe(n) for n in LENGTHS if self.rstacks[n]]
        if ph == "draw_tiles":
            return [DrawTile(KINDS[k]) for k in range(len(KINDS)) if self.pantry[k]]
        if ph == "reward":
            return self._reward_actions(seat)
        if ph == "choose":
            return [ChooseRecipe(r) for r in sorted(self._rivals())]
        return self._play_actions(seat)

    def _reward_actions(self, seat: int) -> list[Action]:
        held = self.cards[seat]
        out: list[Action] = []
        for card, sq in self._reward_choices():
            name = CARDS[card]
            if len(held) < 2:
                out.append(TakeCard(name, sq, ""))
            else:
                for d in sorted(set(held)):
                    if d != card or sq >= 0:  # your own Wasabi! card may go back for the one on the board
                        out.append(TakeCard(name, sq, CARDS[d]))
        return [SKIP] + out  # canonical: SkipReward, then TakeCard by (card, square, discard)

    def _play_actions(self, seat: int) -> list[Action]:
        # generated directly in canonical order: EndStep, Pass, Place, PlayChop ... PlayWasabi (the card ids
        # are alphabetical like the class names), each by its fields
        out: list[Action] = []
        if self.card_played < 0 and self.tiles_left == 0 and self.chopped == EMPTY:
            out.append(END_STEP)
        if self.tiles_played == 0 and self.card_played < 0 and self.chopped == EMPTY and not self.stack_on:
            scr = self.screens[seat]
            if scr:
                ids = sorted(scr)
                subsets = [tuple(ids[i] for i in range(len(ids)) if mask >> i & 1) for mask in range(1, 1 << len(ids))]
                out.extend(Pass(x) for x in sorted(subsets))
            else:
                out.append(Pass(()))
        tops = self.tops
        if self.tiles_left > 0:
            kinds = [self.chopped] if self.chopped != EMPTY else sorted(set(self.hands[seat]))
            if self.stack_on:
                squares = [sq for sq, t in enumerate(tops) if t != COVERED]
            else:
                squares = [sq for sq, t in enumerate(tops) if t == EMPTY]
            for k in kinds:  # KINDS is alphabetical, so ids sort like names
                name = KINDS[k]
                out.extend([Place(name, sq) for sq in squares])
        if self.card_played < 0:
            for card in sorted(set(self.cards[seat])):
                out.extend(self._card_actions(card))
        return out

    # --- applying ---------------------------------------------------------------------------------------
    def canonical(self, action: Action) -> Action:
        """``PlaySwitch`` names the lower square first; ``Pass`` lists its recipe ids in ascending order."""
        if isinstance(action, PlaySwitch) and _ints(action.a, action.b) and action.a > action.b:
            return PlaySwitch(action.b, action.a)
        if isinstance(action, Pass) and isinstance(action.discard, tuple) and _ints(*action.discard):
            ordered = tuple(sorted(action.discard))
            return action if ordered == action.discard else Pass(ordered)
        return action

    def waiting_for(self, seat: int) -> RuleError:
        return waiting(self.phase) or super().waiting_for(seat)

    @handles(SkipReward, phases=[Phase.REWARD])
    def _a_skip_reward(self, seat: int, a: SkipReward) -> list[Event]:
        self.rewards -= 1
        ev = [Event("reward_skipped", seat)]
        self._after_reward(ev)
        return ev

    @handles(EndStep, phases=[Phase.PLAY])
    def _a_end_step(self, seat: int, a: EndStep) -> list[Event]:
        if self.tiles_left > 0 or self.chopped != EMPTY:
            raise RuleError("You must play your ingredient tile first")
        if self.card_played >= 0:
            raise RuleError("Your step 1 is already over")
        ev: list[Event] = []
        self._to_step2(ev)
        return ev

    @handles(PlayStack, PlaySpicy, PlaySwitch, PlayChop, PlayWasabi, phases=[Phase.PLAY])
    def _a_play_card(self, seat: int, a: Action) -> list[Event]:
        return self._play_card(seat, _CARD_CLASS[type(a)], a)

    # setup
    @handles(GiveTile, phases=[Phase.GIVE])
    def _a_give_tile(self, seat: int, a: GiveTile) -> list[Event]:
        k = _kind(a.tile)
        if not self.pantry[k]:
            raise RuleError("There is no {tile} left in the Pantry", tile=a.tile)
        if CATEGORY[k] not in START_CATEGORIES:
            raise RuleError("A starting hand holds only fish, seafood and vegetables: not {tile}", tile=a.tile)
        if any(CATEGORY[g] == CATEGORY[k] for g in self.giving):
            raise RuleError(
                "The starting hand already has a tile of the same category as {tile}: choose another category",
                tile=a.tile,
            )
        to = (seat + 1) % self.players
        self.pantry[k] -= 1
        self.hands[to].append(k)
        self.hands[to].sort()
        self.giving += (k,)
        ev = [Event("gave_tile", seat, {"to": to})]
        if len(self.giving) == HAND_SIZE:
            self.giving = ()
            self.current = to
            if to == 0:
                self.phase = Phase.SETUP_RECIPES
        return ev

    @handles(DrawRecipe, phases=[Phase.SETUP_RECIPES, Phase.DRAW_RECIPES])
    def _a_draw_recipe(self, seat: int, a: DrawRecipe) -> list[Event]:
        n = a.length
        if n not in LENGTHS:
            raise RuleError("Recipes have 2 to 5 ingredients, there is no stack of {n}", n=repr(n))
        st = self.rstacks[n]
        if not st:
            raise RuleError("The stack of {n}-ingredient recipes is empty", n=n)
        if len(self.screens[seat]) >= SCREEN_SIZE:
            raise RuleError("You already have three recipes")
        r = st.pop(0)
        self.screens[seat].append(r)
        for s in range(self.players):
            if r in self.known[s]:
                self.known[s] = self.known[s] - {r}
        ev = [Event("drew_recipe", seat, {"length": n})]
        if self.phase == "setup_recipes":
            if len(self.screens[seat]) == SCREEN_SIZE or not any(self.rstacks[m] for m in LENGTHS):
                nxt = (seat + 1) % self.players
                self.current = nxt
                if nxt == 0:
                    self._start_turn(0)
        else:
            self._after_recipe(ev)
        return ev

    # step 1
    def _start_turn(self, seat: int) -> None:
        self.current = seat
        self.phase = Phase.PLAY
        self.tiles_left = 1 if self.hands[seat] else 0
        self.tiles_played = 0
        self.card_played = -1
        self.stack_on = False
        self.chopped = EMPTY
        self.rewards = 0
        self.snapshot = tuple(self.tops)
        self.turns += 1

    @handles(Pass, phases=[Phase.PLAY])
    def _a_pass(self, seat: int, a: Pass) -> list[Event]:
        if self.tiles_played or self.card_played >= 0 or self.chopped != EMPTY:
            raise RuleError("You can only pass before playing anything this turn")
        scr = self.screens[seat]
        ids = a.discard
        if not isinstance(ids, tuple) or any(not isinstance(r, int) for r in ids):
            raise RuleError("Pass needs the recipes to discard")
        if len(set(ids)) != len(ids) or any(r not in scr for r in ids):
            raise RuleError("You can only discard recipes from your own screen, each once")
        if scr and not ids:
            raise RuleError("When you pass you must discard at least one of your recipes")
        for r in ids:
            scr.remove(r)
            self.rstacks[RECIPES[r].length].append(r)
        self.known[seat] = self.known[seat] | set(ids)
        self.passes += 1
        self.tiles_left = 0
        ev = [Event("passed", seat, {"discarded": len(ids)})]
        self._to_step2(ev, passed=True)
        return ev

    @handles(Place, phases=[Phase.PLAY])
    def _a_place(self, seat: int, a: Place) -> list[Event]:
        if self.tiles_left <= 0:
            raise RuleError("You have already played your ingredient tile this turn")
        k = _kind(a.tile)
        sq = a.square
        if not isinstance(sq, int) or not 0 <= sq < self.geo.size:
            raise RuleError("Square {square} is not in the play area", square=repr(sq))
        if self.chopped != EMPTY:
            if k != self.chopped:
                raise RuleError("You must play the chopped {tile} as this turn's ingredient", tile=KINDS[self.chopped])
        elif k not in self.hands[seat]:
            raise RuleError("You have no {tile} in your hand", tile=a.tile)
        top = self.tops[sq]
        if top == COVERED:
            raise RuleError("Square {square} is under a Wasabi! card", square=self.geo.name(sq))
        if top != EMPTY and not self.stack_on:
            raise RuleError("Square {square} is taken (only Stack! lets you play on a tile)", square=self.geo.name(sq))
        if self.chopped != EMPTY:
            self.chopped = EMPTY
        else:
            self.hands[seat].remove(k)
        self._set_stack(sq, self.stacks[sq] + (k,))
        self.tiles_left -= 1
        self.tiles_played += 1
        ev = [Event("placed", seat, {"tile": a.tile, "square": sq})]
        self._complete(seat, (sq,), ev)
        if self.phase == "play":
            self._maybe_end_step1(ev)
        return ev

    def _play_card(self, seat: int, card: int, a: Action) -> list[Event]:
        name = CARDS[card]
        if card not in self.cards[seat]:
            raise RuleError("You have no {card}! card", card=name)
        if self.card_played >= 0:
            raise RuleError("You may play only one action card per turn")
        if self.chopped != EMPTY:
            raise RuleError("Place the chopped tile first")
        tops = self.tops
        changed: tuple[int, ...] = ()
        ev: list[Event] = []
        if card == STACK:
            if self.tiles_played:
                raise RuleError("Stack! must be played before your ingredient tile")
            if not self.hands[seat]:
                raise RuleError("You have no tile to stack")
            if not any(t >= 0 for t in tops):
                raise RuleError("There is no tile on the board to stack on")
            self.stack_on = True
        elif card == SPICY:
            need = self.tiles_left + 1
            if len(self.hands[seat]) < need:
                raise RuleError("Spicy! needs a second ingredient tile in your hand")
            if self.empties() < need:
                raise RuleError("Spicy! needs an empty square for each tile")
            self.tiles_left += 1
        elif card == SWITCH:
            assert isinstance(a, PlaySwitch)
            x, y = a.a, a.b
            if (x, y) not in self._pair_set():
                raise RuleError("Switch! swaps two orthogonally adjacent squares of the play area")
            if tops[x] == COVERED or tops[y] == COVERED:
                raise RuleError("Switch! cannot move squares under a Wasabi! card")
            if self.stacks[x] == self.stacks[y]:
                raise RuleError("Those two squares hold the same thing: switching changes nothing")
            sx, sy = self.stacks[x], self.stacks[y]
            self._set_stack(x, sy)
            self._set_stack(y, sx)
            changed = (x, y)
        elif card == CHOP:
            assert isinstance(a, PlayChop)
            sq = a.square
            if not isinstance(sq, int) or not 0 <= sq < self.geo.size:
                raise RuleError("Square {square} is not in the play area", square=repr(sq))
            if not isinstance(a.keep, bool):
                raise RuleError("Chop! needs keep true or false")
            if tops[sq] == COVERED:
                raise RuleError("Square {square} is under a Wasabi! card", square=self.geo.name(sq))
            if tops[sq] == EMPTY:
                raise RuleError("There is no tile on {square} to chop", square=self.geo.name(sq))
            if a.keep:
                if self.tiles_played:
                    raise RuleError("You already played this turn's ingredient: the chopped tile goes to the Pantry")
                if len(self.stacks[sq]) > 1 and self.empties() == 0:
                    raise RuleError("There is no empty square to play the chopped tile on")
            k = self.stacks[sq][-1]
            self._set_stack(sq, self.stacks[sq][:-1])
            if a.keep:
                self.chopped = k
                self.tiles_left = max(self.tiles_left, 1)
            else:
                self.pantry[k] += 1
            changed = (sq,)
            ev.append(Event("chopped", seat, {"tile": KINDS[k], "square": sq, "keep": a.keep}))
        elif card == WASABI:
            assert isinstance(a, PlayWasabi)
            block = self.geo.block_at.get(a.square) if isinstance(a.square, int) else None
            if block is None:
                raise RuleError("A Wasabi! card must cover a 2x2 block inside the play area")
            if any(tops[q] == COVERED for q in block):
                raise RuleError("A Wasabi! card cannot overlap another one")
            if self.empties() - sum(1 for q in block if tops[q] == EMPTY) < self.tiles_left:
                raise RuleError("That would leave no empty square for your ingredient tile")
            for q in block:
                tops[q] = COVERED
            self.covers.append(block[0])
            self.cubes[seat] += 1
        self.cards[seat].remove(card)
        if card != WASABI:
            self.kitchen[card] += 1
        self.card_played = card
        self.card_counts[card] += 1
        ev.insert(0, Event("card_played", seat, {"card": name, "action": a.to_json()}))
        if changed:
            self._complete(seat, changed, ev)
        if self.phase == "play":
            self._maybe_end_step1(ev)
        return ev

    def _pair_set(self) -> set[tuple[int, int]]:
        ps = _PAIR_SETS.get(self.geo.cols)
        if ps is None:
            ps = _PAIR_SETS[self.geo.cols] = set(self.geo.pairs)
        return ps

    def matches(self, seat: int, squares: Iterable[int] | None = None) -> list[tuple[int, bool]]:
        """Recipes of ``seat`` that a sequence new this turn completes now: ``(recipe id, with style)``."""
        tops = self.tops
        snap = self.snapshot
        geo = self.geo
        out = []
        for r in self.screens[seat]:
            rec = RECIPES[r]
            n = len(rec.seq)
            if squares is None:
                wins: Iterable[tuple[int, ...]] = geo.windows[n]
            else:
                at = geo.windows_at[n]
                wins = {w for sq in squares for w in at[sq]}
            found = False
            style = False
            for w in wins:
                seq = tuple(tops[q] for q in w)
                if min(seq) < 0 or tuple(sorted(seq)) != rec.key:
                    continue
                if all(snap[q] == tops[q] for q in w):
                    continue  # this sequence stood here before the turn: not this player's doing
                found = True
                if seq == rec.seq or seq[::-1] == rec.seq:
                    style = True
                    break
            if found:
                out.append((r, style))
        return out

    def _complete(self, seat: int, squares: tuple[int, ...], ev: list[Event]) -> None:
        # any window through a changed square may be new; windows elsewhere keep their contents
        self._resolve(seat, tuple(self.matches(seat, squares)), ev)

    def _rivals(self) -> list[int]:
        """The pending choice: recipes of the first waiting recipe's length."""
        n = RECIPES[self.choosing[0][0]].length
        return [r for r, _ in self.choosing if RECIPES[r].length == n]

    @handles(ChooseRecipe, phases=[Phase.CHOOSE])
    def _a_choose_recipe(self, seat: int, a: ChooseRecipe) -> list[Event]:
        if a.recipe not in self._rivals():
            raise RuleError("Choose one of the recipes you have just completed")
        style = dict(self.choosing)[a.recipe]
        rest = tuple(x for x in self.choosing if x[0] != a.recipe)
        self.choosing = ()
        self.phase = Phase.PLAY
        ev: list[Event] = []
        if self._score_recipe(seat, a.recipe, style, ev):
            self._resolve(seat, rest, ev)
        if self.phase == "play":
            self._maybe_end_step1(ev)
        return ev

    def _resolve(self, seat: int, found: tuple[tuple[int, bool], ...], ev: list[Event]) -> None:
        """Complete ``found`` in order; stop at a length with more candidates than free tokens (phase choose)."""
        for i, (r, style) in enumerate(found):
            n = RECIPES[r].length
            free = self.free[seat][n]
            if 0 < free < sum(1 for x, _ in found[i:] if RECIPES[x].length == n):
                self.choosing = found[i:]  # the view and the legal actions show the choice: no event of its own
                self.phase = Phase.CHOOSE
                return
            if free <= 0:
                # no action to refuse: completion is automatic, so the player is told why nothing happened
                # (only the length, which is public, not the hidden recipe)
                ev.append(
                    Event(
                        "cannot_complete",
                        seat,
                        {"length": n, "message": f"No free {n}-ingredient token: that recipe cannot be completed"},
                    )
                )
                continue
            if not self._score_recipe(seat, r, style, ev):
                return

    def _score_recipe(self, seat: int, r: int, style: bool, ev: list[Event]) -> bool:
        """Complete recipe ``r`` with a free token; False when that ends the game (an instant win)."""
        n = RECIPES[r].length
        self.free[seat][n] -= 1
        self.screens[seat].remove(r)
        self.done[seat].append((r, style))
        cubes = STYLE_CUBES[n] if style else 0
        self.cubes[seat] += cubes
        self.rewards += 1
        ev.append(Event("completed", seat, {"recipe": RECIPES[r].name, "length": n, "style": style, "cubes": cubes}))
        if len(self.done[seat]) == ALL_TOKENS:
            self.instant_winner = seat
            self._finish("instant win", ev)
            return False
        return True

    def _maybe_end_step1(self, ev: list[Event]) -> None:
        if self.tiles_left > 0 or self.chopped != EMPTY:
            return
        if self.card_played < 0 and any(self._card_can_be_played(c) for c in set(self.cards[self.current])):
            return  # the player may still play a card after the tile (or EndStep)
        self._to_step2(ev)

    # step 2
    def _to_step2(self, ev: list[Event], passed: bool = False) -> None:
        self.idle_turns = self.idle_turns + 1 if passed else 0
        self.phase = Phase.REWARD
        self._after_reward(ev)

    def _after_reward(self, ev: list[Event]) -> None:
        if self.rewards > 0 and self._available_rewards():
            self.phase = Phase.REWARD
            return
        self.rewards = 0
        self.phase = Phase.DRAW_TILES
        self._after_tile(ev)

    @handles(TakeCard, phases=[Phase.REWARD])
    def _a_take_card(self, seat: int, a: TakeCard) -> list[Event]:
        card = CARD_ID.get(a.card) if isinstance(a.card, str) else None
        if card is None:
            raise RuleError("There is no action card called {card}", card=repr(a.card))
        sq = a.square
        if sq == -1:
            if not self.kitchen[card]:
                raise RuleError("There is no {card}! card in the Kitchen", card=a.card)
        else:
            if card != WASABI or sq not in self.covers:
                raise RuleError("Only a Wasabi! card lying on the board can be picked up from the board")
        if card == self.card_played and any(c != card for c, _ in self._available_rewards()):
            raise RuleError("You played {card}! this turn: choose another card while one is available", card=a.card)
        held = self.cards[seat]
        if len(held) >= 2:
            d = CARD_ID.get(a.discard) if isinstance(a.discard, str) else None
            if d is None or d not in held:
                raise RuleError("You may hold only two action cards: name one of yours to return to the Kitchen")
            if d == card and sq == -1:
                raise RuleError("Returning the same card you take changes nothing")
        elif a.discard != "":
            raise RuleError("You have room for the card: nothing needs to go back to the Kitchen")
        else:
            d = -1
        if d >= 0:
            held.remove(d)
            self.kitchen[d] += 1
        if sq == -1:
            self.kitchen[card] -= 1
        else:
            self.covers.remove(sq)
            for q in self.geo.block_at[sq]:
                self.tops[q] = EMPTY
                self._set_stack(q, self.stacks[q])
        held.append(card)
        held.sort()
        self.rewards -= 1
        ev = [Event("took_card", seat, {"card": a.card, "square": sq})]
        self._after_reward(ev)
        return ev

    @handles(DrawTile, phases=[Phase.DRAW_TILES])
    def _a_draw_tile(self, seat: int, a: DrawTile) -> list[Event]:
        k = _kind(a.tile)
        if not self.pantry[k]:
            raise RuleError("There is no {tile} left in the Pantry", tile=a.tile)
        self.pantry[k] -= 1
        self.hands[seat].append(k)
        self.hands[seat].sort()
        ev = [Event("drew_tile", seat, {})]
        self._after_tile(ev)
        return ev

    def _after_tile(self, ev: list[Event]) -> None:
        if len(self.hands[self.current]) < HAND_SIZE and any(self.pantry):
            self.phase = Phase.DRAW_TILES
            return
        self.phase = Phase.DRAW_RECIPES
        self._after_recipe(ev)

    def _after_recipe(self, ev: list[Event]) -> None:
        if len(self.screens[self.current]) < SCREEN_SIZE and any(self.rstacks[n] for n in LENGTHS):
            self.phase = Phase.DRAW_RECIPES
            return
        # end of the turn
        if self.board_full():
            self._finish("board full", ev)
        elif self.idle_turns >= 2 * self.players:
            self._finish("everyone passed", ev)
        else:
            self._start_turn((self.current + 1) % self.players)

    def _finish(self, reason: str, ev: list[Event]) -> None:
        self.phase = Phase.OVER
        self.end_reason = reason
        ev.append(Event("game_over", None, {"reason": reason, "scores": self.scores(), "winners": self.winners()}))

    # --- views ------------------------------------------------------------------------------------------
    @overload
    def view(self, seat: None) -> WasabiView: ...
    @overload
    def view(self, seat: int) -> WasabiSeatView: ...
    @overload
    def view(self, seat: int | None) -> WasabiView | WasabiSeatView: ...
    def view(self, seat: int | None) -> WasabiView | WasabiSeatView:
        """JSON-ready: the board, Pantry availability, Kitchen, every seat's public things (the public
        :class:`~kiosk.games.wasabi.views.WasabiView`, ``seat`` None), and a seat's own hand, recipes and the
        recipes it put under stacks (:class:`~kiosk.games.wasabi.views.WasabiSeatView`; ``ValueError`` for a seat
        not in the game)."""
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} in a game of {self.players}")
        geo = self.geo
        seats = []
        for s in range(self.players):
            p: WasabiSeat = {
                "score": self.score_of(s),
                "cubes": self.cubes[s],
                "cards": [CARDS[c] for c in self.cards[s]],
                "free_tokens": {str(n): self.free[s][n] for n in LENGTHS},
                "completed": [
                    WasabiDone(
                        recipe=RECIPES[r].name, ingredients=RECIPES[r].ingredients, length=RECIPES[r].length, style=st
                    )
                    for r, st in self.done[s]
                ],
                "hand_size": len(self.hands[s]),
                "recipe_lengths": [RECIPES[r].length for r in self.screens[s]],
            }
            seats.append(p)
        public: WasabiView = {
            "game": "wasabi",
            "players": self.players,
            "rows": ROWS,
            "columns": geo.cols,
            "phase": self.phase,
            "current": self.current if self.phase != "over" else None,
            "board": [[KINDS[k] for k in st] for st in self.stacks],
            "covered": [q for sq in sorted(self.covers) for q in geo.block_at[sq]],
            "wasabi_cards": sorted(self.covers),
            "pantry_available": [KINDS[k] for k in range(len(KINDS)) if self.pantry[k]],
            "kitchen": {CARDS[c]: self.kitchen[c] for c in range(len(CARDS))},
            "recipe_stacks": {str(n): len(self.rstacks[n]) for n in LENGTHS},
            "seats": seats,
            "turn": {  # a WasabiTurn
                "tiles_left": self.tiles_left,
                "tiles_played": self.tiles_played,
                "card_played": CARDS[self.card_played] if self.card_played >= 0 else None,
                "stack": self.stack_on,
                "chopped": KINDS[self.chopped] if self.chopped >= 0 else None,
                "rewards": self.rewards,
                # the chooser knows its candidate recipes; the others see which length is being decided
                "choosing": (
                    [
                        WasabiCandidate(id=r, name=RECIPES[r].name, style=st)
                        for r, st in self.choosing
                        if r in self._rivals()
                    ]
                    if seat == self.current
                    else RECIPES[self.choosing[0][0]].length
                )
                if self.choosing
                else None,
                # the giver and the receiver know the starting tiles chosen so far; others see how many
                "giving": [KINDS[k] for k in self.giving]
                if seat in (self.current, (self.current + 1) % self.players)
                else len(self.giving),
            },
            "turns": self.turns,
            "idle_turns": self.idle_turns,
            "over": self.phase == "over",
            "end_reason": self.end_reason or None,
            "winners": self.winners(),
        }
        if seat is None:
            return public
        mine: WasabiSeatView = {
            **public,
            "hand": [KINDS[k] for k in self.hands[seat]],
            "recipes": [
                WasabiRecipe(id=r, name=RECIPES[r].name, ingredients=RECIPES[r].ingredients) for r in self.screens[seat]
            ],
            "under_stacks": sorted(self.known[seat]),
        }
        return mine


_PAIR_SETS: dict[int, set[tuple[int, int]]] = {}


def new_game(players: int, seed: int) -> WasabiState:
    """A new game: the recipe stacks are shuffled (journalled) and seat 0 chooses seat 1's starting tiles."""
    return WasabiState(players, seed)
