"""The table's link to its event's broker: the outbox published in order with QoS 1, the event's board kept.

    >>> link = EventLink(cfg.event, Outbox(state / "events" / "outbox.jsonl"), on_change=...)   # doctest: +SKIP
    >>> link.start()                  # doctest: +SKIP
    >>> link.publish(record)          # doctest: +SKIP
    >>> link.state, len(link.outbox), link.board                                               # doctest: +SKIP

Nothing here blocks its caller on the network: :meth:`EventLink.publish` writes the outbox and wakes the sender
thread, which keeps at most :data:`WINDOW` records in flight and marks each sent on its PUBACK. After a lost
connection paho sends again what was in flight; a record still unacknowledged after :data:`RETRY_S` online is
published again (the record's id makes a second copy harmless). ``on_change`` and ``on_board`` are called from the
link's threads: the app moves them onto the UI thread. The table's status is retained on the broker, with an
"offline" Last Will.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import ssl
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from .contract import ContractError, board_topic, check_board, decode, encode, games_topic, status_payload, status_topic
from .outbox import Outbox

__all__ = ["EventLink", "WINDOW", "RETRY_S"]

log = logging.getLogger("kiosk.events")

#: Records in flight at once (sent, PUBACK not yet back).
WINDOW = 20
#: Seconds online after which an unacknowledged record is published again.
RETRY_S = 30.0
#: Seconds between reconnection attempts: from the first to the longest.
RECONNECT_S = (1, 30)


class EventLink:
    """Publishes ``outbox`` to the broker of ``settings`` (an :class:`~kiosk.config.EventConfig`)."""

    def __init__(
        self,
        settings: Any,
        outbox: Outbox,
        on_change: Callable[[], None] | None = None,
        on_board: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.settings = settings
        self.outbox = outbox
        self.on_change = on_change
        self.on_board = on_board
        #: off (not started), connecting, online, offline (lost: paho retries)
        self.state = "off"
        #: the last connection problem, in words ("" when none)
        self.error = ""
        #: the event's board, as the event board last published it (None until one arrives)
        self.board: dict[str, Any] | None = None
        self._inflight: dict[int, tuple[str, float]] = {}  # paho mid -> (record id, when sent)
        self._acks: queue.SimpleQueue[int] = queue.SimpleQueue()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._online_since = 0.0
        self._refused = ""
        self.client = self._client()

    def _client(self) -> mqtt.Client:
        s = self.settings
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"kiosk-{s.event}-{s.table}")
        if s.user:
            client.username_pw_set(s.user, s.password or None)
        if s.tls:
            client.tls_set(ca_certs=s.ca_file or None, cert_reqs=ssl.CERT_REQUIRED)
        client.will_set(status_topic(s.event, s.table), status_payload(s.table, "offline"), qos=1, retain=True)
        client.reconnect_delay_set(*RECONNECT_S)
        client.max_queued_messages_set(0)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        return client

    # ---------------------------------------------------------------------------------------------- running
    def start(self) -> None:
        """Connect in the background (paho's thread) and start the sender thread."""
        if self._thread is not None:
            return
        self._set("connecting", "")
        self._thread = threading.Thread(target=self._send_loop, name="event-link", daemon=True)
        self._thread.start()
        self.client.connect_async(self.settings.broker, self.settings.port, keepalive=30)
        self.client.loop_start()

    def stop(self, timeout: float = 2.0) -> None:
        """Say "offline", disconnect and stop both threads (what is not acknowledged stays in the outbox)."""
        if self._thread is None:
            return
        if self.state == "online":
            s = self.settings
            info = self.client.publish(status_topic(s.event, s.table), status_payload(s.table, "offline"), 1, True)
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(timeout)
        self._stop.set()
        self._wake.set()
        self.client.disconnect()
        self.client.loop_stop()
        self._thread.join(timeout)
        self._thread = None
        self._set("off", self.error)

    def publish(self, record: dict[str, Any]) -> None:
        """Keep ``record`` in the outbox (synced before this returns) and have it sent when the broker is there."""
        self.outbox.add(record)
        self._wake.set()
        self._changed()

    # ---------------------------------------------------------------------------------------------- paho's thread
    def _on_connect(self, client: mqtt.Client, _u: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if reason.is_failure:
            self._refused = f"the broker refused the table: {reason}"
            self._set("offline", self._refused)
            return
        self._refused = ""
        s = self.settings
        client.publish(status_topic(s.event, s.table), status_payload(s.table, "online"), qos=1, retain=True)
        client.subscribe(board_topic(s.event), qos=1)
        self._online_since = time.monotonic()
        self._set("online", "")
        self._wake.set()

    def _on_disconnect(self, _c: mqtt.Client, _u: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if self._stop.is_set():
            return
        lost = f"connection lost: {reason}" if reason.is_failure else ""
        self._set("offline", self._refused or lost)  # after a refusal, the refusal is what to fix

    def _on_publish(self, _c: mqtt.Client, _u: Any, mid: int, _reason: Any, _props: Any) -> None:
        self._acks.put(mid)
        self._wake.set()

    def _on_message(self, _c: mqtt.Client, _u: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            board = check_board(decode(msg.payload), self.settings.event)
        except ContractError as exc:
            log.warning("event board message on %s ignored: %s", msg.topic[:120], exc)
            return
        self.board = board
        if self.on_board is not None:
            self.on_board(board)

    # ---------------------------------------------------------------------------------------------- sender
    def _send_loop(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(1.0)
            self._wake.clear()
            try:
                self._take_acks()
                if self.state == "online":
                    self._fill()
            except Exception:  # the link must never take the table down
                log.exception("event link: sending failed")
                time.sleep(1.0)

    def _take_acks(self) -> None:
        acked = False
        while True:
            try:
                mid = self._acks.get_nowait()
            except queue.Empty:
                break
            sent = self._inflight.pop(mid, None)
            if sent is not None:
                self.outbox.sent(sent[0])
                acked = True
        if acked:
            self._changed()

    def _fill(self) -> None:
        now = time.monotonic()
        if now - self._online_since > RETRY_S:
            for mid, (_rid, at) in list(self._inflight.items()):
                if now - at > RETRY_S:
                    del self._inflight[mid]  # published again below; the id makes a second copy harmless
        flying = {rid for rid, _at in self._inflight.values()}
        room = WINDOW - len(self._inflight)
        if room <= 0:
            return
        s = self.settings
        for record in self.outbox.pending(limit=WINDOW + len(flying)):
            if room <= 0 or self.state != "online":
                break
            if record["id"] in flying:
                continue
            info = self.client.publish(games_topic(s.event, s.table), encode(record), qos=1)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                break  # not connected after all: the next connection sends it
            self._inflight[info.mid] = (record["id"], time.monotonic())
            room -= 1

    # ---------------------------------------------------------------------------------------------- state
    def _set(self, state: str, error: str) -> None:
        if (state, error) != (self.state, self.error):
            self.state, self.error = state, error
            if error:
                log.warning("event link %s: %s", state, error)
            self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()
