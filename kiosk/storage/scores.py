"""High scores and play statistics in one crash-safe TinyDB file.

    >>> from kiosk.storage import HighScores
    >>> scores = HighScores("/var/lib/kiosk/scores.json")            # doctest: +SKIP
    >>> entry = scores.add("makoto", "ANA", 87, players=4)           # doctest: +SKIP
    >>> [(e.name, e.score) for e in scores.top("makoto", 3)]         # doctest: +SKIP
    [('ANA', 87)]
    >>> scores.record_play("makoto")                                 # doctest: +SKIP
    1

When :meth:`HighScores.add` returns, the entry is on the card: the file is replaced atomically and fsynced
(:class:`~kiosk.storage.atomic.AtomicJSONStorage`), so it survives ``kill -9`` and a power cut.

Rationale and decisions: docs/developer/design.md, section ``kiosk/storage/scores.py``.
"""

from __future__ import annotations

import bisect
import heapq
import json
import logging
import operator
import re
import threading
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from datetime import time as dtime
from pathlib import Path
from typing import Any

from tinydb import TinyDB

from kiosk import safejson

from .atomic import AtomicJSONStorage, StorageError, StorageUnavailable

__all__ = ["HighScores", "UnavailableHighScores", "ScoreEntry", "check_name", "check_score", "MAX_NAME"]

log = logging.getLogger("kiosk.storage")

MAX_NAME = 12
MAX_SCORE = 2**53
MAX_DETAILS_BYTES = 1024
CHUNK = 500
_GAME_KEY = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}\Z")
_SCORE_TABLE = re.compile(r"scores/([a-z0-9][a-z0-9_-]{0,31})/([0-9]{1,9})\Z")
_PLAYS_TABLE = re.compile(r"plays/[0-9]{4}\Z")


# ------------------------------------------------------------------------------------------------- values
@dataclass(frozen=True, slots=True)
class ScoreEntry:
    """One stored high-score entry. ``id`` is unique within its game and never reused."""

    game: str
    id: int
    name: str
    score: int
    at: datetime
    details: dict[str, Any] = field(default_factory=dict, compare=True, hash=False)

    @property
    def day(self) -> date:
        """The local day the entry was made."""
        return self.at.date()

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "id": self.id,
            "name": self.name,
            "score": self.score,
            "at": self.at.isoformat(timespec="milliseconds"),
            "details": dict(self.details),
        }


def check_name(name: object) -> str:
    """Return the stored form (NFC) of a player's name, or raise ``ValueError`` saying what is wrong."""
    if not isinstance(name, str):
        raise ValueError(f"A name must be text, not {type(name).__name__}.")
    name = unicodedata.normalize("NFC", name)
    if not name:
        raise ValueError("Please enter a name (at least 1 character).")
    if len(name) > MAX_NAME:
        raise ValueError(f"A name can have at most {MAX_NAME} characters; this one has {len(name)}.")
    for ch in name:
        if not ch.isprintable():
            raise ValueError(f"A name can only use printable characters; U+{ord(ch):04X} is not one.")
    if name != name.strip(" "):
        raise ValueError("A name cannot start or end with a space.")
    return name


def check_score(score: Any) -> int:
    """Return ``score`` as an int, or raise ``ValueError``: scores are whole numbers below 2**53."""
    if isinstance(score, bool):
        raise ValueError("A score must be a whole number, not True/False.")
    try:
        value = operator.index(score)  # int, or an integer type such as numpy.int64
    except TypeError:
        raise ValueError(f"A score must be a whole number, not {score!r}.") from None
    if abs(value) >= MAX_SCORE:
        raise ValueError(f"A score must be smaller than 2**53 in size; {value} is not.")
    return value


def check_game(game: object) -> str:
    if not isinstance(game, str) or not _GAME_KEY.match(game):
        raise ValueError(f"Not a game key: {game!r} (lower-case letters, digits, '_' or '-', at most 32).")
    return game


def _check_details(details: Mapping[str, Any]) -> dict[str, Any]:
    try:
        text = json.dumps(details, ensure_ascii=False, allow_nan=False, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"Score details must be plain JSON values: {exc}") from None
    if len(text.encode("utf-8")) > MAX_DETAILS_BYTES:
        raise ValueError(f"Score details are limited to {MAX_DETAILS_BYTES} bytes of JSON.")
    loaded: dict[str, Any] = json.loads(text)
    return loaded  # what a later load returns (tuples become lists): add() returns exactly that


