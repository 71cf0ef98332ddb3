"""The game-engine contract every game of the table follows.

A game is a :class:`GameSpec` (registered in :data:`kiosk.games.GAMES`) whose ``new_game(players, seed)``
returns a :class:`State`. The screen, the bots, the simulator, crash recovery and the tests all drive a game
through the same few verbs::

    >>> from kiosk.games import GAMES
    >>> spec = GAMES["makoto"]
    >>> state = spec.new_game(players=4, seed=7)
    >>> seat = state.to_move()[0]
    >>> action = state.legal_actions(seat)[0]
    >>> events = state.apply(seat, action)
    >>> again = replay(spec, 4, 7, state.journal)
    >>> again.view(None) == state.view(None)
    True

Rationale and decisions: docs/developer/design.md, section ``kiosk/engine.py``.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import enum
import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, overload

__all__ = [
    "recorded_chance",
    "RuleError",
    "Action",
    "Event",
    "State",
    "GameState",
    "View",
    "Bot",
    "GameSpec",
    "Results",
    "trial_board",
    "Outcome",
    "action_codec",
    "replay",
    "shuffle_with",
    "ChanceMismatch",
    "ChanceMissing",
    "replay_acknowledged",
    "starting_seat",
    "GamePhase",
    "handles",
    "NOT_YOUR_TURN",
]

T = TypeVar("T")
#: What any game's ``view(seat)`` is at run time: a read-only, JSON-ready mapping (fingerprints, the generic screen,
#: the conformance checks read it so). Each game narrows it to its own shape: :class:`GameState`.
View = Mapping[str, object]
#: A game's own view type: a ``TypedDict`` naming every key and its type (the JSON shape is the contract).
ViewT = TypeVar("ViewT", bound=View, covariant=True)
#: A game's own view for one seat: its public view's keys and the seat's secrets, required (a ``TypedDict``).
SeatViewT = TypeVar("SeatViewT", bound=View, covariant=True)
F = TypeVar("F", bound=Callable[..., Any])


class RuleError(ValueError):
    """An illegal action: ``RuleError("The Pantry has no {kind} tile left", kind="Salmon")``.

    ``msgid`` is the English template (extracted for translation: each game's ``babel.cfg`` and the shell's name
    ``RuleError`` as a keyword) and ``values`` its placeholders' values; ``str()`` is the English sentence for
    logs. A screen words it in the seat's language with :func:`kiosk.ui.words.refusal_text`.
    """

    def __init__(self, msgid: str, /, **values: Any) -> None:
        self.msgid = msgid
        self.values = values
        super().__init__(msgid.format(**values) if values else msgid)


class ChanceMismatch(RuntimeError):
    """A journal's recorded chance outcome does not fit the game being replayed (a corrupt or foreign file)."""


class ChanceMissing(ChanceMismatch):
    """The journal ran out of recorded chance outcomes while an action needed one: that action's records were
    cut short (a kill or a power cut after its line and before its chance record reached the card), or the file
    is corrupt. ``action_index`` is the position in the replayed records of the action being applied (None
    while the game was being set up)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.action_index: int | None = None


# --------------------------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class Action:
    """Base of all actions: frozen dataclasses whose JSON form is ``{"type": <ClassName>, **fields}``.

    Tuples become lists in JSON and back; nested values must be ints, strings, bools or tuples of them.
    """

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": type(self).__name__}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out[f.name] = _jsonable(v)
        return out

    def __str__(self) -> str:  # readable in logs and error messages
        args = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self))
        return f"{type(self).__name__}({args})"


def _jsonable(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    return v


def _from_jsonable(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_from_jsonable(x) for x in v)
    return v


def action_codec(*classes: type[Action]) -> Callable[[Mapping[str, Any]], Action]:
    """Build a game's ``action_from_json`` for the given action classes.

    Unknown types, missing or extra fields raise :class:`RuleError` (a journal or a network peer may be wrong).
    """
    by_name = {c.__name__: c for c in classes}

    def action_from_json(data: Mapping[str, Any]) -> Action:
        if not isinstance(data, Mapping) or "type" not in data:
            raise RuleError(f"Not an action: {data!r}")
        cls = by_name.get(data["type"])
        if cls is None:
            raise RuleError(f"Unknown action type {data['type']!r}")
        names = {f.name for f in dataclasses.fields(cls)}
        given = set(data) - {"type"}
        if given != names:
            raise RuleError(f"{cls.__name__} needs fields {sorted(names)}, got {sorted(given)}")
        try:
            return cls(**{k: _from_jsonable(data[k]) for k in names})
        except (TypeError, ValueError) as exc:
            raise RuleError(f"Bad {cls.__name__}: {exc}") from exc

    return action_from_json


# ---------------------------------------------------------------------------------------------------- events
@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for screens and sounds: ``Event("played", seat=2, data={"cards": [7, 7]})``."""

    kind: str
    seat: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "data": dict(self.data)}


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game as one small value."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str


