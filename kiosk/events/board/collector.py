"""The event board's MQTT side: every table's games and status into the database, receipts and the boards back out.

It subscribes to ``kiosk/events/<event>/tables/+/games`` and ``.../status`` with a persistent session (a fixed
client id, ``clean_session`` off, QoS 1): while the service is down the broker keeps what the tables send, and
hands it over when the service is back. Each message is checked (:mod:`kiosk.events.contract`, then
:meth:`BoardStore.add`: the game's possible results, the clock); a refused one is logged in one line naming its
table and dropped, nothing else is lost. A record stored (committed), or one already held (a copy), is answered
with a receipt on its table's ``.../receipts`` topic: only then does the table forget it. Paho acknowledges the
broker's delivery after this handler returns, so a service killed before its commit gets the record again.

The event's boards go out retained at ``kiosk/events/<event>/board`` for the tables' attract mode (their best
:func:`~kiosk.events.contract.board_rows`, so the message always fits the contract's limit): at every connection
(a broker that lost its retained messages gets them back), after new records (at most every :data:`BOARD_EVERY_S`),
after the organiser's changes, and every :data:`BOARD_REFRESH_S` (the "today" and "last hour" boards move on with
the clock). ``listeners`` hear of every new record and status change (the web page's live stream), from paho's
thread.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import paho.mqtt.client as mqtt

from kiosk.events.contract import (
    MAX_BYTES,
    ContractError,
    board_topic,
    decode,
    encode,
    parse_topic,
    receipt_payload,
    receipts_topic,
    table_board,
)

from .store import BoardStore, Refused

__all__ = ["Collector", "BOARD_EVERY_S", "BOARD_REFRESH_S"]

log = logging.getLogger("kiosk.events.board")

#: The shortest time between two retained board messages (a burst of games makes one board message).
BOARD_EVERY_S = 1.0
#: The longest: the board goes out again this often even when no game came (its periods move on).
BOARD_REFRESH_S = 60.0


class Collector:
    """Collects ``event``'s records from the broker into ``store`` (see the module docstring)."""

    def __init__(
        self,
        store: BoardStore,
        event: str,
        broker: str,
        port: int,
        user: str = "",
        password: str = "",
        tls: bool = False,
        ca_file: str = "",
        client_id: str | None = None,
    ) -> None:
        self.store = store
        self.event = event
        self.listeners: list[Callable[[str, dict[str, Any]], None]] = []
        self.connected = threading.Event()
        self.refused = 0
        self.receipts = 0
        #: the size of the last board message published (bytes)
        self.board_bytes = 0
        self._board_timer: threading.Timer | None = None
        self._board_lock = threading.Lock()
        self._stop = threading.Event()
        self._refresher: threading.Thread | None = None
        c = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id=client_id or f"eventboard-{event}", clean_session=False
        )
        if user:
            c.username_pw_set(user, password or None)
        if tls:
            c.tls_set(ca_certs=ca_file or None)
        c.reconnect_delay_set(1, 10)
        c.max_inflight_messages_set(100)
        c.max_queued_messages_set(0)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_message = self._on_message
        self.client = c
        self.broker, self.port = broker, port

    def start(self) -> None:
        self.client.connect_async(self.broker, self.port, keepalive=30)
        self.client.loop_start()
        self._refresher = threading.Thread(target=self._refresh, name="eventboard-refresh", daemon=True)
        self._refresher.start()

    def stop(self) -> None:
        self._stop.set()
        with self._board_lock:
            if self._board_timer is not None:
                self._board_timer.cancel()
        self.client.disconnect()
        self.client.loop_stop()

    def _refresh(self) -> None:
        while not self._stop.wait(BOARD_REFRESH_S):
            if self.connected.is_set():
                self.publish_board()

    # ---------------------------------------------------------------------------------------------- paho's thread
    def _on_connect(self, client: mqtt.Client, _u: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if reason.is_failure:
            log.error("the broker refused the event board: %s", reason)
            return
        base = f"kiosk/events/{self.event}/tables/+"
        client.subscribe([(f"{base}/games", 1), (f"{base}/status", 1)])
        self.connected.set()
        self.publish_board()

    def _on_disconnect(self, _c: mqtt.Client, _u: Any, _flags: Any, reason: Any, _props: Any) -> None:
        self.connected.clear()
        if reason.is_failure:
            log.warning("event board: connection to the broker lost (%s); reconnecting", reason)

    def _on_message(self, _c: mqtt.Client, _u: Any, msg: mqtt.MQTTMessage) -> None:
        table: str | None = None
        data: Any = None
        try:
            event, table, kind = parse_topic(msg.topic)
            data = decode(msg.payload)
            if event != self.event or table is None:
                raise Refused(f"not this event's table topic: {msg.topic[:120]}")
            if kind == "status":
                self._status(table, data)
                return
            if kind != "games":
                raise Refused(f"not a topic the event board reads: {msg.topic[:120]}")
            if not isinstance(data, dict) or data.get("table") != table or data.get("event") != event:
                raise Refused(f"the record's table or event is not its topic's ({msg.topic[:120]})")
            new = self.store.add(data)  # committed (on the disk) when it returns
        except sqlite3.Error as exc:  # the disk: no receipt, so the table sends it again later
            log.error("event board: could not store a game from table %s: %s", str(table)[:40], exc)
            return
        except (ContractError, Refused) as exc:
            self.refused += 1
            rid = data.get("id") if isinstance(data, dict) else None
            game = data.get("game") if isinstance(data, dict) else None
            log.warning(
                "event board: refused a message from table %s (%s %s) on %s: %s",
                str(table)[:40],
                str(game)[:32],
                str(rid)[:32],
                msg.topic[:120],
                exc,
            )
            return
        # stored, or held already (a copy): the table may forget it either way
        self.client.publish(receipts_topic(self.event, table), receipt_payload([data["id"]]), qos=1)
        self.receipts += 1
        if new:
            self._tell("record", data)
            self.publish_board(soon=True)

    def _status(self, table: str, data: Any) -> None:
        if not isinstance(data, dict) or data.get("state") not in ("online", "offline"):
            raise Refused("a status is {state: online|offline}")
        at = str(data.get("at", ""))[:20]
        if not self.store.set_status(self.event, table, data["state"], at):
            raise Refused(f"table {table!r} is not registered for {self.event!r}")
        self._tell("tables", {"tables": self.store.tables(self.event)})

    def _tell(self, kind: str, data: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            try:
                listener(kind, data)
            except Exception:
                log.exception("event board: a listener failed")

    # ---------------------------------------------------------------------------------------------- boards
    def publish_board(self, soon: bool = False) -> None:
        """Publish the event's boards retained: now, or with ``soon`` once within :data:`BOARD_EVERY_S`."""
        with self._board_lock:
            if soon:
                if self._board_timer is None and not self._stop.is_set():
                    self._board_timer = threading.Timer(BOARD_EVERY_S, self._board_now)
                    self._board_timer.daemon = True
                    self._board_timer.start()
                return
        self._board_now()

    def board_message(self, now: datetime | None = None) -> bytes:
        """The retained board message as it would go out now (within :data:`MAX_BYTES` by design)."""
        now = now or datetime.now(UTC)
        full = self.store.boards(self.event, now=now)
        return encode(table_board(self.event, full["title"], now, full["games"]))

    def _board_now(self) -> None:
        with self._board_lock:
            self._board_timer = None
        try:
            payload = self.board_message()
        except ContractError as exc:  # cannot happen by design (the rows are chosen to fit); say so loudly if it does
            log.error("event board: the board message does not fit %d bytes: %s", MAX_BYTES, exc)
            return
        self.board_bytes = len(payload)
        self.client.publish(board_topic(self.event), payload, qos=1, retain=True)
