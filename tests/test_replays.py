"""Replays of the day's best games (attract mode) and "Watch again" (results), kiosk/shell/replays.py.

Plain tests: the choice of the day's best (ties, time trials, bots-only days, games not installed), the pace,
the archive keeping the day's best past its limit, and what a journal's header and end say. In the real kiosk
(one child process for the file): a replay in attract mode ends in exactly the recorded final state and score
with every move on screen, writing nothing; a damaged journal is skipped with one log line; Watch again from
every seat that played, in each seat's language, skipped by a touch or a seat button, back to the results.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sys
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import build_app, button_with_text, frames, run_child, run_scenarios, run_until, seat_event, tap, tap_at
from hypothesis import given
from hypothesis import strategies as st

from devtools.guestgames import finished_game
from kiosk.ai import RandomBot
from kiosk.bestgames import Played, choose_best, day_played, pace, read_played
from kiosk.games import GAMES
from kiosk.storage import SavedGames

CHILD_S = 600
HERE = Path(__file__).resolve()
LOWER = {k: s.lower_is_better for k, s in GAMES.items()}
T0 = datetime(2026, 12, 6, 14, 0).astimezone()


def played(
    game: str, scores: list[int], bots: list[str], minute: int = 0, time_s: float | None = None, name: str = ""
) -> Played:
    seats = tuple((i, b) for i, b in enumerate(bots))
    at = T0 + timedelta(minutes=minute)
    ident = name or f"{game}-{minute}-{'-'.join(map(str, scores))}"
    return Played(Path(ident + ".jsonl"), ident, game, at - timedelta(minutes=5), at, tuple(scores), seats, time_s)


def play_out(saved: Any, key: str, seats: list[dict[str, Any]], seed: int, time_s: float | None = None) -> Any:
    """A finished game of ``key`` by random moves, journaled in ``saved`` (its journal's path and final state)."""
    return finished_game(saved, key, seats, seed, time_s=time_s)


# =============================================================================================== the choice
def test_the_best_guest_score_wins_and_bots_scores_never_count() -> None:
    games = [
        played("maki", [30, 90], ["", "hard"], 1),  # a bot's 90 is not a guest's
        played("maki", [40, 10], ["", ""], 2),
        played("maki", [99, 99], ["easy", "easy"], 3),  # bots only: never the best
    ]
    best = choose_best(games, LOWER)
    assert best["maki"].id == games[1].id and best["maki"].score(False) == (40, 0)


def test_a_tie_goes_to_the_game_that_ended_first() -> None:
    later, earlier = played("wasabi", [50, 20], ["", ""], 30), played("wasabi", [10, 50], ["", ""], 10)
    assert choose_best([later, earlier], LOWER)["wasabi"] is earlier
    assert choose_best([earlier, later], LOWER)["wasabi"] is earlier


def test_a_bots_only_day_has_no_best() -> None:
    assert choose_best([played("makoto", [5, 7], ["easy", "hard"], m) for m in range(5)], LOWER) == {}


def test_the_time_trial_is_its_own_board_fastest_first() -> None:
    slow, fast = played("takoyaki", [5], [""], 1, time_s=80.5), played("takoyaki", [5], [""], 2, time_s=61.25)
    race = played("takoyaki", [3, 2], ["", "normal"], 3)
    best = choose_best([slow, fast, race], LOWER)
    assert best["takoyaki-trial"] is fast and best["takoyaki-trial"].score(True) == (61250, 0)
    assert best["takoyaki"] is race


def test_a_game_not_installed_or_found_damaged_is_left_out() -> None:
    gone, good, bad = (
        played("pachinko", [9, 9], ["", ""]),
        played("maki", [5, 1], ["", ""]),
        played("maki", [9, 1], ["", ""]),
    )
    assert choose_best([gone, good, bad], LOWER, skip={bad.id}) == {"maki": good}


@given(st.lists(st.tuples(st.integers(0, 300), st.booleans(), st.integers(0, 600)), min_size=1, max_size=12))
def test_the_best_is_never_beaten_by_a_guest_score(rows: list[tuple[int, bool, int]]) -> None:
    games = [
        played("maki", [s, 0], ["" if guest else "easy", "easy"], m, name=f"g{i}")
        for i, (s, guest, m) in enumerate(rows)
    ]
    best = choose_best(games, LOWER).get("maki")
    guests = [g for g in games if g.guests]
    assert (best is None) == (not guests)
    if best is not None:
        top = best.score(False)[0]
        assert all(g.score(False)[0] < top or (g.score(False)[0] == top and g.ended >= best.ended) for g in guests)


@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from("ab")), max_size=400), st.floats(10, 120))
def test_the_pace_shows_every_move_within_the_time(moves: list[tuple[int, str]], total: float) -> None:
    delays = pace(moves, total, 1.2, 0.15)
    assert len(delays) == len(moves) and all(0.15 <= d <= 1.2 for d in delays)
    if moves and 0.15 * len(moves) * 3 <= total:  # room for every move at its shortest
        assert sum(delays) <= total + 1e-6
    for i in range(1, len(moves)):  # a dull stretch (the same seat, the same move) goes faster
        if moves[i] == moves[i - 1] and moves[i - 1] != (moves[i - 2] if i >= 2 else None):
            assert delays[i] <= delays[i - 1]


