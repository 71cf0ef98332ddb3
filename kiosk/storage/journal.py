"""Game journals: every applied action of the game in progress is on the card before the table sees its result,
so a game interrupted by a crash or a power cut can be offered back and rebuilt by replay.

Typical use by the game screen::

    saved = SavedGames.open_or_unavailable("/var/lib/kiosk/games")     # never raises for storage problems
    for offer in saved.startup():           # newest first; finished/old journals archived, archive pruned
        ask(f"Resume the {offer.title} game from {offer.started:%H:%M}?")
        state, journal = offer.resume()     # rebuilt by replay, journal continues in the same file
        # ...or offer.discard()
    # a new game:
    state = spec.new_game(players, seed)
    journal = saved.start(spec.key, players, seed, state=state, seats=[{"kind": "human"}, ...])
    state.apply(seat, action)
    journal.sync(state)                     # appends the new engine records; returns after fdatasync
    ...
    journal.finish(state.outcome())         # end record, then the file moves to the archive

Rationale and decisions: docs/developer/design.md, section ``kiosk/storage/journal.py``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from kiosk import safejson
from kiosk.bestgames import choose_best, day_played
from kiosk.engine import ChanceMismatch, RuleError, replay_acknowledged

from .atomic import FolderLock, StorageError, atomic_write_bytes, ensure_writable_folder, fsync_dir

__all__ = [
    "SavedGames",
    "UnavailableSavedGames",
    "GameJournal",
    "NullJournal",
    "UnfinishedGame",
    "LoadedJournal",
    "JournalError",
    "load_journal",
    "replay_journal",
]

log = logging.getLogger("kiosk.storage")

FORMAT = 1
SUFFIX = ".jsonl"
#: A journal longer than this is not read (a long Makoto game is well under 1 MB).
MAX_FILE_BYTES = 8 * 2**20
#: The longest line read (one action and the chance records it caused).
MAX_LINE_BYTES = 256 * 1024
#: The deepest nesting of one record.
MAX_DEPTH = 24
_MAX_PLAYERS = 16
_GAME_KEY = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}\Z")


class JournalError(StorageError):
    """A journal cannot be read, replayed or written."""


def _now() -> datetime:
    return datetime.now().astimezone()


def _line(record: Mapping[str, Any]) -> bytes:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8") + b"\n"


def _fsync_data(fd: int) -> None:
    (getattr(os, "fdatasync", None) or os.fsync)(fd)


# ------------------------------------------------------------------------------------------------- loading
@dataclass
class LoadedJournal:
    """What a journal file holds, read without changing it (see :func:`load_journal`)."""

    path: Path
    header: dict[str, Any] | None
    records: list[dict[str, Any]] = field(default_factory=list)  #: the engine records to replay (rewinds applied)
    end: dict[str, Any] | None = None
    seats: list[Any] | None = None  #: the last ``seats`` record (who sits where now), if the game wrote one
    good_size: int = 0  #: bytes up to the end of the last valid line
    ignored_bytes: int = 0  #: a torn or damaged tail that was ignored
    damaged: bool = False  #: a bad line was followed by more lines (something other than a torn last write)
    problem: str = ""  #: why loading stopped early, if it did
    starts: list[int] = field(default_factory=list, repr=False)  #: byte offset of each record's line

    @property
    def actions(self) -> int:
        """How many player actions the journal holds."""
        return sum(1 for r in self.records if "seat" in r)

    @property
    def finished(self) -> bool:
        return self.end is not None


def _check_header(h: Any) -> str | None:
    if not isinstance(h, dict) or h.get("journal") != FORMAT:
        return "no journal header"
    for key, kind in (("id", str), ("game", str), ("players", int), ("seed", int), ("started", str)):
        if not isinstance(h.get(key), kind) or isinstance(h.get(key), bool):
            return f"header field {key!r} missing or wrong"
    if not _GAME_KEY.match(h["game"]) or len(h["id"]) > 200:
        return "header field 'game' or 'id' is not a key"
    if not 1 <= h["players"] <= _MAX_PLAYERS or abs(h["seed"]) >= 2**63:
        return "header field 'players' or 'seed' out of range"
    try:
        datetime.fromisoformat(h["started"])
    except ValueError:
        return "header field 'started' is not a time"
    if h.get("setup") is not None and not isinstance(h["setup"], dict):
        return "header field 'setup' is not an object"
    if h.get("meta") is not None and not isinstance(h["meta"], dict):
        return "header field 'meta' is not an object"
    if h.get("seats") is not None and not isinstance(h["seats"], list):
        return "header field 'seats' is not a list"
    return None


def load_journal(path: str | os.PathLike[str], *, upto: int | None = None) -> LoadedJournal:
    """Read a journal file. Never raises for bad content: a missing/invalid header gives ``header=None``; loading
    stops at the first line that is not a complete valid record (a torn last write) and reports it.

    ``upto``: read only the first ``upto`` bytes, as if the file ended there (the rest counts as ignored); used
    to drop an action whose chance records did not reach the card (:func:`replay_journal`)."""
    path = Path(path)
    out = LoadedJournal(path, None)
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        out.ignored_bytes = size
        out.problem = f"{size} bytes, more than the {MAX_FILE_BYTES} a journal may have"
        return out
    with open(path, "rb") as fh:
        raw = fh.read(MAX_FILE_BYTES + 1 if upto is None else min(upto, MAX_FILE_BYTES + 1))
    pos = 0
    first = True
    problem = ""
    while pos < len(raw):
        nl = raw.find(b"\n", pos, pos + MAX_LINE_BYTES + 1)
        if nl < 0:
            problem = "torn last line (no newline)" if len(raw) - pos <= MAX_LINE_BYTES else f"line too long at {pos}"
            break
        try:
            rec = safejson.loads(raw[pos:nl], max_depth=MAX_DEPTH)
        except safejson.Unreadable as exc:
            problem = f"unreadable line at byte {pos} ({exc})"
            break
        if first:
            bad = _check_header(rec)
            if bad:
                problem = bad
                break
            out.header = rec
            first = False
        elif not isinstance(rec, dict) or "journal" in rec:
            problem = f"not a record at byte {pos}"
            break
        elif "rewind" in rec:
            if not (
                set(rec) == {"rewind"} and isinstance(rec["rewind"], int) and 0 <= rec["rewind"] <= len(out.records)
            ):
                problem = f"bad rewind at byte {pos}"
                break
            del out.records[rec["rewind"] :]
            del out.starts[rec["rewind"] :]
        elif "seats" in rec:
            if not (set(rec) == {"seats"} and isinstance(rec["seats"], list)):
                problem = f"bad seats record at byte {pos}"
                break
            out.seats = rec["seats"]
        elif "end" in rec:
            out.end = rec
            pos = nl + 1
            break
        else:
            # An engine record: {"seat", "action"}, {"chance", "order"}, or a kind a newer engine adds. Only
            # replay judges it; a torn line never gets here (no prefix of a JSON object parses).
            out.records.append(rec)
            out.starts.append(pos)
        pos = nl + 1
    out.good_size = pos if out.header is not None else 0
    out.ignored_bytes = (len(raw) if upto is None else size) - out.good_size
    if problem and not out.ignored_bytes:  # a bad header on an otherwise empty file
        out.problem = problem
    if problem and out.ignored_bytes:
        out.problem = problem
        rest = raw[pos:]
        nl = rest.find(b"\n")
        out.damaged = nl >= 0 and bool(rest[nl + 1 :].strip(b"\0 \n"))
    return out


def replay_journal(loaded: LoadedJournal, spec: Any) -> tuple[Any, LoadedJournal]:
    """Replay a loaded journal with the game's ``spec`` to its last acknowledged action.

    Returns the state and the journal as acknowledged: ``loaded`` itself, or, when the last action's chance
    records did not all reach the card (a kill or a power cut inside its write), the file read again up to the
    start of that action's line (:func:`load_journal` with ``upto``), so its ``records``, ``actions`` and
    ``seats`` leave the action out and ``good_size``/``ignored_bytes`` make a resume cut its lines off before
    appending. Raises what :func:`kiosk.engine.replay` raises for a journal that does not fit the game.
    """

    h = loaded.header
    if h is None:
        raise JournalError(f"journal {loaded.path.name} has no header")
    state, used = replay_acknowledged(spec, h["players"], h["seed"], loaded.records, setup=h.get("setup"))
    if used == len(loaded.records):
        return state, loaded
    cut = loaded.starts[used]
    out = load_journal(loaded.path, upto=cut)
    if out.records != loaded.records[:used] or out.good_size != cut:  # the file changed under us
        raise JournalError(f"journal {loaded.path.name} changed while it was replayed")
    out.problem = "the chance record(s) of the last action did not reach the card; that action was dropped"
    return state, out


# ------------------------------------------------------------------------------------------------- writers
class GameJournal:
    """The append-only journal of one game in progress. Made by :meth:`SavedGames.start` or
    :meth:`UnfinishedGame.resume`; the game screen calls :meth:`sync` after every ``state.apply``."""

    durable = True

    def __init__(
        self, path: Path, header: dict[str, Any], records: list[dict[str, Any]], saved: SavedGames | None
    ) -> None:
        self.path = path
        self.header = header
        self._records = list(records)
        self._saved = saved
        self._fd: int | None = os.open(path, os.O_WRONLY | os.O_APPEND)
        self._good_size = os.fstat(self._fd).st_size  # the end of the last complete write
        self._write_lock = threading.RLock()  # a bot thread and the UI may both sync
        #: Why the last write failed (None while healthy); the next ``sync`` tries again.
        self.error: str | None = None
        #: Writes that failed in this game, and when the last one failed / the last good one was made.
        self.failed_writes = 0
        self.last_failure: datetime | None = None
        self.last_write: datetime | None = None
        #: A ``seats`` record whose write failed: written before the next records.
        self._seats_unsaved: dict[str, Any] | None = None

    id = property(lambda self: self.header["id"])
    game = property(lambda self: self.header["game"])
    players = property(lambda self: self.header["players"])
    seed = property(lambda self: self.header["seed"])

    @property
    def records(self) -> list[dict[str, Any]]:
        """The engine records on the card (what a replay would use)."""
        return list(self._records)

    def append(self, *records: Mapping[str, Any]) -> None:
        """Append engine records (one write, one fdatasync). Raises :class:`JournalError` if it fails."""
        self._write([dict(r) for r in records], records)

    def _write(
        self, lines: list[Mapping[str, Any]], new_records: Sequence[Mapping[str, Any]], keep: int | None = None
    ) -> None:
        if self._fd is None:
            raise JournalError(f"journal {self.path.name} is closed")
        try:
            blob = b"".join(_line(r) for r in lines)
        except (TypeError, ValueError) as exc:
            raise JournalError(f"journal record is not JSON: {exc}") from exc
        with self._write_lock:
            try:
                if os.fstat(self._fd).st_size > self._good_size:  # part of a failed write reached the file
                    os.ftruncate(self._fd, self._good_size)
                view = memoryview(blob)
                while view:
                    view = view[os.write(self._fd, view) :]
                _fsync_data(self._fd)
            except OSError as exc:
                raise JournalError(f"could not write journal {self.path}: {exc.strerror or exc}") from exc
            self._good_size += len(blob)
            if keep is not None:
                del self._records[keep:]
            self._records.extend(new_records)  # type: ignore[arg-type]

    def set_seats(self, seats: Sequence[Mapping[str, Any]]) -> bool:
        """Record who sits where now (a ``seats`` record, one write and fdatasync), e.g. after a human left and a
        bot took the seat, so a resumed game keeps the bot there. True once it is durable; on a write error it is
        logged, ``error`` set, False returned, and the record is written with the next :meth:`sync`."""
        record = {"seats": [dict(s) for s in seats]}
        with self._write_lock:
            self._seats_unsaved = record
            return self._sync(list(self._records))

    def sync(self, state: Any) -> bool:
        """Append what ``state.journal`` holds beyond what is on the card; True once it is durable.

        If the state's journal got shorter or different (an undo), a ``rewind`` record comes first. On a write
        error: logged, ``error`` set, False returned; the game goes on and the next call tries again with every
        record not yet on the card (``error`` is cleared when that works).
        """
        if state.journal is None:
            raise ValueError("this state keeps no journal (a clone?)")
        with self._write_lock:
            return self._sync(list(state.journal))

    @property
    def state(self) -> str:
        """``"on"`` (every action on the card), ``"retrying"`` (the last write failed; the next action tries
        again) or ``"closed"``."""
        if self._fd is None:
            return "closed"
        return "on" if self.error is None else "retrying"

    def _sync(self, journal: list[dict[str, Any]]) -> bool:
        if self._fd is None:
            return False
        n = len(self._records)
        if len(journal) >= n and journal[:n] == self._records:
            new = list(journal[n:])
            lines: list[Mapping[str, Any]] = list(new)
            keep = None
        else:
            keep = 0
            for a, b in zip(journal, self._records):
                if a != b:
                    break
                keep += 1
            new = list(journal[keep:])
            lines = [{"rewind": keep}, *new]
        if self._seats_unsaved is not None:
            lines.insert(0, self._seats_unsaved)
        if not lines:
            return True
        try:
            self._write(lines, new, keep)
        except JournalError as exc:
            if self.error is None:
                log.error("journaling stopped for game %s (tried again at the next action): %s", self.path.name, exc)
            self.error = str(exc)
            self.failed_writes += 1
            self.last_failure = _now()
            return False
        if self.error is not None:
            log.warning(
                "journaling of game %s works again after %d failed write(s)", self.path.name, self.failed_writes
            )
            self.error = None
        self._seats_unsaved = None
        self.last_write = _now()
        return True

    def finish(self, outcome: Any = None) -> Path | None:
        """Write the end record (``outcome``: an engine ``Outcome``, a dict or None) and move to the archive."""
        out: Any = outcome
        if outcome is not None and not isinstance(outcome, Mapping):
            out = {"scores": list(outcome.scores), "winners": list(outcome.winners), "reason": outcome.reason}
        return self._end("finished", "over", out)

    def abandon(self, reason: str = "abandoned") -> Path | None:
        """End an unfinished game (players quit) and move its journal to the archive."""
        return self._end("abandoned", reason, None)

    def _end(self, kind: str, reason: str, outcome: Any) -> Path | None:
        if self._fd is None:
            return None
        # Even after failed writes: records missing from the card do not matter once the game has ended.
        try:
            self._write(
                [{"end": kind, "at": _now().isoformat(timespec="seconds"), "reason": reason, "outcome": outcome}],
                [],
            )
        except JournalError as exc:
            log.error("%s", exc)
        self.close()
        if self._saved is None:
            return None
        try:
            return self._saved._archive(self.path)
        except OSError as exc:
            log.error("could not archive %s: %s", self.path, exc)
            return None

    def close(self) -> None:
        """Close the file without ending the game (it stays resumable)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # interpreter shutdown
            self.close()


