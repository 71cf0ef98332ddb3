"""The event board's database: SQLite (the standard library's), one file, every record once by its id.

Tables: ``events`` (slug, title, opened, closed), ``tables`` (the tables registered for an event, their status),
``records`` (one finished game per id, as received, with ``hidden`` for an entry the organiser took off the
boards) and ``players`` (one row per seat of a record, for the boards' queries). Written in WAL mode with
``synchronous=FULL``: a commit is on the disk when :meth:`BoardStore.add` returns, because the receipt the
service then sends makes the table forget the game (a power cut after the receipt must not lose it).

A record is taken only when it follows the contract, its event is open, its table registered, every result one
its game can produce (:func:`kiosk.events.contract.check_results`, from the game's spec), and its
``finished_at`` not ahead of this clock by more than :data:`~kiosk.events.contract.CLOCK_SKEW` (a table whose
clock runs ahead keeps the game and sends it again: it is taken once its time has come, never shown early) nor
more than :data:`BEHIND` before the event opened. Boards rank each game by its own spec's ordering (a time
trial's fastest first), never by a flag in a record.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import unicodedata
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from kiosk.events.contract import (
    CLOCK_SKEW,
    MAX_ROWS,
    BoardRules,
    ContractError,
    check_record,
    check_results,
    event_rules,
    parse_utc,
    utc_text,
)

__all__ = ["BoardStore", "Refused", "ROWS", "clean_title"]

#: Rows on each board of the wall page.
ROWS = MAX_ROWS
#: How long before the event opened a record may be (a table's backlog from the day before).
BEHIND = timedelta(days=7)


def clean_title(text: str, fallback: str = "") -> str:
    """An event's title as shown: no control characters (nor halves of broken characters), at most 80."""
    kept = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cs")).strip()
    return (kept or fallback)[:80]


_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (slug TEXT PRIMARY KEY, title TEXT NOT NULL, opened TEXT NOT NULL, closed TEXT);
CREATE TABLE IF NOT EXISTS tables (event TEXT NOT NULL, name TEXT NOT NULL, state TEXT NOT NULL DEFAULT 'unknown',
    seen TEXT, PRIMARY KEY (event, name));