# =============================================================================================== the archive
def test_the_days_best_stays_past_the_archive_limit(tmp_path: Path) -> None:
    clock = [datetime.now().astimezone()]
    with SavedGames(tmp_path / "g", specs=GAMES, clock=lambda: clock[0], archive_limit_bytes=1) as saved:
        guests = [{"seat": 0, "bot": None}, {"seat": 3, "bot": "easy"}]
        paths = [play_out(saved, "maki", guests, seed)[0] for seed in (1, 2, 3)]
        bots_only = play_out(saved, "maki", [{"seat": 0, "bot": "easy"}, {"seat": 3, "bot": "easy"}], 4)[0]
        best = choose_best(day_played(saved.archive, clock[0].date()), LOWER)["maki"]
        assert best.path in paths
        assert saved.prune_archive() == 3 and [p.name for p in saved.archived()] == [best.path.name]
        assert not bots_only.exists()
        assert saved.journal_bytes() == best.path.stat().st_size
        clock[0] += timedelta(days=1)  # the next day: it goes too
        assert saved.prune_archive() == 1 and saved.archived() == []


def test_what_a_journal_says_about_its_game(tmp_path: Path) -> None:
    with SavedGames(tmp_path / "g", specs=GAMES) as saved:
        path, state = play_out(saved, "takoyaki", [{"seat": 2, "bot": None}], 5, 42.5)
        p = read_played(path)
        assert p is not None and p.board == "takoyaki-trial" and p.time_s == 42.5 and p.guests == [0]
        assert p.scores == tuple(state.scores()) and p.seats == ((2, ""),)
        unfinished = saved.start("maki", 2, 1, state=GAMES["maki"].new_game(2, 1), seats=[{"seat": 0}, {"seat": 1}])
        assert read_played(unfinished.path) is None
        unfinished.abandon("idle")
        assert read_played(saved.archive / unfinished.path.name) is None  # abandoned: never a best
        (tmp_path / "junk.jsonl").write_bytes(b"\x00garbage\n")
        assert read_played(tmp_path / "junk.jsonl") is None
        assert day_played(saved.archive, date(1999, 1, 1)) == []


# =============================================================================================== the window
SCENARIOS = [
    "attract_replay_as_recorded",
    "damaged_journal_skipped",
    "watch_again_every_seat",
    "watch_again_of_a_damaged_journal",
    "time_trial_keeps_its_time",
    "operator_turns_replays_off",
]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(HERE, tmp_path_factory.mktemp("replays"), timeout=CHILD_S)


