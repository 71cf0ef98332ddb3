"""Every card explained where it is played: each card and tile of every game (``kiosk/games/<game>/explain.py``,
through :func:`kiosk.shell.howto.card_steps`) has an explanation with its picture in every language, and the seat
menu shows each one at a seat, in the seat's language, with nothing cut, broken or out of the face (the fit
checker: 0 findings) at 1920x1080 and 1280x800, at a short edge's seat (the narrowest menu)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    build_app,
    frames,
    run_child,
    run_for,
    run_scenarios,
    run_until,
    screenshot,
    tap,
    tick,
    touch_down,
    touch_up,
    window_point,
)

from kiosk.games import GAMES
from kiosk.i18n import LANGUAGES, translator
from kiosk.shell.howto import card_steps

HERE = Path(__file__).resolve()
CHILD_S = 1500
KEYS = ["maki", "wasabi", "makoto", "takoyaki"]
SIZES = [(1920, 1080), (1280, 800)]
SCENARIOS = [f"{key}_{w}x{h}" for key in KEYS for w, h in SIZES] + ["hold_a_card_in_the_tray"]


@pytest.mark.parametrize("key", KEYS)
def test_every_card_and_tile_has_its_explanation_in_every_language(key: str) -> None:
    from kiosk.games.maki.cards import ACTION_CARDS, KINDS, RECIPES
    from kiosk.games.wasabi import cards as wasabi_cards

    spec = GAMES[key]
    english = card_steps(spec)
    wanted = {
        "maki": set(ACTION_CARDS) | set(KINDS) | {r.name for r in RECIPES},
        "wasabi": set(wasabi_cards.CARDS) | set(wasabi_cards.KINDS) | {r.name for r in wasabi_cards.RECIPES},
        "makoto": {str(c) for c in range(60) if c % 20 and (c % 20 <= 16)},
        "takoyaki": {"ball"},
    }[key]
    assert wanted <= set(english), sorted(wanted - set(english))
    from kiosk.ui.pictures import PICTURES

    for name, step in english.items():
        assert step.title and step.text, name
        assert all(p in PICTURES for p in step.pictures), (name, step.pictures)
        if key != "makoto":
            assert step.pictures, f"{key}: {name} has no picture"
    for lang in LANGUAGES:
        if lang == "en":
            continue
        steps = card_steps(spec, translator(lang, key))
        assert set(steps) == set(english)
        for name, step in steps.items():
            assert step.text != english[name].text, f"{key}/{lang}: {name} is not translated"


@pytest.mark.ui
@pytest.mark.slow
@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(results: dict[str, Any], name: str) -> None:
    assert name in results, f"scenario {name} did not run; results: {sorted(results)}"
    assert results[name] == "ok", results[name]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(HERE, tmp_path_factory.mktemp("cards"), timeout=CHILD_S)


# =============================================================================================== child
def child_main(tmp: Path, out: Path) -> None:
    from kivy.core.window import Window

    from devtools.fit import check_tree

    app = build_app(tmp / "state")
    menus = app.seat_menus
    # a short edge's seat: the narrowest menu (the long edge's is wider at both sizes)
    edges = {"short": app.table.by_position("west").index}

    def every_card(key: str, size: tuple[int, int]) -> None:
        Window.size = size
        frames(3)
        spec = app.games[key]
        app.go_attract()
        frames(2)
        app.leave_attract(edges["short"])
        frames(2)
        app.open_join(key, edges["short"])
        frames(2)
        found: list[str] = []
        for lang in LANGUAGES:
            menus.language_at = lambda _i, lang=lang: lang
            for edge, index in edges.items():
                menus.close_all()
                menu = menus.open(index, spec, in_game=False, howto=True)
                frames(2)
                # the how-to links to the cards: its "Cards" button opens them
                cards = [
                    b for b in menu.walk() if getattr(b, "text", None) == menu.tr.gettext("Cards") and not b.disabled
                ]
                assert len(cards) == 1, f"{lang}: no Cards button on the how-to"
                tap(cards[0])
                frames(1)
                assert menu.cards_mode and menu.page == "howto"
                for i in range(len(menu.steps)):
                    menu.show_step(i)
                    tick(1)
                    found += [f"{lang} {edge} {menu.card_names[i]}: {p}" for p in check_tree(menu, size)]
                if size == SIZES[0] and lang == "ja":
                    menu.show_step(0)
                    tick(2)
                    screenshot(f"seat_card_{key}_ja")
        menus.language_at = lambda _i: "en"
        menus.close_all()
        assert not found, f"{len(found)} findings:\n" + "\n".join(found[:40])

    def hold_a_card_in_the_tray() -> None:
        """A finger held on a recipe in a seat's open tray opens the seat's menu on that recipe's explanation, in
        the seat's language."""
        from kiosk.board.pieces import HOLD_S, RecipeShelf

        Window.size = SIZES[0]
        app.go_attract()
        frames(2)
        spec = app.games["maki"]
        human, bot = app.table.by_position("south-west").index, app.table.by_position("north-east").index
        state = spec.new_game(2, 3)
        seats = state.seating([(human, None), (bot, "random")])
        app.launcher.launch(spec, state, seats, 3, None, {"languages": {str(human): "ja"}})
        session = app.session
        g = session.game_seat_of(human)
        run_until(lambda: g in session.state.to_move(), 20, "the human's turn")
        tray = app.sm.current_screen.panels[human].ids.tray
        run_until(lambda: tray.is_open, 5, "the tray open")
        tick(3)
        shelf = next(w for w in tray.walk() if isinstance(w, RecipeShelf))
        card = next(w for w in shelf.card_widgets if w.parent is not None and w.explain)
        finger = touch_down(*window_point(card))
        run_for(HOLD_S + 0.3)
        touch_up(finger)
        frames(2)
        menu = app.seat_menus.menus[human]
        assert app.seat_menus.is_open(human) and menu.cards_mode, "the hold opened no explanation"
        assert menu.card_names[int(menu.step)] == card.explain and menu.language == "ja"
        assert menu.step_title == translator("ja", "maki").gettext("Recipe: {recipe}").format(
            recipe=translator("ja", "maki").gettext(card.explain)
        )
        screenshot("seat_card_hold_maki_ja")
        app.seat_menus.close_all()
        app.launcher.end()

    scenarios = {
        f"{key}_{w}x{h}": (lambda key=key, size=(w, h): every_card(key, size)) for key in KEYS for w, h in SIZES
    }
    scenarios["hold_a_card_in_the_tray"] = hold_a_card_in_the_tray
    run_scenarios(scenarios, out)
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
