"""End-to-end tests of the kiosk shell in a real Kivy window (Xvfb in CI: test.sh runs pytest in xvfb-run).

One real :class:`kiosk.app.KioskApp` serves the whole module, in the pytest process (the harness is in
``conftest.py``): the tests step Kivy's event loop themselves and drive the app through its public flows with
simulated touches (dispatched through the window like a real touch) and seat events (keyboard fallback and
hardware-style events). Timeouts are configured short so the idle flow runs in seconds. Each main screen is
saved as a PNG into ``artifacts/`` for a human to look at.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from typing import Any

import conftest
import pytest
from conftest import (
    button_with_text,
    buttons,
    frames,
    run_for,
    screenshot,
    start_kiosk,
    tap,
    tick,
    touch_down,
    touch_up,
    window_point,
)

from devtools.broker import Mosquitto
from kiosk import clock

pytestmark = pytest.mark.ui

GAME = "makoto"


# ------------------------------------------------------------------------------------------------ fixture
@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    assert os.environ.get("DISPLAY"), "UI tests need a display: run them under xvfb-run (see test.sh)"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    state = tmp_path_factory.mktemp("kiosk-state")
    from kiosk.config import Config

    # paired with an event: a real Mosquitto on a free port (anonymous here; test_events.py runs the shipped ACL)
    broker = Mosquitto(state / "broker")
    broker.start()
    event = {"enabled": True, "broker": "127.0.0.1", "port": broker.port, "event": "fair", "table": "t1"}

    cfg = Config().replace(
        timeouts={"idle_s": 2.0, "still_playing_s": 1.5, "menu_idle_s": 120.0, "initials_s": 8.0, "results_s": 1.0},
        attract={"move_delay_s": 0.05, "game_s": 3.0, "boards_s": 1.0, "call_s": 1.0, "bot_level": "random"},
        bots={"move_delay_s": 0.02, "default_level": "random"},
        operator={"hold_s": 0.6},
        event=event,
        check_ranges=False,  # a fast table: timeouts of seconds
    )
    kiosk = start_kiosk(state, cfg, seed=1)
    kiosk.test_broker = broker
    yield kiosk
    from kivy.base import stopTouchApp

    kiosk.stop()
    stopTouchApp()
    broker.stop()


def event_games(app: Any) -> list[dict[str, Any]]:
    """A stand-in for the event board on the event's games topic: the records, as they come, each answered with
    the board's receipt (without which the table keeps the game in its outbox)."""
    import paho.mqtt.client as mqtt

    from kiosk.events.contract import receipt_payload, receipts_topic

    got: list[dict[str, Any]] = []

    def on_message(client: Any, _u: Any, msg: Any) -> None:
        record = json.loads(msg.payload)
        if record["id"] not in {r["id"] for r in got}:
            got.append(record)
        client.publish(receipts_topic(record["event"], record["table"]), receipt_payload([record["id"]]), qos=1)

    sub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="test-ui-subscriber")
    sub.on_message = on_message
    sub.connect("127.0.0.1", app.test_broker.port)
    sub.subscribe("kiosk/events/fair/tables/+/games", qos=1)
    sub.loop_start()
    return got


def until_real(pred: Callable[[], bool], what: str) -> None:
    """A wait on the event link's own threads and a real broker: bounded by the file's time-out alone."""
    end = time.monotonic() + 300
    while not pred():
        assert time.monotonic() < end, f"not within the file's bound: {what}"
        time.sleep(0.02)


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


def seed_next_game(app: Any, seed: int) -> None:
    """The next game a guest starts on the joining screen (its Start button) gets ``seed``: the launcher draws it
    from its own generator, which is seeded here so the game does not depend on the tests run before it."""
    app.launcher.rng = random.Random(seed)


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
    app.go_attract()
    # checked before any frame: attract mode starts with the call (its slot is 1 virtual second here)
    assert app.sm.current == "attract" and app.attract_screen.phase == "call", "attract starts with the call"
    frames(2)
    screenshot("attract_call")
    run_until(lambda: app.sm.current.startswith("game:"), 10, "a bot game")
    session = app.director.session
    assert session is not None and session.attract and len(session.bots) == session.players
    start = len(session.state.journal)
    run_until(lambda: len(session.state.journal) > start + 3, 5, "the attract bots to move")
    screenshot("attract_game")
    run_until(lambda: app.sm.current == "attract" and app.attract_screen.phase == "boards", 8, "boards")
    screenshot("attract_boards")
    run_until(lambda: app.attract_screen.phase == "call", 10, "the touch-to-play call again")


