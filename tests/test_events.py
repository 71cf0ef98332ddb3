"""Tables and the event board through a real Mosquitto (started here on a free port, with the shipped ACL and a
password per table): every record arrives once, whatever goes away and comes back.

The tables are the kiosk's own publishing parts (:class:`kiosk.events.link.EventLink` over a real outbox file);
the service is its own collector over a real SQLite file. Waits are on real threads and a real broker, so they
are bounded by the file's time-out alone (:data:`BOUND_S`), never by a shorter guess.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from test_events_store import game as stored_game

from devtools.broker import Mosquitto, table_settings
from kiosk.events.board.collector import Collector
from kiosk.events.board.store import BoardStore
from kiosk.events.contract import board_topic, encode, games_topic
from kiosk.events.link import WINDOW, EventLink
from kiosk.events.outbox import Outbox

#: The file's bound (real seconds); every wait below is bounded by it alone.
BOUND_S = 240
pytestmark = [pytest.mark.events, pytest.mark.timeout(BOUND_S)]

USERS = {"t1": "pw-t1", "t2": "pw-t2", "t3": "pw-t3", "eventboard": "pw-board"}


def game(**kw: Any) -> dict[str, Any]:
    """A finished game as the tests of the store make it, finished now (the service checks its clock)."""
    from datetime import UTC, datetime

    return stored_game(**{"when": datetime.now(UTC), **kw})


def until(pred: Callable[[], bool], what: str) -> None:
    end = time.monotonic() + BOUND_S
    while not pred():
        assert time.monotonic() < end, f"not within the file's bound: {what}"
        time.sleep(0.02)


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    with Mosquitto(tmp_path / "broker", users=USERS) as b:
        yield b


def table(broker: Mosquitto, tmp: Path, name: str, password: str | None = None) -> EventLink:
    settings = table_settings(broker.port, name, user=name, password=password or USERS[name])
    return EventLink(settings, Outbox(tmp / name / "outbox.jsonl"))


def publish_games(link: EventLink, n: int, first: int = 0) -> list[str]:
    """``n`` finished games from ``link``'s table (scores ``first``...), their ids in the order published."""
    ids = []
    for i in range(first, first + n):
        r = game(table=link.settings.table, scores=(i, 1))
        link.publish(r)
        ids.append(r["id"])
    return ids


class Service:
    """The event board's collector over a SQLite file; stopped and started again like the real process."""

    def __init__(self, broker: Mosquitto, tmp: Path) -> None:
        self.broker, self.path = broker, tmp / "board.sqlite"
        self.store = BoardStore(self.path)
        self.store.open_event("fair", "Fair", ["t1", "t2", "t3"])
        self.collector: Collector | None = None

    def start(self) -> Service:
        self.store = BoardStore(self.path)
        self.collector = Collector(self.store, "fair", "127.0.0.1", self.broker.port, "eventboard", USERS["eventboard"])
        self.collector.start()
        until(self.collector.connected.is_set, "the service connected")
        return self

    def stop(self) -> None:
        assert self.collector is not None
        self.collector.stop()
        self.store.close()

    def ids(self) -> list[str]:
        return [r for (r,) in self.store.db.execute("SELECT id FROM records ORDER BY rowid")]


def test_two_tables_publish_and_the_service_holds_every_record_once(broker: Mosquitto, tmp_path: Path) -> None:
    service = Service(broker, tmp_path).start()
    links = [table(broker, tmp_path, "t1"), table(broker, tmp_path, "t2")]
    sent: list[str] = []
    for link in links:
        link.start()
    for i in range(30):
        link = links[i % 2]
        r = game(table=link.settings.table, scores=(i, 0))
        link.publish(r)
        sent.append(r["id"])
    until(lambda: len(service.ids()) == 30, "all 30 records at the service")
    until(lambda: all(len(link.outbox) == 0 for link in links), "both outboxes emptied by the service's receipts")
    assert sorted(service.ids()) == sorted(sent)
    for link in links:
        link.stop()
    service.stop()


def test_broker_away_and_back_mid_stream_loses_and_doubles_nothing(broker: Mosquitto, tmp_path: Path) -> None:
    service = Service(broker, tmp_path).start()
    link = table(broker, tmp_path, "t1")
    link.start()
    until(lambda: link.state == "online", "the table online")
    sent = publish_games(link, 16)
    broker.stop()  # mid-stream: some of the 16 may be in flight
    until(lambda: link.state == "offline", "the table saw the broker go")
    sent += publish_games(link, 15, first=16)  # games finished while the broker is away
    broker.start()
    sent += publish_games(link, 9, first=31)
    until(lambda: len(link.outbox) == 0, "the backlog sent after the broker came back")
    until(lambda: len(service.ids()) == 40, "all 40 records at the service")
    assert sorted(service.ids()) == sorted(sent)
    link.stop()
    service.stop()


