"""The Maki and Wasabi! board screens end to end, in a real Kivy window (Xvfb), in one child process.

Per game: an attract-mode all-bot game through the shell's own attract entry point, then a human + bot game where
the human plays through the real widgets (the private tray opens by itself when the seat's turn starts, a tap closes
it and a tap opens it again, a tile, a square or a button plays). After every step the board widgets must match
``view(None)['board']``, and a seat's hand must be on screen only while its tray is open. Then per game, placing by
touch: every legal action is reachable (a button, a tile or a square); with several tiles in hand a tap on a square
selects it and the buttons are exactly the legal actions on that square; tapping it again, or the centre off the
board, clears it; a tap in another seat's zone or during a bot's turn changes nothing; a chosen tile marks its
squares and a tap on one places it at once (Maki: the taken tile is chosen already). Last, the human's zone with its
tray open passes the fit checker at both sizes from both kinds of edge. Headless: every event kind the engines emit
reads as words.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    Finger,
    build_app,
    buttons,
    frames,
    run_child,
    run_scenarios,
    run_until,
    screenshot,
    tick,
)

pytestmark = pytest.mark.ui
#: The child's bound (real seconds: a hung child; the scenarios run on virtual time); the file's is a minute more.
CHILD_S = 600

HERE = Path(__file__).resolve()
#: The seed of each attract scenario's bots' game (attract mode's generator is seeded with it).
ATTRACT_SEEDS = {"maki": 21, "wasabi": 22}
SCENARIOS = [
    "maki_attract",
    "maki_human_and_bot",
    "maki_tap_board",
    "wasabi_attract",
    "wasabi_human_and_bot",
    "wasabi_tap_board",
    "maki_seat_language",
    "wasabi_seat_language",
    "trays_fit",
]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(HERE, tmp_path_factory.mktemp("maki-wasabi-screen"), timeout=CHILD_S)


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(results: dict[str, Any], name: str) -> None:
    assert name in results, f"scenario {name} did not run; results: {sorted(results)}"
    assert results[name] == "ok", results[name]


def test_action_labels_name_squares() -> None:
    from kiosk.games.maki.rules import Place, Switch, Take
    from kiosk.ui.words import action_label, short_name

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


def test_action_squares_and_button_order() -> None:
    from kiosk.games.maki.rules import Chop, Draw, Gain, Place, Return, SecondHelping, Serve, Switch, Take, TakePool
    from kiosk.games.maki.screen import MakiScreen
    from kiosk.games.wasabi.rules import EndStep, Pass, PlayChop, PlayStack, PlaySwitch, TakeCard
    from kiosk.games.wasabi.rules import Place as WPlace
    from kiosk.games.wasabi.screen import WasabiScreen
    from kiosk.ui.words import action_squares

    assert action_squares(Place(cell=8), 36) == (8,)
    assert action_squares(Switch(a=0, b=1), 36) == (0, 1)
    assert action_squares(TakeCard("Chop", -1, ""), 30) == ()  # the Kitchen is no square
    assert action_squares(TakeCard("Wasabi", 7, ""), 30) == (7,)
    assert action_squares(Take(kind="Rice"), 36) == () and action_squares(Draw(3), 36) == ()
    # Maki: take a tile first; serving before prepping; cards aimed at squares last
    maki = [Return((1,)), Chop(3), TakePool(), Gain("Chop"), Serve(4), Switch(0, 1), SecondHelping(), Take("Rice")]
    assert MakiScreen.order_actions(maki) == [
        Take("Rice"),
        Serve(4),
        SecondHelping(),
        TakePool(),
        Gain("Chop"),
        Return((1,)),
        Switch(0, 1),
        Chop(3),
    ]
    # Wasabi!: Stack! (no square to tap for it) and placing before the Pass variants; engine order within a class
    wasabi = [
        EndStep(),
        Pass((1,)),
        Pass((1, 2)),
        WPlace("Eel", 0),
        WPlace("Eel", 1),
        PlayChop(0, False),
        PlayStack(),
        PlaySwitch(0, 1),
    ]
    assert WasabiScreen.order_actions(wasabi) == [
        EndStep(),
        PlayStack(),
        WPlace("Eel", 0),
        WPlace("Eel", 1),
        Pass((1,)),
        Pass((1, 2)),
        PlaySwitch(0, 1),
        PlayChop(0, False),
    ]


def engine_events(key: str, games: int = 3) -> tuple[set[str], list[Any]]:
    """Every event kind the engine's source can emit, and the events of a few headless games: easy bots, except
    that whenever a legal action would emit a kind not seen yet, that action is played. Wasabi!'s
    ``cannot_complete`` needs a seat out of tokens, which no short game reaches: it is forced by trying the
    completing action on a copy with that seat's free tokens set to zero (a hand-set position)."""
    import importlib

    rules = importlib.import_module(f"kiosk.games.{key}.rules")
    spec = importlib.import_module(f"kiosk.games.{key}").SPEC
    kinds = set(re.findall(r'Event\("(\w+)"', Path(rules.__file__).read_text(encoding="utf-8")))
    seen: set[str] = set()
    events: list[Any] = []
    for seed in range(games):
        n = 2 + seed % 3
        st = rules.new_game(n, seed)
        rng = random.Random(seed)
        bots = {g: spec.bots["easy"](g, seed) for g in range(n)}
        while not st.is_over():
            g = st.to_move()[0]
            pick = None
            if kinds - seen:
                for a in rng.sample(st.legal_actions(g), min(40, len(st.legal_actions(g)))):
                    trial = st.clone()
                    got = {e.kind for e in trial.apply(g, a)}
                    if key == "wasabi" and "completed" in got and "cannot_complete" not in seen:
                        out = st.clone()
                        out.free[g] = [0] * len(out.free[g])
                        evs = out.apply(g, a)
                        events += evs
                        seen |= {e.kind for e in evs}
                    if got - seen:
                        pick = a
                        break
            evs = st.apply(g, pick if pick is not None else bots[g].choose(st))
            events += evs
            seen |= {e.kind for e in evs}
    return kinds, events


