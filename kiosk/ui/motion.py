# mypy: allow-subclassing-any
"""Motion on the table: a piece flies from where it came from to where it goes, a completed recipe or a Kensei
is celebrated, a new order card flips in.

Decision: **motion never delays input.** Every animation here is drawn by a *ghost*: a copy of the piece laid
on the window (:class:`Ghost`, which takes no touches) for the animation's 150-400 ms, while the real widgets
already hold the new state and take touches at once. A touch during an animation acts on what the state is,
not on what is still moving. The ghosts live on the window (window coordinates), so a piece crossing from a
seat turned to face one side to the shared centre is drawn without rotation in flight.

>>> clamp_duration(1.0), clamp_duration(0.05)
(0.4, 0.15)
"""

from __future__ import annotations

from typing import Any

from kivy.animation import Animation
from kivy.uix.widget import Widget

__all__ = ["Ghost", "fly", "celebrate", "flip_in", "clamp_duration", "MIN_S", "MAX_S", "active"]

MIN_S = 0.15
MAX_S = 0.40
_active: list[Widget] = []


def clamp_duration(seconds: float) -> float:
    """Every animation lasts 150-400 ms."""
    return max(MIN_S, min(MAX_S, seconds))


def active() -> int:
    """How many ghosts are in flight (tests; the attract benchmark)."""
    return len(_active)


class Ghost(Widget):
    """A piece's picture in flight: takes no touches, removes itself when its animation ends."""

    def on_touch_down(self, touch: Any) -> bool:
        return False

    def on_touch_move(self, touch: Any) -> bool:
        return False

    def on_touch_up(self, touch: Any) -> bool:
        return False


def _window() -> Any:
    from kivy.core.window import Window

    return Window


def _window_box(w: Widget) -> tuple[float, float, float, float]:
    """``w``'s box in window coordinates (the bounding box, for a widget turned to face a side)."""
    pts = [w.to_window(x, y) for x, y in ((w.x, w.y), (w.right, w.y), (w.x, w.top), (w.right, w.top))]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def _launch(ghost: Widget, anim: Animation) -> Widget:
    win = _window()
    win.add_widget(ghost)
    _active.append(ghost)

    def done(*_a: Any) -> None:
        if ghost.parent is not None:
            ghost.parent.remove_widget(ghost)
        if ghost in _active:
            _active.remove(ghost)

    anim.bind(on_complete=done)
    anim.start(ghost)
    return ghost


def fly(piece: Widget, source: Widget, target: Widget, seconds: float = 0.3) -> Widget:
    """Fly ``piece`` (a fresh piece widget showing what moves: a tile, a card) from ``source``'s box to
    ``target``'s, in window coordinates. Returns the ghost holding it."""
    sx, sy, sw, sh = _window_box(source)
    tx, ty, tw, th = _window_box(target)
    ghost = Ghost(size_hint=(None, None), pos=(sx, sy), size=(sw, sh))
    piece.size_hint = (None, None)
    piece.pos, piece.size = ghost.pos, ghost.size
    ghost.bind(pos=lambda g, p: setattr(piece, "pos", p), size=lambda g, s: setattr(piece, "size", s))
    ghost.add_widget(piece)
    anim = Animation(x=tx, y=ty, width=tw, height=th, duration=clamp_duration(seconds), t="out_cubic")
    return _launch(ghost, anim)


def celebrate(target: Widget, piece: Widget, seconds: float = 0.4) -> Widget:
    """A short burst over ``target``: ``piece`` (a picture, e.g. the party popper or the Kensei crown) grows
    from the target's centre to twice its size and fades out."""
    x, y, w, h = _window_box(target)
    side = min(w, h) * 0.6
    ghost = Ghost(size_hint=(None, None), size=(side, side), pos=(x + w / 2 - side / 2, y + h / 2 - side / 2))
    piece.size_hint = (None, None)
    piece.pos, piece.size = ghost.pos, ghost.size
    ghost.bind(pos=lambda g, p: setattr(piece, "pos", p), size=lambda g, s: setattr(piece, "size", s))
    ghost.add_widget(piece)
    big = side * 2
    anim = Animation(
        x=x + w / 2 - big / 2,
        y=y + h / 2 - big / 2,
        width=big,
        height=big,
        opacity=0,
        duration=clamp_duration(seconds),
        t="out_quad",
    )
    return _launch(ghost, anim)


def flip_in(widget: Widget, seconds: float = 0.3) -> Animation:
    """Turn ``widget`` in from edge-on: its ``flip`` property (1 = face shown, 0 = edge-on; the piece's kv rule
    scales its drawing by it about its centre) goes from 0 to 1. The widget takes touches throughout: only its
    drawing is scaled."""
    Animation.cancel_all(widget, "flip")
    widget.flip = 0.0
    anim = Animation(flip=1.0, duration=clamp_duration(seconds), t="out_back")
    anim.start(widget)
    return anim
