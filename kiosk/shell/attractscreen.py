"""Attract mode's own screen: the "touch to play" call at every seat, and the high-score boards.

The attract *cycle* (bot games of every registered title, then boards, then the call) is driven by
:class:`kiosk.app.KioskApp`; bot games are shown on the game screens themselves with attract sessions. This
screen shows the two other parts:

* ``call``: the operator's attract text in every seat zone, facing that seat, plus the game list in the centre;
* ``boards``: one game's all-time and today's boards, twice: one copy facing each long side (the short sides
  read them sideways, never upside down). Boards unavailable (no storage) say so.

While the bots' games are shown on the game screens, :class:`EdgeCalls` lays "Touch to play" over them in the
four corners of the table (which belong to no seat, so the call covers no piece of the game), each facing one
edge (the seat model's rotation for that edge; the south-west corner faces south, the north-east north, the
north-west west, the south-east east): a passer-by on any side reads that the table is free. Static (no pulse):
a moving call would redraw the whole table every frame.

Languages: the call ("Touch to play!", unless the operator wrote their own) speaks the languages the operator
enabled, a different one at each seat and corner, each changing every ``CALL_LANGUAGE_S`` seconds (Kivy's clock);
the boards, the title and the resume offer speak the table's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
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
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from kiosk.i18n import N_, SOURCE, Translator, font_for, translator
from kiosk.ui.seatzone import SeatZone
from kiosk.ui.speaks import Speaks
from kiosk.ui.words import board_rank

__all__ = [
    "board_text",
    "AttractScreen",
    "BoardView",
    "CallZone",
    "EdgeCall",
    "EdgeCalls",
    "OfferBox",
    "CallLanguages",
    "CALLS",
    "board_rows",
    "offer_question",
]

#: The call as the kiosk ships it (``attract.text``'s default): said in every enabled language. An operator's own
#: text is shown as written.
CALL = N_("Touch to play!")
#: The calls the operator menu offers (its "Next preset"; the first is the default): each said in every enabled
#: language, as :data:`CALL` is.
CALLS = (
    CALL,
    N_("Free games - touch to play!"),
    N_("Sushi games for everyone - touch!"),
    N_("Happy hour: play a game!"),
)
#: Seconds each seat's call stays in one language before the next.
CALL_LANGUAGE_S = 3.0


def board_rows(
    entries: Sequence[Any], n: int = 5, fmt: Callable[[int], str] = str, tr: Translator | None = None
) -> list[str]:
    """Board lines ``"1.  ABC   123"`` (``1位  ABC   123``) for up to ``n`` entries (``ScoreEntry``-like: name,
    score), the place written the way of ``tr``'s language (:func:`kiosk.ui.words.board_rank`)."""
    tr = tr or translator(SOURCE)
    rows = [f"{board_rank(i, tr)}  {e.name:<3}   {fmt(e.score)}" for i, e in enumerate(entries[:n], start=1)]
    return rows or [tr.gettext("(no scores yet)")]


#: a run of Japanese (kana, kanji, full-width forms: :func:`kiosk.ui.typescale.cjk_face`'s ranges)
_CJK_RUN = re.compile("[\u3000-\u9fff\uff00-\uffef]+")


def board_text(rows: Sequence[str], font_size: float) -> str:
    """A board's rows as one markup text for a label in the Latin face at ``font_size``: in a row with a name and a
    score, a Japanese run (the place's 位) is set in the CJK face a step smaller, where an ideograph stands as tall as
    the Latin digits beside it, so the rows keep the Latin face's line pitch (the CJK face's line box is a fifth
    taller: five such rows did not fit the half-centre at 1280x800, and Kivy drops a last line that does not fit).
    A row wholly in words ("(no scores yet)") is in the CJK face at full size."""
    cjk = font_for("ja")
    small = f"[font={cjk}][size={max(1, int(font_size * 0.8))}]\\g<0>[/size][/font]"
    lines = []
    for row in rows:
        text = escape_markup(row)
        if cjk and _CJK_RUN.search(row):
            named = any(ch.isascii() and ch.isalnum() for ch in row)
            text = _CJK_RUN.sub(small, text) if named else f"[font={cjk}]{text}[/font]"
        lines.append(text)
    return "\n".join(lines)


