"""The Maki and Wasabi! board screens end to end, in a real Kivy window (Xvfb), in one child process.

Reuses the child-process kit of tests/test_screen_takoyaki.py (Kivy allows one App per process and
tests/test_ui.py owns the pytest process's). Per game: an attract-mode all-bot game through the shell's own
attract entry point, then a human + bot game where the human plays through the real widgets (a finger holds the
private tray open, another taps the first legal action button). After every step the board widgets must match
``view(None)['board']``, and a seat's hand must be on screen only while its tray is open.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_screen_takoyaki import (Finger, build_app, buttons, frames, run_child, run_scenarios,  # noqa: E402
                                  run_until, screenshot, tick)

pytestmark = pytest.mark.ui

HERE = Path(__file__).resolve()
SCENARIOS = ["maki_attract", "maki_human_and_bot", "wasabi_attract", "wasabi_human_and_bot"]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(HERE, tmp_path_factory.mktemp("maki-wasabi-screen"), timeout=120)


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(results: dict[str, Any], name: str) -> None:
    assert name in results, f"scenario {name} did not run; results: {sorted(results)}"
    assert results[name] == "ok", results[name]


def test_action_labels_name_squares() -> None:
    from kiosk.games.maki.rules import Place, Switch, Take
    from kiosk.games.maki.screen import action_label, short_name
    assert action_label(Place(cell=8), 6, 36) == "Place B3"
    assert action_label(Switch(a=0, b=1), 6, 36) == "Switch A1 A2"
    assert action_label(Take(kind="Salmon"), 6, 36) == "Take Salmon"
    from kiosk.games.wasabi.rules import DrawRecipe
    assert action_label(DrawRecipe(length=3), 6, 36) == "Draw Recipe 3"
    from kiosk.games.maki.rules import Return, Serve
    assert action_label(Serve(recipe=7), 6, 36, {7: "Tuna Maki"}) == "Serve Tuna Maki"
    assert action_label(Return(recipes=(3, 7)), 6, 36, {3: "Ebi", 7: "Tuna Maki"}) == "Return Ebi, Tuna Maki"
    assert action_label(Serve(recipe=7), 6, 36, {7: "Maguro Nigiri"}) == "Serve Maguro N."
    assert short_name("Yellowtail") == "Yellowt." and short_name("Rice") == "Rice"


# =============================================================================================== child
def expected_board(key: str, public: dict[str, Any]) -> list[tuple[str, int, bool]]:
    """What the board widgets must show, read straight from the engine's public view."""
    if key == "maki":
        return [(v or "", 1 if v and v != "teacup" else 0, False) for v in public["board"]]
    covered = set(public["covered"])
    return [(st[-1] if st else "", len(st), i in covered) for i, st in enumerate(public["board"])]


def check_board(screen: Any, key: str) -> None:
    """The board widgets show exactly the engine's public board (bots paused so nothing moves meanwhile)."""
    session = screen.session
    session.pause()
    try:
        tick(3)
        want = expected_board(key, session.state.view(None))
        assert screen.board_summary() == want, (screen.board_summary(), want)
    finally:
        session.resume()
    for tile, (kind, _n, covered) in zip(screen.tiles, want):
        assert tile.get_root_window() is not None
        if kind == "teacup":
            assert "CUP" in tile.text
        elif covered:
            assert "W!" in tile.text
        elif kind:
            assert tile.text.startswith(kind[:7]) and "[b]" in tile.text, tile.text   # name + category letter
        else:
            assert tile.text == ""


def texts(widget: Any) -> str:
    from kivy.uix.label import Label
    return "\n".join(w.text for w in widget.walk(restrict=True) if isinstance(w, Label))


def child_main(tmp: Path, out: Path) -> None:
    app = build_app(tmp / "state", bots={"move_delay_s": 0.0, "default_level": "easy"})

    def attract(key: str) -> None:
        screen = app._game_screen(key)
        app._start_attract_game(key)
        session = app._attract_session
        assert app.sm.current == screen.name and session.attract
        run_until(lambda: len(session.state.journal) >= 60 or session.state.is_over(), 20, "bot moves")
        check_board(screen, key)
        assert sum(1 for kind, _n, _c in screen.board_summary() if kind) >= 3, "tiles on the board"
        screenshot(f"{key}_attract")
        assert screen.turn_text and screen.info_text, "whose turn and the public info are shown"
        assert not any(p.ids.tray.is_open for p in screen.panels.values()), "attract: every tray closed"
        for panel in screen.panels.values():
            if panel.in_game:
                assert panel.private_text not in texts(panel), "a bot's hand is never on screen"
        app._stop_attract_session()
        frames(1)

    def human_and_bot(key: str) -> None:
        screen = app._game_screen(key)
        sw, ne = app.table.by_position("south-west").index, app.table.by_position("north-east").index
        level = next(iter(app.games[key].bots))
        if app.session is not None:
            app._end_game_screen()
        app.start_game(key, [(sw, None), (ne, level)])
        assert app.sm.current == screen.name
        frames(2)
        session = app.session
        g = session.game_seat_of(sw)
        panel = screen.panels[sw]
        steps = 0
        shot = False
        for _ in range(80):
            st = session.state
            tiles = sum(1 for kind, _n, _c in screen.board_summary() if kind)
            if st.is_over() or (steps >= 4 and shot) or steps >= 25:
                break
            if st.to_move() != [g]:
                run_until(lambda: session.state.to_move() == [g] or session.state.is_over(), 10, "the bot")
                check_board(screen, key)
                continue
            check_board(screen, key)
            tray = panel.ids.tray
            assert not tray.is_open
            secret = panel.private_text
            assert secret and secret not in texts(panel), "the hand is hidden while the tray is closed"
            hold = Finger(*panel.ids.tray.to_window(tray.x + tray.width * 0.5, tray.y + tray.height * 0.96))
            tick(2)
            assert tray.is_open, "holding the tray opens it"
            assert secret in texts(panel), "the hand shows while held"
            if not shot and steps >= 2 and tiles >= 2:
                screenshot(f"{key}_board")      # the board with tiles, and this seat's tray held open
                shot = True
            assert not screen.panels[ne].ids.tray.is_open
            label = panel.labels[0]
            assert label, "the human has legal actions as buttons"
            before = len(st.journal)
            Finger(*buttons(panel, label)[0].to_window(*buttons(panel, label)[0].center)).up()
            tick(2)
            hold.up()
            tick(2)
            assert len(session.state.journal) > before, f"{label} was not applied ({panel.error})"
            assert not tray.is_open and panel.private_text not in texts(panel)
            steps += 1
        assert steps >= 3 and shot, f"only {steps} human steps, screenshot taken: {shot}"
        check_board(screen, key)
        app._end_game_screen()
        frames(1)

    run_scenarios({
        "maki_attract": lambda: attract("maki"),
        "maki_human_and_bot": lambda: human_and_bot("maki"),
        "wasabi_attract": lambda: attract("wasabi"),
        "wasabi_human_and_bot": lambda: human_and_bot("wasabi"),
    }, out)
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
