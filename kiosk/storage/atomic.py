"""Crash-safe files: atomic replacement, folder fsync, one-writer locks, and a TinyDB storage built on them.

Why this exists (see ``shared/notes/platform.md``): TinyDB's default ``JSONStorage`` rewrites its file in place
(seek 0, write, fsync, truncate). A ``kill -9`` or a power cut in the middle leaves a truncated or mixed file,
and the next start fails to parse it. Here every write goes to a temporary file *in the same folder*, which is
flushed and fsynced, then ``os.replace``-d over the old file, and finally the folder itself is fsynced so the
rename is on the card too. At every instant the file name points at either the complete old content or the
complete new content.

Rationale and decisions: docs/developer/design.md, section ``kiosk/storage/atomic.py``.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import logging
import os
import re
import secrets
import time
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

from kiosk import safejson
from kiosk.files import aside_name, atomic_write_bytes, fsync_dir, quarantine, temp_name

__all__ = [
    "StorageError",
    "StorageUnavailable",
    "AtomicJSONStorage",
    "FolderLock",
    "atomic_write_bytes",
    "fsync_dir",
    "remove_stale_temps",
    "quarantine",
    "temp_name",
    "ensure_writable_folder",
    "copy_aside",
    "aside_name",
]

log = logging.getLogger("kiosk.storage")

#: The largest scores file read (a full 10,000-entry board is about 1.2 MB; every board full is far below this).
MAX_BYTES = 32 * 2**20
#: The deepest nesting read: TinyDB's three levels plus a document's own (score details are small objects).
MAX_DEPTH = 32


class StorageError(Exception):
    """Something could not be saved or loaded. The message names the file and the reason."""


class StorageUnavailable(StorageError):
    """Storage cannot be used at all (unwritable folder, locked by another process). Raised at open time."""


# ------------------------------------------------------------------------------------------------ helpers
def remove_stale_temps(target: Path) -> list[Path]:
    """Delete leftovers of killed writers of ``target``; returns what was removed."""
    removed = []
    for p in target.parent.glob(f".{target.name}.tmp-*"):
        try:
            p.unlink()
            removed.append(p)
        except FileNotFoundError:
            pass
    if removed:
        log.info("removed %d stale temporary file(s) next to %s", len(removed), target)
    return removed


def copy_aside(path: Path, reason: str) -> Path:
    """Put a durable copy of ``path`` aside as ``<stem>.corrupt-<timestamp><suffix>`` (the file itself stays, to
    be rewritten by its owner without the bad records) and log it; returns the copy's path."""
    dest = aside_name(path)
    tmp = temp_name(dest)
    with open(path, "rb") as src, open(tmp, "wb") as out:
        try:
            while chunk := src.read(1 << 20):
                out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    os.replace(tmp, dest)
    fsync_dir(path.parent)
    log.warning("%s holds damaged records (%s); the file as it was is kept as %s", path, reason, dest.name)
    return dest


