"""The table's outbox: finished games waiting for the event board, on the table's own storage.

    >>> box = Outbox("/var/lib/kiosk/events/outbox.jsonl")     # doctest: +SKIP
    >>> box.add(record)          # doctest: +SKIP
    >>> box.pending()            # doctest: +SKIP
    >>> box.stored(record["id"]) # doctest: +SKIP

``add`` returns once the record is on the card (fdatasync); ``stored`` (the event board's receipt came: the record
is in its database, committed) means it is never published again. Not the broker's PUBACK: that is one hop, and a
broker that dies before handing the game on (a power cut in the organiser's room) would lose it. One append-only
JSON-lines file: an ``add`` line per record and a ``stored`` line per receipt (``sent`` in files written before
receipts, read the same), each written and synced before the call returns, so a power cut loses at most the line
being written (a torn last line is dropped with a log line when the file is next read; damaged lines are dropped
the same way, the file as it was kept aside). When most lines are receipted records the file is rewritten
atomically with only the pending ones. A file that cannot be read at all is moved aside (kept, logged) and the
outbox starts empty; the table's own boards never depend on it. Thread-safe (the link's thread takes receipts
while the UI thread adds). A receipt for an id not pending (a second receipt, a receipt after a restart) changes
nothing.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from kiosk.files import atomic_write_bytes, quarantine
from kiosk.storage.atomic import copy_aside

from .contract import ContractError, check_record

__all__ = ["Outbox"]

log = logging.getLogger("kiosk.events")

#: Rewrite the file once it holds this many receipted lines more than pending records.
COMPACT_AFTER = 500
#: The most records kept waiting (a year of a busy table's games); the oldest go first, with a log line.
MAX_PENDING = 100_000


def _line(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


class Outbox:
    """Records waiting to be published, in the order they were added (see the module docstring)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._pending: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._acked_lines = 0
        self._load()
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

    # ------------------------------------------------------------------------------------------------ reading
    def _load(self) -> None:
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return
        except OSError as exc:
            quarantine(self.path, str(exc))
            return
        lines = data.split(b"\n")
        torn = lines.pop() if lines else b""  # after the last newline: a line cut by a power cut, or nothing
        bad = 0
        for raw in lines:
            try:
                entry = json.loads(raw)
                if "add" in entry:
                    record = check_record(entry["add"])
                    self._pending[record["id"]] = record
                elif "stored" in entry or "sent" in entry:
                    self._pending.pop(str(entry.get("stored", entry.get("sent"))), None)
                    self._acked_lines += 1
                else:
                    raise ValueError("neither add nor stored")
            except (ValueError, ContractError, TypeError, AttributeError):
                bad += 1
        if bad:
            copy_aside(self.path, f"{bad} damaged line(s)")  # the file as it was, kept for a look
        if torn or bad:
            log.warning(
                "outbox %s: %d damaged line(s) and %d byte(s) of a torn write dropped; %d record(s) kept",
                self.path,
                bad,
                len(torn),
                len(self._pending),
            )
            self._rewrite()

    def _rewrite(self) -> None:
        """The file with only the pending records (atomic: the old file or the new one, never half of each)."""
        atomic_write_bytes(self.path, b"".join(_line({"add": r}) for r in self._pending.values()))
        self._acked_lines = 0

    # ------------------------------------------------------------------------------------------------ writing
    def _append(self, obj: dict[str, Any]) -> None:
        os.write(self._fd, _line(obj))
        (getattr(os, "fdatasync", None) or os.fsync)(self._fd)

    def add(self, record: dict[str, Any]) -> None:
        """Keep ``record`` (checked against the contract) until :meth:`stored`; a known id is kept once."""
        check_record(record)
        with self._lock:
            if record["id"] in self._pending:
                return
            self._append({"add": record})
            self._pending[record["id"]] = record
            while len(self._pending) > MAX_PENDING:
                old, _ = self._pending.popitem(last=False)
                log.warning("outbox full: the oldest record %s is dropped unpublished", old)

    def stored(self, record_id: str) -> bool:
        """The event board has stored the record (its receipt): it is not published again. False when the id was
        not pending (a receipt seen before: nothing changes)."""
        with self._lock:
            if self._pending.pop(record_id, None) is None:
                return False
            self._append({"stored": record_id})
            self._acked_lines += 1
            if self._acked_lines >= COMPACT_AFTER and self._acked_lines > len(self._pending):
                os.close(self._fd)
                try:
                    self._rewrite()
                finally:
                    self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            return True

    def pending(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The records not yet receipted, oldest first (at most ``limit``)."""
        with self._lock:
            out = list(self._pending.values())
        return out if limit is None else out[:limit]

    def __len__(self) -> int:
        return len(self._pending)

    def __contains__(self, record_id: object) -> bool:
        return record_id in self._pending

    def close(self) -> None:
        with self._lock:
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = -1
