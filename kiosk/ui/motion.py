"""Motion on the table: a piece flies from where it came from to where it goes, a completed recipe or a Kensei
is celebrated, a new order card flips in.

The game screens drive it from the session's events after each applied action (``animate_events`` of
:class:`kiosk.board.board.BoardScreen` and of the Makoto screen; the Takoyaki screen's order reveal): the state is
already drawn when the motion starts, so the motion is decoration on top of it, never a step of the game.

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
from kivy.app import App
from kivy.graphics import Color, Line, PopMatrix, PushMatrix, Rectangle, Rotate, RoundedRectangle
from kivy.properties import NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from kiosk.ui.pieces import Picture
from kiosk.ui.typescale import face, px

__all__ = [
    "Ghost",
    "fly",
    "celebrate",
    "banner",
    "glow",
    "flip_in",
    "box_of",
    "clamp_duration",
    "MIN_S",
    "MAX_S",
    "BANNER_S",
    "active",
    "clear",
    "wanted",
    "BOT_PACE_S",
]

MIN_S = 0.15
MAX_S = 0.40
#: A celebration's banner stays this long in all (it fades in and out within it); decoration, never blocking.
BANNER_S = 1.6
#: At most this many ghosts at once: a burst of events (a bot's quick moves) drops the extra motion rather
#: than slow the frames down.
MAX_GHOSTS = 24
_active: list[Widget] = []

Box = tuple[float, float, float, float]


#: A bot's move is shown with motion only when bots move at least this far apart (seconds): at a faster pace (a
#: test's, a sped-up attract mode) the next move would cut every motion short, and the frames go to the moves.
BOT_PACE_S = 0.3


def wanted(session: Any, seat: int | None) -> bool:
    """Whether the move of game seat ``seat`` gets its motion: always for a human, for a bot only at a watchable
    pace (``session.move_delay`` at least :data:`BOT_PACE_S`)."""
    if session is None or seat is None or not session.is_bot(seat):
        return True
    return float(getattr(session, "move_delay", 1.0)) >= BOT_PACE_S


def clamp_duration(seconds: float) -> float:
    """Every animation lasts 150-400 ms."""
    return max(MIN_S, min(MAX_S, seconds))


def active() -> int:
    """How many ghosts are in flight (tests; the attract benchmark)."""
    return len(_active)


def clear() -> None:
    """Take every ghost off the window at once (a game ends or the screen changes: no motion outlives it)."""
    for ghost in list(_active):
        Animation.cancel_all(ghost)
        if ghost.parent is not None:
            ghost.parent.remove_widget(ghost)
    _active.clear()


class Ghost(Widget):
    """A piece's picture in flight: takes no touches, removes itself when its animation ends. ``rotation``
    (degrees, the seat model's for a seat) turns what it holds about its centre, to face a seat."""

    rotation = NumericProperty(0.0)
    #: What moves it (its whole length is the motion's: tests read it).
    animation: Animation | None = None
    #: Decoration over the real widgets for a moment: the fit checker (``devtools.fit``) skips it.
    decoration = True

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        with self.canvas.before:
            PushMatrix()
            self._rot = Rotate(angle=0, origin=(0, 0))
        with self.canvas.after:
            PopMatrix()
        self.bind(pos=self._turn, size=self._turn, rotation=self._turn)

    def _turn(self, *_a: Any) -> None:
        self._rot.angle = self.rotation
        self._rot.origin = self.center

    def on_touch_down(self, touch: Any) -> bool:
        return False

    def on_touch_move(self, touch: Any) -> bool:
        return False

    def on_touch_up(self, touch: Any) -> bool:
        return False


def _window() -> Any:
    # (Kivy's window opens on its first import: not when tools import this module)
    from kivy.core.window import Window

    return Window


def _window_box(w: Widget) -> Box:
    """``w``'s box in window coordinates (the bounding box, for a widget turned to face a side)."""
    pts = [w.to_window(x, y) for x, y in ((w.x, w.y), (w.right, w.y), (w.x, w.top), (w.right, w.top))]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def box_of(where: Widget | Box, size: tuple[float, float] | None = None) -> Box:
    """A box in window coordinates: a widget's (as drawn, turned or not) or a box as given; with ``size``, a box
    of that size centred on it (a card-sized piece leaving the middle of a seat's zone)."""
    x, y, w, h = _window_box(where) if isinstance(where, Widget) else where
    if size is None:
        return x, y, w, h
    return x + w / 2 - size[0] / 2, y + h / 2 - size[1] / 2, size[0], size[1]


def _hold(ghost: Widget, piece: Widget) -> None:
    piece.size_hint = (None, None)
    piece.pos, piece.size = ghost.pos, ghost.size
    ghost.bind(pos=lambda g, p: setattr(piece, "pos", p), size=lambda g, s: setattr(piece, "size", s))
    ghost.add_widget(piece)


def _launch(ghost: Ghost, anim: Animation) -> Widget:
    win = _window()
    if len(_active) >= MAX_GHOSTS:  # too much at once: the oldest motion ends now (its state is drawn already)
        old = _active.pop(0)
        Animation.cancel_all(old)
        if old.parent is not None:
            old.parent.remove_widget(old)
    win.add_widget(ghost)
    _active.append(ghost)

    def done(*_a: Any) -> None:
        if ghost.parent is not None:
            ghost.parent.remove_widget(ghost)
        if ghost in _active:
            _active.remove(ghost)

    anim.bind(on_complete=done)
    ghost.animation = anim
    anim.start(ghost)
    return ghost


def fly(
    piece: Widget,
    source: Widget | Box,
    target: Widget | Box,
    seconds: float = 0.3,
    size: tuple[float, float] | None = None,
) -> Widget:
    """Fly ``piece`` (a fresh piece widget showing what moves: a tile, a card) from ``source``'s box to
    ``target``'s, in window coordinates (widgets or boxes; with ``size``, a piece of that size from the middle of
    the one to the middle of the other). Returns the ghost holding it."""
    sx, sy, sw, sh = box_of(source, size)
    tx, ty, tw, th = box_of(target, size)
    ghost = Ghost(size_hint=(None, None), pos=(sx, sy), size=(sw, sh))
    _hold(ghost, piece)
    anim = Animation(x=tx, y=ty, width=tw, height=th, duration=clamp_duration(seconds), t="out_cubic")
    return _launch(ghost, anim)


def celebrate(target: Widget, piece: Widget, seconds: float = 0.4) -> Widget:
    """A short burst over ``target``: ``piece`` (a picture, e.g. the party popper or the Kensei crown) grows
    from the target's centre to twice its size and fades out."""
    x, y, w, h = _window_box(target)
    side = min(w, h) * 0.6
    ghost = Ghost(size_hint=(None, None), size=(side, side), pos=(x + w / 2 - side / 2, y + h / 2 - side / 2))
    _hold(ghost, piece)
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


def glow(target: Widget | Box, rgba: Any, seconds: float = 0.4, pulses: int = 2) -> Widget:
    """A frame in ``rgba`` over ``target`` that pulses ``pulses`` times (each 150-400 ms) and fades: the tiles of
    a completed recipe, a seat that scored."""
    x, y, w, h = box_of(target)
    ghost = Ghost(size_hint=(None, None), pos=(x, y), size=(w, h), opacity=0.0)
    with ghost.canvas:
        Color(*list(rgba)[:3], 0.9)
        line = Line(rectangle=(x, y, w, h), width=4)
        Color(*list(rgba)[:3], 0.22)
        fill = Rectangle(pos=(x, y), size=(w, h))

    def follow(g: Widget, *_a: Any) -> None:
        line.rectangle = (g.x, g.y, g.width, g.height)
        fill.pos, fill.size = g.pos, g.size

    ghost.bind(pos=follow, size=follow)
    step = clamp_duration(seconds) / 2
    anim = Animation(opacity=1.0, duration=step) + Animation(opacity=0.0, duration=step)
    for _ in range(max(1, pulses) - 1):
        anim += Animation(opacity=1.0, duration=step) + Animation(opacity=0.0, duration=step)
    return _launch(ghost, anim)


def banner(
    target: Widget | Box,
    text: str,
    picture: str = "party",
    rotation: float = 0.0,
    seconds: float = BANNER_S,
) -> Widget:
    """A short celebration over ``target``: a panel with a picture (``party``, ``kensei``, ...) and ``text``,
    turned by ``rotation`` (the seat model's rotation of the seat it celebrates, 0 for the shared centre). It
    pops in (250 ms), stays, and fades out (350 ms): about ``seconds`` in all (1-2 s). It takes no touches."""

    app = App.get_running_app()
    u = float(getattr(app, "u", 1.0) or 1.0)
    font = px("heading", u)
    x, y, w, h = box_of(target)
    sideways = int(round(rotation)) % 180 == 90
    room_w, room_h = (h, w) if sideways else (w, h)  # the banner as its reader sees it
    bw, bh = min(room_w * 0.9, max(font * 9, font * 0.62 * len(text) + font * 3)), min(room_h * 0.8, font * 2.4)
    font = max(px("small", u), min(font, (bw - bh) / (0.62 * max(1, len(text)))))  # one line where it can
    ghost = Ghost(size_hint=(None, None), size=(bw, bh), pos=(x + w / 2 - bw / 2, y + h / 2 - bh / 2), opacity=0)
    ghost.rotation = rotation
    panel = BoxLayout(orientation="horizontal", padding=bh * 0.12, spacing=bh * 0.12)
    with panel.canvas.before:
        Color(0.10, 0.09, 0.14, 0.92)
        back = RoundedRectangle(radius=[bh * 0.25])
        Color(0.98, 0.74, 0.25, 1)
        edge = Line(width=2.5)

    def frame(p: Widget, *_a: Any) -> None:
        back.pos, back.size = p.pos, p.size
        edge.rounded_rectangle = (p.x, p.y, p.width, p.height, bh * 0.25)

    panel.bind(pos=frame, size=frame)
    panel.add_widget(Picture(name=picture, size_hint_x=None, width=bh * 0.76))
    label = Label(
        text=text,
        font_name=face(text),
        bold=True,
        font_size=font,
        color=(0.98, 0.74, 0.25, 1),
        halign="center",
        valign="middle",
        shorten=False,
    )
    label.bind(size=lambda lb, s: setattr(lb, "text_size", (s[0], None)))
    panel.add_widget(label)
    _hold(ghost, panel)
    fade_in, fade_out = 0.25, 0.35
    hold = max(0.3, max(1.0, min(2.0, seconds)) - fade_in - fade_out)
    anim = Animation(opacity=1.0, duration=fade_in, t="out_back") + Animation(duration=hold)
    anim += Animation(opacity=0.0, duration=fade_out)
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
