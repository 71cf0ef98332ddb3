"""Game journals and resuming (kiosk.storage.SavedGames / GameJournal / UnfinishedGame) on real files.

Round trips run on every registered game (the real rules) and on a tiny deterministic test game with chance
records in the middle of play (tests/storage_child.py).
"""

from __future__ import annotations

import json
import os
import time
from datetime import datetime, timedelta, timezone

import pytest
import storage_child
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from storage_child import TINY, play_to, players_for, policy_step

from kiosk import health
from kiosk.engine import ChanceMissing, replay, replay_acknowledged
from kiosk.storage import (
    GameJournal,
    JournalError,
    NullJournal,
    SavedGames,
    StorageUnavailable,
    UnavailableSavedGames,
    load_journal,
)

SPECS = storage_child.specs()
KEYS = sorted(SPECS)


@pytest.fixture
def saved(tmp_path):
    with SavedGames(tmp_path / "games", specs=SPECS) as s:
        yield s


def start_tiny(saved: SavedGames, seed: int = 5, players: int = 3, steps: int = 0):
    state = TINY.new_game(players, seed)
    journal = saved.start(
        "tinyrace", players, seed, state=state, seats=[{"kind": "human"}] * players, meta={"table": "front"}
    )
    for _ in range(steps):
        state.apply(*policy_step(state, seed))
        assert journal.sync(state)
    return state, journal


def reopen(saved: SavedGames, **kw) -> SavedGames:
    saved.close()
    return SavedGames(saved.root, specs=SPECS, **kw)


# ------------------------------------------------------------------------------------------ round trips
@pytest.mark.parametrize("key", KEYS)
def test_every_game_resumes_at_the_exact_position_and_finishes(tmp_path, key):
    spec = SPECS[key]
    players, seed = players_for(spec), 42
    with SavedGames(tmp_path / "g", specs=SPECS) as saved:
        state = spec.new_game(players, seed)
        journal = saved.start(key, players, seed, state=state, seats=[{"kind": "bot", "level": "easy"}] * players)
        steps = 0
        while not state.is_over() and steps < 25:
            state.apply(*policy_step(state, seed))
            assert journal.sync(state)
            steps += 1
        journal.close()  # power cut: nothing else happens
    with SavedGames(tmp_path / "g", specs=SPECS) as saved:
        (offer,) = saved.startup()
        assert (offer.game, offer.players, offer.seed, offer.actions) == (key, players, seed, steps)
        assert offer.title == spec.title and offer.seats[0] == {"kind": "bot", "level": "easy"}
        again, journal = offer.resume()
        assert again.fingerprint() == state.fingerprint()
        while not again.is_over():
            again.apply(*policy_step(again, seed))
            assert journal.sync(again)
        archived = journal.finish(again.outcome())
        assert archived is not None and archived.parent == saved.archive
        loaded = load_journal(archived)
        assert loaded.end["end"] == "finished" and loaded.end["outcome"]["scores"] == list(again.scores())
        assert replay(spec, players, seed, loaded.records).fingerprint() == again.fingerprint()
        assert saved.startup() == [] and list(saved.active.iterdir()) == []


