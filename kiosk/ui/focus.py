"""Playing from a seat's two buttons alone: a focus ring per seat over that seat's choices.

Every game screen (:class:`~kiosk.ui.game.BaseGameScreen`) has a :class:`FocusRing`, and so do the joining
screen (:class:`~kiosk.shell.join.JoinScreen`) and the seat menus (:class:`~kiosk.shell.seatmenu.SeatMenus`). A seat's
choices are the widgets the ring's room (:class:`FocusRoom`: the screen) lists with ``focus_targets(seat)``: by
default every visible, enabled widget in the seat's zone that a finger could choose (a Kivy ``ButtonBehavior``,
or a widget with a ``choose()`` method doing what a tap does), in reading order as the seat sees them (top row
first, left to right, in the zone's own turned frame). Screens add what lies outside the zone (board squares, the
joining screen's centre and bot seats) or what only buttons need (Takoyaki's move marks).

Rationale and decisions: docs/developer/design.md, section ``kiosk/ui/focus.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Line
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.layout import Layout
from kivy.uix.widget import Widget

from kiosk.i18n import Translator, translator
from kiosk.inputs import SeatEvent
from kiosk.seats import Rect, Seat, SeatMap
from kiosk.ui.seatzone import Oriented

__all__ = [
    "FocusRing",
    "FocusRoom",
    "FocusFrame",
    "FocusLegend",
    "LEGEND",
    "MAPPING",
    "choosable",
    "top_layer",
    "choose",
    "reading_order",
    "walk_choices",
]

#: The buttons' meanings, in the words the legend and the docs use.
MAPPING: tuple[tuple[str, str], ...] = (("b", "next"), ("hold b", "previous"), ("a", "choose"), ("hold a", "menu"))
LEGEND = "   ".join(f"{k}: {v}" for k, v in MAPPING)


def legend_text(tr: Translator | None = None) -> str:
    """The legend in ``tr``'s language (the seat's): the buttons' names stay, their meanings are translated."""
    tr = tr or translator("en")
    meanings = {
        "next": tr.pgettext("seat button", "next"),
        "previous": tr.pgettext("seat button", "previous"),
        "choose": tr.pgettext("seat button", "choose"),
        "menu": tr.pgettext("seat button", "menu"),
        "hold b": tr.pgettext("seat button", "hold b"),
        "hold a": tr.pgettext("seat button", "hold a"),
    }
    line = tr.gettext("{button}: {meaning}")
    return "   ".join(line.format(button=meanings.get(k, k), meaning=meanings[v]) for k, v in MAPPING)


#: How many "b" steps a seat's highlight can retrace with "hold b" (a walk longer than this forgets its oldest).
TRAIL = 200
#: How often a seat's highlight is checked against its choices while shown (the widgets move and change).
CHECK_S = 0.1


def choosable(w: Any) -> bool:
    """Whether ``w`` is something a finger could choose right now: a button or a ``choose()`` widget, enabled,
    on screen, of some size, and visible (no ancestor at opacity 0)."""
    if not isinstance(w, ButtonBehavior) and not callable(getattr(w, "choose", None)):
        return False
    if not getattr(w, "button_choice", True):
        return False
    if w.disabled or w.width < 1 or w.height < 1 or w.get_root_window() is None:
        return False
    node = w
    while node is not None:
        if getattr(node, "opacity", 1) <= 0.01:
            return False
        parent = node.parent
        node = parent if parent is not node else None
    return True


def walk_choices(root: Any) -> list[Any]:
    """Every choosable widget under ``root`` (see :func:`choosable`), not looking inside one (a card's parts)."""
    found: list[Any] = []
    stack = list(reversed(root.children))
    while stack:
        w = stack.pop()
        if getattr(w, "opacity", 1) <= 0.01:
            continue
        if choosable(w):
            found.append(w)
            continue
        stack.extend(reversed(w.children))
    return found


def choose(w: Any) -> None:
    """Do what a tap on ``w`` does: its ``choose()``, or a press and release of a button."""
    fn = getattr(w, "choose", None)
    if callable(fn):
        fn()
    else:
        w.trigger_action(duration=0)