def _local_now() -> datetime:
    return datetime.now().astimezone()


def _as_aware(moment: datetime | date) -> datetime:
    if isinstance(moment, datetime):
        return moment if moment.tzinfo is not None else moment.astimezone()
    return datetime.combine(moment, dtime()).astimezone()


def _sorted_in_pieces(items: list[Any], piece: int = 2000) -> list[Any]:
    if len(items) <= piece:
        return sorted(items)
    return list(heapq.merge(*(sorted(items[i : i + piece]) for i in range(0, len(items), piece))))


# --------------------------------------------------------------------------------------------- high scores
class HighScores:
    """High-score boards and play counts in one crash-safe file (see the module docstring for the rules).

    ``path``: the JSON file (its folder is created). ``lower_is_better``: per-game ordering (True: lower first; a
    game not named: higher first), handed in by the caller (storage imports no game registry).
    ``max_entries`` / ``keep_best``: the per-game size cap. ``clock``: returns the current (aware) local time;
    tests pass a fake one.

    Raises :class:`StorageUnavailable` when the folder cannot be written or another process has the file open.
    """

    available = True
    reason = ""

    def __init__(
        self,
        path: str | Path,
        *,
        lower_is_better: Mapping[str, bool] | None = None,
        max_entries: int = 10_000,
        keep_best: int = 100,
        clock: Callable[[], datetime] | None = None,
        chunk_size: int = CHUNK,
    ) -> None:
        if max_entries < 1 or keep_best < 0:
            raise ValueError("max_entries must be at least 1 and keep_best at least 0")
        self.path = Path(path)
        self.max_entries = max_entries
        self.keep_best = keep_best
        self.chunk_size = max(1, chunk_size)
        self._clock = clock or _local_now
        self._overrides = {str(g): bool(v) for g, v in (lower_is_better or {}).items()}
        self._lock = threading.RLock()
        self._db = TinyDB(self.path, storage=AtomicJSONStorage, what="high scores")
        self._storage: AtomicJSONStorage = self._db.storage  # type: ignore[assignment]
        try:
            self._setup()
        except BaseException:
            self._db.close()
            raise

    def _setup(self) -> None:
        #: Where a damaged file found at start was moved to, for the operator menu (None normally).
        self.quarantined: Path | None = self._storage.quarantined
        # In-memory mirror (this process is the only writer): per game, entries sorted best first.
        self._boards: dict[str, list[tuple[tuple[float, float, int], ScoreEntry]]] = {}
        self._by_time: dict[
            str, list[tuple[float, int, tuple[float, float, int], ScoreEntry]]
        ] = {}  # per game, oldest first
        self._where: dict[tuple[str, int], tuple[str, int]] = {}  # (game, id) -> (table, doc_id)
        self._chunks: dict[str, set[int]] = {}  # game -> chunk numbers in the file
        self._filled: dict[tuple[str, int], int] = {}  # (game, chunk) -> highest doc id ever used
        self._next_id: dict[str, int] = {}
        self._plays: dict[tuple[str, str], tuple[str, int, int]] = {}  # (game, day) -> (table, doc_id, count)
        self.skipped = 0  #: malformed documents ignored at load (logged)
        self._load()

    # --- opening ----------------------------------------------------------------------------------------
    @classmethod
    def open_or_unavailable(cls, path: str | Path, **kwargs: Any) -> HighScores | UnavailableHighScores:
        """Open the boards, or return an :class:`UnavailableHighScores` (logged) if storage cannot be used.

        This is what the kiosk calls at start: it never raises for a storage problem.
        """
        try:
            return cls(path, **kwargs)
        except (StorageError, OSError) as exc:
            log.error("high scores unavailable: %s", exc)
            return UnavailableHighScores(str(exc), Path(path), kwargs.get("lower_is_better"))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> HighScores:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _load(self) -> None:
        """Mirror the file in memory, leaving out every record that does not fit (see the module docstring).

        When anything was left out, a copy of the file as it was is kept aside and the file is rewritten without
        the bad records, so they cannot break a later write (a record id TinyDB cannot count from, a document
        nested too deep to serialize again).
        """
        data = self._storage.read() or {}
        clean: dict[str, dict[str, Any]] = {}
        dropped: list[str] = []
        seen: dict[str, set[int]] = {}
        for name, table in data.items():
            m = _SCORE_TABLE.match(name)
            if m:
                game, chunk = m.group(1), int(m.group(2))
                keep: dict[str, Any] = {}
                for doc_id, doc in table.items():
                    entry = self._entry_from_doc(game, doc)
                    if entry is None or entry.id in seen.setdefault(game, set()):
                        dropped.append(f"{name} record {doc_id}: not a valid score entry")
                        seq = doc.get("seq")
                        if isinstance(seq, int) and not isinstance(seq, bool) and abs(seq) < MAX_SCORE:
                            self._next_id[game] = max(self._next_id.get(game, 1), seq + 1)  # never reuse an id
                        continue
                    seen[game].add(entry.id)
                    keep[doc_id] = doc
                    self._mirror_add(entry, name, int(doc_id), sort=False)
                if keep:
                    self._chunks.setdefault(game, set()).add(chunk)
                    self._filled[(game, chunk)] = max(int(k) for k in keep)
                    clean[name] = keep
            elif _PLAYS_TABLE.match(name):
                keep = {}
                for doc_id, doc in table.items():
                    try:
                        if set(doc) != {"game", "day", "count"} or not isinstance(doc["day"], str):
                            raise ValueError("not a play count")
                        key = (check_game(doc["game"]), date.fromisoformat(doc["day"]).isoformat())
                        count = check_score(doc["count"])
                        if count < 0 or key[1] != doc["day"]:
                            raise ValueError("not a play count")
                    except (KeyError, TypeError, ValueError):
                        dropped.append(f"{name} record {doc_id}: not a valid play count")
                        continue
                    if key in self._plays:  # the same day twice: add them up in the first record
                        table0, id0, count0 = self._plays[key]
                        clean.get(table0, keep)[str(id0)] = {"game": key[0], "day": key[1], "count": count0 + count}
                        self._plays[key] = (table0, id0, count0 + count)
                        dropped.append(f"{name} record {doc_id}: {key[0]} {key[1]} counted twice (added up)")
                        continue
                    keep[doc_id] = dict(doc)
                    self._plays[key] = (name, int(doc_id), count)
                if keep:
                    clean[name] = keep
            elif name.startswith(("scores/", "plays/")):
                dropped.append(f"table {name[:40]!r} is not a scores or plays table")
            else:
                clean[name] = table  # a table of a newer version: kept as it is
        for name, doc in self._storage.dropped_docs:  # left out for their id: their seq is still never reused
            m = _SCORE_TABLE.match(name)
            seq = doc.get("seq")
            if m and isinstance(seq, int) and not isinstance(seq, bool) and abs(seq) < MAX_SCORE:
                self._next_id[m.group(1)] = max(self._next_id.get(m.group(1), 1), seq + 1)
        # Sorted in pieces and merged (Python-level merge): one sort call over a whole large board would hold the
        # interpreter lock, and this runs in a background thread while the UI draws.
        for game, board in self._boards.items():
            self._boards[game] = _sorted_in_pieces(board)
        for game, times in self._by_time.items():
            self._by_time[game] = _sorted_in_pieces(times)
        #: What was wrong with the file at open (for the operator menu); empty when it was fine.
        self.problems = list(self._storage.problems) + dropped
        self.skipped = len(self.problems) if data or dropped else 0
        if data and self.problems:
            log.warning("%s: left out %d damaged record(s): %s", self.path, self.skipped, "; ".join(self.problems[:5]))
            self._storage.set_aside_copy("; ".join(self.problems[:3]))
            try:
                self._storage.write(clean)
            except StorageError as exc:
                log.error("%s: the cleaned file could not be written (%s); it is used from memory", self.path, exc)
                self._storage.replace_in_memory(clean)
        self.quarantined = self._storage.quarantined

    def _entry_from_doc(self, game: str, doc: Any) -> ScoreEntry | None:
        try:
            details = doc.get("details", {})
            if not isinstance(details, dict) or set(doc) - {"seq", "name", "score", "at", "details"}:
                return None
            if details:
                if not safejson.check_depth(details, 8):
                    return None
                _check_details(details)
            at = doc["at"]
            if not isinstance(at, str) or len(at) > 40:
                return None
            return ScoreEntry(
                check_game(game),
                check_score(doc["seq"]),
                check_name(doc["name"]),
                check_score(doc["score"]),
                _as_aware(datetime.fromisoformat(at)),
                details,
            )
        except (KeyError, TypeError, ValueError, OverflowError):
            return None

    # --- ordering ---------------------------------------------------------------------------------------
    def lower_is_better(self, game: str) -> bool:
        """The ordering used for ``game``: as the caller's ``lower_is_better`` says (the kiosk passes every game's
        and time trial's, from the registry it was given), else False (higher is better)."""
        return self._overrides.get(game, False)

    def _key(self, game: str, score: int, at: datetime, seq: int) -> tuple[float, float, int]:
        return (score if self.lower_is_better(game) else -score, at.timestamp(), seq)

    def _mirror_add(self, entry: ScoreEntry, table: str, doc_id: int, sort: bool = True) -> None:
        g = entry.game
        key = self._key(g, entry.score, entry.at, entry.id)
        board, times = self._boards.setdefault(g, []), self._by_time.setdefault(g, [])
        if sort:
            bisect.insort(board, (key, entry))
            bisect.insort(times, (entry.at.timestamp(), entry.id, key, entry))
        else:  # loading: sorted once at the end
            board.append((key, entry))
            times.append((entry.at.timestamp(), entry.id, key, entry))
        self._where[(g, entry.id)] = (table, doc_id)
        self._next_id[g] = max(self._next_id.get(g, 1), entry.id + 1)

    # --- writing ----------------------------------------------------------------------------------------
    def add(self, game: str, name: str, score: int, **details: Any) -> ScoreEntry:
        """Store an entry durably and return it. ``ValueError`` for a bad name/score/details (nothing stored);
        :class:`StorageError` if the card refuses the write (nothing stored)."""
        game = check_game(game)
        name = check_name(name)
        score = check_score(score)
        details = _check_details(details)
        with self._lock:
            at = _as_aware(self._clock())
            at = at.replace(microsecond=at.microsecond // 1000 * 1000)  # the file keeps milliseconds
            seq = self._next_id.get(game, 1)
            chunks = self._chunks.setdefault(game, set())
            # A chunk takes CHUNK documents and is never refilled after pruning (its doc ids only grow);
            # chunk numbers only grow too, so a dropped chunk's name is never reused.
            last = max((c for g, c in self._filled if g == game), default=0)
            chunk = last if last in chunks and self._filled[(game, last)] < self.chunk_size else last + 1
            table = f"scores/{game}/{chunk:06d}"
            doc: dict[str, Any] = {
                "seq": seq,
                "name": name,
                "score": score,
                "at": at.isoformat(timespec="milliseconds"),
            }
            if details:
                doc["details"] = details
            doc_id = self._db.table(table).insert(doc)
            entry = ScoreEntry(game, seq, name, score, at, details)
            chunks.add(chunk)
            self._filled[(game, chunk)] = doc_id
            self._mirror_add(entry, table, doc_id)
            if len(self._boards[game]) > self.max_entries + max(1, self.max_entries // 20):
                self._prune(game)
            return entry

    def _prune(self, game: str) -> None:
        """Drop the oldest entries beyond the cap, never the all-time best ``keep_best``.

        One write per chunk touched (a chunk that empties is dropped whole). The entry that triggered the prune
        is already saved, so a failing write here is logged, not raised: the prune is tried again later.
        """
        board = self._boards[game]
        excess = len(board) - self.max_entries
        protected = {e.id for _, e in board[: self.keep_best]}
        victims = sorted((e for _, e in board if e.id not in protected), key=lambda e: (e.at, e.id))[:excess]
        by_table: dict[str, list[ScoreEntry]] = {}
        for e in victims:
            by_table.setdefault(self._where[(game, e.id)][0], []).append(e)
        removed = 0
        for table, entries in by_table.items():
            t = self._db.table(table)
            try:
                if len(entries) == len(t):  # the whole chunk goes
                    self._db.drop_table(table)
                    self._chunks[game].discard(int(table.rsplit("/", 1)[1]))
                else:
                    t.remove(doc_ids=[self._where[(game, e.id)][1] for e in entries])
            except StorageError as exc:
                log.error("pruning %s stopped: %s", game, exc)
                break
            gone = {e.id for e in entries}
            self._boards[game] = [(k, e) for k, e in self._boards[game] if e.id not in gone]
            self._by_time[game] = [x for x in self._by_time[game] if x[1] not in gone]
            for e in entries:
                del self._where[(game, e.id)]
            removed += len(entries)
        log.info("%s: pruned %d old %s entries (cap %d)", self.path, removed, game, self.max_entries)

    def record_play(self, game: str, when: datetime | date | None = None) -> int:
        """Count one played game for ``game`` on the local day of ``when`` (default now); returns that day's count."""
        game = check_game(game)
        with self._lock:
            day = (
                when
                if isinstance(when, date) and not isinstance(when, datetime)
                else _as_aware(when or self._clock()).date()
            )
            key = (game, day.isoformat())
            if key in self._plays:
                table, doc_id, count = self._plays[key]
                self._db.table(table).update({"count": count + 1}, doc_ids=[doc_id])
                self._plays[key] = (table, doc_id, count + 1)
                return count + 1
            table = f"plays/{day.year}"
            doc_id = self._db.table(table).insert({"game": game, "day": key[1], "count": 1})
            self._plays[key] = (table, doc_id, 1)
            return 1

    def reset(self, game: str) -> int:
        """Empty one game's board (operator menu); returns how many entries were removed. Play counts stay."""
        game = check_game(game)
        with self._lock:
            removed = len(self._boards.get(game, []))
            for chunk in sorted(self._chunks.get(game, {})):
                self._db.drop_table(f"scores/{game}/{chunk:06d}")
            self._boards.pop(game, None)
            self._by_time.pop(game, None)
            self._chunks.pop(game, None)
            for key in [k for k in self._where if k[0] == game]:
                del self._where[key]
            for key in [k for k in self._filled if k[0] == game]:
                del self._filled[key]
            # ids keep counting up (self._next_id) so an old entry id never names a new entry in this run
            return removed

    def reset_play_counts(self, game: str | None = None) -> None:
        """Forget play counts (all games, or one)."""
        with self._lock:
            keys = [k for k in self._plays if game is None or k[0] == game]
            by_table: dict[str, list[int]] = {}
            for k in keys:
                table, doc_id, _ = self._plays.pop(k)
                by_table.setdefault(table, []).append(doc_id)
            for table, ids in by_table.items():
                self._db.table(table).remove(doc_ids=ids)

    # --- reading ----------------------------------------------------------------------------------------
    def start_of_today(self) -> datetime:
        """Local midnight of the kiosk clock's current day (the cut-off of "today's board")."""
        return _as_aware(self._clock()).replace(hour=0, minute=0, second=0, microsecond=0)

    def top(self, game: str, n: int = 10, since: datetime | date | None = None) -> list[ScoreEntry]:
        """The best ``n`` entries of ``game``, best first; only those made at or after ``since`` if given."""
        with self._lock:
            board = self._boards.get(game, [])
            if since is None:
                return [e for _, e in board[:n]]
            cut = _as_aware(since)
            times = self._by_time.get(game, [])
            start = bisect.bisect_left(times, (cut.timestamp(),))
            if (len(times) - start) * 4 < len(board):  # few recent entries (today's board): rank just those
                return [t[3] for t in heapq.nsmallest(n, times[start:], key=lambda t: t[2])]
            out = []
            for _, e in board:
                if e.at >= cut:
                    out.append(e)
                    if len(out) >= n:
                        break
            return out

    def top_today(self, game: str, n: int = 10) -> list[ScoreEntry]:
        """Today's board (since local midnight)."""
        return self.top(game, n, since=self.start_of_today())

    def rank(self, entry: ScoreEntry, since: datetime | date | None = None) -> int | None:
        """1-based place of ``entry`` on the board (all-time, or since ``since``); None if it is not on it."""
        with self._lock:
            cut = None if since is None else _as_aware(since)
            place = 0
            for _, e in self._boards.get(entry.game, []):
                if cut is None or e.at >= cut:
                    place += 1
                    if e.id == entry.id:
                        return place
            return None

    def qualifies(self, game: str, score: int, n: int = 10, since: datetime | date | None = None) -> bool:
        """Would ``score`` made now enter the top ``n`` (all-time or since ``since``)? Ask for initials if so."""
        score = check_score(score)
        with self._lock:
            new_key = self._key(game, score, _as_aware(self._clock()), self._next_id.get(game, 1))
            best = self.top(game, n, since)
            return len(best) < n or self._key(game, best[-1].score, best[-1].at, best[-1].id) > new_key

    def count(self, game: str) -> int:
        """How many entries ``game``'s board holds."""
        with self._lock:
            return len(self._boards.get(game, []))

    def games(self) -> list[str]:
        """Games with at least one entry or play count, sorted."""
        with self._lock:
            return sorted({g for g, b in self._boards.items() if b} | {g for g, _ in self._plays})

    def play_counts(
        self, game: str | None = None, since: date | None = None, until: date | None = None
    ) -> dict[str, dict[str, int]]:
        """Plays per game and local day: ``{"makoto": {"2026-11-29": 12, ...}, ...}`` (days ascending).

        ``since``/``until`` are inclusive dates; ``game`` limits to one game.
        """
        with self._lock:
            out: dict[str, dict[str, int]] = {}
            for (g, day), (_, _, count) in sorted(self._plays.items()):
                if game is not None and g != game:
                    continue
                if (since is not None and day < since.isoformat()) or (until is not None and day > until.isoformat()):
                    continue
                out.setdefault(g, {})[day] = count
            return out

    def play_totals(self, since: date | None = None, until: date | None = None) -> dict[str, int]:
        """Total plays per game over the (inclusive) date range."""
        return {g: sum(days.values()) for g, days in self.play_counts(since=since, until=until).items()}

    @property
    def last_write_bytes(self) -> int:
        """Size of the file after the last write (the cost of each ``add`` grows with it)."""
        return self._storage.last_write_bytes


class UnavailableHighScores:
    """Stands in for :class:`HighScores` when storage cannot be used: ``available`` is False, ``reason`` says why.

    Reads return empty boards; writes raise :class:`StorageUnavailable` with ``reason``. The UI shows
    "High scores unavailable" (and may show ``reason`` in the operator menu) and skips name entry.
    """

    available = False
    quarantined = None
    last_write_bytes = 0

    def __init__(
        self, reason: str, path: Path | None = None, lower_is_better: Mapping[str, bool] | None = None
    ) -> None:
        self.reason = reason
        self.path = path
        self._lower = {str(g): bool(v) for g, v in (lower_is_better or {}).items()}

    def add(self, game: str, name: str, score: int, **details: Any) -> ScoreEntry:
        raise StorageUnavailable(self.reason)

    def record_play(self, game: str, when: datetime | date | None = None) -> int:
        raise StorageUnavailable(self.reason)

    def reset(self, game: str) -> int:
        raise StorageUnavailable(self.reason)

    def reset_play_counts(self, game: str | None = None) -> None:
        raise StorageUnavailable(self.reason)

    def top(self, game: str, n: int = 10, since: datetime | date | None = None) -> list[ScoreEntry]:
        return []

    def top_today(self, game: str, n: int = 10) -> list[ScoreEntry]:
        return []

    def start_of_today(self) -> datetime:
        return _local_now().replace(hour=0, minute=0, second=0, microsecond=0)

    def rank(self, entry: ScoreEntry, since: datetime | date | None = None) -> int | None:
        return None

    def qualifies(self, game: str, score: int, n: int = 10, since: datetime | date | None = None) -> bool:
        return False

    def count(self, game: str) -> int:
        return 0

    def games(self) -> list[str]:
        return []

    def play_counts(
        self, game: str | None = None, since: date | None = None, until: date | None = None
    ) -> dict[str, dict[str, int]]:
        return {}

    def play_totals(self, since: date | None = None, until: date | None = None) -> dict[str, int]:
        return {}

    def lower_is_better(self, game: str) -> bool:
        return self._lower.get(game, False)

    def close(self) -> None:
        pass

    def __enter__(self) -> UnavailableHighScores:
        return self

    def __exit__(self, *exc: object) -> None:
        pass
