"""Learning and leaving at the seat, in a real Kivy window (Xvfb in CI): the seat menu (how to play, leave),
a bot taking over a seat whose player left, the game ending when the last human leaves, the operator's "End the
current game", "Still playing?" only where humans sit, and the results' words and high-score rules.

Every window scenario runs in one child process with the real :class:`kiosk.app.KioskApp` (Kivy allows one App
per process; tests/test_ui.py owns the pytest process's), driven by simulated touches; the results' rules that
need no window are plain tests.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import build_app, button_with_text, frames, run_child, run_scenarios, run_until, screenshot, tap, tick

#: The child's bound (real seconds: a hung child; the scenarios run on virtual time); the file's is a minute more.
CHILD_S = 600

HERE = Path(__file__).resolve()
SCENARIOS = [
    "seat_menu_howto_steps_with_pictures",
    "setup_choices_explained_when_asked",
    "howto_during_a_game_with_an_animated_demo",
    "seat_menu_from_the_open_trays_question_mark",
    "makoto_last_cards_favour_going_out",
    "hint_mode_marks_and_prompt_switchable",
    "leave_hands_seat_to_bot_then_last_leave_ends_game",
    "operator_ends_the_current_game",
    "still_playing_only_at_human_seats",
    "results_words_and_high_score_rules",
    "trial_results_show_the_time",
]
ONLY = [n for n in __import__("os").environ.get("LEARN_ONLY", "").split(",") if n]


# =============================================================================================== plain tests
def test_points_text_is_singular_for_one() -> None:
    from kiosk.shell.results import points_text

    assert [points_text(n) for n in (0, 1, 2, 12)] == ["0 points", "1 point", "2 points", "12 points"]


def test_event_words_are_singular_for_one() -> None:
    from kiosk.engine import Event
    from kiosk.games.makoto.words import makoto_event_text

    text = makoto_event_text(Event("round_won", 0, {"cards": [25], "points": 5}), lambda g: "Ann", str)
    assert text == "Ann won the round: 1 card, 5 points"


@pytest.mark.parametrize(
    ("score", "board", "table", "lower", "trivial"),
    [
        (0, None, None, False, True),  # 0 points is never a high score, even on an empty board
        (3, None, 3, False, False),  # an empty board: any real score enters
        (3, 40, 40, False, True),  # under a third of the board's best
        (5, None, 30, False, True),  # under a third of the winner's score at the table
        (14, 40, 30, False, False),
        (90_000, 20_000, None, True, True),  # a time over three times the board's best
        (50_000, 20_000, None, True, False),
        (50_000, None, None, True, False),
    ],
)
def test_trivial_score(score: int, board: int | None, table: int | None, lower: bool, trivial: bool) -> None:
    from kiosk.shell.results import trivial_score

    assert trivial_score(score, board, table, lower) is trivial


def test_marked_rows_frame_the_new_entry_and_add_it_below_the_five() -> None:
    from kiosk.shell.results import marked_rows

    entries = [SimpleNamespace(id=i, name=f"A{i}", score=100 - i) for i in range(1, 9)]
    rows = marked_rows(entries, {2})
    assert len(rows) == 5 and rows[1].startswith("\u25b6 2.") and rows[1].endswith("\u25c0")
    rows = marked_rows(entries, {7})
    assert len(rows) == 6 and rows[-1] == "\u25b6 7.  A7    93 \u25c0"
    assert marked_rows([], set()) == ["(no scores yet)"]


@pytest.mark.parametrize("key", ["maki", "wasabi", "makoto", "takoyaki"])
def test_every_game_has_a_demo_of_real_moves_in_words(key: str) -> None:
    from kiosk.games import GAMES, pictures_of
    from kiosk.shell.demo import demo_frames
    from kiosk.shell.howto import howto_steps
    from kiosk.ui.pictures import gather_pictures

    known = gather_pictures(pictures_of(GAMES))

    spec = GAMES[key]
    demos = [s for s in howto_steps(spec) if s.demo is not None]
    assert demos, f"{key}'s how-to has no demo step"
    frames = demo_frames(spec, **demos[0].demo)
    assert len(frames) >= 4, [f.caption for f in frames]
    for f in frames[1:]:
        assert f.caption and "_" not in f.caption and "{" not in f.caption, f.caption
        assert all(c == "" or c in known for c in f.cells), f.cells
    if key in ("maki", "wasabi", "takoyaki"):  # a board (or grill) drawn in pictures, changing with the moves
        assert frames[0].cols > 0 and len(frames[0].cells) % frames[0].cols == 0
        assert len({f.cells for f in frames}) > 1, "the pictures follow the moves"


def test_a_bad_demo_in_a_howto_is_refused_with_the_file_named(tmp_path: Path) -> None:
    import json

    from kiosk.games import load_howto

    bad = tmp_path / "howto.json"
    bad.write_text(json.dumps([{"title": "T", "text": "x", "demo": {"moves": "six"}}]))
    with pytest.raises(ValueError, match="howto.json: step 1's 'demo'"):
        load_howto(bad)


# =============================================================================================== the child
@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(HERE, tmp_path_factory.mktemp("learn"), timeout=CHILD_S)


@pytest.mark.ui
@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(results: dict[str, Any], name: str) -> None:
    assert name in results, f"scenario {name} did not run; results: {sorted(results)}"
    assert results[name] == "ok", results[name]


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


def _finished(key: str, players: int, seed: int) -> Any:
    """A finished game of ``key`` (random bots at every seat, headless)."""
    from kiosk.games import GAMES

    spec = GAMES[key]
    st = spec.new_game(players, seed)
    bots = [spec.bots["random"](g, seed + g) for g in range(players)]
    for _ in range(20000):
        if st.is_over():
            return st
        g = st.to_move()[0]
        st.apply(g, bots[g].choose(st))
    raise AssertionError(f"{key} did not end")


def child_main(tmp: Path, out: Path) -> None:
    from kiosk.ai import RandomBot
    from kiosk.session import GameSession
    from kiosk.shell.howto import howto_steps

    app = build_app(tmp / "state", bots={"move_delay_s": 0.0, "default_level": "easy"})
    pos = app.table.by_position
    sw, ne, east, west = (pos(p).index for p in ("south-west", "north-east", "east", "west"))

    def start(key: str, seats: list[tuple[int, str | None]]) -> Any:
        if app.mode != "attract":
            app.go_attract()
            frames(1)
        app.start_game(key, seats, seed=6)
        frames(2)
        assert app.mode == "game"
        return app.session

    def seat_menu_howto_steps_with_pictures() -> None:
        # the joining screen: "? How to play" at a seat opens the how-to there, facing it
        app.leave_attract(sw)
        frames(1)
        app.open_join("wasabi", sw)
        frames(2)
        tap(_badge(app.join_screen, west))
        menu = app.seat_menus.menus[west]
        assert menu.shown and menu.page == "howto" and menu.get_root_window() is not None
        steps = howto_steps(app.games["wasabi"])
        assert menu.step_title == steps[0].title and menu.step_text == steps[0].text
        assert menu.facing_rotation == app.table[west].rotation
        tap(button_with_text(menu, "Next \u25b6"))
        assert menu.step == 1 and menu.step_title == steps[1].title
        pictures = list(menu.ids.pictures.children)
        assert [p.name for p in reversed(pictures)] == list(steps[1].pictures)[:3]
        screenshot("learn_howto_join")
        tap(button_with_text(menu, "Close \u2716"))
        assert not menu.shown and app.seat_menus.parent is None
        # a lone Takoyaki player is told it is a time trial before starting
        app.open_join("takoyaki", sw)
        frames(1)
        app.join_screen.join(sw)
        frames(1)
        assert "time trial" in app.join_screen.summary and "Start" in app.join_screen.summary
        app.join_screen.add_bot(ne)
        frames(1)
        assert "time trial" not in app.join_screen.summary
        app.go_attract()
        frames(1)

    def setup_choices_explained_when_asked() -> None:
        # Wasabi!'s set-up: giving starting tiles is explained at the seat that gives
        session = start("wasabi", [(sw, None), (ne, None)])
        screen = app.sm.current_screen
        st = session.state
        mover = st.to_move()[0]
        kinds = {type(a).__name__ for a in st.legal_actions(mover)}
        assert "GiveTile" in kinds, kinds
        prompt = screen.panels[session.seats[mover].index].prompt
        assert "Set-up" in prompt and "different kinds" in prompt, prompt
        # play the giving through the session until recipes are drawn: the length choice is explained
        for _ in range(40):
            mover = st.to_move()[0]
            acts = st.legal_actions(mover)
            if any(type(a).__name__ == "DrawRecipe" for a in acts):
                break
            session.apply(mover, acts[0])
            tick(1)  # waiting for the bots: no need to draw
        frames(2)
        prompt = screen.panels[session.seats[st.to_move()[0]].index].prompt
        assert "choose its length" in prompt and "score more" in prompt, prompt
        app.go_attract()
        frames(1)

    def howto_during_a_game_with_an_animated_demo() -> None:
        session = start("maki", [(sw, None), (ne, "random")])
        screen = app.sm.current_screen
        tap(_badge(screen, sw))
        menu = app.seat_menus.menus[sw]
        tap(button_with_text(menu, "? How to play"))
        assert menu.page == "howto" and menu.step == 0
        demo_step = next(i for i, s in enumerate(menu.steps) if s.demo is not None)
        while menu.step < demo_step:
            tap(button_with_text(menu, "Next \u25b6"))
        run_until(lambda: menu.demo_cols > 0 and menu.demo_caption.startswith("0/"), 20, "the demo's first position")
        grid = menu.ids.demo_board
        assert len(grid.children) == 30 and grid.cols == 5, (len(grid.children), grid.cols)
        first = [w.name for w in reversed(grid.children)]
        run_until(lambda: menu.demo_caption.startswith("1/"), 5, "the first move")
        assert "Ann" in menu.demo_caption
        run_until(lambda: [w.name for w in reversed(grid.children)] != first, 10, "the board to change")
        screenshot("learn_howto_demo")
        # the game went on meanwhile: the other seat's zone is untouched and the session still runs
        assert app.mode == "game" and session.running
        tap(button_with_text(menu, "Close \u2716"))
        assert not menu.shown and menu.demo_caption == "" and menu._demo_ev is None
        app.go_attract()
        frames(1)

    def seat_menu_from_the_open_trays_question_mark() -> None:
        # During the seat's own turn its hand opens by itself and takes the seat's column, badge included: the "?"
        # in the open tray opens the same seat menu, facing the seat, in every game, and Leave works from there.
        # (Takoyaki has no hand to hide: its badge, "?" included, stays in view while racing.)
        from kivy.core.window import Window
        from kivy.uix.behaviors import ButtonBehavior
        from kivy.uix.label import Label

        from kiosk.ui.focus import window_box
        from kiosk.ui.seatzone import SeatBadge, TrayHelp
        from kiosk.ui.typescale import min_target_px

        def seen(w: Any) -> bool:
            node = w
            while node is not None:
                if node.opacity <= 0.01 or node.width < 1 or node.height < 1:
                    return False
                node = node.parent if node.parent is not node else None
            return w.get_root_window() is not None

        def overlap(a: Any, b: Any) -> bool:
            return a.x + a.w > b.x + 1 and b.x + b.w > a.x + 1 and a.y + a.h > b.y + 1 and b.y + b.h > a.y + 1

        need = min_target_px(tuple(Window.size))
        for key in ("maki", "wasabi", "makoto", "takoyaki"):
            session = start(key, [(sw, None), (ne, "easy")])
            screen = app.sm.current_screen
            g = session.game_seat_of(sw)
            zone = screen.panels[sw]
            tray = zone.ids.get("tray")
            badge = next(w for w in zone.walk(restrict=True) if isinstance(w, SeatBadge))
            if tray is None:
                assert zone.tray_help is None, key
                run_until(lambda s=screen: not s.counting_down, 10, "the race")
                assert seen(badge) and badge.menu, "Takoyaki: the badge and its '?' stay in view"
                opener: Any = badge
            else:
                run_until(lambda t=tray, st=session.state, g=g: g in st.to_move() and t.is_open, 30, f"{key}: the turn")
                frames(2)
                helper = zone.tray_help
                assert isinstance(helper, TrayHelp) and helper.showing, key
                assert not seen(badge), f"{key}: the open hand took the badge's column"
                assert seen(helper) and helper.width >= need and helper.height >= need, (key, helper.size, need)
                # inside the tray, in the room it keeps for it: nothing drawn in the tray lies under it
                hb, tb = window_box(helper), window_box(tray)
                assert tb.x - 1 <= hb.x and hb.x + hb.w <= tb.x + tb.w + 1, (key, hb, tb)
                assert tb.y - 1 <= hb.y and hb.y + hb.h <= tb.y + tb.h + 1, (key, hb, tb)
                under = [
                    type(w).__name__
                    for w in list(tray.walk(restrict=True))[1:]  # (the tray itself first)
                    if (not w.children or isinstance(w, (Label, ButtonBehavior)))  # what is drawn, not a layout's box
                    and seen(w)
                    and overlap(window_box(w), hb)
                ]
                assert not under, (key, under)
                assert helper not in screen.focus.targets(sw), "no choice for the seat's buttons (hold a is)"
                opener = helper
                screenshot(f"learn_tray_help_{key}")
            tap(opener)
            menu = app.seat_menus.menus[sw]
            assert menu.shown and menu.page == "menu" and menu.can_leave, key
            assert menu.facing_rotation == app.table[sw].rotation, key
            tap(button_with_text(menu, "Back to the game \u2714"))
            assert not menu.shown and app.mode == "game", key
            if tray is not None and not tray.is_open:  # (a bot's quick move may have ended the turn meanwhile)
                run_until(lambda t=tray, st=session.state, g=g: g in st.to_move() and t.is_open, 30, "the next turn")
            frames(1)
            tap(opener if opener is badge or opener.showing else _badge(screen, sw))
            assert menu.shown, key
            tap(button_with_text(menu, "\u2716 Leave the game..."))
            assert "last player" in menu.leave_text, menu.leave_text
            tap(button_with_text(menu, "Yes, leave"))
            run_until(lambda: app.mode == "attract", 3, f"{key}: the game ended as its last player left")
            assert app.session is None, key

    def hint_mode_marks_and_prompt_switchable() -> None:
        import datetime

        app.launcher.finished_today.clear()
        session = start("maki", [(sw, None), (ne, None)])
        screen = app.sm.current_screen
        st = session.state
        mover = session.seats[st.to_move()[0]].index
        panel = screen.panels[mover]
        frames(2)
        assert panel.hints, "a newcomer starts with hints"
        assert panel.prompt, "the prompt says what to do now"
        # take a tile (the first Take), then the squares it may go to are marked
        take = next(a for a in st.legal_actions(st.to_move()[0]) if type(a).__name__ == "Take")
        session.apply(st.to_move()[0], take)
        frames(2)
        assert any(t.eligible for t in screen.tiles) and panel.prompt
        tap(_badge(screen, mover))
        menu = app.seat_menus.menus[mover]
        assert menu.hints_on
        tap(button_with_text(menu, "Hints: on \u2714"))
        frames(2)
        assert not panel.hints and not menu.hints_on
        assert not any(t.eligible for t in screen.tiles) and panel.prompt == "", "hints off: no marks, no prompt"
        tap(button_with_text(menu, "Hints: off"))
        frames(2)
        assert panel.hints and any(t.eligible for t in screen.tiles) and panel.prompt
        tap(button_with_text(menu, "Back to the game \u2714"))
        # a seat whose player finished a game today starts without hints; the others with
        app.launcher.finished_today[datetime.date.today().isoformat()] = {sw}
        start("maki", [(sw, None), (ne, None)])
        screen = app.sm.current_screen
        assert not screen.panels[sw].hints and screen.panels[ne].hints
        app.launcher.finished_today.clear()
        app.go_attract()
        frames(1)

    def makoto_last_cards_favour_going_out() -> None:
        from kiosk.games.makoto.actions import EndTurn, Play
        from kiosk.games.makoto.rules import BLIND

        session = start("makoto", [(sw, None), (ne, "random")])
        screen = app.sm.current_screen
        st = session.state
        g = session.game_seat_of(sw)
        run_until(lambda: st.to_move() == [g], 10, "the human's turn")
        single = next(a for a in st.legal_actions(g) if isinstance(a, Play) and len(a.cards) == 1)
        st.hands[g] = list(single.cards)  # a position: the seat holds only the card it is about to play
        assert session.apply(g, single)
        frames(2)
        # the rules end the turn by themselves: the seat went out, with no Blind step and no button to press
        assert not (st.phase == BLIND and st.turn == g), "no Blind step after the last cards"
        assert st.turn != g or st.is_over(), (st.phase, st.turn)
        assert all(cmd[1] != EndTurn() for cmd in screen.commands_for(screen.panels[sw]))
        app.go_attract()
        frames(1)

    def leave_hands_seat_to_bot_then_last_leave_ends_game() -> None:
        session = start("maki", [(sw, None), (east, "random"), (ne, None)])
        screen = app.sm.current_screen
        journal = session.journal
        plays_before = app.scores.count("maki")
        assert _badge(screen, sw).menu and _badge(screen, ne).menu and not _badge(screen, east).menu
        tap(_badge(screen, sw))
        menu = app.seat_menus.menus[sw]
        assert menu.shown and menu.page == "menu"
        tap(button_with_text(menu, "\u2716 Leave the game..."))
        assert menu.page == "leave" and "bot (easy)" in menu.leave_text
        tap(button_with_text(menu, "No, stay"))
        assert menu.page == "menu" and not session.is_bot(session.game_seat_of(sw))
        tap(button_with_text(menu, "\u2716 Leave the game..."))
        tap(button_with_text(menu, "Yes, leave"))
        g_sw, g_ne = session.game_seat_of(sw), session.game_seat_of(ne)
        assert session.is_bot(g_sw) and session.bot_levels[g_sw] == "easy" and session.who(g_sw) == "Bot (easy)"
        assert app.mode == "game" and app.session is session and not menu.shown
        assert screen.panels[sw].is_bot and not _badge(screen, sw).menu
        # the bot plays the seat from where it stands: the north-east human plays at random through the session
        human = RandomBot(g_ne, 3)
        moved = {"sw": 0}

        def count(_s: Any, events: Any) -> None:
            moved["sw"] += any(e.seat == g_sw for e in events)

        session.bind(on_change=count)
        for _ in range(30 * 30):  # 30 virtual seconds of frames at most
            if moved["sw"] >= 2 or session.state.is_over():
                break
            if g_ne in session.state.to_move():
                session.apply(g_ne, human.choose(session.state))
            tick(1)  # waiting for the bots: no need to draw
        session.unbind(on_change=count)
        assert moved["sw"] >= 2 or session.state.is_over(), "the bot that took the seat plays"
        # the last human leaves: the game ends unfinished, no results, no scores, the journal saved as abandoned
        tap(_badge(screen, ne))
        menu = app.seat_menus.menus[ne]
        tap(button_with_text(menu, "\u2716 Leave the game..."))
        assert "last player" in menu.leave_text
        tap(button_with_text(menu, "Yes, leave"))
        run_until(lambda: app.mode == "attract", 10, "attract mode")
        assert app.session is None and app.scores.count("maki") == plays_before
        assert journal is not None and not journal.path.exists()
        archived = list((journal.path.parent.parent / "archive").glob(journal.path.stem + "*"))
        assert archived and '"end":"abandoned"' in archived[0].read_text()

    def operator_ends_the_current_game() -> None:
        session = start("makoto", [(sw, None), (ne, "random")])
        journal = session.journal
        app.desk.open("bottom")
        frames(1)
        op = app.operator
        op.show_menu()
        frames(1)
        assert op.game_title == "Makoto"
        tap(button_with_text(op, "End the current game..."))
        assert op.phase == "confirm" and "Makoto" in op.confirm_text
        tap(button_with_text(op, "Yes, do it"))
        assert app.session is None and op.game_title == ""
        frames(1)
        end_button = [b for b in op.walk(restrict=True) if getattr(b, "text", "") == "End the current game..."]
        assert end_button and end_button[0].disabled, "nothing left to end"
        tap(button_with_text(op, "Close menu"))
        run_until(lambda: app.mode == "attract", 10, "attract after the menu")
        assert journal is not None and not journal.path.exists()

    def still_playing_only_at_human_seats() -> None:
        start("makoto", [(sw, None), (east, "random"), (ne, None), (west, "random")])
        from kiosk import clock

        app.hub.last_input = clock.now() - app.cfg.timeouts.idle_s - 1
        run_until(lambda: app.idle.prompting, 10, "the prompt")
        shown = {z.seat.index for z in app.overlay.zones if z.get_root_window() is not None}
        assert shown == {sw, ne}, shown
        screenshot("learn_still_playing")
        zone = next(z for z in app.overlay.zones if z.seat.index == ne)
        tap(button_with_text(zone, "Yes, still here \u261d"))
        assert not app.idle.prompting and app.mode == "game"
        app.go_attract()
        frames(2)

    def results_words_and_high_score_rules() -> None:
        spec = app.games["makoto"]
        seats = [app.table[sw], app.table[ne]]
        state = _finished("makoto", 2, 11)
        session = GameSession(spec, state, seats, {1: RandomBot(1, 1)}, seed=11)
        final = state.scores()
        res = app.results
        app.go_attract()
        # an empty board: a real score enters; 0 never does
        res.setup(session, app.scores, 30, 60)
        pad = res.pads[sw]
        assert pad.score_text.endswith("point" if final[0] == 1 else "points")
        assert pad.entering == (final[0] > 0 and 3 * final[0] >= max(final)), (final, pad.entering)
        res.cancel_timers()
        # a board whose best is far above: no "New high score!" for a trivial score
        for i, s in enumerate((400, 390, 380)):
            app.scores.add("makoto", f"Z{i}Z", s)
        res.setup(session, app.scores, 30, 60)
        assert not res.pads[sw].entering or 3 * final[0] >= 400
        res.cancel_timers()
        # a good score on the board: entered, and the new row marked on the board that follows
        good = GameSession(spec, state, seats, {1: RandomBot(1, 1)}, seed=11)
        state_scores = state.scores
        state.scores = lambda: [395, 1]
        try:
            res.setup(good, app.scores, 30, 60)
        finally:
            state.scores = state_scores
        pad = res.pads[sw]
        assert pad.entering and pad.entry_title == "New high score!"
        assert res.pads[ne].score_text == "Bot: 1 point"
        app.mode = "results"
        app.sm.current = "results"
        frames(3)
        tap(button_with_text(pad, "OK"))
        assert any(r.startswith("\u25b6 2.") and "AAA" in r for r in res.alltime), res.alltime
        screenshot("learn_results_marked")
        res.cancel_timers()
        app.go_attract()
        frames(1)

    def trial_results_show_the_time() -> None:
        spec = app.games["takoyaki"]
        state = _finished("takoyaki", 1, 5)
        session = GameSession(spec, state, [app.table[sw]], {}, seed=5)
        session.trial_time = 42.5
        res = app.results
        res.setup(session, app.scores, 30, 60)
        assert res.summary == "Time trial: 42.50 s" and "Winner" not in res.summary
        assert res.pads[sw].score_text == "Time: 42.50 s"
        res.cancel_timers()

    scenarios = {
        "seat_menu_howto_steps_with_pictures": seat_menu_howto_steps_with_pictures,
        "setup_choices_explained_when_asked": setup_choices_explained_when_asked,
        "howto_during_a_game_with_an_animated_demo": howto_during_a_game_with_an_animated_demo,
        "seat_menu_from_the_open_trays_question_mark": seat_menu_from_the_open_trays_question_mark,
        "makoto_last_cards_favour_going_out": makoto_last_cards_favour_going_out,
        "hint_mode_marks_and_prompt_switchable": hint_mode_marks_and_prompt_switchable,
        "leave_hands_seat_to_bot_then_last_leave_ends_game": leave_hands_seat_to_bot_then_last_leave_ends_game,
        "operator_ends_the_current_game": operator_ends_the_current_game,
        "still_playing_only_at_human_seats": still_playing_only_at_human_seats,
        "results_words_and_high_score_rules": results_words_and_high_score_rules,
        "trial_results_show_the_time": trial_results_show_the_time,
    }
    run_scenarios({n: f for n, f in scenarios.items() if not ONLY or n in ONLY}, out)
    app.launcher.end()
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
