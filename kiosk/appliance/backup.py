"""Back up and restore the table's scores, statistics, settings and saved games: one verified file on a USB stick.

The saved games are the journals of the games in progress (``games/active/*.jsonl``, offered to resume at the next
start); each goes into the backup as ``game.<file name>`` (a backup holds no folders) and comes back into
``games/active/``. Format 1 (no saved games) is still read.

Rationale and decisions: docs/developer/design.md, section ``kiosk/appliance/backup.py``.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import tarfile
import time
from pathlib import Path
from typing import Any

from kiosk import config as kconfig
from kiosk.files import atomic_write_bytes

__all__ = ["FILES", "KIND", "SUFFIX", "BackupError", "make_backup", "read_backup", "restore_backup", "write_backup"]

KIND = "sushi-kiosk-backup"
FORMAT = 2
READS = (1, 2)
SUFFIX = ".kiosk-backup"
#: What a backup holds, in the state folder (and the saved games: ``game.<name>.jsonl``).
FILES = ("scores.json", "kiosk.json")
#: Where the saved games are, in the state folder; their names in a backup.
SAVED_GAMES = Path("games") / "active"
GAME_MEMBER = re.compile(r"game\.([A-Za-z0-9][A-Za-z0-9_.-]{0,120}\.jsonl)")
#: The largest backup read (a full scores file is about 10 MB).
MAX_BYTES = 64 * 1024 * 1024


class BackupError(ValueError):
    """A backup cannot be made, or a file is not a backup this table can restore; the message says why."""


def backup_name(now: float | None = None) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    return f"sushi-kiosk-backup-{stamp}{SUFFIX}"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _contents(state_dir: Path, with_pin: bool) -> dict[str, bytes]:
    state_dir = Path(state_dir)
    out: dict[str, bytes] = {}
    scores = state_dir / "scores.json"
    if scores.exists():
        data = scores.read_bytes()
        try:
            json.loads(data)
        except ValueError as exc:
            raise BackupError(f"scores.json cannot be read ({exc}): nothing was written") from None
        out["scores.json"] = data
    cfg = kconfig.load_safely(state_dir / "kiosk.json", create=False).config
    if not with_pin:
        cfg = cfg.replace(operator={"pin_hash": None})
    out["kiosk.json"] = (json.dumps(kconfig.to_dict(cfg), indent=2) + "\n").encode()
    with contextlib.suppress(OSError):
        for journal in sorted((state_dir / SAVED_GAMES).iterdir()):
            member = f"game.{journal.name}"
            if GAME_MEMBER.fullmatch(member) and journal.is_file():
                out[member] = journal.read_bytes()
    return out


def make_backup(state_dir: Path, *, with_pin: bool = False, now: float | None = None) -> bytes:
    """The backup file's bytes for the state folder ``state_dir``."""
    files = _contents(state_dir, with_pin)
    created = time.time() if now is None else now
    manifest: dict[str, Any] = {
        "kind": KIND,
        "format": FORMAT,
        "created": created,
        "with_pin": with_pin,
        "files": {name: {"sha256": _sha256(data), "size": len(data)} for name, data in files.items()},
    }
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, data in [("manifest.json", json.dumps(manifest, indent=2).encode()), *files.items()]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = int(created)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def write_backup(state_dir: Path, folder: Path, *, with_pin: bool = False, now: float | None = None) -> Path:
    """Write a backup into ``folder`` (a USB stick's top folder), read it back and check it; its path."""
    blob = make_backup(state_dir, with_pin=with_pin, now=now)
    dest = Path(folder) / backup_name(now)
    part = dest.with_name(f".{dest.name}.part")
    try:
        with open(part, "wb") as fh:
            fh.write(blob)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(part, dest)
        with contextlib.suppress(OSError):  # FAT has no folder to sync on some kernels
            fd = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    except OSError as exc:
        part.unlink(missing_ok=True)
        raise BackupError(f"could not write the backup to the stick: {exc.strerror or exc}") from None
    expected = read_backup(io.BytesIO(blob))[1]
    try:
        got = read_backup(dest)[1]
    except BackupError as exc:
        got = {"error": str(exc).encode()}
    if got != expected:
        dest.unlink(missing_ok=True)
        raise BackupError("the stick did not keep the backup intact (read back, it differs): try another stick")
    return dest


