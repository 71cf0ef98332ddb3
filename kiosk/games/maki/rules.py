"""Maki, the sushi tile-laying game for 2 to 4 players: the pure rules engine.

Everything in ../shared/rules/maki-rulebook.txt, with the card set designed as ``cards.json`` (see its
``_doc``) as ../shared/rules/SUPPLEMENT.md asks, and the decisions below (each marked DECISION) where both
are silent.

The board is ``ROWS`` x ``cols`` cells numbered row by row (``cell = row * cols + col``); a cell holds
``EMPTY``, ``CUP`` (a teacup) or an ingredient kind (an index into :data:`KINDS`). Recipes are ints (their
``id`` in the data file); action cards are their names.

Rationale and decisions: docs/developer/design.md, section ``kiosk/games/maki/rules.py``.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from kiosk.engine import Action, Event, GamePhase, GameState, RuleError, State, handles, shuffle_with
from kiosk.games.maki.actions import (
    ACTION_CLASSES,
    Chop,
    Discard,
    Draw,
    EndTurn,
    Gain,
    MoveCup,
    Place,
    Return,
    SecondHelping,
    Serve,
    Substitute,
    Switch,
    Take,
    TakePool,
    action_from_json,
)
from kiosk.games.maki.board import ADJACENT, COLUMNS, CUP, EMPTY, GEOMETRY, ROWS, Geometry, cell_name
from kiosk.games.maki.cards import (
    ACTION_CARDS,
    ACTION_RULES,
    BACK_EFFECTS,
    BACK_TEXT,
    KIND_GROUP,
    KIND_INDEX,
    KINDS,
    LENGTHS,
    PANTRY,
    RECIPE_BACK,
    RECIPE_BY_NAME,
    RECIPE_LENGTH,
    RECIPES,
    Recipe,
)
from kiosk.games.maki.views import MakiBack, MakiDeck, MakiHeld, MakiRecipe, MakiServed, MakiView

#: The rules module is the game's one entry point: the card set, the board and the actions are re-exported.
__all__ = [
    "ACTION_CARDS",
    "ACTION_CLASSES",
    "ACTION_RULES",
    "BACK_EFFECTS",
    "BACK_TEXT",
    "COLUMNS",
    "CUP",
    "EMPTY",
    "GEOMETRY",
    "HAND_SIZE",
    "KINDS",
    "KIND_GROUP",
    "KIND_INDEX",
    "LENGTHS",
    "MAX_HELD",
    "PANTRY",
    "RECIPES",
    "RECIPE_BY_NAME",
    "ROWS",
    "START_LENGTHS",
    "MAIN",
    "PLACE",
    "CUPMOVE",
    "SUBST",
    "GAIN",
    "DISCARD",
    "REFILL",
    "OVER",
    "Chop",
    "Discard",
    "Draw",
    "EndTurn",
    "Gain",
    "Geometry",
    "MakiState",
    "MoveCup",
    "Phase",
    "Place",
    "Recipe",
    "Return",
    "SecondHelping",
    "Serve",
    "Substitute",
    "Switch",
    "Take",
    "TakePool",
    "action_from_json",
    "cell_name",
    "new_game",
    "stats",
]

HAND_SIZE = 3
MAX_HELD = 2
START_LENGTHS = (2, 3, 4)


class Phase(GamePhase):
    """The steps of a turn (``over`` at the end)."""

    MAIN = "main"
    PLACE = "place"
    CUPMOVE = "cup"
    SUBST = "substitute"
    GAIN = "gain"
    DISCARD = "discard"
    REFILL = "refill"
    OVER = "over"


MAIN, PLACE, CUPMOVE, SUBST, GAIN, DISCARD, REFILL, OVER = Phase

_CARD_ORDER = tuple(ACTION_CARDS)


# ------------------------------------------------------------------------------------------------------- state
class MakiState(GameState[MakiView, MakiView]):
    """A game of Maki. Build one with :func:`new_game`."""

    RANDOM_START = True
    COPY_LISTS = (
        "board",
        "pantry",
        "known",
        "wasabi",
        "action_deck",
        "display",
        "discards",
        "served_now",
        "dealt_by_len",
    )
    COPY_NESTED = ("hands", "served", "held")
    COPY_DICTS = ("decks",)

    cols: int
    geo: Geometry
    board: list[int]
    start_board: tuple[int, ...]
    pantry: list[int]
    decks: dict[int, list[int]]  # top of a deck is the END of its list
    hands: list[list[int]]
    known: list[int]  # per recipe: bitmask of seats that know where it is
    served: list[list[tuple[int, bool]]]  # per seat: (recipe, with style)
    wasabi: list[int]
    pool: int
    action_deck: list[str]  # top is the END of the list
    display: list[str]
    discards: list[str]
    held: list[list[tuple[str, bool]]]  # per seat: (card, gained this turn)
    turn: int
    phase: str
    tiles_owed: int
    pending: int  # kind taken (PLACE) or cell (SUBST); -1 otherwise
    obey_backs: bool
    after_discard: str
    served_now: list[int]
    final_left: int | None
    turns: int
    dealt_by_len: dict[int, int]

    # --- setup -------------------------------------------------------------------------------------------
    @classmethod
    def setup(cls, players: int, seed: int) -> MakiState:
        if players not in COLUMNS:
            raise ValueError(f"Maki is for 2 to 4 players, not {players}")
        s = cls(players, seed)
        s.cols = COLUMNS[players]
        s.geo = GEOMETRY[s.cols]
        n = s.geo.cells
        s.board = [EMPTY] * n
        s.pantry = list(PANTRY)
        s.known = [0] * len(RECIPES)
        s.decks = {}
        for length in LENGTHS:
            ids = [r.id for r in RECIPES if r.length == length]
            s.decks[length] = s.shuffle(f"recipes {length}", ids)
        s.action_deck = s.shuffle("actions", [c for c, k in ACTION_CARDS.items() for _ in range(k)])
        s.display, s.discards = [], []
        s._refill_display()
        for cell in s.shuffle("teacups", list(range(n)))[:players]:
            s.board[cell] = CUP
        s.hands = [[] for _ in range(players)]
        s.dealt_by_len = dict.fromkeys(LENGTHS, 0)
        for seat in range(players):
            for length in START_LENGTHS:
                s._draw(seat, length, obey=False)
        s.served = [[] for _ in range(players)]
        s.wasabi = [0] * players
        s.pool = 1
        s.held = [[] for _ in range(players)]
        s.final_left = None
        s.turns = 0
        s.turn = 0
        s._begin_turn(0)
        return s

    def _begin_turn(self, seat: int) -> None:
        self.turn = seat
        self.phase = MAIN
        self.tiles_owed = 1
        self.pending = -1
        self.obey_backs = True
        self.after_discard = ""
        self.served_now = []
        self.start_board = tuple(self.board)
        self.turns += 1

    # --- the contract's verbs --------------------------------------------------------------------------
    def to_move(self) -> list[int]:
        return [] if self.phase == OVER else [self.turn]

    def is_over(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[int]:
        return [sum(RECIPES[r].score for r, _ in self.served[s]) + self.wasabi[s] for s in range(self.players)]

    def tiebreaks(self) -> list[int]:
        """Ties: more Wasabi wins, then the win is shared."""
        return self.wasabi

    @property
    def end_reason(self) -> str:
        return "every player took a final turn after the board filled up"

    def determinize(self, seat: int, rng: random.Random) -> MakiState:
        """A copy where everything ``seat`` cannot see is resampled consistently with what it sees.

        Hidden: the identity of recipes in other hands and in the decks (unless ``seat`` knows where one is,
        ``known``), and the order of the action deck. Kept: every card's length, the backs of hand cards and
        of each deck's top card, and all public state. The copy's generator is reseeded (future shuffles are
        unknown too).
        """
        d: MakiState = self.search_copy(rng)
        bit = 1 << seat
        known = d.known
        for length in LENGTHS:
            slots: list[tuple[list[int], int, str | None]] = []
            for other in range(self.players):
                if other == seat:
                    continue
                hand = d.hands[other]
                for i, rid in enumerate(hand):
                    if RECIPE_LENGTH[rid] == length and not known[rid] & bit:
                        slots.append((hand, i, RECIPE_BACK[rid]))
            deck = d.decks[length]
            top = len(deck) - 1
            for i, rid in enumerate(deck):
                if not known[rid] & bit:
                    slots.append((deck, i, RECIPE_BACK[rid] if i == top else None))
            if len(slots) < 2:
                continue
            masks = [known[lst[i]] for lst, i, _ in slots]  # who knows each position stays with the position
            by_back: dict[str, list[int]] = {}
            for lst, i, _ in slots:
                by_back.setdefault(RECIPE_BACK[lst[i]], []).append(lst[i])
            for cards in by_back.values():  # sorted first: the sample depends on the seat's view only
                cards[:] = shuffle_with(rng, sorted(cards))
            free: list[tuple[list[int], int]] = []
            for lst, i, need in slots:
                if need is None:
                    free.append((lst, i))
                else:
                    lst[i] = by_back[need].pop()
            rest = shuffle_with(rng, [c for b in sorted(by_back) for c in by_back[b]])
            for (lst, i), rid in zip(free, rest):
                lst[i] = rid
            for (lst, i, _), mask in zip(slots, masks):
                known[lst[i]] = mask
        d.action_deck = shuffle_with(rng, sorted(d.action_deck))
        return d

    # --- what is on the table -------------------------------------------------------------------------
    def empty_cells(self) -> list[int]:
        return [c for c, v in enumerate(self.board) if v == EMPTY]

    def must_place(self) -> bool:
        return self.tiles_owed > 0 and EMPTY in self.board

    def touched(self) -> list[int]:
        """Cells holding a tile that differs from the start of the turn (this turn's contributions)."""
        start = self.start_board
        return [c for c, v in enumerate(self.board) if v >= 0 and v != start[c]]

    def match(self, rid: int, touched: list[int] | None = None) -> tuple[bool, bool]:
        """(can serve, with style) for recipe ``rid`` on the current board for the current turn (``touched``:
        :meth:`touched`, when the caller has it already)."""
        recipe = RECIPES[rid]
        length = recipe.length
        key = recipe.key
        ing = recipe.ingredients
        rev = ing[::-1]
        board = self.board
        found = False
        seen: set[tuple[int, ...]] = set()
        cell_segs = self.geo.cell_segments[length]
        for cell in self.touched() if touched is None else touched:
            for seg in cell_segs[cell]:
                if seg in seen:
                    continue
                seen.add(seg)
                contents = tuple(board[c] for c in seg)
                if tuple(sorted(contents)) != key:
                    continue
                if contents in (ing, rev):
                    return True, True
                found = True
        return found, False

    def servable(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        if not hand:
            return []
        touched = self.touched()
        if not touched:
            return []
        return sorted(rid for rid in hand if self.match(rid, touched)[0])

    def playable_cards(self, seat: int) -> set[str]:
        return {c for c, fresh in self.held[seat] if not fresh}

    # --- legal actions ---------------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == OVER or seat != self.turn:
            return []
        phase = self.phase
        if phase == PLACE:
            out: list[Action] = []
            has_empty = EMPTY in self.board
            for c, v in enumerate(self.board):
                if v == EMPTY or (v == CUP and has_empty):
                    out.append(Place(c))
            return out
        if phase == CUPMOVE:
            return [MoveCup(c) for c in self.empty_cells()]
        if phase == SUBST:
            old = self.board[self.pending]
            return [Take(KINDS[k]) for k, n in enumerate(self.pantry) if n > 0 and k != old]
        if phase == GAIN:
            return [Gain(c) for c in _CARD_ORDER if c in self.display]
        if phase == DISCARD:
            held = {c for c, _ in self.held[seat]}
            return [Discard(c) for c in _CARD_ORDER if c in held]
        if phase == REFILL:
            return [Draw(length) for length in LENGTHS if self.decks[length]]
        # MAIN
        out = []
        must = self.must_place()
        if must:
            out += [Take(KINDS[k]) for k, n in enumerate(self.pantry) if n > 0]
        out += self._card_plays(seat)
        if must:
            return out
        out += [Serve(r) for r in self.servable(seat) if r not in self.served_now]
        if self.served_now:
            draws: list[Action] = [Draw(length) for length in LENGTHS if self.decks[length]]
            out += draws if draws and len(self.hands[seat]) < HAND_SIZE else [EndTurn()]
        else:
            out += [Gain(c) for c in _CARD_ORDER if c in self.display]
            out.append(TakePool())
            hand = sorted(self.hands[seat])
            for k in range(1, len(hand) + 1):
                out += [Return(combo) for combo in itertools.combinations(hand, k)]
        return out

    def _card_plays(self, seat: int) -> list[Action]:
        cards = self.playable_cards(seat)
        if not cards:
            return []
        board = self.board
        out: list[Action] = []
        if "Switch" in cards:
            out += [
                Switch(a, b) for a, b in self.geo.adjacent if board[a] != board[b] and (board[a] >= 0 or board[b] >= 0)
            ]
        if "Chop" in cards:
            out += [Chop(c) for c, v in enumerate(board) if v >= 0]
        if "Second Helping" in cards and EMPTY in board:
            out.append(SecondHelping())
        if "Substitute" in cards:
            stock = [k for k, n in enumerate(self.pantry) if n > 0]
            out += [Substitute(c) for c, v in enumerate(board) if v >= 0 and any(k != v for k in stock)]
        return out

    # --- applying actions ------------------------------------------------------------------------------
    def canonical(self, action: Action) -> Action:
        """``Switch`` names the lower space first; ``Return`` lists its recipe ids in ascending order."""
        if isinstance(action, Switch) and _ints(action.a, action.b) and action.a > action.b:
            return Switch(action.b, action.a)
        if isinstance(action, Return) and isinstance(action.recipes, tuple) and _ints(*action.recipes):
            ordered = tuple(sorted(action.recipes))
            return action if ordered == action.recipes else Return(ordered)
        return action

    def waiting_for(self, seat: int) -> RuleError:
        phase = self.phase
        if phase == PLACE:
            return RuleError("Place your {kind} tile in a space first", kind=KINDS[self.pending])
        if phase == CUPMOVE:
            return RuleError("Move the teacup to an empty space first")
        if phase == SUBST:
            return RuleError("Choose the Pantry tile for your Substitute first")
        if phase == GAIN:
            return RuleError("Choose an action card from the display first")
        if phase == DISCARD:
            return RuleError("You hold three action cards: discard one first")
        if phase == REFILL:
            return RuleError("Draw recipes until you hold three")
        if phase == MAIN:
            return RuleError("That is not possible in the middle of your turn")
        return super().waiting_for(seat)

    def _kind(self, name: str) -> int:
        k = KIND_INDEX.get(name) if isinstance(name, str) else None
        if k is None:
            raise RuleError("There is no {name} tile in the Pantry of this game", name=repr(name))
        return k

    def _cell(self, cell: Any) -> int:
        if not isinstance(cell, int) or isinstance(cell, bool) or not 0 <= cell < len(self.board):
            raise RuleError(
                "Space {cell} is not on the {rows}x{cols} play area", cell=repr(cell), rows=ROWS, cols=self.cols
            )
        return cell

    def _name(self, cell: int) -> str:
        return cell_name(self.cols, cell)

    @handles(Take, phases=[MAIN, SUBST])
    def _a_take(self, seat: int, a: Take) -> list[Event]:
        k = self._kind(a.kind)
        if self.phase == SUBST:
            cell = self.pending
            old = self.board[cell]
            if k == old:
                raise RuleError("Substitute needs a different kind than the {kind} already there", kind=KINDS[old])
            if self.pantry[k] <= 0:
                raise RuleError("The Pantry has no {kind} tile left", kind=a.kind)
            self.pantry[old] += 1
            self.pantry[k] -= 1
            self.board[cell] = k
            self.phase, self.pending = MAIN, -1
            return [Event("substituted", seat, {"cell": cell, "old": KINDS[old], "new": a.kind})]
        if self.tiles_owed <= 0:
            raise RuleError("You have already played your tile this turn")
        if EMPTY not in self.board:
            raise RuleError("There is no empty space to play a tile into")
        if self.pantry[k] <= 0:
            raise RuleError("The Pantry has no {kind} tile left", kind=a.kind)
        self.phase, self.pending = PLACE, k
        return [Event("took", seat, {"kind": a.kind})]

    @handles(Place, phases=[PLACE])
    def _a_place(self, seat: int, a: Place) -> list[Event]:
        cell = self._cell(a.cell)
        v = self.board[cell]
        if v >= 0:
            raise RuleError(
                "Space {space} already holds {kind}: choose an empty space", space=self._name(cell), kind=KINDS[v]
            )
        if v == CUP and EMPTY not in self.board:
            raise RuleError("The teacup has no empty space to move to")
        kind = self.pending
        self.board[cell] = kind
        self.pantry[kind] -= 1
        self.tiles_owed -= 1
        self.pending = -1
        if v == CUP:
            self.phase, self.pending = CUPMOVE, cell
        else:
            self.phase = MAIN
        return [Event("placed", seat, {"kind": KINDS[kind], "cell": cell, "teacup": v == CUP})]

    @handles(MoveCup, phases=[CUPMOVE])
    def _a_move_cup(self, seat: int, a: MoveCup) -> list[Event]:
        cell = self._cell(a.cell)
        if self.board[cell] != EMPTY:
            raise RuleError("A teacup can only move to an empty space; {space} is filled", space=self._name(cell))
        self.board[cell] = CUP
        self.phase, self.pending = MAIN, -1
        return [Event("teacup", seat, {"cell": cell})]

    def _use_card(self, seat: int, card: str) -> None:
        """Check that ``seat`` may play ``card`` now (raises), without changing anything."""
        held = self.held[seat]
        if not any(c == card for c, _ in held):
            raise RuleError("You hold no {card} card", card=card)
        if not any(c == card and not fresh for c, fresh in held):
            raise RuleError("You gained this {card} card this turn; you can play it from your next turn", card=card)

    def _discard_played(self, seat: int, card: str) -> None:
        held = self.held[seat]
        i = next(i for i, (c, fresh) in enumerate(held) if c == card and not fresh)
        del held[i]
        self.discards.append(card)

    @handles(Switch, phases=[MAIN])
    def _a_switch(self, seat: int, a: Switch) -> list[Event]:
        self._use_card(seat, "Switch")
        x, y = self._cell(a.a), self._cell(a.b)
        if (x, y) not in ADJACENT[self.cols]:
            raise RuleError(
                "Switch swaps two orthogonally adjacent spaces, and {a} and {b} are not",
                a=self._name(x),
                b=self._name(y),
            )
        bx, by = self.board[x], self.board[y]
        if bx == by or (bx < 0 and by < 0):
            raise RuleError("Switch must move at least one tile to a space holding something different")
        self._discard_played(seat, "Switch")
        self.board[x], self.board[y] = by, bx
        return [Event("switch", seat, {"a": x, "b": y})]

    @handles(Chop, phases=[MAIN])
    def _a_chop(self, seat: int, a: Chop) -> list[Event]:
        self._use_card(seat, "Chop")
        cell = self._cell(a.cell)
        v = self.board[cell]
        if v < 0:
            raise RuleError("Chop removes a tile, and space {space} holds no tile", space=self._name(cell))
        self._discard_played(seat, "Chop")
        self.board[cell] = EMPTY
        self.pantry[v] += 1
        return [Event("chop", seat, {"cell": cell, "kind": KINDS[v]})]

    @handles(SecondHelping, phases=[MAIN])
    def _a_second_helping(self, seat: int, a: SecondHelping) -> list[Event]:
        self._use_card(seat, "Second Helping")
        if EMPTY not in self.board:
            raise RuleError("Second Helping needs an empty space to play the extra tile into")
        self._discard_played(seat, "Second Helping")
        self.tiles_owed += 1
        return [Event("second_helping", seat, {})]

    @handles(Substitute, phases=[MAIN])
    def _a_substitute(self, seat: int, a: Substitute) -> list[Event]:
        self._use_card(seat, "Substitute")
        cell = self._cell(a.cell)
        v = self.board[cell]
        if v < 0:
            raise RuleError("Substitute exchanges a tile, and space {space} holds no tile", space=self._name(cell))
        if not any(n > 0 and k != v for k, n in enumerate(self.pantry)):
            raise RuleError("The Pantry has no other kind of tile to substitute")
        self._discard_played(seat, "Substitute")
        self.phase, self.pending = SUBST, cell
        return [Event("substitute", seat, {"cell": cell})]

    @handles(Serve, phases=[MAIN])
    def _a_serve(self, seat: int, a: Serve) -> list[Event]:
        if self.must_place():
            raise RuleError("Play your tile from the Pantry before you serve")
        rid = a.recipe
        if not isinstance(rid, int) or rid not in self.hands[seat]:
            raise RuleError("You can only serve a recipe from your hand")
        name = RECIPES[rid].name
        ok, style = self.match(rid)
        if not ok:
            if not self.touched():
                raise RuleError("You cannot serve {recipe}: nothing you did this turn contributed to it", recipe=name)
            raise RuleError(
                "You cannot serve {recipe}: no straight, gapless line of its ingredients includes a "
                "tile you placed or moved this turn",
                recipe=name,
            )
        recipe = RECIPES[rid]
        self.hands[seat].remove(rid)
        self.served[seat].append((rid, style))
        self.served_now.append(rid)
        self.known[rid] = (1 << self.players) - 1
        events = [Event("served", seat, {"recipe": rid, "name": name, "style": style})]
        if style and recipe.length > 2 and recipe.style:
            self.wasabi[seat] += recipe.style
            events.append(Event("wasabi", seat, {"gain": recipe.style, "from": "supply"}))
        if recipe.length == 2 and self.display:
            self.phase, self.after_discard = GAIN, MAIN
        return events

    @handles(Draw, phases=[MAIN, REFILL])
    def _a_draw(self, seat: int, a: Draw) -> list[Event]:
        if self.phase == MAIN:
            if self.must_place():
                raise RuleError("Play your tile from the Pantry before you draw a recipe")
            if not self.served_now:
                raise RuleError("You draw recipes after serving, or by returning recipes as your Prep")
            self.phase, self.obey_backs = REFILL, True
        length = a.length
        if length not in self.decks:
            raise RuleError("There is no deck of {n}-ingredient recipes", n=length)
        if not self.decks[length]:
            raise RuleError("The {n}-ingredient deck is empty: draw from another", n=length)
        if len(self.hands[seat]) >= HAND_SIZE:  # pragma: no cover - the turn ends at three
            raise RuleError("You already hold three recipes")
        events = self._draw(seat, length, self.obey_backs)
        if len(self.hands[seat]) >= HAND_SIZE or not any(self.decks.values()):
            events += self._end_turn(seat)
        return events

    def _draw(self, seat: int, length: int, obey: bool) -> list[Event]:
        rid = self.decks[length].pop()
        self.hands[seat].append(rid)
        self.known[rid] |= 1 << seat
        self.dealt_by_len[length] += 1
        back = RECIPE_BACK[rid]
        events = [Event("drew", seat, {"length": length, "back": back})]
        if obey:
            gain, pool = BACK_EFFECTS[back]
            self.wasabi[seat] += gain
            self.pool += pool
        return events

    @handles(EndTurn, phases=[MAIN])
    def _a_end_turn(self, seat: int, a: EndTurn) -> list[Event]:
        if self.must_place():
            raise RuleError("Play your tile from the Pantry before you end your turn")
        if not self.served_now:
            raise RuleError("Choose Serve or Prep before your turn ends")
        if any(self.decks.values()) and len(self.hands[seat]) < HAND_SIZE:
            raise RuleError("Draw recipes until you hold three before your turn ends")
        return self._end_turn(seat)

    @handles(Gain, phases=[MAIN, GAIN])
    def _a_gain(self, seat: int, a: Gain) -> list[Event]:
        if self.phase == MAIN:
            if self.must_place():
                raise RuleError("Play your tile from the Pantry before you take an action card")
            if self.served_now:
                raise RuleError("You served this turn, so you cannot also Prep")
            after = "end"
        else:
            after = MAIN
        if a.card not in self.display:
            raise RuleError("There is no {card} card in the display", card=a.card)
        self.display.remove(a.card)
        self._refill_display()
        self.held[seat].append((a.card, True))
        events = [Event("gained", seat, {"card": a.card})]
        if len(self.held[seat]) > MAX_HELD:
            self.phase, self.after_discard = DISCARD, after
        elif after == "end":
            events += self._end_turn(seat)
        else:
            self.phase = MAIN
        return events

    @handles(Discard, phases=[DISCARD])
    def _a_discard(self, seat: int, a: Discard) -> list[Event]:
        held = self.held[seat]
        idx = [i for i, (c, _) in enumerate(held) if c == a.card]
        if not idx:
            raise RuleError("You hold no {card} card", card=a.card)
        fresh = [i for i in idx if held[i][1]]
        del held[(fresh or idx)[0]]
        self.discards.append(a.card)
        events = [Event("discarded", seat, {"card": a.card})]
        if self.after_discard == "end":
            events += self._end_turn(seat)
        else:
            self.phase = MAIN
        return events

    @handles(TakePool, phases=[MAIN])
    def _a_take_pool(self, seat: int, a: TakePool) -> list[Event]:
        if self.must_place():
            raise RuleError("Play your tile from the Pantry before you take the Wasabi pool")
        if self.served_now:
            raise RuleError("You served this turn, so you cannot also Prep")
        took = self.pool
        self.wasabi[seat] += took
        self.pool = 1
        return [Event("pool", seat, {"took": took})] + self._end_turn(seat)

    @handles(Return, phases=[MAIN])
    def _a_return(self, seat: int, a: Return) -> list[Event]:
        if self.must_place():
            raise RuleError("Play your tile from the Pantry before you return recipes")
        if self.served_now:
            raise RuleError("You served this turn, so you cannot also Prep")
        ids = a.recipes
        hand = self.hands[seat]
        if not ids:
            raise RuleError("Choose at least one recipe to return")
        if list(ids) != sorted(set(ids)) or any(not isinstance(r, int) or r not in hand for r in ids):
            raise RuleError("You can only return recipes from your hand, each once")
        for rid in ids:
            hand.remove(rid)
            self.decks[RECIPE_LENGTH[rid]].insert(0, rid)
        self.phase, self.obey_backs = REFILL, False
        return [Event("returned", seat, {"lengths": [RECIPE_LENGTH[r] for r in ids]})]

    def _refill_display(self) -> None:
        while len(self.display) < 3:
            if not self.action_deck:
                if not self.discards:
                    return
                self.action_deck = self.shuffle("actions", self.discards)
                self.discards = []
            self.display.append(self.action_deck.pop())

    def _end_turn(self, seat: int) -> list[Event]:
        self.held[seat] = [(c, False) for c, _ in self.held[seat]]
        events = [Event("turn_over", seat, {})]
        if self.final_left is None:
            if EMPTY not in self.board:
                self.final_left = self.players
                events.append(Event("endgame", seat, {"final_turns": self.players}))
        else:
            self.final_left -= 1
            if self.final_left == 0:
                self.phase = OVER
                return events + [Event("game_over", None, {"scores": self.scores(), "winners": self.winners()})]
        self._begin_turn((seat + 1) % self.players)
        return events

    # --- views ----------------------------------------------------------------------------------------
    def view(self, seat: int | None) -> MakiView:
        """What ``seat`` (or a spectator, ``None``) may know: :class:`~kiosk.games.maki.views.MakiView`."""
        bit = 0 if seat is None else 1 << seat

        def card(rid: int) -> MakiRecipe | MakiBack:
            if self.known[rid] & bit:
                r = RECIPES[rid]
                return MakiRecipe(
                    id=r.id,
                    name=r.name,
                    ingredients=[KINDS[k] for k in r.ingredients],
                    score=r.score,
                    style=r.style,
                    back=r.back,
                )
            return MakiBack(length=RECIPE_LENGTH[rid], back=RECIPE_BACK[rid])

        board = [None if v == EMPTY else "teacup" if v == CUP else KINDS[v] for v in self.board]
        return {
            "rows": ROWS,
            "cols": self.cols,
            "board": board,
            "contributed": self.touched() if self.phase != OVER else [],
            "pantry": {k: self.pantry[i] for i, k in enumerate(KINDS)},
            "decks": {
                str(length): MakiDeck(count=len(d), top=RECIPE_BACK[d[-1]] if d else None)
                for length, d in self.decks.items()
            },
            "hands": [[card(r) for r in h] for h in self.hands],
            "served": [[MakiServed(recipe=r, name=RECIPES[r].name, style=st) for r, st in x] for x in self.served],
            "wasabi": self.wasabi[:],
            "pool": self.pool,
            "display": self.display[:],
            "action_deck": len(self.action_deck),
            "discards": self.discards[:],
            "held": [[MakiHeld(card=c, fresh=f) for c, f in h] for h in self.held],
            "turn": self.turn,
            "phase": self.phase,
            "tiles_owed": self.tiles_owed,
            "pending": KINDS[self.pending] if self.phase == PLACE else self.pending,
            "served_this_turn": self.served_now[:],
            "final_turns_left": self.final_left,
            "scores": self.scores(),
            "winners": self.winners(),
        }


def _ints(*values: Any) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def new_game(players: int, seed: int) -> MakiState:
    """A new game of Maki for 2 to 4 players, dealt from ``seed``."""
    return MakiState.setup(players, seed)


def stats(state: State) -> dict[str, float]:
    """Numbers the simulator averages: turns played, and per recipe length the share of dealt recipes served
    (``served_rate_L``) and the share of all served recipes (``served_share_L``)."""
    assert isinstance(state, MakiState)
    served_by_len = dict.fromkeys(LENGTHS, 0)
    styled = 0
    for x in state.served:
        for rid, st in x:
            served_by_len[RECIPE_LENGTH[rid]] += 1
            styled += st
    total = sum(served_by_len.values())
    out: dict[str, float] = {
        "turns": state.turns,
        "recipes_served": total,
        "wasabi_mean": sum(state.wasabi) / state.players,
    }
    for length in LENGTHS:
        dealt = state.dealt_by_len[length]
        out[f"served_rate_{length}"] = served_by_len[length] / dealt if dealt else 0.0
        out[f"served_share_{length}"] = served_by_len[length] / total if total else 0.0
    return out
