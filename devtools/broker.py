"""A real Eclipse Mosquitto for the tests and the events benchmark: a user process on a free loopback port.

    >>> with Mosquitto(tmp, users={"t1": "pw1", "eventboard": "pw"}) as broker:    # doctest: +SKIP
    ...     broker.port
    ...     broker.stop(); broker.start()        # the same port, as a broker that went away and came back

With ``users`` it runs as at an event: a password file made by ``mosquitto_passwd`` and the ACL shipped with the
event board (``kiosk/events/board/mosquitto/acl``); without, anonymous. ``persist`` keeps the broker's sessions and
queued messages across a restart as the shipped config does (its persistence settings, read from
``kiosk/events/board/mosquitto/mosquitto.conf``: saved every few seconds and at a clean stop); :meth:`Mosquitto.kill`
is a power cut (SIGKILL: what was not saved yet is gone).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

__all__ = ["Mosquitto", "free_port", "table_settings", "shipped_settings", "MOSQUITTO", "ACL", "CONF"]

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
ACL = Path(__file__).resolve().parents[1] / "kiosk" / "events" / "board" / "mosquitto" / "acl"
CONF = ACL.with_name("mosquitto.conf")
#: The shipped config's settings a test broker takes as they are (how it keeps what it holds).
SHIPPED = ("persistence", "autosave_interval", "autosave_on_changes", "max_queued_messages")


def shipped_settings() -> list[str]:
    """The lines of the shipped ``mosquitto.conf`` that say how the broker keeps what it holds."""
    lines = [line.strip() for line in CONF.read_text().splitlines()]
    return [line for line in lines if line.split(" ", 1)[0] in SHIPPED]


def table_settings(port: int, table: str, event: str = "fair", user: str = "", password: str = "") -> Any:
    """A table's event settings (as :class:`kiosk.config.EventConfig` has them) for a broker on this machine."""
    from kiosk.config import EventConfig

    return EventConfig(
        enabled=True, broker="127.0.0.1", port=port, event=event, table=table, user=user, password=password
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Mosquitto:
    """A Mosquitto broker in ``folder`` on a free port (see the module docstring)."""

    def __init__(self, folder: Path, users: dict[str, str] | None = None, persist: bool = True) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        kept = shipped_settings() if persist else ["persistence false", "max_queued_messages 100000"]
        lines = [
            f"listener {self.port} 127.0.0.1",
            *kept,
            f"persistence_location {self.folder}/",
            "max_inflight_messages 100",
            f"log_dest file {self.folder / 'mosquitto.log'}",
            "log_type error",
            "log_type warning",
        ]
        if os.geteuid() == 0:
            lines.append("user root")  # as root it would switch to the mosquitto user, who cannot write here
        if users:
            pw = self.folder / "passwd"
            pw.touch()
            for user, password in users.items():
                subprocess.run(["mosquitto_passwd", "-b", str(pw), user, password], check=True, capture_output=True)
            lines += ["allow_anonymous false", f"password_file {pw}", f"acl_file {ACL}"]
        else:
            lines += ["allow_anonymous true"]
        self.conf = self.folder / "mosquitto.conf"
        self.conf.write_text("\n".join(lines) + "\n")

    def start(self, timeout: float = 10.0) -> None:
        """Start the broker and return once it accepts connections (bounded by ``timeout`` real seconds)."""
        self.proc = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        end = time.monotonic() + timeout
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"mosquitto did not start: {err}{self.log()}")
            if time.monotonic() > end:
                raise RuntimeError(f"mosquitto did not listen within {timeout} s: {self.log()}")
            time.sleep(0.02)

    def stop(self) -> None:
        """Stop the broker (it saves its sessions first when ``persist``)."""
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def kill(self) -> None:
        """A power cut: SIGKILL, so the broker saves nothing more (what it saved before stays on disk)."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def log(self) -> str:
        p = self.folder / "mosquitto.log"
        return p.read_text(errors="replace")[-2000:] if p.exists() else ""

    def __enter__(self) -> Mosquitto:
        self.start()
        return self

    def __exit__(self, *_exc: Any) -> None:
        self.stop()