def test_a_later_game_of_a_makoto_match_resumes_with_its_set_up_and_the_match(tmp_path):
    """The second game of a match has another dealer and a box lid: its journal keeps that set-up (replay needs
    it) and the match so far (the screen needs it); before the set-up was kept, such a game did not replay."""
    import random

    from kiosk.games.makoto.match import MakotoMatch

    spec = SPECS["makoto"]
    match = MakotoMatch(3, 7, games=3)
    first = match.next_game()
    rng = random.Random(1)
    while not first.is_over():
        seat = first.to_move()[0]
        first.apply(seat, rng.choice(first.legal_actions(seat)))
    match.record(first)
    state = match.next_game()
    assert state.dealer == 0 and state.lid_holder is not None
    lid = state.lid_holder  # (play may use the lid up)
    with SavedGames(tmp_path / "g", specs=SPECS) as saved:
        journal = saved.start(
            "makoto",
            3,
            match.game_seed(1),
            state=state,
            setup=match.setup(),
            meta={"match": match.to_json(), "series": [2, 3]},
        )
        for _ in range(12):
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            assert journal.sync(state)
        journal.close()
    with SavedGames(tmp_path / "g", specs=SPECS) as saved:
        (offer,) = saved.startup()
        again, _journal = offer.resume()
        assert again.fingerprint() == state.fingerprint()
        assert (again.dealer, again.lid_holder) == (state.dealer, state.lid_holder)
        restored = MakotoMatch.from_json(offer.meta["match"])
        assert restored.results == [first.scores()] and restored.lid_holder == lid
        assert offer.header["setup"] == {"dealer": 0, "lid_holder": lid}
        assert (restored.next_game().dealer, restored.next_game().lid_holder) == (0, lid)
    # without its set-up the same records do not replay (the first player differs)
    with pytest.raises(Exception, match="turn"):
        replay(spec, 3, match.game_seed(1), state.journal)


def test_bad_set_up_or_match_records_are_refused_clearly(tmp_path):
    from kiosk.games.makoto.match import MakotoMatch

    spec = SPECS["makoto"]
    with pytest.raises(ValueError, match="dealer must be a seat 0 to 2"):
        spec.start(3, 1, {"dealer": 9})
    with pytest.raises(ValueError, match="unknown Makoto set-up"):
        spec.start(3, 1, {"dealers": 1})
    with pytest.raises(ValueError, match="takes no set-up"):
        SPECS["tinyrace"].start(2, 1, {"dealer": 1})
    assert spec.start(3, 1, None).fingerprint() == spec.new_game(3, 1).fingerprint()
    for bad in (
        None,
        {},
        {"players": 3, "seed": 1, "games": 2, "results": [[1, 2, 3], [1, 2, 3]]},
        {"players": 3, "seed": 1, "games": 3, "results": [[1, 2]]},
        {"players": 3, "seed": 1, "games": 3, "results": [], "lid_holder": 5},
    ):
        with pytest.raises(ValueError, match="not a Makoto match record"):
            MakotoMatch.from_json(bad)
    # a journal whose set-up does not fit is not offered: archived as broken, with the reason
    with SavedGames(tmp_path / "g", specs=SPECS) as saved:
        state = spec.new_game(3, 1)
        saved.start("makoto", 3, 1, state=state, setup={"dealer": 9}).close()
        assert saved.startup() == []
        (archived,) = saved.archived()
        assert "dealer must be a seat" in load_journal(archived).end["reason"]


def test_set_up_records_are_written_with_the_header(saved):
    state, journal = start_tiny(saved)
    loaded = load_journal(journal.path)
    assert loaded.header["game"] == "tinyrace" and loaded.header["meta"] == {"table": "front"}
    assert loaded.records == state.journal and loaded.records[0]["chance"] == "deck"
    assert loaded.actions == 0


def test_each_sync_is_on_disk_when_it_returns_and_sync_is_idempotent(saved):
    state, journal = start_tiny(saved)
    while not state.is_over():
        state.apply(*policy_step(state, 5))
        assert journal.sync(state)
        assert load_journal(journal.path).records == state.journal
    size = journal.path.stat().st_size
    assert journal.sync(state) and journal.path.stat().st_size == size
    takes = sum(1 for r in state.journal if r.get("action", {}).get("type") == "Take")
    assert takes > 18 and any(r.get("chance") == "reshuffle" for r in state.journal), "a mid-game chance record"


def test_offer_carries_what_the_dialog_needs(tmp_path):
    clock_time = datetime(2026, 11, 29, 14, 5, tzinfo=timezone(timedelta(hours=1)))
    with SavedGames(tmp_path / "g", specs=SPECS, clock=lambda: clock_time, max_age=timedelta(days=36500)) as saved:
        start_tiny(saved, steps=4)[1].close()
        (offer,) = saved.startup()
        assert f"Resume the {offer.title} game from {offer.started:%H:%M}?" == "Resume the Tiny Race game from 14:05?"
        assert offer.last_activity.tzinfo is not None and offer.meta == {"table": "front"}
        assert offer.id in offer.path.name and offer.actions == 4


