"""The event board's web side (Starlette, served by uvicorn): the wall page, its JSON API and its live stream.

* ``GET /``: the page for a wall screen or a phone (``page.html``): each game's boards (the event, today, the last
  hour), the latest games, which tables are online; it fits the screen without scrolling (1280x720 to 3840x2160;
  the boards turn page by page when more games than fit), updates itself from the stream, reconnects on its own
  after the service restarts or the network pauses, and never needs a reload.
* ``GET /api/board``: the same as JSON (:meth:`Snapshots.snapshot`); ``GET /api/stream``: Server-Sent Events, a
  ``snapshot`` event at once and after every change (changes within :data:`COALESCE_S` make one), and a ``ping``
  every :data:`PING_S` seconds, so the page knows the stream is alive: it shows "live" only while these arrive.
  Snapshots replace each other: a reader that stops reading (weak Wi-Fi, a screen asleep) holds at most the one
  being written to it, and gets the latest when it reads again, never a backlog; ``GET /api/status``: the stream's
  readers and the collector's counts.
* ``POST /api/admin/...``: open or close the event, register a table, hide or show an entry; HTTP Basic auth with
  the admin password (any user name). Everything else is read-only.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hmac
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from kiosk.events.contract import SLUG

from .store import BoardStore, clean_title

__all__ = ["make_app", "Snapshots", "COALESCE_S", "PING_S", "REFRESH_S"]

log = logging.getLogger("kiosk.events.board")

#: Changes closer together than this make one snapshot on the stream.
COALESCE_S = 0.1
#: Seconds between pings on the stream (the page calls the stream lost after a few missed; proxies and phones
#: drop silent connections).
PING_S = 3.0
#: Seconds between snapshots when nothing changes (the "today" and "last hour" boards move on with the clock).
REFRESH_S = 60.0
PAGE = Path(__file__).with_name("page.html")


class Reader:
    """One page on the stream: woken when a newer snapshot is there (it then takes the latest, whichever)."""

    def __init__(self) -> None:
        self.wake = asyncio.Event()


class Snapshots:
    """What the page shows, and the live stream's readers (on the server's loop)."""

    def __init__(self, store: BoardStore, event: str) -> None:
        self.store, self.event = store, event
        self.readers: set[Reader] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        #: the latest snapshot, numbered, as the stream sends it
        self.version = 0
        self.text = ""
        self._pending = False

    def snapshot(self) -> dict[str, Any]:
        boards = {
            key: {"title": r.title, "unit": r.unit, "lower_is_better": r.lower_is_better}
            for key, r in self.store.rules.items()
        }
        return {
            "version": self.version,
            "board": self.store.boards(self.event),
            "boards": boards,
            "latest": self.store.latest(self.event, 12),
            "tables": self.store.tables(self.event),
            "games": self.store.count(self.event),
            "ping_s": PING_S,
        }

    def changed(self, _kind: str = "", _data: Any = None) -> None:
        """Something changed (from any thread): one snapshot goes to every reader shortly."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._schedule)

    def _schedule(self) -> None:
        if not self._pending:
            self._pending = True
            assert self.loop is not None
            self.loop.call_later(COALESCE_S, self.refresh)

    def refresh(self) -> str:
        """Make the latest snapshot (it replaces the one before) and wake every reader; the snapshot's text."""
        self._pending = False
        self.version += 1
        self.text = _sse("snapshot", self.snapshot())
        for reader in self.readers:
            reader.wake.set()
        return self.text


def _sse(kind: str, data: Any) -> str:
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def make_app(store: BoardStore, event: str, admin_password: str = "", collector: Any = None) -> Starlette:
    """The web app for ``event``; ``collector`` (a :class:`~.collector.Collector`) is told about admin changes
    so the retained board follows."""
    snaps = Snapshots(store, event)
    if collector is not None:
        collector.listeners.append(snaps.changed)

    def after_admin() -> None:
        snaps.changed()
        if collector is not None:
            collector.publish_board()

    async def page(_request: Request) -> Response:
        return HTMLResponse(PAGE.read_text(encoding="utf-8"), headers={"Cache-Control": "no-cache"})

    async def board(_request: Request) -> Response:
        return JSONResponse(snaps.snapshot())

    async def stream(request: Request) -> Response:
        reader = Reader()
        first = snaps.text or snaps.refresh()
        snaps.readers.add(reader)

        async def events() -> AsyncIterator[str]:
            try:
                yield "retry: 1000\n\n"
                yield first
                while True:
                    try:
                        await asyncio.wait_for(reader.wake.wait(), PING_S)
                    except TimeoutError:
                        if await request.is_disconnected():
                            break
                        yield _sse("ping", {"version": snaps.version})
                        continue
                    reader.wake.clear()
                    yield snaps.text  # the latest: those made while this reader was not reading are gone
            finally:
                snaps.readers.discard(reader)

        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(events(), media_type="text/event-stream", headers=headers)

    async def status(_request: Request) -> Response:
        info: dict[str, Any] = {"readers": len(snaps.readers), "version": snaps.version}
        if collector is not None:
            info.update(
                connected=collector.connected.is_set(),
                receipts=collector.receipts,
                refused=collector.refused,
                board_bytes=collector.board_bytes,
            )
        return JSONResponse(info)

    def authorised(request: Request) -> bool:
        if not admin_password:
            return False  # no admin password set: the admin actions are off
        auth = request.headers.get("authorization", "")
        if not auth.startswith("Basic "):
            return False
        try:
            _user, _, given = base64.b64decode(auth[6:]).decode().partition(":")
        except (ValueError, UnicodeDecodeError):
            return False
        return hmac.compare_digest(given.encode(), admin_password.encode())

    async def admin(request: Request) -> Response:
        if not authorised(request):
            return JSONResponse({"error": "the admin password is needed"}, 401, {"WWW-Authenticate": "Basic"})
        action = request.path_params["action"]
        arg = request.path_params.get("arg", "")
        if action == "open":
            body = await _json(request)
            title = body.get("title")
            store.open_event(event, clean_title(title) if isinstance(title, str) else "")
        elif action == "close":
            store.close_event(event)
        elif action in ("hide", "show"):
            if not store.hide(arg, hidden=action == "hide"):
                return JSONResponse({"error": f"no record {arg[:40]!r}"}, 404)
        elif action == "table":
            if not SLUG.fullmatch(arg):
                return JSONResponse({"error": "a table's name is a slug: a-z, 0-9 and dashes"}, 400)
            store.register_table(event, arg)
        else:
            return JSONResponse({"error": f"unknown action {action[:40]!r}"}, 404)
        log.info("event board admin: %s %s", action, arg)
        after_admin()
        return JSONResponse({"ok": True})

    async def refresher() -> None:
        while True:
            await asyncio.sleep(REFRESH_S)
            snaps.refresh()

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        snaps.loop = asyncio.get_running_loop()
        task = asyncio.create_task(refresher())
        yield
        task.cancel()
        snaps.loop = None

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/api/board", board),
            Route("/api/stream", stream),
            Route("/api/status", status),
            Route("/api/admin/{action}", admin, methods=["POST"]),
            Route("/api/admin/{action}/{arg}", admin, methods=["POST"]),
        ],
        lifespan=lifespan,
    )
    app.state.snapshots = snaps
    return app


async def _json(request: Request) -> dict[str, Any]:
    try:
        data = await request.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
