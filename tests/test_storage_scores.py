"""High scores and statistics on a real TinyDB file (kiosk.storage.HighScores, AtomicJSONStorage).

Bad input (names, scores, details, game keys), ordering per game, today's board, play counts, reset, the size
cap, a corrupted file, stale temporary files, an unwritable folder, a write that fails later, a second process,
threads, and the TinyDB storage itself against TinyDB's MemoryStorage.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import unicodedata
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from other_user import NOBODY, python_as
from tinydb import Query, TinyDB
from tinydb.storages import MemoryStorage

import kiosk.scores
from kiosk.storage import (
    AtomicJSONStorage,
    HighScores,
    ScoreEntry,
    StorageError,
    StorageUnavailable,
    UnavailableHighScores,
)

TZ = timezone(timedelta(hours=1))


class FakeClock:
    """The kiosk's local time, moved by the test."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


@pytest.fixture
def clock():
    return FakeClock(datetime(2026, 11, 29, 14, 5, tzinfo=TZ))


@pytest.fixture
def scores(tmp_path, clock):
    with HighScores(tmp_path / "scores.json", clock=clock, lower_is_better={"takoyaki": True}) as s:
        yield s


def reopen(s: HighScores, **kw) -> HighScores:
    s.close()
    return HighScores(s.path, clock=s._clock, lower_is_better={"takoyaki": True}, **kw)


# ---------------------------------------------------------------------------------------------- basics
def test_add_returns_the_stored_entry_and_it_survives_reopening(scores):
    e = scores.add("makoto", "ANA", 87, players=4, seats=(1, 2))
    assert isinstance(e, ScoreEntry)
    assert (e.game, e.name, e.score, e.details) == ("makoto", "ANA", 87, {"players": 4, "seats": [1, 2]})
    assert e.at.tzinfo is not None and e.day == date(2026, 11, 29)
    again = reopen(scores)
    try:
        assert again.top("makoto") == [e]
    finally:
        again.close()


def test_scores_py_names_the_same_class():
    assert kiosk.scores.HighScores is HighScores


def test_higher_is_better_by_default_and_ties_go_to_the_earlier_entry(scores):
    for name, score in [("A", 5), ("B", 9), ("C", 5), ("D", 7), ("E", 9)]:
        scores.add("makoto", name, score)
    assert [(x.name, x.score) for x in scores.top("makoto")] == [("B", 9), ("E", 9), ("D", 7), ("A", 5), ("C", 5)]
    assert [x.name for x in scores.top("makoto", n=2)] == ["B", "E"]
    assert scores.top("wasabi") == []


def test_time_trials_lower_is_better_with_an_override(scores):
    for name, ms in [("SLO", 65_000), ("FST", 41_250), ("MID", 50_000)]:
        scores.add("takoyaki", name, ms)
    assert [x.name for x in scores.top("takoyaki")] == ["FST", "MID", "SLO"]
    assert scores.lower_is_better("takoyaki") and not scores.lower_is_better("makoto")


def test_ordering_is_what_the_caller_hands_in(tmp_path):
    """Storage reads no game registry: the ordering is the caller's mapping (the kiosk builds it from its games),
    and a game it does not name ranks higher first."""
    from kiosk.games import GAMES

    lower = {k: not v.lower_is_better for k, v in GAMES.items()}  # each game the other way round
    with HighScores(tmp_path / "s.json", lower_is_better=lower) as s:
        for key, spec in GAMES.items():
            assert s.lower_is_better(key) is (not spec.lower_is_better)
            s.add(key, "HI", 100)
            s.add(key, "LO", 1)
            assert s.top(key)[0].name == ("HI" if spec.lower_is_better else "LO")
        assert s.lower_is_better("not-a-registered-game") is False
    with HighScores(tmp_path / "s.json") as s:
        assert not any(s.lower_is_better(key) for key in GAMES)
    gone = UnavailableHighScores("no card", lower_is_better={"takoyaki-trial": True})
    assert gone.lower_is_better("takoyaki-trial") and not gone.lower_is_better("maki")