def offer_question(offer: Any, tr: Translator) -> str:
    """The resume offer's question about ``offer`` (``kiosk.storage.UnfinishedGame``) in ``tr``'s language: "Resume
    the Makoto game from 14:05?" (a match's: "... match (game 2 of 3) ...")."""
    when = tr.time(offer.last_activity, "HH:mm") if offer.last_activity else ""
    series = (offer.meta or {}).get("series")  # [game, of]: a match's progress
    if isinstance(series, list) and len(series) == 2 and all(isinstance(x, int) for x in series):
        text = tr.gettext("Resume the {game} match (game {n} of {of}) from {time}?")
        return text.format(game=offer.title, n=tr.number(series[0]), of=tr.number(series[1]), time=when)
    return tr.gettext("Resume the {game} game from {time}?").format(game=offer.title, time=when)


class CallLanguages:
    """The call's languages in turn: place ``i`` (a seat, a corner) reads ``language(i)``, a different enabled
    language at each place, every place one on every :data:`CALL_LANGUAGE_S` seconds (Kivy's clock) while
    ``speaking()``; ``say()`` then shows the calls again."""

    def __init__(
        self,
        say: Callable[[], None],
        speaking: Callable[[], bool],
        languages: Sequence[str] = (SOURCE,),
        text: str = CALL,
    ) -> None:
        self.say, self.speaking = say, speaking
        self.languages = list(languages) or [SOURCE]
        self.text = text
        self.turn = 0
        self._ev = Clock.schedule_interval(self._next, CALL_LANGUAGE_S)

    def restart(self) -> None:
        """The calls from their first languages, each for a whole turn."""
        self._ev.cancel()
        self.turn = 0
        self.say()
        self._ev = Clock.schedule_interval(self._next, CALL_LANGUAGE_S)

    def _next(self, _dt: float) -> None:
        if self.speaking() and len(self.languages) > 1:
            self.turn += 1
            self.say()

    def language(self, i: int) -> str:
        return self.languages[(i + self.turn) % len(self.languages)]

    def call(self, i: int) -> tuple[str, str]:
        """Place ``i``'s call and its language (an operator's own text: as written, in the table's face)."""
        language = self.language(i)
        return (translator(language).gettext(self.text) if self.text in CALLS else self.text), language


class BoardView(Speaks, BoxLayout):
    """One game's boards: all-time and today side by side, and the event's beside them when the table is paired
    with one (``event_title``: the event's name; "" for a lone table, whose view has two columns)."""

    title = StringProperty("")
    alltime = ListProperty([])
    today = ListProperty([])
    note = StringProperty("")
    event_title = StringProperty("")
    event_rows = ListProperty([])


class OfferBox(Speaks, BoxLayout):
    """The resume offer's question and answers, in the table's language (its look: ``layouts/attract.kv``)."""

    screen = ObjectProperty(None, allownone=True)
    text = StringProperty("")


class CallZone(SeatZone):
    """The attract call facing one seat, in the language its turn gives it (its ``tr``, ``face``)."""

    text = StringProperty("")


class EdgeCall(Label):
    """One "Touch to play" facing an edge: drawn turned by ``rotation`` about its centre (its kv rule); its
    ``size`` is as its reader sees it."""

    rotation = NumericProperty(0)
    edge = StringProperty("bottom")
    face = StringProperty("")
    #: the operator's marks in place of the call (the operator's corner only)
    warn = BooleanProperty(False)

    def on_touch_down(self, touch: Any) -> bool:
        return False  # a call takes no touches (the shell's gestures leave attract mode on any touch)


