"""Crash-safe files without TinyDB: atomic replacement, folder fsync, one-writer locks, files put aside.

Used by the config, the PIN log and the storage package alike (:mod:`kiosk.storage.atomic` builds TinyDB's
storage on these), so reading or writing the config needs nothing but the standard library. The decisions are
written down in :mod:`kiosk.storage.atomic`.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import secrets
import time
from pathlib import Path

__all__ = [
    "StorageError",
    "StorageUnavailable",
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


class StorageError(Exception):
    """Something could not be saved or loaded. The message names the file and the reason."""


class StorageUnavailable(StorageError):
    """Storage cannot be used at all (unwritable folder, locked by another process). Raised at open time."""


# ------------------------------------------------------------------------------------------------ helpers
def fsync_dir(folder: str | os.PathLike[str]) -> None:
    """fsync a folder so a rename or a new file in it survives a power cut."""
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def temp_name(target: Path) -> Path:
    """A fresh temporary name next to ``target`` (same folder, so ``os.replace`` is atomic)."""
    return target.with_name(f".{target.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}")


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


def atomic_write_bytes(target: Path, data: bytes, *, dir_fd: int | None = None) -> None:
    """Replace ``target`` by ``data`` atomically and durably (temp file, fsync, replace, fsync folder).

    ``dir_fd`` is an open descriptor of the folder to fsync (saves an open per write); without it the folder is
    opened here. On failure the temporary file is removed and the old ``target`` is untouched.
    """
    tmp = temp_name(target)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        try:
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if dir_fd is None:
        fsync_dir(target.parent)
    else:
        os.fsync(dir_fd)


def aside_name(path: Path, kind: str = "corrupt") -> Path:
    """A free name ``<stem>.<kind>-<YYYYmmdd-HHMMSS>[-n]<suffix>`` next to ``path``."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    dest = path.with_name(f"{path.stem}.{kind}-{stamp}{path.suffix}")
    n = 1
    while dest.exists():
        dest = path.with_name(f"{path.stem}.{kind}-{stamp}-{n}{path.suffix}")
        n += 1
    return dest


def quarantine(path: Path, reason: str) -> Path:
    """Move an unreadable file aside as ``<stem>.corrupt-<timestamp><suffix>`` and log it; returns the new path."""
    dest = aside_name(path)
    os.replace(path, dest)
    fsync_dir(path.parent)
    log.warning("%s could not be read (%s); moved aside to %s and started fresh", path, reason, dest.name)
    return dest


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