def test_today_board_since_and_rank(scores, clock):
    old = scores.add("makoto", "OLD", 99)
    clock.now += timedelta(days=1)
    a = scores.add("makoto", "NEW", 50)
    b = scores.add("makoto", "TOP", 70)
    assert [x.name for x in scores.top("makoto")] == ["OLD", "TOP", "NEW"]
    assert [x.name for x in scores.top_today("makoto")] == ["TOP", "NEW"]
    assert scores.start_of_today() == datetime(2026, 11, 30, tzinfo=TZ)
    assert [x.name for x in scores.top("makoto", since=date(2026, 11, 30))] == ["TOP", "NEW"]
    assert [x.name for x in scores.top("makoto", since=b.at)] == ["TOP"]
    assert scores.rank(a) == 3 and scores.rank(a, since=scores.start_of_today()) == 2
    assert scores.rank(old, since=scores.start_of_today()) is None
    assert scores.qualifies("makoto", 60, n=2, since=scores.start_of_today())
    assert not scores.qualifies("makoto", 60, n=2)
    assert not scores.qualifies("makoto", 70, n=1, since=scores.start_of_today())  # a tie goes to the earlier
    assert scores.qualifies("makoto", 71, n=1, since=scores.start_of_today())
    assert scores.qualifies("wasabi", 0)


@pytest.mark.parametrize("game", ["makoto", "takoyaki"])
def test_boards_since_any_moment_match_a_plain_sort(scores, clock, game):
    import random

    rng = random.Random(3)
    entries = []
    for i in range(40):
        clock.now += timedelta(hours=rng.choice([1, 5, 20]))
        entries.append(scores.add(game, f"P{i}", rng.randint(0, 9)))
    sign = 1 if game == "takoyaki" else -1
    for cut in [None] + [e.at for e in entries[::3]] + [entries[-1].at + timedelta(seconds=1)]:
        shown = [e for e in entries if cut is None or e.at >= cut]
        expected = sorted(shown, key=lambda e: (sign * e.score, e.at, e.id))
        for n in (1, 3, 10):
            assert scores.top(game, n, since=cut) == expected[:n]
            for score in range(-1, 11):
                would_be = sum(1 for e in shown if sign * e.score <= sign * score) + 1
                assert scores.qualifies(game, score, n, since=cut) == (would_be <= n)
        for place, e in enumerate(expected, 1):
            assert scores.rank(e, since=cut) == place


def test_play_counts_per_game_and_day(scores, clock):
    assert scores.record_play("makoto") == 1
    assert scores.record_play("makoto") == 2
    assert scores.record_play("wasabi") == 1
    clock.now += timedelta(days=1)
    scores.record_play("makoto")
    scores.record_play("maki", when=date(2025, 12, 31))
    expected = {"maki": {"2025-12-31": 1}, "makoto": {"2026-11-29": 2, "2026-11-30": 1}, "wasabi": {"2026-11-29": 1}}
    assert scores.play_counts() == expected
    assert scores.play_counts("makoto", since=date(2026, 11, 30)) == {"makoto": {"2026-11-30": 1}}
    assert scores.play_totals(until=date(2026, 11, 29)) == {"maki": 1, "makoto": 2, "wasabi": 1}
    assert scores.games() == ["maki", "makoto", "wasabi"]
    again = reopen(scores)
    try:
        assert again.play_counts() == expected
        again.reset_play_counts("makoto")
        assert set(again.play_counts()) == {"maki", "wasabi"}
        assert again.record_play("makoto") == 1
    finally:
        again.close()


def test_reset_empties_one_board_only(scores):
    scores.add("makoto", "A", 1)
    e = scores.add("makoto", "B", 2)
    scores.add("wasabi", "C", 3)
    scores.record_play("makoto")
    assert scores.reset("makoto") == 2
    assert scores.top("makoto") == [] and len(scores.top("wasabi")) == 1
    f = scores.add("makoto", "D", 4)
    assert f.id > e.id, "an entry id is never reused in one run"
    again = reopen(scores)
    try:
        assert [x.name for x in again.top("makoto")] == ["D"]
        assert [x.name for x in again.top("wasabi")] == ["C"]
        assert again.play_counts()["makoto"]
    finally:
        again.close()


def test_size_cap_drops_oldest_but_keeps_the_best(tmp_path, clock):
    with HighScores(tmp_path / "s.json", clock=clock, max_entries=20, keep_best=3, chunk_size=4) as s:
        best = [s.add("makoto", "BEST", 1000 + i) for i in range(3)]
        added = best + [s.add("makoto", "X", i) for i in range(40)]
        assert 20 <= s.count("makoto") <= 21
        kept = s.top("makoto", n=100)
        assert set(best) <= set(kept)
        assert added[-1] in kept and added[3] not in kept
    data = json.loads((tmp_path / "s.json").read_bytes())
    assert all(t for t in data.values()), "emptied chunks are dropped from the file"
    assert len([t for t in data if t.startswith("scores/makoto/")]) <= 7
    with HighScores(tmp_path / "s.json", clock=clock, max_entries=20, keep_best=3, chunk_size=4) as s:
        assert s.top("makoto", n=100) == kept
        nxt = s.add("makoto", "Y", 5)
        assert nxt.id == added[-1].id + 1


