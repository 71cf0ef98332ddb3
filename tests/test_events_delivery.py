"""Delivery end to end, through a real Mosquitto with the shipped ACL and persistence settings: a table keeps a game
until the event board's receipt (sent after its SQLite commit), not until the broker's PUBACK; receipts go to their
own table only and count once; and ten power cuts in the organiser's room (broker and service SIGKILLed together at
random moments, tables dropping off and coming back meanwhile) lose and double nothing: every game a table created
is stored exactly once.

The service is its own process (``python -m kiosk.events.board``: a SIGKILL is a real one); the tables are the
kiosk's own :class:`~kiosk.events.link.EventLink` over real outbox files, their retry wait shortened (1 s, not 10 s:
the same code path, only sooner). Waits are bounded by the file's time-out alone.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from eventboard_util import BoardProcess, until
from test_events_store import game

from devtools.broker import Mosquitto, table_settings
from kiosk.events.contract import encode, games_topic, receipt_payload, receipts_topic
from kiosk.events.link import EventLink
from kiosk.events.outbox import Outbox

BOUND_S = 240
pytestmark = [pytest.mark.events, pytest.mark.timeout(BOUND_S)]

TABLES = ("t1", "t2", "t3", "t4")
USERS = {t: f"pw-{t}" for t in TABLES} | {"eventboard": "pw-board"}
FAST_RETRY = (1.0, 2.0)


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    b = Mosquitto(tmp_path / "broker", users=USERS)
    b.start()
    yield b
    b.stop()


@pytest.fixture
def service(tmp_path: Path, broker: Mosquitto) -> Iterator[BoardProcess]:
    s = BoardProcess(tmp_path, broker, tables=TABLES, password=USERS["eventboard"])
    yield s
    s.stop()


class Table:
    """A table at the event: its outbox file and its link; it can go offline (or be switched off) and come back."""

    def __init__(self, broker: Mosquitto, tmp: Path, name: str) -> None:
        self.broker, self.name, self.path = broker, name, tmp / name / "outbox.jsonl"
        self.outbox = Outbox(self.path)
        self.link: EventLink | None = None

    def online(self) -> EventLink:
        if self.link is None:
            settings = table_settings(self.broker.port, self.name, user=self.name, password=USERS[self.name])
            self.link = EventLink(settings, self.outbox, retry_s=FAST_RETRY)
            self.link.start()
        return self.link

    def offline(self, switched_off: bool = False) -> None:
        if self.link is not None:
            self.link.stop(timeout=1.0)
            self.link = None
        if switched_off:  # the table restarts: its outbox is read back from its card
            self.outbox.close()
            self.outbox = Outbox(self.path)

    def play(self, n: int = 1) -> list[str]:
        """``n`` finished games, into the outbox (online or not, as the kiosk does)."""
        ids = []
        for _ in range(n):
            r = game(table=self.name, scores=(random.randint(0, 604), random.randint(0, 604)), when=_now())
            if self.link is not None:
                assert self.link.publish(r)
            else:
                self.outbox.add(r)
            ids.append(r["id"])
        return ids


def _now() -> Any:
    from datetime import UTC, datetime

    return datetime.now(UTC)


def stored(db: Path) -> list[str]:
    with sqlite3.connect(db) as c:
        return [r for (r,) in c.execute("SELECT id FROM records ORDER BY rowid")]


def raw_client(broker: Mosquitto, user: str, got: list[tuple[str, bytes]] | None = None) -> mqtt.Client:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{user}-raw-{random.random()}")
    c.username_pw_set(user, USERS[user])
    if got is not None:
        c.on_message = lambda _c, _u, msg: got.append((msg.topic, bytes(msg.payload)))
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    return c


def test_a_game_stays_in_the_outbox_after_the_pubacks_until_the_services_receipt(
    broker: Mosquitto, service: BoardProcess, tmp_path: Path
) -> None:
    table = Table(broker, tmp_path, "t1")
    link = table.online()
    until(lambda: link.state == "online", "the table online")
    ids = table.play(3)
    until(lambda: len(link._inflight) == 3 and not link.client.want_write(), "published: the broker has them")
    time.sleep(1.5)  # PUBACKs long back, and a retry or so: no service yet, no receipt
    assert len(table.outbox) == 3, "a PUBACK is one hop, not delivery: the table keeps the games"
    service.start()
    until(lambda: len(table.outbox) == 0, "the receipts, after the service's commit")
    assert sorted(stored(service.db)) == sorted(ids)
    # the outbox file says so too: read back as after a restart, nothing is waiting
    table.offline(switched_off=True)
    assert len(table.outbox) == 0
    assert link.receipts == 3


def test_receipts_count_once_and_reach_only_their_own_table(
    broker: Mosquitto, service: BoardProcess, tmp_path: Path
) -> None:
    service.start()
    t2_heard: list[tuple[str, bytes]] = []
    t1 = Table(broker, tmp_path, "t1")
    link = t1.online()
    until(lambda: link.state == "online", "t1 online")
    # t2 listens to t1's receipts (and to its own): the broker gives it only its own
    spy = raw_client(broker, "t2", t2_heard)
    spy.subscribe([(receipts_topic("fair", "t1"), 1), (receipts_topic("fair", "t2"), 1)])
    (rid,) = t1.play(1)
    until(lambda: len(t1.outbox) == 0, "t1's receipt")
    record = json.loads(next(line for line in t1.path.read_text().splitlines() if rid in line))["add"]
    # a replay of the same game (as a table's retry, or the broker's) is stored once and receipted again
    replay = raw_client(broker, "t1")
    for _ in range(3):
        replay.publish(games_topic("fair", "t1"), encode(record), qos=1).wait_for_publish(BOUND_S)
    until(lambda: service.get("api/status")["receipts"] >= 4, "a receipt for each copy")
    assert stored(service.db) == [rid]
    # t2's own game: its receipt comes to t2, and t1 cannot forge one for it
    other = game(table="t2", when=_now())
    t2_box = Outbox(tmp_path / "t2" / "outbox.jsonl")
    t2_box.add(other)
    replay.publish(receipts_topic("fair", "t2"), receipt_payload([other["id"]]), qos=1).wait_for_publish(BOUND_S)
    replay.publish(games_topic("fair", "t2"), encode(other), qos=1).wait_for_publish(BOUND_S)  # t1 as t2: denied
    time.sleep(1.0)
    assert stored(service.db) == [rid], "the broker's ACL dropped t1 writing t2's games"
    topics = {t for t, _ in t2_heard}
    assert receipts_topic("fair", "t1") not in topics, "t2 never reads t1's receipts"
    assert not t2_heard, f"nothing reached t2: no game of its own yet, and t1's forged receipt was dropped: {t2_heard}"
    t2 = Table(broker, tmp_path, "t2")
    t2.outbox.close()
    t2.outbox = t2_box
    t2.online()
    until(lambda: len(t2_box) == 0, "t2's game stored and receipted to t2")
    until(lambda: any(t == receipts_topic("fair", "t2") for t, _ in t2_heard), "the spy, as t2, heard t2's receipt")
    assert sorted(stored(service.db)) == sorted([rid, other["id"]])
    for c in (spy, replay):
        c.disconnect()
        c.loop_stop()
    t1.offline()
    t2.offline()


def test_ten_power_cuts_in_the_organisers_room_lose_and_double_nothing(
    broker: Mosquitto, service: BoardProcess, tmp_path: Path
) -> None:
    """Each round: the broker and the service run, the tables play (some offline, some switched off and on), and
    at a random moment both are SIGKILLed together; games go on meanwhile; then both come back, in either order.
    At the end every game any table created is in the service's database exactly once, and every outbox empty."""
    seed = int(os.environ.get("KIOSK_POWERCUT_SEED", time.time_ns() % 1_000_000))
    rng = random.Random(seed)
    random.seed(seed)
    why = f"(seed {seed}: KIOSK_POWERCUT_SEED={seed} repeats this run)"
    tables = {t: Table(broker, tmp_path, t) for t in TABLES}
    created: list[str] = []
    service.start()
    for t in tables.values():
        t.online()

    def churn() -> None:
        t = tables[rng.choice(TABLES)]
        roll = rng.random()
        if roll < 0.15:
            t.offline(switched_off=rng.random() < 0.5)
        elif roll < 0.4:
            t.online()

    for _round in range(10):
        end = time.monotonic() + rng.uniform(0.2, 1.5)  # the cut comes at a random moment of the round
        while time.monotonic() < end:
            created += tables[rng.choice(TABLES)].play(rng.randint(1, 3))
            churn()
            time.sleep(rng.uniform(0.0, 0.05))
        broker.kill()  # the power cut: both at once, nothing saved that was not saved already
        service.kill()
        for _ in range(rng.randint(0, 6)):  # the tables play on meanwhile (their own power is fine)
            created += tables[rng.choice(TABLES)].play()
            churn()
        if rng.random() < 0.5:
            broker.start()
            service.start()
        else:
            service.start()
            broker.start()
    for t in tables.values():
        t.online()
    until(lambda: all(len(t.outbox) == 0 for t in tables.values()), f"every game receipted {why}")
    held = stored(service.db)
    assert len(held) == len(set(held)), f"a game stored twice {why}"
    assert set(held) == set(created), (
        f"lost: {len(set(created) - set(held))}, unknown: {set(held) - set(created)} {why}"
    )
    assert len(created) >= 40, created
    with sqlite3.connect(service.db) as c:
        seats = c.execute("SELECT COUNT(*) FROM players").fetchone()[0]
    assert seats == 2 * len(created), f"one row per seat of each game, once {why}"
    for t in tables.values():
        t.offline(switched_off=True)
        assert len(t.outbox) == 0, f"{t.name}'s outbox read back empty {why}"


