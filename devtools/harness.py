"""The one harness that drives the real kiosk: turning Kivy's loop on the kiosk's virtual clock, and fingers.

The UI tests (``tests/conftest.py`` re-exports it), the touch driver (:mod:`devtools.touchplay`), the screenshot
tour (:mod:`devtools.shots`) and the touches benchmark all use these, so a frame means the same everywhere:

* :func:`turn` is one turn of the loop: first the kiosk's background work settles (``kiosk.clock.settle``), then
  the frozen clock (``kiosk.clock.freeze``) advances by :data:`STEP`; drawn or not (drawing is what costs under
  Xvfb; layout, input and the clock's events happen either way). :func:`frames` draws only its last frame,
  :func:`tick` none; :func:`run_until` waits in virtual seconds.
* Fingers are real Kivy ``MotionEvent`` touches dispatched through the window (``UnitTestTouch``): :class:`Finger`
  (down at once; move, up), :func:`tap`, :func:`touch_down`/:func:`touch_up`, and :class:`Toucher`, which counts
  its touches for the touch driver and the benchmark.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

__all__ = [
    "STEP",
    "Finger",
    "Toucher",
    "centre_of",
    "frames",
    "run_for",
    "run_until",
    "tap",
    "tap_at",
    "tick",
    "to_window",
    "touch_down",
    "touch_up",
    "turn",
    "window_point",
]

#: Virtual seconds one frame advances the kiosk's clock when it is frozen: what a scenario does depends on frames,
#: never on how fast the machine draws them.
STEP = 1 / 30


# ================================================================================================== the loop
def turn(draw: bool) -> None:
    """One turn of Kivy's event loop, :data:`STEP` virtual seconds after the last, once the kiosk's background work
    (a bot's search, a PIN check, a demo) has finished. Without ``draw``: everything but the drawing."""
    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.lang import Builder

    from kiosk import clock

    clock.settle()
    virtual = clock.frozen()
    if virtual is not None:
        virtual.advance(STEP)
    if draw:
        EventLoop.idle()
        return
    Clock.tick()
    EventLoop.dispatch_input()
    Builder.sync()
    Clock.tick_draw()
    Builder.sync()


def frames(n: int = 1) -> None:
    """Turn the loop ``n`` times; the last one draws the screen."""
    for i in range(n):
        turn(draw=i == n - 1)


def tick(n: int = 1) -> None:
    """Turn the loop ``n`` times without drawing (cheap under Xvfb)."""
    for _ in range(n):
        turn(draw=False)


def run_until(
    pred: Callable[[], bool], timeout: float = 10.0, what: str = "condition", settle: int = 0, draw: bool = True
) -> None:
    """Turn the loop until ``pred()`` (at most ``timeout`` virtual seconds), then ``settle`` more frames and one
    drawn (``draw``) or not (a screen switch completes on the next frame, and Kivy's ScreenManager drops touches
    while its transition is active)."""
    for _ in range(math.ceil(timeout / STEP)):
        turn(draw=False)
        if pred():
            (frames if draw else tick)(settle + 1)
            return
    raise AssertionError(f"not reached within {timeout} virtual seconds: {what}")


def run_for(seconds: float) -> None:
    """Turn the loop for ``seconds`` of virtual time."""
    frames(math.ceil(seconds / STEP))


# ================================================================================================== fingers
def window_point(widget: Any, fx: float = 0.5, fy: float = 0.5) -> tuple[float, float]:
    """A point inside ``widget`` (fractions of its own size) in window coordinates, rotations included."""
    return widget.to_window(widget.x + widget.width * fx, widget.y + widget.height * fy)  # type: ignore[no-any-return,unused-ignore]


def to_window(widget: Any, x: float, y: float) -> tuple[float, float]:
    """A point in ``widget``'s parent coordinates (where its pos lives) as a window point."""
    return widget.parent.to_window(x, y) if widget.parent is not None else (x, y)


def centre_of(widget: Any) -> tuple[float, float]:
    return widget.to_window(*widget.center) if widget.parent is None else widget.parent.to_window(*widget.center)


class Finger:
    """One simulated finger (a real MotionEvent dispatched through the window), down from its creation."""

    def __init__(self, x: float, y: float) -> None:
        from kivy.tests.common import UnitTestTouch

        self.t = UnitTestTouch(x, y)
        self.t.touch_down()

    def move(self, x: float, y: float) -> Finger:
        self.t.touch_move(x, y)
        return self

    def up(self) -> None:
        self.t.touch_up()


def touch_down(x: float, y: float) -> Any:
    """A finger down, then one frame; lift it with :func:`touch_up`."""
    from kivy.tests.common import UnitTestTouch

    t = UnitTestTouch(x, y)
    t.touch_down()
    frames(1)
    return t


def touch_up(t: Any) -> None:
    t.touch_up()
    frames(1)


def tap_at(x: float, y: float) -> None:
    Finger(x, y).up()


def tap(widget: Any) -> None:
    """A tap in the middle of an on-screen widget, then one frame."""
    assert widget.get_root_window() is not None, f"{widget} is not on screen"
    tap_at(*centre_of(widget))
    frames(1)


class Unreachable(AssertionError):
    """The seat's controls offer no way to make the move the player wants (or a widget to touch is not on screen)."""


class Toucher:
    """Fingers that count their touches (one touch: a finger down and up again; a drag is one), for the touch
    driver and the benchmark. ``frames``/``tick`` are the harness's."""

    frames = staticmethod(frames)
    tick = staticmethod(tick)

    def __init__(self) -> None:
        self.count = 0
        #: seconds between the last tap's down and up as the widgets saw them (on the kiosk's clock)
        self.last_press = 0.0
        #: taps made again because the machine stalled a tap into a hold (counted in ``count`` all the same)
        self.stalled: list[float] = []

    def tap_at(self, x: float, y: float) -> None:
        from kiosk import clock

        finger = Finger(x, y)
        down = clock.now()
        finger.up()
        self.last_press = clock.now() - down
        self.count += 1
        tick(2)

    def tap(self, widget: Any, fx: float = 0.5, fy: float = 0.5) -> None:
        if widget.get_root_window() is None:
            raise Unreachable(f"{widget} is not on screen")
        self.tap_at(*window_point(widget, fx, fy))

    def drag(self, points: list[tuple[float, float]]) -> None:
        """One finger down on the first window point, through the others, up on the last."""
        finger = Finger(*points[0])
        tick(1)
        for x, y in points[1:]:
            finger.move(x, y)
            tick(1)
        finger.up()
        self.count += 1
        tick(2)
