"""Every game played start to finish through touches only, from the human seat's own controls, in the real app
(Xvfb), with the touches of each of its turns counted (:mod:`devtools.touchplay`, which the touches benchmark
shares). One human seat (south-west) against a bot (Takoyaki: the one-player time trial); the human's moves
are what the game's easy bot would play, carried out by touching the screen's tiles, squares, cards and buttons.

The figures themselves are the benchmark's (``python -m benchmarks --only touches``); here: the game finishes,
every intended move was reachable by touch, the median of touches per turn meets the goal (at most 2, see
``MEDIAN_AT_MOST``), a Maki or Wasabi! tile placement never takes more than two touches (the tray opens by itself
at the turn's start), a Maki recipe is served and the next one drawn with one touch (after a 2-ingredient one, its
reward card's touch draws as well), and no turn needs an absurd number of touches.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import STEP, build_app, frames, run_child, run_for, run_scenarios, run_until, tick

pytestmark = pytest.mark.ui
#: The child's bound (real seconds: a hung child; the scenarios run on virtual time); the file's is a minute more.
CHILD_S = 600

HERE = Path(__file__).resolve()
GAMES = ["maki", "wasabi", "makoto", "takoyaki"]
#: The goal: a median of at most 2 touches per turn in every game. Wasabi! (a drag from the open tray, a Pantry
#: tile), Makoto (a quick play and End turn, or a pass) and Takoyaki (one gesture a move) are 2 or less by the shape
#: of their turns; Maki's turn is a drag and a Prep button, or a drag and a serve-and-draw button (2 both; a
#: 2-ingredient recipe's reward card, a teacup to move or a second recipe served add one).
MEDIAN_AT_MOST = {"maki": 2, "wasabi": 2, "makoto": 2, "takoyaki": 2}
#: The seed of every game here (the deal, the bot's and the human's intents): the figures depend on the deal. (A
#: Wasabi! deal where the human wins an action card early that its easy-bot intents never play has an End step
#: every turn after: 3 decisions, so 3 touches, a median of 3, as seeds 3, 6 and 8 deal; 1, 2, 4, 5, 7, 9, 10 do not.)
SEED = 1


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(HERE, tmp_path_factory.mktemp("touches"), timeout=CHILD_S)


@pytest.mark.parametrize(
    "key",
    GAMES,
)
def test_whole_game_by_touch(results: dict[str, Any], key: str) -> None:
    assert key in results, f"{key} did not run; results: {sorted(results)}"
    assert results[key] == "ok", results[key]


def test_tray_placement_in_two_touches(results: dict[str, Any]) -> None:
    assert results.get("placement") == "ok", results.get("placement")


def test_tray_opens_and_closes_by_tap_hold_time_and_turn(results: dict[str, Any]) -> None:
    assert results.get("tray") == "ok", results.get("tray")


@pytest.mark.parametrize("case", ["long", "two", "long_west"])
def test_maki_serve_and_draw_in_one_touch(results: dict[str, Any], case: str) -> None:
    assert results.get(f"serve_and_draw_{case}") == "ok", results.get(f"serve_and_draw_{case}")


# =============================================================================================== child
def child_main(tmp: Path, out: Path) -> None:
    from devtools.touchplay import play, summary

    app = build_app(tmp / "state", bots={"move_delay_s": 0.0, "default_level": "easy"})

    def game(key: str) -> None:
        log = play(app, key, seed=SEED, timeout=100.0)
        figures = summary(log)
        print(key, figures, log.turns, flush=True)
        assert log.finished, f"{key}: the game did not finish by touch ({figures})"
        assert log.turns and min(log.turns) >= 1, f"{key}: a turn without a touch ({log.turns})"
        assert max(log.turns) <= 40, f"{key}: a turn took {max(log.turns)} touches"
        assert figures["touches_median"] <= MEDIAN_AT_MOST[key], f"{key}: the median is over the goal ({figures})"
        assert figures["touches_median"] <= figures["decisions_median"], (
            f"{key}: more touches than decisions ({figures})"
        )
        frames(2)

    def placement() -> None:
        """A Maki tile from the Pantry onto a square in one drag; a Wasabi! hand tile in the tray then a square:
        two touches, the second one applying the placement at once."""
        from devtools.harness import Toucher
        from devtools.touchplay import start

        for key in ("maki", "wasabi"):
            sw, ne = app.table.by_position("south-west").index, app.table.by_position("north-east").index
            session = start(app, key, [(sw, None), (ne, "easy")], seed=SEED)
            screen = app.sm.current_screen
            panel = screen.panels[sw]
            g = session.game_seat_of(sw)
            bot = app.games[key].bots["easy"](g, 5)
            finger = Toucher()
            for _ in range(200):
                st = session.state
                if st.is_over():
                    raise AssertionError("no placement seen")
                if st.to_move() != [g]:
                    tick(1)  # waiting for the bots: no need to draw
                    continue
                finger.tick(2)
                kinds = {type(a).__name__ for a in st.legal_actions(g)}
                if key == "maki" and "Take" in kinds and screen.ids.pantry.children:
                    tile = screen.ids.pantry.children[-1]
                    cell = next(i for i, t in enumerate(st.view(None)["board"]) if not t)
                    target = screen.tiles[cell]
                    before = len(st.journal)
                    a, b = tile.to_window(*tile.center), target.to_window(*target.center)
                    finger.drag([a, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), b])
                    assert finger.count == 1 and len(session.state.journal) == before + 2, "take and place: one drag"
                    assert session.state.view(None)["board"][cell] == tile.kind
                    break
                if key == "wasabi" and "Place" in kinds and len(panel.ids.hand.children) > 1:
                    tray = panel.ids.tray
                    assert tray.is_open, "the tray opened by itself when the seat's turn started"
                    tile = panel.ids.hand.children[-1]
                    finger.tap(tile)
                    assert screen.chosen == tile.kind and tile.selected
                    marked = {i for i, t in enumerate(screen.tiles) if t.eligible}
                    want = {sq for t, sq, _a in screen._placements if t == tile.kind}
                    assert marked == want, "the chosen tile's squares are marked"
                    before = len(st.journal)
                    finger.tap(screen.tiles[min(want)])
                    assert len(session.state.journal) == before + 1, "the square tap placed it"
                    assert session.state.view(None)["board"][min(want)][-1] == tile.kind
                    assert finger.count == 2, "the tile, the square"
                    break
                session.apply(g, bot.choose(st))
                frames(1)
            app.launcher.end()
            frames(2)

    def tray() -> None:
        """The private tray: it opens by itself when the human seat's turn starts; a tap on it closes it; a tap
        opens it and it stays open; a hold closes on release; it closes by itself after a while without a touch at
        the seat (a touch in the seat's zone waits longer); the idle table hides it (and it stays closed for the
        rest of that turn); the passing turn closes it and the seat's next turn opens it again; a bot's tray never
        opens; open(), close() and toggle() do the same."""
        from devtools.harness import Toucher
        from devtools.touchplay import start

        sw, ne = app.table.by_position("south-west").index, app.table.by_position("north-east").index
        session = start(app, "wasabi", [(sw, None), (ne, "easy")], seed=SEED)
        screen = app.sm.current_screen
        panel = screen.panels[sw]
        tray = panel.ids.tray
        g = session.game_seat_of(sw)
        run_until(lambda: session.state.to_move() == [g], 10, "the human's turn")
        tick(2)
        finger = Toucher()
        assert tray.is_open and tray.latched, "the tray opens by itself when the seat's turn starts"
        finger.tap(tray, 0.5, 0.97)
        assert not tray.is_open, "a tap on the open tray closes it"
        run_for(0.3)
        assert not tray.is_open, "closed by the player, it stays closed for the rest of the turn"
        finger.tap(tray, 0.5, 0.97)
        assert tray.is_open and tray.latched, "a tap opens the tray"
        run_for(0.6)
        assert tray.is_open, "it stays open after the tap"
        finger.tap(tray, 0.5, 0.97)
        assert not tray.is_open, "a tap on the open tray closes it"
        # a hold: open while the finger is down, closed on its release
        from kivy.tests.common import UnitTestTouch

        t = UnitTestTouch(*tray.to_window(tray.x + tray.width * 0.5, tray.y + tray.height * 0.97))
        t.touch_down()
        tick(2)
        assert tray.is_open and panel.hand_visible(), "the hand (its recipes, cards and tiles, drawn) shows while held"
        run_for(tray.HOLD_S + 0.1)
        t.touch_up()
        tick(2)
        assert not tray.is_open, "the release of a hold closes the tray"
        # by itself after a while with no touch at the seat; a touch in the zone makes it wait longer (measured on
        # the kiosk's clock, virtual here: each frame is STEP seconds whatever the machine's speed)
        from kiosk import clock

        wait = 3.0
        closes: list[float] = []

        def closed_now() -> bool:
            if not tray.is_open and not closes:
                closes.append(clock.now())
            return bool(closes)

        tray.AUTO_CLOSE_S = wait
        try:
            opened = clock.now()
            finger.tap(tray, 0.5, 0.97)
            assert tray.is_open
            run_for(wait * 0.6)
            assert tray.is_open, f"still open {wait * 0.6:.1f} s into a {wait:.0f} s wait"
            touched = clock.now()
            if panel.ids.hand.children:  # a touch at the seat (its column steps aside while the tray is open)
                finger.tap(panel.ids.hand.children[-1])
            else:
                finger.tap(next(b for b in panel.ids.tray.walk(restrict=True) if getattr(b, "text", "") == "\u25b6"))
            run_until(closed_now, wait * 3, "the tray closing by itself")
        finally:
            del tray.AUTO_CLOSE_S
        closed = closes[0]
        print(f"tray: opened {opened:.3f} touched {touched:.3f} closed {closed:.3f}", flush=True)
        assert closed - opened > wait + wait * 0.6 - STEP, (
            "a touch at the seat restarts the wait (not closed on the first)"
        )
        assert wait - STEP <= closed - touched <= wait + 3 * STEP, (
            f"it closes a wait after the last touch ({closed - touched:.3f} s)"
        )
        # the table goes idle: the hand hides, and stays hidden for the rest of this turn
        tray.open()
        screen.hide_private()
        tick(2)
        assert not tray.is_open, "the idle table hides the tray"
        # the other seat's tray is not touched by any of it; a bot's tray never opens
        assert not screen.panels[ne].ids.tray.is_open
        finger.tap(screen.panels[ne].ids.tray, 0.5, 0.5)
        assert not screen.panels[ne].ids.tray.is_open, "a bot's tray never opens"
        # open(), toggle(), close()
        tray.open()
        assert tray.is_open
        tray.toggle()
        assert not tray.is_open
        tray.toggle()
        assert tray.is_open
        tray.close()
        assert not tray.is_open
        # the turn passes: an open tray closes
        tray.open()
        bot = app.games["wasabi"].bots["easy"](g, 2)
        for _ in range(40):
            if session.state.to_move() != [g]:
                break
            session.apply(g, bot.choose(session.state))
            tick(2)
        assert session.state.to_move() != [g]
        tick(2)
        assert not tray.is_open, "the passing turn closes the tray"
        run_until(lambda: session.state.to_move() == [g], 10, "the human's next turn")
        tick(2)
        assert tray.is_open, "the seat's next turn opens its tray again"
        assert not screen.panels[ne].ids.tray.is_open, "a bot's tray never opens"
        app.go_attract()
        frames(2)

    def serve_and_draw(case: str, position: str = "south-west") -> None:
        """Maki: a recipe served and the next one drawn with one touch. The position (the human's turn, a recipe
        ready to serve: ``long`` one of 3 or more ingredients, ``two`` a 2-ingredient one with action cards on
        display) is reached by easy bots playing both seats, then launched at the table with the human at
        ``position`` (a long edge, or a short one: the group fits both, at both window sizes). Per recipe the tray
        offers a group "Serve <name>, then Draw:" with one button per non-empty deck, and the plain Serve.
        ``long``: one tap serves, draws from the deck chosen (the last one offered, not the first) and the hand is
        three again; ``two``: the tap serves, the reward card is chosen next (the prompt says the draw follows),
        and that tap draws from the chosen deck by itself: two touches for three decisions."""
        from devtools.harness import Toucher
        from devtools.touchplay import _buttons
        from kiosk.board.twostep import Then
        from kiosk.games.maki.rules import RECIPES, Draw, Gain, Serve

        spec = app.games["maki"]
        sw, ne = app.table.by_position(position).index, app.table.by_position("north-east").index
        st = spec.new_game(2, 1)
        bots = [spec.bots["easy"](g, 7 + g) for g in range(2)]
        serve = None
        for _ in range(400):
            assert not st.is_over(), "no such position in this game"
            g = st.to_move()[0]
            if g == 0:
                serve = next(
                    (
                        a
                        for a in st.legal_actions(0)
                        if isinstance(a, Serve)
                        and (RECIPES[a.recipe].length == 2) == (case == "two")
                        and (case == "long" or st.view(None)["display"])
                    ),
                    None,
                )
                if serve is not None:
                    break
            st.apply(g, bots[g].choose(st))
        assert serve is not None
        app.go_attract()
        frames(2)
        app.launcher.launch(spec, st, [(sw, None), (ne, "easy")], 1, None, {})
        session = app.session
        run_until(lambda: app.sm.current_screen.session is session and not app.sm.transition.is_active, 10, "maki")
        session.pause()  # the bot's turn after the human's does not come while the human's is checked
        screen = app.sm.current_screen
        panel = screen.panels[sw]
        run_until(lambda: panel.ids.tray.is_open and panel.actions, 10, "the human's tray with its buttons")
        frames(2)
        decks = {int(k): d["count"] for k, d in session.state.view(None)["decks"].items()}
        hand = len(session.state.view(0)["hands"][0])
        combos = [a for a in panel.actions if isinstance(a, Then) and a.first == serve]
        assert [c.then for c in combos] == [Draw(n) for n in sorted(decks) if decks[n]], panel.labels
        assert serve in panel.actions, "the plain Serve stays, for serving another recipe before drawing"
        assert panel.actions.index(combos[0]) < panel.actions.index(serve)
        choice = combos[-1]
        n = choice.then.length  # type: ignore[attr-defined]
        assert panel.describe(choice).endswith(f", then Draw {n}"), panel.describe(choice)
        if case == "long":  # the group fits (nothing cut, readable text, touch targets) at both sizes
            from kivy.core.window import Window

            from devtools.fit import check_tree

            screenshot_tray(f"maki_serve_and_draw_{position}")
            problems = [f"1920x1080: {p}" for p in check_tree(panel, (1920, 1080))]
            try:
                Window.size = (1280, 800)
                frames(4)
                tick(3)
                frames(2)
                problems += [f"1280x800: {p}" for p in check_tree(panel, (1280, 800))]
                screenshot_tray(f"maki_serve_and_draw_{position}_1280")
            finally:
                Window.size = (1920, 1080)
                frames(4)
                tick(3)
                frames(2)
            assert not problems, "\n".join(str(p) for p in problems)
            if not panel.ids.tray.is_open:  # the screenshots and resizes took longer than the tray's AUTO_CLOSE_S
                panel.ids.tray.open()
                frames(2)
        button = next((b for b in _buttons(panel.ids.tray) if getattr(b, "action", None) == choice), None)
        assert button is not None, f"{choice} is on the tray's first page ({panel.labels})"
        assert button.text == str(n), button.text
        header = f"{panel.describe(serve)}, then Draw:"
        assert header in panel.labels and header in [getattr(w, "text", "") for w in panel.walk(restrict=True)]
        finger = Toucher()
        before = len(session.state.journal)
        finger.tap(button)
        tick(2)
        if case == "two":
            assert session.state.to_move() == [0], "the reward card comes first"
            gains = [a for a in session.state.legal_actions(0) if isinstance(a, Gain)]
            assert gains and panel.actions == gains, (panel.labels, gains)
            assert f"Draw {n} follows by itself" in panel.prompt, panel.prompt
            assert decks == {int(k): d["count"] for k, d in session.state.view(None)["decks"].items()}, "not yet"
            gain = next(b for b in _buttons(panel.ids.tray) if getattr(b, "action", None) == gains[-1])
            finger.tap(gain)
            tick(2)
        records = session.state.journal[before:]
        mine = [r["action"]["type"] for r in records if r.get("seat") == 0]
        want = ["Serve", "Draw"] if case == "long" else ["Serve", "Gain", "Draw"]
        assert mine == want, records
        assert finger.count == (1 if case == "long" else 2), finger.count
        after = {int(k): d["count"] for k, d in session.state.view(None)["decks"].items()}
        assert after == {k: v - (k == n) for k, v in decks.items()}, (decks, after, n)
        assert len(session.state.view(0)["hands"][0]) == hand == 3, "the hand is back to three"
        assert session.state.to_move() == [1], "the turn passed"
        assert not panel.ids.tray.is_open and screen._then is None
        app.launcher.end()
        frames(2)

    def screenshot_tray(name: str) -> None:
        from conftest import screenshot

        screenshot(name)

    scenarios = {
        **{key: (lambda k=key: game(k)) for key in GAMES},
        "placement": placement,
        "tray": tray,
        "serve_and_draw_long": lambda: serve_and_draw("long"),
        "serve_and_draw_two": lambda: serve_and_draw("two"),
        "serve_and_draw_long_west": lambda: serve_and_draw("long", "west"),
    }
    run_scenarios(scenarios, out)


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