# --------------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "name, message",
    [
        ("", "at least 1"),
        ("ABCDEFGHIJKLM", "at most 12"),
        ("A" * 1000, "at most 12"),
        ("A\nB", "printable"),
        ("A\tB", "printable"),
        ("NUL\x00", "printable"),
        ("\x1b[31mRED", "printable"),
        ("ZERO\u200bWIDTH"[:12], "printable"),
        ("RTL\u202e", "printable"),
        (" AB", "start or end with a space"),
        ("AB ", "start or end with a space"),
        (" ", "start or end with a space"),
        (None, "must be text"),
        (123, "must be text"),
        (b"ABC", "must be text"),
    ],
)
def test_bad_names_are_refused_and_never_stored(scores, name, message):
    before = scores.path.read_bytes() if scores.path.exists() else b""
    with pytest.raises(ValueError, match=message):
        scores.add("makoto", name, 10)
    assert scores.top("makoto") == []
    assert (scores.path.read_bytes() if scores.path.exists() else b"") == before


@pytest.mark.parametrize("name", ["A", "ANA", "ABCDEFGHIJKL", "José", "李小龍", "A B", "O'NEIL-2", "Ωμέγα"])
def test_good_names_are_kept_exactly(scores, name):
    assert scores.add("makoto", name, 1).name == name
    assert reopen(scores).top("makoto")[0].name == name


def test_names_are_stored_in_nfc_and_counted_in_characters(scores):
    decomposed = "Jose\u0301" + "E\u0301" * 8  # 12 characters once composed, 21 code points before
    assert len(decomposed) == 21
    e = scores.add("makoto", decomposed, 1)
    assert e.name == unicodedata.normalize("NFC", decomposed) and len(e.name) == 12


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=16))
def test_any_text_is_either_a_valid_name_or_a_value_error(scores, text):
    nfc = unicodedata.normalize("NFC", text)
    valid = 1 <= len(nfc) <= 12 and nfc.isprintable() and nfc == nfc.strip(" ")
    before = scores.count("makoto")
    try:
        entry = scores.add("makoto", text, 1)
    except ValueError as exc:
        assert not valid, f"{text!r} refused: {exc}"
        assert scores.count("makoto") == before
    else:
        assert valid and entry.name == nfc and scores.count("makoto") == before + 1


@pytest.mark.parametrize("score", [1.5, 2.0, "10", True, False, None, 2**53, -(2**53), float("nan")])
def test_scores_must_be_whole_numbers(scores, score):
    with pytest.raises(ValueError, match="score"):
        scores.add("makoto", "ANA", score)
    assert scores.top("makoto") == []


def test_negative_and_zero_scores_are_fine(scores):
    assert [scores.add("makoto", "A", s).score for s in (0, -5, 2**53 - 1)] == [0, -5, 2**53 - 1]


@pytest.mark.parametrize(
    "details, message",
    [
        ({"x": object()}, "JSON"),
        ({"x": float("inf")}, "JSON"),
        ({"blob": "x" * 2000}, "1024 bytes"),
    ],
)
def test_details_must_be_small_json(scores, details, message):
    with pytest.raises(ValueError, match=message):
        scores.add("makoto", "ANA", 1, **details)


@pytest.mark.parametrize("game", ["", "Makoto", "a/b", "x" * 40, None, "../etc"])
def test_bad_game_keys_are_refused(scores, game):
    with pytest.raises(ValueError, match="game key"):
        scores.add(game, "ANA", 1)


# ------------------------------------------------------------------------------------------- bad files
def test_corrupted_file_is_moved_aside_and_a_fresh_board_started(tmp_path, caplog):
    path = tmp_path / "scores.json"
    garbage = b'{"scores/makoto/000001": {"1": {"seq": 1, "name": "AN'
    path.write_bytes(garbage)
    with caplog.at_level(logging.WARNING, logger="kiosk.storage"):
        s = HighScores(path)
    try:
        assert s.quarantined is not None and s.quarantined.read_bytes() == garbage
        assert s.quarantined.name.startswith("scores.corrupt-") and s.quarantined.suffix == ".json"
        assert "moved aside" in caplog.text and s.quarantined.name in caplog.text
        assert s.top("makoto") == []
        s.add("makoto", "NEW", 1)
    finally:
        s.close()
    with HighScores(path) as s:
        assert s.quarantined is None and [e.name for e in s.top("makoto")] == ["NEW"]


