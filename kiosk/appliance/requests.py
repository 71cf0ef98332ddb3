"""What the operator menu asks of the system, and how it learns the answer.

The kiosk runs as an unprivileged user in a sandbox where only its state folder is writable, so it cannot switch
read-only mode or install an update itself. It writes a request file into ``<state>/requests/``; the path unit
``kiosk-admin.path`` sees it and starts ``kiosk-admin.service`` (root), which carries it out
(:mod:`kiosk.appliance.admin`) and writes the outcome to ``<state>/requests/status.json``, which the menu shows.

Requests (one file each, written atomically; a second request of the same kind replaces the first):

* ``read-only.request``: ``{"on": true}`` or ``{"on": false}``; the table reboots into the new mode;
* ``update.request``: ``{"from": "usb"}`` (the newest ``*.kiosk-update`` on a USB stick) or
  ``{"bundle": "/path"}``.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

__all__ = ["pending", "read_status", "request_read_only", "request_update", "requests_dir", "write_status"]


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


def pending(state_dir: Path) -> list[str]:
    """The kinds of request still waiting (``read-only``, ``update``)."""
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
