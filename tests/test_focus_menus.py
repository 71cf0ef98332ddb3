"""The seat menu and the joining screen from one seat's two buttons alone, in a real Kivy window (Xvfb in CI).

The seat's buttons are gpiozero ``MockFactory`` pins behind the kiosk's own ``hardware.buttons.SeatButtons`` (the
app runs with ``--hardware mock``), driven as in ``test_buttons_play.py`` (its :class:`SeatButtons`): the
"player" reads only what the seat shows and steers the highlight with "b" (next), "a" (choose), "hold b" (back)
and "hold a" (the seat's menu). The scenarios run in one child process with the real :class:`kiosk.app.KioskApp`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import build_app, frames, run_child, run_for, run_scenarios, run_until, screenshot, tick
from test_buttons_play import SeatButtons, _name

pytestmark = [pytest.mark.ui]
#: The child's bound (real seconds: a hung child; the scenarios run on virtual time); the file's is a minute more.
CHILD_S = 600

HERE = Path(__file__).resolve()
SCENARIOS = [
    "join_on_buttons_bots_levels_and_match",
    "seat_menu_on_buttons",
    "takoyaki_hold_a_opens_the_menu_not_a_claim",
    "keyboard_hold_a_opens_the_menu",
    "language_on_a_seats_buttons",
]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(HERE, tmp_path_factory.mktemp("focus_menus"), timeout=CHILD_S)


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(results: dict[str, Any], name: str) -> None:
    assert name in results, f"scenario {name} did not run; results: {sorted(results)}"
    assert results[name] == "ok", results[name]


# =============================================================================================== child
def child_main(tmp: Path, out: Path) -> None:
    app = build_app(tmp / "state", bots={"move_delay_s": 0.0, "default_level": "easy"})

    def start(key: str, seats: list[tuple[str, str | None]], seed: int) -> Any:
        if app.mode == "results":
            app.go_attract()
            frames(1)
        if app.session is not None:
            app.launcher.end()
        app.start_game(key, [(app.table.by_position(p).index, lv) for p, lv in seats], seed=seed)
        assert app.sm.current == f"game:{key}", app.sm.current
        frames(2)
        return app.session

    def join_on_buttons_bots_levels_and_match() -> None:
        """The joining screen on one seat's buttons chooses what a finger can: "hold a" opens the how-to at the
        seat (and closes it); "b" moves the highlight through the seat's pad, the centre's buttons and the other
        seats' bot buttons; a bot added by buttons takes the highlight to its Level, which "a" cycles; a bot is
        removed; the match length is chosen; Start starts the game with exactly those seats."""
        if app.session is not None:
            app.launcher.end()
        app.go_attract()
        frames(2)
        app.open_join("makoto", None)
        frames(2)
        join = app.join_screen
        pads = join.pads
        btn = SeatButtons(app, "south-west")
        west = app.table.by_position("west").index
        north_east = app.table.by_position("north-east").index
        btn.press("a")
        assert pads[btn.seat].mode == "human", "a joins at once"
        assert btn.focused() is None, "joining shows no highlight"
        # the how-to, by buttons
        btn.hold("a")
        menu = app.seat_menus.menus[btn.seat]
        assert btn.menu_open() and menu.page == "howto", "hold a opens the how-to at the seat"
        run_until(lambda: btn.focused() is not None, 8, "the how-to's highlight")
        assert btn.focused().text == "Next \u25b6", _name(btn.focused())
        btn.press("a")
        assert menu.step == 1, "a chose Next"
        btn.hold("b")
        assert menu.step == 0, "hold b is the how-to's Back"
        btn.hold("a")
        assert not btn.menu_open() and pads[btn.seat].mode == "human", "hold a closed it; still joined"
        # what the seat's buttons reach: its pad, the centre, the other seats' bot buttons, and nothing else
        btn.show()
        names = [_name(w) for w in btn.choices()]
        assert names[:1] == ["\u2716 Leave"], names
        for want in ("\u25c0 Back", "Fill with bots (easy)", "Match: one game \u21bb", "+ Add a bot here"):
            assert want in names, (want, names)
        assert "Join \u261d" not in names, "a human joins only at their own seat"
        assert names.count("+ Add a bot here") == len(pads) - 1, names
        # a bot at the west seat, its level set by buttons
        btn.choose(lambda w: w == pads[west].ids.add_bot)
        assert pads[west].mode == "bot" and pads[west].level == "easy"
        assert btn.focused() == pads[west].ids.level, (
            "the highlight goes to the new bot's Level",
            _name(btn.focused()),
        )
        seen = []
        for _ in range(3):
            btn.press("a")
            seen.append(pads[west].level)
        assert seen == ["normal", "hard", "random"], seen
        btn.press("a")
        btn.press("a")
        assert pads[west].level == "normal"
        # a bot added and removed again at the north-east seat
        btn.choose(lambda w: w == pads[north_east].ids.add_bot)
        assert pads[north_east].mode == "bot"
        btn.choose(lambda w: w == pads[north_east].ids.remove_bot)
        assert pads[north_east].mode == "empty"
        # the match length
        btn.choose(lambda w: _name(w).startswith("Match: "))
        assert join.match_games == 0 and join.match_label.startswith("Match: full")
        frames(2)
        screenshot("buttons_join")
        # Start, chosen on the seat's own pad
        assert join.can_start
        btn.choose(lambda w: w == pads[btn.seat].ids.start)
        run_until(lambda: app.mode == "game", 5, "the game")
        session = app.session
        assert session.spec.key == "makoto" and session.players == 2
        assert [s.index for s in session.seats] == sorted([btn.seat, west])
        gw = session.game_seat_of(west)
        assert session.is_bot(gw) and session.bot_levels[gw] == "normal", session.bot_levels
        assert not session.is_bot(session.game_seat_of(btn.seat))
        assert session.match_games == 0, session.match_games
        app.launcher.end()
        frames(1)

    # ------------------------------------------------------------------------------------------- the seat menu
    def seat_menu_on_buttons() -> None:
        """During a game "hold a" opens the seat's menu over its zone (also at another seat's turn, where a held
        button only showed the hand), with the highlight on its first choice and the legend at the seat; "b",
        "a" and "hold b" move through it, choose and go back a page; "hold a" closes it; no hold chooses
        anything in the game; "Yes, leave" hands the seat to a bot."""
        from kiosk.ui.focus import LEGEND

        session = start("maki", [("south-west", None), ("north-east", None)], seed=21)
        screen = app.sm.current_screen
        state = session.state
        menus = app.seat_menus
        seats = {p: SeatButtons(app, p) for p in ("south-west", "north-east")}
        mover = next(b for b in seats.values() if session.game_seat_of(b.seat) in state.to_move())
        idle = next(b for b in seats.values() if b is not mover)
        before = len(state.journal)
        # at another seat's turn: a held button shows the hand, and a hold of "a" opens the menu instead
        tray = screen.panels[idle.seat].ids.tray
        idle.down("a")
        assert tray.is_open, "nothing to choose: the hand shows while a button is down"
        idle.held("a")
        assert idle.menu_open() and not tray.held_by_button, "hold a: the menu, the hand hidden again"
        idle.up("a")
        assert idle.menu_open(), "the release of the hold chooses nothing in the menu"
        idle.hold("a")
        assert not idle.menu_open(), "hold a closes it"
        # at the seat's turn
        btn = mover
        g = session.game_seat_of(btn.seat)
        btn.show()
        btn.hold("a")
        menu = menus.menus[btn.seat]
        assert btn.menu_open() and menu.page == "menu"
        run_until(lambda: btn.focused() is not None, 8, "the menu's highlight")
        assert screen.focus.focused(btn.seat) is None, "the game's highlight let go under the menu"
        assert len(state.journal) == before, "no hold chose anything in the game"
        names = [_name(w) for w in btn.choices()]
        assert names[0] == "? How to play" and "Cards" in names[1] and names[2].startswith("Back to the game"), names
        assert names[3].startswith("Hints: ") and names[4].startswith("\u2716 Leave"), names
        assert _name(btn.focused()) == "? How to play"
        legend = menus.focus.legends[btn.seat]
        assert legend.opacity == 1 and legend.text == LEGEND and "hold a: menu" in LEGEND
        frames(2)
        screenshot("buttons_seat_menu")
        # hints switched by buttons
        zone = screen.panels[btn.seat]
        was = bool(zone.hints)
        btn.choose(lambda w: _name(w).startswith("Hints: "))
        assert bool(zone.hints) is not was and menu.hints_on is not was
        btn.choose(lambda w: _name(w).startswith("Hints: "))
        assert bool(zone.hints) is was
        # the how-to: Next, then hold b back a step and back to the menu
        btn.choose(lambda w: _name(w) == "? How to play")
        assert menu.page == "howto" and _name(btn.focused()) == "Next \u25b6", _name(btn.focused())
        btn.press("a")
        assert menu.step == 1
        frames(2)
        screenshot("buttons_seat_menu_howto")
        btn.hold("b")
        btn.hold("b")
        assert menu.page == "menu" and btn.menu_open(), "hold b: a step back, then the menu"
        assert btn.focused() is not None
        # Leave asked and refused, then the menu closed by hold b
        btn.choose(lambda w: _name(w).startswith("\u2716 Leave"))
        assert menu.page == "leave" and _name(btn.focused()) == "No, stay", "the safe answer first"
        btn.press("a")
        assert menu.page == "menu"
        btn.hold("b")
        assert not btn.menu_open(), "hold b on the menu: back to the game"
        assert len(state.journal) == before and not session.is_bot(g)
        btn.show()
        assert btn.focused() in screen.focus.targets(btn.seat), "the game's highlight again"
        # leaving for real: a bot plays the seat on
        btn.hold("a")
        btn.choose(lambda w: _name(w).startswith("\u2716 Leave"))
        btn.choose(lambda w: _name(w) == "Yes, leave")
        assert not btn.menu_open() and session.is_bot(g), "a bot took the seat over"
        assert app.mode == "game" and not session.is_bot(session.game_seat_of(idle.seat))
        app.launcher.end()
        frames(1)

    def takoyaki_hold_a_opens_the_menu_not_a_claim() -> None:
        """In the race, "a" with no highlight is TAKOYAKI! when let go; held, it opens the menu and claims
        nothing (a wrong claim would put the seat out of the order)."""
        session = start("takoyaki", [("south-west", None), ("north-east", None)], seed=22)
        screen = app.sm.current_screen
        state = session.state
        run_until(lambda: not screen.counting_down and state.current_order is not None, 8, "the first order")
        btn = SeatButtons(app, "south-west")
        g = session.game_seat_of(btn.seat)
        before = len(state.journal)
        btn.hold("a")
        assert btn.menu_open() and state.out[g] is None and len(state.journal) == before, "no claim"
        btn.hold("a")
        assert not btn.menu_open()
        btn.press("a")
        assert state.out[g] == "wrong_claim", "a let go: TAKOYAKI! (wrong here: the grill is not cooked)"
        app.launcher.end()
        frames(1)

    def keyboard_hold_a_opens_the_menu() -> None:
        """The keyboard fallback drives the same path: the seat's "a" key held a second opens its menu, the
        highlight on its first choice; its "b" key moves it; "a" held again closes the menu."""
        from kivy.core.window import Window

        from kiosk.seats import KEYS

        session = start("wasabi", [("east", None), ("west", "easy")], seed=23)
        seat = app.table.by_position("east").index
        a, b, _tap = KEYS["east"]
        menus = app.seat_menus

        def hold_key(text: str) -> None:
            """The key down past the keyboard's hold time (one second), the clock running meanwhile."""
            Window.dispatch("on_key_down", ord(text), 0, text, [])
            run_for(1.3)  # the keyboard's hold is on Kivy's clock: virtual seconds
            Window.dispatch("on_key_up", ord(text), 0)
            tick(2)

        hold_key(a)
        assert menus.is_open(seat), "the held key opened the seat's menu"
        run_until(lambda: menus.focus.focused(seat) is not None, 8, "the menu's highlight")
        first = menus.focus.focused(seat)
        assert _name(first) == "? How to play", _name(first)
        Window.dispatch("on_key_down", ord(b), 0, b, [])
        tick()
        Window.dispatch("on_key_up", ord(b), 0)
        tick(2)
        assert "Cards" in _name(menus.focus.focused(seat)), _name(menus.focus.focused(seat))
        hold_key(a)
        assert not menus.is_open(seat) and session is app.session
        app.launcher.end()
        frames(1)

    def language_on_a_seats_buttons() -> None:
        """With more than one language enabled, a seat's buttons reach its pad's language button: "a" on it takes
        the next language, and the pad speaks it."""
        if app.session is not None:
            app.launcher.end()
        cfg = app.cfg
        app.use_config(cfg.replace(language={"default": "en", "enabled": ["en", "de", "ja"]}))
        try:
            app.go_attract()
            frames(2)
            app.open_join("makoto", None)
            frames(2)
            btn = SeatButtons(app, "north-east")
            pad = app.join_screen.pads[btn.seat]
            btn.press("a")
            assert pad.mode == "human" and pad.language == "en"
            btn.choose(lambda w: w == pad.ids.language)  # (ids are weak proxies)
            assert pad.language == "de" and pad.ids.language.text.startswith("Deutsch"), pad.ids.language.text
            assert pad.ids.leave.text.endswith("Verlassen"), pad.ids.leave.text
            btn.press("a")  # the highlight stays on the button: again, the next one
            assert pad.language == "ja", pad.language
        finally:
            app.use_config(cfg)
            app.go_attract()
            frames(2)

    scenarios = locals()
    run_scenarios({name: scenarios[name] for name in SCENARIOS}, out)
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