@pytest.mark.parametrize("content", [b"[1, 2, 3]", b'{"t": [1]}', b'{"t": {"1": 5}}', b"\x00" * 64, b"\xff\xfe{"])
def test_files_of_the_wrong_shape_are_quarantined_too(tmp_path, content):
    (tmp_path / "s.json").write_bytes(content)
    with HighScores(tmp_path / "s.json") as s:
        assert s.quarantined is not None and s.quarantined.read_bytes() == content


def test_an_empty_file_is_an_empty_board(tmp_path):
    (tmp_path / "s.json").write_bytes(b"")
    with HighScores(tmp_path / "s.json") as s:
        assert s.quarantined is None and s.games() == []


def test_malformed_entries_are_skipped_not_fatal(tmp_path):
    good = {"seq": 1, "name": "OK", "score": 5, "at": "2026-11-29T14:05:00+01:00"}
    bad = [
        {"seq": 2, "name": "X" * 40, "score": 5, "at": "2026-11-29T14:05:00+01:00"},
        {"seq": 3, "name": "Y", "score": "lots", "at": "2026-11-29T14:05:00+01:00"},
        {"seq": 4, "name": "Z", "score": 1, "at": "yesterday"},
    ]
    table = {"1": good, **{str(i + 2): b for i, b in enumerate(bad)}}
    (tmp_path / "s.json").write_text(json.dumps({"scores/makoto/000001": table}))
    with HighScores(tmp_path / "s.json") as s:
        assert s.skipped == 3 and [e.name for e in s.top("makoto")] == ["OK"]
        assert s.add("makoto", "NEXT", 1).id == 5


def test_stale_temporary_files_are_removed_at_start(tmp_path):
    with HighScores(tmp_path / "s.json") as s:
        s.add("makoto", "A", 1)
    stale = [tmp_path / ".s.json.tmp-123-abcd", tmp_path / ".s.json.tmp-999-0000"]
    for p in stale:
        p.write_bytes(b'{"half": ')
    other = tmp_path / "keep.txt"
    other.write_text("not ours")
    with HighScores(tmp_path / "s.json") as s:
        assert [e.name for e in s.top("makoto")] == ["A"]
    assert not any(p.exists() for p in stale) and other.exists()


def test_the_file_is_plain_tinydb_json(tmp_path):
    with HighScores(tmp_path / "s.json") as s:
        s.add("makoto", "ANA", 87)
        s.record_play("makoto")
    db = TinyDB(tmp_path / "s.json", access_mode="r")
    try:
        assert db.table("scores/makoto/000001").all()[0]["name"] == "ANA"
        assert any(t.startswith("plays/") for t in db.tables())
    finally:
        db.close()