@pytest.mark.parametrize("key", ["maki", "wasabi"])
def test_every_event_reads_as_words(key: str) -> None:
    from kiosk.games.maki.words import maki_event_text
    from kiosk.games.wasabi.words import wasabi_event_text
    from kiosk.ui.words import cell_name, fallback_event_text

    fmt = maki_event_text if key == "maki" else wasabi_event_text
    names = ["Circle", "Diamond", "Triangle", "Square"]

    def who(g: int | None) -> str:
        return "The game" if g is None else names[g]

    kinds, events = engine_events(key)
    assert kinds and kinds <= {e.kind for e in events}, f"kinds never emitted: {kinds - {e.kind for e in events}}"
    lines: dict[str, str] = {}
    for ev in events:
        line = fmt(ev, who, lambda c: cell_name(7, c))
        lines.setdefault(ev.kind, line)
        assert line and not re.search(r"[_{}\[\]']|\bNone\b", line.replace("'s ", "")), (ev, line)
        assert line != fallback_event_text(ev, who), f"{ev.kind} has no wording of its own: {line}"
        if ev.seat is not None:
            assert who(ev.seat) in line, line
    print("\n".join(f"{k}: {v}" for k, v in sorted(lines.items())))
    if key == "maki":
        assert any(re.fullmatch(r"\w+ placed [\w ]+ on [A-F]\d( \(lifting its teacup\))?", v) for v in lines.values())
        assert re.fullmatch(r"\w+ served [\w' -]+ \(\+\d+\)( with style)?", lines["served"]), lines["served"]
    else:
        assert re.fullmatch(r"\w+ placed [\w ]+ on [A-F]\d", lines["placed"]), lines["placed"]
        assert lines["drew_tile"].endswith(" drew a tile")


