"""The day's best games, chosen from the journal archive (pure Python: no Kivy, nothing written).

:func:`read_played` reads what a finished journal says about its game (its header and end record only);
:func:`choose_best` picks, per board, the day's best game that had at least one guest: a game's score is its best
guest's (bots' scores never count), compared by the board's ordering; a Takoyaki time trial (one guest, a time in
its end record) is on the board ``<key>-trial``, fastest first. **Ties** (decision): the game that ended first
keeps the place, as on the high-score boards, where an equal later score ranks below; then the journal's name.
:func:`pace` spreads a replay's moves over a watchable time. Rationale: docs/developer/design.md, "Replays".
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from kiosk import safejson
from kiosk.engine import trial_board

__all__ = ["Played", "read_played", "choose_best", "day_played", "pace", "TAIL_BYTES"]

#: How much of a journal's end is read for its end record (an end record is well under 1 KB).
TAIL_BYTES = 4096
_MAX_HEADER = 64 * 1024


@dataclass(frozen=True)
class Played:
    """One finished game as its journal's header and end record tell it."""

    path: Path
    id: str
    game: str
    started: datetime
    ended: datetime
    scores: tuple[int, ...]
    #: per game seat: its table seat and its bot's level ("" for a guest)
    seats: tuple[tuple[int, str], ...]
    time_s: float | None = None  #: a time trial's time (seconds), if it was one

    @property
    def guests(self) -> list[int]:
        """The game seats a guest played (no bot level)."""
        return [g for g, (_seat, bot) in enumerate(self.seats) if not bot]

    @property
    def board(self) -> str:
        return trial_board(self.game) if self.time_s is not None else self.game

    def score(self, lower_is_better: bool) -> tuple[int, int]:
        """(the score shown, the game seat that made it): the best guest's score, or the trial's time in ms."""
        if self.time_s is not None:
            return int(round(self.time_s * 1000)), self.guests[0]
        best = (min if lower_is_better else max)(self.scores[g] for g in self.guests)
        return best, next(g for g in self.guests if self.scores[g] == best)


def _first_line(fh: Any) -> bytes:
    return fh.readline(_MAX_HEADER)


def _last_line(fh: Any, size: int) -> bytes:
    fh.seek(max(0, size - TAIL_BYTES))
    tail = fh.read(TAIL_BYTES)
    lines = tail.rstrip(b"\n").rsplit(b"\n", 1)
    return lines[-1]


def read_played(path: str | os.PathLike[str]) -> Played | None:
    """The finished game a journal holds, or None (unfinished, abandoned, unreadable, no guest, no seats)."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            head = safejson.loads(_first_line(fh), max_depth=8)
            end = safejson.loads(_last_line(fh, size), max_depth=8)
        if not isinstance(head, dict) or not isinstance(end, dict) or end.get("end") != "finished":
            return None
        outcome = end.get("outcome") or {}
        scores = tuple(int(s) for s in outcome["scores"])
        seats = tuple((int(s["seat"]), str(s.get("bot") or "")) for s in head["seats"])
        time_s = outcome.get("time")
        played = Played(
            path,
            str(head["id"]),
            str(head["game"]),
            datetime.fromisoformat(head["started"]),
            datetime.fromisoformat(end["at"]),
            scores,
            seats,
            float(time_s) if isinstance(time_s, (int, float)) and len(seats) == 1 else None,
        )
    except (OSError, safejson.Unreadable, KeyError, TypeError, ValueError, AttributeError):
        return None
    if len(scores) != len(seats) or not played.guests or head.get("players") != len(seats):
        return None
    return played


def day_played(folder: str | os.PathLike[str], day: date) -> list[Played]:
    """The finished games with a guest in ``folder`` (the journal archive) that started on ``day``. Journal names
    begin with their start (``20261206-1405...``): only that day's files are opened."""
    prefix = f"{day:%Y%m%d}-"
    try:
        names = sorted(p for p in Path(folder).iterdir() if p.name.startswith(prefix) and p.suffix == ".jsonl")
    except OSError:
        return []
    out = []
    for p in names:
        played = read_played(p)
        if played is not None and played.started.date() == day:
            out.append(played)
    return out


def choose_best(
    played: Iterable[Played], lower_is_better: Mapping[str, bool], skip: Iterable[str] = ()
) -> dict[str, Played]:
    """Board -> the best game on it (see the module docstring), leaving out journal ids in ``skip`` (found damaged).
    A game whose key is not in ``lower_is_better`` (not installed) is left out."""
    skipped = set(skip)
    best: dict[str, tuple[tuple[Any, ...], Played]] = {}
    for p in played:
        if p.id in skipped or p.game not in lower_is_better or not p.guests:  # bots' own games never count
            continue
        lower = p.time_s is not None or lower_is_better[p.game]
        score, _seat = p.score(lower)
        key = (score if lower else -score, p.ended, p.id)
        if p.board not in best or key < best[p.board][0]:
            best[p.board] = (key, p)
    return {board: p for board, (_key, p) in best.items()}


def pace(
    moves: Sequence[tuple[int, str]], total_s: float, longest_s: float = 1.2, shortest_s: float = 0.15
) -> list[float]:
    """Seconds before each move of a replay (``moves``: (seat, action type) in order) so that the whole takes at
    most ``total_s``: a move ``longest_s`` at most, never under ``shortest_s`` (every move stays visible, so a very
    long game may take longer). A dull stretch, the same seat making the same kind of move again, goes at a third
    of the pace of the others."""
    weights = [1.0 if i == 0 or moves[i - 1] != m else 1 / 3 for i, m in enumerate(moves)]
    if not weights:
        return []
    unit = min(longest_s, total_s / sum(weights))
    return [max(shortest_s, unit * w) for w in weights]