def test_a_table_joining_after_a_broker_power_cut_gets_the_current_board(
    broker: Mosquitto, service: BoardProcess, tmp_path: Path
) -> None:
    service.start()
    t1 = Table(broker, tmp_path, "t1")
    link = t1.online()
    r = game(table="t1", scores=(77, 3), initials=("ANA", None), when=_now())
    assert link.publish(r)
    until(lambda: link.board is not None and link.board["games"].get("maki"), "the board at t1")
    broker.kill()  # before its first save, perhaps: the retained board may be gone with it
    broker.start()
    t2 = Table(broker, tmp_path, "t2")
    late = t2.online()
    until(lambda: late.board is not None and late.board["games"].get("maki"), "the board at a table that joined late")
    assert late.board is not None
    assert [(e["initials"], e["score"]) for e in late.board["games"]["maki"]["all"]] == [("ANA", 77)]
    t1.offline()
    t2.offline()


def test_the_largest_board_reaches_the_tables(broker: Mosquitto, tmp_path: Path) -> None:
    """An event as full as it gets (every board of every game, the widest results, 40-letter table names, the longest
    title): the retained board is published within the contract's limit and a table gets it, five rows a board."""
    from eventboard_util import fill_largest

    from kiosk.events.contract import MAX_BYTES, encode, event_rules

    names = fill_largest(tmp_path / "board.sqlite", tables=50)
    service = BoardProcess(tmp_path, broker, tables=names, password=USERS["eventboard"])
    service.start()
    try:
        t1 = Table(broker, tmp_path, "t1")
        link = t1.online()
        until(lambda: link.board is not None, "the retained board at a table")
        assert link.board is not None
        assert set(link.board["games"]) == set(event_rules())
        assert all(len(rows) == 5 for periods in link.board["games"].values() for rows in periods.values())
        assert len(encode(link.board)) <= service.get("api/status")["board_bytes"] <= MAX_BYTES
        t1.offline()
    finally:
        service.stop()