@pytest.mark.ui
@pytest.mark.timeout(CHILD_S + 60)
@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(results: dict[str, Any], name: str) -> None:
    assert results.get(name) == "ok", results.get(name, f"did not run: {sorted(results)}")


def files_of(folder: Path) -> dict[str, tuple[int, int, str]]:
    """Every file under ``folder``: size, modification time and content hash (what "nothing written" compares)."""
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            out[str(p.relative_to(folder))] = (
                p.stat().st_size,
                p.stat().st_mtime_ns,
                hashlib.sha256(p.read_bytes()).hexdigest(),
            )
    return out


def child_main(tmp: Path, out: Path) -> None:
    from kivy.clock import Clock

    from kiosk.engine import replay

    state_dir = tmp / "state"
    app = build_app(state_dir)
    run_until(lambda: app.saved_games.available and app.scores.available, 30, "the stores")
    pos = app.table.by_position

    def replay_to_the_end(session: Any, midway: Any = None) -> set[int]:
        """Run the replay on screen to its end (``midway()`` after its third move); the moves seen on screen at
        some frame."""
        seen: set[int] = set()
        ev = Clock.schedule_interval(lambda _dt: seen.add(session.done), 0)
        if midway is not None:
            run_until(lambda: session.done >= 3, 30, "three moves")
            midway()
        run_until(lambda: session.state.is_over(), 200, "the replay's end")
        frames(2)
        ev.cancel()
        return seen

    def attract_replay_as_recorded() -> None:
        for key in GAMES:  # every game, its own screen: Takoyaki's a time trial
            trial = key == "takoyaki"
            seats = [{"seat": pos("south-west").index, "bot": None}]
            seats += [] if trial else [{"seat": pos("north-east").index, "bot": "easy"}]
            path, final = play_out(app.saved_games, key, seats, 21, 61.5 if trial else None)
            header = json.loads(path.read_text().splitlines()[0])
            board = f"{key}-trial" if trial else key
            shown = 61500 if trial else final.scores()[0]
            app.scores.add(board, "KEN", shown, journal=header["id"], game_seat=0)
            app.go_attract()
            assert ("replay", key) in app.director.steps()
            before = files_of(state_dir)
            app.director.jump_to("replay", key, hold=True)
            session = app.replays.session
            assert session is not None and app.sm.current == f"game:{key}" and app.mode == "attract"
            corner_text = app.replays._corners.corners[0].text
            score = "61.50 s" if trial else f"{shown} point"
            wanted = ["Today's best game", GAMES[key].title, f"KEN: {score}", "Played at"]
            assert all(w in corner_text for w in wanted), corner_text
            screen = app.sm.current_screen
            trays = [z.ids.tray for z in screen.panels.values() if z.in_game and "tray" in z.ids]
            assert all(t.locked or t.always_open for t in trays), "hands stay hidden"

            def no_turn_words(screen: Any = screen) -> None:  # nobody thinks nor is asked in a replay
                statuses = " ".join(str(getattr(z, "status", "")) for z in screen.panels.values() if z.in_game)
                assert "Thinking" not in statuses and "Your turn" not in statuses, statuses

            seen = replay_to_the_end(session, midway=no_turn_words)
            moves = len(session.moves)
            assert seen >= set(range(1, moves + 1)), f"{key}: moves never on screen: {set(range(1, moves + 1)) - seen}"
            again = replay(GAMES[key], len(seats), 21, final.journal)
            assert session.state.fingerprint() == again.fingerprint() == final.fingerprint()
            end = json.loads(path.read_text().splitlines()[-1])
            assert list(session.state.scores()) == end["outcome"]["scores"]
            assert sum(session.delays) <= 90.0 + 1e-6 or min(session.delays) == 0.15
            assert not any(t.is_open for t in trays if not t.always_open), "no hand was opened during the replay"
            app.replays.stop()
            assert files_of(state_dir) == before, "a replay writes nothing"

    def damaged_journal_skipped() -> None:
        """A damaged journal (a move no engine knows) and one from other rules (it does not end as recorded), each
        the day's best by far (their end records' scores raised), are skipped with one log line each and never
        shown: the day's next best game of each (the first scenario's) is shown instead."""

        def best_by_far(path: Path) -> None:
            lines = path.read_bytes().rstrip(b"\n").split(b"\n")
            end = json.loads(lines[-1])
            end["outcome"]["scores"] = [s + 500 for s in end["outcome"]["scores"]]
            path.write_bytes(b"\n".join([*lines[:-1], json.dumps(end).encode()]) + b"\n")

        seats = [{"seat": pos("south-east").index, "bot": None}, {"seat": pos("north-west").index, "bot": None}]
        damaged, _final = play_out(app.saved_games, "wasabi", seats, 5)
        lines = damaged.read_bytes().split(b"\n")
        actions = [i for i, line in enumerate(lines) if b'"seat"' in line and b'"action"' in line]
        lines[actions[len(actions) // 2]] = b'{"seat": 0, "action": {"type": "NoSuchMove"}}'
        damaged.write_bytes(b"\n".join(lines))
        other_rules, _final = play_out(app.saved_games, "maki", seats, 6)
        for path in (damaged, other_rules):
            best_by_far(path)
        logged: list[str] = []
        handler = logging.Handler()
        handler.emit = lambda record: logged.append(record.getMessage())  # type: ignore[method-assign]
        logging.getLogger("kiosk.shell.replays").addHandler(handler)
        try:
            for _ in range(3):  # attract mode comes round to them again: still one line each
                app.go_attract()
                for key, bad in (("wasabi", damaged), ("maki", other_rules)):
                    app.director.jump_to("replay", key, hold=True)
                    assert app.replays.session is not None and app.replays.session.spec.key == key
                    assert app.replays.best[key].path != bad, "the next best game is shown"
                    assert app.replays.session.state.scores() != [s + 500 for s in _final.scores()]
                    app.replays.stop()
        finally:
            logging.getLogger("kiosk.shell.replays").removeHandler(handler)
        for path in (damaged, other_rules):
            assert len([m for m in logged if path.name in m]) == 1, logged

    def play_to_results(indices: list[int], seed: int, languages: list[str]) -> str:
        """A game of Maki by guests at ``indices`` (each reading its language) to its results, the initials saved;
        the final position's fingerprint."""
        app.start_game("maki", [(i, None) for i in indices], seed=seed)
        session = app.session
        session.set_languages("en", {str(i): languages[k] for k, i in enumerate(indices)})
        bots = [RandomBot(g, 9) for g in range(session.players)]
        while not session.state.is_over():
            g = session.state.to_move()[0]
            session.apply(g, bots[g].choose(session.state))
        final: str = session.state.fingerprint()
        run_until(lambda: app.mode == "results", 10, "the results")
        for pad in app.results.pads.values():
            if pad.entering:
                pad.finish()
        frames(2)
        return final

    def watch_button(pad: Any) -> Any:
        return button_with_text(pad, pad.tr.gettext("Watch again") + " " + pad.tr.sym("\u25b6"))

    def watch_again_every_seat() -> None:
        groups = [["south-west", "south-east", "north-west", "north-east"], ["west", "east"]]
        langs = ["de", "fr", "ja", "es", "en", "de"]
        n = 0
        for group in groups:
            indices = [pos(p).index for p in group]
            final = play_to_results(indices, 3, langs)
            before = files_of(state_dir)
            for k, i in enumerate(indices):
                pad = app.results.pads[i]
                assert pad.can_watch
                tap(watch_button(pad))
                replaying = app.replays.session
                assert app.mode == "replay" and replaying is not None, f"Watch again at seat {i}"
                screen = app.sm.current_screen
                for j, lang in zip(indices, [langs[m] for m in range(len(indices))], strict=True):
                    assert screen.panels[j].language == lang, "each seat reads its own language"
                frames(10)
                if k == len(indices) - 1:  # the last one is watched to its end: the game as it was played
                    replay_to_the_end(replaying)
                    assert replaying.state.fingerprint() == final
                    run_until(lambda: app.mode == "results", 10, "back to the results by itself")
                elif n % 2:
                    seat_event(app, indices[(k + 1) % len(indices)], "button", "press", "a")  # another seat skips
                else:
                    tap_at(*app.table.region(pos(group[(k + 1) % len(group)]), 1920, 1080).center)
                    frames(1)
                n += 1
                assert app.mode == "results" and app.sm.current == "results", f"skipped at seat {i}"
                assert app.results._done_ev is not None, "the results wait their time again"
            assert files_of(state_dir) == before, "Watch again writes nothing"
            app.go_attract()

    def watch_again_of_a_damaged_journal() -> None:
        """The journal of the game just played damaged before "Watch again": nothing is shown, the offer goes,
        and the results wait their time again."""
        indices = [pos("west").index, pos("east").index]
        play_to_results(indices, 4, ["en", "en"])
        path = app.saved_games.archive / f"{app.results.journal_id}.jsonl"
        lines = path.read_bytes().split(b"\n")
        lines[len(lines) // 2] = b'{"seat": 1, "action": {"type": "NoSuchMove"}}'
        path.write_bytes(b"\n".join(lines))
        tap(watch_button(app.results.pads[indices[0]]))
        assert app.mode == "results" and app.replays.session is None
        assert not any(p.can_watch for p in app.results.pads.values()), "no more Watch again"
        assert app.results._done_ev is not None, "the results wait their time again"
        app.go_attract()

    def time_trial_keeps_its_time() -> None:
        """A time trial's journal ends with the screen's time (what the day's best is chosen by)."""
        from kiosk.session import GameSession

        spec, sw = GAMES["takoyaki"], pos("south-west").index
        state = spec.new_game(1, 4)
        journal = app.saved_games.start("takoyaki", 1, 4, state=state, seats=[{"seat": sw, "bot": None}])
        session = GameSession(spec, state, [app.table[sw]], {}, seed=4, journal=journal)
        session.trial_time = 61.25
        bot = RandomBot(0, 4)
        while not session.state.is_over():
            assert session.apply(0, bot.choose(session.state))
        played = read_played(app.saved_games.archive / journal.path.name)
        assert played is not None and played.time_s == 61.25 and played.board == "takoyaki-trial"

    def operator_turns_replays_off() -> None:
        app.desk.open("bottom")
        operator = app.operator
        operator.show_menu()
        assert operator.replays and operator.health_text.splitlines()[-1].startswith("Journals: ")
        operator.toggle_replays()
        assert (
            app.cfg.attract.replays is False
            and json.loads((state_dir / "kiosk.json").read_text())["attract"]["replays"] is False
        )
        app.go_attract()
        assert not any(kind == "replay" for kind, _key in app.director.steps()), "no replay in the cycle"
        assert not app.replays.can_watch(next(iter(app.saved_games.archived())).stem), "no Watch again"
        operator.toggle_replays()
        app.go_attract()
        assert app.cfg.attract.replays and any(kind == "replay" for kind, _key in app.director.steps())

    run_scenarios(
        {
            "attract_replay_as_recorded": attract_replay_as_recorded,
            "damaged_journal_skipped": damaged_journal_skipped,
            "watch_again_every_seat": watch_again_every_seat,
            "watch_again_of_a_damaged_journal": watch_again_of_a_damaged_journal,
            "time_trial_keeps_its_time": time_trial_keeps_its_time,
            "operator_turns_replays_off": operator_turns_replays_off,
        },
        out,
    )
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