# --------------------------------------------------------------------------------------- torn and damaged
@pytest.mark.parametrize(
    "tail",
    [
        b'{"seat":0,"act',
        b'{"seat": 1, "action": {"type": "Take"}}',
        b"\x00" * 300,
        b"\n\n",
        b'{"seat":0,"action":{"type":"Take"}}garbage\n',
        b"123\n",
        b'{"journal": 1}\n',
    ],
)
def test_a_torn_tail_is_ignored_and_cut_before_the_next_record(saved, tail):
    state, journal = start_tiny(saved, steps=6)
    journal.close()
    with open(journal.path, "ab") as f:
        f.write(tail)
    loaded = load_journal(journal.path)
    assert loaded.records == state.journal and loaded.ignored_bytes == len(tail)
    saved = reopen(saved)
    try:
        (offer,) = saved.startup()
        again, journal = offer.resume()
        assert again.fingerprint() == state.fingerprint()
        for _ in range(3):
            again.apply(*policy_step(again, 5))
            assert journal.sync(again)
        loaded = load_journal(journal.path)
        assert loaded.ignored_bytes == 0 and loaded.records == again.journal
    finally:
        saved.close()


def test_a_damaged_middle_line_is_reported_and_the_game_offered_up_to_it(saved):
    state, journal = start_tiny(saved, steps=8)
    journal.close()
    lines = journal.path.read_bytes().split(b"\n")
    lines[5] = b'{"seat": 0, "act\x00\x00\x00'
    journal.path.write_bytes(b"\n".join(lines))
    loaded = load_journal(journal.path)
    assert loaded.damaged and "unreadable line" in loaded.problem
    assert loaded.records == state.journal[:4]
    saved = reopen(saved)
    try:
        (offer,) = saved.startup()
        again, _ = offer.resume()
        assert again.journal == state.journal[:4]
    finally:
        saved.close()


# ------------------------------------------------------------ a kill between an action and its chance record
def play_until_chance(key: str, chance: str, seeds=range(1, 60), limit: int = 3000) -> tuple[int, int]:
    """The first (seed, n) for which the policy's n-th action of game ``key`` causes a ``chance`` record."""
    spec = SPECS[key]
    for seed in seeds:
        state = spec.new_game(players_for(spec), seed)
        for n in range(1, limit + 1):
            if state.is_over():
                break
            before = len(state.journal)
            state.apply(*policy_step(state, seed))
            if any(r.get("chance") == chance for r in state.journal[before:]):
                return seed, n
    raise AssertionError(f"the policy never made a {chance!r} record in {key}")


CHANCES_MID_GAME = [("makoto", "oracle"), ("maki", "actions"), ("tinyrace", "reshuffle")]