def test_games_the_event_board_does_not_take_never_hold_up_the_rest(
    broker: Mosquitto, service: BoardProcess, tmp_path: Path
) -> None:
    """A window's worth and more of games the event board refuses for now (a game it does not know: a table with a
    newer game than the event board's): they stay in the outbox and go again, less and less often, and the games
    after them still arrive."""
    from kiosk.events.contract import BoardRules, event_rules
    from kiosk.events.link import PARKED_AFTER, WINDOW

    service.start()
    rules = {**event_rules(), "chess": BoardRules((2, 2), (0, 1), False, "Chess")}
    settings = table_settings(broker.port, "t1", user="t1", password=USERS["t1"])
    outbox = Outbox(tmp_path / "t1" / "outbox.jsonl")
    link = EventLink(settings, outbox, rules=rules, retry_s=(0.3, 0.6))
    unknown = [game(table="t1", key="chess", scores=(1, 0), when=_now()) for _ in range(WINDOW + 5)]
    for r in unknown:
        assert link.publish(r)
    later = game(table="t1", scores=(40, 2), when=_now())
    assert link.publish(later)
    link.start()
    until(lambda: later["id"] in stored(service.db), "the game after them, stored")
    until(lambda: later["id"] not in outbox, "and receipted")
    assert len(outbox) == len(unknown), "the refused ones are kept"
    assert link.resent >= WINDOW * (PARKED_AFTER - 1)
    link.stop()