def test_the_service_away_mid_stream_gets_what_it_missed(broker: Mosquitto, tmp_path: Path) -> None:
    service = Service(broker, tmp_path).start()
    link = table(broker, tmp_path, "t2")
    link.start()
    sent = publish_games(link, 10)
    until(lambda: len(service.ids()) == 10 and len(link.outbox) == 0, "the first 10 at the service, receipted")
    service.stop()  # its session stays on the broker
    sent += publish_games(link, 40, first=10)
    until(lambda: link.client.want_write() is False and len(link._inflight) == WINDOW, "a window's worth sent")
    time.sleep(0.5)
    assert len(link.outbox) == 40, "no receipt while the service is away: the table keeps every game"
    service.start()
    until(lambda: len(service.ids()) == 50, "the service got the 40 it missed")
    until(lambda: len(link.outbox) == 0, "and the table the receipts")
    assert sorted(service.ids()) == sorted(sent)
    link.stop()
    service.stop()


def test_a_table_offline_for_many_games_sends_its_backlog_in_order(broker: Mosquitto, tmp_path: Path) -> None:
    service = Service(broker, tmp_path).start()
    link = table(broker, tmp_path, "t3")
    sent = publish_games(link, 300)  # its network is out: nothing started
    link.outbox.close()
    link = table(broker, tmp_path, "t3")  # and the table restarted meanwhile: the outbox is on its card
    assert [r["id"] for r in link.outbox.pending()] == sent
    link.start()
    until(lambda: len(service.ids()) == 300, "the backlog at the service")
    assert service.ids() == sent, "in the order they were played"
    link.stop()
    service.stop()


def test_a_table_cannot_write_as_another_and_bad_messages_are_refused(
    broker: Mosquitto, tmp_path: Path, caplog: Any
) -> None:
    service = Service(broker, tmp_path).start()
    good = game(table="t1")
    raw = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="t1-raw")
    raw.username_pw_set("t1", USERS["t1"])
    raw.connect("127.0.0.1", broker.port)
    raw.loop_start()
    bad = [
        (games_topic("fair", "t2"), encode(game(table="t2"))),  # t1 writing as t2: the broker's ACL drops it
        (games_topic("fair", "t1"), b"{not json"),
        (games_topic("fair", "t1"), b"x" * 9000),
        (games_topic("fair", "t1"), encode({**game(table="t1"), "table": "t2"})),  # payload not its topic's
        (games_topic("fair", "t1"), encode(game(table="t1", when=_far_future()))),
        (games_topic("fair", "t1"), encode(good)),
        (games_topic("fair", "t1"), encode(good)),  # replayed
    ]
    for topic, payload in bad:
        raw.publish(topic, payload, qos=1).wait_for_publish(BOUND_S)
    until(lambda: service.collector is not None and service.collector.refused >= 4, "four refused with a log line")
    until(lambda: service.ids() == [good["id"]], "only the good record, once")
    raw.disconnect()
    raw.loop_stop()
    service.stop()


def _far_future() -> Any:
    from datetime import UTC, datetime, timedelta

    return datetime.now(UTC) + timedelta(days=5)


def test_a_wrong_password_is_a_link_error_and_the_outbox_keeps_the_games(broker: Mosquitto, tmp_path: Path) -> None:
    link = table(broker, tmp_path, "t1", password="wrong")
    link.publish(game())
    link.start()
    until(lambda: link.state == "offline" and "refused" in link.error, "the broker's refusal shown as the state")
    assert len(link.outbox) == 1
    link.stop()


def test_tables_get_the_event_board_retained(broker: Mosquitto, tmp_path: Path) -> None:
    service = Service(broker, tmp_path).start()
    boards: list[dict[str, Any]] = []
    t1 = table(broker, tmp_path, "t1")
    t1.on_board = boards.append
    t1.start()
    t1.publish(game(scores=(77, 3), initials=("ANA", None)))
    until(lambda: t1.board is not None and "maki" in t1.board["games"], "the board back at the table")
    assert t1.board is not None
    assert [(e["initials"], e["score"]) for e in t1.board["games"]["maki"]["all"]] == [("ANA", 77)]
    t2 = table(broker, tmp_path, "t2")  # a table that joins later gets the retained board at once
    t2.start()
    until(lambda: t2.board is not None, "the retained board at a table that joined later")
    assert t2.board == t1.board
    # a board that breaks the contract (published by someone allowed to) is ignored
    boss = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="boss")
    boss.username_pw_set("eventboard", USERS["eventboard"])
    boss.connect("127.0.0.1", broker.port)
    boss.loop_start()
    boss.publish(board_topic("fair"), b'{"v": 1, "event": "fair", "games": "nope"}', qos=1).wait_for_publish(BOUND_S)
    boss.publish(board_topic("fair"), encode({**t1.board, "title": "Later"}), qos=1).wait_for_publish(BOUND_S)
    until(lambda: t2.board is not None and t2.board["title"] == "Later", "the good board after the bad one")
    boss.disconnect()
    boss.loop_stop()
    for link in (t1, t2):
        link.stop()
    service.stop()


def test_status_online_and_offline_by_last_will(broker: Mosquitto, tmp_path: Path) -> None:
    service = Service(broker, tmp_path).start()
    link = table(broker, tmp_path, "t2")
    link.start()

    def state() -> str:
        return {t["table"]: t["state"] for t in service.store.tables("fair")}["t2"]

    until(lambda: state() == "online", "t2 online at the service")
    link.stop()
    until(lambda: state() == "offline", "t2 offline at the service")
    service.stop()
