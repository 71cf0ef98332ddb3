"""Two choices on one button, and the board screen's seat panel that shows them: :class:`Then` (serve, then
draw), :class:`ThenGroup` (a line naming the first half over one button per second half) and :class:`BoardPanel`
(a seat's paged buttons, hand tiles and prompt; its look is ``<BoardPanel>`` in ``kiosk/board/board.kv``)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from kiosk.engine import Action
from kiosk.ui.game import ActionPanel


@dataclass(frozen=True)
class Then(Action):
    """One button for two of the seat's own choices: ``first`` now, then ``then`` (Maki: ``Then(Serve(4), Draw(3))``,
    "Serve Maguro N., then Draw 3"). Never applied to an engine: the board screen applies ``first``, then ``then``
    as soon as the engine offers it in the same turn (see :meth:`BoardScreen.human_action`)."""

    first: Action
    then: Action

    def to_json(self) -> dict[str, Any]:
        return {"type": "Then", "first": self.first.to_json(), "then": self.then.to_json()}


class ThenGroup(BoxLayout):
    """One entry of a seat's buttons: the :class:`Then` choices sharing their first half, as a line naming it and
    the words the second halves share ("Serve Maguro N., then Draw:") over one button per second half ("2", "3"...;
    "Serve Maguro N., then:" over "End Turn"). Its buttons carry their choice in ``action``, like the panel's other
    buttons."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(orientation="vertical", **kw)
        from kivy.uix.label import Label

        self.header = Label(size_hint_y=None, halign="left", valign="middle", bold=True)
        self.header.bind(
            width=lambda w, width: setattr(w, "text_size", (width, None)),
            texture_size=lambda w, ts: setattr(w, "height", max(w.font_size * 1.35, ts[1])),
        )
        self.row = BoxLayout(orientation="horizontal")
        self.add_widget(self.header)
        self.add_widget(self.row)
        self.buttons: list[Any] = []

    def show(
        self,
        header: str,
        items: Sequence[tuple[str, Action]],
        press: Callable[[Action], None],
        u: float,
        font: float,
        face: str = "",
    ) -> None:
        """``header`` over one button per (label, choice) of ``items``; ``u`` the window's unit, ``font`` the
        header's size (the buttons' own comes from their kv rule); ``face``: the seat's language's (CJK)."""
        from kivy.factory import Factory

        self.spacing, self.row.spacing = 2 * u, 4 * u
        self.header.font_size = font
        self.header.text = header
        _set_face(self.header, face)
        while len(self.buttons) < len(items):
            button = Factory.KioskButton()
            button.bind(on_release=lambda b: press(b.action))
            self.buttons.append(button)
            self.row.add_widget(button)
        while len(self.buttons) > len(items):
            self.row.remove_widget(self.buttons.pop())
        for button, (label, action) in zip(self.buttons, items):
            button.text, button.action = label, action
            _set_face(button, face)


def _set_face(w: Any, face: str) -> None:
    """``w``'s text in ``face`` (a seat reading Japanese: the CJK face), else in its own (kept the first time)."""
    own = getattr(w, "_own_face", None)
    if own is None:
        own = w._own_face = w.font_name
    w.font_name = face or own


def shared_words(labels: Sequence[str]) -> tuple[str, list[str]]:
    """The leading words every label shares (when each has more after them), and what is left of each:
    ``["Draw 2", "Draw 3"]`` -> ``("Draw", ["2", "3"])``; ``["End Turn"]`` -> ``("", ["End Turn"])``."""
    split = [label.split() for label in labels]
    n = 0
    while split and all(len(w) > n + 1 and w[n] == split[0][n] for w in split):
        n += 1
    return " ".join(split[0][:n]) if n else "", [" ".join(w[n:]) for w in split]


