"""The event contract, the table's outbox and the event board's database, without a broker (see test_events.py
for the same parts against a real Mosquitto)."""

from __future__ import annotations

import contextlib
import json
import logging
import re
import tempfile
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from devtools.broker import table_settings
from kiosk.config import ConfigError, load_dict
from kiosk.events.board.store import BoardStore, Refused
from kiosk.events.contract import (
    CLOCK_SKEW,
    MAX_BYTES,
    MAX_ROWS,
    ContractError,
    board_rows,
    check_board,
    check_receipt,
    check_record,
    decode,
    encode,
    event_rules,
    new_record,
    parse_topic,
    receipt_payload,
    receipts_topic,
    table_board,
)
from kiosk.events.link import EventLink
from kiosk.events.outbox import Outbox
from kiosk.games import GAMES

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
    box.stored(records[1]["id"])
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
        box.stored(r["id"])
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
        (lambda: game(when=NOW + timedelta(days=3)), "ahead of this clock"),
        (lambda: game(when=NOW - timedelta(days=30)), "before the event opened"),
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
    store.open_event("fair")  # the organiser opens it again (no title given): its title stays
    assert store.event("fair")["closed"] is None and store.event("fair")["title"] == "Summer Fair"  # type: ignore[index]


# ---------------------------------------------------------------------------------------------------- possible results
def record_of(key: str, scores: tuple[int, ...], initials: tuple[str | None, ...] | None = None, **kw: Any) -> Any:
    ini = initials or tuple(["ANA"] + [None] * (len(scores) - 1))
    return game(key=key, scores=scores, initials=ini, **kw)


IMPOSSIBLE = [
    (lambda: record_of("maki", (-3, 10)), "seat 0's score -3: Maki can only give 0 to 604"),
    (lambda: record_of("maki", (999_999_999, 10)), "999999999: Maki can only give 0 to 604"),
    (lambda: record_of("maki", (605, 10)), "605"),
    (lambda: record_of("wasabi", (55, 1)), "Wasabi! can only give 0 to 54"),
    (lambda: record_of("makoto", (261, 0)), "Makoto can only give 0 to 260"),
    (lambda: record_of("takoyaki", (6, 0)), "Takoyaki can only give 0 to 5"),
    (lambda: record_of("takoyaki-trial", (0,)), "time \\(ms\\) 0: Takoyaki time trial can only give 6000"),
    (lambda: record_of("takoyaki-trial", (-1,)), "time \\(ms\\) -1"),
    (lambda: record_of("takoyaki-trial", (5999,)), "5999"),
    (lambda: record_of("takoyaki-trial", (9000, 9500)), "2 player\\(s\\): Takoyaki time trial is for 1 to 1"),
    (lambda: record_of("maki", (10,)), "1 player\\(s\\): Maki is for 2 to 4"),
    (lambda: record_of("chess", (1, 0)), "'chess' is not a game this event knows"),
]


@pytest.mark.parametrize("record, why", IMPOSSIBLE)
def test_impossible_results_are_refused_by_the_service(store: BoardStore, record: Any, why: str) -> None:
    with pytest.raises(Refused, match=why):
        store.add(record(), now=NOW)
    assert store.count("fair") == 0


@pytest.mark.parametrize("record, why", IMPOSSIBLE)
def test_impossible_results_are_refused_by_the_table_with_a_line_naming_it(
    tmp_path: Path, caplog: Any, record: Any, why: str
) -> None:
    link = EventLink(table_settings(1, "t1"), Outbox(tmp_path / "outbox.jsonl"))  # never started: no broker needed
    r = record()
    with caplog.at_level(logging.ERROR, logger="kiosk.events"):
        assert link.publish(r) is False
    assert len(link.outbox) == 0
    assert re.search(f"table t1: the {r['game']} game {r['id']} is not sent to the event: .*{why}", caplog.text)


def test_the_highest_and_lowest_possible_results_are_taken(store: BoardStore) -> None:
    for r in (
        record_of("maki", (604, 0)),
        record_of("wasabi", (54, 0, 0, 0)),
        record_of("makoto", (260, 0, 0, 0, 0, 0)),
        record_of("takoyaki", (5,)),
        record_of("takoyaki-trial", (6000,)),
        record_of("takoyaki-trial", (86_400_000,)),
    ):
        assert store.add(r, now=NOW), r
    assert store.count("fair") == 6


