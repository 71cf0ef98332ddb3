"""The Takoyaki seat panel's look at both window sizes, in a real Kivy window (Xvfb in CI): the longest words it
shows fit, its grill spaces are touch targets, and the letters of every ball (on the grill and on the order card)
are at least the type scale's minimum and inside their ball, apart from their neighbours'. At a long edge of the
1920x1080 table the grill takes the zone's whole depth: its spaces are well above a touch target and no unused gap
is left between the order card and the grill (the words' column stands between them).

The fit test (``test_fit_screens.py``) sees the panel at whatever moment attract mode and the tour happen to show;
here every seat of a four-seat game (two long edges, two short) shows each of its longest texts in turn. One child
process (this file run as a script, see ``conftest.py``); screenshots go to ``artifacts/``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import build_app, frames, run_child, run_scenarios, run_until, screenshot

pytestmark = pytest.mark.ui
#: The child's bound (real seconds: a hung child; the scenarios run on virtual time); the file's is a minute more.
CHILD_S = 600

HERE = Path(__file__).resolve()
SIZES = ("1920x1080", "1280x800")
SEATS = ["south-west", "west", "north-east", "east"]
#: The longest words a panel shows: messages (an order won, nobody made it, the engine's refusals), hint mode's
#: longest line with the time trial's clock, and the status.
MESSAGES = [
    "Nobody made it: the order is set aside",
    "\u2714 TAKOYAKI! Order won in 1:02.3",
    "That space is taken: push the ball onto an empty space",
    "You are out of this order (ball picked up): wait for the next card",
]
PROMPT = "Hint: push the green ball away from you"
#: How much larger than a touch target a grill space is at a long edge where the wide layout is taken.
LONG_EDGE_MARGIN = 1.2
#: The most unused width left between the order card and the grill (words' column aside), as a share of the panel.
MAX_GAP_SHARE = 0.05
SCENARIOS = [f"{what}_{size}" for size in SIZES for what in ("words_fit", "balls_and_spaces", "out_veil_fits")]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(HERE, tmp_path_factory.mktemp("takoyaki-look"), timeout=CHILD_S)


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(results: dict[str, Any], name: str) -> None:
    assert name in results, f"scenario {name} did not run; results: {sorted(results)}"
    assert results[name] == "ok", results[name]


def child_main(tmp: Path, out: Path) -> None:
    from kivy.core.window import Window

    from devtools.fit import check_tree, report
    from kiosk.games.takoyaki.actions import Fault, Turn
    from kiosk.ui.typescale import min_target_px, min_text_px

    app = build_app(tmp / "state")
    screen = app.launcher.game_screens["takoyaki"]
    screen.COUNTDOWN_S = 0.3
    screen.BETWEEN_S = 0.2

    def start() -> Any:
        if app.session is not None:
            app.launcher.end()
        app.start_game("takoyaki", [(app.table.by_position(p).index, None) for p in SEATS], seed=4)
        run_until(lambda: not screen.counting_down, 5, "the countdown")
        session = app.session
        for g in range(len(SEATS)):  # a fried ball on every grill (upper case on its disc) beside raw ones
            assert screen.human_action(g, Turn(8)), g
        frames(3)
        return session

    def panels() -> list[Any]:
        return [screen.panels[app.table.by_position(p).index] for p in SEATS]

    def problems() -> list[Any]:
        frames(4)
        return check_tree(Window, (float(Window.width), float(Window.height)))

    def resize(size: str) -> None:
        w, h = (int(v) for v in size.split("x"))
        Window.size = (w, h)
        run_until(lambda: tuple(Window.size) == (w, h), 5, f"the window at {size}", settle=4)

    def words_fit(size: str) -> None:
        resize(size)
        start()
        for p in panels():
            p.orders_text = "Orders 4/5  " + "\u2605" * 4
        cases = [{"message": m, "prompt": "", "clock_text": ""} for m in MESSAGES]
        cases.append({"message": "", "prompt": PROMPT, "clock_text": "1:02.3"})
        cases.append({"message": "", "prompt": "", "clock_text": "1:02.3"})
        for case in cases:
            for p in panels():
                for key, value in case.items():
                    setattr(p, key, value)
            found = problems()
            assert not found, f"{case}:\n{report(found)}"
        screenshot(f"takoyaki_look_words_{size}")
        for p in panels():
            p.message = p.prompt = p.clock_text = ""

    def balls_and_spaces(size: str) -> None:
        resize(size)
        start()
        target, least = min_target_px(Window.size), min_text_px(Window.size)
        for p in panels():
            grill, card = p.ids.grill, p.ids.order
            assert grill.cell >= target - 0.5, f"{p.seat.position}: grill space {grill.cell:.1f} px < {target}"
            balls = [b for b in grill.balls if b.space >= 0] + list(card.balls)
            assert len(card.balls) == 6 and all(b in card.children for b in card.balls), "the order card is shown"
            assert any(b.fried for b in grill.balls if b.space >= 0), "a fried ball on the grill"
            for b in balls:
                label = b.children[0]
                assert label.text == b.letter and label.font_size >= least - 0.05, (b.letter, label.font_size)
                # the letter's box inside its ball (both in the ball's parent's coordinates)
                assert b.x <= label.x and label.right <= b.right, (p.seat.position, b.letter, label.pos, b.pos)
                assert b.y <= label.y and label.top <= b.top, (p.seat.position, b.letter, label.pos, b.pos)
            for group in ([b for b in grill.balls if b.space >= 0], card.balls):
                for i, a in enumerate(group):
                    for c in group[i + 1 :]:
                        apart = ((a.center_x - c.center_x) ** 2 + (a.center_y - c.center_y) ** 2) ** 0.5
                        assert apart >= a.width - 0.5, f"{p.seat.position}: two balls overlap ({apart:.1f} px)"
        short_cell = min(p.ids.grill.cell for p in panels() if p.seat.edge in ("left", "right"))
        for p in panels():
            if p.seat.edge not in ("top", "bottom"):
                continue
            grill, card, words = p.ids.grill, p.ids.order, p.ids.words
            # the width between card and grill that nothing uses (the words' column, when it stands there)
            between = grill.gx - card.right
            if words.y < card.top and words.top > card.y:
                between -= max(0.0, min(words.right, grill.gx) - max(words.x, card.right))
            print(f"{size} {p.seat.position}: space {grill.cell:.1f} px, unused {between:.0f} of {p.width:.0f} px")
            assert grill.cell >= short_cell - 0.5, f"{p.seat.position}: a long edge's spaces smaller than a short's"
            if size == "1920x1080":  # the wide layout (at 1280x800 a long edge is too narrow for it)
                assert p.layout.wide, p.seat.position
                assert grill.cell >= target * LONG_EDGE_MARGIN, f"{p.seat.position}: space {grill.cell:.1f} px"
                assert between <= p.width * MAX_GAP_SHARE, f"{p.seat.position}: {between:.0f} px unused"
                assert grill.gy >= 0 and grill.gy + grill.cell * 3 <= p.height, "the grill inside the zone"
                assert p.ids.pad.right <= grill.gx and p.ids.pad.y < card.y, "the claim pad by the player, beside"
        found = problems()
        assert not found, report(found)
        screenshot(f"takoyaki_look_balls_{size}")

    def out_veil_fits(size: str) -> None:
        resize(size)
        start()
        for g in range(len(SEATS) - 1):  # one seat still racing: the order stays
            assert screen.human_action(g, Fault("ball_picked_up")), g
        frames(3)
        assert any(p.out_text for p in panels()), "seats are out"
        found = problems()
        assert not found, report(found)

    scenarios = {}
    for size in SIZES:
        scenarios[f"words_fit_{size}"] = lambda s=size: words_fit(s)
        scenarios[f"balls_and_spaces_{size}"] = lambda s=size: balls_and_spaces(s)
        scenarios[f"out_veil_fits_{size}"] = lambda s=size: out_veil_fits(s)
    run_scenarios(scenarios, out)
    resize("1920x1080")
    app.launcher.end()
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