def read_backup(source: Path | io.BytesIO) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The manifest and files of a backup, every check done (see the module docstring); :class:`BackupError`."""
    name = source.name if isinstance(source, Path) else "the backup"
    try:
        if isinstance(source, Path) and source.stat().st_size > MAX_BYTES:
            raise BackupError(f"{name} is larger than any backup of this table ({MAX_BYTES // 2**20} MB)")
        opened = {"fileobj": source} if isinstance(source, io.BytesIO) else {"name": source}
        with tarfile.open(mode="r:", **opened) as tar:
            members: dict[str, bytes] = {}
            for info in tar:
                if not info.isfile() or "/" in info.name or info.name in members:
                    raise BackupError(f"{name} holds {info.name!r}, which no backup of this table holds")
                fh = tar.extractfile(info)
                members[info.name] = fh.read() if fh is not None else b""
    except BackupError:
        raise
    except (OSError, tarfile.TarError, EOFError) as exc:
        raise BackupError(f"{name} is not a backup of this table, or it is damaged ({exc})") from None
    try:
        manifest = json.loads(members.pop("manifest.json"))
    except (KeyError, ValueError):
        raise BackupError(f"{name} is not a backup of this table (no readable manifest)") from None
    if not isinstance(manifest, dict) or manifest.get("kind") != KIND:
        raise BackupError(f"{name} is not a backup of this table (it is {str(manifest.get('kind'))[:40]!r})")
    if manifest.get("format") not in READS:
        raise BackupError(f"{name} was made by another version of the kiosk (format {manifest.get('format')!r})")
    listed = manifest.get("files")
    if (
        not isinstance(listed, dict)
        or not all(f in FILES or GAME_MEMBER.fullmatch(f) for f in listed)
        or "kiosk.json" not in listed
    ):
        raise BackupError(f"{name} does not list the files a backup holds ({', '.join(FILES)})")
    for fname, meta in listed.items():
        data = members.get(fname)
        if data is None:
            raise BackupError(f"{name} is damaged: {fname} is missing")
        if not isinstance(meta, dict) or meta.get("sha256") != _sha256(data):
            raise BackupError(f"{name} is damaged: {fname} does not match its checksum")
    extra = set(members) - set(listed)
    if extra:
        raise BackupError(f"{name} holds files its manifest does not list: {', '.join(sorted(extra))}")
    try:
        kconfig.load_dict(json.loads(members["kiosk.json"]))
    except ValueError as exc:
        raise BackupError(f"{name}: its settings are not ones this kiosk accepts: {exc}") from None
    if "scores.json" in members:
        try:
            json.loads(members["scores.json"])
        except ValueError as exc:
            raise BackupError(f"{name}: its scores cannot be read ({exc})") from None
    for fname in listed:
        if GAME_MEMBER.fullmatch(fname):
            try:
                for line in members[fname].decode().splitlines()[:-1]:  # the last line may be cut short, as on a card
                    json.loads(line)
            except (UnicodeDecodeError, ValueError) as exc:
                raise BackupError(f"{name}: its saved game {fname} cannot be read ({exc})") from None
    return manifest, {k: members[k] for k in listed}


def restore_backup(source: Path, state_dir: Path) -> str:
    """Replace the table's scores and settings with the backup's (everything checked first); a message."""
    manifest, files = read_backup(source)
    state_dir = Path(state_dir)
    config_path = state_dir / "kiosk.json"
    cfg = kconfig.load_dict(json.loads(files["kiosk.json"]))
    kept_pin = ""
    if cfg.operator.pin_hash is None:
        current = kconfig.load_safely(config_path, create=False).config.operator.pin_hash
        cfg = cfg.replace(operator={"pin_hash": current})
        kept_pin = " (the table's PIN kept: the backup has none)"
    if "scores.json" in files:
        atomic_write_bytes(state_dir / "scores.json", files["scores.json"])
    games = {m.group(1): data for name, data in files.items() if (m := GAME_MEMBER.fullmatch(name))}
    if games:
        (state_dir / SAVED_GAMES).mkdir(parents=True, exist_ok=True)
        for fname, data in games.items():
            atomic_write_bytes(state_dir / SAVED_GAMES / fname, data)
    kconfig.save(cfg, config_path)
    made = time.strftime("%Y-%m-%d %H:%M", time.localtime(float(manifest.get("created", 0))))
    what = "scores and settings" if "scores.json" in files else "settings"
    if games:
        what += f" and {len(games)} saved game{'s' if len(games) > 1 else ''}"
    return f"restored the {what} from {source.name} (made {made}){kept_pin}"
