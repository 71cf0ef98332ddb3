"""Widgets that face a seat: the seat zone, the centre panel and the private tray.

Every per-seat widget goes inside a :class:`SeatZone`, which the seat model (:class:`kiosk.seats.SeatMap`)
places: size, rotation and position follow the seat and the window, so screens never compute a rotation.
Shared widgets go inside a :class:`CentrePanel`, which faces one edge of the table at a time (the seat whose
turn it is, or the player who opened the game picker).

:class:`PrivateTray` is the one widget for hidden things (a hand of cards): a tap opens it and a tap closes it; it
also opens while held (a finger, or one of the seat's buttons) and closes on the release of the hold, and closes
by itself after a few seconds without a touch at the seat. It opens by itself when its seat's turn starts
(:meth:`PrivateTray.turn_started`, which the game screens call for a human seat). The idle handler, a passing turn
and the end of a game close it with :meth:`PrivateTray.close`. While it is open at a human's seat its
:class:`TrayHelp` ("?") opens the seat's menu, since the open hand takes the seat's column and its badge.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.scatterlayout import ScatterLayout

from kiosk import clock
from kiosk.i18n import LANGUAGES, N_, translator
from kiosk.seats import EDGE_ROTATION, Rect, Seat, SeatMap
from kiosk.ui.hold import held as explained
from kiosk.ui.speaks import Speaks

__all__ = ["Oriented", "SeatZone", "CentrePanel", "PrivateTray", "SeatBadge", "TrayHelp", "use_players"]


#: A closed private tray's hint (a tray showing it in any language follows its seat's language).
TRAY_HINT = N_("Tap here to see your hand")


class Oriented(ScatterLayout):
    """A fixed (not draggable) scatter laid over a window rectangle and turned to face one edge.

    ``local size`` is the rectangle as the facing player sees it (width and height swap for the short sides).
    Touches reach the children in local coordinates, as Kivy's Scatter does.
    """

    facing_rotation = NumericProperty(0)
    rotation: float  # Scatter's property (Kivy is untyped)
    #: widgets taken out of the tree while not shown, held until shown again
    _parked: set[Oriented] = set()
    #: False takes the widget out of the widget tree (and back in at the same place when True again): Kivy draws
    #: a widget with opacity 0 at full cost, which a software renderer or a Pi's GPU pays on every frame.
    shown = BooleanProperty(True)

    def __init__(self, **kw: Any) -> None:
        kw.setdefault("do_rotation", False)
        kw.setdefault("do_scale", False)
        kw.setdefault("do_translation", False)
        kw.setdefault("auto_bring_to_front", False)
        kw.setdefault("size_hint", (None, None))
        super().__init__(**kw)
        self._target: Rect | None = None
        self._home: Any = None

    @classmethod
    def forget_parked(cls, root: Any) -> None:
        """Let go of the hidden widgets whose place is under ``root`` (a screen being dropped)."""

        def under(w: Any) -> bool:
            home = w._home[0] if w._home is not None else None
            while home is not None:
                if home is root:
                    return True
                parent = home.parent
                home = parent if parent is not home else None
            return False

        for w in [w for w in cls._parked if under(w)]:
            cls._parked.discard(w)
            w._home = None

    def sync_shown(self) -> None:
        """Apply ``shown`` after the widget was added to its parent (it may have been False since creation)."""
        self.on_shown(self, self.shown)

    def on_shown(self, _w: Any, shown: bool) -> None:
        if not shown and self.parent is not None:
            parent = self.parent
            self._home = (parent, parent.children.index(self))
            parent.remove_widget(self)
            # the tree was its only strong reference (kv ids are weak): without this a hidden panel is collected
            # and never comes back (attract mode's boards, title and resume offer did exactly that)
            Oriented._parked.add(self)
        elif shown and self.parent is None and self._home is not None:
            parent, index = self._home
            self._home = None
            Oriented._parked.discard(self)
            parent.add_widget(self, index=min(index, len(parent.children)))

    def place(self, rect: Rect, rotation: int) -> None:
        """Cover ``rect`` (parent coordinates) facing the edge whose rotation is ``rotation``."""
        if self._target == rect and self.facing_rotation == rotation:
            return
        self._target = rect
        self.facing_rotation = rotation
        sideways = rotation in (90, 270)
        self.size = (rect.h, rect.w) if sideways else (rect.w, rect.h)
        if self.rotation != rotation:
            self.rotation = rotation
        self.center = rect.center

    def collide_point(self, x: float, y: float) -> bool:  # exact for right angles, and cheap
        return self._target is not None and self._target.contains(x, y)


class SeatZone(Speaks, Oriented):
    """A seat's zone, facing it. Set ``table`` (the SeatMap) and ``seat``; it follows the parent's size.

    It speaks its seat's language (:class:`~kiosk.ui.speaks.Speaks`: ``tr``, ``face``); :meth:`take_seat` sets it
    from the session and the game's words (``domain``) from the game."""

    table = ObjectProperty(None, allownone=True)
    seat = ObjectProperty(None, allownone=True)
    seat_label = StringProperty("")
    seat_colour = ListProperty([1, 1, 1, 1])
    #: A message for this seat only (a refused move, a fault), shown for a few seconds by :meth:`show_error`.
    error = StringProperty("")
    #: Whether the seat plays the current game, and who: a bot or not, "Player" / "Bot (easy)".
    in_game = BooleanProperty(False)
    is_bot = BooleanProperty(False)
    who = StringProperty("")
    #: Hint mode at this seat: its legal moves marked and a prompt of what to do now (screens honour it). On for a
    #: newcomer; the shell turns it off for a seat that finished a game today, and the seat menu switches it.
    hints = BooleanProperty(True)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._clear_error_ev: Any = None
        #: The game seat this zone plays in the current game (None: not in it).
        self.game_seat: int | None = None
        #: The seat menu's "?" over the zone's open tray (None: the zone has no tray), see :class:`TrayHelp`.
        self.tray_help: TrayHelp | None = None
        tray = self.ids.get("tray")
        if tray is not None:
            self.tray_help = TrayHelp(tray=tray, seat=self.seat)
            self.add_widget(self.tray_help)  # after the zone's own widgets: over them
            self.bind(tr=self.say_tray_hint)
        self.bind(parent=self._rebind, table=self._relayout, seat=self._relayout)

    def say_tray_hint(self, *_a: Any) -> None:
        """The tray's default hint in the seat's language (a hint a screen set of its own stays)."""
        tray = self.ids.get("tray")
        if tray is not None and tray.hint in {translator(lang).gettext(TRAY_HINT) for lang in LANGUAGES}:
            tray.hint = self.tr.gettext(TRAY_HINT)

    def take_seat(self, session: Any, game_seat: int) -> None:
        """Play game seat ``game_seat`` of ``session`` (a GameSession): who sits here comes from it."""
        self.game_seat = game_seat
        self.in_game = True
        self.domain = session.spec.key
        if self.seat is not None:
            self.language = session.language_of(self.seat.index)
        self.is_bot = session.is_bot(game_seat)
        self.who = session.who(game_seat, self.tr)

    def leave_seat(self) -> None:
        """Not in the game (before a new game assigns the seats)."""
        self.game_seat = None
        self.in_game = False

    def show_error(self, message: str, seconds: float = 5.0) -> None:
        """Show ``message`` at this seat for ``seconds`` (a newer message replaces it)."""
        self.error = message
        if self._clear_error_ev is not None:
            self._clear_error_ev.cancel()
        self._clear_error_ev = Clock.schedule_once(self._clear_error, seconds)

    def _clear_error(self, _dt: float) -> None:
        self.error = ""

    def on_touch_down(self, touch: Any) -> bool:
        """A touch anywhere in the zone is a touch at this seat: its open tray waits longer before closing."""
        if self.collide_point(*touch.pos):
            tray = self.ids.get("tray")
            if tray is not None:
                tray.poke()
        return bool(super().on_touch_down(touch))

    def _rebind(self, *_a: Any) -> None:
        if self.parent is not None:
            self.parent.bind(size=self._relayout)
        self._relayout()

    def _relayout(self, *_a: Any) -> None:
        seat: Seat | None = self.seat
        if self.tray_help is not None:
            self.tray_help.seat = seat
        if seat is not None:
            self.seat_label = seat.label
            self.seat_colour = list(seat.colour)
        if seat is None or self.table is None or self.parent is None:
            return
        w, h = self.parent.size
        self.place(self.table.region(seat, w, h), seat.rotation)