def test_attract_shows_the_event_board_beside_the_tables_own(app: Any) -> None:
    """The event board service's retained board (published here as it would) reaches the paired table, whose
    attract boards show the event's best beside its own; a board that breaks the contract is ignored."""
    import paho.mqtt.client as mqtt

    from kiosk.events.contract import board_topic, encode

    row = {"initials": "ZOE", "score": 99, "table": "t2", "finished_at": "2026-12-04T10:00:00Z", "id": "a" * 32}
    board = {
        "v": 1,
        "event": "fair",
        "title": "Summer Fair",
        "updated": "2026-12-04T10:00:00Z",
        "games": {GAME: {"all": [row], "today": [row], "hour": []}},
    }
    service = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="test-ui-service")
    service.connect("127.0.0.1", app.test_broker.port)
    service.loop_start()
    service.publish(board_topic("fair"), b'{"v": 1, "event": "fair", "games": []}', qos=1).wait_for_publish(60)
    service.publish(board_topic("fair"), encode(board), qos=1, retain=True).wait_for_publish(60)
    until_real(lambda: app.events.board is not None and app.events.board["title"] == "Summer Fair", "the board")
    service.disconnect()
    service.loop_stop()
    app.go_attract()
    frames(1)
    app.director.jump_to("boards", GAME, hold=True)
    frames(2)
    screen = app.attract_screen
    assert screen.phase == "boards" and screen.event_title == "Summer Fair"
    assert screen.event_rows == ["1.  ZOE   99"]
    screenshot("attract_event_boards")
    app.go_attract()


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
    seed_next_game(app, 10)
    tap(button_with_text(join.pads[sw], "Start \u25b6"))
    assert app.mode == "game" and app.session is not None
    s = app.session
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
    if app.session is None:
        test_join_by_pad_and_seat_button_then_start(app)
    session = app.session
    screen = _generic_screen(app)
    run_until(lambda: any(not session.is_bot(g) for g in session.state.to_move()), 5, "a human's turn")
    g = next(g for g in session.state.to_move() if not session.is_bot(g))
    panel = screen.panels[session.seats[g].index]
    tray = panel.ids.tray
    other = next(p for i, p in screen.panels.items() if p.in_game and p is not panel and not p.is_bot)
    # the seat to move sees its hand at once (the tray opens by itself at its turn); nobody else's opens
    run_until(lambda: tray.is_open, 10, "the hand opening by itself at the seat's turn")
    assert not other.ids.tray.is_open
    tray.toggle()  # what a tap on the open tray does: closed for the rest of the turn, until held or tapped
    frames(1)
    assert not tray.is_open and not other.ids.tray.is_open
    screenshot("game_hidden")
    # the guest is still there (the screenshot's frames count towards this app's 2 s idle_s)
    app.hub.note_input()
    frames(1)
    assert not app.overlay.prompting
    # hold the tray with one finger ...
    hold = touch_down(*window_point(tray, 0.5, 0.9))
    assert tray.is_open and not other.ids.tray.is_open, "only the held tray opens"
    assert panel.labels[0], "the seat to move has action buttons"
    screenshot("game_tray_open")
    app.hub.note_input()  # (the same: the finger is still down)
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
    # the seat's "b" button (keyboard fallback): with nothing to choose it holds the tray open while down; with
    # choices it shows the button highlight, the tray open while the highlight is in it (kiosk/ui/focus.py)
    seat = session.seats[g]
    b_key = next(k for k, v in seat.keys.items() if v == "b")
    key(app, b_key)
    assert tray.is_open
    key(app, b_key, "up")
    focused = screen.focus.focused(seat.index)
    if focused is not None:
        assert tray.is_open and focused in screen.focus.targets(seat.index)
        screen.focus.hide(seat.index)  # what a hold of "b" does with nothing to step back from
    assert not tray.is_open


