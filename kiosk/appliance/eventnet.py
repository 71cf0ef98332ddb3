"""The kiosk's network while the table is paired with an event: a drop-in of ``kiosk.service`` that opens the
sandbox to the event's broker, and nothing else, written by the root helper from the table's saved settings.

``python -m kiosk.appliance.eventnet lookup NAME`` prints ``{"addresses": [...]}`` or ``{"error": ...}``
(what :func:`sandboxed_lookup` runs inside its transient unit).

Rationale and decisions (the drop-in's text, settings not the request, host names, idempotence, at start and boot,
the honest status): docs/developer/design.md, section ``kiosk/appliance/eventnet.py``.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import ipaddress
import json
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from kiosk.files import atomic_write_bytes, fsync_dir

__all__ = [
    "DROPIN",
    "DROPIN_NAME",
    "KIND",
    "START_LOOKUP_WAIT_S",
    "LookupFailed",
    "LookupFn",
    "broker_dropin",
    "configured_broker",
    "dropin_path",
    "dropin_text",
    "inet_allowed",
    "installed_broker",
    "is_address",
    "local_lookup",
    "lookup",
    "managed",
    "nameservers",
    "network_state",
    "normal_broker",
    "sandboxed_lookup",
    "should_ask",
    "write_dropin",
]

#: The drop-in's name in ``kiosk.service.d/``.
DROPIN_NAME = "event-link.conf"
#: Where the root helper writes it (read-only to the kiosk, not hidden from it).
DROPIN = Path("/etc/systemd/system/kiosk.service.d") / DROPIN_NAME
#: The request's kind (``<state>/requests/event-network.request``, the status' ``kind``).
KIND = "event-network"
#: How long the helper keeps trying a failed look-up when the kiosk asked at its start (seconds).
START_LOOKUP_WAIT_S = 60.0
#: The drop-in's line the kiosk compares with its settings.
MARK = "# event-link broker: "

LookupFn = Callable[[str], list[str]]


class LookupFailed(Exception):
    """The broker's name could not be looked up (the message says why)."""


def dropin_path(etc: Path = Path("/etc")) -> Path:
    """The drop-in under ``etc`` (a temporary root in the tests)."""
    return etc / "systemd" / "system" / "kiosk.service.d" / DROPIN_NAME