def window_box(w: Any) -> Rect:
    """``w``'s box in window coordinates (turned seat zones turn by right angles, so the box is exact)."""
    xs, ys = [], []
    for fx, fy in ((0, 0), (1, 0), (0, 1), (1, 1)):
        x, y = w.to_window(w.x + w.width * fx, w.y + w.height * fy)
        xs.append(x)
        ys.append(y)
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def reading_order(zone: Any, widgets: Iterable[Any]) -> list[Any]:
    """``widgets`` in reading order as the seat of ``zone`` sees them: rows from the far side of its zone to its
    own edge, each row left to right. Positions are taken in the zone's own turned frame (the seat model turned
    it), so no rotation is computed here."""
    placed = []
    for w in widgets:
        lx, ly = zone.to_widget(*w.to_window(*w.center))
        placed.append((ly, lx, min(w.width, w.height), w))
    placed.sort(key=lambda p: -p[0])
    rows: list[list[tuple[float, float, float, Any]]] = []
    for p in placed:
        if rows and rows[-1][0][0] - p[0] < rows[-1][0][2] / 2:
            rows[-1].append(p)
        else:
            rows.append([p])
    return [p[3] for row in rows for p in sorted(row, key=lambda p: p[1])]


class FocusFrame(Widget):
    """The highlight: a frame in the seat's colour around ``box`` (window coordinates), drawn over the screen."""

    colour = ListProperty([1, 1, 1, 1])
    thickness = NumericProperty(4)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.size_hint = (None, None)
        self.opacity = 0
        with self.canvas:
            self._dark = Color(0, 0, 0, 0.85)
            self._outer = Line(width=1.5)
            self._col = Color(*self.colour)
            self._line = Line(width=self.thickness)
        self.bind(pos=self._draw, size=self._draw, colour=self._draw, thickness=self._draw)

    def show(self, box: Rect) -> None:
        pad = self.thickness + 2
        self.pos = (box.x - pad, box.y - pad)
        self.size = (box.w + 2 * pad, box.h + 2 * pad)
        self.opacity = 1

    def hide(self) -> None:
        self.opacity = 0

    def _draw(self, *_a: Any) -> None:
        t = self.thickness
        self._col.rgba = self.colour
        self._line.width = t
        self._line.rectangle = (self.x + t, self.y + t, self.width - 2 * t, self.height - 2 * t)
        self._outer.rectangle = (self.x, self.y, self.width, self.height)


class FocusLegend(Oriented):
    """The mapping as one line facing a seat, on a band in its colour just past the inner edge of its zone (its
    look: ``layouts/focus.kv``). The seat model gives the zone's rectangle and rotation; nothing is computed here
    but the band beside that rectangle."""

    text = StringProperty(LEGEND)
    colour = ListProperty([1, 1, 1, 1])
    face = StringProperty("")

    def beside(self, table: SeatMap, seat: Seat, width: float, height: float, band: float) -> None:
        """Lie along the inner edge of ``seat``'s zone, ``band`` deep, facing the seat."""
        r = table.region(seat, width, height)
        if seat.edge == "bottom":
            rect = Rect(r.x, r.y + r.h, r.w, band)
        elif seat.edge == "top":
            rect = Rect(r.x, r.y - band, r.w, band)
        elif seat.edge == "left":
            rect = Rect(r.x + r.w, r.y, band, r.h)
        else:
            rect = Rect(r.x - band, r.y, band, r.h)
        self.place(rect, seat.rotation)


@dataclass
class SeatFocus:
    """One seat's focus: the highlighted widget, whether shown, the buttons down whose press the ring saw, those
    whose hold already fired, and the widgets the highlight left with each "b" since it last landed (the steps
    "hold b" retraces)."""

    widget: Any = None
    shown: bool = False
    peeking: bool = False
    down: set[str] = field(default_factory=set)
    held: set[str] = field(default_factory=set)
    trail: list[Any] = field(default_factory=list)


