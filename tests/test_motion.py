"""Motion in the games and the attract mode that sells, in the real kiosk in a real window (Xvfb).

Every scenario runs in one child process with the real :class:`kiosk.app.KioskApp` (Kivy allows one App per
process; tests/test_ui.py owns the pytest process's), as in tests/test_screen_makoto.py. What is checked:

* an applied action starts its motion at once (a ghost on the window holding the piece that moves: the placed
  tile, the played cards), flying from the acting seat's zone towards where the piece goes;
* a touch during the motion acts at once: the next action is applied by a real touch while the ghost is still
  in flight, and the state has changed before any frame is drawn;
* motion leaves nothing behind: once it ends, the window holds exactly the widgets it held before;
* celebrations (a served or completed recipe, a Kensei, an order won) show a banner with their picture, facing
  the seat they celebrate, and go;
* Takoyaki's new order card flips in while its grill already takes fingers;
* Makoto's last three moves are in words at every seat, and fit at 1920x1080 and 1280x800;
* attract mode shows each game at a lively moment (Wasabi! past its drafting) with "Touch to play" at every
  edge, and takes it all away when a player arrives.

The headless tests at the end check the attract director's choice of a lively moment on the engines alone.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import ARTIFACTS, Finger, build_app, buttons, frames, run_child, run_scenarios, run_until, tick

pytestmark = pytest.mark.ui
#: The child's bound (real seconds: a hung child; the scenarios run on virtual time); the file's is a minute more.
CHILD_S = 600

HERE = Path(__file__).resolve()
SCENARIOS = [
    "maki_place_flies_and_touch_acts_at_once",
    "board_celebrations",
    "makoto_play_flies_kensei_and_log",
    "makoto_log_fits_both_sizes",
    "takoyaki_order_flips_in",
    "attract_lively_with_edge_calls",
]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(HERE, tmp_path_factory.mktemp("motion"), timeout=CHILD_S)


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(results: dict[str, Any], name: str) -> None:
    assert name in results, f"scenario {name} did not run; results: {sorted(results)}"
    assert results[name] == "ok", results[name]


# =============================================================================================== headless
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_wasabi_is_shown_past_its_drafting(seed: int) -> None:
    from kiosk.games import GAMES
    from kiosk.shell.lively import LIVELY_TILES, lively_start

    spec = GAMES["wasabi"]
    state, events = lively_start(spec, spec.new_game(4, seed), seed)
    view = state.view(None)
    assert view["phase"] not in ("give", "setup_recipes"), view["phase"]
    assert not state.is_over()
    assert sum(1 for v in view["board"] if v) >= LIVELY_TILES, "a board with tiles on it"
    assert events, "the last moves, for the screen's log"


@pytest.mark.parametrize("key", ["maki", "makoto", "takoyaki"])
def test_every_game_starts_at_a_watchable_moment(key: str) -> None:
    from kiosk.games import GAMES
    from kiosk.shell.lively import lively_start, watchable

    spec = GAMES[key]
    for seed in range(4):
        fresh = spec.new_game(4 if spec.max_players >= 4 else spec.max_players, seed)
        assert not watchable(fresh, 0), f"{key} as dealt is not yet the lively moment"
        state, _events = lively_start(spec, fresh, seed)
        assert not state.is_over()
        assert watchable(state, 99), f"{key} seed {seed}: not watchable"
        if key == "makoto":
            assert state.view(None)["current"] is not None, "cards on the table"
        if key == "takoyaki":
            view = state.view(None)
            assert view["order"] is not None and sum(view["moves"]) > 0, "mid-order"
            assert all(o is None for o in view["out"]), "every seat still racing"


# =============================================================================================== child
def ghosts() -> list[Any]:
    from kivy.core.window import Window

    from kiosk.ui.motion import Ghost

    return [w for w in Window.children if isinstance(w, Ghost)]


def pieces_in_flight(cls: type) -> list[Any]:
    return [c for g in ghosts() for c in g.walk(restrict=True) if isinstance(c, cls)]


def window_box(w: Any) -> tuple[float, float, float, float]:
    from kiosk.ui.motion import box_of

    return box_of(w)


def inside(point: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    x, y, w, h = box
    return x - 1 <= point[0] <= x + w + 1 and y - 1 <= point[1] <= y + h + 1


def settle() -> None:
    """Run the clock (undrawn frames, 1/30 virtual second each) until every motion has ended, then draw one."""
    from kiosk.ui import motion

    for _ in range(30 * 30):  # 30 virtual seconds at most: every motion here lasts under a second
        if not motion.active():
            break
        tick(1)
    assert motion.active() == 0, f"{motion.active()} motions still running after 30 virtual seconds"
    frames(1)


def half_way(ghost: Any, target: tuple[float, float, float, float]) -> None:
    """Run the clock (undrawn frames) until ``ghost`` has covered about half its way (2 virtual seconds at most)."""
    tx, ty, tw, th = target

    def left() -> float:
        return float(abs(ghost.center_x - (tx + tw / 2)) + abs(ghost.center_y - (ty + th / 2)))

    start = left()
    for _ in range(2 * 30):
        if left() <= start * 0.55:
            break
        tick(1)


def shot_mid_flight(name: str) -> Path:
    """A screenshot with every ghost stopped half-way (their animations cancelled), then the ghosts cleared."""
    from kivy.animation import Animation
    from kivy.core.window import Window

    from kiosk.ui import motion

    for g in ghosts():
        Animation.cancel_all(g)
        g.opacity = 1
    frames(2)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    made = Path(Window.screenshot(name=str(ARTIFACTS / f"{name}.png")))
    target = ARTIFACTS / f"{name}.png"
    made.replace(target)
    motion.clear()
    frames(1)
    return target


def child_main(tmp: Path, out: Path) -> None:
    from kivy.core.window import Window

    from kiosk.engine import Event
    from kiosk.games.makoto.pieces import MakotoCard
    from kiosk.ui import motion
    from kiosk.ui.pieces import Picture, Tile

    app = build_app(tmp / "state", bots={"move_delay_s": 0.0, "default_level": "easy"})

    def start(key: str, positions: list[str]) -> Any:
        if app.session is not None:
            app.launcher.end()
        app.director.stop()
        app.start_game(key, [(app.table.by_position(p).index, None) for p in positions], seed=3)
        frames(2)
        return app.session

    # ------------------------------------------------------------------------------------------- Maki
    def maki_place_flies_and_touch_acts_at_once() -> None:
        session = start("maki", ["south-west", "north-east"])
        screen = app.launcher.screen_for("maki")
        before = list(Window.children)
        placed = False
        for _ in range(60):
            st = session.state
            g = st.to_move()[0]
            panel = screen.panels[session.seats[g].index]
            tray = panel.ids.tray
            top = tray.to_window(tray.x + tray.width * 0.5, tray.y + tray.height * 0.96)
            if not tray.is_open:
                Finger(*top).up()  # a tap opens the tray
                tick(2)
            journal = len(st.journal)
            spots = [sq for t, sq, _a in screen._placements if t == screen.chosen] if screen.chosen else []
            pantry = [w for w in screen.ids.pantry.children if not w.disabled]
            if not spots:  # not a placement: take a tile, or the seat's first button; then on
                widget = pantry[-1] if pantry else buttons(panel, panel.labels[0])[0]
                Finger(*widget.to_window(*widget.center)).up()
                tick(2)
                assert len(session.state.journal) > journal, f"{widget} did not play ({panel.error})"
                settle()
                continue
            target = screen.tiles[spots[0]]
            Finger(*target.to_window(*target.center)).up()  # the touch places the tile at once (no frame, no tick)
            assert len(session.state.journal) == journal + 1, "the placement was applied by the touch"
            assert any(e.kind == "placed" for e in session.last_events), session.last_events
            # the placed tile is in flight at once: a Tile ghost of that ingredient, from the seat's zone
            kind = session.state.view(None)["board"][spots[0]]
            tiles = pieces_in_flight(Tile)
            assert motion.active() >= 1 and any(t.kind == kind for t in tiles), (kind, [t.kind for t in tiles])
            ghost = next(gh for gh in ghosts() if any(t.kind == kind for t in gh.children))
            assert 0.15 <= ghost.animation.duration <= 0.4, "a flight lasts 150-400 ms"
            assert inside(ghost.center, window_box(panel)), "it leaves from the acting seat's zone"
            tx, ty, tw, th = window_box(target)
            start_d = abs(ghost.center_x - (tx + tw / 2)) + abs(ghost.center_y - (ty + th / 2))
            # a touch during the flight acts at once: the next thing the seat can do (a tile, else a button)
            tick(1)
            assert ghost in ghosts(), "still in flight"
            if not tray.is_open:
                Finger(*top).up()
            journal = len(session.state.journal)
            pantry = [w for w in screen.ids.pantry.children if not w.disabled]
            widget = pantry[-1] if pantry else buttons(panel, panel.labels[0])[0]
            Finger(*widget.to_window(*widget.center)).up()
            assert len(session.state.journal) == journal + 1, f"{widget} acted at once during the motion"
            assert ghost in ghosts(), "(and the motion was still running)"
            frames(1)
            end_d = abs(ghost.center_x - (tx + tw / 2)) + abs(ghost.center_y - (ty + th / 2))
            assert end_d < start_d, "the tile flies towards its square"
            settle()
            # a screenshot mid-flight: fly one more tile from this seat and stop it half-way
            shown = motion.fly(Tile(kind=kind, category=target.category), panel, target, 0.4, size=tuple(target.size))
            half_way(shown, window_box(target))
            shot_mid_flight("motion_maki_flight")
            settle()
            placed = True
            break
        assert placed, "a tile was placed"
        assert motion.active() == 0
        assert list(Window.children) == before, "no widget left behind on the window"
        app.launcher.end()
        frames(1)

    def board_celebrations() -> None:
        for key, ev in (
            ("maki", Event("served", 0, {"recipe": 0, "name": "Maguro Nigiri", "style": False})),
            ("wasabi", Event("completed", 0, {"recipe": "California Roll", "length": 3, "style": True, "cubes": 1})),
        ):
            session = start(key, ["south-west", "east"] if key == "maki" else ["south-west", "east", "north-east"])
            screen = app.launcher.screen_for(key)
            before = list(Window.children)
            g = 0
            seat = session.seats[g]
            zone = screen.panels[seat.index]
            # the seat placed a tile this turn (the squares it touched glow), then completes a recipe
            cell = next(i for i, t in enumerate(screen.tiles) if not t.kind)
            field = "cell" if key == "maki" else "square"
            screen.animate_events([Event("placed", g, {"kind": "Rice", "tile": "Rice", field: cell})])
            screen.animate_events([ev])
            pics = [p.name for p in pieces_in_flight(Picture)]
            assert "party" in pics, pics
            banner = next(gh for gh in ghosts() if any(getattr(p, "name", "") == "party" for p in gh.walk()))
            assert banner.rotation == seat.rotation, "the banner faces the seat it celebrates"
            assert inside(banner.center, window_box(zone)), "over the seat's zone"
            glows = [gh for gh in ghosts() if not gh.children]
            assert glows and inside(glows[0].center, window_box(screen.tiles[cell])), "the touched square glows"
            assert 1.0 <= banner.animation.duration <= 2.0, "a celebration lasts 1-2 s"
            assert all(0.15 <= gh.animation.duration / 3 <= 0.4 + 1e-9 for gh in glows), "three pulses of 150-400 ms"
            settle()
            assert list(Window.children) == before, f"{key}: no widget left behind"
            app.launcher.end()
            frames(1)

    # ------------------------------------------------------------------------------------------- Makoto
    def makoto_play(session: Any, screen: Any) -> tuple[int, Any, list[Event]]:
        from kiosk.games.makoto.actions import Play

        st = session.state
        g = st.turn
        play = next(a for a in st.legal_actions(g) if isinstance(a, Play))
        panel = screen.panels[session.seats[g].index]
        screen.command(panel, play)
        return g, play, session.last_events

    def makoto_play_flies_kensei_and_log() -> None:
        from kiosk.games.makoto.actions import EndTurn
        from kiosk.games.makoto.words import makoto_event_text

        positions = ["south-west", "west", "north-east", "east"]
        session = start("makoto", positions)
        screen = app.launcher.screen_for("makoto")
        before = list(Window.children)
        g, play, events = makoto_play(session, screen)
        cards = pieces_in_flight(MakotoCard)
        assert sorted((c.number, c.kind) for c in cards) == sorted((c % 20, c // 20) for c in play.cards)
        assert all(c.face_up for c in cards), "played cards are public: face up in flight"
        panel = screen.panels[session.seats[g].index]
        sl = screen._slice_for(g)
        assert sl.edge == session.seats[g].edge, "into the slice facing the player"
        fan = sl.ids.centre.ids.fan
        gh = next(x for x in ghosts() if any(isinstance(c, MakotoCard) for c in x.children))
        assert inside(gh.center, window_box(panel))
        fx, fy, fw, fh = window_box(fan)
        d0 = abs(gh.center_x - (fx + fw / 2)) + abs(gh.center_y - (fy + fh / 2))
        # a touch during the flight acts at once: the same seat ends its turn (or passes) right away
        st = session.state
        t = st.turn
        nxt = EndTurn() if EndTurn() in st.legal_actions(t) else st.legal_actions(t)[0]
        journal = len(st.journal)
        screen.command(screen.panels[session.seats[t].index], nxt)
        assert len(session.state.journal) == journal + 1, "the next action acted at once"
        assert gh in ghosts(), f"(during the motion) {session.last_events} {motion.active()} {ghosts()}"
        frames(2)
        assert abs(gh.center_x - (fx + fw / 2)) + abs(gh.center_y - (fy + fh / 2)) < d0, "towards the centre"
        settle()
        assert list(Window.children) == before
        # the last moves in words, the same three at every seat, newest last (each seat's player names)
        said = [makoto_event_text(e, screen._who, str) for e in events]
        said += [makoto_event_text(e, screen._who, str) for e in session.last_events]
        for _ in range(4):
            st = session.state
            if st.is_over():
                break
            t = st.turn
            session.apply(t, st.legal_actions(t)[0])
            said += [makoto_event_text(e, screen._who, str) for e in session.last_events]
            tick(2)
        said = [s for s in said if s]
        assert len(said) >= 3
        assert all(any(seat.label in s for seat in session.seats) or s.startswith("The game") for s in said), said
        for p in screen.panels.values():
            if p.in_game:
                assert p.log.split("\n") == said[-3:], (p.log, said[-3:])
        # a Kensei: a banner with the crown on every slice, each facing its side; the player's zone glows
        settle()
        screen.animate_events([Event("played", g, {"cards": [3, 3, 3, 3], "combination": "x", "kensei": True})])
        crowns = [gh for gh in ghosts() if any(getattr(w, "name", "") == "kensei" for w in gh.walk())]
        assert sorted(c.rotation for c in crowns) == sorted(
            app.table.facing_edge_rotation(s.edge) for s in screen.slices
        ), [c.rotation for c in crowns]
        frames(1)
        shot_mid_flight("motion_makoto_kensei")
        settle()
        # a player out: a banner with the trophy at their seat
        screen.animate_events([Event("went_out", g, {"place": 1, "reward": 50})])
        assert "trophy" in [p.name for p in pieces_in_flight(Picture)]
        settle()
        assert list(Window.children) == before
        app.launcher.end()
        frames(1)

    def makoto_log_fits_both_sizes() -> None:
        from devtools.fit import check_tree

        try:
            for size in ((1920, 1080), (1280, 800)):
                Window.size = size
                frames(3)
                positions = ["south-west", "west", "north-east", "east"]
                session = start("makoto", positions)
                screen = app.launcher.screen_for("makoto")
                for _ in range(6):
                    st = session.state
                    if st.is_over():
                        break
                    t = st.turn
                    from kiosk.games.makoto.actions import Play

                    plays = [a for a in st.legal_actions(t) if isinstance(a, Play)]
                    session.apply(t, plays[-1] if plays else st.legal_actions(t)[0])  # long combinations
                    tick(2)
                settle()
                frames(3)
                logs = {
                    id(w)
                    for p in screen.panels.values()
                    if p.in_game
                    for w in p.walk()
                    if getattr(w, "text", None) == p.log and p.log
                }
                assert logs, "the log is on screen at every seat"
                problems = [pr for pr in check_tree(screen, size) if id(pr.widget) in logs]
                assert not problems, f"{size}: " + "; ".join(str(p) for p in problems)
                from conftest import screenshot

                screenshot(f"motion_makoto_log_{size[0]}x{size[1]}")
                app.launcher.end()
                frames(1)
        finally:
            Window.size = (1920, 1080)
            frames(3)

    # ------------------------------------------------------------------------------------------- Takoyaki
    def takoyaki_order_flips_in() -> None:
        session = start("takoyaki", ["south-west", "north-east"])
        screen = app.launcher.screen_for("takoyaki")
        before = list(Window.children)
        run_until(lambda: not screen.counting_down, 10, "the order to be revealed")
        cards = [p.ids.order for p in screen.panels.values() if p.in_game]
        assert cards and all(c.flip < 1 for c in cards), [c.flip for c in cards]
        grill = screen.panels[session.seats[0].index].ids.grill
        assert not grill.locked, "the grill takes fingers while the card flips"
        run_until(lambda: all(c.flip == 1 for c in cards), 10, "the flip to end")
        assert list(Window.children) == before
        app.launcher.end()
        frames(1)

    # ------------------------------------------------------------------------------------------- attract
    def attract_lively_with_edge_calls() -> None:
        from kiosk.shell.attractscreen import EdgeCall

        if app.session is not None:
            app.launcher.end()
        app.go_attract()
        frames(2)
        before = list(Window.children)
        app.director.rng.seed(4)  # the attract games' seeds: the same deals whatever ran before in this child
        for key in ("wasabi", "makoto", "maki", "takoyaki"):
            app.director.stop()
            session = app.director.start_game(key)
            frames(2)
            view = session.state.view(None)
            if key == "wasabi":
                assert view["phase"] not in ("give", "setup_recipes"), "past the drafting"
            if key == "makoto":
                assert view["current"] is not None, "cards on the table"
            if "board" in view:
                assert sum(1 for v in view["board"] if v) >= 6, "tiles on the board"
            calls = [w for w in app.root.walk() if isinstance(w, EdgeCall)]
            assert sorted(c.edge for c in calls) == ["bottom", "left", "right", "top"]
            # (the operator's corner, south-west, says "No operator PIN" instead: this table has none)
            assert all(c.text == app.cfg.attract.text for c in calls if c.edge != "bottom")
            assert [c.edge for c in calls if c.warn] == (["bottom"] if app.operator_marks else [])
            for c in calls:
                assert c.rotation == app.table.facing_edge_rotation(c.edge)
                x, y = c.center
                w, h = Window.size
                d = app.table.depth_px(w, h)
                near = {"bottom": y, "top": h - y, "left": x, "right": w - x}[c.edge]
                assert near < d, f"{c.edge} call sits at its edge"
                assert app.table.seat_at(x, y, w, h) is None, f"{c.edge} call covers no seat's zone (a corner)"
            from conftest import screenshot

            screenshot(f"motion_attract_{key}")
        # a player arrives: the calls and every ghost go
        Finger(960, 540).up()
        frames(3)
        assert app.mode != "attract"
        assert not [w for w in app.root.walk() if isinstance(w, EdgeCall)], "no call over the picker"
        assert motion.active() == 0 and list(Window.children) == before
        app.go_attract()
        frames(2)

    scenarios = {
        "maki_place_flies_and_touch_acts_at_once": maki_place_flies_and_touch_acts_at_once,
        "board_celebrations": board_celebrations,
        "makoto_play_flies_kensei_and_log": makoto_play_flies_kensei_and_log,
        "makoto_log_fits_both_sizes": makoto_log_fits_both_sizes,
        "takoyaki_order_flips_in": takoyaki_order_flips_in,
        "attract_lively_with_edge_calls": attract_lively_with_edge_calls,
    }
    only = os.environ.get("MOTION_ONLY")  # (a developer's shortcut: one scenario by name)
    run_scenarios({k: v for k, v in scenarios.items() if not only or only in k}, out)
    if app.session is not None:
        app.launcher.end()
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