def ensure_writable_folder(folder: Path, what: str) -> None:
    """Create ``folder`` if needed and prove a file can be written and fsynced there.

    Raises :class:`StorageUnavailable` with a message like
    ``"high scores unavailable: cannot write in /var/lib/kiosk (Permission denied)"``.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob(".probe.tmp-*"):  # left by a process killed between create and unlink
            try:
                if time.time() - old.stat().st_mtime > 60:
                    old.unlink()
            except OSError:
                pass
        probe = folder / f".probe.tmp-{os.getpid()}-{secrets.token_hex(4)}"
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            os.write(fd, b"ok")
            os.fsync(fd)
        finally:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(probe)
    except OSError as exc:
        raise StorageUnavailable(f"{what} unavailable: cannot write in {folder} ({exc.strerror or exc})") from exc


class FolderLock:
    """An exclusive, non-blocking ``flock`` on ``.<name>.lock`` next to ``target``: one writer per file.

    >>> lock = FolderLock(Path("/tmp/example.json"), "example")   # doctest: +SKIP
    >>> lock.release()                                             # doctest: +SKIP
    """

    def __init__(self, target: Path, what: str) -> None:
        self.path = target.with_name(f".{target.name}.lock")
        try:
            self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StorageUnavailable(f"{what} unavailable: cannot create {self.path} ({exc.strerror or exc})") from exc
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(self._fd)
            self._fd = None
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise StorageUnavailable(f"{what} unavailable: {target} is already open in another process") from exc
            raise StorageUnavailable(f"{what} unavailable: cannot lock {self.path} ({exc.strerror or exc})") from exc

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None

    def __del__(self) -> None:  # a forgotten close must not keep the file locked forever
        with contextlib.suppress(Exception):  # interpreter shutdown: the OS closes the descriptor anyway
            self.release()


# ------------------------------------------------------------------------------------------ TinyDB storage
class AtomicJSONStorage(Storage):
    """A TinyDB ``Storage`` that never leaves its file half-written.

    Use it like TinyDB's own storages::

        db = TinyDB("scores.json", storage=AtomicJSONStorage)

    Behaviour (all decided for a kiosk that is switched off at the wall):

    * **Durable writes.** ``write`` returns only after the new content is fsynced, atomically renamed over the
      old file and the folder fsynced. A failed write raises :class:`StorageError` and leaves the old file.
    * **One writer.** An ``flock`` (see :class:`FolderLock`) is held while the storage is open. The data is read
      from disk once, at open, and then kept in memory; TinyDB's ``read`` calls return that copy. This is correct
      because nobody else writes the file, and it saves parsing the whole file on every query.
    * **Cheap rewrites.** TinyDB rewrites the whole database on every change, but it always gives a changed table
      a *new* dict object. The serialized bytes of each table are cached by the identity of its dict, so a write
      re-serializes only the tables that changed and joins cached bytes for the rest.
    * **A failed write changes nothing.** The in-memory copy goes back to exactly what the file holds (the cached
      bytes of the last good write, parsed again), so a later successful write cannot resurrect a failed change
      or lose an older one.
    * **Start-up hygiene.** Stale temporary files are removed; an unparsable file is moved aside
      (:attr:`quarantined`), logged, and the storage starts empty.

    ``path`` may be a str or Path; ``create_dirs`` (default True) creates missing parent folders; ``max_bytes``
    is the largest file that is read (larger ones are moved aside unread).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        create_dirs: bool = True,
        *,
        what: str = "storage",
        max_bytes: int = MAX_BYTES,
    ) -> None:
        super().__init__()
        self.path = Path(path)
        self.what = what
        self.max_bytes = max_bytes
        folder = self.path.parent
        if not create_dirs and not folder.is_dir():
            raise StorageUnavailable(f"{what} unavailable: folder {folder} does not exist")
        ensure_writable_folder(folder, what)
        self._lock = FolderLock(self.path, what)
        try:
            remove_stale_temps(self.path)
            self._dir_fd: int | None = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        except BaseException:
            self._lock.release()
            raise
        #: Where an unreadable file found at open was moved to, or where a copy of a file with damaged records was
        #: put (None if the file was fine).
        self.quarantined: Path | None = None
        #: What was wrong with the file at open, one line per problem (empty if it was fine).
        self.problems: list[str] = []
        #: Documents left out only for their id: (table, document), so the owner can still see them.
        self.dropped_docs: list[tuple[str, dict[str, Any]]] = []
        self._data: dict[str, dict[str, Any]] | None = None
        self._table_bytes: dict[str, tuple[dict[str, Any], bytes]] = {}
        #: Size in bytes of the last file written (for benchmarks and the operator menu).
        self.last_write_bytes = 0
        try:
            self._load()
        except BaseException:
            self.close()
            raise

    # --- loading ----------------------------------------------------------------------------------------
    def _load(self) -> None:
        data: dict[str, dict[str, Any]] | None = None
        try:
            parsed = safejson.read_file(self.path, max_bytes=self.max_bytes, max_depth=MAX_DEPTH, empty=None, levels=2)
        except FileNotFoundError:
            parsed = None
        except safejson.Unreadable as exc:
            parsed = None
            self.problems.append(str(exc))
            self.quarantined = quarantine(self.path, str(exc))
        except OSError as exc:
            raise StorageError(f"cannot read {self.path}: {exc.strerror or exc}") from exc
        if parsed is not None:
            if not isinstance(parsed, dict):
                problem = f"top level is {type(parsed).__name__}, not an object"
                self.problems.append(problem)
                self.quarantined = quarantine(self.path, problem)
            else:
                data, dropped, self.dropped_docs = _keep_well_shaped(parsed)
                if dropped:
                    self.problems.extend(dropped)
                    self.set_aside_copy(
                        "; ".join(dropped[:3]) + (f" and {len(dropped) - 3} more" if len(dropped) > 3 else "")
                    )
        self._data = data
        # Warm the per-table cache now: the first write then only serializes the table it changed.
        self._table_bytes = {name: (table, _dump(table)) for name, table in (data or {}).items()}

    def set_aside_copy(self, reason: str) -> Path | None:
        """Keep a copy of the file as it is on disk (once per open); the caller then writes the cleaned data.
        Returns the copy's path, or None when the copy could not be made (logged; nothing else changes)."""
        if self.quarantined is not None:
            return self.quarantined
        try:
            self.quarantined = copy_aside(self.path, reason)
        except OSError as exc:
            log.error("could not keep a copy of %s aside: %s", self.path, exc.strerror or exc)
        return self.quarantined

    # --- Storage interface ------------------------------------------------------------------------------
    def read(self) -> dict[str, dict[str, Any]] | None:
        return self._data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        if self._dir_fd is None:
            raise StorageError(f"{self.path} is closed")
        try:
            blob, fresh = self._serialize(data)
            atomic_write_bytes(self.path, blob, dir_fd=self._dir_fd)
        except (OSError, TypeError, ValueError) as exc:
            # TinyDB has already changed the in-memory copy (and ``update`` changes documents in place). Go back
            # to exactly what the file holds: the cached bytes of the last good write, parsed again.
            self._data = {name: json.loads(body) for name, (_, body) in self._table_bytes.items()}
            self._table_bytes = {name: (self._data[name], body) for name, (_, body) in self._table_bytes.items()}
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise StorageError(f"could not save {self.path}: {reason}") from exc
        self._data = data
        self._table_bytes = fresh
        self.last_write_bytes = len(blob)

    def replace_in_memory(self, data: dict[str, dict[str, Any]]) -> None:
        """Use ``data`` from now on without writing it (the card refused the write): a later successful write
        saves it."""
        self._data = data
        self._table_bytes = {name: (table, _dump(table)) for name, table in data.items()}

    def _serialize(self, data: dict[str, dict[str, Any]]) -> tuple[bytes, dict[str, tuple[dict[str, Any], bytes]]]:
        parts = [b"{"]
        cache = self._table_bytes
        fresh: dict[str, tuple[dict[str, Any], bytes]] = {}
        for name, table in data.items():
            hit = cache.get(name)
            body = hit[1] if hit is not None and hit[0] is table else _dump(table)
            fresh[name] = (table, body)  # keep a reference: the identity check stays valid
            parts += [_dump(name), b":", body, b","]
        if len(parts) > 1:
            parts.pop()
        parts.append(b"}")
        return b"".join(parts), fresh  # one copy of the bytes, whatever the number of tables

    def close(self) -> None:
        if self._dir_fd is not None:
            os.close(self._dir_fd)
            self._dir_fd = None
        self._lock.release()