def is_address(host: str) -> bool:
    """True for an IPv4 or IPv6 address (no look-up needed), False for a host name."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def normal_broker(enabled: bool, broker: str) -> str | None:
    """The broker the drop-in is for (lower case, an address in its short form), or None: not paired (or paired
    without a broker, which the config refuses anyway). Both sides compare through this one function."""
    host = broker.strip().lower()
    if not enabled or not host:
        return None
    return ipaddress.ip_address(host).compressed if is_address(host) else host


def nameservers(resolv_conf: str) -> list[str]:
    """The DNS servers of a ``resolv.conf`` text, as addresses (a zone index such as ``%eth0`` dropped: the
    address filter has none), in order, once each."""
    out: list[str] = []
    for line in resolv_conf.splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[0] == "nameserver":
            addr = fields[1].split("%", 1)[0]
            if is_address(addr):
                addr = ipaddress.ip_address(addr).compressed
                if addr not in out:
                    out.append(addr)
    return out


def _sorted_addresses(addresses: Sequence[str]) -> list[str]:
    ips = {ipaddress.ip_address(a.split("%", 1)[0]) for a in addresses}
    return [str(ip) for ip in sorted(ips, key=lambda ip: (ip.version, int(ip)))]


def dropin_text(broker: str, addresses: Sequence[str], dns_servers: Sequence[str] = ()) -> str:
    """The drop-in for ``broker`` (as :func:`normal_broker` gives it): its ``addresses`` allowed, and for a broker
    given by name ``dns_servers`` too. Sorted, so the same answers give the same text."""
    addrs = _sorted_addresses(addresses)
    if not addrs:
        raise ValueError(f"no address for the broker {broker}")
    lines = [
        "# Written by kiosk-admin (kiosk/appliance/eventnet.py) from the event settings of the table's kiosk.json:",
        "# while the table is paired, the kiosk may reach its event's broker and nothing else. Removed when the",
        "# table is unpaired; rewritten when the settings change. Do not edit (docs/appliance.md, Hardening).",
        f"{MARK}{broker}",
        "[Service]",
        "PrivateNetwork=no",
        "RestrictAddressFamilies=",
        "RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6",
        "IPAddressDeny=any",
        "IPAddressAllow=",
        "# the machine itself: paho-mqtt's wake-up socket pair is a TCP connection on loopback (without it the",
        "# kiosk hangs at start, seen on the booted table: tests/system/test_events.py)",
        "IPAddressAllow=localhost",
    ]
    if is_address(broker):
        lines.append("# the broker")
    else:
        lines.append(f"# the broker {broker}, as looked up when this was written")
    lines.append(f"IPAddressAllow={' '.join(addrs)}")
    dns = [a for a in _sorted_addresses(dns_servers) if a not in addrs] if not is_address(broker) else []
    if dns:
        lines.append("# the DNS servers of /etc/resolv.conf: the kiosk looks the broker's name up when it connects")
        lines.append(f"IPAddressAllow={' '.join(dns)}")
    return "\n".join(lines) + "\n"


def installed_broker(path: Path = DROPIN) -> str | None:
    """The broker the drop-in at ``path`` was written for (None: no drop-in, or not one of ours)."""
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError):
        return None
    for line in text.splitlines():
        if line.startswith(MARK):
            return line[len(MARK) :].strip() or None
    return None


def write_dropin(path: Path, text: str | None) -> bool:
    """Make the drop-in at ``path`` be ``text`` (None: no drop-in). True when the file changed (the caller then
    reloads systemd and restarts the kiosk); the same text again writes nothing."""
    if text is None:
        try:
            path.unlink()
        except FileNotFoundError:
            return False
        with contextlib.suppress(OSError):
            fsync_dir(path.parent)
        with contextlib.suppress(OSError):
            path.parent.rmdir()  # only when empty (the installer's rotation drop-in lives there too)
        return True
    with contextlib.suppress(OSError):
        if path.read_text() == text:
            return False
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, text.encode())
    path.chmod(0o644)
    return True


def configured_broker(config_path: Path) -> str | None:
    """(The root helper) the broker the table's saved settings pair it with, or None: read as the kiosk reads
    them (``kiosk.json``; its last good copy when the file does not load; nothing usable: not paired). A symbolic
    link is refused (the kiosk owns the folder; root reads only its plain files)."""
    from kiosk import config as kconfig

    for path in (config_path, kconfig.last_good_path(config_path)):
        if path.is_symlink():
            continue
        try:
            cfg = kconfig.load(path, create=False) if path.exists() else None
        except kconfig.ConfigError:
            continue
        if cfg is not None:
            return normal_broker(cfg.event.enabled, cfg.event.broker)
    return None


# ------------------------------------------------------------------------------------------------ look-ups
def local_lookup(host: str) -> list[str]:
    """``host``'s addresses, looked up in this process (``/etc/hosts``, DNS, mDNS: as every program does)."""
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise LookupFailed(str(exc.args[-1] if isinstance(exc, socket.gaierror) else exc)) from None
    addrs = [str(info[4][0]) for info in infos if info[0] in (socket.AF_INET, socket.AF_INET6)]
    if not addrs:
        raise LookupFailed("no IPv4 or IPv6 address")
    return _sorted_addresses(addrs)


def sandboxed_lookup(host: str, timeout: float = 40.0) -> list[str]:
    """``host``'s addresses, looked up by this module in a transient unit (``systemd-run``) as a dynamic user
    with the host's network, for a caller without network of its own (``kiosk-admin.service``)."""
    cmd = [
        "systemd-run",
        "--quiet",
        "--wait",
        "--pipe",
        "--collect",
        "--property=DynamicUser=yes",
        "--property=PrivateDevices=yes",
        "--property=ProtectHome=yes",
        "--property=NoNewPrivileges=yes",
        "--property=RuntimeMaxSec=30",
        "--",
        sys.executable,
        "-m",
        "kiosk.appliance.eventnet",
        "lookup",
        host,
    ]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise LookupFailed(f"systemd-run: {exc}") from None
    try:
        answer = json.loads(proc.stdout.strip().splitlines()[-1])
        if "addresses" in answer:
            return _sorted_addresses([str(a) for a in answer["addresses"]])
        raise LookupFailed(str(answer["error"]))
    except (ValueError, IndexError, KeyError, TypeError):
        raise LookupFailed(f"systemd-run: {(proc.stderr or proc.stdout).strip()[:200] or proc.returncode}") from None


@functools.cache
def inet_allowed() -> bool:
    """Whether this process may open internet sockets at all (False in the kiosk's unpaired sandbox, and in
    ``kiosk-admin.service``); a process's sandbox does not change while it runs."""
    try:
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close()
    except OSError as exc:
        return exc.errno not in (errno.EAFNOSUPPORT, errno.EPERM, errno.EACCES)
    return True


