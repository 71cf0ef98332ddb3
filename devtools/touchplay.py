"""Playing a whole game through touches only, counting them: the driver shared by the touches test
(``tests/test_touches.py``) and the touches benchmark (``benchmarks/bench_touches.py``).

It runs inside a process that has the real kiosk in a real window (the tests' harness, or the benchmark's
child): :func:`play` starts a game with one human seat (south-west) against bots, lets a bot of the game decide
what the human wants to do next (the *intent*), and carries each intent out the way a player would, through the
seat's own controls only, with the fewest touches the screen allows: real Kivy ``MotionEvent`` touches
(``kivy.tests.common.UnitTestTouch``) dispatched through the window at the widgets' centres. One touch is one
finger down and up again (a drag from a tile to a square is one touch; a tap to open the tray is one). Where the
seat's buttons offer a choice together with the next one (Maki's "Serve Maguro N., then: Draw 3"), the driver
asks the bot what it would choose next, on a copy of the state, and presses that button when it is offered
(:func:`both_button`).

What counts as a turn (decisions, written down):

* **Maki, Wasabi!, Makoto**: a *turn* is every decision of the human seat between two moves of other seats (or
  the game's end); its touches include opening the private tray when it is closed (a human seat's tray opens by
  itself when its turn starts, so a tap is needed only after the player or the tray's time-out closed it).
  Wasabi!'s set-up (giving starting tiles, drawing the first recipes) counts as turns too.
* **Takoyaki**: play is simultaneous, so a *turn* is one move: a ball pushed (a drag), a ball turned (a swipe:
  down, out and back on the ball) or a claim (a tap on the claim pad). The figures per completed order (moves
  and the claim) are reported beside them.

No rule is known here: the intent comes from the game's own bot, and the driver only finds the widgets that do
it (the screens' choices: tiles, squares, buttons, cards). An intent the seat's controls cannot reach is an
error (:class:`Unreachable`): a test fails on it.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kiosk import clock
from kiosk.ai import make_bot
from kiosk.engine import Action

__all__ = ["Unreachable", "TouchLog", "Toucher", "both_button", "play", "start", "summary"]


class Unreachable(AssertionError):
    """The seat's controls offer no way to make the move the player wants."""


@dataclass
class TouchLog:
    """Touches per turn of the human seat (see the module docstring), and what was played."""

    key: str
    turns: list[int] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)  # engine actions per turn, beside the touches
    per_order: list[int] = field(default_factory=list)  # Takoyaki: touches per completed order
    finished: bool = False
    seconds: float = 0.0
    #: taps made again because a stalled process turned a tap into a hold (see ``_open_tray``)
    stalled: list[float] = field(default_factory=list)


def summary(log: TouchLog) -> dict[str, Any]:
    """Median and p90 of touches per turn (and of decisions per turn: the least any screen could do without
    deciding for the player)."""

    def q(xs: list[int], p: float) -> float:
        ys = sorted(xs)
        return float(ys[min(len(ys) - 1, int(p * len(ys)))]) if ys else 0.0

    out: dict[str, Any] = {
        "turns": len(log.turns),
        "touches_median": statistics.median(log.turns) if log.turns else 0,
        "touches_p90": q(log.turns, 0.9),
        "touches_max": max(log.turns, default=0),
        "decisions_median": statistics.median(log.decisions) if log.decisions else 0,
        "finished": log.finished,
        "stalled_taps": len(log.stalled),
    }
    if log.per_order:
        out["touches_per_order_median"] = statistics.median(log.per_order)
    return out