def test_unknown_event_kind_still_reads_as_words() -> None:
    from kiosk.engine import Event
    from kiosk.games.maki.words import maki_event_text
    from kiosk.games.wasabi.words import wasabi_event_text

    ev = Event("sauce_spilled", 1, {"on_square": {"row": 2}, "how_much": [1, 2], "kind": "soy_sauce"})
    for fmt in (maki_event_text, wasabi_event_text):
        line = fmt(ev, lambda g: "Diamond", lambda c: f"A{c + 1}")
        assert line.startswith("Diamond sauce spilled") and not re.search(r"[_{}\[\]]", line), line


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
            assert tile.text.startswith(kind[:7]) and "[b]" in tile.text, tile.text  # name + category letter
        else:
            assert tile.text == ""


def check_shelf(screen: Any, panel: Any, g: int, key: str) -> None:
    """The seat's tray draws its own recipes from ``view(g)`` as RecipeCards, in order, with their ingredients
    (and its served / completed pile last, done)."""
    mine = screen.session.state.view(g)
    if key == "maki":
        want = [(r["name"], r["ingredients"]) for r in mine["hands"][g] if "name" in r]
        served = len(mine["served"][g])
    else:
        want = [(r["name"], r["ingredients"]) for r in mine["recipes"]]
        served = len(mine["seats"][g]["completed"])
    tick(2)
    shown = panel.ids.shelf.shown_recipes()
    assert [(n, i) for n, i, done, _r in shown if not done] == want, (shown, want)
    assert sum(1 for _n, _i, done, _r in shown if done) == (1 if served else 0), shown


def texts(widget: Any) -> str:
    from kivy.uix.label import Label

    from kiosk.ui.pieces import Tile

    return "\n".join(
        "\n".join(w.words) if isinstance(w, Tile) else w.text
        for w in widget.walk(restrict=True)
        if isinstance(w, (Label, Tile))
    )