@pytest.mark.parametrize("kill", ["after the action line", "inside the chance line"])
@pytest.mark.parametrize(("key", "chance"), CHANCES_MID_GAME)
def test_an_action_whose_chance_record_did_not_reach_the_card_is_dropped(tmp_path, key, chance, kill):
    """A kill inside the write of an action that reshuffles a deck leaves the action's line without its chance
    record. That action was never acknowledged: the game resumes at the position before it, the lines are cut,
    and the game goes on in the same file (before, the journal did not replay and the game was lost)."""
    spec = SPECS[key]
    seed, n = play_until_chance(key, chance)
    players = players_for(spec)
    with SavedGames(tmp_path / "g", specs=SPECS) as saved:
        state = spec.new_game(players, seed)
        journal = saved.start(key, players, seed, state=state, seats=[{"kind": "bot"}] * players)
        for _ in range(n):
            state.apply(*policy_step(state, seed))
            assert journal.sync(state)
        journal.close()
    # the file as the kill left it: the n-th action's line whole, its chance record missing or torn
    raw = journal.path.read_bytes()
    lines = raw.splitlines(keepends=True)
    assert json.loads(lines[-1])["chance"] == chance and "seat" in json.loads(lines[-2])
    torn = raw[: len(raw) - len(lines[-1])]
    if kill == "inside the chance line":
        torn += lines[-1][: len(lines[-1]) // 2]
    journal.path.write_bytes(torn)
    loaded = load_journal(journal.path)
    assert loaded.actions == n and not loaded.damaged
    with pytest.raises(ChanceMissing, match=chance):  # what made the crash test fail
        replay(spec, players, seed, loaded.records)

    before = play_to(spec, players, seed, n - 1)
    with SavedGames(tmp_path / "g", specs=SPECS) as saved:
        (offer,) = saved.startup()
        assert saved.set_aside == [] and offer.actions == n - 1
        again, journal = offer.resume()
        assert again.fingerprint() == before.fingerprint()
        assert journal.path.read_bytes() == raw[: len(raw) - len(lines[-1]) - len(lines[-2])]
        for _ in range(3):  # the same action again (it reshuffles again), then more: appended cleanly
            if again.is_over():
                break
            again.apply(*policy_step(again, seed))
            assert journal.sync(again)
        journal.close()
    loaded = load_journal(journal.path)
    assert loaded.ignored_bytes == 0 and loaded.records == again.journal
    assert loaded.records[: len(state.journal)] == state.journal
    assert replay(spec, players, seed, loaded.records).fingerprint() == again.fingerprint()


def test_a_missing_chance_record_before_a_later_action_is_a_corrupt_journal(tmp_path):
    """Only the last action can lack its chance record (the tail of a cut write); a chance record missing in the
    middle is damage, and the journal is archived as not replaying, as before."""
    seed, n = play_until_chance("tinyrace", "reshuffle")
    with SavedGames(tmp_path / "g", specs=SPECS) as saved:
        state, journal = start_tiny(saved, seed=seed, steps=n + 2)
        journal.close()
    lines = journal.path.read_bytes().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if json.loads(line).get("chance") == "reshuffle")
    journal.path.write_bytes(b"".join(lines[:at] + lines[at + 1 :]))
    with SavedGames(tmp_path / "g", specs=SPECS) as saved:
        assert saved.startup() == []
        assert [name for name, _ in saved.set_aside] == [journal.path.name]
        assert "no recorded 'reshuffle' shuffle" in saved.set_aside[0][1]
    with pytest.raises(ChanceMissing):  # nor is a deal missing at set-up forgiven
        replay_acknowledged(TINY, 3, seed, [r for r in state.journal if "chance" not in r])


def test_an_undo_is_journalled_as_a_rewind(saved):
    state, journal = start_tiny(saved, steps=6)
    earlier = play_to(TINY, 3, 5, 3)  # the table took back three moves
    assert journal.sync(earlier)
    seat = earlier.to_move()[0]
    other = [a for a in earlier.legal_actions(seat) if a != policy_step(earlier, 5)[1]][0]
    earlier.apply(seat, other)  # ...and played something else
    assert journal.sync(earlier)
    loaded = load_journal(journal.path)
    assert loaded.records == earlier.journal
    assert replay(TINY, 3, 5, loaded.records).fingerprint() == earlier.fingerprint()
    assert b'{"rewind":' in journal.path.read_bytes()