class NullJournal:
    """A journal that keeps nothing (storage unavailable): same verbs, ``durable`` is False."""

    durable = False
    error: str | None = "storage unavailable"
    path = None
    state = "off"
    failed_writes = 0

    def __init__(self, header: dict[str, Any] | None = None) -> None:
        self.header = header or {}
        self.records: list[dict[str, Any]] = []

    id = property(lambda self: self.header.get("id"))
    game = property(lambda self: self.header.get("game"))
    players = property(lambda self: self.header.get("players"))
    seed = property(lambda self: self.header.get("seed"))

    def append(self, *records: Mapping[str, Any]) -> None:
        pass

    def set_seats(self, seats: Sequence[Mapping[str, Any]]) -> bool:
        return False

    def sync(self, state: Any) -> bool:
        return False

    def finish(self, outcome: Any = None) -> None:
        return None

    def abandon(self, reason: str = "abandoned") -> None:
        return None

    def close(self) -> None:
        pass


# -------------------------------------------------------------------------------------------- resume offers
@dataclass
class UnfinishedGame:
    """An interrupted game found at start: everything the "Resume the Makoto game from 14:05?" dialog needs."""

    loaded: LoadedJournal = field(repr=False)
    saved: SavedGames = field(repr=False)
    title: str
    last_activity: datetime

    id = property(lambda self: self.header["id"])
    game = property(lambda self: self.header["game"])
    players = property(lambda self: self.header["players"])
    seed = property(lambda self: self.header["seed"])
    meta = property(lambda self: self.header.get("meta") or {})

    @property
    def seats(self) -> Any:
        """Who sits where: the header's list, or the last ``seats`` record (a bot took a seat during the game)."""
        return self.loaded.seats if self.loaded.seats is not None else self.header.get("seats")

    @property
    def header(self) -> dict[str, Any]:
        assert self.loaded.header is not None
        return self.loaded.header

    @property
    def started(self) -> datetime:
        """When the game started (local time with offset, as written in the header)."""
        return datetime.fromisoformat(self.header["started"])

    @property
    def actions(self) -> int:
        return self.loaded.actions

    @property
    def path(self) -> Path:
        return self.loaded.path

    def replay(self) -> Any:
        """Rebuild the exact position of the last acknowledged action on the card. Raises :class:`JournalError`.

        A last action whose chance records did not reach the card is dropped here (see :func:`replay_journal`):
        from then on ``actions`` and ``loaded`` describe the journal without it, and :meth:`resume` cuts its
        lines off the file."""
        state, self.loaded = self.saved._replay(self.loaded)
        return state

    def resume(self) -> tuple[Any, GameJournal]:
        """Replay, cut off a torn tail, and continue journaling in the same file."""
        state = self.replay()
        if state.journal is not None and list(state.journal) != self.loaded.records:
            raise JournalError(f"replaying {self.path.name} did not reproduce its journal")
        return state, self.saved._reopen(self.loaded)

    def discard(self, reason: str = "declined") -> Path | None:
        """The table declined: mark the journal abandoned and archive it."""
        return self.saved._abandon_file(self.loaded, reason)