class Toucher:
    """Simulated fingers through the window, counted, and the loop turned between them."""

    def __init__(self) -> None:
        self.count = 0
        self.last_press = 0.0
        #: taps made again because the machine stalled a tap into a hold (counted in ``count`` all the same)
        self.stalled: list[float] = []

    #: Virtual seconds a frame advances the kiosk's clock when it is frozen (``kiosk.clock.freeze``), as the tests'
    #: harness does: then what a game does never depends on the machine's speed.
    STEP = 1 / 30

    @classmethod
    def _turn(cls, draw: bool) -> None:
        from kivy.base import EventLoop
        from kivy.clock import Clock

        from kiosk import clock

        virtual = clock.frozen()
        if virtual is not None:
            clock.settle()
            virtual.advance(cls.STEP)
        if draw:
            EventLoop.idle()
        else:
            Clock.tick()

    @classmethod
    def frames(cls, n: int = 1) -> None:
        for _ in range(n):
            cls._turn(draw=True)

    @classmethod
    def tick(cls, n: int = 1) -> None:
        for _ in range(n):
            cls._turn(draw=False)

    def tap_at(self, x: float, y: float) -> None:
        from kivy.tests.common import UnitTestTouch

        t = UnitTestTouch(x, y)
        t.touch_down()
        down = clock.now()
        t.touch_up()
        #: seconds between the finger's down and up as the widgets saw them (a stalled process makes a tap a hold)
        self.last_press = clock.now() - down
        self.count += 1
        self.tick(2)

    def tap(self, widget: Any, fx: float = 0.5, fy: float = 0.5) -> None:
        if widget.get_root_window() is None:
            raise Unreachable(f"{widget} is not on screen")
        self.tap_at(*widget.to_window(widget.x + widget.width * fx, widget.y + widget.height * fy))

    def drag(self, points: list[tuple[float, float]]) -> None:
        """One finger down on the first window point, through the others, up on the last."""
        from kivy.tests.common import UnitTestTouch

        t = UnitTestTouch(*points[0])
        t.touch_down()
        self.tick(1)
        for x, y in points[1:]:
            t.touch_move(x, y)
            self.tick(1)
        t.touch_up()
        self.count += 1
        self.tick(2)


# ============================================================================================ per screen
def _open_tray(finger: Toucher, tray: Any) -> None:
    """Open the seat's tray with a tap when it is closed (a human seat's tray opens by itself when its turn starts,
    so this is for a tray the player or its time-out closed).

    The tap waits for the zone's layout to settle first (a tap computed from a layout still under way can land off
    the tray). A tap is a hold for the tray when the finger stays down :attr:`PrivateTray.HOLD_S` or longer, and a
    machine loaded enough to stall this process between the finger's down and up turns the driver's tap into a
    hold, which closes the tray on release as it should: that tap is made again (counted) and noted in
    ``finger.stalled``. Any other tap that does not open it is an error."""
    if tray.is_open:
        return
    for _ in range(3):
        finger.frames(1)  # the zone lays itself out (a tray whose seat's turn just started may still be moving)
        finger.tap(tray, 0.5, 0.97)  # the tray's top line (its prompt), never a button
        finger.frames(2)  # the zone lays itself out again around the open tray (its column makes room)
        if tray.is_open:
            return
        if finger.last_press < tray.HOLD_S:
            break
        finger.stalled.append(round(finger.last_press, 2))
    x, y = tray.to_window(tray.x + tray.width * 0.5, tray.y + tray.height * 0.97)
    raise Unreachable(
        f"a tap at {x:.0f},{y:.0f} did not open the tray (locked {tray.locked}, down for {finger.last_press:.2f} s)"
    )


def _buttons(root: Any) -> list[Any]:
    from kivy.uix.button import Button

    return [
        w
        for w in root.walk(restrict=True)
        if isinstance(w, Button) and w.text and not w.disabled and w.opacity > 0 and w.get_root_window() is not None
    ]


