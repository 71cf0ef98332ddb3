"""The event contract, the table's outbox and the event board's database, without a broker (see test_events.py
for the same parts against a real Mosquitto)."""

from __future__ import annotations

import contextlib
import json
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.config import ConfigError, load_dict
from kiosk.events.board.store import BoardStore, Refused
from kiosk.events.contract import MAX_BYTES, ContractError, check_board, check_record, decode, encode, new_record
from kiosk.events.outbox import Outbox

NOW = datetime(2026, 12, 4, 15, 0, 0, tzinfo=UTC)


def game(
    table: str = "t1",
    scores: tuple[int, ...] = (30, 12),
    initials: tuple[str | None, ...] = ("ANA", None),
    when: datetime = NOW,
    event: str = "fair",
    key: str = "maki",
    bots: tuple[bool, ...] = (),
) -> dict[str, Any]:
    best = max(scores)
    players = [
        {
            "seat": i,
            "initials": ini,
            "score": s,
            "bot": bool(bots[i]) if i < len(bots) else ini is None,
            "winner": s == best,
        }
        for i, (s, ini) in enumerate(zip(scores, initials, strict=True))
    ]
    return new_record(event, table, key, players, 312.4, finished_at=when)


# ---------------------------------------------------------------------------------------------------- contract
def test_a_record_round_trips_and_its_id_is_a_uuid4_hex() -> None:
    r = game()
    assert len(r["id"]) == 32 and int(r["id"], 16) >= 0
    assert decode(encode(r)) == r
    assert r["finished_at"] == "2026-12-04T15:00:00Z"


@pytest.mark.parametrize(
    "change, fault",
    [
        ({"v": 2}, "version"),
        ({"id": "not-an-id"}, "id"),
        ({"table": "Table 1"}, "table"),
        ({"finished_at": "yesterday"}, "UTC time"),
        ({"duration_s": -1}, "duration_s"),
        ({"players": []}, "players"),
        ({"players": [{"seat": 9, "initials": None, "score": 1, "bot": False, "winner": True}]}, "seat"),
        ({"players": [{"seat": 0, "initials": "ab", "score": 1, "bot": False, "winner": True}]}, "initials"),
        ({"players": [{"seat": 0, "initials": "X" * 500, "score": 1, "bot": False, "winner": True}]}, "initials"),
        ({"players": [{"seat": 0, "initials": None, "score": "9", "bot": False, "winner": True}]}, "score"),
        ({"mode": "cheat"}, "mode"),
    ],
)
def test_a_record_off_the_contract_is_refused_naming_the_fault(change: dict[str, Any], fault: str) -> None:
    with pytest.raises(ContractError, match=fault):
        check_record({**game(), **change})


def test_oversized_and_garbage_payloads_are_refused() -> None:
    with pytest.raises(ContractError, match="bytes"):
        decode(b"{" + b" " * MAX_BYTES + b"}")
    with pytest.raises(ContractError, match="JSON"):
        decode(b"\xff\xfe garbage")
    with pytest.raises(ContractError, match="bytes"):
        encode({"title": "x" * MAX_BYTES})


@given(st.binary(max_size=300))
def test_no_payload_breaks_the_checks(payload: bytes) -> None:
    with contextlib.suppress(ContractError):  # refused with a message, or taken: never another exception
        check_record(decode(payload))


def test_a_board_of_another_event_or_with_bad_rows_is_refused() -> None:
    board = {
        "v": 1,
        "event": "fair",
        "title": "Fair",
        "updated": "2026-12-04T15:00:00Z",
        "games": {"maki": {"all": [{"initials": "ANA", "score": 3, "table": "t1"}]}},
    }
    assert check_board(board, "fair") is board
    with pytest.raises(ContractError, match="another event"):
        check_board(board, "other")
    board["games"]["maki"]["all"][0]["initials"] = "<script>"
    with pytest.raises(ContractError, match="initials"):
        check_board(board, "fair")


# ---------------------------------------------------------------------------------------------------- config
def test_the_event_settings_are_checked_with_a_message_per_key() -> None:
    assert not load_dict({}).event.enabled  # a lone table: off
    cfg = load_dict(
        {
            "event": {
                "enabled": True,
                "broker": "10.0.0.5",
                "port": 8883,
                "event": "fair",
                "table": "t1",
                "user": "t1",
                "password": "s3cret",
                "tls": True,
                "ca_file": "/etc/ca.crt",
            }
        }
    )
    assert (cfg.event.broker, cfg.event.port, cfg.event.tls) == ("10.0.0.5", 8883, True)
    with pytest.raises(ConfigError) as err:
        load_dict({"event": {"enabled": True, "port": 70000, "table": "Table One", "user": "x" * 500}})
    text = str(err.value)
    for key in ("event.port", "event.table", "event.user", "event.broker", "event.event"):
        assert key in text, text
    assert load_dict({}).replace(event={"table": "t2"}).event.table == "t2"


