"""Helpers for the storage tests: a tiny deterministic test game, a deterministic play policy, and the child
process the crash tests kill with SIGKILL.

Run as a script it is the child::

    python tests/storage_child.py scores <file>        # adds scores forever, prints "ACK <id> <name> <score>"
    python tests/storage_child.py journal <root> <key>  # plays games forever, prints "ACK <game id> <actions>"

Every ACK line is printed (and flushed) only after the storage call returned, i.e. after fsync.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kiosk.engine import Action, Event, GameSpec, RuleError, State, action_codec  # noqa: E402

# ------------------------------------------------------------------------------------------ the tiny game
TARGET = 50


@dataclass(frozen=True, slots=True)
class Take(Action):
    """Take the top card of the deck and add it to your total (over 50 and you bust to 0)."""


@dataclass(frozen=True, slots=True)
class Stop(Action):
    """Keep your total and leave the round."""


class TinyRace(State):
    """A push-your-luck race used to test journals: a shuffled deck (a chance record at set-up) that is
    reshuffled from the discards when it runs out (chance records mid-game)."""

    def __init__(self, players: int, seed: int) -> None:
        super().__init__(players, seed)
        self.totals = [0] * players
        self.stopped = [False] * players
        self.turn = 0
        self.discards: list[int] = []
        self.deck = self.shuffle("deck", [v for v in range(1, 7) for _ in range(3)])
        self.end_reason = "all stopped"

    def to_move(self) -> list[int]:
        return [] if self.is_over() else [self.turn]

    def legal_actions(self, seat: int) -> list[Action]:
        return [Take(), Stop()] if seat in self.to_move() else []

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if seat != self.turn:
            raise RuleError("It is not your turn.")
        if isinstance(action, Take):
            card = self.deck.pop()
            self.discards.append(card)
            self.totals[seat] += card
            events = [Event("took", seat, {"card": card})]
            if self.totals[seat] > TARGET:
                self.totals[seat] = 0
                self.stopped[seat] = True
                events.append(Event("bust", seat))
            if not self.deck:
                self.deck, self.discards = self.shuffle("reshuffle", self.discards), []
        elif isinstance(action, Stop):
            self.stopped[seat] = True
            events = [Event("stopped", seat)]
        else:
            raise RuleError(f"{action} is not a move of this game.")
        for step in range(1, self.players + 1):
            nxt = (seat + step) % self.players
            if not self.stopped[nxt]:
                self.turn = nxt
                break
        return events

    def is_over(self) -> bool:
        return all(self.stopped)

    def scores(self) -> list[int]:
        return list(self.totals)

    def winners(self) -> list[int]:
        if not self.is_over():
            return []
        best = max(self.totals)
        return [s for s, t in enumerate(self.totals) if t == best]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "totals": list(self.totals),
            "stopped": list(self.stopped),
            "turn": self.turn,
            "deck": len(self.deck),
            "discards": list(self.discards),
        }

    def clone(self) -> TinyRace:
        other = TinyRace.__new__(TinyRace)
        self.copy_base_into(other)
        other.totals, other.stopped, other.turn = list(self.totals), list(self.stopped), self.turn
        other.discards, other.deck, other.end_reason = list(self.discards), list(self.deck), self.end_reason
        return other

    def determinize(self, seat: int, rng: random.Random) -> TinyRace:
        other = self.clone()
        rng.shuffle(other.deck)
        return other


TINY = GameSpec(
    key="tinyrace",
    title="Tiny Race",
    min_players=2,
    max_players=4,
    new_game=TinyRace,
    action_from_json=action_codec(Take, Stop),
    bots={},
)


def specs() -> dict[str, GameSpec]:
    """The registered games plus the tiny test game."""
    return {**_registered(), "tinyrace": TINY}


def _registered() -> dict[str, GameSpec]:
    try:
        from kiosk.games import GAMES
    except Exception:  # a half-written game elsewhere must not stop the storage tests
        return {}
    return dict(GAMES)


def crash_game_key() -> str:
    """The game the journal crash test plays: the real Makoto when registered, else any registered game, else
    the tiny test game."""
    games = _registered()
    if "makoto" in games:
        return "makoto"
    return next(iter(games), "tinyrace")


# --------------------------------------------------------------------------------------- the play policy
def policy_step(state: State, seed: int) -> tuple[int, Action]:
    """A deterministic choice from (seed, journal length): the parent recomputes every position the child saw."""
    rng = random.Random(seed * 1_000_003 + len(state.journal or ()))
    movers = state.to_move()
    seat = movers[rng.randrange(len(movers))]
    legal = state.legal_actions(seat)
    if isinstance(state, TinyRace):
        return seat, legal[0] if rng.random() < 0.93 else legal[1]
    return seat, legal[rng.randrange(len(legal))]


def play_to(spec: GameSpec, players: int, seed: int, actions: int) -> State:
    """The position after ``actions`` policy steps from a new game."""
    state = spec.new_game(players, seed)
    for _ in range(actions):
        state.apply(*policy_step(state, seed))
    return state


def players_for(spec: GameSpec) -> int:
    return min(max(spec.min_players, 3), spec.max_players)


# -------------------------------------------------------------------------------------------- the child
def say(text: str) -> None:
    """One line, one write(2): a kill cannot leave half a line in the pipe."""
    import os

    os.write(1, (text + "\n").encode())


def child_scores(path: str) -> None:
    from kiosk.storage import HighScores

    rng = random.Random()
    scores = HighScores(path, lower_is_better={"crash": False})
    say("READY")
    while True:
        name = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(rng.randint(1, 12)))
        score = rng.randint(-1000, 10**6)
        entry = scores.add("crash", name, score, seat=rng.randint(0, 3))
        say(f"ACK {entry.id} {name} {score}")


def child_journal(root: str, key: str) -> None:
    from datetime import timedelta

    from kiosk.storage import SavedGames

    table = specs()
    spec = table[key]
    saved = SavedGames(root, specs=table, max_age=timedelta(days=1))
    offers = saved.startup()
    if offers:
        state, journal = offers[0].resume()
        seed = journal.seed
        say(f"RESUME {journal.id} {offers[0].actions}")
    else:
        state = journal = None
    say("READY")
    rng = random.Random()
    while True:
        if state is None or journal is None:
            seed = rng.randrange(2**31)
            state = spec.new_game(players_for(spec), seed)
            journal = saved.start(key, players_for(spec), seed, state=state, seats=[{"kind": "bot"}] * state.players)
            say(f"START {journal.id} {seed}")
        actions = sum(1 for r in state.journal if "seat" in r)
        while not state.is_over():
            state.apply(*policy_step(state, seed))
            actions += 1
            assert journal.sync(state)
            say(f"ACK {journal.id} {actions}")
        journal.finish(state.outcome())
        say(f"DONE {journal.id}")
        state = journal = None


def run_child(args: list[str]) -> None:
    if args[0] == "scores":
        child_scores(args[1])
    elif args[0] == "journal":
        child_journal(args[1], args[2])
    else:
        raise SystemExit(f"unknown mode {args[0]!r}")


def zygote() -> None:
    """Fork children on request, so 200 kills do not pay 200 interpreter start-ups.

    Reads commands from stdin: ``RUN <mode> <args...>`` forks a child running that mode (the zygote prints
    ``PID <pid>``; the child's own lines follow on the same pipe); ``WAIT <pid>`` reaps a child the parent has
    killed and prints ``DEAD <pid> <signal>`` (so everything the child printed is already in the pipe).
    Everything a child needs is imported here, before forking.
    """
    import os

    import kiosk.storage  # noqa: F401

    specs()
    # its lines share the pipe with the children's: each one write(2) (say), never split by print's buffering
    say("ZYGOTE")
    for line in sys.stdin:
        cmd, *args = line.split()
        if cmd == "RUN":
            pid = os.fork()
            if pid == 0:
                try:
                    run_child(args)
                finally:
                    os._exit(3)
            say(f"PID {pid}")
        elif cmd == "WAIT":
            _, status = os.waitpid(int(args[0]), 0)
            say(f"DEAD {args[0]} {os.WTERMSIG(status) if os.WIFSIGNALED(status) else -1}")


if __name__ == "__main__":
    if sys.argv[1] == "zygote":
        zygote()
    else:
        run_child(sys.argv[1:])
