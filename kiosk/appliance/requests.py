"""What the operator menu asks of the system, and how it learns the answer.

The kiosk runs as an unprivileged user in a sandbox where only its state folder is writable, so it cannot switch
read-only mode or install an update itself. It writes a request file into ``<state>/requests/``; the path unit
``kiosk-admin.path`` sees it and starts ``kiosk-admin.service`` (root), which carries it out
(:mod:`kiosk.appliance.admin`) and writes the outcome to ``<state>/requests/status.json``, which the menu shows.

Rationale and decisions: docs/developer/design.md, section ``kiosk/appliance/requests.py``.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.i18n import SOURCE, Translator, translator

__all__ = [
    "HELPER_UNIT",
    "PIN_GRANT_S",
    "PIN_RESET_FILE",
    "consume_pin_grant",
    "grant_pin_reset",
    "pin_reset_granted",
    "request_backup",
    "request_event_network",
    "request_pin_reset",
    "request_restore",
    "SystemState",
    "pending",
    "read_status",
    "request_read_only",
    "request_update",
    "requests_dir",
    "running_version",
    "system_state",
    "write_status",
]

#: The installed path unit that hands requests to the root helper; without it nobody carries them out.
HELPER_UNIT = Path("/etc/systemd/system/kiosk-admin.path")


#: The PIN reset file's name, in the top folder of a USB stick (any content; also ``kiosk-pin-reset.txt.txt`` and
#: other names starting with it, whatever the case, as a laptop may save it). Documented in docs/owner/pin.md.
PIN_RESET_FILE = "kiosk-pin-reset.txt"
#: How long a found reset file lets the table's screen set a new PIN (seconds).
PIN_GRANT_S = 600


def requests_dir(state_dir: Path) -> Path:
    return Path(state_dir) / "requests"


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w") as fh:
        json.dump(data, fh)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def request_read_only(state_dir: Path, on: bool) -> Path:
    """Ask for read-only mode on (or off, for maintenance); the table reboots to apply it."""
    path = requests_dir(state_dir) / "read-only.request"
    _write(path, {"on": bool(on), "asked": time.time()})
    return path


def request_update(state_dir: Path, bundle: str | None = None) -> Path:
    """Ask for an update: from the newest bundle on a USB stick, or from ``bundle``."""
    path = requests_dir(state_dir) / "update.request"
    _write(path, {"from": "usb"} if bundle is None else {"bundle": str(bundle), "asked": time.time()})
    return path


def request_backup(state_dir: Path, with_pin: bool = False) -> Path:
    """Ask for a backup onto the USB stick (the PIN hash in it only when ``with_pin``)."""
    path = requests_dir(state_dir) / "backup.request"
    _write(path, {"with_pin": bool(with_pin), "asked": time.time()})
    return path


def request_restore(state_dir: Path) -> Path:
    """Ask for a restore from the newest backup file on a USB stick."""
    path = requests_dir(state_dir) / "restore.request"
    _write(path, {"asked": time.time()})
    return path


def request_event_network(state_dir: Path, at_start: bool = False) -> Path:
    """Ask the root helper to open the kiosk's network to the event's broker as the saved settings say (or to close
    it again, unpaired): :mod:`kiosk.appliance.eventnet`. The helper reads the settings itself; ``at_start`` (the
    kiosk has just started, the network may not be up yet) only lets it try a failed look-up for longer."""
    path = requests_dir(state_dir) / "event-network.request"
    _write(path, {"at_start": bool(at_start), "asked": time.time()})
    return path


def request_pin_reset(state_dir: Path) -> Path:
    """Ask the root helper to look for the PIN reset file on a USB stick."""
    path = requests_dir(state_dir) / "pin-reset.request"
    _write(path, {"asked": time.time()})
    return path


def _grant_path(state_dir: Path) -> Path:
    return requests_dir(state_dir) / "pin-reset.grant"


def grant_pin_reset(state_dir: Path, now: float | None = None) -> Path:
    """(The root helper) let the screen set a new PIN for :data:`PIN_GRANT_S` seconds."""
    now = time.time() if now is None else now
    path = _grant_path(state_dir)
    _write(path, {"until": now + PIN_GRANT_S})
    return path


def pin_reset_granted(state_dir: Path | None, now: float | None = None) -> bool:
    """True while a grant written by the root helper is valid (not expired, not from the far future)."""
    if state_dir is None:
        return False
    now = time.time() if now is None else now
    try:
        until = float(json.loads(_grant_path(state_dir).read_text())["until"])
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return now < until <= now + PIN_GRANT_S + 60


def consume_pin_grant(state_dir: Path | None) -> None:
    """A new PIN was set: the grant is used up."""
    if state_dir is not None:
        with contextlib.suppress(OSError):
            _grant_path(state_dir).unlink()


def pending(state_dir: Path) -> list[str]:
    """The kinds of request still waiting (``read-only``, ``update``, ``event-network``...)."""
    d = requests_dir(state_dir)
    return sorted(p.name.removesuffix(".request") for p in d.glob("*.request")) if d.is_dir() else []


def write_status(state_dir: Path, **status: Any) -> None:
    _write(requests_dir(state_dir) / "status.json", {**status, "when": time.time()})


def read_status(state_dir: Path) -> dict[str, Any]:
    """The last outcome written by the root helper (``{}`` if none): ``kind``, ``ok``, ``message``, ``when``."""
    try:
        data = json.loads((requests_dir(state_dir) / "status.json").read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@dataclass(frozen=True)
class SystemState:
    """What the operator menu shows about the system."""

    helper: bool  # the root helper is installed (the table was set up by the installer)
    read_only: bool  # the root is read-only right now
    pending: tuple[str, ...]  # requests not carried out yet
    last: dict[str, Any]  # the helper's last outcome (kind, ok, message, when)
    version: str = ""  # the version the kiosk runs (:func:`running_version`)

    def text(self, tr: Translator | None = None) -> str:
        """The menu's lines, in ``tr``'s language (English by default; the helper's own message as it wrote it)."""
        tr = tr or translator(SOURCE)
        if not self.helper:
            return tr._("System: not installed as a table (no read-only mode, updates or backups from here)")
        lines = [
            tr._("System: read-only (protected against power cuts)")
            if self.read_only
            else tr._("System: writable (maintenance): turn read-only back on when done")
        ]
        if self.version:
            lines.append(tr._("Version: {version}").format(version=self.version))
        if self.pending:
            lines.append(tr._("Working on: {requests} ...").format(requests=", ".join(self.pending)))
        elif self.last:
            when = time.strftime("%H:%M", time.localtime(float(self.last.get("when", 0))))
            message = str(self.last.get("message", ""))
            message = message if len(message) <= 90 else message[:89] + "..."
            lines.append(tr._("Last ({time}): {message}").format(time=when, message=message))
        return "\n".join(lines)


def system_state(state_dir: Path, helper_unit: Path | None = None, mounts: str | None = None) -> SystemState:
    """The state for the menu; ``helper_unit`` defaults to :data:`HELPER_UNIT`, ``mounts`` to ``/proc/mounts``."""
    from kiosk.appliance.readonly import overlay_active

    return SystemState(
        helper=(helper_unit or HELPER_UNIT).exists(),
        read_only=overlay_active(mounts),
        pending=tuple(pending(state_dir)),
        last=read_status(state_dir),
        version=running_version(),
    )


def running_version() -> str:
    """The version this kiosk runs: on an installed table its version's folder under ``/opt/sushi-kiosk/versions``
    (the version and the build, e.g. ``0.1.1-3f2a9c0d1e2b``: two builds of one version told apart), else the
    installed distribution's version."""
    prefix = Path(sys.prefix).resolve()
    if prefix.parent.name == "versions":
        return prefix.name
    try:
        return importlib.metadata.version("sushi-table-kiosk")
    except importlib.metadata.PackageNotFoundError:
        from kiosk import __version__

        return __version__