class CentrePanel(Speaks, Oriented):
    """The shared centre of the table, facing ``facing`` ("bottom", "right", "top" or "left").

    ``half`` restricts it to the half of the centre nearest that edge (two copies can then face both long
    sides at once, as the high-score boards do).
    """

    table = ObjectProperty(None, allownone=True)
    facing = OptionProperty("bottom", options=list(EDGE_ROTATION))
    half = BooleanProperty(False)
    full = BooleanProperty(False)  # the whole screen (operator menu, diagnostics): no seat zones around
    #: The seats in play (a game's, set by :func:`use_players`): the centre also takes the bands of the edges where
    #: none of them sits (:meth:`kiosk.seats.SeatMap.centre`). None: every seat of the table.
    players = ObjectProperty(None, allownone=True)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(
            parent=self._rebind,
            table=self._relayout,
            facing=self._relayout,
            half=self._relayout,
            full=self._relayout,
            players=self._relayout,
        )

    def _rebind(self, *_a: Any) -> None:
        if self.parent is not None:
            self.parent.bind(size=self._relayout)
        self._relayout()

    def _relayout(self, *_a: Any) -> None:
        if self.table is None or self.parent is None:
            return
        table: SeatMap = self.table
        w, h = self.parent.size
        r = Rect(0.0, 0.0, float(w), float(h)) if self.full else table.centre(w, h, self.players)
        if self.half:
            if self.facing == "bottom":
                r = Rect(r.x, r.y, r.w, r.h / 2)
            elif self.facing == "top":
                r = Rect(r.x, r.y + r.h / 2, r.w, r.h / 2)
            elif self.facing == "left":
                r = Rect(r.x, r.y, r.w / 2, r.h)
            else:
                r = Rect(r.x + r.w / 2, r.y, r.w / 2, r.h)
        self.place(r, EDGE_ROTATION[self.facing])


