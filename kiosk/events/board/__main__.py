"""``kiosk-eventboard`` (or ``python -m kiosk.events.board``): the event board service (``docs/owner/events.md``).

    kiosk-eventboard --event summer-fair --title "Summer Fair" --table t1 --table t2 \\
        --broker localhost --user eventboard --password-file /etc/eventboard/mqtt-password \\
        --admin-password-file /etc/eventboard/admin-password --db /var/lib/eventboard/board.sqlite --http-port 8080
"""

from __future__ import annotations

import argparse
import logging
import socket
import sys
from pathlib import Path

from kiosk.events.contract import SLUG


def _secret(path: str | None) -> str:
    return Path(path).read_text(encoding="utf-8").strip() if path else ""


def _slug(text: str) -> str:
    if not SLUG.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text[:50]!r}: lower-case letters, digits and dashes, at most 40")
    return text


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="kiosk-eventboard", description="The event board service.")
    p.add_argument("--event", type=_slug, required=True, help="the event's short name (as the tables are set up)")
    p.add_argument("--title", default="", help="the event's name on the wall page (default: --event)")
    p.add_argument("--table", type=_slug, action="append", default=[], help="a table of the event (repeatable)")
    p.add_argument("--broker", default="localhost")
    p.add_argument("--port", type=int, default=1883)
    p.add_argument("--user", default="eventboard", help="the service's broker user")
    p.add_argument("--password-file", help="a file holding the service's broker password")
    p.add_argument("--tls", action="store_true", help="talk TLS to the broker")
    p.add_argument("--ca-file", default="", help="the CA certificate for --tls (default: the system's)")
    p.add_argument("--admin-password-file", help="a file holding the admin password (no file: no admin actions)")
    p.add_argument("--db", default="eventboard.sqlite", help="the SQLite file (created if missing)")
    p.add_argument("--http-host", default="0.0.0.0")
    p.add_argument("--http-port", type=int, default=8080)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    import uvicorn

    from .collector import Collector
    from .store import BoardStore
    from .web import make_app

    store = BoardStore(args.db)
    store.ensure_event(args.event, args.title, args.table)
    collector = Collector(
        store, args.event, args.broker, args.port, args.user, _secret(args.password_file), args.tls, args.ca_file
    )
    app = make_app(store, args.event, _secret(args.admin_password_file), collector)
    listener = listen(args.http_host, args.http_port)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=GRACE_S)
    collector.start()
    try:
        uvicorn.Server(config).run(sockets=[listener])
    except KeyboardInterrupt:  # Ctrl-C in a terminal: stopped as asked, no traceback
        logging.getLogger("kiosk.events.board").info("event board stopped (Ctrl-C)")
    finally:
        collector.stop()
        store.close()
    return 0


#: The send buffer of every connection (accepted sockets take it from the listening one): a wall page that stops
#: reading holds this much of its stream in the kernel, a few snapshots at most, not megabytes of old ones
#: (:mod:`.web`: the service itself holds only the latest).
SEND_BUFFER = 64 * 1024
#: Seconds the service waits for open streams when it stops (a stalled page must not hold it up).
GRACE_S = 3


def listen(host: str, port: int) -> socket.socket:
    """The HTTP listening socket, with :data:`SEND_BUFFER`."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


if __name__ == "__main__":
    sys.exit(main())