def lookup(host: str) -> list[str]:
    """``host``'s addresses: in this process when it has the network, else through :func:`sandboxed_lookup` (and,
    should that fail, in this process after all: ``/etc/hosts`` and mDNS need no network of its own)."""
    if inet_allowed():
        return local_lookup(host)
    try:
        return sandboxed_lookup(host)
    except LookupFailed as exc:
        try:
            return local_lookup(host)
        except LookupFailed:
            raise exc from None


def broker_dropin(
    broker: str,
    resolv_conf: Path,
    lookup_fn: LookupFn = lookup,
    wait_s: float = 0.0,
    sleep: Callable[[float], None] = time.sleep,
) -> str:
    """The drop-in's text for ``broker`` (:func:`normal_broker`'s form): its addresses looked up (a failure tried
    again every 5 s for ``wait_s``; then :class:`LookupFailed`), the DNS servers from ``resolv_conf``."""
    if is_address(broker):
        return dropin_text(broker, [broker])
    deadline = time.monotonic() + wait_s
    while True:
        try:
            addrs = lookup_fn(broker)
            break
        except LookupFailed:
            if time.monotonic() >= deadline:
                raise
            sleep(5.0)
    try:
        dns = nameservers(resolv_conf.read_text())
    except (OSError, UnicodeDecodeError):
        dns = []
    return dropin_text(broker, addrs, dns)


# ------------------------------------------------------------------------------------------------ the kiosk's side
def managed(state_dir: Path, helper_unit: Path | None = None, table_dir: Path | None = None) -> bool:
    """Whether the network is the root helper's to open: the helper is installed (``helper_unit``, default
    :data:`kiosk.appliance.requests.HELPER_UNIT`) and ``state_dir`` is the installed table's (``table_dir``,
    default :func:`kiosk.config.table_state_dir`). Elsewhere (a development machine, the tests) the kiosk has no
    sandbox of ours and its link just connects."""
    from kiosk.appliance.requests import HELPER_UNIT
    from kiosk.config import table_state_dir

    if not (helper_unit or HELPER_UNIT).exists():
        return False
    try:
        return Path(state_dir).resolve() == (table_dir or table_state_dir()).resolve()
    except OSError:
        return False


def should_ask(
    state_dir: Path,
    enabled: bool,
    broker: str,
    *,
    at_start: bool = False,
    dropin: Path = DROPIN,
    helper_unit: Path | None = None,
    table_dir: Path | None = None,
) -> bool:
    """(The kiosk) whether to ask the root helper for its network: the drop-in is not the one the settings want
    (paired, unpaired, another broker), or, ``at_start``, the broker is a name to look up again."""
    if not managed(state_dir, helper_unit, table_dir):
        return False
    wanted = normal_broker(enabled, broker)
    if wanted != installed_broker(dropin):
        return True
    return at_start and wanted is not None and not is_address(wanted)


def network_state(
    state_dir: Path,
    enabled: bool,
    broker: str,
    *,
    dropin: Path = DROPIN,
    helper_unit: Path | None = None,
    table_dir: Path | None = None,
    inet: bool | None = None,
) -> tuple[str, str]:
    """(The kiosk, for the operator menu) ``("", "")``: nothing to say (not paired, not an installed table, or the
    network is open as the settings want); ``("pending", "")``: the helper is asked, or the drop-in is written and
    this process started before it (the restart is on its way); ``("closed", reason)``: the drop-in is not the one
    the settings want, with the helper's reason when its last answer was a refusal. ``inet`` defaults to
    :func:`inet_allowed`."""
    from kiosk.appliance.requests import pending, read_status

    wanted = normal_broker(enabled, broker)
    if wanted is None or not managed(state_dir, helper_unit, table_dir):
        return "", ""
    if KIND in pending(state_dir):
        return "pending", ""
    if installed_broker(dropin) != wanted:
        last = read_status(state_dir)
        failed = last.get("kind") == KIND and last.get("ok") is False
        return "closed", str(last.get("message", "")) if failed else ""
    if not (inet_allowed() if inet is None else inet):
        return "pending", ""
    return "", ""


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m kiosk.appliance.eventnet lookup NAME``: one JSON line (see the module docstring)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2 or args[0] != "lookup":
        print("usage: python -m kiosk.appliance.eventnet lookup NAME", file=sys.stderr)
        return 2
    try:
        print(json.dumps({"addresses": local_lookup(args[1])}))
    except LookupFailed as exc:
        print(json.dumps({"error": str(exc)}))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
