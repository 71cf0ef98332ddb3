"""Every game played start to finish through touches only, from the human seat's own controls, in the real app
(Xvfb), with the touches of each of its turns counted (:mod:`kiosk.ui.touchplay`, which the touches benchmark
shares). One human seat (south-west) against a bot (Takoyaki: the one-player time trial); the human's moves
are what the game's easy bot would play, carried out by touching the screen's tiles, squares, cards and buttons.

The figures themselves are the benchmark's (``python -m benchmarks --only touches``); here: the game finishes,
every intended move was reachable by touch, a Maki or Wasabi! tile placement never takes more than two touches,
and no turn needs an absurd number of touches.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import build_app, frames, run_child, run_scenarios, run_until

pytestmark = pytest.mark.ui

HERE = Path(__file__).resolve()
GAMES = ["maki", "wasabi", "makoto", "takoyaki"]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(HERE, tmp_path_factory.mktemp("touches"), timeout=290)


@pytest.mark.parametrize("key", GAMES)
def test_whole_game_by_touch(results: dict[str, Any], key: str) -> None:
    assert key in results, f"{key} did not run; results: {sorted(results)}"
    assert results[key] == "ok", results[key]


def test_tray_placement_in_two_touches(results: dict[str, Any]) -> None:
    assert results.get("placement") == "ok", results.get("placement")


# =============================================================================================== child
def child_main(tmp: Path, out: Path) -> None:
    from kiosk.ui.touchplay import play, summary

    app = build_app(tmp / "state", bots={"move_delay_s": 0.0, "default_level": "easy"})

    def game(key: str) -> None:
        log = play(app, key, timeout=100.0)
        figures = summary(log)
        print(key, figures, flush=True)
        assert log.finished, f"{key}: the game did not finish by touch ({figures})"
        assert log.turns and min(log.turns) >= 1, f"{key}: a turn without a touch ({log.turns})"
        assert max(log.turns) <= 40, f"{key}: a turn took {max(log.turns)} touches"
        frames(2)

    def placement() -> None:
        """A Maki tile from the Pantry onto a square in one drag; a Wasabi! hand tile in the tray then a square:
        two touches, the second one applying the placement at once."""
        from kiosk.ui.touchplay import Toucher

        for key in ("maki", "wasabi"):
            sw, ne = app.table.by_position("south-west").index, app.table.by_position("north-east").index
            app.go_attract()
            frames(2)
            app.start_game(key, [(sw, None), (ne, "easy")])
            screen = app.launcher.screen_for(key)
            name = screen.name
            run_until(lambda: app.sm.current == name, 10, f"the {key} screen")  # noqa: B023 (used at once)
            session = app.launcher.session
            panel = screen.panels[sw]
            g = session.game_seat_of(sw)
            bot = app.games[key].bots["easy"](g, 5)
            finger = Toucher()
            for _ in range(200):
                st = session.state
                if st.is_over():
                    raise AssertionError("no placement seen")
                if st.to_move() != [g]:
                    frames(1)
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
                    finger.tap(tray, 0.5, 0.97)
                    assert tray.is_open, "a tap opens the tray"
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
                    assert finger.count == 3, "open the tray, the tile, the square"
                    break
                session.apply(g, bot.choose(st))
                frames(1)
            app.launcher.end()
            frames(2)

    run_scenarios({**{key: (lambda k=key: game(k)) for key in GAMES}, "placement": placement}, out)


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
