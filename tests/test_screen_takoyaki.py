"""The Takoyaki screen end to end, in a real Kivy window (Xvfb in CI), driven by simulated touches and seat events.

Every scenario runs in one child process (this file run as a script, see ``conftest.py``): it builds the real
:class:`kiosk.app.KioskApp`, starts games through ``app.start_game`` (the shell's own entry point after the join
screen), and drives the real screen with ``UnitTestTouch`` touches dispatched through the window and
``SeatEvent`` seat-button / tap-stick events through the input hub. Screenshots go to ``artifacts/``.
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
    frames,
    run_child,
    run_for,
    run_scenarios,
    run_until,
    screenshot,
    seat_event,
    tap,
    tap_at,
    tick,
    to_window,
)

pytestmark = pytest.mark.ui
#: The child's bound (real seconds: a hung child; the scenarios run on virtual time); the file's is a minute more.
CHILD_S = 600

HERE = Path(__file__).resolve()
PAD = "TAKOYAKI!\n(claim)"
SCENARIOS = [
    "screen_four_seats",
    "push_turn_by_gestures",
    "fault_hand_on_grill",
    "fault_ball_fell_off",
    "fault_ball_picked_up_past_one_space",
    "fault_ball_picked_up_over_ball",
    "wrong_claim_locks_out",
    "claims_by_pad_button_and_stick",
    "full_race_humans_and_bots",
    "time_trial_to_high_score",
    "seats_read_their_languages",
]


# =============================================================================================== pytest side
@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(HERE, tmp_path_factory.mktemp("takoyaki-screen"), timeout=CHILD_S)


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(results: dict[str, Any], name: str) -> None:
    assert name in results, f"scenario {name} did not run; results: {sorted(results)}"
    assert results[name] == "ok", results[name]


# =============================================================================================== scenarios
class Table:
    """The app plus Takoyaki-specific helpers for the scenarios below."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.screen = app.launcher.game_screens["takoyaki"]
        self.screen.COUNTDOWN_S = 0.3
        self.screen.BETWEEN_S = 0.2

    def start(self, seats: list[tuple[str, str | None]], seed: int = 5) -> Any:
        app = self.app
        if app.session is not None:
            app.launcher.end()
        app.start_game("takoyaki", [(app.table.by_position(p).index, lv) for p, lv in seats], seed=seed)
        assert app.sm.current == "game:takoyaki", app.sm.current
        run_until(lambda: not self.screen.counting_down, 5, "the countdown")
        frames(2)
        return app.session

    def panel(self, position: str) -> Any:
        return self.screen.panels[self.app.table.by_position(position).index]

    def pad(self, position: str) -> Any:
        """The seat's claim pad, once it is enabled (it is disabled during a countdown and while out)."""
        run_until(lambda: bool(buttons(self.panel(position), PAD)), 3, f"{position}'s claim pad")
        return buttons(self.panel(position), PAD)[0]

    def g(self, position: str) -> int:
        g = self.app.session.game_seat_of(self.app.table.by_position(position).index)
        assert g is not None
        return g

    def space_point(self, position: str, s: int, dx: float = 0.0, dy: float = 0.0) -> tuple[float, float]:
        """Window point of grill space ``s`` of a seat (offsets in cells, in the seat's own directions)."""
        grill = self.panel(position).ids.grill
        x, y = grill.space_center(s)
        return to_window(grill, x + dx * grill.cell, y + dy * grill.cell)

    def drag(self, position: str, path: list[tuple[int, float, float]]) -> None:
        """Finger down on the first space, moving through the listed (space, dx, dy) points, then up."""
        s0, dx, dy = path[0]
        f = Finger(*self.space_point(position, s0, dx, dy))
        for s, dx, dy in path[1:]:
            f.move(*self.space_point(position, s, dx, dy))
        f.up()
        tick()

    def push(self, position: str, src: int, dst: int) -> None:
        self.drag(position, [(src, 0, 0), (src, (dst % 4 - src % 4) * 0.3, -(dst // 4 - src // 4) * 0.3), (dst, 0, 0)])

    def double_tap(self, position: str, s: int) -> None:
        p = self.space_point(position, s)
        tap_at(*p)
        tap_at(*p)
        tick()

    def swipe(self, position: str, s: int) -> None:
        self.drag(position, [(s, -0.3, 0), (s, 0, 0), (s, 0.3, 0)])

    def cook(self, position: str, use_swipe: bool = False) -> None:
        """Play the solver's optimal moves for this seat's grill through gestures."""
        from kiosk.games.takoyaki.actions import Push as P
        from kiosk.games.takoyaki.solver import solve

        state = self.app.session.state
        g = self.g(position)
        dealt = state.dealt
        for i, move in enumerate(solve(state.grill(g), state.current_order).moves):
            if state.dealt != dealt or self.screen.counting_down or g not in state.to_move():
                return  # somebody else won the order meanwhile
            before = state.moves()[g]
            if isinstance(move, P):
                self.push(position, move.src, move.dst)
            elif use_swipe and i % 2:
                self.swipe(position, move.space)
            else:
                self.double_tap(position, move.space)
            assert state.moves()[g] == before + 1, f"{move} by gesture was not applied ({self.panel(position).message})"
            if state.current_order is None or g not in state.to_move():
                return


def child_main(tmp: Path, out: Path) -> None:
    app = build_app(tmp / "state")
    tb = Table(app)
    ORDER = ["south-west", "west", "north-east", "east"]

    def screen_four_seats() -> None:
        session = tb.start([("south-west", None), ("west", None), ("north-east", "hard"), ("east", "normal")])
        run_for(2.5)  # the bots cook a few moves
        tb.double_tap("south-west", 8)  # fried side up: upper-case letter, dark crust ring
        tb.double_tap("west", 0)
        assert session.state.grill_text(tb.g("south-west")).endswith("Bb..")
        # a human drags a ball half a space and holds it: the screenshot shows a ball under a finger
        f = Finger(*tb.space_point("south-west", 4))
        f.move(*tb.space_point("south-west", 4, 0.45, 0))
        tb.panel("west").show_message("You are out: a hand touched the grill")
        screenshot("takoyaki_four_seats")
        f.up()
        frames(1)
        for pos in ORDER:
            p = tb.panel(pos)
            assert p.in_game and p.order_shown, pos
            assert p.seat.label.split()[1] in ("Circle", "Heart", "Diamond", "Square")
        assert session.state.current_order is not None
        from kivy.lang import Builder

        assert sum(f.endswith("takoyaki/screen.kv") for f in Builder.files) == 1, "its screen.kv is loaded exactly once"

    def push_turn_by_gestures() -> None:
        session = tb.start([("south-west", None), ("west", None), ("north-east", None), ("east", None)])
        st = session.state
        for pos in ORDER:  # every side, so every rotation maps touches to the seat's own spaces
            g = tb.g(pos)
            for src, dst, after in (
                (1, 2, "r.r./gg../bb.."),
                (5, 1, "rgr./g.../bb.."),
                (4, 5, "rgr./.g../bb.."),
                (0, 4, ".gr./rg../bb.."),
                (2, 3, ".g.r/rg../bb.."),
                (3, 2, ".gr./rg../bb.."),
            ):
                tb.push(pos, src, dst)  # right, up, right, down, right, left
                assert st.grill_text(g) == after, (pos, src, dst, st.grill_text(g))
            tb.double_tap(pos, 8)
            assert st.grill_text(g) == ".gr./rg../Bb..", (pos, st.grill_text(g))
            tb.swipe(pos, 8)
            assert st.grill_text(g) == ".gr./rg../bb..", (pos, st.grill_text(g))
            assert g in st.to_move(), f"{pos}: a legal gesture must not fault"
        # a single tap is not a turn; a tap on an empty space does nothing
        g = tb.g("south-west")
        before = st.grill_text(g)
        tap_at(*tb.space_point("south-west", 8))
        run_for(0.6)
        tap_at(*tb.space_point("south-west", 8))
        tap_at(*tb.space_point("south-west", 11))
        frames(1)
        assert st.grill_text(g) == before and g in st.to_move()

    def _fault_setup() -> tuple[Any, int]:
        session = tb.start([("south-west", None), ("north-east", None)])
        return session, tb.g("south-west")

    def fault_hand_on_grill() -> None:
        session, g = _fault_setup()
        grill_before = session.state.grill_text(g)
        fingers = [Finger(*tb.space_point("south-west", s)) for s in (2, 6, 10)]  # three contacts
        frames(1)
        for f in fingers:
            f.up()
        frames(2)
        st = session.state
        assert st.out[g] == "hand_on_grill", st.out
        assert st.grill_text(g) == grill_before
        assert "hand" in tb.panel("south-west").out_text
        assert tb.g("north-east") in st.to_move(), "the other seat races on"
        # two hands of one player (two contacts) are fine
        session2, g2 = _fault_setup()
        a = Finger(*tb.space_point("south-west", 1))
        b = Finger(*tb.space_point("south-west", 9))
        a.move(*tb.space_point("south-west", 2)), b.move(*tb.space_point("south-west", 10))
        a.up(), b.up()
        frames(1)
        assert session2.state.out[g2] is None and session2.state.grill_text(g2) == "r.r./gg../b.b.", (
            session2.state.grill_text(g2)
        )

    def fault_ball_fell_off() -> None:
        session, g = _fault_setup()
        before = session.state.grill_text(g)
        tb.drag("south-west", [(4, 0, 0), (4, -0.4, 0), (4, -0.8, 0), (4, -1.2, 0)])  # off the left edge
        assert session.state.out[g] == "ball_fell_off", session.state.out
        assert session.state.grill_text(g) == before, "the ball springs back"
        assert "fell" in tb.panel("south-west").out_text
        screenshot("takoyaki_fault")
        # out: further gestures do nothing and raise nothing
        tb.push("south-west", 0, 1)
        assert session.state.grill_text(g) == before

    def fault_ball_picked_up_past_one_space() -> None:
        session, g = _fault_setup()
        tb.drag("south-west", [(1, 0, 0), (2, 0, 0), (3, 0, 0)])  # two spaces in one drag
        assert session.state.out[g] == "ball_picked_up", session.state.out

    def fault_ball_picked_up_over_ball() -> None:
        session, g = _fault_setup()
        tb.drag("south-west", [(0, 0, 0), (1, 0, 0)])  # onto the other red ball
        assert session.state.out[g] == "ball_picked_up", session.state.out

    def wrong_claim_locks_out() -> None:
        session, g = _fault_setup()
        panel = tb.panel("south-west")
        tap(tb.pad("south-west"))
        frames(2)
        st = session.state
        assert st.out[g] == "wrong_claim"
        assert "wrong claim" in panel.out_text
        assert not buttons(panel, PAD), "the pad is disabled while locked out"
        seat = app.table.by_position("south-west").index
        before = len(st.journal)
        seat_event(app, seat, "button", "press", "a")  # the seat button does nothing while out
        seat_event(app, seat, "button", "release", "a")
        tb.push("south-west", 1, 2)  # nor do gestures
        assert len(st.journal) == before and st.out[g] == "wrong_claim"
        # the other seat wins the order: the locked-out seat is back for the next one
        tb.cook("north-east")
        tap(tb.pad("north-east"))
        run_until(lambda: st.dealt == 2 and not tb.screen.counting_down, 5, "the next order")
        assert st.out[g] is None and st.won[tb.g("north-east")], (st.out, st.won)

    def claims_by_pad_button_and_stick() -> None:
        session = tb.start([("south-west", None), ("north-east", None), ("east", None)])
        st = session.state
        for pos, how in (("south-west", "pad"), ("north-east", "button"), ("east", "stick")):
            g = tb.g(pos)
            tb.cook(pos, use_swipe=(how == "stick"))
            won = len(st.won[g])
            seat = app.table.by_position(pos).index
            if how == "pad":
                tap(tb.pad(pos))
            elif how == "button":
                seat_event(app, seat, "button", "press", "a")
                seat_event(app, seat, "button", "release", "a")
            else:
                seat_event(app, seat, "tap", "tap", "left")
            assert len(st.won[g]) == won + 1, (pos, how, st.won)
            run_until(lambda: not tb.screen.counting_down, 5, "the next order")
        assert [t[0] for t in tb.screen.order_times] == [tb.g(p) for p in ("south-west", "north-east", "east")]

    def full_race_humans_and_bots() -> None:
        from kiosk import clock

        session = tb.start([("south-west", None), ("west", "easy"), ("north-east", None), ("east", "normal")])
        st = session.state
        humans = ["south-west", "north-east"]
        turn = 0
        end = clock.now() + 120  # virtual seconds: every pass of the loop turns a frame
        while not st.is_over() and clock.now() < end:
            pos = humans[turn % 2]
            turn += 1
            g = tb.g(pos)
            if tb.screen.counting_down or g not in st.to_move():
                tick(1)  # waiting for the bots: no need to draw
                continue
            tb.cook(pos)
            if g in st.to_move() and st.current_order is not None:
                seat_event(app, app.table.by_position(pos).index, "key", "press", "a")
                seat_event(app, app.table.by_position(pos).index, "key", "release", "a")
            run_until(lambda: not tb.screen.counting_down, 5, "the next order")
        assert st.is_over(), "the race finished"
        assert max(st.scores()) == 5
        assert sum(st.scores()) == len(tb.screen.order_times)
        run_until(lambda: app.mode == "results", 5, "the results screen")
        screenshot("takoyaki_results")

    def time_trial_to_high_score() -> None:
        if app.mode == "results":
            app.go_attract()
            frames(2)
        from kiosk import clock

        session = tb.start([("south-west", None)])
        st = session.state
        end = clock.now() + 120  # virtual seconds: every pass of the loop turns frames
        while not st.is_over():
            assert clock.now() < end, "the time trial did not end in time"
            tb.cook("south-west", use_swipe=True)
            tap(tb.pad("south-west"))
            run_until(lambda: not tb.screen.counting_down, 5, "the next order")
        assert tb.screen.trial_time is not None and session.trial_time == tb.screen.trial_time
        assert len(tb.screen.order_times) == 5
        assert 0 < tb.screen.trial_time < 120
        run_until(lambda: app.mode == "results", 5, "the results screen")
        frames(3)
        pad = app.results.pads[app.table.by_position("south-west").index]
        assert pad.entering, "a finished trial enters the board"
        tap(buttons(pad, "OK")[0])
        assert "Saved" in pad.saved, pad.saved
        board = app.scores.top("takoyaki-trial", 5) or app.scores.top("takoyaki", 5)
        assert board, "the entry is on the board"
        if app.scores.top("takoyaki-trial", 5):  # the shell's time-trial board: milliseconds, lower is better
            assert board[0].score == int(round(tb.screen.trial_time * 1000)), (board, tb.screen.trial_time)
        screenshot("takoyaki_trial_results")

    def seats_read_their_languages() -> None:
        """A seat in French reads its grill's words in French, another in Japanese (in the CJK face), and the
        centre the table's language (German); the call TAKOYAKI! stays in every language."""
        from kivy.uix.label import Label

        from kiosk.i18n import CJK, font_for

        if app.mode == "results":
            app.go_attract()
            frames(2)
        if app.session is not None:
            app.launcher.end()
        app.use_config(app.cfg.replace(language={"default": "de", "enabled": ["de", "en", "ja", "fr", "es"]}))
        try:
            spec = app.games["takoyaki"]
            fr_i, ja_i = (app.table.by_position(p).index for p in ("south-west", "north-east"))
            state = spec.new_game(2, 5)
            seats = state.seating(sorted([fr_i, ja_i]))
            meta = {"languages": {str(fr_i): "fr", str(ja_i): "ja"}}
            app.launcher.launch(spec, state, [(i, None) for i in seats], 5, None, meta)
            run_until(lambda: app.sm.current == "game:takoyaki" and not tb.screen.counting_down, 5, "the countdown")
            frames(2)
            fr, ja, screen = tb.panel("south-west"), tb.panel("north-east"), tb.screen
            assert (fr.language, ja.language, screen.language) == ("fr", "ja", "de")
            # each seat's grill: its claim pad, its status, its orders and its order card in its own language
            assert buttons(fr, "TAKOYAKI!\n(annoncer)") and buttons(ja, "TAKOYAKI!\n\uff08\u5ba3\u8a00\uff09")
            assert fr.status == "Préparez la commande\u00a0!" and ja.status == "注文を 焼こう！", (fr.status, ja.status)
            assert fr.orders_text.startswith("Commandes 0/5") and ja.orders_text.startswith("注文 0/5")
            card_words = {
                p: [w.text for w in p.ids.order.walk(restrict=True) if isinstance(w, Label)] for p in (fr, ja)
            }
            assert "crue" in card_words[fr] and "生" in card_words[ja], card_words
            # the balls' letters (the colour-blind cue) too: French rouge/vert/bleu, Japanese kanji (raw side up)
            fr_balls, ja_balls = ([b for b in p.ids.grill.balls if b.space >= 0] for p in (fr, ja))
            assert {b.letter for b in fr_balls} == {"r", "v", "b"}, [b.letter for b in fr_balls]
            assert {b.letter for b in ja_balls} == {"赤", "緑", "青"}, [b.letter for b in ja_balls]
            # Japanese is set in the CJK face (when installed), French in the usual one
            cjk = font_for("ja")
            assert all(b.children[0].font_name == cjk for b in ja_balls) or not cjk
            assert buttons(ja, "TAKOYAKI!\n\uff08\u5ba3\u8a00\uff09")[0].font_name == (cjk or buttons(fr)[0].font_name)
            assert buttons(fr, "TAKOYAKI!\n(annoncer)")[0].font_name != CJK
            # hint mode: the solver's next move in the seat's words
            fr.hints = True
            frames(2)
            assert fr.prompt.startswith("Indice\u00a0: "), fr.prompt
            # the centre reads the table's language
            assert screen.centre_text.startswith("Bestellung 1 ("), screen.centre_text
            assert "Karten" in screen.centre_text and "Kreis" in screen.centre_text, screen.centre_text
            # a fault: the seat's veil says why, in its language; then a wrong claim at the other seat: nobody is
            # left racing and each seat reads that the order is set aside in its own language
            tb.drag("south-west", [(4, 0, 0), (4, -0.4, 0), (4, -0.8, 0), (4, -1.2, 0)])  # off the left edge
            frames(2)
            assert "HORS JEU\u00a0: une boule est tombée du gril" in fr.out_text, fr.out_text
            assert fr.status == "Hors jeu pour cette commande", fr.status
            screenshot("takoyaki_languages_fr_ja")
            tap(buttons(ja, "TAKOYAKI!\n\uff08\u5ba3\u8a00\uff09")[0])
            frames(2)
            assert fr.message == "Personne n\u2019a réussi\u00a0: la commande est mise de côté", fr.message
            assert ja.message == "だれも 仕上げられず： 注文は 流れました", ja.message
        finally:
            app.use_config(app.cfg.replace(language={"default": "en", "enabled": ["en"]}))

    run_scenarios(
        {
            "screen_four_seats": screen_four_seats,
            "push_turn_by_gestures": push_turn_by_gestures,
            "fault_hand_on_grill": fault_hand_on_grill,
            "fault_ball_fell_off": fault_ball_fell_off,
            "fault_ball_picked_up_past_one_space": fault_ball_picked_up_past_one_space,
            "fault_ball_picked_up_over_ball": fault_ball_picked_up_over_ball,
            "wrong_claim_locks_out": wrong_claim_locks_out,
            "claims_by_pad_button_and_stick": claims_by_pad_button_and_stick,
            "full_race_humans_and_bots": full_race_humans_and_bots,
            "time_trial_to_high_score": time_trial_to_high_score,
            "seats_read_their_languages": seats_read_their_languages,
        },
        out,
    )
    app.launcher.end()
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