def use_players(root: Any, seats: list[Seat] | None) -> None:
    """Tell every centre under ``root`` (anything with a ``players`` property: :class:`CentrePanel`, a game's own
    centre slices) which seats are in play, so that it grows over the empty edges' bands (None: every seat)."""
    for w in root.walk(restrict=True):
        if w is not root and "players" in getattr(w, "properties", lambda: {})():
            w.players = None if seats is None else list(seats)


class SeatBadge(BoxLayout):
    """The seat's symbol and shape name (colour is never the only cue).

    A tap on the badge opens the seat's menu (how to play, leave) where the shell offers one: the class attribute
    ``opener(table index) -> bool`` (set by the shell's seat menus) is asked, and True means the tap was used.
    ``menu`` marks the badge of a seat that has a menu (``menu_text``: "[?] Help / Leave" in a game, "[?] How to
    play" on the joining screen).
    """

    seat = ObjectProperty(None, allownone=True)
    text = StringProperty("")
    menu = BooleanProperty(False)
    menu_text = StringProperty("[?] Help / Leave")
    #: the face of the badge's words ("" for the table's; the CJK face for a seat reading Japanese), and the
    #: seat's name in the seat's language ("": ``seat.name``)
    face = StringProperty("")
    seat_name = StringProperty("")
    opener: Callable[[int], bool] | None = None

    def badge_text(self, width: float, height: float, font_size: float, font_name: str, *_bound: Any) -> str:
        """The badge's words that fit a ``width`` x ``height`` box: the seat's name, who sits there and the menu's
        text when there is room; in a small badge the name goes first (the symbol beside it stays), then the
        bot's level and the menu's words (``[?]`` stays as the menu's cue). ``_bound``: the properties the kv
        rule passes so that it is asked again when they change."""
        name = self.seat_name or (self.seat.name if self.seat is not None else "")
        who = self.text
        short = who.split(" (")[0]
        menu = self.menu_text if self.menu else ""
        cue = "[?]" if self.menu else ""
        choices = [[name, who, menu], [who, menu], [short, menu], [short, cue], [short]]
        texts = ["\n".join(line for line in lines if line) for lines in choices]
        for text in texts:
            if _fits(text, width, height, font_size, font_name):
                return text
        return texts[-1]

    def on_touch_down(self, touch: Any) -> bool:
        opener = SeatBadge.opener
        if (
            self.menu
            and opener is not None
            and self.seat is not None
            and self.collide_point(*touch.pos)
            and opener(self.seat.index)
        ):
            return True
        return bool(super().on_touch_down(touch))


