"""End-to-end tests of the kiosk shell in a real Kivy window (Xvfb in CI: test.sh runs pytest in xvfb-run).

One real :class:`kiosk.app.KioskApp` serves the whole module, in the pytest process (the harness is in
``conftest.py``): the tests step Kivy's event loop themselves and drive the app through its public flows with
simulated touches (dispatched through the window like a real touch) and seat events (keyboard fallback and
hardware-style events). Timeouts are configured short so the idle flow runs in seconds. Each main screen is
saved as a PNG into ``artifacts/`` for a human to look at.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import conftest
import pytest
from conftest import button_with_text, frames, screenshot, start_kiosk, tap, touch_down, touch_up, window_point

pytestmark = pytest.mark.ui

GAME = "makoto"


# ------------------------------------------------------------------------------------------------ fixture
@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    assert os.environ.get("DISPLAY"), "UI tests need a display: run them under xvfb-run (see test.sh)"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    state = tmp_path_factory.mktemp("kiosk-state")
    from kiosk.config import Config

    cfg = Config().replace(
        timeouts={"idle_s": 2.0, "still_playing_s": 1.5, "menu_idle_s": 120.0, "initials_s": 8.0, "results_s": 1.0},
        attract={"move_delay_s": 0.05, "game_s": 3.0, "boards_s": 1.0, "call_s": 1.0, "bot_level": "random"},
        bots={"move_delay_s": 0.02, "default_level": "random"},
        operator={"hold_s": 0.6},
    )
    kiosk = start_kiosk(state, cfg, seed=1)
    yield kiosk
    from kivy.base import stopTouchApp

    kiosk.stop()
    stopTouchApp()


# ------------------------------------------------------------------------------------------------ helpers
def run_until(pred: Callable[[], bool], timeout: float = 5.0, what: str = "condition") -> None:
    """The shared :func:`conftest.run_until`, settling two frames (screens switch on the next frame)."""
    conftest.run_until(pred, timeout, what, settle=2)


def key(app: Any, text: str, kind: str = "down") -> None:
    from kivy.core.window import Window

    if kind == "down":
        Window.dispatch("on_key_down", ord(text), 0, text, [])
    else:
        Window.dispatch("on_key_up", ord(text), 0)
    frames(1)


def to_attract(app: Any) -> None:
    app.go_attract()
    frames(2)
    assert app.mode == "attract"


# ------------------------------------------------------------------------------------------------ tests
def test_real_window_and_hardening(app: Any) -> None:
    from kivy.core.window import Window

    assert Window.size == (1920, 1080)
    # Escape is swallowed, a keyboard close request refused, a system close request (SIGTERM via SDL) allowed
    assert Window.dispatch("on_keyboard", 27, 0, None, []) is True
    assert app.service.on_request_close(Window, source="keyboard") is True
    assert app.service.on_request_close(Window) is False
    assert app.open_settings() is False
    from kivy.config import Config

    assert Config.get("kivy", "exit_on_escape") == "0"
    assert not Config.options("modules"), "no inspector / keybinding modules"
    assert app.mode == "attract"


def test_attract_cycles_call_real_bot_games_and_boards(app: Any) -> None:
    to_attract(app)
    assert app.sm.current == "attract" and app.attract_screen.phase == "call", "attract starts with the call"
    screenshot("attract_call")
    run_until(lambda: app.sm.current.startswith("game:"), 4, "a bot game")
    session = app.director.session
    assert session is not None and session.attract and len(session.bots) == session.players
    start = len(session.state.journal)
    run_until(lambda: len(session.state.journal) > start + 3, 5, "the attract bots to move")
    screenshot("attract_game")
    run_until(lambda: app.sm.current == "attract" and app.attract_screen.phase == "boards", 8, "boards")
    screenshot("attract_boards")
    run_until(lambda: app.attract_screen.phase == "call", 4, "the touch-to-play call again")


def test_touch_leaves_attract_for_picker_within_200ms(app: Any) -> None:
    to_attract(app)
    from kivy.core.window import Window

    w, h = Window.size
    seat = app.table.by_position("east")
    x, y = app.table.region(seat, w, h).center
    from kivy.tests.common import UnitTestTouch

    t = UnitTestTouch(x, y)
    t.touch_down()  # dispatched now, as the window's input provider would
    # the picker is the current screen before the next frame is drawn (the frame time itself is measured in
    # benchmarks/bench_ui.py: under Xvfb's software renderer a 1080p frame alone takes ~0.2 s)
    assert app.sm.current == "picker" and app.mode == "menu"
    frames(1)
    touch_up(t)
    assert app.picker.facing == "right", "the picker faces the seat that touched"
    screenshot("picker_east")


def test_seat_button_leaves_attract(app: Any) -> None:
    to_attract(app)
    key(app, "5")  # north-west seat's button "a" on the keyboard fallback
    assert app.sm.current == "picker"
    assert app.picker.facing == "top"
    key(app, "5", "up")


def test_picker_how_to_play_and_game_cards(app: Any) -> None:
    to_attract(app)
    app.leave_attract(app.table.by_position("south-west").index)
    frames(2)
    cards = app.picker.card_widgets
    assert set(cards) >= set(app.games)
    card = cards[GAME]
    assert "players" in card.players
    tap(button_with_text(card, "? How to play"))
    assert app.picker.howto_key == GAME and "Kensei" in app.picker.howto_text
    screenshot("picker_howto")
    tap(button_with_text(app.picker, "\u25c0 Back"))
    assert app.picker.howto_key == ""


def _open_join(app: Any, chooser_position: str = "south-west") -> Any:
    to_attract(app)
    app.leave_attract(app.table.by_position(chooser_position).index)
    frames(2)
    tap(button_with_text(app.picker.card_widgets[GAME], "Play \u25b6"))
    assert app.sm.current == "join"
    return app.join_screen


def test_join_by_pad_and_seat_button_then_start(app: Any) -> None:
    join = _open_join(app)
    sw = app.table.by_position("south-west").index
    ne = app.table.by_position("north-east").index
    east = app.table.by_position("east").index
    assert join.pads[sw].mode == "human", "the chooser has joined"
    # north-east joins with its own pad (touch on the pad, which faces north)
    tap(button_with_text(join.pads[ne], "Join \u261d"))
    assert join.pads[ne].mode == "human"
    # east joins by its seat button (keyboard fallback "3")
    key(app, "3")
    key(app, "3", "up")
    assert join.pads[east].mode == "human"
    # a bot in the west seat
    west = app.table.by_position("west").index
    tap(button_with_text(join.pads[west], "+ Add a bot here"))
    assert join.pads[west].mode == "bot"
    assert join.can_start
    # Makoto offers a match length: one game (default) or the rulebook's full match; the choice cycles.
    assert join.match_choices == [1, 0] and join.match_games == 1
    join.cycle_match()
    assert join.match_games == 0 and "full" in join.match_label
    join.cycle_match()
    assert join.match_games == 1 and "one game" in join.match_label
    screenshot("join")
    tap(button_with_text(join.pads[sw], "Start \u25b6"))
    assert app.mode == "game" and app.launcher.session is not None
    s = app.launcher.session
    assert [seat.index for seat in s.seats] == sorted([sw, ne, east, west])
    assert len(s.bots) == 1
    assert s.match_games == 1
    # a game is journalled as it goes (storage is installed)
    assert s.journal is not None


def _generic_screen(app: Any) -> Any:
    screen = app.sm.current_screen
    assert hasattr(screen, "panels"), "the generic game screen"
    return screen


def test_private_tray_hides_hand_until_held_and_human_plays_by_touch(app: Any) -> None:
    if app.launcher.session is None:
        test_join_by_pad_and_seat_button_then_start(app)
    session = app.launcher.session
    screen = _generic_screen(app)
    run_until(lambda: any(not session.is_bot(g) for g in session.state.to_move()), 5, "a human's turn")
    g = next(g for g in session.state.to_move() if not session.is_bot(g))
    panel = screen.panels[session.seats[g].index]
    tray = panel.ids.tray
    other = next(p for i, p in screen.panels.items() if p.in_game and p is not panel and not p.is_bot)
    assert not tray.is_open and not other.ids.tray.is_open
    screenshot("game_hidden")
    # hold the tray with one finger ...
    hold = touch_down(*window_point(tray, 0.5, 0.9))
    assert tray.is_open and not other.ids.tray.is_open, "only the held tray opens"
    assert panel.labels[0], "the seat to move has action buttons"
    screenshot("game_tray_open")
    # ... and press an action with another finger
    before = len(session.state.journal)
    buttons = [
        b
        for b in tray.walk(restrict=True)
        if getattr(b, "text", "") == panel.labels[0] and hasattr(b, "trigger_action")
    ]
    assert buttons, (panel.labels, [getattr(b, "text", None) for b in tray.walk(restrict=True)])
    tap(buttons[0])
    touch_up(hold)
    assert len(session.state.journal) > before, "the touched action was applied"
    assert not tray.is_open, "the tray closes on release"
    # the seat button holds the tray open too (keyboard fallback for that seat's "b" key)
    seat = session.seats[g]
    b_key = next(k for k, v in seat.keys.items() if v == "b")
    key(app, b_key)
    assert tray.is_open
    key(app, b_key, "up")
    assert not tray.is_open


def test_idle_asks_still_playing_then_saves_and_returns_to_attract(app: Any) -> None:
    if app.launcher.session is None:
        test_join_by_pad_and_seat_button_then_start(app)
    session = app.launcher.session
    screen = _generic_screen(app)
    journal = session.journal
    run_until(lambda: app.overlay.prompting, 4, "the Still playing? prompt")
    assert all(not p.ids.tray.is_open for p in screen.panels.values()), "private hands hide when idle"
    screenshot("still_playing")
    # an answer (any touch) keeps the game
    touch_up(touch_down(960, 540))
    assert not app.overlay.prompting and app.mode == "game"
    run_until(lambda: app.overlay.prompting, 4, "the prompt again")
    run_until(lambda: app.mode == "attract", 4, "attract after the timeout")
    assert app.launcher.session is None
    # saved: the journal was closed as abandoned and archived
    assert journal is not None and not journal.path.exists()
    archived = list((journal.path.parent.parent / "archive").glob(journal.path.stem + "*"))
    assert archived and '"end":"abandoned"' in archived[0].read_text()


def _finish_game(app: Any) -> None:
    """The human seats play random legal actions through the session (as their screen would); bots as usual."""
    from kiosk.ai import RandomBot

    session = app.launcher.session
    session.move_delay = 0.0
    humans = {g: RandomBot(g, 99 + g) for g in session.humans()}
    end = time.monotonic() + 60
    while time.monotonic() < end:
        if session.state.is_over():
            return
        movers = [g for g in session.state.to_move() if g in humans]
        if movers:
            app.hub.last_input = time.monotonic()  # the human touched (keeps the idle prompt away)
            session.apply(movers[0], humans[movers[0]].choose(session.state))
        else:
            frames(1)
    raise AssertionError(
        f"game did not end: mode {app.mode}, to_move {session.state.to_move()}, bots "
        f"{list(session.bots)}, running {session._running}, pending {session._pending}, "
        f"thinking {session._thinking}, prompting {app.idle.prompting}, "
        f"actions {len(session.state.journal)}"
    )


def test_full_game_to_results_initials_and_boards(app: Any) -> None:
    join = _open_join(app, "south-east")
    se = app.table.by_position("south-east").index
    nw = app.table.by_position("north-west").index
    tap(button_with_text(join.pads[nw], "+ Add a bot here"))
    tap(button_with_text(join.pads[se], "Start \u25b6"))
    assert app.mode == "game"
    _finish_game(app)
    run_until(lambda: app.mode == "results", 5, "the results screen")
    pad = app.results.pads[se]
    assert pad.in_game and pad.rank_text
    # only the seats that played have a results pad on screen
    on_screen = {i for i, p in app.results.pads.items() if p.get_root_window() is not None}
    assert on_screen == {se, nw}
    assert pad.entering, "an empty board: the human's score qualifies"
    # arcade initials: up once on the first letter ("B"), then seat button "a" on the second, OK
    slots = [w for w in pad.walk(restrict=True) if type(w).__name__ == "InitialSlot"]
    first = next(w for w in slots if w.slot == 0)
    up = [b for b in first.walk(restrict=True) if getattr(b, "text", "") == "\u25b2"]
    tap(up[0])
    assert pad.letters[0] == "B", pad.letters
    key(app, "2")  # south-east's button "a": next letter at the cursor
    key(app, "2", "up")
    assert pad.letters[0] == "C", pad.letters
    letter = [w for w in first.walk(restrict=True) if getattr(w, "text", "") == "C"]
    assert letter, (
        "the letter on screen follows",
        [getattr(w, "text", None) for w in first.walk(restrict=True)],
        first.pad,
    )
    screenshot("results_initials")
    tap(button_with_text(pad, "OK"))
    assert not pad.entering and "Saved" in pad.saved
    top = app.scores.top(GAME, 5)
    assert top and top[0].name == "CAA"
    assert any("CAA" in row for row in app.results.alltime)
    screenshot("results_boards")
    run_until(lambda: app.mode == "attract", 5, "attract after the results")


def test_operator_gesture_pin_and_menu(app: Any) -> None:
    to_attract(app)
    # attract intercepts touches, so the corner hold begins in the picker (any mode works)
    app.leave_attract(0)
    frames(2)
    hold = touch_down(20, 20)  # bottom-left corner: no seat there
    run_until(lambda: app.mode == "operator", 3, "the operator PIN pad")
    touch_up(hold)
    op = app.operator
    assert op.phase == "pin"
    for d in "1111":
        tap(button_with_text(op, d))
    tap(button_with_text(op, "OK"))
    assert op.phase == "pin" and "Wrong" in op.pin_message
    for d in "2468":  # the documented default PIN
        tap(button_with_text(op, d))
    tap(button_with_text(op, "OK"))
    assert op.phase == "menu"
    assert "Makoto" in op.counts_text
    volume = op.volume
    tap(button_with_text(op, "-"))
    assert op.volume == pytest.approx(volume - 0.1)
    assert app.cfg.sound.volume == pytest.approx(volume - 0.1)
    screenshot("operator_menu")
    # reset a board only after confirmation
    while op.board_game != GAME:
        op.next_board()
    app.scores.add(GAME, "OPR", 10)  # the board has at least one entry to lose
    assert app.scores.top(GAME, 5)
    tap(button_with_text(op, "Reset..."))
    assert op.phase == "confirm"
    tap(button_with_text(op, "Cancel"))
    assert app.scores.top(GAME, 5), "cancel keeps the board"
    tap(button_with_text(op, "Reset..."))
    tap(button_with_text(op, "Yes, do it"))
    assert app.scores.top(GAME, 5) == []
    # the saved config file has the new volume
    from kiosk import config as kconfig

    assert kconfig.load(app.config_path).sound.volume == pytest.approx(volume - 0.1)
    tap(button_with_text(op, "Close menu"))
    assert app.mode == "attract"