def test_idle_asks_still_playing_then_saves_and_returns_to_attract(app: Any) -> None:
    if app.session is None:
        test_join_by_pad_and_seat_button_then_start(app)
    session = app.session
    screen = _generic_screen(app)
    journal = session.journal
    run_until(lambda: app.overlay.prompting, 10, "the Still playing? prompt")
    assert all(not p.ids.tray.is_open for p in screen.panels.values()), "private hands hide when idle"
    screenshot("still_playing")
    # an answer (any touch) keeps the game
    touch_up(touch_down(960, 540))
    assert not app.overlay.prompting and app.mode == "game"
    run_until(lambda: app.overlay.prompting, 10, "the prompt again")
    run_until(lambda: app.mode == "attract", 10, "attract after the timeout")
    assert app.session is None
    # saved: the journal was closed as abandoned and archived
    assert journal is not None and not journal.path.exists()
    archived = list((journal.path.parent.parent / "archive").glob(journal.path.stem + "*"))
    assert archived and '"end":"abandoned"' in archived[0].read_text()


#: A bound on one test game's human moves (each is applied without a frame; the bots' moves take frames).
MAX_HUMAN_MOVES = 2000


def _finish_game(app: Any, timeout: float = 60.0) -> None:
    """The human seats play random legal actions through the session (as their screen would); bots as usual.
    At most ``timeout`` virtual seconds of frames (and :data:`MAX_HUMAN_MOVES` human moves)."""
    from kiosk.ai import RandomBot

    session = app.session
    session.move_delay = 0.0
    humans = {g: RandomBot(g, 99 + g) for g in session.humans()}
    end = clock.now() + timeout
    moves = 0
    while clock.now() < end and moves < MAX_HUMAN_MOVES:
        if session.state.is_over():
            return
        movers = [g for g in session.state.to_move() if g in humans]
        if movers:
            app.hub.note_input()  # the human touched (keeps the idle prompt away)
            session.apply(movers[0], humans[movers[0]].choose(session.state))
            moves += 1
        else:
            frames(1)
    raise AssertionError(
        f"game did not end: mode {app.mode}, to_move {session.state.to_move()}, bots "
        f"{list(session.bots)}, running {session._running}, pending {session._pending}, "
        f"thinking {session._thinking}, prompting {app.idle.prompting}, "
        f"actions {len(session.state.journal)}"
    )


def test_full_game_to_results_initials_and_boards(app: Any) -> None:
    published = event_games(app)
    join = _open_join(app, "south-east")
    se = app.table.by_position("south-east").index
    nw = app.table.by_position("north-west").index
    tap(button_with_text(join.pads[nw], "+ Add a bot here"))
    seed_next_game(app, 11)
    tap(button_with_text(join.pads[se], "Start \u25b6"))
    assert app.mode == "game"
    _finish_game(app)
    run_until(lambda: app.mode == "results", 5, "the results screen")
    frames(2)  # shown and laid out (a guest's first tap comes frames later)
    pad = app.results.pads[se]
    assert pad.in_game and pad.rank_text
    # only the seats that played have a results pad on screen
    on_screen = {i for i, p in app.results.pads.items() if p.get_root_window() is not None}
    assert on_screen == {se, nw}
    for i in on_screen:  # the winners' trophy: a picture beside the place, only at a winner's pad
        p = app.results.pads[i]
        trophy = next(w for w in p.walk(restrict=True) if type(w).__name__ == "Picture" and w.name == "trophy")
        assert (trophy.width > 40 * app.u and trophy.opacity == 1) == p.winner, (i, p.winner, trophy.size)
        assert not p.winner or trophy.source.endswith("/trophy")
    assert any(app.results.pads[i].winner for i in on_screen)
    assert not conftest.buttons(app.results.pads[nw], "Play again \u21bb"), "no Play again at a bot's pad"
    assert pad.entering, "an empty board: the human's score qualifies"
    # arcade initials: up once on the first letter ("B"), then seat button "b" (next) once more, OK
    slots = [w for w in pad.walk(restrict=True) if type(w).__name__ == "InitialSlot"]
    first = next(w for w in slots if w.slot == 0)
    up = [b for b in first.walk(restrict=True) if getattr(b, "text", "") == "\u25b2"]
    tap(up[0])
    assert pad.letters[0] == "B", pad.letters
    key(app, "w")  # south-east's button "b": the next letter at the cursor
    key(app, "w", "up")
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
    assert button_with_text(pad, "Play again \u21bb").width >= 60 * app.u, "a player's pad offers to play again"
    top = app.scores.top(GAME, 5)
    assert top and top[0].name == "CAA"
    assert any("CAA" in row for row in app.results.alltime)
    # the table is paired with an event: the finished game went to its broker, initials and all, once
    until_real(lambda: len(published) >= 1 and app.events.status()["waiting"] == 0, "the game at the broker")
    assert app.events.status()["state"] == "online"
    (record,) = published
    players = {p["seat"]: p for p in record["players"]}
    assert [p["initials"] for p in record["players"] if not p["bot"]] == ["CAA"]
    assert {p["score"] for p in record["players"] if not p["bot"]} == {top[0].score}
    assert (record["event"], record["table"], record["game"]) == ("fair", "t1", GAME)
    assert len(players) == 2 and sum(p["bot"] for p in players.values()) == 1
    screenshot("results_boards")
    run_until(lambda: app.mode == "attract", 5, "attract after the results")