class BoardDriver:
    """Maki and Wasabi!: tiles, squares and the tray's buttons (``kiosk.ui.board``)."""

    def __init__(self, screen: Any, panel: Any, g: int, finger: Toucher) -> None:
        self.screen, self.panel, self.g, self.finger = screen, panel, g, finger

    def _press_button(self, action: Action) -> None:
        panel = self.panel
        tray = panel.ids.tray
        _open_tray(self.finger, tray)
        page = panel.page_of(action)
        if page is None:
            raise Unreachable(f"{action} is not among the seat's buttons {panel.labels}")
        for _ in range(panel.pages):
            if panel.page == page:
                break
            arrow = next((b for b in _buttons(tray) if b.text == "\u25b6"), None)
            if arrow is None:
                raise Unreachable("no next-page button")
            self.finger.tap(arrow)
        button = next((b for b in _buttons(tray) if getattr(b, "action", None) == action), None)
        if button is None:
            raise Unreachable(f"no button for {action} on page {panel.page + 1} ({panel.labels})")
        self.finger.tap(button)

    def _tile_widget(self, action: Action | None, kind: str) -> Any:
        screen, panel = self.screen, self.panel
        rows = [screen.ids.pantry, panel.ids.hand]
        for row in rows:
            for w in row.children:
                if (action is not None and w.action == action) or (
                    action is None and w.mode == "hand" and w.kind == kind
                ):
                    if row is panel.ids.hand:
                        _open_tray(self.finger, panel.ids.tray)
                    return w
        return None

    def _drag_to(self, widget: Any, cell: int) -> None:
        self.finger.frames(1)
        square = self.screen.tiles[cell]
        a = widget.to_window(*widget.center)
        b = square.to_window(*square.center)
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        self.finger.drag([a, mid, b])

    def perform(self, action: Action, next_intent: Callable[..., Action | None]) -> int:
        """Carry out ``action``; returns how many engine actions were applied (a drag may apply two, a button two
        choices)."""
        from kiosk.ui.words import action_squares

        screen = self.screen
        session = screen.session
        before = len(session.state.journal)
        public = session.state.view(None)
        n = len(screen.tiles)
        pick = screen.pick_tile(action)
        tile = screen.placed_tile(action, public)
        squares = action_squares(action, n)
        both = both_button(self.panel, action, next_intent) if pick is None and not squares else None
        if both is not None:
            self._press_button(both)
        elif pick is not None:
            widget = self._tile_widget(action, pick[0])
            if widget is None:
                raise Unreachable(f"no tile for {action}")
            after = next_intent(action)
            cell = action_squares(after, n)[0] if after is not None and action_squares(after, n) else -1
            if after is not None and cell >= 0 and screen.placed_tile(after, _view_after(session, self.g, action)):
                self._drag_to(widget, cell)  # take it and put it on its square: one touch
            else:
                self.finger.tap(widget)
        elif tile is not None and len(squares) == 1:
            if screen.chosen == tile:
                self.finger.tap(screen.tiles[squares[0]])
            else:
                widget = self._tile_widget(None, tile)
                if widget is None:
                    raise Unreachable(f"no tile {tile} to place")
                self._drag_to(widget, squares[0])
        elif squares:
            self.finger.tap(screen.tiles[squares[0]])
            if len(session.state.journal) == before:
                self._press_button(action)
        else:
            self._press_button(action)
        self.finger.tick(2)
        done = _own_records(session, self.g, before)
        if done <= 0:
            raise Unreachable(f"{action} was not applied ({self.panel.error})")
        return done


def both_button(panel: Any, action: Action, next_intent: Callable[..., Action | None]) -> Action | None:
    """The seat's button doing ``action`` and the player's next choice in one touch (a
    :class:`~kiosk.ui.board.Then`: Maki's "Serve Maguro N., then Draw 3"), when the seat's buttons (``panel``, a
    board screen's seat) offer one for what the player wants next: the intents after ``action`` on a copy of the
    state (``next_intent(*actions)``), through the steps between (a 2-ingredient recipe's reward card, chosen on
    its own afterwards) up to a choice such a button offers. None: no such button (the plain one is for it)."""
    from kiosk.ui.twostep import Then

    offered = [a for a in panel.actions if isinstance(a, Then) and a.first == action]
    kinds = {type(a.then) for a in offered}
    steps = [action]
    for _ in range(3):
        if not offered:
            return None
        after = next_intent(*steps)
        if after is None:
            return None
        if Then(action, after) in offered:
            return Then(action, after)
        if type(after) in kinds:
            return None  # a choice of that kind the buttons do not offer with it: step by step
        steps.append(after)
    return None


def _view_after(session: Any, g: int, action: Action) -> dict[str, Any]:
    st = session.state.clone()
    st.apply(g, action)
    return dict(st.view(None))