CREATE TABLE IF NOT EXISTS records (id TEXT PRIMARY KEY, event TEXT NOT NULL, tbl TEXT NOT NULL, game TEXT NOT NULL,
    finished_at TEXT NOT NULL, received_at TEXT NOT NULL, lower_is_better INTEGER NOT NULL, body TEXT NOT NULL,
    hidden INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS players (record TEXT NOT NULL REFERENCES records(id), seat INTEGER NOT NULL,
    initials TEXT, score INTEGER NOT NULL, bot INTEGER NOT NULL, winner INTEGER NOT NULL, PRIMARY KEY (record, seat));
CREATE INDEX IF NOT EXISTS records_by_game ON records (event, game, finished_at);
"""


class Refused(Exception):
    """A record the event does not take; the text says why (logged by the caller, one line)."""


class BoardStore:
    """The event board's records in the SQLite file ``path`` (``":memory:"`` for a throwaway one)."""

    def __init__(self, path: str | Path, rules: Mapping[str, BoardRules] | None = None) -> None:
        self.path = str(path)
        #: the boards this event takes, from the games' specs (:func:`~kiosk.events.contract.event_rules`)
        self.rules = dict(rules if rules is not None else event_rules())
        self._lock = threading.Lock()
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self.db.close()

    # ------------------------------------------------------------------------------------------------ events
    def open_event(
        self, slug: str, title: str = "", tables: list[str] | None = None, now: datetime | None = None
    ) -> None:
        """Open (or reopen) the event ``slug``, named ``title`` if given (else as it was, or ``slug`` when new), and
        register ``tables`` for it."""
        with self._lock:
            self.db.execute(
                "INSERT INTO events (slug, title, opened) VALUES (?, ?, ?) ON CONFLICT(slug) DO UPDATE SET "
                "title = CASE WHEN ? != '' THEN excluded.title ELSE events.title END, closed = NULL",
                (slug, clean_title(title, slug), utc_text(now or datetime.now(UTC)), clean_title(title)),
            )
            for name in tables or []:
                self.db.execute("INSERT OR IGNORE INTO tables (event, name) VALUES (?, ?)", (slug, name))

    def ensure_event(self, slug: str, title: str = "", tables: list[str] | None = None) -> None:
        """The event ``slug`` exists (opened now if new; a closed one stays closed), named ``title`` if given,
        with ``tables`` registered: what the service does at every start."""
        with self._lock:
            self.db.execute(
                "INSERT OR IGNORE INTO events (slug, title, opened) VALUES (?, ?, ?)",
                (slug, clean_title(title, slug), utc_text(datetime.now(UTC))),
            )
            if clean_title(title):
                self.db.execute("UPDATE events SET title = ? WHERE slug = ?", (clean_title(title), slug))
            for name in tables or []:
                self.db.execute("INSERT OR IGNORE INTO tables (event, name) VALUES (?, ?)", (slug, name))

    def close_event(self, slug: str, now: datetime | None = None) -> None:
        """Close the event: no more records are taken; its boards stay."""
        with self._lock:
            self.db.execute("UPDATE events SET closed = ? WHERE slug = ?", (utc_text(now or datetime.now(UTC)), slug))

    def event(self, slug: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT slug, title, opened, closed FROM events WHERE slug = ?", (slug,)).fetchone()
        return None if row is None else dict(zip(("slug", "title", "opened", "closed"), row, strict=True))

    def register_table(self, event: str, name: str) -> None:
        with self._lock:
            self.db.execute("INSERT OR IGNORE INTO tables (event, name) VALUES (?, ?)", (event, name))

    def set_status(self, event: str, name: str, state: str, at: str) -> bool:
        """A registered table's status ("online"/"offline"); False for a table the event does not know."""
        with self._lock:
            cur = self.db.execute(
                "UPDATE tables SET state = ?, seen = ? WHERE event = ? AND name = ?", (state, at, event, name)
            )
            return cur.rowcount > 0

    def tables(self, event: str) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT name, state, seen FROM tables WHERE event = ? ORDER BY name", (event,))
        return [{"table": n, "state": s, "seen": seen} for n, s, seen in rows]

    # ------------------------------------------------------------------------------------------------ records
    def add(self, record: Any, now: datetime | None = None) -> bool:
        """Take a record (checked against the contract and the event): True when new, False when already held;
        :class:`Refused` saying why when the event does not take it."""
        try:
            check_results(check_record(record), self.rules)
        except ContractError as exc:
            raise Refused(str(exc)) from exc
        now = now or datetime.now(UTC)
        with self._lock:
            ev = self.db.execute("SELECT opened, closed FROM events WHERE slug = ?", (record["event"],)).fetchone()
            if ev is None:
                raise Refused(f"no event {record['event']!r} here")
            if ev[1] is not None:
                raise Refused(f"the event {record['event']!r} is closed")
            known = self.db.execute(
                "SELECT 1 FROM tables WHERE event = ? AND name = ?", (record["event"], record["table"])
            ).fetchone()
            if known is None:
                raise Refused(f"table {record['table']!r} is not registered for {record['event']!r}")
            finished = parse_utc(record["finished_at"])
            if finished > now + CLOCK_SKEW:
                ahead = (finished - now).total_seconds() / 60
                raise Refused(
                    f"finished_at {record['finished_at']} is {ahead:.0f} min ahead of this clock (the table's clock?):"
                    " taken once its time has come"
                )
            if finished < parse_utc(ev[0]) - BEHIND:
                raise Refused(f"finished_at {record['finished_at']} is too long before the event opened")
            try:
                self.db.execute("BEGIN IMMEDIATE")
                cur = self.db.execute(
                    "INSERT OR IGNORE INTO records (id, event, tbl, game, finished_at, received_at, lower_is_better,"
                    " body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        record["id"],
                        record["event"],
                        record["table"],
                        record["game"],
                        record["finished_at"],
                        utc_text(now),
                        int(self.rules[record["game"]].lower_is_better),  # the game's ordering, not the record's
                        json.dumps(record),
                    ),
                )
                if cur.rowcount:
                    self.db.executemany(
                        "INSERT INTO players (record, seat, initials, score, bot, winner) VALUES (?, ?, ?, ?, ?, ?)",
                        [
                            (record["id"], p["seat"], p["initials"], p["score"], int(p["bot"]), int(p["winner"]))
                            for p in record["players"]
                        ],
                    )
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            return bool(cur.rowcount)

    def hide(self, record_id: str, hidden: bool = True) -> bool:
        """Take a record's entries off the boards (or back on); False for an unknown id."""
        with self._lock:
            return self.db.execute("UPDATE records SET hidden = ? WHERE id = ?", (int(hidden), record_id)).rowcount > 0

    def count(self, event: str) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM records WHERE event = ?", (event,)).fetchone()[0])

    def latest(self, event: str, n: int = 10) -> list[dict[str, Any]]:
        """The ``n`` games received last, newest first (as the records were sent)."""
        rows = self.db.execute(
            "SELECT body FROM records WHERE event = ? AND hidden = 0 ORDER BY received_at DESC, rowid DESC LIMIT ?",
            (event, n),
        )
        return [json.loads(b) for (b,) in rows]

    # ------------------------------------------------------------------------------------------------ boards
    def boards(self, event: str, now: datetime | None = None, rows: int = ROWS) -> dict[str, Any]:
        """The event's boards (the wall page's; the tables get :func:`~kiosk.events.contract.table_board` of it):
        per game the best ``rows`` of the event, of today (the service's local day) and of the last hour; humans
        with initials only, best first by the game's own ordering, games in the registry's order."""
        now = now or datetime.now(UTC)
        local = now.astimezone()
        day_start = local.replace(hour=0, minute=0, second=0, microsecond=0).astimezone(UTC)
        periods = {"all": None, "today": utc_text(day_start), "hour": utc_text(now - timedelta(hours=1))}
        until = utc_text(now + CLOCK_SKEW)  # nothing timed later is taken; an older database's stay off the boards
        ev = self.event(event) or {"title": event}
        games: dict[str, dict[str, list[dict[str, Any]]]] = {}
        held = {g for (g,) in self.db.execute("SELECT DISTINCT game FROM records WHERE event = ?", (event,))}
        order = list(self.rules)
        keys = sorted(held, key=lambda g: (order.index(g) if g in order else len(order), g))
        for game in keys:
            rules = self.rules.get(game)
            direction = "ASC" if rules is not None and rules.lower_is_better else "DESC"
            games[game] = {}
            for period, since in periods.items():
                found = self.db.execute(
                    "SELECT p.initials, p.score, r.tbl, r.finished_at, r.id FROM players p "
                    "JOIN records r ON r.id = p.record WHERE r.event = ? AND r.game = ? AND r.hidden = 0 "
                    "AND p.bot = 0 AND p.initials IS NOT NULL AND (? IS NULL OR r.finished_at >= ?) "
                    f"AND r.finished_at <= ? ORDER BY p.score {direction}, r.finished_at, r.id, p.seat LIMIT ?",
                    (event, game, since, since, until, rows),
                )
                games[game][period] = [
                    {"initials": i, "score": sc, "table": t, "finished_at": f, "id": rid} for i, sc, t, f, rid in found
                ]
        return {"v": 1, "event": event, "title": ev["title"], "updated": utc_text(now), "games": games}
