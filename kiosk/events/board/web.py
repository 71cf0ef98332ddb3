"""The event board's web side (Starlette, served by uvicorn): the wall page, its JSON API and its live stream.

* ``GET /``: the page for a wall screen or a phone (``page.html``): each game's boards (the event, today, the last
  hour), the latest games, which tables are online; it updates itself from the stream, reconnects on its own after
  the service restarts, and never needs a reload.
* ``GET /api/board``: the same as JSON (:meth:`Snapshots.snapshot`); ``GET /api/stream``: Server-Sent Events, a
  ``snapshot`` event at once and after every change (changes within :data:`COALESCE_S` make one).
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

from .store import BoardStore

__all__ = ["make_app", "Snapshots", "COALESCE_S"]

log = logging.getLogger("kiosk.events.board")

#: Changes closer together than this make one snapshot on the stream.
COALESCE_S = 0.1
#: Seconds between keep-alive comments on an idle stream (proxies and phones drop silent connections).
KEEPALIVE_S = 15.0
PAGE = Path(__file__).with_name("page.html")


class Snapshots:
    """What the page shows, and the live stream's subscribers (each an asyncio queue on the server's loop)."""

    def __init__(self, store: BoardStore, event: str) -> None:
        self.store, self.event = store, event
        self.queues: set[asyncio.Queue[str]] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self._pending = False

    def snapshot(self) -> dict[str, Any]:
        return {
            "board": self.store.boards(self.event),
            "latest": self.store.latest(self.event, 12),
            "tables": self.store.tables(self.event),
            "games": self.store.count(self.event),
        }

    def changed(self, _kind: str = "", _data: Any = None) -> None:
        """Something changed (from any thread): one snapshot goes to every subscriber shortly."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._schedule)

    def _schedule(self) -> None:
        if not self._pending:
            self._pending = True
            assert self.loop is not None
            self.loop.call_later(COALESCE_S, self._send)

    def _send(self) -> None:
        self._pending = False
        if not self.queues:
            return
        text = _sse("snapshot", self.snapshot())
        for q in list(self.queues):
            if q.qsize() > 20:  # a stalled reader: dropped, its browser reconnects
                self.queues.discard(q)
            q.put_nowait(text)


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
        q: asyncio.Queue[str] = asyncio.Queue()
        q.put_nowait(_sse("snapshot", snaps.snapshot()))
        snaps.queues.add(q)

        async def events() -> AsyncIterator[str]:
            try:
                yield "retry: 1000\n\n"
                while True:
                    try:
                        yield await asyncio.wait_for(q.get(), KEEPALIVE_S)
                    except TimeoutError:
                        if await request.is_disconnected():
                            break
                        yield ": keep-alive\n\n"
            finally:
                snaps.queues.discard(q)

        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(events(), media_type="text/event-stream", headers=headers)

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
            store.open_event(event, title[:80] if isinstance(title, str) and title.strip() else event)
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

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        snaps.loop = asyncio.get_running_loop()
        yield
        snaps.loop = None

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/api/board", board),
            Route("/api/stream", stream),
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