def test_still_playing_goes_with_the_game_it_asked_about(app: Any) -> None:
    """The game's last move lands while "Still playing?" is up and nobody answers it: the question goes with the
    game, the finished game is not abandoned by the time-out (its results and scores come), and the results take
    the next tap (the question used to stay over them, or the time-out abandoned the finished game)."""
    join = _open_join(app, "south-east")
    se = app.table.by_position("south-east").index
    nw = app.table.by_position("north-west").index
    tap(button_with_text(join.pads[nw], "+ Add a bot here"))
    seed_next_game(app, 12)
    tap(button_with_text(join.pads[se], "Start \u25b6"))
    from kiosk.ai import RandomBot

    session = app.session
    session.move_delay = 0.0
    (human,) = session.humans()
    bot = RandomBot(human, 5)
    end = clock.now() + 60  # virtual seconds of frames; the human's moves are bounded too
    moves = 0
    while not session.state.is_over():
        assert clock.now() < end and moves < MAX_HUMAN_MOVES, "the game did not end"
        app.hub.note_input()
        if session.state.to_move() != [human]:
            tick(1)  # waiting for the bots: no need to draw
            continue
        action = bot.choose(session.state)
        after = session.state.clone()
        after.apply(human, action)
        if after.is_over():  # nobody touched for a while: the question is up when the last move lands
            app.hub.last_input = clock.now() - app.cfg.timeouts.idle_s - 0.05
            run_until(lambda: app.overlay.prompting, 5, "the Still playing? prompt")
            assert app.overlay.parent is not None
        session.apply(human, action)
        moves += 1
    run_for(app.cfg.timeouts.still_playing_s + 0.5)  # past the question's time-out, nobody answering
    assert app.mode in ("game", "results") and not app.idle.prompting, app.mode
    run_until(lambda: app.mode == "results", 5, "the results screen (not abandoned: that is attract mode)")
    frames(2)
    assert not app.idle.prompting and app.overlay.parent is None, "the question went with its game"
    pad = app.results.pads[se]
    if pad.entering:
        first = next(w for w in pad.walk(restrict=True) if type(w).__name__ == "InitialSlot" and w.slot == 0)
        tap(next(b for b in first.walk(restrict=True) if getattr(b, "text", "") == "\u25b2"))
        assert pad.letters[0] == "B", pad.letters
    else:
        tap(button_with_text(pad, "Play again \u21bb"))
        assert app.mode == "menu", "the results took the tap: Play again opens the picker"
    to_attract(app)


def _hold_corner(app: Any) -> Any:
    """The operator gesture: a finger held in the bottom-left corner (no seat there) until the PIN pad opens."""
    if app.mode == "attract":
        app.leave_attract(0)  # attract intercepts touches, so the corner hold begins in the picker (any mode works)
        frames(2)
    hold = touch_down(20, 20)
    run_until(lambda: app.mode == "operator", 10, "the operator PIN pad")
    touch_up(hold)
    frames(4)  # a screen that was not current while the window changed size lays out on its first frames
    return app.operator.ids.pinpad


def _type_pin(pad: Any, digits: str, submit: str = "OK") -> None:
    for d in digits:
        tap(button_with_text(pad, d))
    tap(button_with_text(pad, submit))