class FocusRoom(Protocol):
    """What a ring asks of its screen (a game screen, the joining screen, the seat menus).

    Optional: ``focus_quick(seat) -> bool``, the screen's own meaning of "a" with no highlight shown (True when it
    acted); ``focus_after(seat, chosen, targets) -> widget or None``, where the highlight goes after ``chosen`` was
    chosen by button (None: it stays)."""

    table: Any
    width: float
    height: float

    def focus_playing(self, seat: int) -> bool: ...
    def focus_zone(self, seat: int) -> Any: ...
    def focus_tray(self, seat: int) -> Any: ...
    def focus_targets(self, seat: int) -> list[Any]: ...
    def focus_back(self, seat: int) -> bool: ...
    def focus_next(self, seat: int, gone: Any, targets: list[Any]) -> Any: ...
    def focus_layer(self) -> Widget: ...


def top_layer(host: Any, layer: Widget | None) -> Widget:
    """``layer`` (made when None) as ``host``'s topmost child: an empty widget at the origin whose children, the
    highlights and legends, are placed by the ring in window coordinates."""
    if layer is None:
        layer = Widget(size_hint=(None, None), size=(0, 0))
    if layer.parent is None:
        host.add_widget(layer)
    elif host.children[0] is not layer:  # something was added since: stay on top
        host.remove_widget(layer)
        host.add_widget(layer)
    return layer


