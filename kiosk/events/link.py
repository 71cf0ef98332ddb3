"""The table's link to its event's broker: the outbox published in order with QoS 1 until the event board's receipt,
and the event's board kept.

    >>> link = EventLink(cfg.event, Outbox(state / "events" / "outbox.jsonl"), on_change=...)   # doctest: +SKIP
    >>> link.start()                  # doctest: +SKIP
    >>> link.publish(record)          # doctest: +SKIP
    >>> link.state, len(link.outbox), link.board                                               # doctest: +SKIP

Nothing here blocks its caller on the network: :meth:`EventLink.publish` checks the record (the contract, and the
results its game can produce: a record outside them is refused with a log line naming the table), writes the outbox
and wakes the sender thread, which keeps at most :data:`WINDOW` records in flight. A record leaves the outbox only
when the event board's receipt for it comes (on the table's own receipts topic, which the broker lets only this
table read), sent after the board's database has it: the broker's PUBACK is one hop, and a broker that dies
uncleanly may never hand a game on. A record in flight without a receipt is published again on every new
connection and, online, after :data:`RETRY_S`, then twice as long each time up to :data:`RETRY_MAX_S` (the event
board may be down, or may refuse it for now: a record timed ahead of its clock, a table not registered yet); the
record's id makes every copy but the first harmless, and the board answers each copy with a receipt.
``on_change`` and ``on_board`` are called from the link's threads: the app moves them onto the UI thread. The
table's status is retained on the broker, with an "offline" Last Will.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import ssl
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import paho.mqtt.client as mqtt

from .contract import (
    BoardRules,
    ContractError,
    board_topic,
    check_board,
    check_receipt,
    check_record,
    check_results,
    decode,
    encode,
    event_rules,
    games_topic,
    receipts_topic,
    status_payload,
    status_topic,
)
from .outbox import Outbox

__all__ = ["EventLink", "WINDOW", "PARKED_AFTER", "RETRY_S", "RETRY_MAX_S"]

log = logging.getLogger("kiosk.events")

#: Records in flight at once (sent, no receipt yet). One sent :data:`PARKED_AFTER` times without a receipt counts no
#: more (it still goes again, less and less often): records the event board does not take yet never hold up the rest.
WINDOW = 20
PARKED_AFTER = 3
#: Seconds online after which a record without a receipt is published again; each later try waits twice as
#: long, up to :data:`RETRY_MAX_S`.
RETRY_S = 10.0
RETRY_MAX_S = 300.0
#: Seconds between reconnection attempts: from the first to the longest.
RECONNECT_S = (1, 30)


class EventLink:
    """Publishes ``outbox`` to the broker of ``settings`` (an :class:`~kiosk.config.EventConfig`) until the event
    board's receipts; ``rules``: what records may claim (default: the games this installation knows)."""

    def __init__(
        self,
        settings: Any,
        outbox: Outbox,
        on_change: Callable[[], None] | None = None,
        on_board: Callable[[dict[str, Any]], None] | None = None,
        rules: Mapping[str, BoardRules] | None = None,
        retry_s: tuple[float, float] = (RETRY_S, RETRY_MAX_S),
    ) -> None:
        self.settings = settings
        self.outbox = outbox
        self.on_change = on_change
        self.on_board = on_board
        self.rules = rules
        self.retry_s = retry_s
        #: off (not started), connecting, online, offline (lost: paho retries)
        self.state = "off"
        #: the last connection problem, in words ("" when none)
        self.error = ""
        #: the event's board, as the event board last published it (None until one arrives)
        self.board: dict[str, Any] | None = None
        #: receipts taken (records the event board has stored), and copies published again for want of one
        self.receipts = 0
        self.resent = 0
        self._inflight: dict[str, tuple[float, float, int]] = {}  # record id -> (when to send it again, wait, sends)
        self._receipts: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._reconnected = threading.Event()
        self._thread: threading.Thread | None = None
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
        """Say "offline", disconnect and stop both threads (what has no receipt stays in the outbox)."""
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

    def publish(self, record: dict[str, Any]) -> bool:
        """Keep ``record`` in the outbox (synced before this returns) and have it sent when the broker is there.
        False (and one log line naming the table) for a record the event would not believe: off the contract, or
        a result its game cannot produce."""
        table = self.settings.table
        try:
            check_results(check_record(record), self.rules if self.rules is not None else event_rules())
        except ContractError as exc:
            game, rid = (record.get("game"), record.get("id")) if isinstance(record, dict) else (None, None)
            log.error("table %s: the %s game %s is not sent to the event: %s", table, game, rid, exc)
            return False
        self.outbox.add(record)
        self._wake.set()
        self._changed()
        return True

    # ---------------------------------------------------------------------------------------------- paho's thread
    def _on_connect(self, client: mqtt.Client, _u: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if reason.is_failure:
            self._refused = f"the broker refused the table: {reason}"
            self._set("offline", self._refused)
            return
        self._refused = ""
        s = self.settings
        client.publish(status_topic(s.event, s.table), status_payload(s.table, "online"), qos=1, retain=True)
        client.subscribe([(board_topic(s.event), 1), (receipts_topic(s.event, s.table), 1)])
        self._reconnected.set()  # what is in flight goes again on this connection
        self._set("online", "")
        self._wake.set()

    def _on_disconnect(self, _c: mqtt.Client, _u: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if self._stop.is_set():
            return
        lost = f"connection lost: {reason}" if reason.is_failure else ""
        self._set("offline", self._refused or lost)  # after a refusal, the refusal is what to fix

    def _on_message(self, _c: mqtt.Client, _u: Any, msg: mqtt.MQTTMessage) -> None:
        s = self.settings
        if msg.topic == receipts_topic(s.event, s.table):
            try:
                ids = check_receipt(decode(msg.payload))
            except ContractError as exc:
                log.warning("table %s: a receipt on %s ignored: %s", s.table, msg.topic[:120], exc)
                return
            for rid in ids:
                self._receipts.put(rid)
            self._wake.set()
            return
        try:
            board = check_board(decode(msg.payload), s.event)
        except ContractError as exc:
            log.warning("event board message on %s ignored: %s", msg.topic[:120], exc)
            return
        self.board = board
        if self.on_board is not None:
            self.on_board(board)

    # ---------------------------------------------------------------------------------------------- sender
    def _send_loop(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(0.5)
            self._wake.clear()
            try:
                self._take_receipts()
                if self.state == "online":
                    self._fill()
            except Exception:  # the link must never take the table down
                log.exception("event link: sending failed")
                time.sleep(1.0)

    def _take_receipts(self) -> None:
        stored = False
        while True:
            try:
                rid = self._receipts.get_nowait()
            except queue.Empty:
                break
            self._inflight.pop(rid, None)
            if self.outbox.stored(rid):
                self.receipts += 1
                stored = True
        if stored:
            self._changed()

    def _fill(self) -> None:
        now = time.monotonic()
        if self._reconnected.is_set():
            self._reconnected.clear()
            for rid, (_due, wait, sends) in list(self._inflight.items()):
                self._inflight[rid] = (0.0, wait, sends)  # due now: a new connection, perhaps a broker that forgot
        s = self.settings
        pending = self.outbox.pending(limit=WINDOW + len(self._inflight))
        known = {r["id"] for r in pending}
        for rid in [rid for rid in self._inflight if rid not in known]:
            del self._inflight[rid]  # stored meanwhile (or dropped from a full outbox)
        for record in pending:
            if self.state != "online":
                break
            rid = record["id"]
            flying = self._inflight.get(rid)
            if flying is None:
                if sum(1 for *_, sends in self._inflight.values() if sends < PARKED_AFTER) >= WINDOW:
                    continue
                wait, sends = self.retry_s[0], 0
            elif flying[0] > now:
                continue
            else:
                wait = min(flying[1] * 2, self.retry_s[1]) if flying[0] > 0 else flying[1]
                sends = flying[2]
                self.resent += 1
            info = self.client.publish(games_topic(s.event, s.table), encode(record), qos=1)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                break  # not connected after all: the next connection sends it
            self._inflight[rid] = (time.monotonic() + wait, wait, sends + 1)

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
