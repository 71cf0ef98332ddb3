"""Game screens: the plug-in point for per-game screens, and the generic screen every game can be played with.

Rationale and decisions: docs/developer/design.md, section ``kiosk/ui/game.py``.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterator
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
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from kiosk.engine import Action
from kiosk.inputs import SeatEvent
from kiosk.session import GameSession, describe_action, format_value
from kiosk.ui.focus import FocusRing, reading_order, walk_choices
from kiosk.ui.seatzone import CentrePanel, SeatZone, use_players
from kiosk.ui.speaks import Speaks
from kiosk.ui.touchplan import NextIntent, Step, panel_plan
from kiosk.ui.words import fallback_event_text, join_names, points, refusal_text

log = logging.getLogger("kiosk.ui.game")

__all__ = ["ActionPanel", "BaseGameScreen", "GenericGameScreen", "PlayerPanel", "screen_class_for"]

PAGE_SIZE = 6
MAX_CENTRE_LINES = 14


class BaseGameScreen(Speaks, Screen):
    """Base of every game screen (see the module docstring for the plug-in interface).

    It speaks the table's language in the game's words (``tr``: the centre, the logs); each seat's zone speaks
    its seat's (``zone.tr``, set by :meth:`SeatZone.take_seat`)."""

    session = ObjectProperty(None, allownone=True)
    table = ObjectProperty(None)
    hub = ObjectProperty(None, allownone=True)
    title = StringProperty("")
    attract = BooleanProperty(False)
    #: "(replay)" beside the title while a finished game is replayed (:mod:`kiosk.shell.replaycorners`), else "".
    replay_note = StringProperty("")

    def begin(self, session: GameSession) -> None:
        """Take over ``session``: build the seat panels if not yet built, end the previous game, and note the
        title and whether this is attract mode. Subclasses call this first, then bind to the session."""
        self._build_panels()
        if self.session is not None:
            self.end()
        self.focus.reset()
        self.session = session
        self.attract = session.attract
        self.title = session.spec.title
        self.domain, self.language = session.spec.key, session.language
        self.replay_note = self.tr.gettext("(replay)") if getattr(session, "replay", False) else ""
        for w in self.walk(restrict=True):
            if isinstance(w, CentrePanel):
                w.domain, w.language = session.spec.key, session.language
        use_players(self, list(session.seats))  # the centre takes the bands of the edges where nobody plays

    def _build_panels(self, *_a: Any) -> None:
        """Create the per-seat widgets once (they are reused for every game)."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        #: table seat index -> the seat's zone (built by ``_build_panels``).
        self.panels: dict[int, Any] = {}
        #: every seat's button highlight (see :mod:`kiosk.ui.focus`)
        self.focus = FocusRing(self)
        self._focus_layer: Widget | None = None

    def end(self) -> None:
        self.focus.reset()
        self.session = None

    def touch_plan(self, seat_index: int, action: Action, next_intent: NextIntent) -> Iterator[Step]:
        """The touches that make ``action`` at seat ``seat_index`` (:mod:`kiosk.ui.touchplan`): by default the seat
        panel's button for it; a screen with its own gestures (tiles, cards, a grill) says more."""
        return panel_plan(self.panels[seat_index], action)

    def turn_word(self, zone: Any, tr: Any) -> str:
        """What the status of a seat to move says: "Your turn", a bot's "Thinking...", nothing in a replay (nobody
        thinks nor is asked; the centre says whose turn it is)."""
        if self.replay_note:
            return ""
        return str(tr.gettext("Thinking...") if zone.is_bot else tr.gettext("Your turn"))

    def seat_event(self, event: SeatEvent) -> None:
        """Seat buttons move and use the seat's highlight (:class:`~kiosk.ui.focus.FocusRing`)."""
        self.focus.handle(event)

    def hide_private(self) -> None:
        self.focus.reset()

    # ------------------------------------------------------------------------------------------- buttons
    def focus_playing(self, seat: int) -> bool:
        """Whether table seat ``seat`` has a human in this game (bots and attract mode take no buttons)."""
        zone = self.panels.get(seat)
        return self.session is not None and not self.attract and zone is not None and zone.in_game and not zone.is_bot

    def focus_zone(self, seat: int) -> Any:
        return self.panels.get(seat)

    def focus_tray(self, seat: int) -> Any:
        """The seat's private tray (opened while the highlight is inside it), or None."""
        zone = self.panels.get(seat)
        return zone.ids.get("tray") if zone is not None else None

    def focus_targets(self, seat: int) -> list[Widget]:
        """The seat's choices in the order its highlight visits them (see the module docstring)."""
        zone = self.panels.get(seat)
        if zone is None:
            return []
        return reading_order(zone, walk_choices(zone))

    def focus_back(self, seat: int) -> bool:
        """ "hold b": undo the screen's current step at ``seat``; False when there is none (the highlight hides)."""
        return False

    def focus_next(self, seat: int, gone: Any, targets: list[Any]) -> Any:
        """Where the highlight goes when ``gone`` is no longer a choice: the first choice."""
        return targets[0]

    def focus_layer(self) -> Widget:
        """A layer over everything on the screen, for the highlights and legends."""
        if self._focus_layer is None:
            self._focus_layer = Widget(size_hint=(None, None), size=(0, 0))
        if self._focus_layer.parent is None:
            self.add_widget(self._focus_layer)
        elif self.children[0] is not self._focus_layer:  # something was added since: stay on top
            self.remove_widget(self._focus_layer)
            self.add_widget(self._focus_layer)
        return self._focus_layer

    def seat_to_bot(self, game_seat: int) -> None:
        """A bot took over ``game_seat`` (its human left): the zone shows the bot, the tray closes and locks."""
        session = self.session
        if session is None:
            return
        zone = self.panels.get(session.seats[game_seat].index)
        if zone is not None:
            zone.take_seat(session, game_seat)
            tray = zone.ids.get("tray")
            if tray is not None:
                tray.close()
                tray.locked = True
        redraw = getattr(self, "_redraw", None)
        if redraw is not None:
            redraw()