# ------------------------------------------------------------------------------------------ chance recording
# While a journal is replayed, recorded chance outcomes are consumed from here instead of being drawn anew.
_REPLAYING: contextvars.ContextVar[Iterator[Mapping[str, Any]] | None] = contextvars.ContextVar(
    "_REPLAYING", default=None
)


def shuffle_with(rng: random.Random, items: Sequence[Any]) -> list[Any]:
    """Fisher-Yates with ``rng.random()`` only: the same on every Python version for the same seed."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


class GamePhase(enum.StrEnum):
    """Base of every game's ``Phase`` enum. Members are strings (``Phase.OVER == "over"``), so views, journals
    and messages stay plain JSON."""


#: The one message a seat reads when it acts out of turn.
NOT_YOUR_TURN = "It is not your turn: seat {seat} is playing"


def handles(*classes: type[Action], phases: Sequence[str] | None = None, any_seat: bool = False) -> Callable[[F], F]:
    """Mark a state method as the handler of ``classes`` for :meth:`State._apply`.

    ``phases``: the phases in which the action may be played (elsewhere :meth:`State.waiting_for` is the
    message); ``None`` lets the handler check. ``any_seat``: the action may be played out of turn (Makoto's box
    lid).
    """

    def mark(fn: F) -> F:
        fn._handles = (classes, None if phases is None else frozenset(phases), any_seat)  # type: ignore[attr-defined]
        return fn

    return mark


def starting_seat(players: int, seed: int) -> int:
    """Which of ``players`` chairs (counted clockwise from the first) starts a game dealt from ``seed``.

    Drawn with a generator of its own (seeded from a string, which every Python hashes the same way), so the
    draw is reproducible from the seed and leaves the game's own draws untouched.
    """
    return int(random.Random(f"starting seat {seed}").random() * players)


# ----------------------------------------------------------------------------------------------------- state
class State:
    """Base class of a game state. Subclasses implement the verbs marked abstract below.

    The base class keeps the journal and the seeded generator and wraps :meth:`apply` so every applied action
    is journalled. Subclasses implement ``_apply(seat, action)``, which must validate fully (raising
    :class:`RuleError`) before it changes anything.
    """

    journal: list[dict[str, Any]] | None
    phase: str
    #: The rulebook chooses the starting player at random (see :meth:`seating`).
    RANDOM_START: ClassVar[bool] = False
    #: What :meth:`clone` copies (everything else is shared, so it must never be changed in place): lists or
    #: dicts of immutable values, lists of lists, and dicts of lists.
    COPY_LISTS: ClassVar[tuple[str, ...]] = ()
    COPY_NESTED: ClassVar[tuple[str, ...]] = ()
    COPY_DICTS: ClassVar[tuple[str, ...]] = ()
    _HANDLERS: ClassVar[dict[type[Action], tuple[str, frozenset[str] | None, bool]]] = {}

    def __init__(self, players: int, seed: int) -> None:
        self.players = players
        self.seed = seed
        self._rng: random.Random | None = random.Random(seed)
        self._rng_seed = seed
        self.journal = []

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        table: dict[type[Action], tuple[str, frozenset[str] | None, bool]] = {}
        for klass in reversed(cls.__mro__):
            for name, fn in vars(klass).items():
                spec = getattr(fn, "_handles", None)
                if spec is not None:
                    for action_class in spec[0]:
                        table[action_class] = (name, spec[1], spec[2])
        cls._HANDLERS = table

    @property
    def rng(self) -> random.Random:
        """The game's generator (made on first use in a search copy: most never shuffle)."""
        r = self._rng
        if r is None:
            r = self._rng = random.Random(self._rng_seed)
        return r

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value

    # --- the contract's verbs --------------------------------------------------------------------------
    def to_move(self) -> list[int]:
        raise NotImplementedError

    def legal_actions(self, seat: int) -> list[Action]:
        raise NotImplementedError

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat``; raise :class:`RuleError` (state unchanged) if it is illegal."""
        if not isinstance(action, Action):
            raise RuleError(f"Not an action: {action!r}")
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise RuleError(f"There is no seat {seat!r} in a {self.players}-player game")
        if self.is_over():
            raise RuleError("The game is over")
        action = self.canonical(action)
        journal = self.journal
        if journal is None:
            return self._apply(seat, action)
        mark = len(journal)
        journal.append({"seat": seat, "action": action.to_json()})
        try:
            events = self._apply(seat, action)
        except RuleError:
            del journal[mark:]
            raise
        return events

    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Dispatch to the ``@handles`` method of the action's class, after the turn and phase checks."""
        entry = self._HANDLERS.get(type(action))
        if entry is None:
            raise RuleError(f"{type(action).__name__} is not a move of this game")
        name, phases, any_seat = entry
        if not any_seat:
            self.check_turn(seat)
        if phases is not None and self.phase not in phases:
            raise self.waiting_for(seat)
        handler: Callable[[int, Action], list[Event]] = getattr(self, name)
        return handler(seat, action)

    def check_turn(self, seat: int) -> None:
        """Raise the one "not your turn" message unless ``seat`` is one the game waits for."""
        movers = self.to_move()
        if seat not in movers:
            raise RuleError("It is not your turn: seat {seat} is playing", seat=movers[0] + 1 if movers else "-")

    def waiting_for(self, seat: int) -> RuleError:
        """The refusal of an action of another phase: what the game waits for from ``seat`` now."""
        return RuleError("That is not possible now ({phase})", phase=str(self.phase))

    def canonical(self, action: Action) -> Action:
        """The one form of ``action`` that ``legal_actions`` lists (card tuples sorted and the like); games whose
        actions have several spellings override this. It never validates: ``apply`` does."""
        return action

    def seating(self, chairs: Sequence[T]) -> list[T]:
        """The joined ``chairs`` (listed clockwise) in seat order: seat 0, the starting player, first.

        When the rulebook chooses the starting player at random (``RANDOM_START``), the starting chair is drawn
        from the game's seed (:func:`starting_seat`) and the others follow clockwise; otherwise the first chair
        starts. Nothing of the game's own generator is used, so deals and journals do not change.
        """
        out = list(chairs)
        if not self.RANDOM_START or not out:
            return out
        k = starting_seat(len(out), self.seed)
        return out[k:] + out[:k]

    def is_over(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[int]:
        raise NotImplementedError

    def tiebreaks(self) -> list[int] | None:
        """Per seat, what breaks a tie on score (more is better); ``None``: a tie is a shared win."""
        return None

    def winners(self) -> list[int]:
        """Seats with the best result (several on a shared win); empty while the game runs."""
        if not self.is_over():
            return []
        scores = self.scores()
        tb = self.tiebreaks()
        keys: list[tuple[int, int]] = [(sc, tb[s] if tb else 0) for s, sc in enumerate(scores)]
        best = max(keys)
        return [s for s in range(self.players) if keys[s] == best]

    def view(self, seat: int | None) -> View:
        """What ``seat`` (or a spectator, ``None``) may know, JSON-ready: the game's own :class:`GameState` type."""
        raise NotImplementedError

    def determinize(self, seat: int, rng: random.Random) -> State:
        raise NotImplementedError

    def clone(self) -> Self:
        """An independent copy: ``COPY_*`` attributes copied, everything else shared, the generator and the
        journal copied."""
        o = self._copy()
        o._rng = None if self._rng is None else _copy_random(self._rng)
        o.journal = list(self.journal) if self.journal is not None else None
        return o

    def search_copy(self, rng: random.Random) -> Self:
        """The start of every ``determinize``: a copy with no journal (a search needs no save file, and the
        journal's record of the deal would give hidden cards away) and a fresh generator drawn from ``rng``
        (future shuffles are unknown too), made only if the copy ever shuffles."""
        o = self._copy()
        o._rng = None
        o._rng_seed = int(rng.random() * 2**53)
        o.journal = None
        return o

    def _copy(self) -> Self:
        cls = type(self)
        o = cls.__new__(cls)
        d = self.__dict__.copy()
        for name in self.COPY_LISTS:
            d[name] = d[name].copy()
        for name in self.COPY_NESTED:
            d[name] = [x[:] for x in d[name]]
        for name in self.COPY_DICTS:
            d[name] = {k: v[:] for k, v in d[name].items()}
        o.__dict__ = d
        return o

    # --- helpers for subclasses ------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        return Outcome(tuple(self.scores()), tuple(self.winners()), getattr(self, "end_reason", "over"))

    def shuffle(self, name: str, items: Sequence[Any]) -> list[Any]:
        """Shuffle ``items`` with the game's generator and record the dealt order in the journal.

        During :func:`replay` the recorded order is used instead (after checking it is the same cards), and the
        generator is still advanced so that later draws line up on the same Python version.
        """
        order = shuffle_with(self.rng, items)
        feed = _REPLAYING.get()
        if feed is not None:
            record = next(feed, None)
            if record is None:
                raise ChanceMissing(f"journal has no recorded {name!r} shuffle here")
            if record.get("chance") != name:
                raise ChanceMismatch(f"journal has no recorded {name!r} shuffle here")
            recorded = list(_from_jsonable(record["order"]))
            if sorted(map(repr, recorded)) != sorted(map(repr, items)):
                raise ChanceMismatch(f"recorded {name!r} shuffle does not hold the same items")
            order = recorded
        if self.journal is not None:
            self.journal.append({"chance": name, "order": _jsonable(tuple(order))})
        return order

    def copy_base_into(self, other: State) -> None:
        """Copy the base fields into a new instance made by a hand-written ``clone``."""
        other.players = self.players
        other.seed = self.seed
        other._rng_seed = self._rng_seed
        other._rng = None if self._rng is None else _copy_random(self._rng)
        other.journal = list(self.journal) if self.journal is not None else None

    def fingerprint(self) -> str:
        """Everything observable, as one string: every seat's view, the spectator's, and the journal."""
        views = [self.view(s) for s in range(self.players)] + [self.view(None)]
        return json.dumps({"views": views, "journal": self.journal, "to_move": self.to_move()}, sort_keys=True)


class GameState(State, Generic[ViewT, SeatViewT]):
    """A game's state with its own view types: ``class MakotoState(GameState[MakotoView, MakotoSeatView])``, where
    ``MakotoView`` is a ``TypedDict`` in the game's ``views.py`` naming every key of the public view (a spectator's,
    ``view(None)``) and ``MakotoSeatView`` extends it with the keys only a seat sees (its hand), required; a game
    whose seats see no other keys than a spectator names one type twice. ``view(None)`` is typed as the public
    view and ``view(seat)`` with an ``int`` as the seat's, so screens and bots read the game's own type and a
    renamed key fails ``mypy``, not a guest's game. What a seat sees of hidden things is said in ``views.py``."""

    @overload
    def view(self, seat: None) -> ViewT: ...
    @overload
    def view(self, seat: int) -> SeatViewT: ...
    @overload
    def view(self, seat: int | None) -> ViewT | SeatViewT: ...
    def view(self, seat: int | None) -> ViewT | SeatViewT:
        raise NotImplementedError


def _copy_random(rng: random.Random) -> random.Random:
    out = random.Random.__new__(random.Random)  # no seeding from the OS: the state is copied
    out.setstate(rng.getstate())
    return out


class Bot(Protocol):
    def choose(self, state: State) -> Action: ...


# ------------------------------------------------------------------------------------------------------ spec
def trial_board(key: str) -> str:
    """The board of a game's time trial (a separate board: times, lower is better)."""
    return f"{key}-trial"


@dataclass(frozen=True)
class Results:
    """The results a finished game can produce, derived from its rules: what an event's board may believe.

    ``score``: the lowest and the highest score one seat can end a game with (bots included). ``trial_ms``: for a
    game with a time trial (one player against the clock, on the board :func:`trial_board`), the fastest and the
    slowest time in milliseconds that the trial can record; None when the game has none. The players a record
    may hold are the spec's ``min_players`` to ``max_players`` (a time trial's: one). Both the table and the
    event board refuse a record outside these (:func:`kiosk.events.contract.check_results`).
    """

    score: tuple[int, int]
    trial_ms: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        for name, pair in (("score", self.score), ("trial_ms", self.trial_ms or (0, 0))):
            lo, hi = pair
            if not (isinstance(lo, int) and isinstance(hi, int) and lo <= hi and abs(lo) < 10**9 and hi < 10**9):
                raise ValueError(f"Results.{name} must be two whole numbers, lowest first, under 10**9: {pair}")


@dataclass(frozen=True)
class GameSpec:
    """One game of the table. ``bots`` maps a level ("random", "easy", "normal", "hard") to ``factory(seat, seed)``.

    ``stats`` (optional) turns a finished state into numbers the simulator averages for balance reports.
    ``lower_is_better`` declares the score ordering for high-score boards. ``setup_game`` (optional):
    ``setup_game(players, seed, setup)`` starts a game with extra, JSON-ready set-up that ``new_game`` does not
    take (a Makoto match's dealer and box lid for its later games); journals keep ``setup`` so
    :func:`replay` can rebuild such a game.

    What the shell shows about a game comes from here: ``symbol`` (a shape on the picker, so games are told
    apart without colour), ``howto`` (the how-to-play steps, each ``{"title", "text", "pictures"}``; filled from
    the folder's ``howto.json`` by the registry when the spec declares none) and ``match_choices`` (games per
    match offered on the joining screen, 0 = the rulebook's recommendation; empty: single games only).

    ``results`` (:class:`Results`): the scores (and a time trial's times) a real game can produce, derived from its
    rules in the game's own module; an event's shared leaderboard takes no record of a game that declares none.
    """

    key: str
    title: str
    min_players: int
    max_players: int
    new_game: Callable[[int, int], State]
    action_from_json: Callable[[Mapping[str, Any]], Action]
    bots: Mapping[str, Callable[[int, int], Bot]]
    stats: Callable[[Any], Mapping[str, float]] | None = None  # takes the game's own State subclass
    lower_is_better: bool = False
    setup_game: Callable[[int, int, Mapping[str, Any]], State] | None = None
    symbol: str = "\u25c6"
    howto: Sequence[Mapping[str, Any]] = ()
    match_choices: Sequence[int] = ()
    results: Results | None = None
    BOT_LEVELS: ClassVar[tuple[str, ...]] = ("random", "easy", "normal", "hard")

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.title} is for {self.min_players} to {self.max_players} players, not {players}")

    def start(self, players: int, seed: int, setup: Mapping[str, Any] | None = None) -> State:
        """``new_game``, or ``setup_game`` when there is a ``setup``."""
        if not setup:
            return self.new_game(players, seed)
        if self.setup_game is None:
            raise ValueError(f"{self.title} takes no set-up beyond the seed (got {dict(setup)})")
        return self.setup_game(players, seed, setup)