# -------------------------------------------------------------------------------------------------- folder
class SavedGames:
    """The folder of game journals: ``<root>/active`` (games in progress) and ``<root>/archive``.

    ``max_age``: unfinished games whose last write is older are not offered (archived as abandoned).
    ``archive_limit_bytes``: the archive is pruned to this size, oldest first. ``specs``: game key ->
    ``GameSpec`` used to replay (the app passes its games; a game without a spec here is not offered).
    ``clock``: returns the local aware time.
    Raises :class:`StorageUnavailable` if the folder cannot be written or is in use by another process.
    """

    available = True
    reason = ""

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        max_age: timedelta = timedelta(hours=1),
        archive_limit_bytes: int = 16 * 2**20,
        specs: Mapping[str, Any] | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.root = Path(root)
        self.active = self.root / "active"
        self.archive = self.root / "archive"
        self.max_age = max_age
        self.archive_limit_bytes = archive_limit_bytes
        self.specs: Mapping[str, Any] = dict(specs or {})
        self._clock = clock or _now
        for folder in (self.root, self.active, self.archive):
            ensure_writable_folder(folder, "saved games")
        self._lock = FolderLock(self.active, "saved games")
        #: Journals archived at start because they could not be read or replayed: (file name, reason).
        self.set_aside: list[tuple[str, str]] = []
        #: Why the last new journal could not be created (None if the last one was).
        self.last_error: str | None = None
        self._remove_temps()

    @classmethod
    def open_or_unavailable(cls, root: str | os.PathLike[str], **kwargs: Any) -> SavedGames | UnavailableSavedGames:
        """Open the folder, or return an :class:`UnavailableSavedGames` (logged): never raises for storage."""
        try:
            return cls(root, **kwargs)
        except (StorageError, OSError) as exc:
            log.error("saved games unavailable: %s", exc)
            return UnavailableSavedGames(str(exc))

    def close(self) -> None:
        self._lock.release()

    def __enter__(self) -> SavedGames:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- starting a game --------------------------------------------------------------------------------
    def start(
        self,
        game: str,
        players: int,
        seed: int,
        *,
        state: Any = None,
        seats: Any = None,
        meta: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> GameJournal:
        """Create the journal of a new game. Pass the freshly made ``state`` so records made during set-up (the
        first deal) are written with the header; ``seats`` (who sits where, bot levels) and ``meta`` are any
        JSON the screen wants back on resume; ``setup`` is the engine set-up the game was started with beyond
        its seed (``GameSpec.setup_game``), which replay needs."""
        if not isinstance(game, str) or not _GAME_KEY.match(game):
            raise ValueError(f"Not a game key: {game!r}")
        started = self._clock()
        name = f"{started:%Y%m%d-%H%M%S}-{game}-{secrets.token_hex(3)}"
        header = {
            "journal": FORMAT,
            "id": name,
            "game": game,
            "players": int(players),
            "seed": int(seed),
            "seats": seats,
            "meta": dict(meta or {}),
            "started": started.isoformat(timespec="seconds"),
        }
        if setup:
            header["setup"] = dict(setup)
        if _check_header(header):
            raise ValueError(f"bad journal header: {_check_header(header)}")
        records = list(state.journal) if state is not None and state.journal is not None else []
        try:
            blob = _line(header) + b"".join(_line(r) for r in records)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"journal header or records are not JSON: {exc}") from exc
        path = self.active / (name + SUFFIX)
        try:
            atomic_write_bytes(path, blob)
        except OSError as exc:
            self.last_error = f"could not create journal {path}: {exc.strerror or exc}"
            raise JournalError(self.last_error) from exc
        self.last_error = None
        return GameJournal(path, header, records, self)

    # --- start-up ---------------------------------------------------------------------------------------
    def unfinished(self) -> list[UnfinishedGame]:
        """Unfinished journals in ``active`` (read only: nothing is archived or checked by replay)."""
        out = []
        for path in self._active_files():
            try:
                loaded = load_journal(path)
                mtime = path.stat().st_mtime
            except (OSError, ValueError):
                continue
            if loaded.header is None or loaded.end is not None:
                continue
            spec = self.specs.get(loaded.header["game"])
            title = getattr(spec, "title", None) or loaded.header["game"]
            out.append(UnfinishedGame(loaded, self, title, datetime.fromtimestamp(mtime).astimezone()))
        out.sort(key=lambda g: (g.last_activity, g.id), reverse=True)
        return out

    def startup(self, verify: bool = True) -> list[UnfinishedGame]:
        """Tidy the folder and return the games to offer back, newest first (see the module docstring).

        ``verify`` replays each candidate once, so only games that really rebuild are offered.
        """
        self._remove_temps()
        offers = []
        for path in self._active_files():
            try:
                offer = self._startup_one(path, verify)
            except Exception as exc:  # one journal must never stop the others from being offered
                log.error("journal %s could not be checked (%s); archived", path.name, exc)
                self._set_aside(path, f"could not be checked: {exc}")
                continue
            if offer is not None:
                offers.append(offer)
        try:
            self.prune_archive()
        except OSError as exc:
            log.error("could not prune the journal archive: %s", exc)
        offers.sort(key=lambda g: (g.last_activity, g.id), reverse=True)
        return offers

    def _set_aside(self, path: Path, reason: str) -> None:
        self.set_aside.append((path.name, reason))
        try:
            self._archive(path)
        except OSError as exc:
            log.error("could not archive %s: %s", path, exc)

    def _startup_one(self, path: Path, verify: bool) -> UnfinishedGame | None:
        try:
            loaded = load_journal(path)
        except OSError as exc:
            log.error("cannot read journal %s: %s", path, exc)
            return None
        if loaded.header is None:
            log.warning("journal %s has no valid header (%s); archived", path.name, loaded.problem)
            self._set_aside(path, loaded.problem or "no valid header")
            return None
        if loaded.end is not None:
            self._archive(path)
            return None
        if loaded.damaged:
            log.warning(
                "journal %s is damaged after action %d (%s); the game is offered up to there",
                path.name,
                loaded.actions,
                loaded.problem,
            )
        last = datetime.fromtimestamp(path.stat().st_mtime).astimezone()
        age = self._clock() - last
        if age > self.max_age:
            self._abandon_file(loaded, f"not resumed within {self.max_age}")
            return None
        spec = self.specs.get(loaded.header["game"])
        if spec is None:
            self._abandon_file(loaded, "game not installed")
            return None
        offer = UnfinishedGame(loaded, self, getattr(spec, "title", loaded.header["game"]), last)
        if verify:
            try:
                offer.replay()
            except JournalError as exc:
                log.warning("%s", exc)
                self.set_aside.append((path.name, f"does not replay: {exc}"))
                self._abandon_file(loaded, f"does not replay: {exc}")
                return None
        return offer

    def archived(self) -> list[Path]:
        """Archived journals, oldest first."""
        return sorted(
            (p for p in self.archive.iterdir() if p.is_file() and not p.name.startswith(".")),
            key=lambda p: (p.stat().st_mtime, p.name),
        )

    def archive_size(self) -> int:
        return sum(p.stat().st_size for p in self.archived())

    def keep(self) -> set[str]:
        """The archived journals pruning leaves: the day's best games (:mod:`kiosk.bestgames`, replayed in attract
        mode), kept until the next day even over the size limit."""

        lower = {k: bool(getattr(s, "lower_is_better", False)) for k, s in self.specs.items()}
        best = choose_best(day_played(self.archive, self._clock().date()), lower)
        return {p.path.name for p in best.values()}

    def journal_bytes(self) -> int:
        """What the journals take on the card: the games in progress and the archive."""
        active = sum(p.stat().st_size for p in self._active_files())
        return active + self.archive_size()

    def prune_archive(self) -> int:
        """Delete the oldest archived journals until the archive fits ``archive_limit_bytes``; returns how many.
        The journals :meth:`keep` names (the day's best games, replayed in attract mode) stay, over the limit if
        need be."""
        files = [(p, p.stat().st_size) for p in self.archived()]
        total = sum(s for _, s in files)
        removed = 0
        kept = self.keep() if total > self.archive_limit_bytes else set()
        for p, size in files:
            if total <= self.archive_limit_bytes:
                break
            if p.name in kept:
                continue
            p.unlink()
            total -= size
            removed += 1
        if removed:
            fsync_dir(self.archive)
            log.info("pruned %d archived journal(s) to stay under %d bytes", removed, self.archive_limit_bytes)
        return removed

    # --- internals --------------------------------------------------------------------------------------
    def _active_files(self) -> list[Path]:
        return sorted(
            p for p in self.active.iterdir() if p.is_file() and p.suffix == SUFFIX and not p.name.startswith(".")
        )

    def _remove_temps(self) -> None:
        for p in self.active.glob(".*.tmp-*"):
            try:
                p.unlink()
                log.info("removed stale temporary file %s", p)
            except FileNotFoundError:
                pass

    def _archive(self, path: Path) -> Path:
        dest = self.archive / path.name
        os.replace(path, dest)
        fsync_dir(self.archive)
        fsync_dir(self.active)
        return dest

    def _replay(self, loaded: LoadedJournal) -> tuple[Any, LoadedJournal]:
        h = loaded.header
        assert h is not None
        spec = self.specs.get(h["game"])
        if spec is None:
            raise JournalError(f"journal {loaded.path.name}: game {h['game']!r} is not installed")
        try:
            state, acknowledged = replay_journal(loaded, spec)
        except (RuleError, ChanceMismatch) as exc:
            raise JournalError(f"journal {loaded.path.name} does not replay: {exc}") from exc
        except Exception as exc:  # records from the card are untrusted: any failure of a game's parser is "damaged"
            raise JournalError(f"journal {loaded.path.name} does not replay: {type(exc).__name__}: {exc}") from exc
        if acknowledged is not loaded:
            log.warning(
                "journal %s: %s; the game resumes after action %d",
                loaded.path.name,
                acknowledged.problem,
                acknowledged.actions,
            )
        return state, acknowledged

    def _cut_tail(self, loaded: LoadedJournal) -> None:
        if loaded.ignored_bytes:
            fd = os.open(loaded.path, os.O_WRONLY)
            try:
                os.ftruncate(fd, loaded.good_size)
                os.fsync(fd)
            finally:
                os.close(fd)
            log.info("cut %d torn byte(s) off %s", loaded.ignored_bytes, loaded.path.name)

    def _reopen(self, loaded: LoadedJournal) -> GameJournal:
        assert loaded.header is not None
        self._cut_tail(loaded)
        return GameJournal(loaded.path, loaded.header, loaded.records, self)

    def _abandon_file(self, loaded: LoadedJournal, reason: str) -> Path | None:
        if loaded.header is None:
            return self._archive(loaded.path)
        journal = self._reopen(loaded)
        return journal.abandon(reason)


class UnavailableSavedGames:
    """Stands in for :class:`SavedGames` when the folder cannot be used: games run without crash recovery."""

    available = False
    set_aside: list[tuple[str, str]] = []
    last_error: str | None = None
    archive: Path | None = None  # no archive: nothing is kept

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def start(
        self,
        game: str,
        players: int,
        seed: int,
        *,
        state: Any = None,
        seats: Any = None,
        meta: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> NullJournal:
        return NullJournal({"game": game, "players": players, "seed": seed, "seats": seats, "meta": meta})

    def startup(self, verify: bool = True) -> list[UnfinishedGame]:
        return []

    def unfinished(self) -> list[UnfinishedGame]:
        return []

    def archived(self) -> list[Path]:
        return []

    def archive_size(self) -> int:
        return 0

    def prune_archive(self) -> int:
        return 0

    def journal_bytes(self) -> int:
        return 0

    def close(self) -> None:
        pass
