"""Damaged files never cost the kiosk its storage: one bad record, deep nesting, a file too large or bytes from
nowhere in the scores file or a journal are left out (the file as it was kept aside, with a log line), and the
rest goes on. Real TinyDB files and real journals on disk; hypothesis feeds random bytes and JSON shapes."""

from __future__ import annotations

import json
import logging
from datetime import timedelta, timezone
from pathlib import Path
from typing import Any

import storage_child
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from storage_child import TINY, policy_step

from kiosk.storage import HighScores, SavedGames, load_journal
from kiosk.storage import journal as journal_mod
from kiosk.storage.atomic import MAX_BYTES

SPECS = storage_child.specs()
TZ = timezone(timedelta(hours=1))
AT = "2026-11-29T14:05:00.000+01:00"


def entry(seq: int, name: str = "ANA", score: int = 10) -> dict[str, Any]:
    return {"seq": seq, "name": name, "score": score, "at": AT}


def write(path: Path, data: Any) -> bytes:
    raw = json.dumps(data).encode()
    path.write_bytes(raw)
    return raw


def aside(folder: Path) -> list[Path]:
    return sorted(folder.glob("scores.corrupt-*.json"))


# ------------------------------------------------------------------------------------------- high scores
def test_a_play_count_with_a_bad_id_no_longer_takes_storage_down(tmp_path: Path, caplog: Any) -> None:
    """Reproduces: ``open_or_unavailable`` raised ValueError: no boards, no resume, no journal, on every start."""
    path = tmp_path / "scores.json"
    raw = write(
        path,
        {
            "scores/makoto/000001": {"1": entry(1, "ANA", 30), "2": entry(2, "BOB", 20)},
            "plays/2026": {
                "1": {"game": "makoto", "day": "2026-11-29", "count": 4},
                "x1": {"game": "maki", "day": "2026-11-29", "count": 2},
            },
        },
    )
    with caplog.at_level(logging.WARNING, logger="kiosk.storage"):
        s = HighScores.open_or_unavailable(path)
    assert isinstance(s, HighScores) and s.available
    try:
        assert [e.name for e in s.top("makoto")] == ["ANA", "BOB"]
        assert s.play_counts() == {"makoto": {"2026-11-29": 4}}
        assert any("'x1'" in p for p in s.problems)
        copies = aside(tmp_path)
        assert len(copies) == 1 and copies[0].read_bytes() == raw and s.quarantined == copies[0]
        assert copies[0].name in caplog.text
        assert "x1" not in json.loads(path.read_text())["plays/2026"], "the file is rewritten without it"
        s.record_play("maki")
    finally:
        s.close()
    with HighScores(path) as again:  # the next start is clean: nothing more is set aside
        assert again.problems == [] and len(aside(tmp_path)) == 1


def test_a_score_with_a_bad_id_no_longer_breaks_every_later_add(tmp_path: Path) -> None:
    """Reproduces: TinyDB counted the next id from ``int(id)``, so every ``add`` to that board failed."""
    path = tmp_path / "scores.json"
    write(path, {"scores/maki/000001": {"1": entry(1), "a": entry(2, "BAD"), "\u00b2": entry(3, "SUP")}})
    with HighScores(path) as s:
        assert [e.name for e in s.top("maki")] == ["ANA"]
        new = s.add("maki", "NEW", 50)
        assert new.id == 4, "ids of left-out entries are not reused"
        assert [e.name for e in s.top("maki")] == ["NEW", "ANA"]
    with HighScores(path) as s:
        assert [e.name for e in s.top("maki")] == ["NEW", "ANA"]


def test_a_run_of_brackets_moves_the_file_aside(tmp_path: Path) -> None:
    """Reproduces: deeply nested JSON raised RecursionError past every guard."""
    path = tmp_path / "scores.json"
    path.write_bytes(b'{"scores/maki/000001": ' + b"[" * 200_000)
    s = HighScores.open_or_unavailable(path)
    try:
        assert s.available and s.top("maki") == [] and "nested deeper" in s.problems[0]
        assert s.quarantined is not None and s.quarantined.stat().st_size > 200_000
        s.add("maki", "NEW", 1)
    finally:
        s.close()


def test_deep_details_leave_out_that_entry_only(tmp_path: Path) -> None:
    path = tmp_path / "scores.json"
    deep: Any = 1
    for _ in range(20):
        deep = {"d": deep}
    write(path, {"scores/maki/000001": {"1": entry(1), "2": {**entry(2, "DEEP"), "details": deep}}})
    with HighScores(path) as s:
        assert [e.name for e in s.top("maki")] == ["ANA"] and len(s.problems) == 1
        s.add("maki", "NEXT", 3)