def _play_root_helper(app: Any, stick: Any) -> None:
    """What kiosk-admin.service does when the request file appears: the real helper, its USB look-up replaced by
    one stick whose top folder is ``stick`` (a real folder; None: no stick plugged in)."""
    from kiosk.appliance.admin import Admin

    def usb_files(match: Any) -> Any:
        return ([], []) if stick is None else (sorted(p for p in stick.iterdir() if match(p)), [])

    Admin(app.state_dir, app.state_dir / "no-root", reboot=lambda: None, usb_files=usb_files).serve()


def test_without_a_pin_a_guest_holding_the_corner_cannot_set_one(
    app: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No default PIN, and no first-come set-up: the corner says how the owner sets one; a PIN reset stick (read by
    the root helper) is the only way to set it from the screen."""
    from kiosk.appliance import requests
    from kiosk.config import LoadedConfig
    from kiosk.pin import check_pin

    assert not app.cfg.operator.pin_set
    to_attract(app)
    assert "No operator PIN" in app.corner_mark.text and app.corner_mark.opacity == 1
    app.loaded_config = LoadedConfig(app.cfg, "last good copy", ("sound.volum: unknown key",))
    to_attract(app)
    assert "Settings problem" in app.corner_mark.text
    screenshot("attract_corner_marks")
    # over the bots' games the call in the operator's corner says the same (the screen's own mark is not shown)
    app.director.jump_to("game", "maki", hold=True)
    frames(3)
    calls = {c.edge: c for c in app.director._calls.calls}
    assert calls["bottom"].warn and calls["bottom"].text == "\u26a0 No operator PIN\n\u26a0 Settings problem"
    assert all(not c.warn and c.text == app.cfg.attract.text for e, c in calls.items() if e != "bottom")
    screenshot("attract_game_corner_marks")
    app.director.jump_to("call", None, hold=True)
    frames(2)
    # a guest holds the corner: no PIN pad, only how the owner sets one
    pad = _hold_corner(app)
    op = app.operator
    assert op.phase == "nopin" and op.nopin_title == "No operator PIN is set"
    assert pad.disabled and not buttons(pad, "1") and not buttons(op, "Next"), "no digits to type"
    assert "--set-pin" in op.nopin_text and "kiosk-pin-reset.txt" in op.nopin_text
    screenshot("operator_no_pin")
    tap(button_with_text(op, "Close"))
    assert app.mode != "operator" and not app.cfg.operator.pin_set
    # a table not set up by the installer has no helper to read a stick: it says so and asks nothing
    monkeypatch.setattr(requests, "HELPER_UNIT", tmp_path / "no-such-unit")
    _hold_corner(app)
    assert op.phase == "nopin"
    tap(button_with_text(op, "Check USB stick"))
    assert "not set up by the installer" in op.reset_status and requests.pending(app.state_dir) == []
    # an installed table: the helper looks, and finds no reset file on the stick
    unit = tmp_path / "kiosk-admin.path"
    unit.write_text("")
    monkeypatch.setattr(requests, "HELPER_UNIT", unit)
    stick = tmp_path / "stick"
    stick.mkdir()
    (stick / "menu.pdf").write_bytes(b"%PDF")
    tap(button_with_text(op, "Check USB stick"))
    assert requests.pending(app.state_dir) == ["pin-reset"] and op.reset_busy
    assert not buttons(op, "Check USB stick"), "one look at a time"
    _play_root_helper(app, stick)
    run_until(lambda: not op.reset_busy, 5, "the helper's answer")
    assert "no kiosk-pin-reset.txt" in op.reset_status and op.phase == "nopin" and not app.cfg.operator.pin_set
    # the owner's stick: the reset file, as a laptop may have named it
    (stick / "Kiosk-PIN-Reset.txt").write_text("")
    tap(button_with_text(op, "Check USB stick"))
    _play_root_helper(app, stick)
    run_until(lambda: op.phase == "pin" and pad.mode == "setup", 5, "the PIN set-up after the reset stick")
    assert "PIN reset stick found" in pad.message
    screenshot("operator_pin_setup")
    _type_pin(pad, "1234", "Next")
    assert pad.step == "second" and "same PIN again" in pad.message
    _type_pin(pad, "1243")
    run_until(lambda: "differ" in pad.message, 5, "the PINs differ")
    assert pad.step == "first" and not app.cfg.operator.pin_set
    _type_pin(pad, "25", "Next")
    assert "4 to 8 digits" in pad.message and pad.step == "first"
    _type_pin(pad, "258013", "Next")
    _type_pin(pad, "258013")
    run_until(lambda: pad.mode == "check", 5, "the PIN saved")
    assert "PIN saved" in pad.message and op.phase == "pin", "the set-up alone never opens the menu"
    assert check_pin("258013", app.cfg.operator.pin_hash)
    assert not requests.pin_reset_granted(app.state_dir), "the reset stick's grant is used up"
    assert check_pin("258013", saved_config(app).operator.pin_hash), "saved to the config file"
    _type_pin(pad, "258013")
    run_until(lambda: op.phase == "menu", 5, "the menu after the right PIN")
    assert "Operator PIN: set" in op.health_text and "Settings: ok" in op.health_text
    assert "No operator PIN" not in app.corner_mark.text
    tap(button_with_text(op, "Close menu"))
    # a forgotten PIN: the same ways back in, from under the pad
    pad = _hold_corner(app)
    assert op.phase == "pin" and pad.mode == "check"
    tap(button_with_text(op, "Forgot the PIN?"))
    assert op.phase == "nopin" and op.nopin_title == "Forgot the operator PIN?"
    tap(button_with_text(op, "Close"))
    assert check_pin("258013", app.cfg.operator.pin_hash), "looking changes nothing"


def test_wrong_pins_wait_longer_then_lock_the_pad(app: Any) -> None:
    """Growing delays after 3 wrong PINs, a lockout after 10 that reopening the pad does not lift, every failure
    counted for the menu."""
    from kiosk.pin import LOCKOUT_S, PinGuard, delay_after

    assert app.cfg.operator.pin_set, "runs after the set-up test"
    now = [clock.wall()]  # the guard's own fake wall clock, moved by hand
    app.pin_guard = PinGuard(app.state_dir / "operator-pin-test.json", clock=lambda: now[0])
    to_attract(app)
    pad = _hold_corner(app)
    assert pad.mode == "check"
    for n in range(1, 11):
        _type_pin(pad, "9999")
        run_until(lambda: not pad.busy, 5, "the check")
        if n < 3:
            assert pad.message == "Wrong PIN" and not pad.waiting
            continue
        assert pad.waiting and button_disabled(pad, "1") and button_disabled(pad, "OK")
        if n < 10:
            assert f"Next try in 0:{delay_after(n):02.0f}" in pad.message or "Next try in 1:00" in pad.message
            if n == 3:
                screenshot("operator_pin_wait")
            now[0] += delay_after(n)
            run_until(lambda: not pad.waiting, 10, "the wait to end")
    assert "Locked after 10 wrong PINs: try again in 15:00" in pad.message
    screenshot("operator_pin_locked")
    tap(button_with_text(pad, "\u2716"))  # closing and holding the corner again buys nothing
    assert app.mode == "attract"
    pad = _hold_corner(app)
    assert pad.waiting and "Locked" in pad.message
    now[0] += LOCKOUT_S
    run_until(lambda: not pad.waiting, 10, "the lockout to end")
    _type_pin(pad, "258013")
    run_until(lambda: app.operator.phase == "menu", 5, "the menu")
    assert "wrong PINs since last visit: 10" in app.operator.health_text
    assert app.pin_guard.consecutive == 0 and app.pin_guard.failures_since_menu() == []
    screenshot("operator_menu_health")
    app.operator.close()
    frames(2)


def vkey_tap(vk: Any, name: str) -> None:
    """Touch the on-screen keyboard where the key ``name`` is drawn (found by Kivy's own hit test)."""
    for fy in [i / 24 for i in range(1, 24)]:
        for fx in [i / 60 for i in range(1, 60)]:
            x, y = vk.width * fx, vk.height * fy  # the keyboard's own coordinates
            if vk.collide_margin(x, y):
                continue
            key = vk.get_key_at_pos(x, y)
            if key is not None and (key[0][2] == name or (key[0][2] is None and key[0][1] == name)):
                touch_up(touch_down(*vk.to_window(*vk.to_parent(x, y))))
                return
    raise AssertionError(f"no key {name!r} on the on-screen keyboard")


def saved_config(app: Any) -> Any:
    """The config file as the app saved it (the fixture's fast timeouts are outside the file's ranges)."""
    import json

    from kiosk import config as kconfig

    return kconfig.load_dict(json.loads(app.config_path.read_text()), check_ranges=False)


def button_disabled(root: Any, text: str) -> bool:
    from kivy.uix.button import Button

    found = [w for w in root.walk(restrict=True) if isinstance(w, Button) and w.text == text]
    return bool(found) and all(w.disabled for w in found)


def test_operator_gesture_pin_and_menu(app: Any) -> None:
    to_attract(app)
    pad = _hold_corner(app)
    op = app.operator
    assert op.phase == "pin"
    _type_pin(pad, "1111")
    run_until(lambda: "Wrong" in pad.message, 5, "the wrong PIN")
    assert op.phase == "pin"
    _type_pin(pad, "258013")
    run_until(lambda: op.phase == "menu", 5, "the menu")
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

    assert saved_config(app).sound.volume == pytest.approx(volume - 0.1)
    # the attract text on Kivy's on-screen keyboard, which turns with the menu
    tap(button_with_text(op, "Type..."))
    assert op.phase == "text" and op.text_draft == app.cfg.attract.text
    vk = op._vkeyboard
    frames(2)
    for _ in range(len(op.text_draft)):
        vkey_tap(vk, "backspace")
    for name in ("h", "i", "spacebar", "t", "h", "e", "r", "e"):
        vkey_tap(vk, name)
    assert op.text_draft == "hi there", op.text_draft
    screenshot("operator_vkeyboard")
    tap(button_with_text(op, "Use this text"))
    assert op.phase == "menu" and app.cfg.attract.text == "hi there"
    assert saved_config(app).attract.text == "hi there"
    # the event page: the link's state, a setting typed on the keyboard (refused: not a table's name; the
    # settings stay), unpairing (the link stops) and pairing again (it comes back online)
    tap(button_with_text(op, "Set up..."))
    assert op.phase == "event"
    run_for(1.1)  # the page follows the link every second
    assert op.event_state.startswith("online"), op.event_state
    row = next(w for w in op.walk() if getattr(w, "label", None) == "This table")
    tap(button_with_text(row, "Type..."))
    assert op.phase == "text" and op.text_draft == "t1"
    frames(2)
    for name in ("spacebar", "x"):
        vkey_tap(vk, name)
    tap(button_with_text(op, "Save"))
    assert op.phase == "event" and "event.table" in op.event_message, op.event_message
    assert app.cfg.event.table == "t1" and saved_config(app).event.table == "t1"
    tap(button_with_text(op, "Unpair"))
    assert not app.cfg.event.enabled and not saved_config(app).event.enabled
    assert app.events.status()["state"] == "off" and not app.events.paired
    screenshot("operator_event")
    tap(button_with_text(op, "Pair with the event"))
    assert app.cfg.event.enabled and app.events.paired
    until_real(lambda: app.events.status()["state"] == "online", "paired again: online")
    run_for(1.1)
    assert op.event_state.startswith("online"), op.event_state
    tap(button_with_text(op, "Back to the menu"))
    tap(button_with_text(op, "Close menu"))
    assert app.mode == "attract"


def test_operator_menu_sets_the_tables_languages_and_speaks_the_new_one(app: Any) -> None:
    """The menu's Language cycles the table's language (each by its own name) and speaks it at once; the seat
    languages are toggles, the table's own always on; both saved in the config file, refused as the file would be."""
    from kiosk.config import ConfigError

    assert app.cfg.language.default == "en" and app.cfg.language.enabled == ("en",)
    to_attract(app)
    pad = _hold_corner(app)
    op = app.operator
    _type_pin(pad, "258013")
    run_until(lambda: op.phase == "menu", 5, "the menu")
    try:
        row = next(w for w in op.walk() if getattr(w, "label", None) == "Language")
        assert row.value == "English"
        tap(button_with_text(row, "Change \u21bb"))  # the next of the five: 日本語, in the CJK face
        assert app.cfg.language.default == "ja" and app.cfg.language.enabled == ("ja",), "one language stays one"
        assert row.value == "日本語" and op.language == "ja" and pad.language == "ja"
        assert not buttons(op, "Close menu") and buttons(op, "メニューを 閉じる")
        tap(button_with_text(row, "変更 \u21c4"))  # Japanese: the CJK face's stand-in for ↻
        # the menu speaks German at once: its settings, buttons, pages and the PIN pad; the file has it
        assert app.cfg.language.default == "de" and op.language == "de" and pad.language == "de"
        assert saved_config(app).language.default == "de" and saved_config(app).language.enabled == ("de",)
        assert row.label == "Sprache" and row.value == "Deutsch"
        assert buttons(op, "Menü schließen") and buttons(op, "PIN ändern...") and not buttons(op, "Close menu")
        assert any(getattr(w, "label", None) == "Lautstärke" for w in op.walk())
        assert "Betreiber-PIN: gesetzt" in op.health_text and op.counts_text.startswith("Spiel")
        screenshot("operator_menu_de")
        # the seats' languages: toggles by their own names; the table's own cannot be turned off
        tap(button_with_text(op, "Français"))
        assert app.cfg.language.enabled == ("de", "fr") and saved_config(app).language.enabled == ("de", "fr")
        tap(button_with_text(op, "日本語"))
        assert app.cfg.language.enabled == ("ja", "de", "fr"), "kept in the languages' order"
        assert buttons(op, "\u2714 Deutsch", enabled=False) and not buttons(op, "\u2714 Deutsch")
        op.toggle_seat_language("de")
        assert app.cfg.language.enabled == ("ja", "de", "fr") and saved_config(app).language.default == "de"
        tap(button_with_text(op, "\u2713 日本語"))  # off again (a check mark the CJK face has)
        assert app.cfg.language.enabled == ("de", "fr") and saved_config(app).language.enabled == ("de", "fr")
        # a new table language joins the seats' choice when the seats have one
        tap(button_with_text(row, "Ändern \u21bb"))
        assert app.cfg.language.default == "fr" and app.cfg.language.enabled == ("de", "fr")
        assert op.language == "fr" and buttons(op, "Fermer le menu")
        tap(button_with_text(row, "Changer \u21bb"))
        assert app.cfg.language.default == "es" and app.cfg.language.enabled == ("de", "fr", "es")
        # checked as the config file is: a refusal is shown in the menu's language, nothing changes
        with pytest.raises(ConfigError):
            app.desk.update_config(language={"default": "es", "enabled": ["de"]})
        op._set_languages("es", {"de"})
        assert "language.enabled: debe incluir el idioma de la mesa" in op.pin_message, op.pin_message
        assert app.cfg.language.enabled == ("de", "fr", "es") and saved_config(app).language.default == "es"
        # the event page and the PIN pad speak it too
        tap(button_with_text(op, "Configurar..."))
        assert op.phase == "event" and op.event_state.startswith(("en línea", "conectando", "sin conexión"))
        tap(button_with_text(op, "Volver al menú"))
        tap(button_with_text(op, "Cerrar menú"))
        pad = _hold_corner(app)
        assert pad.language == "es" and pad.message == "PIN del operador"
        _type_pin(pad, "1111")
        run_until(lambda: "incorrecto" in pad.message, 5, "the wrong PIN, in Spanish")
        assert pad.wrong
        op.close()
        frames(2)
    finally:
        app.desk.update_config(language={"default": "en", "enabled": ["en"]})
        app.operator.close()
        frames(2)
    assert app.cfg.language.default == "en" and saved_config(app).language.enabled == ("en",)


def test_operator_screens_fit_a_1280x800_panel(app: Any) -> None:
    """The PIN pad, the menu with its health panel and the on-screen keyboard at a smaller panel (screenshots)."""
    from kivy.core.window import Window

    Window.size = (1280, 800)
    try:
        frames(3)
        to_attract(app)
        pad = _hold_corner(app)
        screenshot("operator_pin_1280x800")
        _type_pin(pad, "258013")
        run_until(lambda: app.operator.phase == "menu", 5, "the menu")
        screenshot("operator_menu_1280x800")
        from devtools.fit import check_tree

        # the System part's USB stick buttons fit (the settings rows' own findings at this size are older)
        problems = [p for p in check_tree(Window, (float(Window.width), float(Window.height))) if "USB" in p.text]
        assert not problems, "\n".join(map(str, problems))
        assert buttons(app.operator, "Back up to USB stick...", enabled=False)
        tap(button_with_text(app.operator, "Type..."))
        frames(2)
        screenshot("operator_vkeyboard_1280x800")
        tap(button_with_text(app.operator, "Cancel"))
        assert app.operator.phase == "menu"
        app.operator.close()
    finally:
        Window.size = (1920, 1080)
        frames(10)