class BoardPanel(ActionPanel):
    """One seat's side of a board screen: the generic panel's behaviour (:class:`~kiosk.ui.game.ActionPanel`)
    with its own look (``<BoardPanel>`` in ``kiosk/board/board.kv``): the hand tiles (``ids.hand``), the seat's
    private lines and the action buttons in the tray, buttons naming squares (``B3``) instead of numbers, and
    ``prompt`` (what to do now, in words) at the top of the tray, shown whether the tray is open or not (so it
    never names anything private).

    The buttons are paged *entries*: one button per action, and one :class:`ThenGroup` per run of :class:`Then`
    choices sharing their first half (a page holding a group has one column, each entry as tall as a group).
    Every button widget carries its choice in ``action``; :meth:`page_of` says on which page a choice is."""

    prompt = StringProperty("")
    #: The page shown holds a :class:`ThenGroup`: the buttons take more of the tray (a group's row of second
    #: halves, up to four decks, must keep each button a touch target wide at a short edge).
    group_shown = BooleanProperty(False)
    #: The tray holds tiles to choose (``ids.hand`` has children): the kv rule gives them a row.
    has_tiles = BooleanProperty(False)
    #: Columns of action buttons: two where two fit side by side, else one.
    button_cols = NumericProperty(2)
    #: A button's least height and width (times ``app.u``): a touch target at every size. A button is wider than
    #: ``BUTTON_W`` only when its label needs it (``Draw 3`` does not; a recipe's name may wrap onto two lines).
    BUTTON_H = 66
    BUTTON_W = 120
    #: A :class:`ThenGroup`'s least height (times ``app.u``): its line and a row of buttons a touch target high.
    GROUP_H = 96
    #: The font size (times ``app.u``) ``on_labels`` asks for its buttons (their kv rule may set its own).
    BUTTON_FONT = 19

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        #: per page, its entries (each a list: one action, or a group's Then choices); the page shown's entries
        self._pages: list[list[list[Action]]] = []
        self._shown: list[list[Action]] = []
        self._buttons: list[Any] = []
        self._groups: dict[int, ThenGroup] = {}
        #: (rows, columns, group rows) of the room: without the page arrows' row, and with it
        self._room: tuple[tuple[int, int, int], tuple[int, int, int]] = ((1, 1, 1), (1, 1, 1))
        Clock.schedule_once(self._watch_room, 0)

    def _watch_room(self, *_a: Any) -> None:
        box = self.ids.get("button_box")
        if box is not None:
            box.bind(size=self._fit_page)
        self.on_labels()

    def _unit(self) -> float:
        from kivy.app import App

        return float(getattr(App.get_running_app(), "u", 1.0) or 1.0)

    def _entries(self) -> list[list[Action]]:
        """The actions as entries: a run of :class:`Then` sharing their first half is one, any other action one."""
        out: list[list[Action]] = []
        for a in self.actions:
            last = out[-1][0] if out else None
            if isinstance(a, Then) and isinstance(last, Then) and last.first == a.first:
                out[-1].append(a)
            else:
                out.append([a])
        return out

    def _columns(self, width: float, u: float) -> int:
        """How many columns of buttons fit ``width``: up to four, each at least ``BUTTON_W`` wide and wide enough
        for every label of the step (wrapped at words onto at most two lines). More columns, fewer pages: a
        page arrow is a touch that decides nothing."""
        from kiosk.ui.seatzone import _fits

        gap = 4 * u
        sample = self._buttons[0] if self._buttons else None  # the buttons' own font (their kv rule's)
        font = sample.font_name if sample is not None else "Roboto"
        size = float(sample.font_size) if sample is not None else 26 * u
        labels = [self.describe(a) for a in self.actions if not isinstance(a, Then)]
        for cols in (4, 3, 2):
            w = (width - gap * (cols - 1)) / cols
            if w >= self.BUTTON_W * u and all(
                _fits(t, w - 16 * u, self.BUTTON_H * u - 8 * u, size, font) for t in labels
            ):
                return cols
        return 1

    def _fit_page(self, *_a: Any) -> None:
        """As many entries per page as fit the room at a touch target's size (a row for the page arrows when
        they are needed): never a squeezed button, and as many columns as the step's labels allow."""
        box = self.ids.get("button_box")
        if box is None or box.width <= 1 or box.height <= 1:
            return
        u = self._unit()
        gap = 4 * u
        cols = self._columns(box.width, u)

        def room(height: float) -> tuple[int, int, int]:
            rows = max(1, int((height + gap) // (self.BUTTON_H * u + gap)))
            return rows, cols, max(1, int((height + gap) // (self.GROUP_H * u + gap)))

        self._room = (room(box.height), room(box.height - 62 * u - gap))
        self._paginate()

    def _capacity(self, room: tuple[int, int, int], group: bool) -> int:
        rows, cols, group_rows = room
        return group_rows if group else rows * cols

    def _page_entries(self, room: tuple[int, int, int]) -> list[list[list[Action]]]:
        pages: list[list[list[Action]]] = []
        page: list[list[Action]] = []
        for entry in self._entries():
            group = any(isinstance(e[0], Then) for e in page + [entry])
            if page and len(page) + 1 > self._capacity(room, group):
                pages.append(page)
                page = []
            page.append(entry)
        return pages + [page] if page or not pages else pages

    def _paginate(self) -> None:
        pages = self._page_entries(self._room[0])
        if len(pages) > 1:
            pages = self._page_entries(self._room[1])
        self._pages = pages
        self.pages = len(pages)
        if self.page >= self.pages:
            self.page = 0
        self._fill()

    def _fill(self) -> None:
        pages = getattr(self, "_pages", None)
        if pages is None:  # the generic panel's set-up, before this one's
            return
        page = pages[int(self.page)] if int(self.page) < len(pages) else []
        group = any(isinstance(e[0], Then) for e in page)
        self.group_shown = group
        room = self._room[1 if len(pages) > 1 else 0]
        self.button_cols = 1 if group else room[1]
        self._shown = page
        labels = [self._label(e) for e in page]
        labels += [""] * (max(len(page), self._capacity(room, group)) - len(page))
        if labels == list(self.labels):
            self.on_labels()  # the same words, maybe other choices under them
        else:
            self.labels = labels

    def _label(self, entry: list[Action]) -> str:
        first = entry[0]
        if isinstance(first, Then):  # "Serve Maguro N., then Draw:" over "2", "3"...; "..., then:" over "End Turn"
            shared, _rest = shared_words([self.describe(t.then) for t in entry if isinstance(t, Then)])
            now = self.describe(first.first)
            if shared:
                return self.tr.gettext("{first}, then {next}:").format(first=now, next=shared)
            return self.tr.gettext("{first}, then:").format(first=now)
        return self.describe(first)

    def page_of(self, action: Action) -> int | None:
        """The page whose buttons offer ``action`` (None: no page)."""
        for i, page in enumerate(self._pages):
            if any(action in entry for entry in page):
                return i
        return None

    def hand_height(self, width: float, n: int) -> float:
        """The height of ``n`` tray tiles (``TileChoice``: 62 x 62 units, 6 apart) in rows across ``width``."""
        u = self._unit()
        tile, gap = 62 * u, 6 * u
        per_row = max(1, int((width + gap) // (tile + gap)))
        rows = math.ceil(n / per_row) if n else 0
        return max(0.0, rows * (tile + gap) - gap)

    def hand_visible(self) -> bool:
        """The seat's own things are on screen: its tray open and the column of its tiles and shelf (``ids.hand``,
        ``ids.shelf``) drawn with room."""
        shelf = self.ids.get("shelf")
        if shelf is None or not self.ids.tray.is_open or shelf.get_root_window() is None:
            return False
        w: Any = shelf
        while w is not None and w is not self:
            if w.opacity <= 0:
                return False
            w = w.parent
        column = shelf.parent  # the hand's tiles and the shelf (the tiles may take all of its room)
        return bool(column is not None and column.width > 1 and column.height > 1)

    def set_actions(self, actions: list[Action]) -> None:
        self.actions = actions
        self._fit_page()
        self._paginate()

    def press(self, slot: int) -> None:
        """A human pressed the plain button of entry ``slot`` of the page shown."""
        if slot < len(self._shown):
            self.press_action(self._shown[slot][0])

    def press_action(self, action: Action) -> None:
        if self.screen is not None and self.game_seat is not None and action in self.actions:
            self.screen.human_action(self.game_seat, action)

    def on_labels(self, *_a: Any) -> None:
        """The entries' widgets follow ``labels`` (one per slot of the page; an empty label hides its button)."""
        grid = self.ids.get("buttons")
        if grid is None or not hasattr(self, "_groups"):
            return
        from kivy.factory import Factory

        u = self._unit()
        wanted = []
        for slot, label in enumerate(self.labels):
            entry = self._shown[slot] if slot < len(self._shown) else []
            if entry and isinstance(entry[0], Then):
                group = self._groups.get(slot)
                if group is None:
                    group = self._groups[slot] = ThenGroup()
                pairs = [t for t in entry if isinstance(t, Then)]
                _shared, rest = shared_words([self.describe(t.then) for t in pairs])
                group.show(label, list(zip(rest, pairs)), self.press_action, u, u * self.BUTTON_FONT, self.face)
                wanted.append(group)
                continue
            while len(self._buttons) <= slot:
                n = len(self._buttons)
                button = Factory.KioskButton(font_size=u * self.BUTTON_FONT)
                button.bind(on_release=lambda _b, i=n: self.press(i))
                self._buttons.append(button)
            button = self._buttons[slot]
            button.text = label
            _set_face(button, self.face)
            button.action = entry[0] if entry else None
            button.opacity = 1 if label else 0
            button.disabled = not label
            wanted.append(button)
        if list(reversed(grid.children)) != wanted:
            grid.clear_widgets()
            for w in wanted:
                grid.add_widget(w)
        box = self.ids.get("button_box")
        if box is not None and not (self.labels and self.labels[0]):
            # no buttons this step: the box takes no room (its hint is gone, its last laid-out width would stay
            # and squeeze the tray's tiles and cards beside an empty box); while the tray is only closed it keeps
            # that width, so its page size stays the open tray's
            box.width = 0
