"""Whole games played from one seat's two buttons alone, in a real Kivy window (Xvfb in CI), against bots.

The seat's buttons are gpiozero ``MockFactory`` pins behind the kiosk's own ``hardware.buttons.SeatButtons`` (the
app runs with ``--hardware mock``): a press is ``pin.drive_low()`` then ``pin.drive_high()``, a hold keeps the pin
low past gpiozero's hold time. The "player" reads only what the seat shows (the seat's choices and the highlighted
one) and steers the highlight with "b" (next) and "a" (choose); it never touches the screen or the session. Bots
play the other seats. As in the other UI tests, every scenario runs in one child process with the real
:class:`kiosk.app.KioskApp` (Kivy allows one App per process).

Takoyaki is played as a whole game too (the first seat to win five orders): the button player cooks each order
with the solver's moves (its "brain"), the bot is an easy one, and each move is chosen on the grill by buttons.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import build_app, frames, run_child, run_for, run_scenarios, run_until, screenshot, tick

pytestmark = [pytest.mark.ui]
#: The child's bound (real seconds: a hung child; the scenarios run on virtual time); the file's is a minute more.
CHILD_S = 600

HERE = Path(__file__).resolve()
SCENARIOS = [
    "from_attract_to_a_game_on_buttons",
    "maki_whole_game_on_buttons",
    "wasabi_whole_game_on_buttons",
    "makoto_whole_game_on_buttons",
    "takoyaki_whole_game_on_buttons",
    "takoyaki_hints_from_the_solver",
    "a_chosen_square_leads_to_its_buttons",
    "keyboard_drives_the_same_highlight",
    "legend_and_highlight_fit_at_both_sizes",  # last: it resizes the window
]
ONLY = [n for n in __import__("os").environ.get("BUTTONS_ONLY", "").split(",") if n]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(HERE, tmp_path_factory.mktemp("buttons"), timeout=CHILD_S)


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(results: dict[str, Any], name: str) -> None:
    assert name in results, f"scenario {name} did not run; results: {sorted(results)}"
    assert results[name] == "ok", results[name]


def test_mapping_is_two_buttons_and_a_hold() -> None:
    from kiosk.ui.focus import LEGEND, MAPPING

    assert dict(MAPPING) == {"b": "next", "hold b": "previous", "a": "choose", "hold a": "menu"}
    assert LEGEND == "b: next   hold b: previous   a: choose   hold a: menu"


def test_takoyaki_hint_is_the_solvers_first_move_in_words() -> None:
    from kiosk.games.takoyaki.actions import Push, Turn
    from kiosk.games.takoyaki.grill import START, goal_grill, parse_grill, parse_order
    from kiosk.games.takoyaki.screen import direction_of, hint_text

    order = parse_order("RR../GG../B..B")
    assert hint_text(START, order) == ("Hint: push the blue ball right", Push(9, 10))
    text, move = hint_text(parse_grill("rr../gg../b..b"), order)
    assert (text, move) == ("Hint: turn the blue ball over", Turn(11))
    assert hint_text(goal_grill(order), order) == ("Your grill matches the order: TAKOYAKI!", None)
    # the words follow the grill as its seat sees it: row 0 is the far row
    assert [direction_of(5, d) for d in (1, 9, 4, 6)] == ["up", "down", "left", "right"]
    text, _ = hint_text(parse_grill("..../rr../ggbb"), parse_order("RR../..../GGBB"))
    assert text == "Hint: push the red ball away from you", text


# =============================================================================================== child
#: A press's hold time: gpiozero times holds on the wall clock (its own hold thread), so while a button is pressed
#: (down for one frame) its hold time is out of reach of any machine's load; a hold keeps the real one.
PRESS_HOLD_S = float(CHILD_S)

#: The events gpiozero handed to the kiosk, per ``hardware.buttons.SeatButtons`` (id): a hold is waited for here.
_SEEN: dict[int, list[Any]] = {}


def _gpio_events(hw: Any) -> list[Any]:
    """Every ``ButtonEvent`` the kiosk's buttons delivered, recorded after the kiosk's own handler (which hands
    it to Kivy's clock): once an event is here, the next frame delivers it to the hub."""
    if id(hw) not in _SEEN:
        seen: list[Any] = []
        deliver = hw.on_event

        def on_event(ev: Any) -> None:
            deliver(ev)
            seen.append(ev)

        hw.on_event = on_event
        _SEEN[id(hw)] = seen
    return _SEEN[id(hw)]


def until_real(pred: Callable[[], bool], what: str) -> None:
    """Wait for a real thread's doing (gpiozero's hold thread) with no frame turned meanwhile: the scenario's
    virtual time stays where it was, whatever the wait took. Bounded by the child's bound alone."""
    end = time.monotonic() + CHILD_S
    while not pred():
        assert time.monotonic() < end, f"not within the child's bound: {what}"
        time.sleep(0.005)


class SeatButtons:
    """One seat's two buttons, as gpiozero MockFactory pins of the running kiosk."""

    def __init__(self, app: Any, position: str) -> None:
        self.app = app
        self.seat = app.table.by_position(position).index
        hw = app.hardware.buttons
        assert hw is not None and hw.available, "the kiosk runs gpiozero's MockFactory buttons"
        self.hw = hw
        self.pins = {b: hw.pin(self.seat, b) for b in ("a", "b")}
        self.devices = {b: hw._buttons[(self.seat, b)] for b in ("a", "b")}  # gpiozero's Buttons
        self.events = _gpio_events(hw)
        self.presses = 0

    def _holds(self, button: str) -> int:
        return sum(1 for e in self.events if (e.seat, e.button, e.kind) == (self.seat, button, "hold"))

    def press(self, button: str) -> None:
        """Down for one frame, then up: a press, never a hold (see :data:`PRESS_HOLD_S`)."""
        from kiosk import clock

        pin, device = self.pins[button], self.devices[button]
        holds = self._holds(button)
        clock.settle()
        device.hold_time = PRESS_HOLD_S
        try:
            pin.drive_low()
            tick()
            pin.drive_high()  # wakes gpiozero's hold thread: released, no hold
        finally:
            device.hold_time = self.hw.hold_time
        tick(2)
        assert self._holds(button) == holds, f"the press of {button} became a hold"
        self.presses += 1

    def down(self, button: str) -> None:
        """The button down (and the press delivered); gpiozero's hold thread times the hold from here."""
        from kiosk import clock

        clock.settle()
        self._before = self._holds(button)
        self.pins[button].drive_low()
        tick()

    def held(self, button: str) -> None:
        """The button kept down until gpiozero's hold reached the kiosk, then the hold delivered."""
        until_real(lambda: self._holds(button) > self._before, f"gpiozero's hold of {button}")
        tick(2)

    def up(self, button: str) -> None:
        self.pins[button].drive_high()
        tick(2)

    def hold(self, button: str) -> None:
        self.down(button)
        self.held(button)
        self.up(button)
        self.presses += 1

    # ------------------------------------------------------------------------------------ what the seat shows
    def screen(self) -> Any:
        return self.app.sm.current_screen

    def menu_open(self) -> bool:
        return bool(self.app.seat_menus.is_open(self.seat))

    def ring(self) -> Any:
        """The highlight the seat's buttons move: its open seat menu's, else the current screen's."""
        return self.app.seat_menus.focus if self.menu_open() else self.screen().focus

    def focused(self) -> Any:
        return self.ring().focused(self.seat)

    def choices(self) -> list[Any]:
        return self.ring().targets(self.seat)

    def show(self) -> None:
        """b shows the highlight."""
        if self.focused() is None:
            self.press("b")
        scr = self.screen()
        assert self.focused() is not None, (
            "the highlight shows on the seat's first choice",
            getattr(scr, "acting", None),
            scr.session.state.to_move() if getattr(scr, "session", None) is not None else None,
            [_name(w) for w in self.choices()],
        )

    def goto(self, want: Any) -> bool:
        """b until ``want`` (a widget, or a test on widgets) is highlighted; False when it is not a choice (once
        round all the seat's choices, counted as they are now: a tray that just opened adds its page arrows a
        frame or two later, when its room has settled)."""
        self.show()
        test = want if callable(want) and not hasattr(want, "walk") else (lambda w: w is want)
        self.trail = []
        while len(self.trail) <= len(self.choices()):
            self.trail.append(_name(self.focused()) if self.focused() is not None else "(none)")
            if self.focused() is not None and test(self.focused()):
                return True
            self.press("b")
        return False

    def choose(self, want: Any) -> None:
        assert self.goto(want), (
            f"not among the seat's choices: {[_name(w) for w in self.choices()]}; the highlight went {self.trail}"
        )
        self.press("a")


def _up(problem: Any) -> list[Any]:
    """The widgets from a problem's widget up to the root."""
    out, w = [], problem.widget
    while w is not None:
        out.append(w)
        w = w.parent if w.parent is not w else None
    return out


def _name(w: Any) -> str:
    return str(getattr(w, "text", "") or type(w).__name__)


def child_main(tmp: Path, out: Path) -> None:
    app = build_app(tmp / "state", bots={"move_delay_s": 0.0, "default_level": "easy"})

    def start(key: str, seats: list[tuple[str, str | None]], seed: int) -> Any:
        if app.mode == "results":
            app.go_attract()
            frames(1)
        if app.session is not None:
            app.launcher.end()
        app.start_game(key, [(app.table.by_position(p).index, lv) for p, lv in seats], seed=seed)
        assert app.sm.current == f"game:{key}", app.sm.current
        frames(2)
        return app.session

    def initials_by_buttons(btn: SeatButtons) -> None:
        """The results' initials, if the seat made the boards: b steps the letter, a confirms it."""
        run_until(lambda: app.mode == "results", 10, "the results screen")
        frames(2)
        pad = app.results.pads.get(btn.seat)
        if pad is None or not pad.entering:
            return
        btn.press("b")
        assert pad.letters[0] == "B", pad.letters
        for _ in range(3):
            btn.press("a")
        assert not pad.entering and pad.saved.startswith("Saved as B"), pad.saved

    # ------------------------------------------------------------------------------------------- picker, join
    def from_attract_to_a_game_on_buttons() -> None:
        """Attract mode, the picker and the joining screen on one seat's buttons: any press leaves attract mode,
        the next shows the highlight on the first game, "b" moves it, "a" picks; on the joining screen the seat
        has joined, and "a" fills the seats the game needs with bots and starts."""
        app.go_attract()
        frames(2)
        btn = SeatButtons(app, "north-east")
        btn.press("a")
        run_until(lambda: app.sm.current == "picker", 5, "the picker", settle=2)
        picker = app.picker
        assert picker.chooser == btn.seat and picker.highlighted is None
        btn.press("b")
        assert picker.highlighted == 0, "the first press shows the highlight on the first game"
        keys = list(picker.card_widgets)
        want = keys.index("makoto")
        for _ in range(want):
            btn.press("b")
        assert picker.highlighted == want
        frames(2)
        screenshot("buttons_picker")
        btn.press("a")
        run_until(lambda: app.sm.current == "join", 5, "the joining screen", settle=1)
        join = app.join_screen
        assert join.pads[btn.seat].mode == "human", "the seat that picked has joined"
        assert not join.can_start, "Makoto needs two seats"
        btn.press("a")
        run_until(lambda: app.mode == "game", 5, "the game")
        session = app.session
        assert session.spec.key == "makoto" and session.game_seat_of(btn.seat) is not None
        assert len(session.bots) == session.players - 1, "the other seat is a bot"
        app.launcher.end()
        frames(1)

    # ------------------------------------------------------------------------------------------- Maki, Wasabi!
    def board_move(btn: SeatButtons, screen: Any, panel: Any, g: int, action: Any) -> None:
        """One move the player wants (``action``), chosen by buttons among the seat's tiles, squares and buttons."""
        from kivy.uix.button import Button

        from kiosk.board.pieces import BoardTile, TileChoice
        from kiosk.board.twostep import Then
        from kiosk.ui.words import action_squares

        session = screen.session
        before = len(session.state.journal)
        n = len(screen.tiles)
        pick = screen.pick_tile(action)
        tile = screen.placed_tile(action, session.state.view(None))
        squares = action_squares(action, n)

        def applied() -> bool:
            return len(session.state.journal) > before

        def press_button() -> None:
            """The action's button, found as a player finds it: its words among the seat's choices now, else
            "\u25b6" to the tray's next page and look again. (The page size follows the tray's room, which settles
            a frame or two after the tray opens, when its labels have their sizes: a page worked out from
            ``page_size`` beforehand went stale.)"""
            assert action in panel.actions, f"{action} is not among the seat's buttons {panel.labels}"
            label = panel.describe(action)
            named = [panel.describe(a) for a in panel.actions]
            assert named.count(label) == 1, f"two of the seat's buttons read {label!r}: {named}"

            def is_label(w: Any) -> bool:
                if isinstance(action, Then):  # a group's button: its words are the group's line and its own
                    return isinstance(w, Button) and getattr(w, "action", None) == action
                return isinstance(w, Button) and w.text == label

            btn.show()  # the tray opens with the highlight in it
            for _ in range(2 * len(panel.actions) + 4):
                if any(is_label(w) for w in btn.choices()) and btn.goto(is_label):
                    btn.press("a")
                    return
                btn.choose(lambda w: isinstance(w, Button) and w.text == "\u25b6")
            raise AssertionError(f"{label!r} was on no page of the seat's tray ({named})")

        def next_step() -> None:
            """What a player does next for ``action``, from what the screen shows now."""
            if pick is not None:
                btn.choose(lambda w: isinstance(w, TileChoice) and w.action == action)
            elif action in panel.actions and (not squares or screen.selected == squares[0]):
                press_button()  # among the tray's buttons now (its square selected, or a square's own buttons)
            elif squares and screen.selected != squares[0]:
                if tile is not None and len(squares) == 1 and screen.chosen != tile:
                    btn.choose(lambda w: isinstance(w, TileChoice) and w.mode == "hand" and w.kind == tile)
                else:
                    btn.choose(lambda w: isinstance(w, BoardTile) and w.index == squares[0])
            elif screen.selected >= 0:
                btn.hold("b")  # another square is selected: back clears it
            else:
                raise AssertionError(f"no way to {action} on the screen: buttons {panel.labels}")

        # a step that did not take (the screen changed under the highlight, a loaded machine's late frame) is
        # done again from what the screen shows then, as a player would
        for _ in range(6):
            next_step()
            tick(2)
            if applied():
                break
        assert applied(), f"{action} was not applied by buttons ({panel.error})"

    def board_game(key: str, seed: int) -> None:
        from devtools.touchplay import both_button
        from kiosk import clock

        sw, ne = app.table.by_position("south-west").index, app.table.by_position("north-east").index
        session = start(key, [("south-west", None), ("north-east", "easy")], seed=seed)
        screen = app.sm.current_screen
        btn = SeatButtons(app, "south-west")
        g = session.game_seat_of(sw)
        panel = screen.panels[sw]
        wants = app.games[key].bots["easy"](g, 5)  # the player's "brain": what to do, never how
        moves = 0
        both = 0  # moves made with a button doing two choices (Maki's "Serve ..., then: Draw 3")

        def next_intent(*actions: Any) -> Any:
            st = session.state.clone()
            for a in actions:
                st.apply(g, a)
                if g not in st.to_move() or st.is_over():
                    return None
            return wants.choose(st)

        shot = False
        end = clock.now() + 200  # virtual seconds
        while not session.state.is_over() and clock.now() < end:
            st = session.state
            if g not in st.to_move():
                if btn.focused() is not None:  # the seat's highlight follows its choices within a tenth of a second
                    run_until(lambda: btn.focused() is None, 8, "no highlight once the turn passed")
                tick()
                continue
            tick(2)
            intent = wants.choose(st)
            if (pair := both_button(panel, intent, next_intent)) is not None:
                intent = pair
                both += 1
            board_move(btn, screen, panel, g, intent)
            moves += 1
            if not shot and btn.focused() is not None:
                screenshot(f"buttons_{key}_highlight")
                shot = True
        assert session.state.is_over(), f"{key}: the game finished on buttons ({moves} moves)"
        served = sum(1 for r in session.state.journal if r.get("seat") == g and r["action"]["type"] == "Serve")
        print(f"{key}: {moves} moves on buttons, {served} recipes served, {both} moves of two choices", flush=True)
        if key == "maki" and served:
            assert both, f"{served} recipes served, never with a serve-and-draw button"
        assert ne in screen.panels and not panel.ids.tray.is_open
        initials_by_buttons(btn)

    def maki_whole_game_on_buttons() -> None:
        board_game("maki", seed=11)

    def wasabi_whole_game_on_buttons() -> None:
        board_game("wasabi", seed=12)

    # ------------------------------------------------------------------------------------------- Makoto
    def makoto_whole_game_on_buttons() -> None:
        from kiosk import clock
        from kiosk.games.makoto.rules import BLIND, ORACLE_STEP, PLAY
        from kiosk.games.makoto.screen import HandCard, StepButton

        screen = app.launcher.game_screens["makoto"]
        screen.match_games = 1
        session = start("makoto", [("south-west", None), ("west", "easy"), ("north-east", "easy")], seed=13)
        st_of = screen._state
        btn = SeatButtons(app, "south-west")
        g = session.game_seat_of(btn.seat)
        panel = screen.panels[btn.seat]
        tray = panel.ids.tray
        steps = 0
        shot = False

        def button(prefix: str) -> Any:
            return lambda w: isinstance(w, StepButton) and w.text.startswith(prefix)

        end = clock.now() + 90  # virtual seconds
        while not session.state.is_over() and clock.now() < end:
            st = st_of()
            if st.turn != g:
                if btn.focused() is not None:
                    run_until(lambda: btn.focused() is None, 8, "no highlight once the turn passed")
                if tray.is_open:
                    tick(3)
                assert not tray.is_open, (
                    "not the seat's turn: the tray hidden",
                    tray.latched,
                    tray.held_by_button,
                    tray.n_touches,
                    st.turn,
                    g,
                    session.state.to_move(),
                    btn.focused(),
                )
                tick()
                continue
            btn.show()
            assert tray.is_open, "the tray opens while the highlight is in it"
            if not shot:
                screenshot("buttons_makoto_highlight")
                shot = True
            texts = [_name(w) for w in btn.choices()]
            phase = st.phase
            if phase == PLAY:
                quick = [t for t in texts if t.startswith("Play ") and "choose" not in t]
                btn.choose(button(quick[0] if quick else "Pass"))
            elif phase == BLIND:
                if "End turn" in texts:
                    btn.choose(button("End turn"))
                elif any(t.startswith("Take ") for t in texts):
                    btn.choose(button("Take "))
                else:
                    btn.choose(lambda w: isinstance(w, HandCard))
                    btn.choose(button("Put "))
            elif phase == ORACLE_STEP:
                btn.choose(lambda w: isinstance(w, HandCard))
                btn.choose(button("Discard "))
            steps += 1
            tick(2)
        assert session.state.is_over(), f"the game finished ({steps} steps by buttons)"
        assert steps >= 3 and btn.presses >= steps * 2, (steps, btn.presses)
        assert not tray.is_open, "the tray closed when the game ended"
        initials_by_buttons(btn)

    # ------------------------------------------------------------------------------------------- Takoyaki
    def cook_by_buttons(btn: SeatButtons, session: Any, screen: Any, g: int) -> None:
        """One move (or the claim) for the seat: the solver says which, the buttons choose it on the grill."""
        from kiosk.games.takoyaki.actions import Push
        from kiosk.games.takoyaki.screen import BallWidget, MoveMark, direction_of
        from kiosk.games.takoyaki.solver import solve

        state = session.state
        panel = screen.panels[btn.seat]
        grill = panel.ids.grill
        pad = panel.ids.pad
        moves = solve(state.grill(g), state.current_order).moves
        if not moves:
            btn.choose(pad)
            return
        move = moves[0]
        src = move.src if isinstance(move, Push) else move.space
        if grill.selected != src:
            btn.choose(lambda w: isinstance(w, BallWidget) and w.space == src)
            assert grill.selected == src, (grill.selected, src)
        want = direction_of(move.src, move.dst) if isinstance(move, Push) else "turn"
        before = state.moves()[g]
        btn.choose(lambda w: isinstance(w, MoveMark) and w.direction == want)
        assert state.moves()[g] == before + 1 or g not in state.to_move(), f"{move} by buttons was not applied"

    def takoyaki_whole_game_on_buttons() -> None:
        from kiosk import clock

        screen = app.launcher.game_screens["takoyaki"]
        screen.COUNTDOWN_S, screen.BETWEEN_S = 1.0, 0.5  # shorter waits between orders: a quicker test
        session = start("takoyaki", [("south-west", None), ("north-east", "easy")], seed=14)
        btn = SeatButtons(app, "south-west")
        g = session.game_seat_of(btn.seat)
        panel = screen.panels[btn.seat]
        panel.hints = False
        state = session.state
        shot = False
        end = clock.now() + 100  # virtual seconds
        while not state.is_over() and clock.now() < end:
            if screen.counting_down or g not in state.to_move() or state.current_order is None:
                tick()
                continue
            cook_by_buttons(btn, session, screen, g)
            if not shot and panel.ids.grill.selected >= 0:
                screenshot("buttons_takoyaki_moves")
                shot = True
        assert state.is_over(), f"the race finished (orders {state.scores()})"
        assert state.scores()[g] == 5, f"the button player won five orders: {state.scores()}"
        del screen.COUNTDOWN_S, screen.BETWEEN_S
        initials_by_buttons(btn)

    def takoyaki_hints_from_the_solver() -> None:
        from kiosk.games.takoyaki.actions import Push, Turn
        from kiosk.games.takoyaki.screen import hint_text
        from kiosk.games.takoyaki.solver import solve

        screen = app.launcher.game_screens["takoyaki"]
        session = start("takoyaki", [("east", None), ("west", None)], seed=15)
        state = session.state
        panel = screen.panels[app.table.by_position("east").index]
        other = screen.panels[app.table.by_position("west").index]
        other.hints = False
        g = session.game_seat_of(panel.seat.index)
        run_until(lambda: not screen.counting_down and state.current_order is not None, 8, "the first order")
        frames(1)
        btn = SeatButtons(app, "east")
        for _ in range(4):
            move = solve(state.grill(g), state.current_order).moves[0]
            grill = panel.ids.grill
            if isinstance(move, Push):
                assert list(grill.hint) == [move.src, move.dst], (list(grill.hint), move)
                assert panel.prompt.startswith("Hint: push the "), panel.prompt
                assert len(grill.hint_line) == 10, "an arrow from the ball to where it goes"
            else:
                assert isinstance(move, Turn) and list(grill.hint) == [move.space, move.space]
                assert panel.prompt.startswith("Hint: turn the ")
            assert panel.prompt == hint_text(state.grill(g), state.current_order)[0]
            if _ == 0:
                btn.show()
                screenshot("buttons_takoyaki_hint")
            cook_by_buttons(btn, session, screen, g)
            frames(1)
        assert other.prompt == "" and list(other.ids.grill.hint) == [], "hints off: no mark, no prompt"
        panel.hints = False
        frames(1)
        assert panel.prompt == "" and list(panel.ids.grill.hint) == [] and panel.ids.grill.hint_line == []
        panel.hints = True
        frames(1)
        while solve(state.grill(g), state.current_order).moves:
            cook_by_buttons(btn, session, screen, g)
        frames(1)
        assert panel.prompt == "Your grill matches the order: TAKOYAKI!", panel.prompt
        assert list(panel.ids.grill.hint) == []
        app.launcher.end()
        frames(1)

    # ------------------------------------------------------------------------------------------- a square's buttons
    def a_chosen_square_leads_to_its_buttons() -> None:
        """Wasabi!, a square chosen with no tile chosen (so it is selected and its placements become the seat's
        buttons): the highlight goes straight on to the first of them, so "a" places at once (one press from the
        square's choice to the move, where walking past the other squares took one press a square); one "b" then
        "hold b" comes back to it (one step retraced), and a second "hold b" clears the selection."""
        from kivy.uix.button import Button

        from kiosk import clock
        from kiosk.board.pieces import BoardTile
        from kiosk.ui.words import action_squares

        session = start("wasabi", [("south-west", None), ("north-east", "easy")], seed=16)
        screen = app.sm.current_screen
        btn = SeatButtons(app, "south-west")
        g = session.game_seat_of(btn.seat)
        panel = screen.panels[btn.seat]
        state = session.state

        def placing() -> bool:
            return g in state.to_move() and any(type(a).__name__ == "Place" for a in state.legal_actions(g))

        # the set-up played through the session (not what is measured here), up to the seat's first placement
        end = clock.now() + 60  # virtual seconds
        while not placing() and clock.now() < end:
            if g in state.to_move():
                session.apply(g, state.legal_actions(g)[0])
            tick()
        assert placing(), "the seat's first placement"
        run_until(lambda: screen.acting == g and panel.ids.tray.is_open, 5, "the seat acting, its hand open")
        btn.show()
        squares = [w for w in btn.choices() if isinstance(w, BoardTile)]
        assert len(squares) > 3, "several marked squares"
        square = squares[0]
        btn.choose(lambda w: w is square)
        assert screen.selected == square.index, "the square is selected (several tiles could go there)"
        buttons = [w for w in btn.choices() if isinstance(w, Button) and w.text not in ("\u25c0", "\u25b6")]
        assert buttons, [_name(w) for w in btn.choices()]
        first = btn.focused()
        assert first is buttons[0], (
            "no press: the square's first button",
            _name(first),
            [_name(w) for w in btn.choices()],
        )
        named = [a for a in panel.actions if panel.describe(a) == first.text]
        assert named and square.index in action_squares(named[0], len(screen.tiles)), first.text
        # one step on, then back: "hold b" retraces the step; from where the walk started it clears the square
        btn.press("b")
        assert btn.focused() is not first
        btn.hold("b")
        assert btn.focused() is first, "hold b: back to the previous choice"
        assert screen.selected == square.index, "the square is still selected"
        btn.hold("b")
        assert screen.selected == -1, "hold b where the walk started: the square let go"
        # and again, counted: the square chosen, then "a" places
        btn.choose(lambda w: isinstance(w, BoardTile) and w.index == square.index)
        before, presses = len(state.journal), btn.presses
        assert btn.focused() is not None and btn.focused().text == first.text
        btn.press("a")
        tick(2)
        assert len(state.journal) > before, "the placement was made"
        assert btn.presses - presses == 1, "one press from the square's choice to the move"
        app.launcher.end()
        frames(1)

    # ------------------------------------------------------------------------------------------- keyboard
    def keyboard_drives_the_same_highlight() -> None:
        from kivy.core.window import Window

        from kiosk.seats import KEYS

        screen = app.launcher.game_screens["makoto"]
        screen.match_games = 1
        session = start("makoto", [("north-east", None), ("west", "easy")], seed=17)
        seat = app.table.by_position("north-east").index
        g = session.game_seat_of(seat)
        run_until(lambda: screen._state().turn == g, 10, "the human's turn")
        a, b, _tap = KEYS["north-east"]

        def key(text: str) -> None:
            Window.dispatch("on_key_down", ord(text), 0, text, [])
            tick()
            Window.dispatch("on_key_up", ord(text), 0)
            tick(2)

        ring = screen.focus
        assert ring.focused(seat) is None
        key(b)
        first = ring.focused(seat)
        assert first is not None and screen.panels[seat].ids.tray.is_open
        legend = ring.legends[seat]
        assert legend.opacity == 1 and legend.text == "b: next   hold b: previous   a: choose   hold a: menu"
        frames(2)
        screenshot("buttons_makoto_keyboard_legend")
        key(b)
        assert ring.focused(seat) is not first, "the key for b moves the highlight on"
        targets = ring.targets(seat)
        assert targets.index(ring.focused(seat)) == 1

        def hold_b() -> None:
            Window.dispatch("on_key_down", ord(b), 0, b, [])
            run_for(1.3)  # past the keyboard's hold time (one second on Kivy's clock: virtual)
            Window.dispatch("on_key_up", ord(b), 0)
            tick(2)

        # a hold of b goes back one step (the previous choice) ...
        hold_b()
        assert ring.focused(seat) is first, "the key held: back to the previous choice"
        # ... and from where the walk started it lets go of everything: the highlight hides and the tray closes
        hold_b()
        assert ring.focused(seat) is None
        assert not screen.panels[seat].ids.tray.is_open and legend.opacity == 0
        app.launcher.end()
        frames(1)

    def legend_and_highlight_fit_at_both_sizes() -> None:
        """The legend at each edge's seat reads whole (fit checker: not cut, not too small, over no text of the
        seat's zone), at 1920x1080 and 1280x800, on the game screens and the joining screen; the highlight frames
        its widget."""
        from kivy.core.window import Window

        from devtools.fit import check_tree, report
        from kiosk.ui.focus import window_box

        for size in ((1920, 1080), (1280, 800)):
            Window.size = size
            frames(3)
            for key in ("makoto", "takoyaki"):
                seats = [("south-west", None), ("west", None), ("north-east", None)]
                session = start(key, seats, seed=18)
                screen = app.sm.current_screen
                if key == "makoto":
                    run_until(lambda s=screen: s._state().turn is not None, 5, "a turn")
                    who = session.seats[screen._state().turn].position
                else:
                    run_until(lambda s=screen: not s.counting_down, 8, "the first order")
                    who = "west"
                btn = SeatButtons(app, who)
                btn.show()
                frames(2)
                legend = screen.focus.legends[btn.seat]
                problems = [p for p in check_tree(legend, size) if p.kind in ("cut", "small_text")]
                assert not problems, (key, size, report(problems))
                zone = screen.panels[btn.seat]
                text = legend.children[0]
                over = [
                    p
                    for p in check_tree(screen, size)
                    if p.kind == "overlap" and (p.widget is text or legend.text[:40] in p.detail)
                ]
                assert not over, (key, size, zone.seat.position, report(over))
                frame = screen.focus.frames[btn.seat]
                box = window_box(btn.focused())
                assert frame.x <= box.x and frame.right >= box.x + box.w and frame.top >= box.y + box.h, "framed"
                screenshot(f"buttons_{key}_{who}_{size[0]}x{size[1]}")
                app.launcher.end()
                frames(1)
            # the joining screen's legend at a long and a short edge: whole, and over none of the screen's words
            app.open_join("makoto", app.table.by_position("south-west").index)
            frames(2)
            join = app.join_screen
            for who in ("south-west", "west"):
                btn = SeatButtons(app, who)
                if join.pads[btn.seat].mode != "human":
                    btn.press("a")
                btn.show()
                frames(2)
                legend = join.focus.legends[btn.seat]
                problems = [p for p in check_tree(legend, size) if p.kind in ("cut", "small_text")]
                assert not problems, ("join", who, size, report(problems))
                text = legend.children[0]
                over = [
                    p
                    for p in check_tree(join, size)
                    if p.kind == "overlap" and (p.widget is text or legend.text[:40] in p.detail)
                ]
                assert not over, ("join", who, size, report(over))
                screenshot(f"buttons_join_{who}_{size[0]}x{size[1]}")
            app.go_attract()
            frames(2)
        Window.size = (1920, 1080)
        frames(3)

    scenarios = locals()
    run_scenarios({name: scenarios[name] for name in SCENARIOS if not ONLY or name in ONLY}, out)
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
