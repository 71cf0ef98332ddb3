"""The Maki and Wasabi! boards drawn, not written, in a real Kivy window (Xvfb), in one child process.

Per game and per window size (1920x1080, 1280x800), with a human at a long edge and bots elsewhere, the human's
moves chosen by a bot (so a game moves fast) and checked after each step of the human's turn:

* the human's tray draws its recipes as RecipeCards: the names and ingredients of ``view(seat)``'s hand in order,
  each ingredient with its category from the game's card data, its served / completed recipes as one done pile
  with their count; a recipe the seat can serve now (a legal ``Serve``; Wasabi!'s ``ChooseRecipe``) framed, and
  only those; its held action cards (Maki) as named card pictures;
* the centre's public column draws one row per seat with its points, Wasabi and recipes served from
  ``view(None)``, the seat whose turn it is highlighted, the recipe decks with their lengths and counts, the Wasabi
  pool and display (Maki) or the Kitchen (Wasabi!);
* the centre and the human's zone pass the fit checker (nothing cut, nothing under the reading minimum, every
  button a touch target).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import build_app, frames, run_child, run_scenarios, screenshot, tick

pytestmark = pytest.mark.ui
#: The child's bound (real seconds: a hung child; the scenarios run on virtual time); the file's is a minute more.
CHILD_S = 600

HERE = Path(__file__).resolve()
SIZES = ((1920, 1080), (1280, 800))
SCENARIOS = [f"{kind}{key}_{w}x{h}" for kind in ("", "crowded_") for key in ("maki", "wasabi") for w, h in SIZES]
#: Four humans with both short edges taken: the narrowest centre column, four seat rows in it.
CROWDED = ("south-west", "north-east", "west", "east")


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(HERE, tmp_path_factory.mktemp("board-look"), timeout=CHILD_S)


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(results: dict[str, Any], name: str) -> None:
    assert name in results, f"scenario {name} did not run; results: {sorted(results)}"
    assert results[name] == "ok", results[name]


def test_recipe_grid_fills_the_shelf() -> None:
    """Three recipes sit side by side in a wide tray and one above the other in a tall one; cards never leave
    the box."""
    from kiosk.board.pieces import RecipeShelf

    assert RecipeShelf.grid(3, 660, 150, 6)[0] == 3
    assert RecipeShelf.grid(3, 200, 300, 6)[0] == 1
    for n in range(1, 7):
        for w, h in ((660, 150), (390, 130), (170, 130), (300, 300)):
            cols, cw, ch = RecipeShelf.grid(n, w, h, 6)
            rows = -(-n // cols)
            assert cols * cw + (cols - 1) * 6 <= w + 0.01 and rows * ch + (rows - 1) * 6 <= h + 0.01


# =============================================================================================== child
def expected_shelf(key: str, mine: dict[str, Any], g: int, categories: dict[str, str]) -> list[tuple[Any, ...]]:
    """(name, ingredients, categories, done) per card the tray must draw, from the seat's own view."""
    if key == "maki":
        hand = [r for r in mine["hands"][g] if "name" in r]
        served = mine["served"][g]
        pile = [served[-1]["name"]] if served else []
    else:
        hand = mine["recipes"]
        done = mine["seats"][g]["completed"]
        pile = [done[-1]["recipe"]] if done else []
    cards = [
        (r["name"], list(r["ingredients"]), [categories.get(k, "") for k in r["ingredients"]], False) for r in hand
    ]
    return cards + [(name, None, None, True) for name in pile]


def ready_ids(key: str, legal: list[Any]) -> set[int]:
    kind = "Serve" if key == "maki" else "ChooseRecipe"
    return {a.recipe for a in legal if type(a).__name__ == kind}


def check_tray(screen: Any, panel: Any, key: str, g: int) -> None:
    state = screen.session.state
    mine = state.view(g)
    shelf = panel.ids.shelf
    want = expected_shelf(key, mine, g, screen.categories)
    cards = [w for w in shelf.card_widgets if w.parent is not None]  # (ids are weak proxies: no "is shelf")
    got = [(w.name, list(w.ingredients), list(w.categories), bool(w.done)) for w in cards]
    assert len(got) == len(want), (got, want)
    for (name, ingr, cats, done), (wname, wingr, wcats, wdone) in zip(got, want):
        assert name == wname and done == wdone, (got, want)
        if not done:
            assert ingr == wingr and cats == wcats, (got, want)
    for w in cards:  # each ingredient drawn as its picture on its category's colour, with the category symbol
        assert [s.kind for s in w.slots[: len(w.ingredients)]] == list(w.ingredients)
        assert all(s.symbol for s in w.slots[: len(w.ingredients)])
    if key == "maki":
        assert list(shelf.cards) == [h["card"] for h in mine["held"][g]]
        served = mine["served"][g]
        if served:
            assert cards[-1].done and cards[-1].count == len(served)
        ids = [r["id"] for r in mine["hands"][g] if "name" in r]
    else:
        ids = [r["id"] for r in mine["recipes"]]
    ready = ready_ids(key, state.legal_actions(g)) if g in state.to_move() else set()
    assert [w.ready for w in cards[: len(ids)]] == [i in ready for i in ids], (ready, ids)
    # every card inside the tray's shelf, on screen
    for w in cards:
        assert shelf.x - 1 <= w.x and w.right <= shelf.right + 1 and shelf.y - 1 <= w.y and w.top <= shelf.top + 1


