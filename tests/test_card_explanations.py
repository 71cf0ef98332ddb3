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
HOLDS = ["hold_maki", "hold_wasabi", "hold_makoto", "hold_takoyaki_order", "hold_takoyaki_ball"]
SCENARIOS = [f"{key}_{w}x{h}" for key in KEYS for w, h in SIZES] + HOLDS


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
    from kiosk.games import pictures_of
    from kiosk.ui.pictures import gather_pictures

    known = gather_pictures(pictures_of(GAMES))

    for name, step in english.items():
        assert step.title and step.text, name
        assert all(p in known for p in step.pictures), (name, step.pictures)
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

    def hold(key: str, players: int, find: Any, before: Any = None) -> None:
        """A finger held on a card or tile where it is played (``find()``: the widget and the engine's name for
        it, once on screen) opens the seat's menu on that card's explanation, in the seat's language; the lift
        does nothing else (``before()``: what a tap would change, the same after)."""
        from kiosk.ui.hold import HOLD_S

        Window.size = SIZES[0]
        app.go_attract()
        frames(2)
        spec = app.games[key]
        state = spec.new_game(players, 3)
        seats = state.seating([(chairs["human"], None), (chairs["bot"], "random")][:players])
        app.launcher.launch(spec, state, seats, 3, None, {"languages": {str(chairs["human"]): "ja"}})
        found: list[Any] = []
        run_until(lambda: bool(found.append(find()) or found[-1]), 30, f"{key}: a card to hold")
        widget, name = found[-1]
        was = before() if before else None
        tray = panel().ids.get("tray")
        tray_open = tray is not None and tray.is_open
        finger = touch_down(*window_point(widget))
        run_for(HOLD_S + 0.3)
        touch_up(finger)
        frames(2)
        menu = app.seat_menus.menus[chairs["human"]]
        assert app.seat_menus.is_open(chairs["human"]) and menu.cards_mode, f"{key}: the hold opened nothing"
        shown = menu.card_names[int(menu.step)]
        assert shown == name and menu.language == "ja", (shown, name, menu.language)
        assert menu.step_title == card_steps(spec, translator("ja", key))[name].title
        assert before is None or before() == was, f"{key}: the hold's lift also tapped"
        assert not tray_open or tray.is_open, f"{key}: the hold's lift closed the tray"
        screenshot(f"seat_card_hold_{key}_ja")
        app.seat_menus.close_all()
        app.launcher.end()

    chairs = {"human": app.table.by_position("south-west").index, "bot": app.table.by_position("north-east").index}

    def panel() -> Any:
        return app.sm.current_screen.panels[chairs["human"]]

    def in_tray() -> Any:
        """A recipe, an action card or a tile in the human's open tray (Maki, Wasabi!)."""
        from kiosk.board.pieces import RecipeShelf

        tray = panel().ids.tray
        if not tray.is_open:
            tray.open()  # (Wasabi!'s first step is everyone's at once: no tray opens by itself)
        shelves = [w for w in tray.walk() if isinstance(w, RecipeShelf)] if tray.is_open else []
        held = [w for shelf in shelves for w in shelf.children if getattr(w, "explain", "")]
        return (held[-1], held[-1].explain) if held else None

    def hand_card() -> Any:
        """The top card of the human's Makoto hand, face up in its open tray."""
        from kiosk.games.makoto.panel import HandCard

        tray = panel().ids.tray
        hand = [w for w in tray.walk() if isinstance(w, HandCard)] if tray.is_open else []
        top = [w for w in hand if w.explained_at(*w.center)]
        return (top[0], str(int(top[0].code))) if top else None

    def makoto_selection() -> list[bool]:
        from kiosk.games.makoto.panel import HandCard

        return [w.selected for w in panel().ids.tray.walk() if isinstance(w, HandCard)]

    def order_card() -> Any:
        order = panel().ids.order
        return (order, order.explain) if panel().order_shown and order.explain != "ball" else None

    def ball_while_out() -> Any:
        """A ball on the human's grill once it is out of the order (a fault): the grill waits, a hold explains."""
        from kiosk.games.takoyaki.actions import Fault

        session, grill = app.session, panel().ids.grill
        g = session.game_seat_of(chairs["human"])
        if not grill.locked and panel().order_shown:
            session.apply(g, Fault("ball_fell_off"))
        frames(1)
        balls = [b for b in grill.balls if b.parent is not None and grill.explained_at(*b.center)]
        return (balls[0], "ball") if grill.locked and balls else None

    holds = {
        "hold_maki": lambda: hold("maki", 2, in_tray),
        "hold_wasabi": lambda: hold("wasabi", 2, in_tray),
        "hold_makoto": lambda: hold("makoto", 2, hand_card, makoto_selection),
        "hold_takoyaki_order": lambda: hold("takoyaki", 1, order_card),
        "hold_takoyaki_ball": lambda: hold("takoyaki", 2, ball_while_out),
    }

    scenarios = {
        f"{key}_{w}x{h}": (lambda key=key, size=(w, h): every_card(key, size)) for key in KEYS for w, h in SIZES
    }
    scenarios.update(holds)
    run_scenarios(scenarios, out)
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