def test_a_file_beyond_the_size_limit_is_moved_aside_unread(tmp_path: Path) -> None:
    """Reproduces: a valid 90 MB file took 15 s and 1.3 GB to open. Beyond the limit it is not read at all."""
    path = tmp_path / "scores.json"
    with open(path, "wb") as fh:
        fh.truncate(MAX_BYTES + 1)  # sparse: costs nothing to make
    with HighScores(path) as s:
        assert s.available and s.top("maki") == [] and "MiB" in s.problems[0]
        assert s.quarantined is not None and s.quarantined.stat().st_size == MAX_BYTES + 1
        assert not path.exists() or path.stat().st_size < 100


def test_the_same_day_counted_twice_is_added_up(tmp_path: Path) -> None:
    path = tmp_path / "scores.json"
    write(
        path,
        {
            "plays/2026": {
                "1": {"game": "maki", "day": "2026-11-29", "count": 2},
                "2": {"game": "maki", "day": "2026-11-29", "count": 3},
            }
        },
    )
    with HighScores(path) as s:
        assert s.play_counts() == {"maki": {"2026-11-29": 5}}
    with HighScores(path) as s:
        assert s.play_counts() == {"maki": {"2026-11-29": 5}} and s.problems == []


# ---------------------------------------------------------------------------------------------- journals
def start_tiny(saved: SavedGames, seed: int, steps: int) -> Any:
    state = TINY.new_game(3, seed)
    journal = saved.start("tinyrace", 3, seed, state=state, seats=[{"kind": "human"}] * 3)
    for _ in range(steps):
        state.apply(*policy_step(state, seed))
        assert journal.sync(state)
    journal.close()
    return journal


def test_a_deeply_nested_journal_line_ends_the_readable_part_there(tmp_path: Path) -> None:
    """Reproduces: a journal line of ``[[[[...`` raised RecursionError: nothing offered, never archived."""
    root = tmp_path / "g"
    with SavedGames(root, specs=SPECS) as saved:
        j = start_tiny(saved, seed=2, steps=3)
        with open(j.path, "ab") as fh:
            fh.write(b"[" * 100_000 + b"\n")
        loaded = load_journal(j.path)
        assert loaded.header is not None and loaded.actions == 3 and "nested deeper" in loaded.problem
        offers = saved.startup()
        assert [o.id for o in offers] == [j.id]
        state, resumed = offers[0].resume()
        resumed.close()
        assert load_journal(j.path).ignored_bytes == 0


def test_one_bad_journal_is_set_aside_and_the_others_still_offered(tmp_path: Path, caplog: Any) -> None:
    root = tmp_path / "g"
    with SavedGames(root, specs=SPECS) as saved:
        good = start_tiny(saved, seed=5, steps=4)
        deep_header = saved.active / "deep.jsonl"
        deep_header.write_bytes(b"[" * 50_000 + b"\n")
        bad_meta = start_tiny(saved, seed=6, steps=1)
        lines = bad_meta.path.read_bytes().split(b"\n")
        header = json.loads(lines[0])
        header["meta"] = [1, 2]  # the app does dict(offer.meta)
        bad_meta.path.write_bytes(b"\n".join([json.dumps(header).encode(), *lines[1:]]))
        huge = saved.active / "huge.jsonl"
        with open(huge, "wb") as fh:
            fh.truncate(journal_mod.MAX_FILE_BYTES + 1)
    with caplog.at_level(logging.WARNING, logger="kiosk.storage"), SavedGames(root, specs=SPECS) as saved:
        offers = saved.startup()
        assert [o.id for o in offers] == [good.id]
        archived = {p.name for p in saved.archived()}
        assert {"deep.jsonl", bad_meta.path.name, "huge.jsonl"} <= archived
        reasons = dict(saved.set_aside)
        assert "nested deeper" in reasons["deep.jsonl"] and "meta" in reasons[bad_meta.path.name]
        assert "more than" in reasons["huge.jsonl"]
        assert "deep.jsonl" in caplog.text


def test_a_replay_that_fails_in_any_way_sets_that_journal_aside(tmp_path: Path) -> None:
    root = tmp_path / "g"
    with SavedGames(root, specs=SPECS) as saved:
        good = start_tiny(saved, seed=7, steps=2)
        weird = start_tiny(saved, seed=8, steps=1)
        with open(weird.path, "ab") as fh:
            fh.write(b'{"seat": 0, "action": [1, 2, 3]}\n')  # not an action object at all
    with SavedGames(root, specs=SPECS) as saved:
        assert [o.id for o in saved.startup()] == [good.id]
        assert weird.path.name in dict(saved.set_aside)


# ------------------------------------------------------------------------------------------ property tests
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**60), 2**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)
DOC_IDS = st.one_of(st.integers(1, 10**6).map(str), st.text(max_size=4))
TABLE_NAMES = st.sampled_from(
    ["scores/maki/000001", "scores/makoto/000002", "plays/2026", "plays/x", "other", "_default"]
)


