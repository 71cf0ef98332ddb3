"""Crash-safe file writes with the standard library only (the config, the PIN failure log, and the stores built
on :mod:`kiosk.storage.atomic` use them; the installer imports the config without any third-party package).

* :func:`atomic_write_bytes`: temp file in the same folder, fsync, ``os.replace``, fsync the folder: at every
  instant the name points at the complete old content or the complete new content.
* :func:`aside_name`: a free ``<stem>.<kind>-<YYYYmmdd-HHMMSS>[-n]<suffix>`` name for a file kept aside.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import time
from pathlib import Path

__all__ = ["atomic_write_bytes", "aside_name", "fsync_dir", "quarantine", "temp_name"]

log = logging.getLogger("kiosk.storage")


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