# ---------------------------------------------------------------------------------------- start-up tidy
def test_startup_archives_finished_old_foreign_and_broken_journals(tmp_path):
    root = tmp_path / "g"
    with SavedGames(root, specs=SPECS) as saved:
        # finished, but the kiosk died before moving it to the archive
        _, done = start_tiny(saved, seed=1, steps=2)
        done.append({"end": "finished", "at": "2026-11-29T14:00:00+01:00", "reason": "over", "outcome": None})
        done.close()
        # too old
        _, old = start_tiny(saved, seed=2, steps=2)
        old.close()
        os.utime(old.path, (time.time() - 7200, time.time() - 7200))
        # from the future (clock of a Pi without RTC went back): offered
        _, future = start_tiny(saved, seed=3, steps=2)
        future.close()
        os.utime(future.path, (time.time() + 7200, time.time() + 7200))
        # a game that is not installed
        foreign = saved.start("no-such-game", 2, 1)
        foreign.close()
        # no header at all
        (saved.active / "junk.jsonl").write_bytes(b"\x00\x00\x00")
        # does not replay any more (the rules changed)
        _, bad = start_tiny(saved, seed=4, steps=1)
        bad.append({"seat": 2, "action": {"type": "Take"}})  # not seat 2's turn
        bad.close()
        # a fresh one, to be offered
        _, fresh = start_tiny(saved, seed=6, steps=3)
        fresh.close()
        # leftovers of a kill during start()
        stale = saved.active / f".{fresh.path.name}.tmp-1-deadbeef"
        stale.write_bytes(b'{"journal"')
    with SavedGames(root, specs=SPECS, max_age=timedelta(hours=1)) as saved:
        offers = saved.startup()
        assert [o.seed for o in offers] == [3, 6]  # newest last write first
        assert not stale.exists()
        archived = {p.name: load_journal(p) for p in saved.archived()}
        assert set(archived) == {done.path.name, old.path.name, foreign.path.name, "junk.jsonl", bad.path.name}
        assert archived[old.path.name].end["reason"].startswith("not resumed within")
        assert archived[foreign.path.name].end["reason"] == "game not installed"
        assert "does not replay" in archived[bad.path.name].end["reason"]
        assert archived[done.path.name].end["end"] == "finished"


def test_discarding_an_offer_archives_it_as_declined(saved):
    start_tiny(saved, steps=2)[1].close()
    (offer,) = saved.startup()
    path = offer.discard()
    assert load_journal(path).end == {**load_journal(path).end, "end": "abandoned", "reason": "declined"}
    assert saved.startup() == []


def test_abandoning_a_game_archives_it(saved):
    _, journal = start_tiny(saved, steps=2)
    path = journal.abandon("idle")
    assert path.parent == saved.archive and load_journal(path).end["reason"] == "idle"


def test_archive_is_pruned_to_its_size_limit_oldest_first(tmp_path):
    with SavedGames(tmp_path / "g", specs=SPECS, archive_limit_bytes=4500) as saved:
        now = time.time()
        for i in range(10):
            p = saved.archive / f"game-{i}.jsonl"
            p.write_bytes(b"x" * 999 + b"\n")
            os.utime(p, (now - 1000 + i, now - 1000 + i))
        saved.startup()
        assert [p.name for p in saved.archived()] == [f"game-{i}.jsonl" for i in range(6, 10)]
        assert saved.archive_size() <= 4500


# ------------------------------------------------------------------------------------------- failures
def test_unwritable_folder_is_a_clear_error_and_games_run_without_journal(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StorageUnavailable, match="saved games unavailable: cannot write in"):
        SavedGames(blocker / "games")
    saved = SavedGames.open_or_unavailable(blocker / "games")
    assert isinstance(saved, UnavailableSavedGames) and not saved.available and "file" in saved.reason
    assert saved.startup() == []
    state = TINY.new_game(2, 1)
    journal = saved.start("tinyrace", 2, 1, state=state)
    assert isinstance(journal, NullJournal) and not journal.durable
    state.apply(*policy_step(state, 1))
    assert journal.sync(state) is False
    journal.finish(None)