class MakotoDriver:
    """Makoto: the tray's cards and its action row (``kiosk.games.makoto.screen``)."""

    def __init__(self, screen: Any, panel: Any, g: int, finger: Toucher) -> None:
        self.screen, self.panel, self.g, self.finger = screen, panel, g, finger

    def _step_button(self, command: Any) -> Any:
        from kiosk.games.makoto.panel import StepButton

        for w in self.panel.walk(restrict=True):
            if (
                isinstance(w, StepButton)
                and w.command == command
                and not w.disabled
                and w.opacity > 0
                and w.get_root_window() is not None
            ):
                return w
        return None

    def _tap_cards(self, cards: list[int]) -> None:
        want = list(cards)
        for slot, card in enumerate(self.panel.cards):
            if card.code in want and slot not in self.panel.selected:
                want.remove(card.code)
                # cards overlap (the next one lies on this one's right): the corner left in view, top left
                fx = min(0.5, 22.0 / max(1.0, card.width))
                fy = 1.0 - min(0.5, 22.0 / max(1.0, card.height))
                self.finger.tap(card, fx, fy)
                if slot not in self.panel.selected:
                    raise Unreachable(f"a tap on card {card.code} did not select it")
        if want:
            shown = [c.code for c in self.panel.cards]
            raise Unreachable(f"cards {want} not among the hand's cards on screen {shown} (hand {self.panel.hand})")

    def perform(self, action: Action, next_intent: Callable[..., Action | None]) -> int:
        from kiosk.games.makoto.actions import BlindDiscard, OracleDiscard, Play, UseLid

        session = self.screen.session
        before = len(session.state.journal)
        _open_tray(self.finger, self.panel.ids.tray)
        button = self._step_button(action)
        if button is None:
            if isinstance(action, Play):
                self._tap_cards(list(action.cards))
            elif isinstance(action, (BlindDiscard, OracleDiscard)):
                self._tap_cards([action.card])
            elif isinstance(action, UseLid):
                lid = self._step_button("lid")
                if lid is None:
                    raise Unreachable("no box lid button")
                self.finger.tap(lid)
            button = self._step_button(action)
        if button is None:
            raise Unreachable(f"no button for {action}")
        self.finger.tap(button)
        self.finger.tick(2)
        done = _own_records(session, self.g, before)
        if done <= 0:
            raise Unreachable(f"{action} was not applied ({self.panel.error})")
        return done


class TakoyakiDriver:
    """Takoyaki: the grill's gestures and the claim pad (``kiosk.games.takoyaki.screen``)."""

    def __init__(self, screen: Any, panel: Any, g: int, finger: Toucher) -> None:
        self.screen, self.panel, self.g, self.finger = screen, panel, g, finger

    def perform(self, action: Action, next_intent: Callable[..., Action | None]) -> int:
        from kiosk.games.takoyaki.actions import Claim, Push, Turn
        from kiosk.games.takoyaki.screen import GrillWidget

        session = self.screen.session
        before = len(session.state.journal)
        grill = next(w for w in self.panel.walk(restrict=True) if isinstance(w, GrillWidget))
        if isinstance(action, Push):
            a = grill.to_window(*grill.space_center(action.src))
            b = grill.to_window(*grill.space_center(action.dst))
            self.finger.drag([a, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), b])
        elif isinstance(action, Turn):
            x, y = grill.space_center(action.space)
            c = grill.cell * 0.45
            self.finger.drag([grill.to_window(x, y), grill.to_window(x + c, y), grill.to_window(x, y)])
        elif isinstance(action, Claim):
            pad = next((b for b in _buttons(self.panel) if "TAKOYAKI" in b.text), None)
            if pad is None:
                raise Unreachable("no claim pad")
            self.finger.tap(pad)
        else:
            raise Unreachable(f"no gesture for {action}")
        self.finger.tick(2)
        done = _own_records(session, self.g, before)
        if done <= 0:
            raise Unreachable(f"{action} was not applied ({getattr(self.panel, 'message', '')})")
        return done


# ============================================================================================ the game
def start(app: Any, key: str, seats: list[tuple[int, str | None]], seed: int | None = None) -> Any:
    """Start ``key`` with ``seats`` (and ``seed``: the launcher draws one unless given) from wherever the app is (a
    finished game's results, attract mode): its session, once the game's screen is the current one and drawn."""
    app.go_attract()
    Toucher.frames(2)
    app.start_game(key, seats, seed=seed)
    session = app.launcher.session
    for _ in range(50):
        Toucher.frames(1)
        if app.launcher.session is not session or session is None:
            break
        if getattr(app.sm.current_screen, "session", None) is session and not app.sm.transition.is_active:
            return session
    raise Unreachable(f"{key} did not start (the app is in {app.mode!r})")


