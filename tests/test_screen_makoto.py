"""The Makoto screen end to end, in a real Kivy window (Xvfb in CI), driven by simulated touches and seat events.

As in tests/test_screen_takoyaki.py (whose child-process kit this file reuses), every scenario runs in one child
process with the real :class:`kiosk.app.KioskApp`: Kivy allows one App per process and tests/test_ui.py owns the
pytest process's. Humans play through the real widgets: a finger holds the seat's private tray open while
another finger taps cards and buttons; bots play through the session at a fast test pace.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    Finger,
    build_app,
    buttons,
    centre_of,
    frames,
    run_child,
    run_for,
    run_scenarios,
    run_until,
    screenshot,
    seat_event,
    tap,
    tick,
)

pytestmark = [pytest.mark.ui, pytest.mark.slow]  # whole matches played by bots: about two minutes
#: The child's bound (real seconds: a hung child; the scenarios run on virtual time); the file's is a minute more.
CHILD_S = 600

HERE = Path(__file__).resolve()
SCENARIOS = [
    "screen_four_seats",
    "hand_never_visible_to_another_seat",
    "illegal_choices_disabled_and_errors",
    "undo_within_turn",
    "match_with_score_sheet_to_high_score",
    "match_resumes_after_a_crash",
    "hand_shows_whole_numbers_at_1280x800",
    "long_hand_pages_at_a_short_edge",
    "seat_status_fits_at_1280x800",
    "long_play_button_fits_a_short_edge",
]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(HERE, tmp_path_factory.mktemp("makoto-screen"), timeout=CHILD_S)


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(results: dict[str, Any], name: str) -> None:
    assert name in results, f"scenario {name} did not run; results: {sorted(results)}"
    assert results[name] == "ok", results[name]


# =============================================================================================== child
def quick_tap(widget: Any) -> None:
    """A tap on a widget, then the clock runs (no frame rendered: Xvfb's software frames are slow)."""
    assert widget.get_root_window() is not None, f"{widget} is not on screen"
    Finger(*centre_of(widget)).up()
    tick()


def card_point(card: Any) -> tuple[float, float]:
    """Where a finger taps a card of a hand: its top-left corner with its number, the part always in view (the
    next card of the row may cover its right part, the next row its lower part, as in a hand held in real life)."""
    shown = card.corner or card.width
    return card.to_window(card.x + shown * 0.5, card.top - min(card.height * 0.25, 18))


def tap_card(card: Any) -> None:
    assert card.get_root_window() is not None, f"{card} is not on screen"
    Finger(*card_point(card)).up()
    tick()


def page_to(panel: Any, code: int) -> None:
    """Turn a paged hand's pages (as a player does, with the page buttons) until an unselected ``code`` shows."""
    hand = panel.ids.hand

    def shown() -> bool:
        return any(b.code == code and not b.selected and b.opacity > 0 for b in panel.cards)

    while not shown() and hand.page > 0:
        tap_card(hand.back)
    while not shown() and hand.fore.opacity > 0:
        tap_card(hand.fore)


def point_in(widget: Any, fx: float, fy: float) -> tuple[float, float]:
    x, y = widget.to_window(widget.x + widget.width * fx, widget.y + widget.height * fy)
    return float(x), float(y)


class Table:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.screen = app.launcher.game_screens["makoto"]

    def start(self, seats: list[tuple[str, str | None]], games: int = 1, seed: int = 7) -> Any:
        app = self.app
        if app.mode == "results":
            app.go_attract()
            frames(1)
        if app.session is not None:
            app.launcher.end()
        self.screen.match_games = games
        app.start_game("makoto", [(app.table.by_position(p).index, lv) for p, lv in seats], seed=seed)
        assert app.sm.current == "game:makoto", app.sm.current
        frames(2)
        return app.session

    def panel(self, position: str) -> Any:
        return self.screen.panels[self.app.table.by_position(position).index]

    def g(self, position: str) -> int:
        return int(self.app.session.game_seat_of(self.app.table.by_position(position).index))

    def hold(self, position: str) -> Finger:
        """A finger on the seat's tray (its prompt line, not a button): the tray opens."""
        tray = self.panel(position).ids.tray
        f = Finger(*point_in(tray, 0.5, 0.96))
        tick(4)  # the tray opens, the seat's status makes room, the hand is laid out (and paged) in its new box
        assert tray.is_open, f"{position}'s tray did not open"
        return f

    def play_turn(self, position: str, n: int) -> None:
        """One step for a human seat, through touches: choose by the screen's enabled widgets only."""
        from kiosk.games.makoto.actions import Play
        from kiosk.games.makoto.rules import BLIND, ORACLE_STEP, PLAY
        from kiosk.games.makoto.words import card_text

        panel = self.panel(position)
        st = self.app.session.state
        g = self.g(position)
        hold = self.hold(position)
        try:
            phase = st.phase
            if phase == PLAY:
                legal = [a for a in st.legal_actions(g) if isinstance(a, Play)]
                cmds = {t: c for t, c, ok in self.screen.commands_for(panel) if ok}
                if "Pass" in cmds and (n % 3 == 0 or not legal):
                    quick_tap(
                        buttons(panel, "Pass + draw \u2600" if "Pass + draw \u2600" in cmds and n % 2 else "Pass")[0]
                    )
                    return
                # choose the lowest legal play card by card (every card tapped must be enabled)
                play = min(legal, key=lambda a: (len(a.cards), max(c % 20 for c in a.cards)))
                want = sorted(play.cards)
                for c in want:
                    page_to(panel, c)
                    slot = next(
                        i for i, b in enumerate(panel.cards) if b.code == c and not b.selected and b.opacity > 0
                    )
                    assert not panel.cards[slot].disabled, f"card {c} of a legal play is disabled"
                    tap_card(panel.cards[slot])
                    tick()
                label = [t for t, cmd, ok in self.screen.commands_for(panel) if ok and isinstance(cmd, Play)]
                assert label and label[0].startswith("Play "), label
                quick_tap(buttons(panel, label[0])[0])
            elif phase == BLIND:
                texts = [t for t, _c, ok in self.screen.commands_for(panel) if ok]
                take = [t for t in texts if t.startswith("Take ")]
                end = "End turn"
                quick_tap(buttons(panel, take[0] if take and n % 2 else end)[0])
            elif phase == ORACLE_STEP:
                slot = next(i for i, b in enumerate(panel.cards) if b.fresh)
                tap_card(panel.cards[slot])
                tick()
                quick_tap(buttons(panel, f"Discard {card_text(panel.cards[slot].code)} to Oracle")[0])
        finally:
            hold.up()
            tick()

    def play_out(self, humans: list[str], timeout: float = 120) -> int:
        """Humans play through touches, bots through the session, until the game is over (``timeout`` virtual
        seconds at most). Returns human steps."""
        from kiosk import clock

        session = self.app.session
        st = session.state
        n = 0
        end = clock.now() + timeout
        while not st.is_over():
            assert clock.now() < end, "the game did not end in time"
            if session.state is not st:
                break
            mover = next((p for p in humans if st.to_move() == [self.g(p)]), None)
            if mover is None:
                tick()
                continue
            before = len(st.journal)
            self.play_turn(mover, n)
            n += 1
            assert len(st.journal) > before, f"{mover}'s step was not applied ({self.panel(mover).error})"
        return n


def child_main(tmp: Path, out: Path) -> None:
    app = build_app(tmp / "state", bots={"move_delay_s": 0.0, "default_level": "easy"})
    tb = Table(app)
    four = [("south-west", None), ("west", "normal"), ("north-east", None), ("east", "easy")]

    def screen_four_seats() -> None:
        session = tb.start(four)
        st = session.state
        # the south-west human leads; the bots answer: the centre shows a combination
        assert st.to_move() == [tb.g("south-west")], "the south-west human leads (seed 7)"
        tb.play_turn("south-west", 1)
        assert st.turn != tb.g("south-west"), f"south-west's turn did not end (phase {st.phase})"
        run_until(lambda: st.to_move() == [tb.g("north-east")], 5, "the bot to play")
        panel = tb.panel("north-east")
        hold = tb.hold("north-east")  # the top seat looks at its hand and picks a card
        tick(2)
        enabled = [b for b in panel.cards if b.opacity > 0 and not b.disabled]
        assert enabled, "the seat to move has cards it can play"
        tap_card(enabled[-1])
        assert any(t.startswith("Play ") for t in panel.labels), panel.labels
        screenshot("makoto_four_seats")
        hold.up()
        tick()
        assert not any(b.text for p in tb.screen.panels.values() for b in p.cards), "all hands hidden again"
        from kivy.lang import Builder

        assert sum(f.endswith("makoto/screen.kv") for f in Builder.files) == 1, "its screen.kv is loaded exactly once"

    def hand_never_visible_to_another_seat() -> None:
        tb.start(four)
        positions = ["south-west", "west", "north-east", "east"]
        # only the human seat whose turn it is has its tray open, by itself; closed here, to be opened by touch
        turn = app.session.state.turn
        for pos in positions:
            tray = tb.panel(pos).ids.tray
            mine = not tb.panel(pos).is_bot and tb.panel(pos).game_seat == turn
            assert tray.is_open == mine, f"{pos}: open {tray.is_open}, its turn with a human {mine}"
            tray.close()
        tick()
        for holder in ("south-west", "north-east"):
            f = tb.hold(holder)
            for pos in positions:
                panel = tb.panel(pos)
                texts = [b.text for b in panel.cards if b.text]
                if pos == holder:
                    assert len(texts) == len(panel.hand) > 0
                else:
                    assert not panel.ids.tray.is_open, f"{pos}'s tray opened on {holder}'s touch"
                    assert texts == [], f"{pos}'s hand is on screen while {holder} holds theirs"
            f.up()
            tick()
            assert tb.panel(holder).ids.tray.is_open, "a tap opens the tray and it stays open"
            Finger(*point_in(tb.panel(holder).ids.tray, 0.5, 0.96)).up()  # a second tap closes it
            tick()
            assert all(not b.text for b in tb.panel(holder).cards), "tapped again: the hand is hidden again"
        # a touch in the centre or on another seat's badge opens nobody's tray
        for x, y in [(960, 540), tuple(point_in(tb.panel("east").ids.tray.parent.children[-1], 0.5, 0.5))]:
            f = Finger(x, y)
            tick()
            assert not any(p.ids.tray.is_open for p in tb.screen.panels.values())
            f.up()
        # bots' trays never open, even on a touch
        f = Finger(*point_in(tb.panel("west").ids.tray, 0.5, 0.5))
        tick()
        assert not tb.panel("west").ids.tray.is_open
        f.up()
        # a seat button at a human seat with nothing to choose (not its turn) holds the tray open, only that seat's
        waiting = "north-east" if app.session.state.turn != tb.g("north-east") else "south-west"
        other = "south-west" if waiting == "north-east" else "north-east"
        seat = app.table.by_position(waiting).index
        seat_event(app, seat, "key", "press", "b")
        assert tb.panel(waiting).ids.tray.is_open and not tb.panel(other).ids.tray.is_open
        seat_event(app, seat, "key", "release", "b")
        assert not tb.panel(waiting).ids.tray.is_open

    def illegal_choices_disabled_and_errors() -> None:
        from kiosk.games.makoto.actions import Pass, Play

        session = tb.start(four)
        st = session.state
        g = tb.g("south-west")
        assert st.to_move() == [g]
        panel = tb.panel("south-west")
        hold = tb.hold("south-west")
        plays = [a for a in st.legal_actions(g) if isinstance(a, Play)]
        # every enabled card is part of some legal play; leading, every card is (any single goes)
        enabled = [b for b in panel.cards if b.opacity > 0 and not b.disabled]
        assert len(enabled) == len(panel.hand)
        assert not buttons(panel, "Pass"), "the leader cannot pass: no Pass button"
        # select a card, then every card that cannot join it in a legal play is disabled
        tap_card(enabled[0])
        tick()
        first = panel.hand[0]
        for i, b in enumerate(panel.cards[: len(panel.hand)]):
            ok = any(
                first in a.cards
                and panel.hand[i] in a.cards
                and (panel.hand[i] != first or list(a.cards).count(first) >= 2)
                for a in plays
            )
            if i != 0:
                assert b.disabled == (not ok), (panel.hand, i, b.disabled)
        assert any(t.startswith("Play a single") for t in panel.labels), panel.labels
        hold.up()
        tick()
        # a RuleError that gets through (out of turn) is shown at that seat, and nothing changes
        other = tb.panel("north-east")
        before = len(st.journal)
        tb.screen.command(other, Pass(False))
        frames(1)
        assert len(st.journal) == before
        assert "turn" in other.error, other.error
        assert tb.panel("south-west").error == ""

    def undo_within_turn() -> None:
        from kiosk.games.makoto.rules import BLIND

        # find a seed-independent situation: a play that leaves a Blind step (a card lower than the play exists)
        session = tb.start([("south-west", None), ("north-east", None)])
        st = session.state
        g = tb.g("south-west")
        panel = tb.panel("south-west")
        hand = sorted(st.hands[g], key=lambda c: c % 20)
        top = max(hand, key=lambda c: c % 20)
        hold = tb.hold("south-west")
        slot = next(i for i, b in enumerate(panel.cards) if b.code == top)
        tap_card(panel.cards[slot])
        tick()
        tap(buttons(panel, next(t for t in panel.labels if t.startswith("Play")))[0])
        tick()
        assert st.phase == BLIND and st.turn == g, "a high single leaves the Blind step"
        journal = list(st.journal)
        tap(buttons(panel, "\u21b6 Take back")[0])
        tick()
        restored = session.state
        assert restored.phase != BLIND and restored.current is None and top in restored.hands[g]
        assert restored.journal == journal[:-1]
        # after the take-back the same play can be made again, then the turn ends: no undo any more
        slot = next(i for i, b in enumerate(panel.cards) if b.code == top)
        tap_card(panel.cards[slot])
        tick()
        tap(buttons(panel, next(t for t in panel.labels if t.startswith("Play")))[0])
        tick()
        tap(buttons(panel, "End turn")[0])
        tick()
        assert not buttons(panel, "\u21b6 Take back")
        hold.up()
        tick()
        assert isinstance(restored.journal[-1], dict) and session.state.turn != g

    def match_with_score_sheet_to_high_score() -> None:
        session = tb.start(four, games=2)
        first = session.state
        steps = tb.play_out(["south-west", "north-east"])
        run_until(lambda: tb.screen.sheet, 5, "the score sheet")
        assert first.is_over() and session.state is not first
        sheet = tb.screen.match.score_sheet()
        assert sheet["played"] == 1 and sheet["rows"][0] == first.scores()
        assert session.state.lid_holder == sheet["lid_holder"], "the lowest scorer holds the lid"
        assert "Score sheet" in tb.screen.sheet_text
        screenshot("makoto_score_sheet")
        run_for(2.0)  # bots would have moved by now, were the session not paused
        assert len(session.state.journal) == 2, "the session is paused while the sheet shows"
        tap(buttons(tb.panel("north-east"), "Next game \u25b6")[0])
        assert not tb.screen.sheet
        second = session.state
        steps += tb.play_out(["south-west", "north-east"])
        assert second.is_over() and steps > 4
        totals = [a + b for a, b in zip(first.scores(), second.scores())]
        assert session.state.scores() == totals, "the results score the match"
        run_until(lambda: app.mode == "results", 6, "the results screen")
        frames(3)
        humans = [app.table.by_position(p).index for p in ("south-west", "north-east")]
        entering = [app.results.pads[i] for i in humans if app.results.pads[i].entering]
        assert entering, "a human's match score enters the empty board"
        screenshot("makoto_results")
        for pad in entering:
            tap(buttons(pad, "OK")[0])
            assert "Saved" in pad.saved, pad.saved
        assert sorted(e.score for e in app.scores.top("makoto", 5)) == sorted(p.score for p in entering)

    def match_resumes_after_a_crash() -> None:
        import json

        from kiosk.storage import SavedGames

        bots: list[tuple[str, str | None]] = [("south-west", "easy"), ("west", "easy"), ("north-east", "easy")]
        root = app.state_dir / "games"
        before = set((root / "active").glob("*.jsonl"))  # earlier scenarios' games, left unfinished
        session = tb.start(bots, games=3)
        first = session.state
        run_until(lambda: tb.screen.sheet or app.mode == "results", 120, "the end of the first game")
        assert tb.screen.sheet, "a three-game match shows the score sheet after game 1"
        # game 1's journal is archived as finished; game 2 has its own, carrying the match so far
        ends = [json.loads(p.read_text().splitlines()[-1]) for p in (root / "archive").glob("*.jsonl")]
        assert any(e.get("end") == "finished" and e["outcome"]["scores"] == first.scores() for e in ends), ends
        (active,) = set((root / "active").glob("*.jsonl")) - before
        header = json.loads(active.read_text().splitlines()[0])
        assert header["meta"]["match"]["results"] == [first.scores()] and header["meta"]["series"] == [2, 3]
        assert header["setup"] == {"dealer": 0, "lid_holder": tb.screen.match.lid_holder}
        tb.screen.next_game()  # (all seats are bots: nobody has the sheet's button)
        run_until(lambda: len(session.state.journal) > 8, 20, "a few moves of game 2")
        # the power goes: the session stops without ending its journal; the kiosk starts again
        session.close()
        crashed = list(session.state.journal)
        app.launcher.end()
        app.saved_games.close()
        app.saved_games = SavedGames(root, specs=app.games)
        app.director.offers = [o for o in app.saved_games.startup() if o.path == active]
        app.go_attract()
        frames(1)
        assert app.attract_screen.offer_visible
        assert app.attract_screen.offer_text.startswith("Resume the Makoto match (game 2 of 3) from "), (
            app.attract_screen.offer_text
        )
        app.director.answer_offer(True)
        resumed = app.session
        assert app.mode == "game" and resumed is not session
        assert list(resumed.state.journal) == crashed, "game 2 resumes at the exact position"
        assert resumed.state.dealer == 0 and resumed.state.lid_holder == header["setup"]["lid_holder"]
        assert tb.screen.match.results == [first.scores()] and tb.screen.match.games == 3
        frames(2)
        assert "game 2 of 3" in tb.screen.centre_text, tb.screen.centre_text
        second = resumed.state
        run_until(lambda: second.is_over(), 120, "the end of the resumed game 2")
        run_until(lambda: tb.screen.sheet, 5, "the score sheet after game 2")
        assert tb.screen.match.results == [first.scores(), second.scores()]
        tb.screen.next_game()
        run_until(lambda: app.mode == "results", 60, "the match's results")
        rows = tb.screen.match.results
        assert len(rows) == 3 and rows[:2] == [first.scores(), second.scores()]
        assert resumed.state.scores() == [sum(r[s] for r in rows) for s in range(3)], (
            "the results score the whole match, the game before the crash included"
        )

    def hand_shows_whole_numbers_at_1280x800() -> None:
        """The bug: at 1280x800 the hand drew 13, 12 and 10 as "3", "2" and "0" (a card too narrow for its
        number). Every card of an open hand shows its whole number; the fit checker finds nothing cut in the tray,
        and every card keeps a touch target's width in view."""
        from kivy.core.window import Window

        from devtools.fit import check_tree

        Window.size = (1280, 800)
        frames(3)
        try:
            tb.start(four)
            panel = tb.panel("south-west")
            hold = tb.hold("south-west")
            tick(3)
            shown = [b for b in panel.cards if b.opacity > 0]
            assert len(shown) >= 13, len(shown)
            numbers = sorted(b.code % 20 for b in shown)
            assert any(n >= 10 for n in numbers), numbers  # a 4-player deal gives every hand two-digit cards
            problems = [p for p in check_tree(panel.ids.tray, (1280, 800)) if p.kind in ("cut", "small_target")]
            assert not problems, "\n".join(str(p) for p in problems)
            for b in shown:  # the number on screen is the card's number
                labels = [w for w in b.walk(restrict=True) if w is not b and getattr(w, "text", "")]
                assert str(b.code % 20) in [w.text for w in labels], (b.code, [w.text for w in labels])
            screenshot("makoto_hand_1280x800")
            hold.up()
            tick()
        finally:
            Window.size = (1920, 1080)
            frames(3)

    def long_hand_pages_at_a_short_edge() -> None:
        """A short side's tray cannot hold an 18-card hand as touch targets: the hand pages instead of shrinking
        its cards. At both sizes nothing in the open tray is cut, too small to read or under a touch target; the
        page buttons reach every card, each showing its whole number; a card selected on one page is still
        selected after turning the page there and back."""
        from kivy.core.window import Window

        from devtools.fit import check_tree

        for size in ((1280, 800), (1920, 1080)):
            Window.size = size
            frames(3)
            try:
                session = tb.start([("west", None), ("north-east", None)])
                st = session.state
                g, other = tb.g("west"), tb.g("north-east")
                while len(st.hands[g]) < 18:  # the tray's longest hand (the other hand gives the cards)
                    st.hands[g].append(st.hands[other].pop())
                panel = tb.panel("west")
                hold = tb.hold("west")
                panel.refresh()
                tick(3)
                hand = panel.ids.hand
                assert hand.pages > 1, f"{size}: 18 cards fit a short side's tray as targets: no paging to test"
                seen: list[int] = []
                for page in range(int(hand.pages)):
                    tick(2)
                    shown = [b for b in panel.cards if b.opacity > 0]
                    problems = [
                        p for p in check_tree(panel.ids.tray, size) if p.kind in ("cut", "small_target", "small_text")
                    ]
                    assert not problems, f"{size} page {page + 1}:\n" + "\n".join(str(p) for p in problems)
                    for b in shown:
                        labels = [w.text for w in b.walk(restrict=True) if w is not b and getattr(w, "text", "")]
                        assert str(b.code % 20) in labels, (size, b.code, labels)
                    seen += [b.code for b in shown]
                    if page == 0:
                        first = shown[0]
                        tap_card(first)
                        assert first.selected, "a tap selects a card"
                    if page < hand.pages - 1:
                        assert hand.fore.opacity > 0 and not hand.fore.disabled
                        tap_card(hand.fore)
                        assert hand.page == page + 1, (size, hand.page, page)
                assert sorted(seen) == sorted(st.hands[g]), (size, sorted(seen), sorted(st.hands[g]))
                while hand.page > 0:  # back to the first page: the selection is still there
                    tap_card(hand.back)
                assert first.opacity > 0 and first.selected, "the selection stays across pages"
                screenshot(f"makoto_long_hand_short_edge_{size[0]}x{size[1]}")
                hold.up()
                tick()
            finally:
                Window.size = (1920, 1080)
                frames(3)

    def seat_status_fits_at_1280x800() -> None:
        """A seat's status column with the most it ever shows (a two-line place, the points won, a match's total,
        the box lid, a refused move, "Next game") fits at 1280x800 at a long and a short edge: nothing cut or
        overlapping (a match's total beside the card backs used to spill over the seat's badge), "Next game" a
        whole touch target."""
        from kivy.core.window import Window

        from devtools.fit import check_tree

        Window.size = (1280, 800)
        frames(3)
        try:
            session = tb.start([("south-west", None), ("west", None)])
            session.pause()
            frames(3)
            # in a game: a place on two lines, the points, the match's total, the lid, a refused move; on the score
            # sheet between games: its status, the points, the total, the lid and "Next game"
            for sheet in (False, True):
                for position in ("south-west", "west"):
                    panel = tb.panel(position)
                    panel.status = "Score sheet" if sheet else "Out: 1. place (+50)"
                    panel.info = "Won 125 pts"
                    panel.match_line = "Match total 135"
                    panel.lid = "\u25a3 Holds the box lid"
                    panel.sheet = sheet
                    panel.error = "" if sheet else "It is not your turn"
                frames(3)
                for position in ("south-west", "west"):
                    problems = check_tree(tb.panel(position), (1280, 800))
                    assert not problems, f"{position}, sheet {sheet}:\n" + "\n".join(str(p) for p in problems)
            screenshot("makoto_seat_status_1280x800")
        finally:
            Window.size = (1920, 1080)
            frames(3)

    def long_play_button_fits_a_short_edge() -> None:
        """A quick play of five cards on a short edge's action button at 1280x800 (four buttons of about 78 px to a
        row): "Play 9 10 11⚔ 12 13⚔" needed three lines of the button's two (seen in the screenshot tour); the
        button drops its "Play " there and the cards fit, while a long edge's wider button at 1920x1080 keeps the
        whole label."""
        from kivy.core.window import Window

        from devtools.fit import check_tree

        label = "Play 9 10 11\u2694 12 13\u2694"
        try:
            for size, position, whole in (((1280, 800), "west", False), ((1920, 1080), "south-west", True)):
                Window.size = size
                frames(3)
                tb.start([(position, None), ("north-east", None)])
                panel = tb.panel(position)
                hold = tb.hold(position)
                panel.refresh()
                tick(3)
                button = next(b for b in panel.actions if b.opacity > 0 and b.parent is not None)
                button.label = label
                tick(2)
                assert button.text == (label if whole else label[len("Play ") :]), (position, button.text)
                problems = [p for p in check_tree(panel.ids.tray, size) if p.kind == "cut"]
                assert not problems, f"{position}:\n" + "\n".join(str(p) for p in problems)
                button.label = "Pass"
                tick(1)
                assert button.text == "Pass", "a short label is shown whole"
                hold.up()
                tick()
        finally:
            Window.size = (1920, 1080)
            frames(3)

    run_scenarios(
        {
            "long_play_button_fits_a_short_edge": long_play_button_fits_a_short_edge,
            "screen_four_seats": screen_four_seats,
            "hand_never_visible_to_another_seat": hand_never_visible_to_another_seat,
            "illegal_choices_disabled_and_errors": illegal_choices_disabled_and_errors,
            "undo_within_turn": undo_within_turn,
            "match_with_score_sheet_to_high_score": match_with_score_sheet_to_high_score,
            "match_resumes_after_a_crash": match_resumes_after_a_crash,
            "hand_shows_whole_numbers_at_1280x800": hand_shows_whole_numbers_at_1280x800,
            "long_hand_pages_at_a_short_edge": long_hand_pages_at_a_short_edge,
            "seat_status_fits_at_1280x800": seat_status_fits_at_1280x800,
        },
        out,
    )
    app.launcher.end()
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
