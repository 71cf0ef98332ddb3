"""Child process for test_pieces.py: small hand-made widget trees and the piece widgets in a real Kivy window.

Run as ``python pieces_child.py OUT.json WIDTHxHEIGHT``: builds each scenario in the window, draws frames,
records what the test asserts (fit-checker findings, sizes, sources) into OUT.json, and saves a gallery PNG
of the pieces next to it (``pieces_WxH.png``). Kivy allows one window per process, hence the child.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any


def main(out: Path, size: str) -> None:
    width, height = (int(v) for v in size.split("x"))
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kivy.config import Config

    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "resizable", "0")
    from kivy.base import EventLoop, runTouchApp, stopTouchApp
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch
    from kivy.uix.button import Button
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label

    from devtools.fit import check_tree
    from kiosk import clock
    from kiosk.games import GAMES, categories_of, pictures_of
    from kiosk.games.makoto.pieces import CardBacks, CardDeck, CardFan, CardRow, MakotoCard
    from kiosk.games.takoyaki.pieces import TakoBall, TakoOrderCard
    from kiosk.ui import motion, pictures
    from kiosk.ui.pieces import FinePrint, RecipeCard, Tile, TitleBanner, Token, use_categories
    from kiosk.ui.typescale import px

    pictures.use_pictures(pictures_of(GAMES))  # as the app's build hands the kit the games' looks
    use_categories(categories_of(GAMES))
    Window.size = (width, height)
    Window.clearcolor = (0.06, 0.08, 0.12, 1)
    u = min(width, height) / 1080
    root = FloatLayout()
    runTouchApp(root, embedded=True)
    virtual = clock.freeze()  # virtual time, as the UI tests' harness: each frame is STEP seconds, however slow
    step = 1 / 30  # conftest.STEP

    def frames(n: int = 3) -> None:
        for _ in range(n):
            clock.settle()
            virtual.advance(step)
            EventLoop.idle()

    def show(*widgets: Any) -> FloatLayout:
        root.clear_widgets()
        box = FloatLayout()
        for w in widgets:
            if w.parent is not None:
                w.parent.remove_widget(w)
            box.add_widget(w)
        root.add_widget(box)
        frames()
        return box

    def kinds(tree: Any) -> list[str]:
        return sorted(p.kind for p in check_tree(tree, (width, height)))

    def at(x: float, y: float, w: float, h: float) -> dict[str, Any]:
        return {"size_hint": (None, None), "pos": (x, y), "size": (w, h)}

    r: dict[str, Any] = {"window": [Window.width, Window.height]}
    body = px("body", u)
    # ------------------------------------------------------------------ the checker on hand-made trees
    r["good"] = kinds(
        show(
            Label(text="Your turn", font_size=body, **at(20, 20, 400, 60)),
            Button(text="Play", font_size=body, **at(20, 100, 200, 80)),
            Label(
                text="A long sentence that wraps onto two lines",
                font_size=body,
                text_size=(400, None),
                **at(20, 200, 400, 120),
            ),
        )
    )
    r["cut_label"] = kinds(show(Label(text="Cucumber Avocado Roll", font_size=body, **at(20, 20, 60, 40))))
    r["cut_lines"] = kinds(
        show(
            Label(
                text="New high score! Your initials please, then OK",
                font_size=body,
                text_size=(160, 40),
                **at(20, 20, 160, 40),
            )
        )
    )
    r["broken_word"] = kinds(
        show(Label(text="Cucumber", font_size=body, text_size=(body * 3, None), **at(20, 20, body * 3, body * 4)))
    )
    r["shortened"] = kinds(
        show(
            Label(
                text="Out: 1. place (+50) and more words",
                font_size=body,
                text_size=(120, None),
                shorten=True,
                **at(20, 20, 120, 60),
            )
        )
    )
    r["small_text"] = kinds(show(Label(text="tiny", font_size=10, **at(20, 20, 200, 60))))
    r["fine_print"] = kinds(show(FinePrint(text="B3", font_size=10, **at(20, 20, 200, 60))))
    r["small_target"] = kinds(show(Button(text="", **at(20, 20, 28, 59))))
    r["disabled_target"] = kinds(show(Button(text="", disabled=True, **at(20, 20, 28, 59))))
    r["overlap"] = kinds(
        show(
            Label(text="New high score!", font_size=body, **at(20, 20, 300, 60)),
            Label(text="A", font_size=body * 2, **at(20, 20, 300, 60)),
        )
    )
    r["hidden"] = kinds(show(Label(text="Cucumber Avocado Roll", font_size=10, opacity=0, **at(20, 20, 30, 20))))
    # the Results bug: "OK" drawn as "O" over "K" (a button too narrow for its word)
    r["ok_button"] = kinds(show(Button(text="OK", font_size=body * 1.4, text_size=(20, None), **at(20, 20, 28, 80))))

    # ------------------------------------------------------------------ pieces
    card_h = 100 * u
    row = CardRow(
        cards=[(n, k) for n, k in [(13, 0), (12, 0), (10, 0), (11, 1), (1, 2), (7, 0)]],
        min_step=60 * u,
        **at(20, 20, 6 * card_h, card_h * 1.2),
    )
    hand = CardRow(cards=[(i % 14, i % 3) for i in range(18)], min_step=60 * u, **at(20, 200 * u, 560 * u, 220 * u))
    show(row, hand)
    r["row_problems"] = [str(p) for p in check_tree(root, (width, height))]
    r["row_cards"] = [
        {
            "text": c.text,
            "card_w": c.width,
            "corner": c.corner,
            # the number in view: the corner's (always when covered) or else the middle one
            "number_w": (c.children[-1] if c.children[-1].text else c.children[-2]).texture_size[0],
            "number_text": c.children[-1].text or c.children[-2].text,
        }
        for c in row.widgets + hand.widgets
    ]
    r["hand_rows"] = len({round(c.y) for c in hand.widgets})
    r["atlas"] = str(pictures.ensure_atlas() or "")
    tiles = [
        Tile(kind=k, category=c, cell=f"A{i + 1}", **at(20 + i * 100 * u, 600 * u, 96 * u, 96 * u))
        for i, (k, c) in enumerate(
            [("Rice", "rice"), ("Salmon", "fish"), ("teacup", ""), ("", ""), ("Crab", "seafood")]
        )
    ]
    recipe = RecipeCard(
        name="Salmon Nigiri",
        ingredients=["Salmon", "Rice"],
        categories=["fish", "rice"],
        points=2,
        **at(560 * u, 600 * u, 260 * u, 100 * u),
    )
    balls = [
        TakoBall(colour=c, fried=f, **at(620 * u + i * 80 * u, 200 * u, 70 * u, 70 * u))
        for i, (c, f) in enumerate([(1, False), (1, True), (2, False), (3, True)])
    ]
    order = TakoOrderCard(cells=[1, 0, 0, 2, 0, 3, 1, 0, 2, 0, 0, 3], **at(620 * u, 300 * u, 240 * u, 200 * u))
    fan = CardFan(cards=[(13, 0), (13, 0), (12, 1)], label="Circle played", **at(900 * u, 600 * u, 300 * u, 180 * u))
    deck = CardDeck(count=12, label="Oracle", **at(900 * u, 340 * u, 100 * u, 140 * u))
    backs = CardBacks(count=7, **at(1040 * u, 400 * u, 150 * u, 60 * u))
    token = Token(picture="wasabi", count=3, **at(900 * u, 200 * u, 80 * u, 80 * u))
    lone = MakotoCard(number=13, kind=0, **at(1040 * u, 200 * u, 40 * u, 100 * u))  # too narrow on purpose
    show(row, hand, *tiles, recipe, *balls, order, fan, deck, backs, token, lone)
    r["tile_sources"] = [t.source for t in tiles]
    r["tile_symbols"] = [t.symbol for t in tiles]
    r["recipe_sources"] = [s.source for s in recipe.slots]
    r["order_balls"] = [(b.colour, b.fried, b.letter) for b in order.balls]
    r["ball_letters"] = [(b.letter, b.fried) for b in balls]
    lone_label = lone.children[-1] if lone.children[-1].text else lone.children[-2]
    r["lone_number"] = {"w": lone_label.texture_size[0], "card_w": lone.width}
    shot = out.with_name(f"pieces_{width}x{height}.png")
    os.replace(Window.screenshot(name=str(shot)), shot)  # Kivy numbers its screenshots: give it its name
    frames(2)

    # ------------------------------------------------------------------ the title banner, motion
    banner = TitleBanner(
        title="Sushi Table",
        subtitle="Touch to play",
        games=["maki", "wasabi", "makoto", "takoyaki"],
        **at(0, 0, width, 300 * u),
    )
    show(banner)
    r["banner_problems"] = [str(p) for p in check_tree(root, (width, height))]
    r["banner_sources"] = [b.source.rsplit("/", 1)[-1] for b in banner.badges]
    shot = out.with_name(f"banner_{width}x{height}.png")
    os.replace(Window.screenshot(name=str(shot)), shot)
    pressed: list[int] = []
    button = Button(text="Tap", font_size=body, **at(20, 20, 200, 100))
    button.bind(on_press=lambda *_a: pressed.append(1))
    source = Tile(kind="Salmon", category="fish", **at(width - 200, height - 200, 90, 90))
    card = TakoOrderCard(cells=[1, 0, 0, 2, 0, 3, 1, 0, 2, 0, 0, 3], **at(400, 20, 200, 160))
    show(button, source, card)
    motion.fly(Tile(kind="Salmon", category="fish"), source, button, 0.3)
    motion.flip_in(card, 0.3)
    r["ghosts_in_flight"] = motion.active()
    r["flip_during"] = card.flip
    # half way (virtual time: 0.15 s is 0.15 s of frames however slowly this machine draws): still in flight
    frames(round(0.15 / step))
    r["ghosts_mid"] = motion.active()
    r["flip_mid"] = card.flip
    touch = UnitTestTouch(*button.to_window(*button.center))
    touch.touch_down()
    touch.touch_up()
    r["pressed_during_flight"] = len(pressed)
    r["ghost_on_top"] = type(Window.children[0]).__name__
    # the animations last 0.3 s: 0.4 virtual seconds from their start end them (and clean up)
    frames(round(0.4 / step) - round(0.15 / step))
    r["ghosts_after"] = motion.active()
    r["flip_after"] = card.flip
    stopTouchApp()
    out.write_text(json.dumps(r, indent=1))


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