def play(
    app: Any, key: str, *, level: str = "easy", seed: int = 3, max_turns: int = 400, timeout: float = 600.0
) -> TouchLog:
    """Play one game of ``key`` in ``app`` (the running kiosk): the human at south-west, bots of ``level`` in the
    other seats of a two-player game (Takoyaki: the one-player time trial), the human's intents from that
    game's ``level`` bot. Returns the touches per turn."""
    finger = Toucher()
    spec = app.games[key]
    human = app.table.by_position("south-west").index
    seats: list[tuple[int, str | None]] = [(human, None)]
    if key != "takoyaki":
        seats.append((app.table.by_position("north-east").index, level))
    session = start(app, key, seats, seed=seed)
    screen = app.sm.current_screen
    g = session.game_seat_of(human)
    panel = screen.panels[human]
    wants = make_bot(spec, level, g, seed, getattr(app, "bot_iterations", None))  # a fixed budget, as the app's
    driver: Any
    if key == "makoto":
        driver = MakotoDriver(screen, panel, g, finger)
    elif key == "takoyaki":
        driver = TakoyakiDriver(screen, panel, g, finger)
    else:
        driver = BoardDriver(screen, panel, g, finger)
    log = TouchLog(key)
    started = time.monotonic()  # for the report only
    until = clock.now() + timeout  # the game's bound: on the kiosk's clock (virtual in the tests)
    turn = [0, 0]  # touches, decisions of the turn under way
    order_touches = 0
    orders_won = 0
    seen = len(session.state.journal)

    def next_intent(*actions: Action) -> Action | None:
        """What the player would want next after ``actions`` (on a copy of the state), None when its turn is over."""
        st = session.state.clone()
        for action in actions:
            st.apply(g, action)
            if g not in st.to_move() or st.is_over():
                return None
        return wants.choose(st)

    def game_over() -> bool:
        return (
            screen.session is not session
            or session.state.is_over()
            or session is not app.launcher.session
            or bool(getattr(screen, "sheet", False))
        )

    def close_turn() -> None:
        if turn[1]:
            log.turns.append(turn[0])
            log.decisions.append(turn[1])
        turn[0] = turn[1] = 0

    def read_journal() -> None:
        """The records since the last look: the human's count as decisions of its turn, another seat's end it."""
        nonlocal seen
        journal = session.state.journal or []
        if len(journal) < seen:  # a new game of a series: a new journal
            seen = 0
        for r in journal[seen:]:
            if r.get("seat") == g:
                turn[1] += 1
            elif isinstance(r.get("seat"), int):
                close_turn()
        seen = len(journal)

    while not game_over() and len(log.turns) < max_turns and clock.now() < until:
        read_journal()
        st = session.state
        if g not in st.to_move() or (key == "takoyaki" and bool(getattr(screen, "counting_down", False))):
            finger.frames(1)
            continue
        finger.tick(2)
        intent = wants.choose(st)
        touched = finger.count
        if key == "takoyaki":
            read_journal()
            close_turn()
        driver.perform(intent, next_intent)
        turn[0] += finger.count - touched
        if key == "takoyaki":
            read_journal()
            order_touches += turn[0]
            close_turn()
            now = _orders_won(session.state, g)
            if now > orders_won:
                log.per_order.append(order_touches)
                order_touches = 0
                orders_won = now
    read_journal()
    close_turn()
    log.finished = session.state.is_over() or bool(getattr(screen, "sheet", False))
    log.seconds = round(time.monotonic() - started, 1)
    log.stalled = list(finger.stalled)
    return log


def _own_records(session: Any, g: int, since: int) -> int:
    """How many actions seat ``g`` applied since journal record ``since``."""
    return sum(1 for r in (session.state.journal or [])[since:] if r.get("seat") == g)


def _orders_won(state: Any, g: int) -> int:
    try:
        return int(state.scores()[g])
    except Exception:
        return 0