def child_main(tmp: Path, out: Path) -> None:
    app = build_app(tmp / "state", bots={"move_delay_s": 0.0, "default_level": "easy"})

    def attract(key: str) -> None:
        from kiosk.ui.pictures import picture_name

        screen = app.launcher.screen_for(key)
        app.director.stop()  # hold the attract cycle on this step (its clock would move on to the next one)
        turned: list[str] = []
        centre = screen.ids.centre
        centre.bind(facing=lambda _w, facing: turned.append(facing))
        facing = centre.facing
        # the bots' game's seed: attract mode draws it from its own generator, seeded here (not left to whatever
        # the cycle drew before this scenario)
        app.director.rng.seed(ATTRACT_SEEDS[key])
        app.director.start_game(key)
        session = app.director.session
        assert app.sm.current == screen.name and session.attract
        run_until(lambda: len(session.state.journal) >= 60 or session.state.is_over(), 20, "bot moves")
        # the shared board stays put, readable from every side (pictures); the acting seat is highlighted
        assert turned == [] and centre.facing == facing, f"the shared board turned: {turned}"
        movers = [] if session.state.is_over() else session.state.to_move()
        for g, seat in enumerate(session.seats):
            assert screen.panels[seat.index].my_turn == (g in movers)
        check_board(screen, key)
        for tile in screen.tiles:
            if tile.kind:
                assert tile.source.endswith("/" + picture_name(tile.kind)), (tile.kind, tile.source)
        assert sum(1 for kind, _n, _c in screen.board_summary() if kind) >= 3, "tiles on the board"
        screenshot(f"{key}_attract")
        assert screen.turn_text and screen.info_text, "whose turn and the public info are shown"
        assert not any(p.ids.tray.is_open for p in screen.panels.values()), "attract: every tray closed"
        assert screen.acting is None and not any(t.eligible or t.selected for t in screen.tiles), "no marks"
        assert not any(p.prompt for p in screen.panels.values()), "attract: no prompt"
        assert screen.last_text and not re.search(r"[_{}]", screen.last_text), screen.last_text
        for panel in screen.panels.values():
            if panel.in_game:
                shelf = panel.ids.shelf
                assert not panel.hand_visible() and not shelf.recipes and not shelf.cards, "a bot's hand is never drawn"
        app.director.stop_game()
        frames(1)

    def start_human_against_bot(key: str) -> tuple[Any, int, int, Any, int]:
        """A human at south-west against a bot (the first level) at north-east: screen, both table seats,
        the session and the human's game seat."""
        screen = app.launcher.screen_for(key)
        sw, ne = app.table.by_position("south-west").index, app.table.by_position("north-east").index
        level = next(iter(app.games[key].bots))
        if app.session is not None:
            app.launcher.end()
        app.start_game(key, [(sw, None), (ne, level)], seed=9)
        assert app.sm.current == screen.name
        frames(2)
        return screen, sw, ne, app.session, app.session.game_seat_of(sw)

    def human_and_bot(key: str) -> None:
        screen, sw, ne, session, g = start_human_against_bot(key)
        panel = screen.panels[sw]
        steps = 0
        shot = False
        new_turn = True
        for _ in range(80):
            st = session.state
            tiles = sum(1 for kind, _n, _c in screen.board_summary() if kind)
            if st.is_over() or (steps >= 4 and shot) or steps >= 25:
                break
            if st.to_move() != [g]:
                run_until(lambda: session.state.to_move() == [g] or session.state.is_over(), 10, "the bot")
                check_board(screen, key)
                new_turn = True
                continue
            check_board(screen, key)
            tray = panel.ids.tray
            top = panel.ids.tray.to_window(tray.x + tray.width * 0.5, tray.y + tray.height * 0.96)
            if new_turn:
                tick(2)
                assert tray.is_open, "the tray opens by itself when the seat's turn starts"
                assert panel.hand_visible(), "the hand shows while open"
                check_shelf(screen, panel, g, key)
            if tray.is_open:
                Finger(*top).up()  # a tap on the open tray (off its buttons) closes it
                tick(2)
            new_turn = False
            assert not tray.is_open
            assert not panel.hand_visible(), "the hand is hidden while the tray is closed"
            assert panel.private_text not in texts(panel), "its words are nowhere on screen either"
            Finger(*top).up()  # a tap opens the tray, and it stays open
            frames(2)  # (the open tray lays out its column: layouts run before a frame, not on the clock alone)
            assert tray.is_open, "a tap opens the tray"
            assert panel.hand_visible(), "the hand shows while open"
            if not shot and steps >= 2 and tiles >= 2:
                screenshot(f"{key}_board")  # the board with tiles, and this seat's tray open
                shot = True
            assert not screen.panels[ne].ids.tray.is_open
            before = len(st.journal)
            pantry, hand = list(screen.ids.pantry.children), list(panel.ids.hand.children)
            if panel.labels[0]:
                widget = buttons(panel, panel.labels[0])[0]
            elif pantry or hand:
                widget = (pantry or hand)[-1]  # a tile: a pick is taken at once, a hand tile is chosen
            else:
                widget = screen.tiles[next(sq for t, sq, _a in screen._placements if t == screen.chosen)]
            Finger(*widget.to_window(*widget.center)).up()
            tick(2)
            if screen.chosen and len(session.state.journal) == before and screen._placements:
                square = screen.tiles[next(sq for t, sq, _a in screen._placements if t == screen.chosen)]
                Finger(*square.to_window(*square.center)).up()  # the chosen tile's square: placed at once
                tick(2)
            assert len(session.state.journal) > before, f"{widget} did not play ({panel.error})"
            if tray.is_open:
                Finger(*top).up()  # a tap on the open tray (off its buttons) closes it
                tick(2)
            assert not tray.is_open and not panel.hand_visible()
            steps += 1
        assert steps >= 3 and shot, f"only {steps} human steps, screenshot taken: {shot}"
        check_board(screen, key)
        app.launcher.end()
        frames(1)

    def tap_tile(screen: Any, sq: int) -> None:
        tile = screen.tiles[sq]
        Finger(*tile.to_window(*tile.center)).up()
        tick(2)

    def offered(screen: Any, g: int) -> list[str]:
        return sorted(repr(a) for a in screen.offered(g))

    def tap_board(key: str) -> None:
        from kivy.uix.label import Label

        from kiosk.ui.words import action_squares, cell_name

        screen, sw, ne, session, g = start_human_against_bot(key)
        panel, other = screen.panels[sw], screen.panels[ne]
        bot = app.games[key].bots["easy"](g, 11)
        # the human's first placement step (set-up choices and Maki's Take played as the bot would)
        for _ in range(60):
            st = session.state
            assert not st.is_over()
            if st.to_move() != [g]:
                run_until(lambda: session.state.to_move() == [g], 10, "the bot")
                continue
            tick(2)
            if any(type(a).__name__ == "Place" for a in st.legal_actions(g)):
                break
            session.apply(g, bot.choose(st))
            tick(2)
        else:
            raise AssertionError("the human never got a tile to place")
        session.pause()  # nothing moves while the board is being tapped
        tick(2)
        assert panel.ids.tray.is_open, "the tray opened by itself when the seat's turn started"
        panel.ids.tray.close()  # the prompt with the tray closed
        tick(2)
        st = session.state
        legal = st.legal_actions(g)
        n = len(screen.tiles)
        assert screen.acting == g and screen.selected == -1
        # every legal action is reachable: a button, a tile, or a square
        for a in legal:
            assert a in screen.offered(g) or action_squares(a, n) or screen.pick_tile(a), a
        assert not any(type(a).__name__ == "Place" for a in screen.offered(g)), "no placement buttons"
        placements = screen._placements
        tiles = {t for t, _s, _a in placements}
        assert panel.prompt and panel.prompt in texts(panel), "the prompt shows with the tray closed"
        if key == "wasabi":
            screenshot("wasabi_prompt")  # the acting seat's prompt with its tray closed, the + on the squares
        squares = {sq for a in legal for sq in action_squares(a, n)}
        target = min(sq for _t, sq, _a in placements)
        name = cell_name(int(screen.board_cols), target)
        blocked = [i for i in range(n) if i not in squares]
        if blocked:  # a square nothing can be played on: no selection, and the seat is told
            tap_tile(screen, blocked[0])
            assert screen.selected == -1 and ("Nothing to play on" in panel.error or "cannot put" in panel.error)
        before = len(st.journal)
        if len(tiles) > 1:
            # several tiles in hand, none chosen: every square any action names is marked; a tap on one selects
            # it and the seat's buttons are the actions on it
            assert {i for i, t in enumerate(screen.tiles) if t.eligible} == squares
            assert "+" in texts(screen.tiles[target]), "an empty square that may be tapped shows a +"
            tap_tile(screen, target)
            want = sorted(repr(a) for a in legal if target in action_squares(a, n))
            assert screen.selected == target and screen.tiles[target].selected
            assert offered(screen, g) == want, (offered(screen, g), want)
            assert f"\u25b6{name}\u25c0" in texts(screen.tiles[target]) and name in panel.prompt, panel.prompt
            badge = [w for w in other.walk(restrict=True) if isinstance(w, Label) and w.text == other.score]
            for widget in badge + [other.ids.tray]:  # another seat's zone: nothing changes
                Finger(*widget.to_window(*widget.center)).up()
                tick(2)
                assert screen.selected == target and offered(screen, g) == want
            tap_tile(screen, target)  # again: cleared
            assert screen.selected == -1 and not screen.tiles[target].selected
            tap_tile(screen, target)
            legend = next(w for w in screen.walk(restrict=True) if isinstance(w, Label) and w.text == screen.legend)
            Finger(*legend.to_window(*legend.center)).up()  # the centre off the board: cleared
            tick(2)
            assert screen.selected == -1
            # open the tray (a tap), choose a tile: its squares are marked; a tap on one places it at once
            tray = panel.ids.tray
            Finger(*tray.to_window(tray.x + tray.width * 0.5, tray.y + tray.height * 0.96)).up()
            frames(2)  # (the open tray lays out its column: layouts run before a frame, not on the clock alone)
            assert tray.is_open and not other.ids.tray.is_open
            chosen = panel.ids.hand.children[-1]
            Finger(*chosen.to_window(*chosen.center)).up()
            tick(2)
            tile = chosen.kind
            assert screen.chosen == tile and chosen.selected
            mine = {sq for t, sq, _a in placements if t == tile}
            assert {i for i, t in enumerate(screen.tiles) if t.eligible} == mine
            screenshot(f"{key}_selected")
            target = min(mine)
            name = cell_name(int(screen.board_cols), target)
        else:
            # one tile to place (Maki's taken tile): its squares are marked and a tap places it at once
            tile = next(iter(tiles))
            assert screen.chosen == tile
            assert {i for i, t in enumerate(screen.tiles) if t.eligible} == {sq for _t, sq, _a in placements}
            screenshot(f"{key}_selected")
        tap_tile(screen, target)
        tick(2)
        assert len(session.state.journal) == before + 1, f"the tap on {name} placed nothing ({panel.error})"
        public = session.state.view(None)
        placed = public["board"][target] if key == "maki" else public["board"][target][-1]
        assert placed == tile, (placed, tile)
        assert screen.board_summary() == expected_board(key, public)
        assert screen.tiles[target].kind == tile and screen.selected == -1
        assert f"placed {tile} on {name}" in screen.last_text, screen.last_text
        assert not re.search(r"[_{}]", screen.last_text), screen.last_text
        # finish the turn (first offered actions), then the bot's turn: taps on the board change nothing
        for _ in range(30):
            if session.state.to_move() != [g] or session.state.is_over():
                break
            session.apply(g, bot.choose(session.state))
            tick(2)
        assert session.state.to_move() != [g] and not session.state.is_over()
        assert screen.acting is None and not any(t.eligible for t in screen.tiles) and not panel.prompt
        journal, shown = len(session.state.journal), (screen.board_summary(), offered(screen, g), other.labels[:])
        blocked = [i for i in range(n) if i != target]
        panel.error = other.error = ""
        for sq in (target, blocked[0] if blocked else 0):
            tap_tile(screen, sq)
            assert screen.selected == -1 and panel.error == "" and other.error == ""
            assert (screen.board_summary(), offered(screen, g), other.labels[:]) == shown
        assert len(session.state.journal) == journal
        session.resume()
        run_until(lambda: session.state.to_move() == [g] or session.state.is_over(), 10, "the bot")
        check_board(screen, key)
        app.launcher.end()
        frames(1)

    def seat_language(key: str) -> None:
        """A seat reading German sees its tray in German, in the game's words (its prompt, buttons, recipes and the
        tray's own words), while the centre (whose turn, the last moves) reads the table's language, English."""
        import importlib

        from kiosk.board.twostep import Then
        from kiosk.i18n import translator

        screen, sw, _ne, session, g = start_human_against_bot(key)
        de, en = translator("de", key), translator("en", key)
        session.languages = {sw: "de"}
        panel = screen.panels[sw]
        panel.take_seat(session, g)
        screen._draw()
        run_until(lambda: session.state.to_move() == [g] and screen.acting == g, 60, "the human's turn")
        panel.ids.tray.open()
        tick(3)
        frames(2)
        assert panel.tr is de and screen.tr is en
        kinds = {type(a).__name__ for a in session.state.legal_actions(g)}
        german = screen.prompt_text(screen._public, kinds, bool(screen.eligible), de)
        assert panel.prompt == german != screen.prompt_text(screen._public, kinds, bool(screen.eligible), en)
        assert german in texts(panel) and "(hier tippen zum Schließen)" in texts(panel), texts(panel)
        cols, n = int(screen.board_cols), len(screen.tiles)
        mine = session.state.view(g)
        for a in panel.actions:
            if not isinstance(a, Then):
                assert panel.describe(a) == screen.describe_action(a, cols, n, screen.recipe_names(mine, g), de)
        names = [w for w, _i, done, _r in panel.ids.shelf.shown_recipes() if not done]
        recipes = mine["hands"][g] if key == "maki" else mine["recipes"]
        assert names == [de.gettext(r["name"]) for r in recipes if "name" in r], names
        for w in panel.ids.hand.children:  # the tray's tiles are named in German, the Pantry's in English
            assert w.label.startswith(de.gettext(w.kind)[:7]), (w.label, w.kind)
        for w in screen.ids.pantry.children:
            assert w.label.startswith(w.kind[:7]), (w.label, w.kind)
        # the centre: the table's words
        assert screen.turn_line.startswith("Turn: "), screen.turn_line
        bot = app.games[key].bots[next(iter(app.games[key].bots))](g, 3)
        session.apply(g, bot.choose(session.state))
        tick(3)
        fmt = getattr(importlib.import_module(f"kiosk.games.{key}.screen"), f"{key}_event_text")
        for ev in session.last_events:
            line_en = fmt(ev, screen.seat_name, screen.square_name)
            line_de = fmt(ev, screen.seat_name, screen.square_name, tr=de)
            assert line_en in screen.last_text and (line_de == line_en or line_de not in screen.last_text)
        assert any(
            fmt(ev, screen.seat_name, screen.square_name, tr=de) != fmt(ev, screen.seat_name, screen.square_name)
            for ev in session.last_events
        ), "the log has a line German words differently"
        screenshot(f"{key}_seat_de")
        app.launcher.end()

    def trays_fit() -> None:
        """The human's zone with its tray open passes the fit checker (nothing cut, every text readable, every
        button a touch target) at both sizes, from a long and a short edge, at each kind of step of a 3-player
        game (the first few distinct ones). Runs last: it resizes the window."""
        from kivy.core.window import Window

        from devtools.fit import check_tree
        from devtools.touchplay import start

        found: list[str] = []
        try:
            for size in ((1920, 1080), (1280, 800)):
                Window.size = size
                frames(4)
                for key in ("maki", "wasabi"):
                    for position in ("south-west", "west"):
                        human = app.table.by_position(position).index
                        others = [s.index for s in app.table.seats if s.index != human][:2]
                        session = start(app, key, [(human, None)] + [(o, "easy") for o in others], seed=5)
                        screen = app.sm.current_screen
                        panel = screen.panels[human]
                        g = session.game_seat_of(human)
                        bot = app.games[key].bots["easy"](g, 3)
                        seen: set[tuple[str, ...]] = set()
                        for _ in range(200):
                            st = session.state
                            if st.is_over() or len(seen) >= 4:
                                break
                            if st.to_move() != [g]:
                                tick(1)  # waiting for the bots: no need to draw
                                continue
                            tick(3)
                            kinds = tuple(sorted({type(a).__name__ for a in st.legal_actions(g)}))
                            if kinds not in seen:
                                seen.add(kinds)
                                panel.ids.tray.open()
                                tick(3)
                                frames(2)
                                where = f"{size[0]}x{size[1]} {key} {position} {kinds}"
                                found += [f"{where}: {p}" for p in check_tree(panel, size)]
                                panel.ids.tray.close()
                            session.apply(g, bot.choose(st))
                            tick(2)
        finally:
            Window.size = (1920, 1080)
            frames(3)
        assert not found, "\n".join(found)

    run_scenarios(
        {
            "maki_attract": lambda: attract("maki"),
            "maki_human_and_bot": lambda: human_and_bot("maki"),
            "maki_tap_board": lambda: tap_board("maki"),
            "wasabi_attract": lambda: attract("wasabi"),
            "wasabi_human_and_bot": lambda: human_and_bot("wasabi"),
            "wasabi_tap_board": lambda: tap_board("wasabi"),
            "maki_seat_language": lambda: seat_language("maki"),
            "wasabi_seat_language": lambda: seat_language("wasabi"),
            "trays_fit": trays_fit,
        },
        out,
    )
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