def _dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


_DOC_ID = re.compile(r"[0-9]{1,15}\Z")


def _keep_well_shaped(
    parsed: dict[str, Any],
) -> tuple[dict[str, dict[str, Any]], list[str], list[tuple[str, dict[str, Any]]]]:
    """TinyDB's layout is ``{table: {doc_id: {document}}}`` with decimal doc ids (TinyDB computes the next id as
    ``max(int(id))``, so one id like ``"x"`` breaks every later insert). Returns the well-shaped part and one line
    per record left out, and the documents left out only for their id."""
    data: dict[str, dict[str, Any]] = {}
    dropped: list[str] = []
    docs: list[tuple[str, dict[str, Any]]] = []
    for name, table in parsed.items():
        if not isinstance(table, dict):
            dropped.append(f"table {name[:40]!r} is not an object")
            continue
        keep: dict[str, Any] = {}
        for doc_id, doc in table.items():
            if not _DOC_ID.match(doc_id):
                dropped.append(f"record id {doc_id[:20]!r} in table {name[:40]!r} is not a number")
                if isinstance(doc, dict):
                    docs.append((name, doc))
            elif not isinstance(doc, dict):
                dropped.append(f"record {doc_id} in table {name[:40]!r} is not an object")
            else:
                keep[doc_id] = doc
        data[name] = keep if len(keep) != len(table) else table
    return data, dropped, docs