def test_a_refusal_at_the_service_is_a_log_line_naming_the_table(tmp_path: Path, caplog: Any) -> None:
    from kiosk.events.board.collector import Collector

    s = BoardStore(tmp_path / "b.sqlite")
    s.open_event("fair", "Fair", ["t1", "table-7"], now=datetime.now(UTC) - timedelta(hours=1))
    c = Collector(s, "fair", "127.0.0.1", 9)
    bad = game(table="table-7", key="maki", scores=(999_999_999, 1), when=datetime.now(UTC))
    msg = SimpleNamespace(topic="kiosk/events/fair/tables/table-7/games", payload=encode(bad))
    with caplog.at_level(logging.WARNING, logger="kiosk.events.board"):
        c._on_message(c.client, None, msg)  # type: ignore[arg-type]
    assert c.refused == 1 and s.count("fair") == 0
    assert f"refused a message from table table-7 (maki {bad['id']})" in caplog.text
    assert "Maki can only give 0 to 604" in caplog.text


def _possible(record: dict[str, Any]) -> bool:
    """Independently of the code under test: what the games' specs allow."""
    from kiosk.engine import trial_board

    for key, spec in GAMES.items():
        if record["game"] == key:
            lo, hi = spec.results.score
            n = (spec.min_players, spec.max_players)
        elif spec.results.trial_ms is not None and record["game"] == trial_board(key):
            lo, hi = spec.results.trial_ms
            n = (1, 1)
        else:
            continue
        return n[0] <= len(record["players"]) <= n[1] and all(lo <= p["score"] <= hi for p in record["players"])
    return False


@settings(max_examples=150)
@given(
    key=st.sampled_from(["maki", "wasabi", "makoto", "takoyaki", "takoyaki-trial", "chess", "maki-trial"]),
    scores=st.lists(
        st.one_of(st.integers(-10, 700), st.integers(-(10**9) + 1, 10**9 - 1), st.integers(5000, 7000)),
        min_size=1,
        max_size=6,
    ),
)
def test_hypothesis_made_records_are_taken_exactly_when_their_game_can_produce_them(
    key: str, scores: list[int]
) -> None:
    r = record_of(key, tuple(scores))
    s = BoardStore(":memory:")
    s.open_event("fair", "Fair", ["t1"], now=NOW - timedelta(hours=1))
    try:
        taken = s.add(r, now=NOW)
    except Refused:
        taken = False
    assert taken == _possible(r), (r["game"], scores)
    with tempfile.TemporaryDirectory() as d:
        link = EventLink(table_settings(1, "t1"), Outbox(Path(d) / "outbox.jsonl"))
        assert link.publish(r) == _possible(r)
        link.outbox.close()
    for board in s.boards("fair", now=NOW)["games"].values():
        for rows in board.values():
            assert all(_possible({"game": key, "players": [{"score": x["score"]}] * len(scores)}) for x in rows)


def test_a_time_trial_is_ranked_by_its_game_never_by_the_records_flag(store: BoardStore) -> None:
    slow = record_of("takoyaki-trial", (41_000,), initials=("SLO",))
    fast = record_of("takoyaki-trial", (9_500,), initials=("FST",))
    assert "lower_is_better" not in slow and "lower_is_better" not in fast  # a record without the flag
    maki_low = {**record_of("maki", (3, 1), initials=("LOW", None)), "lower_is_better": True}  # a flag that lies
    maki_high = record_of("maki", (90, 1), initials=("HI", None))
    for r in (slow, fast, maki_low, maki_high):
        store.add(r, now=NOW)
    games = store.boards("fair", now=NOW)["games"]
    assert [e["initials"] for e in games["takoyaki-trial"]["all"]] == ["FST", "SLO"]
    assert [e["initials"] for e in games["maki"]["all"]] == ["HI", "LOW"]


def test_a_game_finished_in_the_future_is_refused_until_its_time_and_never_on_the_last_hour_early(
    store: BoardStore,
) -> None:
    later = record_of("maki", (99, 1), initials=("FUT", None), when=NOW + timedelta(hours=2))
    with pytest.raises(Refused, match="120 min ahead of this clock"):
        store.add(later, now=NOW)
    skewed = record_of("maki", (50, 1), initials=("SKW", None), when=NOW + CLOCK_SKEW - timedelta(seconds=1))
    assert store.add(skewed, now=NOW), "a small clock skew is allowed"
    for minutes in (0, 30, 60, 110):  # the table keeps it and sends it again: refused while it is ahead
        with pytest.raises(Refused, match="ahead"):
            store.add(later, now=NOW + timedelta(minutes=minutes))
        assert "FUT" not in [e["initials"] for e in store.boards("fair", now=NOW)["games"]["maki"]["hour"]]
    assert store.add(later, now=NOW + timedelta(hours=2) - CLOCK_SKEW)  # its time has come: taken
    hour = store.boards("fair", now=NOW + timedelta(hours=2))["games"]["maki"]["hour"]
    assert [e["initials"] for e in hour] == ["FUT"]
    assert timedelta(minutes=10) >= CLOCK_SKEW