def replay(
    spec: GameSpec,
    players: int,
    seed: int,
    journal: Sequence[Mapping[str, Any]],
    setup: Mapping[str, Any] | None = None,
) -> State:
    """Rebuild a game from its seed (and ``setup``, see :attr:`GameSpec.setup_game`) and journal, using the
    journal's recorded chance outcomes.

    Raises :class:`ChanceMismatch` or :class:`RuleError` if the journal does not fit the game.
    """
    records = list(journal)
    chance = iter([r for r in records if "chance" in r])
    with recorded_chance(chance):
        state = spec.start(players, seed, setup)
        for i, r in enumerate(records):
            if "chance" in r:
                continue
            try:
                state.apply(int(r["seat"]), spec.action_from_json(r["action"]))
            except ChanceMissing as exc:
                exc.action_index = i
                raise
        leftover = next(chance, None)
        if leftover is not None:
            raise ChanceMismatch(f"journal has an unused {leftover.get('chance')!r} outcome")
    return state


@contextlib.contextmanager
def recorded_chance(feed: Iterator[Mapping[str, Any]]) -> Iterator[None]:
    """Inside it, the state's shuffles take their outcomes from ``feed`` (the journal's chance records, in order)
    as :func:`replay` does: a replay shown move by move wraps the start and every ``apply`` in it."""
    token = _REPLAYING.set(feed)
    try:
        yield
    finally:
        _REPLAYING.reset(token)


def replay_acknowledged(
    spec: GameSpec,
    players: int,
    seed: int,
    journal: Sequence[Mapping[str, Any]],
    setup: Mapping[str, Any] | None = None,
) -> tuple[State, int]:
    """:func:`replay`, except that a journal whose last action lacks chance outcome(s) it needs is replayed to
    the position before that action. Returns the state and how many of the records it used.

    An action and the chance records it causes are written together; a kill or a power cut can leave the
    action's line on the card without (all of) its chance records after it. That action was never acknowledged
    (the write did not complete), so it is dropped with whatever followed it. The same shortage anywhere else
    (during set-up, or before a later action) is a corrupt journal and raises :class:`ChanceMissing`.
    """
    records = list(journal)
    try:
        return replay(spec, players, seed, records, setup), len(records)
    except ChanceMissing as exc:
        at = exc.action_index
        if at is None or any("chance" not in r for r in records[at + 1 :]):
            raise
    return replay(spec, players, seed, records[:at], setup), at