def test_a_failing_write_is_retried_at_the_next_action_with_no_gap(saved, caplog):
    """Card full: the game goes on, the state says "retrying"; once space returns the next action writes every
    record since the last good write (a torn part of the failed write is cut first), and the game replays."""
    state, journal = start_tiny(saved, steps=2)
    real_fd = journal._fd
    journal._fd = os.open("/dev/full", os.O_WRONLY)  # a real "No space left on device"
    state.apply(*policy_step(state, 5))
    assert journal.sync(state) is False and "No space left" in journal.error
    assert journal.state == "retrying" and journal.failed_writes == 1
    assert "journaling stopped" in caplog.text
    shown = health.collect(saved_games=saved, journal=journal)
    assert shown.journal_state == "retrying" and any("FAILING, retried at every move" in x for x in shown.lines())
    state.apply(*policy_step(state, 5))
    assert journal.sync(state) is False and journal.failed_writes == 2
    with pytest.raises(JournalError):
        journal.append({"seat": 0, "action": {"type": "Take"}})
    # space returns; part of the failed write had reached the file
    os.close(journal._fd)
    journal._fd = real_fd
    os.write(real_fd, b'{"seat": 0, "act')
    state.apply(*policy_step(state, 5))
    assert journal.sync(state) is True and journal.error is None and journal.state == "on"
    assert "works again" in caplog.text
    assert health.collect(saved_games=saved, journal=journal).problems() == ["High scores unavailable."]
    loaded = load_journal(journal.path)
    assert loaded.ignored_bytes == 0 and loaded.records == list(state.journal)
    again = replay(TINY, 3, 5, loaded.records)
    assert again.view(None) == state.view(None)


def test_a_second_process_cannot_use_the_same_folder(saved):
    with pytest.raises(StorageUnavailable, match="already open"):
        SavedGames(saved.root, specs=SPECS)


def test_a_state_without_journal_is_refused(saved):
    state, journal = start_tiny(saved)
    clone = state.clone()
    clone.journal = None
    with pytest.raises(ValueError, match="no journal"):
        journal.sync(clone)


def test_records_must_be_json(saved):
    _, journal = start_tiny(saved)
    with pytest.raises(JournalError, match="not JSON"):
        journal.append({"seat": 0, "action": {"type": object()}})
    assert load_journal(journal.path).ignored_bytes == 0


def test_the_file_is_json_lines(saved):
    _, journal = start_tiny(saved, steps=3)
    lines = journal.path.read_bytes().split(b"\n")
    assert lines[-1] == b"" and all(isinstance(json.loads(x), dict) for x in lines[:-1])
    assert isinstance(journal, GameJournal)


def test_a_cut_at_every_byte_loads_the_complete_lines_before_it(saved, tmp_path):
    state, journal = start_tiny(saved, steps=10)
    journal.close()
    raw = journal.path.read_bytes()
    ends = [i + 1 for i, b in enumerate(raw) if b == ord("\n")]  # end of each complete line
    copy = tmp_path / "cut.jsonl"
    for cut in range(len(raw) + 1):
        copy.write_bytes(raw[:cut])
        loaded = load_journal(copy)
        complete = sum(1 for e in ends if e <= cut)  # header + records fully on disk
        if complete == 0:
            assert loaded.header is None
            continue
        assert loaded.records == state.journal[: complete - 1]
        assert loaded.good_size == ends[complete - 1] and not loaded.damaged


@pytest.fixture(scope="module")
def tiny_journal(tmp_path_factory):
    """The bytes of a real 10-action journal and the engine records it holds."""
    with SavedGames(tmp_path_factory.mktemp("tiny") / "g", specs=SPECS) as saved:
        state, journal = start_tiny(saved, steps=10)
        journal.close()
        return journal.path.read_bytes(), list(state.journal)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_damaged_bytes_never_crash_loading_and_keep_the_lines_before(tiny_journal, tmp_path, data):
    raw, records = tiny_journal
    pos = data.draw(st.integers(0, len(raw) - 1))
    junk = data.draw(st.binary(min_size=1, max_size=8))
    copy = tmp_path / "bad.jsonl"
    copy.write_bytes(raw[:pos] + junk + raw[pos + len(junk) :])
    loaded = load_journal(copy)  # never raises
    if pos >= raw.index(b"\n") + 1:  # the header line is intact
        intact = raw[:pos].count(b"\n") - 1  # records whose lines end before the damage
        assert loaded.header is not None and loaded.records[:intact] == records[:intact]
        assert len(loaded.records) >= min(intact, len(records)) or loaded.end is not None