# ---------------------------------------------------------------------------------------------------- outbox
def test_the_outbox_keeps_records_in_order_until_acknowledged_across_reopening(tmp_path: Path) -> None:
    path = tmp_path / "outbox.jsonl"
    box = Outbox(path)
    records = [game(scores=(i, 0)) for i in range(5)]
    for r in records:
        box.add(r)
    box.add(records[0])  # a second add of the same id is one record
    box.sent(records[1]["id"])
    box.close()
    again = Outbox(path)
    assert [r["id"] for r in again.pending()] == [r["id"] for i, r in enumerate(records) if i != 1]


def test_a_torn_last_line_and_damaged_lines_lose_nothing_else(tmp_path: Path, caplog: Any) -> None:
    path = tmp_path / "outbox.jsonl"
    box = Outbox(path)
    kept = [game(), game()]
    for r in kept:
        box.add(r)
    box.close()
    with open(path, "ab") as f:
        f.write(b'{"add": {"v": 1, "id": "0123')  # a power cut in the middle of a line
    with caplog.at_level(logging.WARNING, logger="kiosk.events"):
        again = Outbox(path)
    assert [r["id"] for r in again.pending()] == [r["id"] for r in kept]
    assert "torn write" in caplog.text
    again.close()
    with open(path, "ab") as f:
        f.write(b"\x00\x00garbage\n" + json.dumps({"add": {"v": 9}}).encode() + b"\n")
    third = Outbox(path)
    assert [r["id"] for r in third.pending()] == [r["id"] for r in kept]
    assert list(tmp_path.glob("outbox.corrupt-*.jsonl")), "the damaged file is kept aside"
    third.add(game())
    assert len(Outbox(path)) == 3


def test_the_outbox_file_stays_small_as_records_are_acknowledged(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "outbox.jsonl")
    for _ in range(1200):
        r = game()
        box.add(r)
        box.sent(r["id"])
    assert len(box) == 0
    assert (tmp_path / "outbox.jsonl").stat().st_size < 600 * 1024  # compacted, not 1,200 records long


def test_the_outbox_refuses_a_record_off_the_contract(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "outbox.jsonl")
    with pytest.raises(ContractError):
        box.add({**game(), "players": []})
    assert len(box) == 0


# ---------------------------------------------------------------------------------------------------- store
@pytest.fixture
def store(tmp_path: Path) -> BoardStore:
    s = BoardStore(tmp_path / "board.sqlite")
    s.open_event("fair", "Summer Fair", ["t1", "t2"], now=NOW - timedelta(hours=3))
    return s


def test_every_record_counts_once(store: BoardStore) -> None:
    r = game()
    assert store.add(r, now=NOW) is True
    assert store.add(r, now=NOW) is False  # replayed
    assert store.count("fair") == 1


@pytest.mark.parametrize(
    "record, why",
    [
        (lambda: game(table="t9"), "not registered"),
        (lambda: game(event="other"), "no event"),
        (lambda: game(when=NOW + timedelta(days=3)), "too far"),
        (lambda: game(when=NOW - timedelta(days=30)), "too far"),
        (lambda: {**game(), "v": 7}, "version"),
    ],
)
def test_records_the_event_does_not_take_are_refused(store: BoardStore, record: Any, why: str) -> None:
    with pytest.raises(Refused, match=why):
        store.add(record(), now=NOW)
    assert store.count("fair") == 0


def test_boards_rank_humans_with_initials_by_period_and_hide_entries(store: BoardStore) -> None:
    old = game(scores=(90, 1), initials=("OLD", None), when=NOW - timedelta(hours=2))
    new = game(
        table="t2", scores=(50, 40), initials=("NEW", "TWO"), when=NOW - timedelta(minutes=10), bots=(False, False)
    )
    bot = game(scores=(99, 0), initials=(None, None), bots=(True, True))
    for r in (old, new, bot):
        store.add(r, now=NOW)
    boards = store.boards("fair", now=NOW)["games"]["maki"]
    assert [(e["initials"], e["score"]) for e in boards["all"]] == [("OLD", 90), ("NEW", 50), ("TWO", 40)]
    assert [e["initials"] for e in boards["hour"]] == ["NEW", "TWO"]
    check_board(store.boards("fair", now=NOW), "fair")
    store.hide(old["id"])
    assert [e["initials"] for e in store.boards("fair", now=NOW)["games"]["maki"]["all"]] == ["NEW", "TWO"]


def test_a_closed_event_takes_no_more_records_and_keeps_its_boards(store: BoardStore) -> None:
    store.add(game(), now=NOW)
    store.close_event("fair")
    with pytest.raises(Refused, match="closed"):
        store.add(game(), now=NOW)
    assert store.count("fair") == 1
    store.ensure_event("fair", "Summer Fair", ["t3"])  # the service's restart does not reopen it
    assert store.event("fair")["closed"] is not None  # type: ignore[index]