def check_public(screen: Any, key: str) -> None:
    public = screen.session.state.view(None)
    shown = screen.public_summary()
    seats = shown["seats"]
    n = len(screen.session.seats)
    assert len(seats) == n
    movers = set() if screen.session.state.is_over() else set(screen.session.state.to_move())
    for g, row in enumerate(seats):
        seat = screen.session.seats[g]
        assert row["symbol"] == seat.symbol and row["turn"] == (g in movers), row
        if key == "maki":
            points, wasabi, served = public["scores"][g], public["wasabi"][g], len(public["served"][g])
            assert row["cards"] == [h["card"] for h in public["held"][g]]
        else:
            p = public["seats"][g]
            points, wasabi, served = p["score"], p["cubes"], len(p["completed"])
            assert row["cards"] == p["cards"]
        assert row["points"] == points and row["counters"]["wasabi"] == wasabi, (row, points, wasabi)
        assert row["counters"]["\u2714"] == served, row
    decks = [(p["length"], p["count"]) for kind, p in shown["shared"] if kind == "DeckPile"]
    if key == "maki":
        assert decks == [(int(k), d["count"]) for k, d in sorted(public["decks"].items())]
        pool = [p["count"] for kind, p in shown["shared"] if kind == "Counter" and p["picture"] == "wasabi"]
        assert pool == [public["pool"]]
        assert [p["name"] for kind, p in shown["shared"] if kind == "ActionCard"] == public["display"]
    else:
        assert decks == [(int(k), n) for k, n in sorted(public["recipe_stacks"].items())]
        kitchen = [(p["name"], p["count"]) for kind, p in shown["shared"] if kind == "ActionCard"]
        assert kitchen == list(public["kitchen"].items())
    assert screen.turn_line and screen.turn_line == screen.info_text.split("\n")[0]


def child_main(tmp: Path, out: Path) -> None:
    app = build_app(tmp / "state", bots={"move_delay_s": 0.0, "default_level": "easy"})

    def play(key: str, size: tuple[int, int]) -> None:
        from kivy.core.window import Window

        from devtools.fit import check_tree
        from devtools.touchplay import start

        Window.size = size
        frames(4)
        human = app.table.by_position("south-west").index
        others = [s.index for s in app.table.seats if s.index != human][:2]
        session = start(app, key, [(human, None)] + [(o, "easy") for o in others], seed=7)
        screen = app.sm.current_screen
        panel = screen.panels[human]
        g = session.game_seat_of(human)
        bot = app.games[key].bots["easy"](g, 7)
        checked = ready_seen = 0
        found: list[str] = []
        shot = False
        for _ in range(400):
            st = session.state
            if st.is_over() or (checked >= 10 and (ready_seen or key == "wasabi" or checked >= 24)):
                break
            if st.to_move() != [g]:
                tick(1)  # waiting for the bots: no need to draw
                continue
            tick(3)
            panel.ids.tray.open()
            tick(3)
            frames(2)
            check_tray(screen, panel, key, g)
            session.pause()
            try:
                check_public(screen, key)
            finally:
                session.resume()
            ready_seen += bool(ready_ids(key, st.legal_actions(g)))
            if checked % 4 == 0:
                frames(2)
                where = f"{size[0]}x{size[1]} step {checked}"
                found += [f"{where}: {p}" for p in check_tree(screen.ids.centre, size)]
                found += [f"{where}: {p}" for p in check_tree(panel, size)]
            if not shot and any(w.ready for w in panel.ids.shelf.card_widgets if w.parent is not None):
                screenshot(f"board_look_{key}_ready_{size[0]}x{size[1]}")
                shot = True
            checked += 1
            session.apply(g, bot.choose(st))
            tick(2)
        assert checked >= 8, f"only {checked} steps of the human's checked"
        assert not found, "\n".join(found[:20])
        app.launcher.end()
        frames(2)

    def crowded(key: str, size: tuple[int, int]) -> None:
        """Four humans at :data:`CROWDED` (each move chosen by a bot): the centre column is narrow, yet every
        seat row keeps the height its texts need (the last moves give way) and nothing in the centre is cut."""
        from kivy.core.window import Window

        from devtools.fit import check_tree
        from devtools.touchplay import start
        from kiosk.board.pieces import SeatLine

        Window.size = size
        frames(4)
        session = start(app, key, [(app.table.by_position(p).index, None) for p in CROWDED], seed=7)
        screen = app.sm.current_screen
        bots = {g: app.games[key].bots["easy"](g, 7) for g in range(len(session.seats))}
        found: list[str] = []
        for step in range(8):
            st = session.state
            if st.is_over():
                break
            tick(3)
            frames(2)
            rows = [w for w in screen.ids.seat_rows.children if isinstance(w, SeatLine)]
            assert len(rows) == 4 and screen._seat_floor > 0
            assert all(w.height >= screen._seat_floor - 0.01 for w in rows), ([w.height for w in rows], step)
            where = f"{size[0]}x{size[1]} step {step}"
            found += [f"{where}: {p}" for p in check_tree(screen.ids.centre, size)]
            g = st.to_move()[0]
            session.apply(g, bots[g].choose(st))
            tick(2)
        assert screen.last_text, "no move was played"
        assert not found, "\n".join(found[:20])
        app.launcher.end()
        frames(2)

    try:
        scenarios = {}
        for key in ("maki", "wasabi"):
            for w, h in SIZES:
                scenarios[f"{key}_{w}x{h}"] = lambda k=key, s=(w, h): play(k, s)
                scenarios[f"crowded_{key}_{w}x{h}"] = lambda k=key, s=(w, h): crowded(k, s)
        run_scenarios(scenarios, out)
    finally:
        from kivy.core.window import Window

        Window.size = (1920, 1080)
        frames(2)
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