class FocusRing:
    """Every seat's highlight on one screen (see the module docstring).

    The screen calls :meth:`handle` with each seat-button event; everything else it asks the screen (its
    :class:`FocusRoom`): ``focus_targets(seat)``, ``focus_zone(seat)``, ``focus_back(seat) -> bool``,
    ``focus_tray(seat)``, ``focus_next``, ``focus_layer()``, ``focus_playing(seat)``.
    """

    def __init__(self, screen: FocusRoom) -> None:
        self.screen = screen
        self.seats: dict[int, SeatFocus] = {}
        self.frames: dict[int, FocusFrame] = {}
        self.legends: dict[int, Any] = {}
        self._check_ev: Any = None
        #: Called with (seat, widget) after a choice was made by button (tests count them).
        self.on_choose: Callable[[int, Any], None] | None = None

    # ------------------------------------------------------------------------------------------- queries
    def state(self, seat: int) -> SeatFocus:
        return self.seats.setdefault(seat, SeatFocus())

    def focused(self, seat: int) -> Any:
        """The widget highlighted at ``seat`` (None when no highlight is shown)."""
        st = self.seats.get(seat)
        return st.widget if st is not None and st.shown else None

    def targets(self, seat: int) -> list[Any]:
        return [w for w in self.screen.focus_targets(seat) if choosable(w)]

    # ------------------------------------------------------------------------------------------- input
    def handle(self, event: SeatEvent) -> bool:
        """Act on a seat button (or its key); True when the event was used. ("hold a", the menu, is the shell's:
        see :meth:`let_go`.)"""
        if event.seat is None or event.source not in ("button", "key") or event.button not in ("a", "b"):
            return False
        seat, button, kind = event.seat, event.button, event.kind
        if not self.screen.focus_playing(seat):
            return False
        st = self.state(seat)
        if kind == "press":
            st.held.discard(button)
            st.down.add(button)
            if not self._open_targets(seat):
                self._peek(seat, True)  # nothing to choose now: a look at the hand while held
            return True
        if kind == "hold":
            if button not in st.down:
                return False
            st.held.add(button)
            if button == "b" and not st.peeking:
                self.previous(seat)
            return True
        if kind == "release":
            fired, seen = button in st.held, button in st.down
            st.held.discard(button)
            st.down.discard(button)
            if st.peeking:
                if not st.down:
                    self._peek(seat, False)
                return True
            if fired or not seen:
                return True
            targets = self._open_targets(seat)
            on = st.shown and st.widget in targets
            if button == "b":
                if on:
                    self._step(seat, 1, targets)
                elif not st.shown:
                    self._show(seat, targets)
            elif on:
                self._choose(seat, st.widget)
            elif not st.shown and self._quick(seat):
                pass
            else:
                self._show(seat, targets)
            return True
        return False

    def show(self, seat: int, tries: int = 10) -> None:
        """Show the seat's highlight on its first choice (a menu opened by buttons). A zone that has just joined
        the window is laid out first; while it still has no choice (its place comes with its parent's size on the
        next frame), this is tried again a few frames later."""
        _layout_now(self.screen.focus_zone(seat))
        targets = self._open_targets(seat)
        if targets:
            self._show(seat, targets)
        elif tries > 0 and self.screen.focus_playing(seat):
            Clock.schedule_once(lambda _dt: self.show(seat, tries - 1), CHECK_S / 2)

    def let_go(self, seat: int) -> None:
        """Forget the seat's buttons down and hide its highlight (its menu opened over it: the release of the
        hold that opened it belongs to the menu)."""
        st = self.state(seat)
        st.down.clear()
        st.held.clear()
        if st.peeking:
            self._peek(seat, False)
        self.hide(seat)

    def step(self, seat: int, delta: int) -> None:
        """Move the seat's highlight ``delta`` choices on (round the ends)."""
        self._step(seat, delta, self._open_targets(seat))

    def _step(self, seat: int, delta: int, targets: list[Any]) -> None:
        st = self.state(seat)
        if not targets:
            self.hide(seat)
            return
        i = targets.index(st.widget) if st.widget in targets else -1
        if st.widget is not None:
            st.trail = [*st.trail, st.widget][-TRAIL:]
        st.widget = targets[(i + delta) % len(targets)]
        self._place(seat)

    def previous(self, seat: int) -> None:
        """hold b: back to where the highlight was before the last "b" (still a choice); with no such step,
        :meth:`back`."""
        st = self.state(seat)
        if st.shown:
            targets = self._open_targets(seat)
            while st.trail:
                w = st.trail.pop()
                if w in targets and w is not st.widget:
                    st.widget = w
                    self._place(seat)
                    return
        self.back(seat)

    def back(self, seat: int) -> None:
        """hold b: the screen's own step back, or hide the highlight and close the tray."""
        if self.screen.focus_back(seat):
            _layout_now(self.screen)
            self.refresh(seat, look_in_tray=True)
            return
        self.hide(seat)

    def hide(self, seat: int) -> None:
        st = self.state(seat)
        st.shown = False
        st.widget = None
        st.trail = []
        self._set_tray(seat, False)
        frame = self.frames.get(seat)
        if frame is not None:
            frame.hide()
        legend = self.legends.get(seat)
        if legend is not None:
            legend.opacity = 0
        if not any(s.shown for s in self.seats.values()) and self._check_ev is not None:
            self._check_ev.cancel()
            self._check_ev = None

    def reset(self) -> None:
        """Forget every seat's focus (a new game, the game ended, the table went idle)."""
        for seat in list(self.seats):
            self.hide(seat)
            self._peek(seat, False)
            self.seats[seat].down.clear()
            self.seats[seat].held.clear()

    def refresh(self, seat: int | None = None, look_in_tray: bool = False) -> None:
        """Check each shown highlight against the seat's choices now: it stays on its widget while that is still
        a choice, moves to the first choice when not, and hides when the seat has none. ``look_in_tray`` (after
        a button) counts the choices in a closed tray too; the periodic check does not open trays."""
        for s in [seat] if seat is not None else list(self.seats):
            st = self.seats.get(s)
            if st is None or not st.shown:
                continue
            if not self.screen.focus_playing(s):
                self.hide(s)
                continue
            tray = self.screen.focus_tray(s)
            targets = self._open_targets(s) if look_in_tray or tray is None or tray.is_open else self.targets(s)
            if not targets:
                self.hide(s)
                continue
            if st.widget not in targets:
                st.widget = self.screen.focus_next(s, st.widget, targets)
                st.trail = []  # the screen moved it: a new walk starts here
            self._place(s)

    # ------------------------------------------------------------------------------------------- inside
    def _open_targets(self, seat: int) -> list[Any]:
        """The seat's choices, with its tray open (its cards are choices only then); the tray closes again when
        none of them is inside it."""
        self._set_tray(seat, True)
        targets = self.targets(seat)
        tray = self.screen.focus_tray(seat)
        if tray is not None and not any(_inside(w, tray) for w in targets):
            self._set_tray(seat, False)
            targets = self.targets(seat)
        return targets

    def _show(self, seat: int, targets: list[Any]) -> None:
        st = self.state(seat)
        if not targets:
            return
        if not st.shown:
            st.trail = []
        st.shown = True
        if st.widget not in targets:
            st.widget = self.screen.focus_next(seat, None, targets)
        self._place(seat)
        if self._check_ev is None:
            self._check_ev = Clock.schedule_interval(self._check, CHECK_S)

    def _quick(self, seat: int) -> bool:
        quick = getattr(self.screen, "focus_quick", None)
        return bool(quick(seat)) if callable(quick) else False

    def _choose(self, seat: int, w: Any) -> None:
        st = self.state(seat)
        st.trail = []  # a new walk starts at the choice: "hold b" from here goes back out
        choose(w)
        if self.on_choose is not None:
            self.on_choose(seat, w)
        _layout_now(self.screen)  # a new page, a bot's new buttons: choices have their room before the next frame
        after = getattr(self.screen, "focus_after", None)
        if callable(after) and st.shown and self.screen.focus_playing(seat):
            targets = self._open_targets(seat)
            follow = after(seat, w, targets) if targets else None
            if follow is not None and follow in targets:
                st.widget = follow
        self.refresh(seat, look_in_tray=True)

    def _peek(self, seat: int, on: bool) -> None:
        """Nothing to choose: the tray is open while a button is held (a look at the hand)."""
        st = self.state(seat)
        tray = self.screen.focus_tray(seat)
        st.peeking = on and tray is not None
        if tray is not None:
            tray.held_by_button = on

    def _set_tray(self, seat: int, on: bool) -> None:
        tray = self.screen.focus_tray(seat)
        if tray is None or tray.locked:
            return
        was = tray.is_open
        tray.held_by_button = on
        if tray.is_open and not was:
            _layout_now(self.screen.focus_zone(seat))

    def _check(self, _dt: float) -> None:
        self.refresh()

    def _place(self, seat: int) -> None:
        st = self.state(seat)
        w = st.widget
        zone = self.screen.focus_zone(seat)
        if w is None or zone is None or zone.seat is None:
            return
        layer = self.screen.focus_layer()
        frame = self.frames.get(seat)
        if frame is None:
            frame = self.frames[seat] = FocusFrame(thickness=max(3.0, round(5 * _u())))
        legend = self.legends.get(seat)
        if legend is None:
            legend = self.legends[seat] = FocusLegend()
        for piece in (legend, frame):  # the frame over the legend, both over the screen
            if piece.parent is not layer:
                if piece.parent is not None:
                    piece.parent.remove_widget(piece)
                layer.add_widget(piece)
        frame.colour = list(zone.seat_colour)
        box = window_box(w)
        x, y = layer.to_widget(box.x, box.y)
        frame.show(Rect(x, y, box.w, box.h))
        legend.colour = list(zone.seat_colour)
        tr = getattr(zone, "tr", None)  # the seat's language
        legend.text, legend.face = legend_text(tr), tr.face if tr is not None else ""
        legend.beside(self.screen.table, zone.seat, self.screen.width, self.screen.height, round(34 * _u()))
        legend.opacity = 1


def _layout_now(root: Any) -> None:
    """Lay ``root``'s tree out at once, parents first (an opened tray gives its buttons their room only on the
    next frame otherwise, and a widget of no size is no choice)."""
    if root is None:
        return
    for w in root.walk(restrict=True):
        if isinstance(w, Layout):
            w.do_layout()


def _u() -> float:
    """The app's size unit (1 at 1080 px), 1 without a running kiosk."""

    app = App.get_running_app()
    return float(getattr(app, "u", 1.0)) if app is not None else 1.0


def _inside(w: Any, ancestor: Any) -> bool:
    node = w
    while node is not None:
        if node == ancestor:  # (== not "is": kv ids are weak proxies)
            return True
        parent = node.parent
        node = parent if parent is not node else None
    return False