def valid_entries(n: int) -> dict[str, dict[str, Any]]:
    return {str(i + 1): entry(i + 1, f"P{i}", 100 - i) for i in range(n)}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    junk_tables=st.dictionaries(TABLE_NAMES, st.one_of(JSON, st.dictionaries(DOC_IDS, JSON, max_size=4)), max_size=4),
    junk_docs=st.dictionaries(st.integers(1000, 2000).map(str) | st.text(max_size=3), JSON, max_size=4),
    n=st.integers(0, 5),
)
def test_random_json_shapes_lose_no_valid_entry(
    tmp_path_factory: Any, junk_tables: Any, junk_docs: Any, n: int
) -> None:
    """Valid entries in their own table survive any junk beside them (and junk inside their table), the file as
    it was is kept whole whenever something is left out, and the board takes new entries afterwards."""
    folder = tmp_path_factory.mktemp("shapes")
    path = folder / "scores.json"
    good = valid_entries(n)
    data: dict[str, Any] = {k: v for k, v in junk_tables.items() if k != "scores/wasabi/000001"}
    data["scores/wasabi/000001"] = {**good, **{k: v for k, v in junk_docs.items() if k not in good}}
    raw = write(path, data)
    s = HighScores.open_or_unavailable(path)
    assert s.available
    try:
        names = {e.name for e in s.top("wasabi", 100)}
        assert {d["name"] for d in good.values()} <= names
        if s.problems:
            assert s.quarantined is not None and s.quarantined.read_bytes() == raw
        else:
            assert path.read_bytes() == raw
        s.add("wasabi", "NEW", 1)
        s.record_play("wasabi")
    finally:
        s.close()
    with HighScores(path) as again:
        assert again.problems == [] and "NEW" in {e.name for e in again.top("wasabi", 100)}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    content=st.one_of(
        st.binary(max_size=200),
        st.builds(lambda n, c: c * n, st.integers(1, 30_000), st.sampled_from([b"[", b"{", b'{"a":', b'{"t":{"1":['])),
        JSON.map(lambda v: json.dumps(v).encode()),
    )
)
def test_random_bytes_never_take_the_boards_down(tmp_path_factory: Any, content: bytes) -> None:
    folder = tmp_path_factory.mktemp("bytes")
    path = folder / "scores.json"
    path.write_bytes(content)
    s = HighScores.open_or_unavailable(path)
    assert s.available
    try:
        if s.problems:
            assert s.quarantined is not None and s.quarantined.read_bytes() == content, "nothing is destroyed"
        s.add("maki", "NEW", 5)
        assert "NEW" in {e.name for e in s.top("maki", 10_000)}
    finally:
        s.close()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    garbage=st.one_of(
        st.binary(min_size=1, max_size=300),
        st.builds(lambda n: b"[" * n + b"\n", st.integers(1, 20_000)),
        JSON.map(lambda v: json.dumps(v).encode() + b"\n"),
    ),
    where=st.sampled_from(["own file", "after the records", "instead of the header"]),
)
def test_random_journal_bytes_never_stop_the_start(tmp_path_factory: Any, garbage: bytes, where: str) -> None:
    root = tmp_path_factory.mktemp("j") / "g"
    with SavedGames(root, specs=SPECS) as saved:
        good = start_tiny(saved, seed=9, steps=3)
        other = start_tiny(saved, seed=10, steps=2)
        raw = other.path.read_bytes()
        if where == "own file":
            (saved.active / "garbage.jsonl").write_bytes(garbage)
        elif where == "after the records":
            other.path.write_bytes(raw + garbage)
        else:
            other.path.write_bytes(garbage + raw[raw.index(b"\n") :])
    with SavedGames(root, specs=SPECS) as saved:
        offers = saved.startup()  # never raises
        ids = [o.id for o in offers]
        assert good.id in ids, "a good journal is always offered"
        if where == "after the records":
            offer = next((o for o in offers if o.id == other.id), None)
            if offer is not None:  # the garbage may be a valid record that does not replay: then it is set aside
                assert offer.actions >= 2
        for o in offers:
            o.replay()
        assert all(p.parent == saved.active for p in saved.active.iterdir() if p.suffix == ".jsonl")


def test_the_stores_open_in_a_thread_and_hand_over_everything(tmp_path: Path) -> None:
    import gc
    import threading

    from kiosk.storage.opener import open_in_background

    with SavedGames(tmp_path / "games", specs=SPECS) as saved:
        unfinished = start_tiny(saved, seed=3, steps=2)
    write(tmp_path / "scores.json", {"scores/maki/000001": {"1": entry(1)}, "plays/2026": {"z": {}}})
    got: list[Any] = []
    done = threading.Event()

    def finished(opened: Any) -> None:
        got.append((opened, threading.current_thread().name))
        done.set()

    open_in_background(tmp_path, specs=SPECS, done=finished).join(30)
    assert done.is_set() and gc.isenabled(), "the collector runs again afterwards"
    opened, thread = got[0]
    try:
        assert thread == "storage-open"
        assert [e.name for e in opened.scores.top("maki")] == ["ANA"] and opened.scores.problems
        assert [o.id for o in opened.offers] == [unfinished.id]
    finally:
        opened.scores.close()
        opened.saved_games.close()