# ---------------------------------------------------------------------------------------------------- receipts
def test_receipts_follow_the_contract() -> None:
    ids = [uuid.uuid4().hex for _ in range(3)]
    assert check_receipt(decode(receipt_payload(ids))) == ids
    for bad in ({"v": 2, "stored": ids}, {"v": 1, "stored": []}, {"v": 1, "stored": ["x"]}, [], {"v": 1}):
        with pytest.raises(ContractError):
            check_receipt(bad)
    assert parse_topic(receipts_topic("fair", "t1")) == ("fair", "t1", "receipts")


def test_an_outbox_forgets_a_record_at_its_receipt_once_and_reads_old_sent_lines(tmp_path: Path) -> None:
    path = tmp_path / "outbox.jsonl"
    box = Outbox(path)
    a, b = game(), game()
    box.add(a)
    box.add(b)
    assert box.stored(a["id"]) is True
    assert box.stored(a["id"]) is False  # a second receipt changes nothing
    box.close()
    with open(path, "ab") as f:  # a line as tables wrote them before receipts (at the broker's PUBACK)
        f.write(json.dumps({"sent": b["id"]}).encode() + b"\n")
    assert len(Outbox(path)) == 0


# ---------------------------------------------------------------------------------------------------- the tables' board
WORST_TITLE = "\x01" * 80  # each one 6 bytes in JSON (\u0001): the title's worst case, were it kept


def test_the_tables_board_fits_the_contract_at_the_largest_values(tmp_path: Path) -> None:
    """Every game's every board full, each row the largest a row can be (3-letter initials, the widest score the
    game allows, a 40-letter table), the longest event name and title: the retained message still fits."""
    from kiosk.events.board.collector import Collector

    rules = event_rules()
    tables = ["t" + "w" * 39] + [f"t{i}-" + "w" * 36 for i in range(9)]
    s = BoardStore(tmp_path / "b.sqlite")
    event = "e" * 40
    s.open_event(event, "W" * 80, tables, now=NOW - timedelta(hours=1))
    for key, r in rules.items():
        lo, hi = r.score
        widest = lo if len(str(lo)) > len(str(hi)) else hi
        for k in range(12):
            players = [
                {"seat": i, "initials": "WWW", "score": widest, "bot": False, "winner": True}
                for i in range(max(r.players[0], min(6, r.players[1])))
            ]
            s.add(
                new_record(event, tables[k % 10], key, players, 60.0, finished_at=NOW - timedelta(minutes=k)), now=NOW
            )
    c = Collector(s, event, "127.0.0.1", 9)
    payload = c.board_message(now=NOW)
    board = check_board(decode(payload), event)
    assert len(payload) <= MAX_BYTES
    assert set(board["games"]) == set(rules)
    n = board_rows(len(rules))
    assert n >= 5, "the tables' attract mode shows each game's best five"
    assert all(len(rows) == n for periods in board["games"].values() for rows in periods.values())
    # the bound holds for the worst case the arithmetic assumes, not just for this board
    worst = table_board(
        event,
        WORST_TITLE,
        NOW,
        {
            ("g" * 31 + str(i))[-32:]: {
                p: [{"initials": "WWW", "score": -(10**9) + 1, "table": "t" * 40}] * MAX_ROWS
                for p in ("all", "today", "hour")
            }
            for i in range(len(rules))
        },
    )
    assert len(encode(worst)) <= MAX_BYTES


@pytest.mark.parametrize("games", range(1, 13))
def test_the_rows_per_board_keep_the_worst_message_within_the_limit(games: int) -> None:
    rows = {
        f"{'g' * 30}{i:02d}": {
            p: [{"initials": "WWW", "score": -(10**9) + 1, "table": "t" * 40}] * MAX_ROWS
            for p in ("all", "today", "hour")
        }
        for i in range(games)
    }
    message = encode(table_board("e" * 40, WORST_TITLE, NOW, rows))
    assert len(message) <= MAX_BYTES
    assert board_rows(games) >= (5 if games <= 5 else 1)


def test_an_event_title_keeps_no_control_characters(store: BoardStore) -> None:
    store.open_event("fair", "Summer\x00 Fair\x1b[2J \ud800" + "x" * 200)
    title = store.event("fair")["title"]  # type: ignore[index]
    assert title.startswith("Summer Fair[2J ") and len(title) == 80
    encode({"title": title})  # encodable (no broken halves of characters)