# ------------------------------------------------------------------------------------- unusable storage
def test_unwritable_folder_gives_a_clear_error_and_an_unavailable_board(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the state folder should be")
    path = blocker / "scores.json"
    with pytest.raises(StorageUnavailable, match=r"high scores unavailable: cannot write in .*not-a-folder"):
        HighScores(path)
    s = HighScores.open_or_unavailable(path)
    assert isinstance(s, UnavailableHighScores) and s.available is False
    assert "not-a-folder" in s.reason
    assert s.top("makoto") == [] and s.top_today("makoto") == [] and s.play_counts() == {}
    assert not s.qualifies("makoto", 10**6, since=s.start_of_today())
    assert s.rank(ScoreEntry("makoto", 1, "A", 1, datetime.now().astimezone())) is None
    with pytest.raises(StorageUnavailable):
        s.add("makoto", "ANA", 1)
    with pytest.raises(StorageUnavailable):
        s.record_play("makoto")


READ_ONLY_CHECK = """
import sys
from pathlib import Path
from kiosk.storage import HighScores
sys.exit(0 if HighScores.open_or_unavailable(Path(sys.argv[1]) / "s.json").available is False else 3)
"""


def test_read_only_folder_is_unavailable():
    """A scores file in a folder the kiosk cannot write is unavailable, not a crash. Root writes into read-only
    folders (and CI runs as root), so as root the check runs in a child that drops to ``nobody`` first, from a
    readable copy of the kiosk (the checkout may be in a folder nobody cannot enter: tests/other_user.py)."""
    with contextlib.ExitStack() as stack:
        as_root = os.geteuid() == 0
        python = stack.enter_context(python_as(NOBODY, "kiosk", "tinydb")) if as_root else [sys.executable]
        base = stack.enter_context(tempfile.TemporaryDirectory(prefix="ro-check-"))  # pytest's are root's alone
        os.chmod(base, 0o711)  # nobody may pass through, not list or write
        folder = Path(base) / "ro"
        folder.mkdir()
        folder.chmod(0o555)
        try:
            proc = subprocess.run(
                [*python, "-P", "-c", READ_ONLY_CHECK, str(folder)],
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
            assert not (folder / "s.json").exists(), "nothing was written"
        finally:
            folder.chmod(0o700)


def test_a_write_that_fails_later_raises_and_keeps_the_last_saved_state(tmp_path):
    folder = tmp_path / "state"
    s = HighScores(folder / "s.json")
    try:
        a = s.add("makoto", "A", 1)
        s.record_play("makoto")
        shutil.rmtree(folder)  # the card goes away under the running kiosk
        with pytest.raises(StorageError, match="could not save"):
            s.add("makoto", "B", 2)
        with pytest.raises(StorageError):
            s.record_play("makoto")
        assert s.top("makoto") == [a] and s.play_totals() == {"makoto": 1}
        assert s._db.table("scores/makoto/000001").all() == [
            {"seq": 1, "name": "A", "score": 1, "at": a.at.isoformat(timespec="milliseconds")}
        ]
    finally:
        s.close()


def test_a_second_process_cannot_open_the_same_file(tmp_path):
    with HighScores(tmp_path / "s.json") as s:
        with pytest.raises(StorageUnavailable, match="already open"):
            HighScores(tmp_path / "s.json")
        assert HighScores.open_or_unavailable(tmp_path / "s.json").available is False
        s.add("makoto", "A", 1)
    with HighScores(tmp_path / "s.json") as s:  # closed: free again
        assert s.count("makoto") == 1


def test_threads_share_one_board_safely(scores):
    def worker(t: int) -> None:
        for i in range(6):
            scores.add("makoto", f"T{t}", t * 100 + i)
            scores.record_play("makoto")

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    entries = scores.top("makoto", n=100)
    assert len(entries) == 36 and len({e.id for e in entries}) == 36
    assert scores.play_totals() == {"makoto": 36}
    again = reopen(scores)
    try:
        assert again.top("makoto", n=100) == entries
    finally:
        again.close()


# --------------------------------------------------------------------------------- the TinyDB storage
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("insert"), st.sampled_from(["_default", "a", "b"]), st.integers(-5, 5)),
        st.tuples(st.just("update"), st.sampled_from(["_default", "a", "b"]), st.integers(-5, 5)),
        st.tuples(st.just("remove"), st.sampled_from(["_default", "a", "b"]), st.integers(-5, 5)),
        st.tuples(st.just("drop"), st.sampled_from(["a", "b"]), st.just(0)),
        st.tuples(st.just("truncate"), st.sampled_from(["_default", "a"]), st.just(0)),
    ),
    max_size=10,
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(OPS)
def test_storage_file_always_equals_tinydb_memory_storage(tmp_path, ops):
    path = tmp_path / f"db-{os.urandom(4).hex()}.json"
    disk = TinyDB(path, storage=AtomicJSONStorage)
    mem = TinyDB(storage=MemoryStorage)
    q = Query()
    try:
        for op, table, v in ops:
            for db in (disk, mem):
                t = db.table(table)
                if op == "insert":
                    t.insert({"v": v, "w": [v]})
                elif op == "update":
                    t.update({"v": v + 100}, q.v == v)  # TinyDB changes documents in place here
                elif op == "remove":
                    t.remove(q.v == v)
                elif op == "drop":
                    db.drop_table(table)
                else:
                    t.truncate()
            on_disk = json.loads(path.read_bytes()) if path.exists() else None
            assert on_disk == mem.storage.read()
    finally:
        disk.close()
    reopened = TinyDB(path, storage=AtomicJSONStorage)
    try:
        assert reopened.storage.read() == mem.storage.read()
    finally:
        reopened.close()


def test_the_boards_need_no_game_registry(tmp_path, monkeypatch, caplog):
    import sys

    monkeypatch.setitem(sys.modules, "kiosk.games", None)  # "import kiosk.games" now raises ImportError
    with HighScores(tmp_path / "s.json", lower_is_better={"takoyaki": True}) as s:
        assert s.lower_is_better("makoto") is False and s.lower_is_better("takoyaki") is True
        s.add("makoto", "A", 1)
        s.add("takoyaki", "B", 2)
        s.add("takoyaki", "C", 1)
        assert [e.name for e in s.top("takoyaki")] == ["C", "B"]
    assert "registry" not in caplog.text
