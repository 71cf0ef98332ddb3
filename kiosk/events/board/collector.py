"""The event board's MQTT side: every table's games and status into the database, the boards back out retained.

It subscribes to ``kiosk/events/<event>/tables/+/games`` and ``.../status`` with a persistent session (a fixed
client id, ``clean_session`` off, QoS 1): while the service is down the broker keeps what the tables send, and
hands it over when the service is back. Each message is checked (:mod:`kiosk.events.contract`, then
:meth:`BoardStore.add`); a refused one is logged in one line and dropped, nothing else is lost. After new records
the event's boards are published retained at ``kiosk/events/<event>/board`` (at most every
:data:`BOARD_EVERY_S`), for the tables' attract mode. ``listeners`` hear of every new record and status change
(the web page's live stream), from paho's thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from kiosk.events.contract import ContractError, board_topic, decode, encode, parse_topic

from .store import BoardStore, Refused

__all__ = ["Collector", "BOARD_EVERY_S"]

log = logging.getLogger("kiosk.events.board")

#: The shortest time between two retained board messages (a burst of games makes one board message).
BOARD_EVERY_S = 1.0


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
        self._board_timer: threading.Timer | None = None
        self._board_lock = threading.Lock()
        c = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id=client_id or f"eventboard-{event}", clean_session=False
        )
        if user:
            c.username_pw_set(user, password or None)
        if tls:
            c.tls_set(ca_certs=ca_file or None)
        c.reconnect_delay_set(1, 10)
        c.max_inflight_messages_set(100)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_message = self._on_message
        self.client = c
        self.broker, self.port = broker, port

    def start(self) -> None:
        self.client.connect_async(self.broker, self.port, keepalive=30)
        self.client.loop_start()

    def stop(self) -> None:
        if self._board_timer is not None:
            self._board_timer.cancel()
        self.client.disconnect()
        self.client.loop_stop()

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
        try:
            event, table, kind = parse_topic(msg.topic)
            data = decode(msg.payload)
            if event != self.event or table is None:
                raise Refused(f"not this event's table topic: {msg.topic[:120]}")
            if kind == "status":
                self._status(table, data)
                return
            if not isinstance(data, dict) or data.get("table") != table or data.get("event") != event:
                raise Refused(f"the record's table or event is not its topic's ({msg.topic[:120]})")
            new = self.store.add(data)
        except (ContractError, Refused) as exc:
            self.refused += 1
            log.warning("event board: refused a message on %s: %s", msg.topic[:120], exc)
            return
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
                if self._board_timer is None:
                    self._board_timer = threading.Timer(BOARD_EVERY_S, self._board_now)
                    self._board_timer.daemon = True
                    self._board_timer.start()
                return
        self._board_now()

    def _board_now(self) -> None:
        with self._board_lock:
            self._board_timer = None
        try:
            payload = encode(self.store.boards(self.event))
        except ContractError as exc:  # too many games for one message: the wall page still has them all
            log.warning("event board: the board message is not published: %s", exc)
            return
        self.client.publish(board_topic(self.event), payload, qos=1, retain=True)
