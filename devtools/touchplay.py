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

No rule and no game is known here: the intent comes from the game's own bot, and the screen says which touches
make it (its ``touch_plan``, :mod:`kiosk.ui.touchplan`: tiles, squares, buttons, cards, the grill's gestures);
the driver carries them out with the harness's fingers (:mod:`devtools.harness`). An intent the seat's controls
cannot reach is an error (:class:`Unreachable`): a test fails on it.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from devtools.harness import Toucher, Unreachable
from kiosk import clock
from kiosk.ai import make_bot
from kiosk.board.touch import both_button
from kiosk.engine import Action
from kiosk.ui.touchplan import Move, NoTouches, OpenTray, Tap, buttons_of

__all__ = ["Unreachable", "TouchLog", "Toucher", "both_button", "perform", "play", "start", "summary"]


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


_buttons = buttons_of  # (the tests' name for it)


def perform(finger: Toucher, screen: Any, seat_index: int, action: Action, next_intent: Any) -> int:
    """Carry out ``action`` at ``seat_index`` through the screen's touch plan (:mod:`kiosk.ui.touchplan`), each
    step as a finger would; returns how many engine actions the seat applied (a drag or a two-choice button may
    apply two)."""
    session = screen.session
    g = session.game_seat_of(seat_index)
    before = len(session.state.journal or [])
    try:
        for step in screen.touch_plan(seat_index, action, next_intent):
            if isinstance(step, OpenTray):
                _open_tray(finger, step.tray)
            elif isinstance(step, Tap):
                finger.tap(step.widget, step.fx, step.fy)
            elif isinstance(step, Move):
                finger.frames(1)  # where the two widgets are once the layout has settled
                a = step.widget.to_window(*step.widget.center)
                b = step.target.to_window(*step.target.center)
                finger.drag([a, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), b])
            else:
                finger.drag(list(step.points))
    except NoTouches as exc:
        raise Unreachable(str(exc)) from exc
    finger.tick(2)
    done = _own_records(session, g, before)
    if done <= 0:
        panel = screen.panels[seat_index]
        raise Unreachable(f"{action} was not applied ({getattr(panel, 'error', '') or getattr(panel, 'message', '')})")
    return done


# ============================================================================================ the game
def start(app: Any, key: str, seats: list[tuple[int, str | None]], seed: int | None = None) -> Any:
    """Start ``key`` with ``seats`` (and ``seed``: the launcher draws one unless given) from wherever the app is (a
    finished game's results, attract mode): its session, once the game's screen is the current one and drawn."""
    app.go_attract()
    Toucher.frames(2)
    app.start_game(key, seats, seed=seed)
    session = app.session
    for _ in range(50):
        Toucher.frames(1)
        if app.session is not session or session is None:
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
    wants = make_bot(spec, level, g, seed, getattr(app, "bot_iterations", None))  # a fixed budget, as the app's
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
            or session is not app.session
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
            finger.tick(1)  # another seat's turn: the same frames and virtual time, without drawing them
            continue
        finger.tick(2)
        intent = wants.choose(st)
        touched = finger.count
        if key == "takoyaki":
            read_journal()
            close_turn()
        perform(finger, screen, human, intent, next_intent)
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