def screen_class_for(key: str) -> type[BaseGameScreen]:
    """The game's own screen class (``kiosk.games.<key>.screen.GameScreen``) or the generic one."""
    try:
        module = importlib.import_module(f"kiosk.games.{key}.screen")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(f"kiosk.games.{key}"):
            return GenericGameScreen
        raise
    cls = getattr(module, "GameScreen", None)
    if isinstance(cls, type) and issubclass(cls, Screen):
        return cls
    log.warning("kiosk.games.%s.screen has no GameScreen class: using the generic screen", key)
    return GenericGameScreen


class ActionPanel(SeatZone):
    """One seat's panel with its legal actions paged as buttons (no look of its own: subclasses have kv rules).

    ``describe`` names an action on its button (default :func:`describe_action`)."""

    status = StringProperty("")  # "Your turn" / "" / result
    score = StringProperty("")
    private_text = StringProperty("")
    my_turn = BooleanProperty(False)
    page = NumericProperty(0)
    pages = NumericProperty(1)
    #: Buttons per page (a panel that sizes its buttons to its room sets it; the generic panel has six).
    page_size = NumericProperty(PAGE_SIZE)
    labels = ListProperty([""] * PAGE_SIZE)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.actions: list[Action] = []
        self.screen: GenericGameScreen | None = None
        #: an action's button label in the seat's language (the game's catalog may name its actions)
        self.describe: Callable[[Action], str] = lambda a: describe_action(a, self.tr)

    def set_actions(self, actions: list[Action]) -> None:
        self.actions = actions
        self._paginate()

    def _paginate(self) -> None:
        size = max(1, int(self.page_size))
        self.pages = max(1, -(-len(self.actions) // size))
        if self.page >= self.pages:
            self.page = 0
        self._fill()

    def on_page(self, *_a: Any) -> None:
        self._fill()

    def on_page_size(self, *_a: Any) -> None:
        self._paginate()

    def _fill(self) -> None:
        size = max(1, int(self.page_size))
        start = self.page * size
        shown = self.actions[start : start + size]
        self.labels = [self.describe(a) for a in shown] + [""] * (size - len(shown))
        for slot in range(size):  # each button carries the action it plays (what the touch plan looks for)
            button = self.ids.get(f"slot{slot}")
            if button is not None:
                button.action = shown[slot] if slot < len(shown) else None

    def page_of(self, action: Action) -> int | None:
        """The page whose buttons offer ``action`` (None: no page)."""
        if action not in self.actions:
            return None
        return self.actions.index(action) // max(1, int(self.page_size))

    def turn_page(self, step: int) -> None:
        self.page = (self.page + step) % self.pages

    def press(self, slot: int) -> None:
        """A human pressed action button ``slot`` of the current page."""
        i = self.page * max(1, int(self.page_size)) + slot
        if self.screen is None or self.game_seat is None or i >= len(self.actions):
            return
        self.screen.human_action(self.game_seat, self.actions[i])


class PlayerPanel(ActionPanel):
    """One seat's side of the generic game screen: badge, status, private tray with hand and actions
    (its look: the ``<PlayerPanel>`` rule in ``layouts/game.kv``)."""


class GenericGameScreen(BaseGameScreen):
    """Any game through the contract alone (see the module docstring)."""

    centre_text = StringProperty("")
    turn_text = StringProperty("")
    last_text = StringProperty("")
    facing = OptionProperty("bottom", options=["bottom", "right", "top", "left"])
    #: The centre turns to face the seat whose turn it is (a screen whose centre reads from every side says no).
    turns_to_mover = True

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.panels: dict[int, PlayerPanel] = {}
        self._redraw = Clock.create_trigger(self._draw, -1)
        Clock.schedule_once(self._build_panels, -1)

    def _build_panels(self, *_a: Any) -> None:
        if self.panels or self.table is None:
            return
        for seat in self.table.seats:
            panel = PlayerPanel(table=self.table, seat=seat)
            panel.screen = self
            self.panels[seat.index] = panel
            self.ids.seat_layer.add_widget(panel)
            panel.sync_shown()

    # ------------------------------------------------------------------------------------------- lifecycle
    def begin(self, session: GameSession) -> None:
        super().begin(session)
        session.bind(on_change=self._on_change, on_error=self._on_error, on_over=self._on_change)
        for panel in self.panels.values():
            panel.leave_seat()
            panel.page = 0
            panel.error = ""
            panel.ids.tray.close()
        for g, seat in enumerate(session.seats):
            panel = self.panels[seat.index]
            panel.take_seat(session, g)
            panel.ids.tray.locked = panel.is_bot
        self._draw()

    def end(self) -> None:
        if self.session is not None:
            self.session.unbind(on_change=self._on_change, on_error=self._on_error, on_over=self._on_change)
        for panel in self.panels.values():
            panel.ids.tray.close()
        super().end()

    def hide_private(self) -> None:
        super().hide_private()
        for panel in self.panels.values():
            panel.ids.tray.close()

    # ------------------------------------------------------------------------------------------- actions
    def human_action(self, game_seat: int, action: Action) -> None:
        if self.session is None or self.session.is_bot(game_seat) or self.attract:
            return
        self.session.apply(game_seat, action)

    def _on_change(self, *_a: Any) -> None:
        self._redraw()

    def _on_error(self, _session: Any, game_seat: int, error: Exception) -> None:
        if self.session is None or game_seat >= len(self.session.seats):
            return
        panel = self.panels[self.session.seats[game_seat].index]
        panel.show_error(refusal_text(error, panel.tr))

    # ------------------------------------------------------------------------------------------- drawing
    def _draw(self, *_a: Any) -> None:
        session = self.session
        if session is None:
            return
        state = session.state
        public = state.view(None)
        over = state.is_over()
        movers = [] if over else state.to_move()
        try:
            scores = state.scores()
        except Exception:
            scores = []
        tr = self.tr  # the centre: the table's language
        for g, seat in enumerate(session.seats):
            panel = self.panels[seat.index]
            ptr = panel.tr  # a seat's panel: its seat's
            mine = state.view(g)
            private = {k: v for k, v in mine.items() if public.get(k) != v and k != "seat"}
            panel.private_text = "\n".join(f"{k}: {format_value(v, ptr)}" for k, v in private.items()) or ptr.gettext(
                "Nothing hidden in this game"
            )
            panel.ids.tray.always_open = not private and not panel.is_bot
            panel.my_turn = g in movers
            panel.status = self.turn_word(panel, ptr) if g in movers else ""
            panel.score = points(scores[g], ptr) if g < len(scores) else ""
            panel.set_actions(state.legal_actions(g) if (g in movers and not panel.is_bot) else [])

        def who(g: int | None) -> str:
            seat = session.seats[g] if isinstance(g, int) and g < len(session.seats) else None
            return f"{seat.symbol} {tr.seat_name(seat.name)}" if seat is not None else ""

        if movers:
            if self.turns_to_mover:
                self.facing = session.seats[movers[0]].edge
            self.turn_text = tr.gettext("Turn: {names}").format(names=join_names([who(g) for g in movers], tr))
        else:
            self.turn_text = tr.gettext("Game over") if over else ""
        lines = [f"{k}: {format_value(v, tr)}" for k, v in public.items()]
        if len(lines) > MAX_CENTRE_LINES:
            more = len(lines) - MAX_CENTRE_LINES + 1
            lines = lines[: MAX_CENTRE_LINES - 1] + [tr.gettext("... {n} more").format(n=tr.number(more))]
        self.centre_text = "\n".join(line if len(line) <= 90 else line[:87] + "..." for line in lines)
        self.last_text = "\n".join(fallback_event_text(ev, who, tr) for ev in session.last_events[-3:])
