"""Bugs a passer-by saw, each a scenario in the real kiosk (one child process, as in tests/conftest.py):

* attract mode: the high-score boards never drew (their panels were taken out of the tree when the screen was
  built and then garbage-collected), the "Sushi Table" title vanished after the first cycle (the same), and the
  resume offer showed its buttons without the question, at one edge only;
* results: the initials "OK" button drew as "O" over "K" and the letter arrows were 28x59 px at 1280x800;
* Takoyaki: a dragged ball's shadow stayed on the grill across orders;
* a bot's seat showed a large empty dashed box labelled "Bot" (every seat in attract mode): now the bot's picture.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import Finger, build_app, frames, run_child, run_scenarios, run_until, screenshot

pytestmark = pytest.mark.ui
#: The child's bound (real seconds: a hung child; the scenarios run on virtual time); the file's is a minute more.
CHILD_S = 600

HERE = Path(__file__).resolve()
SCENARIOS = [
    "attract_boards_draw_every_cycle",
    "attract_title_comes_back",
    "resume_offer_asks_at_both_sides",
    "results_initials_fit_at_1280x800",
    "takoyaki_no_shadow_left_behind",
    "bot_seat_shows_the_bot",
]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(HERE, tmp_path_factory.mktemp("look-screens"), timeout=CHILD_S)


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(results: dict[str, Any], name: str) -> None:
    assert name in results, f"scenario {name} did not run; results: {sorted(results)}"
    assert results[name] == "ok", results[name]


# =============================================================================================== child
def on_screen_texts(root: Any) -> list[str]:
    from kivy.uix.label import Label

    return [w.text for w in root.walk(restrict=True) if isinstance(w, Label) and w.get_root_window() is not None]


def child_main(tmp: Path, out: Path) -> None:
    app = build_app(tmp / "state")
    director = app.director

    def step_to(kind: str, key: str | None) -> None:
        app.go_attract()
        frames(1)
        director.jump_to(kind, key, hold=True)
        frames(2)

    def attract_boards_draw_every_cycle() -> None:
        for i, name in enumerate(["AKI", "BEN", "CHO"]):
            app.scores.add("makoto", name, 40 - 5 * i)
        for _cycle in range(2):
            gc.collect()  # what the garbage collector does some time after the screen is built
            step_to("boards", "makoto")
            texts = on_screen_texts(app.attract_screen)
            assert app.attract_screen.phase == "boards"
            assert sum("AKI" in t for t in texts) == 4, ("both boards at both long sides", texts)
            assert sum("Today's best" in t for t in texts) == 2, texts
            step_to("call", None)
        screenshot("attract_boards_fixed")

    def attract_title_comes_back() -> None:
        for _cycle in range(3):
            step_to("call", None)
            gc.collect()
            texts = on_screen_texts(app.attract_screen)
            assert sum("Sushi Table" in t for t in texts) == 2, ("the title at both long sides", texts)
            step_to("boards", "makoto")
            gc.collect()
        step_to("call", None)
        screenshot("attract_call_fixed")

    def resume_offer_asks_at_both_sides() -> None:
        step_to("call", None)
        gc.collect()
        question = "Resume the Makoto game from 14:05?"
        app.attract_screen.show_offer(question)
        frames(2)
        texts = on_screen_texts(app.attract_screen)
        assert texts.count(question) == 2, ("the question at both long sides", texts)
        assert texts.count("Resume \u25b6") == 2 and texts.count("No, new game") == 2, texts
        screenshot("attract_offer_fixed")
        app.attract_screen.hide_offer()
        frames(1)
        assert question not in on_screen_texts(app.attract_screen)

    def results_initials_fit_at_1280x800() -> None:
        """A human's score that qualifies asks for initials (and the pad fits at 1280x800, at a long and a short
        edge); a trivial one (under a third of the winner's) does not. The games are seeded: the same ones every
        run; seeds are tried in order until each edge has seen a qualifying score and the table a trivial one."""
        from kivy.core.window import Window

        from devtools.fit import check_tree
        from kiosk.shell.results import trivial_score

        Window.size = (1280, 800)
        frames(3)
        seen_trivial = False
        try:
            for position in ("south-west", "west"):
                seat = app.table.by_position(position)
                other = app.table.by_position("north-east")
                for seed in range(1, 13):
                    app.scores.reset("makoto")  # an empty board: any score that is not trivial qualifies
                    app.start_game("makoto", [(seat.index, None), (other.index, "random")], seed=seed)
                    session = app.session
                    g = session.game_seat_of(seat.index)
                    bot = app.games["makoto"].bots["random"](g, seed)
                    # the human's moves chosen by a bot, through the session, to the end of the game

                    def play(session: Any = session, g: int = g, bot: Any = bot) -> bool:
                        st = session.state
                        if app.mode == "game" and not st.is_over() and st.to_move() == [g]:
                            session.apply(g, bot.choose(st))
                        return app.mode == "results"

                    run_until(play, 300, "the results screen")
                    pad = app.results.pads[seat.index]
                    final = session.state.scores()
                    trivial = trivial_score(final[g], None, max(final), False)
                    assert pad.entering == (not trivial), (seed, final, g, pad.entering)
                    seen_trivial = seen_trivial or trivial
                    if not trivial:
                        frames(3)
                        problems = [
                            p for p in check_tree(pad, (1280, 800)) if p.kind in ("cut", "small_target", "overlap")
                        ]
                        assert not problems, "\n".join(str(p) for p in problems)
                        screenshot(f"results_initials_{position}_1280x800")
                    app.go_attract()
                    frames(2)
                    if not trivial and (seen_trivial or position == "south-west"):
                        break
                else:
                    raise AssertionError(f"no seed gave both a qualifying and a trivial score at {position}")
            assert seen_trivial, "a trivial score was seen (and asked for no initials)"
        finally:
            app.scores.reset("makoto")
            Window.size = (1920, 1080)
            frames(3)

    def takoyaki_no_shadow_left_behind() -> None:
        seat = app.table.by_position("south-west")
        app.start_game("takoyaki", [(seat.index, None)], seed=8)
        screen = app.launcher.game_screens["takoyaki"]
        grill = screen.panels[seat.index].ids.grill
        run_until(lambda: not grill.locked, 10, "the first order revealed")
        s = next(i for i, c in enumerate(grill.cells) if c)
        x, y = grill.space_center(s)
        finger = Finger(*grill.to_window(x, y))
        finger.move(*grill.to_window(x + grill.cell * 0.2, y + grill.cell * 0.1))
        frames(1)
        assert any(b.dragging for b in grill.balls), "a finger drags a ball: its shadow shows"
        # the game ends while the finger is still down (the table went back to attract mode), then a new game
        app.go_attract()
        frames(2)
        app.start_game("takoyaki", [(seat.index, None)], seed=8)
        frames(3)
        assert not any(b.dragging for b in grill.balls), "no ball keeps a dragged ball's shadow"
        placed = sorted(grill.space_at(*b.center) for b in grill.balls if b.parent is not None)
        assert placed == [i for i, c in enumerate(grill.cells) if c], ("every ball sits on its space", placed)
        finger.up()  # the old finger lifts at last: nothing happens
        frames(1)
        assert not any(b.dragging for b in grill.balls)
        app.go_attract()
        frames(2)

    def bot_picture_drawn(tray: Any) -> tuple[float, Any]:
        """The alpha and the rectangle of the tray's bot picture (the textured rectangle of its canvas.after)."""
        from kivy.graphics import Color, Rectangle

        alpha, found = 0.0, None
        for ins in tray.canvas.after.children:
            if isinstance(ins, Color):
                alpha = ins.a
            elif isinstance(ins, Rectangle) and ins.texture is not None:
                found = ins
        return alpha, found

    def bot_seat_shows_the_bot() -> None:
        from kivy.uix.label import Label

        sw, ne = app.table.by_position("south-west").index, app.table.by_position("north-east").index
        for key in ("maki", "wasabi", "makoto"):
            app.start_game(key, [(sw, None), (ne, "easy")], seed=9)
            screen = app.launcher.game_screens[key]
            run_until(lambda s=screen: s.panels[ne].ids.tray.bot, 10, f"{key}: the bot's seat set up")
            frames(2)
            bot, human = screen.panels[ne].ids.tray, screen.panels[sw].ids.tray
            assert bot.locked and not bot.is_open and not human.bot
            assert bot.bot_picture.endswith("/bot") and human.bot_picture == ""
            words = [w.text for w in bot.walk(restrict=True) if isinstance(w, Label) and w.opacity > 0]
            assert not any(t.strip() == "Bot" for t in words), ("no 'Bot' box label any more", words)
            alpha, rect = bot_picture_drawn(bot)
            if key == "makoto":  # its closed tray shows the last moves there instead
                assert alpha == 0 and not bot.bot_mark, alpha
            else:
                u = app.u
                assert alpha > 0.5 and rect is not None, (key, alpha, rect)
                x, y = rect.pos
                w, h = rect.size
                assert w == h and 60 * u <= w <= 140 * u, (key, rect.size)
                assert bot.x <= x and x + w <= bot.right and bot.y <= y and y + h <= bot.top, (key, rect.pos)
                assert abs(x + w / 2 - bot.center_x) < 1 and abs(y + h / 2 - bot.center_y) < 1, "in its middle"
            h_alpha, _ = bot_picture_drawn(human)
            assert h_alpha == 0, "a human's tray shows no bot"
            screenshot(f"bot_seat_{key}")
            app.go_attract()
            frames(2)

    run_scenarios(
        {
            "attract_boards_draw_every_cycle": attract_boards_draw_every_cycle,
            "attract_title_comes_back": attract_title_comes_back,
            "resume_offer_asks_at_both_sides": resume_offer_asks_at_both_sides,
            "results_initials_fit_at_1280x800": results_initials_fit_at_1280x800,
            "takoyaki_no_shadow_left_behind": takoyaki_no_shadow_left_behind,
            "bot_seat_shows_the_bot": bot_seat_shows_the_bot,
        },
        out,
    )
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