@functools.lru_cache(maxsize=4096)
def _fits(text: str, width: float, height: float, font_size: float, font_name: str) -> bool:
    """``text`` at ``font_size`` in ``font_name`` fits ``width`` x ``height`` without breaking a word (each line
    wrapped at word boundaries; measured with the font's extents, no texture is rendered)."""
    if width <= 0 or height <= 0:
        return False
    extents = _extents(font_name, round(font_size, 1))
    line_h = extents("Ag")[1]
    space = extents(" ")[0]
    rows = 0
    for line in text.split("\n"):
        used = 0.0
        rows += 1
        for word in line.split():
            w = extents(word)[0]
            if w > width:
                return False
            if used and used + space + w > width:
                rows += 1
                used = w
            else:
                used = used + space + w if used else w
    return rows * line_h <= height


@functools.lru_cache(maxsize=64)
def _extents(font_name: str, font_size: float) -> Callable[[str], tuple[int, int]]:
    # (a Kivy core provider: chosen on first import, once Kivy is set up)
    from kivy.core.text import Label as CoreLabel

    core = CoreLabel(font_name=font_name, font_size=font_size)
    core.resolve_font_name()
    return core.get_extents


class TrayHelp(ButtonBehavior, Label):
    """The seat menu's "?" in the near right corner of the seat's open tray (as the seat sees it: its bottom right),
    a touch target: a tap opens the seat's menu (how to play, hints, Leave), as a tap on the seat's badge does.

    Decision, written down: while a seat's hand is open it takes the seat's column, badge included (the hand needs
    the room), and it opens by itself at the seat's turn, so without this the menu took a tap on the hand first,
    during exactly the turns a newcomer has questions. The "?" lives with the tray, not in each game's layout:
    every zone with a tray (``ids.tray``) gets one (:class:`SeatZone` adds it over its widgets), and it shows
    while the tray is open at a seat with a menu (``menu``, marked with the badges by the shell). It covers nothing:
    the tray keeps it room (``help_room``: a strip along its right edge, or beside its bottom row).
    Its look: ``<TrayHelp>`` in ``layouts/common.kv``. It is no choice for the seat's buttons (``button_choice``):
    on them "hold a" opens the same menu.
    """

    seat = ObjectProperty(None, allownone=True)
    tray = ObjectProperty(None, allownone=True)
    #: The seat has a menu now (a human's seat in a game): set with the badges' mark.
    menu = BooleanProperty(False)
    showing = BooleanProperty(False)
    #: The strip it takes from the tray while showing (its width and a gap; the kv rule sets it).
    room = NumericProperty(0)
    button_choice = False

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(menu=self._update, tray=self._watch, showing=self._room, room=self._room)
        self._watch()

    def _watch(self, *_a: Any) -> None:
        if self.tray is not None:
            self.tray.bind(is_open=self._update, always_open=self._update)
        self._update()

    def _update(self, *_a: Any) -> None:
        tray = self.tray
        self.showing = bool(self.menu and tray is not None and tray.is_open and not tray.always_open)

    def _room(self, *_a: Any) -> None:
        if self.tray is not None:
            self.tray.help_room = self.room if self.showing else 0

    def on_release(self) -> None:
        opener = SeatBadge.opener
        if self.showing and opener is not None and self.seat is not None:
            opener(self.seat.index)


