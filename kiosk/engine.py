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

Rules of the contract:

* ``to_move()`` lists the seats whose decision the game waits for (one in turn-based games, several in
  Takoyaki, none when over). ``legal_actions(seat)`` is a canonical, deterministic list that depends only on
  what ``seat`` can see.
* ``apply(seat, action)`` raises :class:`RuleError` for an illegal action and leaves the state unchanged.
* Actions are small immutable values with ``to_json()``; ``spec.action_from_json(a.to_json()) == a``.
* All randomness comes from the seed. Shuffles go through :meth:`State.shuffle`, which draws only
  ``random.random()`` (the one generator Python promises to keep) and records the dealt order in the journal,
  so :func:`replay` rebuilds a game even when a newer Python shuffles differently.
* ``journal`` holds one JSON-ready record per applied action (``{"seat": s, "action": {...}}``) and one per
  chance outcome (``{"chance": name, "order": [...]}``), in the order they happened.

This module is pure Python: no Kivy, no hardware, no storage.
"""

from __future__ import annotations

import contextvars
import dataclasses
import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

__all__ = [
    "RuleError",
    "Action",
    "Event",
    "State",
    "Bot",
    "GameSpec",
    "Outcome",
    "action_codec",
    "replay",
    "shuffle_with",
    "ChanceMismatch",
]


class RuleError(ValueError):
    """An illegal action. The message is what a player reads at the table."""


class ChanceMismatch(RuntimeError):
    """A journal's recorded chance outcome does not fit the game being replayed (a corrupt or foreign file)."""


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


# ----------------------------------------------------------------------------------------------------- state
class State:
    """Base class of a game state. Subclasses implement the verbs marked abstract below.

    The base class keeps the journal and the seeded generator and wraps :meth:`apply` so every applied action
    is journalled. Subclasses implement ``_apply(seat, action)``, which must validate fully (raising
    :class:`RuleError`) before it changes anything.
    """

    rng: random.Random
    journal: list[dict[str, Any]] | None

    def __init__(self, players: int, seed: int) -> None:
        self.players = players
        self.seed = seed
        self.rng = random.Random(seed)
        self.journal = []

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
        raise NotImplementedError

    def is_over(self) -> bool:
        raise NotImplementedError

    def scores(self) -> list[int]:
        raise NotImplementedError

    def winners(self) -> list[int]:
        """Seats with the best result (several on a shared win); empty while the game runs."""
        raise NotImplementedError

    def view(self, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def determinize(self, seat: int, rng: random.Random) -> State:
        raise NotImplementedError

    def clone(self) -> State:
        raise NotImplementedError

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
            if record is None or record.get("chance") != name:
                raise ChanceMismatch(f"journal has no recorded {name!r} shuffle here")
            recorded = list(_from_jsonable(record["order"]))
            if sorted(map(repr, recorded)) != sorted(map(repr, items)):
                raise ChanceMismatch(f"recorded {name!r} shuffle does not hold the same items")
            order = recorded
        if self.journal is not None:
            self.journal.append({"chance": name, "order": _jsonable(tuple(order))})
        return order

    def copy_base_into(self, other: State) -> None:
        """Copy the base fields into a new instance made by ``clone``."""
        other.players = self.players
        other.seed = self.seed
        other.rng = random.Random.__new__(random.Random)  # no seeding from the OS: the state is copied
        other.rng.setstate(self.rng.getstate())
        other.journal = list(self.journal) if self.journal is not None else None

    def fingerprint(self) -> str:
        """Everything observable, as one string: every seat's view, the spectator's, and the journal."""
        views = [self.view(s) for s in range(self.players)] + [self.view(None)]
        return json.dumps({"views": views, "journal": self.journal, "to_move": self.to_move()}, sort_keys=True)


class Bot(Protocol):
    def choose(self, state: State) -> Action: ...


# ------------------------------------------------------------------------------------------------------ spec
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
    """

    key: str
    title: str
    min_players: int
    max_players: int
    new_game: Callable[[int, int], State]
    action_from_json: Callable[[Mapping[str, Any]], Action]
    bots: Mapping[str, Callable[[int, int], Bot]]
    stats: Callable[[State], Mapping[str, float]] | None = None
    lower_is_better: bool = False
    setup_game: Callable[[int, int, Mapping[str, Any]], State] | None = None
    symbol: str = "\u25c6"
    howto: Sequence[Mapping[str, Any]] = ()
    match_choices: Sequence[int] = ()
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
    token = _REPLAYING.set(chance)
    try:
        state = spec.start(players, seed, setup)
        for r in records:
            if "chance" in r:
                continue
            state.apply(int(r["seat"]), spec.action_from_json(r["action"]))
        leftover = next(chance, None)
        if leftover is not None:
            raise ChanceMismatch(f"journal has an unused {leftover.get('chance')!r} outcome")
    finally:
        _REPLAYING.reset(token)
    return state
