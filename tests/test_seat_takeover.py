"""A seat whose human left (a bot took it over) stays a bot's seat when the game is resumed from its journal.

The journal's header lists who sits where when the game starts; a takeover appends a ``seats`` record, and a
resume uses the last one. Checked on a real journal folder (a plain test) and with the real kiosk: one child
process starts a game, a player leaves at the seat menu, the bot plays, and the process dies without closing
anything (the crash); a second child starts a new kiosk on the same state folder and resumes the offered game.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import build_app, button_with_text, frames, run_child, run_scenarios, run_until, tap, tick

from kiosk.games import GAMES
from kiosk.storage import SavedGames, load_journal

#: The child's bound (real seconds: a hung child; the scenarios run on virtual time); the file's is a minute more.
CHILD_S = 600

HERE = Path(__file__).resolve()
SPECS = {"maki": GAMES["maki"]}


def _play(state: Any, rng: random.Random, n: int) -> None:
    for _ in range(n):
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


# =============================================================================================== plain tests
def test_the_journal_keeps_a_bots_takeover_across_a_crash(tmp_path: Path) -> None:
    spec, rng = GAMES["maki"], random.Random(4)
    seats = [{"seat": 1, "bot": None}, {"seat": 5, "bot": None}]
    with SavedGames(tmp_path / "g", specs=SPECS) as saved:
        state = spec.new_game(2, 7)
        journal = saved.start("maki", 2, 7, state=state, seats=seats)
        _play(state, rng, 6)
        assert journal.sync(state)
        taken = [{"seat": 1, "bot": None}, {"seat": 5, "bot": "easy"}]
        assert journal.set_seats(taken)
        _play(state, rng, 4)
        assert journal.sync(state)
        journal.close()  # the power goes
    with SavedGames(tmp_path / "g", specs=SPECS) as saved:
        (offer,) = saved.startup()
        assert offer.seats == taken and offer.header["seats"] == seats
        again, journal = offer.resume()
        assert again.fingerprint() == state.fingerprint()
        _play(again, rng, 2)
        assert journal.sync(again)
        journal.close()  # and again: the takeover is still the last word on the seats
    with SavedGames(tmp_path / "g", specs=SPECS) as saved:
        (offer,) = saved.startup()
        assert offer.seats == taken and offer.actions == 12
        assert load_journal(offer.path).records == list(again.journal)


def test_a_takeover_written_while_the_card_is_full_goes_with_the_next_action(tmp_path: Path) -> None:
    spec, rng = GAMES["maki"], random.Random(5)
    with SavedGames(tmp_path / "g", specs=SPECS) as saved:
        state = spec.new_game(2, 3)
        journal = saved.start("maki", 2, 3, state=state, seats=[{"seat": 0, "bot": None}, {"seat": 4, "bot": None}])
        _play(state, rng, 3)
        assert journal.sync(state)
        real_fd = journal._fd
        journal._fd = os.open("/dev/full", os.O_WRONLY)  # a real "No space left on device"
        taken = [{"seat": 0, "bot": "normal"}, {"seat": 4, "bot": None}]
        assert not journal.set_seats(taken) and journal.state == "retrying"
        os.close(journal._fd)
        journal._fd = real_fd
        assert load_journal(journal.path).seats is None
        _play(state, rng, 1)
        assert journal.sync(state) and journal.state == "on"
        loaded = load_journal(journal.path)
        assert loaded.seats == taken and loaded.records == list(state.journal) and not loaded.problem
        journal.close()


def test_a_bad_seats_record_ends_the_readable_part_there(tmp_path: Path) -> None:
    spec, rng = GAMES["maki"], random.Random(6)
    with SavedGames(tmp_path / "g", specs=SPECS) as saved:
        state = spec.new_game(2, 9)
        journal = saved.start("maki", 2, 9, state=state, seats=[{"seat": 0, "bot": None}, {"seat": 4, "bot": None}])
        _play(state, rng, 2)
        assert journal.sync(state)
        journal.close()
        with open(journal.path, "ab") as fh:
            fh.write(b'{"seats": "everyone"}\n')
        loaded = load_journal(journal.path)
        assert loaded.seats is None and "bad seats record" in loaded.problem
        assert loaded.records == list(state.journal)


# =============================================================================================== the window
@pytest.mark.ui
@pytest.mark.timeout(2 * CHILD_S + 60)  # two children, one after the other
def test_a_seat_left_to_a_bot_stays_a_bot_after_a_crash_and_a_resume(tmp_path: Path) -> None:
    first = run_child(HERE, tmp_path, timeout=CHILD_S, env={"TAKEOVER_PHASE": "leave"})
    assert first == {"leave": "ok"}, first
    second = run_child(HERE, tmp_path, timeout=CHILD_S, env={"TAKEOVER_PHASE": "resume"})
    assert second == {"resume": "ok"}, second


def _badge(screen: Any, index: int) -> Any:
    """Seat ``index``'s badge on screen. During the seat's turn its open hand takes the badge's column: the guest
    hides the hand first (what a tap on the open hand does)."""
    from kiosk.ui.seatzone import SeatBadge

    panel = getattr(screen, "panels", {}).get(index)
    if panel is not None and panel.ids.tray.is_open and not panel.ids.tray.always_open:
        panel.ids.tray.toggle()
        frames(2)
    found = [
        w
        for w in screen.walk(restrict=True)
        if isinstance(w, SeatBadge) and w.seat is not None and w.seat.index == index and w.get_root_window()
    ]
    assert found, f"no badge of seat {index} on screen"
    return found[0]


def child_main(tmp: Path, out: Path) -> None:
    from kiosk.ai import RandomBot

    phase = os.environ["TAKEOVER_PHASE"]
    # the level a leaving player's seat gets: "easy" before the crash; after it, the journal's level must win
    level = "easy" if phase == "leave" else "normal"
    app = build_app(tmp / "state", bots={"move_delay_s": 0.0, "default_level": level})
    pos = app.table.by_position
    sw, ne = pos("south-west").index, pos("north-east").index
    note = tmp / "before-the-crash.json"

    def play_until(session: Any, g_human: int, g_bot: int, bot_moves: int) -> None:
        """The human at ``g_human`` plays at random through the session until the bot at ``g_bot`` moved."""
        human = RandomBot(g_human, 3)
        moved = {"n": 0}

        def count(_s: Any, events: Any) -> None:
            moved["n"] += any(e.seat == g_bot for e in events)

        session.bind(on_change=count)
        for _ in range(60 * 30):  # 60 virtual seconds of frames at most
            if moved["n"] >= bot_moves or session.state.is_over():
                break
            if g_human in session.state.to_move():
                session.apply(g_human, human.choose(session.state))
            tick(1)  # waiting for the bots: no need to draw
        session.unbind(on_change=count)
        assert moved["n"] >= bot_moves or session.state.is_over(), "the bot at the left seat plays"

    def leave() -> None:
        app.start_game("maki", [(sw, None), (ne, None)], seed=11)
        frames(2)
        session = app.session
        assert app.mode == "game" and session.journal is not None and session.journal.durable
        g_sw, g_ne = session.game_seat_of(sw), session.game_seat_of(ne)
        players = [RandomBot(g, 5) for g in range(2)]
        for _ in range(4):  # both players make a few moves
            g = session.state.to_move()[0]
            assert session.apply(g, players[g].choose(session.state))
        screen = app.sm.current_screen
        tap(_badge(screen, sw))
        menu = app.seat_menus.menus[sw]
        tap(button_with_text(menu, "\u2716 Leave the game..."))
        tap(button_with_text(menu, "Yes, leave"))
        assert session.is_bot(g_sw) and session.bot_levels[g_sw] == "easy" and not session.is_bot(g_ne)
        play_until(session, g_ne, g_sw, 2)
        assert not session.state.is_over()
        note.write_text(json.dumps({"journal": session.state.journal, "sw": g_sw, "ne": g_ne}))

    def resume() -> None:
        before = json.loads(note.read_text())
        run_until(lambda: app.attract_screen.offer_visible, 60, "the resume offer")
        app.attract_screen.answer_offer(True)
        session = app.session
        assert app.mode == "game" and session is not None
        assert list(session.state.journal) == before["journal"], "the game resumes at the exact position"
        g_sw, g_ne = session.game_seat_of(sw), session.game_seat_of(ne)
        assert (g_sw, g_ne) == (before["sw"], before["ne"])
        assert session.is_bot(g_sw) and session.bot_levels[g_sw] == "easy" and session.who(g_sw) == "Bot (easy)"
        assert not session.is_bot(g_ne)
        frames(2)
        screen = app.sm.current_screen
        assert screen.panels[sw].is_bot and not _badge(screen, sw).menu and _badge(screen, ne).menu
        play_until(session, g_ne, g_sw, 1)  # the bot plays the seat on; the human keeps theirs

    run_scenarios({phase: leave if phase == "leave" else resume}, out)
    if phase == "leave":
        os._exit(0)  # the crash: the app is not stopped, the journal neither ended nor closed
    app.launcher.end()
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