class EdgeCalls(Widget):
    """ "Touch to play" at the middle of every edge of the table, over a bots' game (see the module docstring)."""

    table = ObjectProperty(None)
    text = StringProperty(CALL)
    #: the operator's marks (``layouts/attract.kv`` binds it to the app's): shown by the call in the operator's
    #: corner (south-west, facing the bottom edge, where the attract screen's own mark sits) instead of its call
    mark = StringProperty("")

    def __init__(self, languages: Sequence[str] = (SOURCE,), **kw: Any) -> None:
        super().__init__(**kw)
        self.calls: list[EdgeCall] = []
        self.cycle = CallLanguages(self._say, lambda: self.parent is not None, languages, self.text)
        for edge in ("bottom", "top", "left", "right"):
            rot = self.table.facing_edge_rotation(edge) if self.table is not None else 0
            call = EdgeCall(edge=edge, rotation=rot)
            self.calls.append(call)
            self.add_widget(call)
        self.bind(size=self._layout, pos=self._layout, text=self._say, mark=self._say)
        self._say()

    def set_languages(self, languages: Sequence[str]) -> None:
        self.cycle.languages = list(languages) or [SOURCE]
        self._say()

    def _say(self, *_a: Any) -> None:
        self.cycle.text = self.text
        for i, call in enumerate(self.calls):
            call.text, language = self.cycle.call(i)
            call.face = translator(language).face
            call.warn = bool(self.mark) and call.edge == "bottom"
            if call.warn:
                call.text, call.face = self.mark, ""

    def on_touch_down(self, touch: Any) -> bool:
        return False

    def _layout(self, *_a: Any) -> None:
        # (Kivy's window opens on its first import: not when tools import this module)
        from kivy.core.window import Window

        w, h = Window.size
        if self.table is None:
            return
        # the corners belong to no seat: one call in each, facing one edge, over no seat's pieces
        sw, se, nw, ne = self.table.corners(w, h)
        corner = {"bottom": sw, "right": se, "left": nw, "top": ne}
        for call in self.calls:
            r = corner[call.edge]
            side = r.w * 0.9
            call.size_hint = (None, None)
            call.size = (side, side)
            call.pos = (r.x + (r.w - side) / 2, r.y + (r.h - side) / 2)


class AttractScreen(Speaks, Screen):
    """Dispatches ``on_offer(accept)`` when the resume offer is answered. Speaks the table's language (boards,
    title, offer); the seats' calls take the enabled languages in turn (:meth:`call_languages`)."""

    __events__ = ("on_offer",)
    offer_text = StringProperty("")
    offer_visible = BooleanProperty(False)
    phase = OptionProperty("call", options=["call", "boards"])
    table = ObjectProperty(None)
    text = StringProperty(CALL)
    games_line = StringProperty("")
    board_title = StringProperty("")
    alltime = ListProperty([])
    today = ListProperty([])
    board_note = StringProperty("")
    #: the event's board for the game on show (its name, its best rows), when the table is paired with an event
    event_title = StringProperty("")
    event_rows = ListProperty([])

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.zones: list[CallZone] = []
        self.cycle = CallLanguages(self._say, lambda: self.parent is not None and self.phase == "call")
        if self.table is not None:
            for seat in self.table.seats:
                zone = CallZone(table=self.table, seat=seat)
                self.zones.append(zone)
                self.ids.seat_layer.add_widget(zone)
        self.bind(text=self._say)
        self._say()

    def call_languages(self, languages: Sequence[str], table: str) -> None:
        """The languages the calls take in turn (the operator's enabled ones) and the table's (the centre)."""
        self.cycle.languages = list(languages) or [table]
        self.language = table
        self.cycle.restart()

    def _say(self, *_a: Any) -> None:
        self.cycle.text = self.text
        for i, zone in enumerate(self.zones):
            text, zone.language = self.cycle.call(i)
            zone.text = text

    def show_boards(
        self, title: str, alltime: list[str], today: list[str], note: str = "", event: tuple[str, list[str]] = ("", [])
    ) -> None:
        self.board_title = title
        self.alltime = alltime
        self.today = today
        self.board_note = note
        self.event_title, self.event_rows = event[0], list(event[1])
        self.phase = "boards"

    def show_call(self) -> None:
        self.phase = "call"
        self.cycle.restart()

    # --- the resume offer ("Resume the Makoto game from 14:05?"), facing both long sides ------------------
    def show_offer(self, text: str) -> None:
        self.offer_text = text
        self.offer_visible = True
        self.phase = "call"

    def hide_offer(self) -> None:
        self.offer_visible = False

    def offer_hit(self, x: float, y: float) -> bool:
        """Whether a window point lies on the offer's panels (their buttons take the touch)."""
        return any(p.collide_point(x, y) for p in (self.ids.offer_south, self.ids.offer_north))

    def answer_offer(self, accept: bool) -> None:
        if self.offer_visible:
            self.dispatch("on_offer", accept)

    def on_offer(self, accept: bool) -> None:
        pass