class PrivateTray(BoxLayout):
    """A tray facing its seat whose contents show only while it is open.

    It opens with a tap on it (and stays open) or while held (a finger down on it, or the seat's button held);
    it closes with a tap on it while open (off its buttons), on the release of a hold (a finger kept down for
    :attr:`HOLD_S` or longer, or one that held it while another finger used a button inside, or the seat's button
    letting go of it: ``held_by_button`` back to False), by itself after
    :attr:`AUTO_CLOSE_S` seconds without a touch at the seat (:meth:`poke` says there was one: the seat's zone,
    and the board screens for the acting seat's board taps), and with :meth:`close` (the table went idle, the turn
    passed, the game ended). ``always_open`` is for seats with nothing to hide; ``locked`` for a bot's tray.

    **It opens by itself when the seat's turn starts** (:meth:`turn_started`; decision, written down): the hand is
    what a player plays from, and a tap to see it at the start of every turn was the one touch every turn paid.
    Hidden things stay as private as before: only a human seat's tray opens (a bot's is locked, and attract mode's
    seats are all bots), only when its own turn starts, facing that seat; it still closes when the turn passes,
    when the table goes idle, at the game's end, with a tap, and after :attr:`AUTO_CLOSE_S` without a touch at the
    seat (a player who walked away). A tray the player closed during the turn stays closed until the next turn.
    Children are shown only while ``is_open`` (kv rules check it); a touch that opens the tray does not also press
    a button under it (the player sees what they press).

    :meth:`open`, :meth:`close` and :meth:`toggle` do what the touches do, for other input paths (seat buttons).
    """

    #: A finger kept down this long (seconds) is a hold: its release closes the tray. A shorter one is a tap.
    HOLD_S = 0.5
    #: An open tray closes by itself after this many seconds without a touch at its seat.
    AUTO_CLOSE_S = 8.0

    held_by_button = BooleanProperty(False)
    always_open = BooleanProperty(False)
    locked = BooleanProperty(False)  # a bot's tray, or the table is idle: never opens
    is_open = BooleanProperty(False)
    #: Opened by a tap (or :meth:`open`): stays open until a tap, :meth:`close` or the time-out.
    latched = BooleanProperty(False)
    #: What a closed tray says (its zone's :meth:`SeatZone.say_tray_hint` puts it in the seat's language).
    hint = StringProperty(TRAY_HINT)
    n_touches = NumericProperty(0)
    #: Room (px) the seat menu's "?" (:class:`TrayHelp`) needs beside the tray's content while it shows, in the
    #: tray's near right corner as its seat sees it. With ``help_strip`` the tray keeps it as a strip along its
    #: right edge (its right padding: common.kv); without, a child keeps the room beside the "?" itself (Makoto's
    #: action row, whose hand needs the tray's whole width).
    help_room = NumericProperty(0)
    help_strip = BooleanProperty(True)
    #: A bot plays this seat: no dashed "tap here" frame (nobody will tap it) and, with ``bot_mark``, the bot's
    #: picture in the middle of the closed tray instead of an empty box (attract mode's seats are all bots).
    bot = BooleanProperty(False)
    #: Whether a bot's closed tray shows the bot's picture (Makoto's shows the last moves there instead).
    bot_mark = BooleanProperty(True)
    #: The picture's image source (``""``: none to draw), kept by :meth:`on_bot`.
    bot_picture = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._touches: set[int] = set()
        self._opened_by: int | None = None  # the touch that opened the tray (a tap latches, a hold does not)
        self._used = False  # a button inside was used while that touch was down
        self._auto_close: Any = None
        self.bind(
            held_by_button=self._button_hold,
            always_open=self._update,
            locked=self._update,
            n_touches=self._update,
            latched=self._update,
        )

    def on_bot(self, _w: Any, bot: bool) -> None:
        from kiosk.ui import pictures  # (the pictures' table reads every game's look: off start-up)

        self.bot_picture = pictures.picture("bot") if bot else ""

    def _button_hold(self, _w: Any, held: bool) -> None:
        """The seat's button let go of the tray: it closes, whoever opened it (the release of a hold, as for a
        finger; a tray the turn opened by itself closes too when the seat's highlight leaves it)."""
        if not held and self.latched:
            self.close()
        self._update()

    def _update(self, *_a: Any) -> None:
        self.is_open = not self.locked and (
            self.always_open or self.held_by_button or self.latched or self.n_touches > 0
        )

    # ------------------------------------------------------------------------------------------- commands
    def open(self) -> None:
        """Open and stay open (until a tap on it, :meth:`close` or :attr:`AUTO_CLOSE_S` without a touch)."""
        if self.locked:
            return
        self.latched = True
        self.poke()

    def close(self) -> None:
        """Hide at once, forgetting every finger and button (the table went idle, the turn passed, the game
        ended, a tap)."""
        self._touches.clear()
        self._opened_by = None
        self.n_touches = 0
        self.held_by_button = False
        self.latched = False
        if self._auto_close is not None:
            self._auto_close.cancel()
            self._auto_close = None
        self._update()

    def turn_started(self) -> None:
        """The seat's turn started: the tray opens by itself (see the class docstring); a locked tray (a bot's, an
        idle table) stays closed, a tray with nothing to hide is open anyway."""
        if not self.always_open:
            self.open()

    def toggle(self) -> None:
        """Open a closed tray, close an open one (what a tap on the tray does)."""
        if self.is_open and not self.always_open:
            self.close()
        else:
            self.open()

    def poke(self) -> None:
        """A touch at this seat: an open tray waits :attr:`AUTO_CLOSE_S` seconds more before closing."""
        if self._auto_close is not None:
            self._auto_close.cancel()
            self._auto_close = None
        if self.latched:
            self._auto_close = Clock.schedule_once(self._time_out, self.AUTO_CLOSE_S)

    def _time_out(self, _dt: float) -> None:
        self._auto_close = None
        if self.latched and not self._touches and not self.held_by_button:
            self.close()

    # ------------------------------------------------------------------------------------------- touches
    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        if self.locked:
            return True
        self.poke()
        if self.is_open and not self.always_open and super().on_touch_down(touch):
            self._used = True  # a button inside: the tray stays as it is
            return True
        if self.always_open:
            return bool(super().on_touch_down(touch)) or True
        # a touch on the tray itself (closed, or open but off its buttons): it opens, holds or closes the tray
        if not self.is_open:
            self._opened_by = touch.uid
            self._used = False
        self._touches.add(touch.uid)
        touch.grab(self)
        self.n_touches = len(self._touches)
        touch.ud[self] = clock.now()  # a hold is timed from when the tray shows (opening it may take a while)
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return bool(super().on_touch_up(touch))
        touch.ungrab(self)
        self._touches.discard(touch.uid)
        held = clock.now() - touch.ud.get(self, clock.now()) >= self.HOLD_S
        if touch.uid == self._opened_by:
            self._opened_by = None
            if held or self._used:
                self.close()  # the release of a hold
            else:
                self.open()  # a tap: it stays open
        elif not self._touches and not explained(touch):
            self.close()  # a tap (or hold) on an open tray, off its buttons; not one that opened a card's explanation
        self.n_touches = len(self._touches)
        self.poke()
        return True
