"""Takoyaki on the table: every seat's grill facing its player, gestures turned into engine actions.

The screen holds no rules: it turns gestures into :class:`Push`, :class:`Turn`, :class:`Claim` and
:class:`Fault` actions for :meth:`kiosk.session.GameSession.apply`, and draws ``state.view(seat)``. Each seat's
panel is a :class:`~kiosk.ui.seatzone.SeatZone` (the seat model places and turns it), so every grill, order card,
claim pad and message faces its own player and touches arrive in the grill's own coordinates (row 0 the far row,
column 0 the player's left), which are the engine's space numbers.

Rationale and decisions: docs/developer/design.md, section ``kiosk/games/takoyaki/screen.py``.
"""

from __future__ import annotations

import logging
import math
from functools import partial
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty

from kiosk import clock
from kiosk.engine import Action
from kiosk.games.takoyaki import rules
from kiosk.games.takoyaki.actions import Claim, Push, Turn
from kiosk.games.takoyaki.grill import COLS, ROWS, SPACES, colour_of, parse_grill, parse_order
from kiosk.games.takoyaki.grillview import (
    DIRECTIONS,
    BallWidget,
    GrillWidget,
    MoveMark,
    OrderCard,
)
from kiosk.games.takoyaki.pieces import TakoOrderCard
from kiosk.games.takoyaki.rules import TakoyakiState
from kiosk.games.takoyaki.solver import solve
from kiosk.games.takoyaki.touches import takoyaki_plan
from kiosk.games.takoyaki.views import TakoyakiView
from kiosk.games.takoyaki.words import (
    MATCHED_HINT,
    PUSH_HINT,
    TURN_HINT,
    band_text,
    out_reason,
    race_time,
    rule_error_text,
)
from kiosk.i18n import Translator, translator
from kiosk.inputs import SeatEvent
from kiosk.session import GameSession
from kiosk.ui import load_kv
from kiosk.ui.focus import reading_order
from kiosk.ui.game import BaseGameScreen
from kiosk.ui.seatzone import SeatZone

log = logging.getLogger("kiosk.games.takoyaki.screen")

__all__ = [
    "GameScreen",
    "TakoyakiScreen",
    "TakoPanel",
    "PanelLayout",
    "panel_layout",
    "GrillWidget",
    "BallWidget",
    "MoveMark",
    "OrderCard",
    "hint_text",
]

PARKED_DELAY = 1e9  # the session's own bot scheduler is parked at this delay while the screen paces bots


def direction_of(src: int, dst: int) -> str:
    """The direction of a push from ``src`` to its neighbour ``dst`` (as the seat sees its grill)."""
    return next(d for d, step in DIRECTIONS.items() if src + step == dst)


def hint_text(grill: Any, order: Any, tr: Translator | None = None) -> tuple[str, Action | None]:
    """What the solver says to do now, in words (``tr``: the seat's language; English without), and its first
    move (None when the grill meets the order)."""
    tr = tr or translator("en", "takoyaki")
    moves = solve(grill, order).moves
    if not moves:
        return tr.gettext(MATCHED_HINT), None
    move = moves[0]
    if isinstance(move, Push):
        return tr.gettext(PUSH_HINT[colour_of(grill[move.src]), direction_of(move.src, move.dst)]), move
    return tr.gettext(TURN_HINT[colour_of(grill[move.space])]), move


Rect = tuple[float, float, float, float]


class PanelLayout:
    """Where the parts of a seat's panel go (x, y, width, height in the panel's own frame, the player's edge at
    the bottom), made by :func:`panel_layout`. ``wide``: the long-edge layout, the grill the zone's whole depth."""

    __slots__ = ("wide", "card", "grill", "words", "badge", "pad", "cell")

    def __init__(self, wide: bool, card: Rect, grill: Rect, words: Rect, badge: Rect, pad: Rect, cell: float):
        self.wide, self.card, self.grill, self.words, self.badge, self.pad = wide, card, grill, words, badge, pad
        self.cell = cell  #: a grill space's side


#: The words' narrowest column beside the order card in the wide layout (in ``app.u``): the longest message
#: ("You are out of this order (ball picked up): wait for the next card") and "Orders 4/5" with four stars over
#: hint mode's longest line with the clock fit in it at the card's height.
WIDE_WORDS_U = 150.0
#: The wide layout is taken when its grill spaces are this much larger than the two rows' (else the two rows).
WIDE_GAIN = 1.1


def panel_layout(width: float, height: float, u: float, text_px: float) -> PanelLayout:
    """The panel's layout for a zone ``width`` x ``height`` (decisions in :class:`TakoPanel`). ``u`` is the
    app's unit, ``text_px`` the type scale's minimum (the order card's header grows with it)."""
    x0, y0 = u * 8, u * 9  # padding: the seat's colour bar runs along the player's edge (a little more room there)
    w, h = max(0.0, width - u * 16), max(0.0, height - u * 13)
    gap_row, gap_top, gap_near = u * 4, u * 8, u * 6
    near_h = u * 72
    top_h = max(0.0, h - near_h - gap_row)
    top_y = y0 + near_h + gap_row
    head = max(text_px * 1.45, top_h * 0.12)  # as TakoOrderCard's own ``head``
    card_w = min(TakoOrderCard.card_width(top_h, head), (w - gap_top) * 0.47)
    card = (x0, top_y, card_w, top_h)
    # two rows: card and grill far from the player, badge, words and pad near
    grill_w = max(0.0, min(top_h * 4 / 3, w - card_w - gap_top * 2))
    cell_rows = min(grill_w / COLS, top_h / ROWS)
    # wide: the grill takes the whole depth at the right; the words beside the card, badge and pad under them
    badge_min, pad_min = u * 146, u * 128  # the badge: a Japanese "プレイヤー" whole at 1280x800
    left_w = max(card_w + gap_top + u * WIDE_WORDS_U, badge_min + pad_min + gap_near)
    cell_wide = max(0.0, min((w - left_w - gap_top) / COLS, h / ROWS))
    if cell_wide < cell_rows * WIDE_GAIN:
        badge_w, pad_w = max(badge_min, w * 0.22), max(pad_min, w * 0.2)
        return PanelLayout(
            False,
            card,
            (x0 + w - grill_w, top_y, grill_w, top_h),
            (x0 + badge_w + gap_near, y0, max(0.0, w - badge_w - pad_w - gap_near * 2), near_h),
            (x0, y0, badge_w, near_h),
            (x0 + w - pad_w, y0, pad_w, near_h),
            cell_rows,
        )
    gw, gh = cell_wide * COLS, cell_wide * ROWS
    left_w = w - gap_top - gw  # the spare width goes to the words
    badge_w = max(badge_min, left_w - pad_min - gap_near - u * 60)
    return PanelLayout(
        True,
        card,
        (x0 + w - gw, y0 + (h - gh) / 2, gw, gh),
        (x0 + card_w + gap_top, top_y, left_w - card_w - gap_top, top_h),
        (x0, y0, badge_w, near_h),
        (x0 + left_w - pad_min, y0, pad_min, near_h),
        cell_wide,
    )


class TakoPanel(SeatZone):
    """One seat's side: badge, orders won, its copy of the order card, its grill and its claim pad.

    Layout (:func:`panel_layout`, placed by ``screen.kv``; decisions): sized from the zone the seat model gives
    it (the panel computes no geometry of the table), in one of two arrangements.

    * **Two rows** (a short edge, or any zone too narrow for the wide one): the far row holds the order card and
      the grill side by side, each as tall as the row: the grill's spaces are square and at the default zone
      depth (a quarter of the short side) at least a touch target (about 60 x 60 px at 1920x1080, 45 x 45 at
      1280x800), and the order card's spaces (about 52 and 38 px) hold balls big enough for their letters at the
      type scale's minimum. The near row, by the player's edge, holds the badge (a touch target: it opens the
      seat's menu), the words and the claim pad (at least a touch target, its "TAKOYAKI!" never broken).
    * **Wide** (a long edge wide enough, e.g. 690 x 270 px at 1920x1080): the grill takes the zone's whole depth
      at the right, so its spaces grow by the room that was a gap between card and grill (75 px at 1920x1080
      instead of 60); the order card keeps its place and size at the far left, the words take a column beside it
      (at least ``WIDE_WORDS_U``), and the badge and the claim pad stay at the player's edge under them, the pad
      beside the grill. Taken only when it makes the spaces ``WIDE_GAIN`` times larger: at 1280x800 a long edge
      (440 x 200 px) is too narrow for it (the words would get a column of a few letters), and keeps two rows.

    The words are "Orders n/5" with a star per order won, then the status (hint mode's next move while racing,
    and the time trial's clock); a message (an order won, nobody made it, a refused move) takes the whole column
    (up to three lines in two rows) for its few seconds."""

    orders_text = StringProperty("")
    status = StringProperty("")
    out_text = StringProperty("")
    message = StringProperty("")
    countdown = StringProperty("")
    clock_text = StringProperty("")
    order_cells = ListProperty([0] * SPACES)
    order_shown = BooleanProperty(False)
    #: the order card's explanation (its card as the engine writes it; the balls' while none shows)
    order_card = StringProperty("ball")
    grill_cells = ListProperty([0] * SPACES)
    racing = BooleanProperty(False)
    #: Hint mode's line of what to do now (from the solver), shown instead of the status while racing.
    prompt = StringProperty("")
    screen = ObjectProperty(None, allownone=True)
    #: Where the parts go (:func:`panel_layout`), from the zone's size, the app's unit and the type scale
    #: (``rebind``: the kv rules read ``root.layout.card`` and must follow a new layout).
    layout = ObjectProperty(panel_layout(540, 270, 1.0, 18.0), rebind=True)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._clear_ev: Any = None

    @staticmethod
    def make_layout(width: float, height: float, u: float, text_px: float) -> PanelLayout:
        """:func:`panel_layout` (kv calls it with what the layout depends on, so it follows each of them)."""
        return panel_layout(width, height, u, text_px)

    def gesture(self, action: Action) -> bool:
        """Hand a gesture's action to the screen; True when the engine took it."""
        if self.screen is not None and self.game_seat is not None:
            return bool(self.screen.human_action(self.game_seat, action))
        return False

    def claim(self) -> None:
        self.gesture(Claim())

    def show_message(self, text: str, seconds: float = 4.0) -> None:
        self.message = text
        if self._clear_ev is not None:
            self._clear_ev.cancel()
        self._clear_ev = Clock.schedule_once(self._clear, seconds)

    def _clear(self, _dt: float) -> None:
        self.message = ""


class TakoyakiScreen(BaseGameScreen):
    """The Takoyaki screen (see the module docstring). Built once by the shell; ``begin`` for every game."""

    COUNTDOWN_S = rules.COUNTDOWN_S
    BETWEEN_S = rules.BETWEEN_S

    title = StringProperty("Takoyaki")
    centre_text = StringProperty("")
    countdown = StringProperty("")
    clock_text = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        load_kv(Path(__file__).with_suffix(".kv"))  # its looks, next to it (once per process)
        super().__init__(**kw)
        self.panels: dict[int, TakoPanel] = {}
        self.order_times: list[tuple[int, float]] = []
        self.trial_time: float | None = None
        self.revealed_at: float | None = None
        self.started_at: float | None = None
        self._bot_events: dict[int, Any] = {}
        self._countdown_ev: Any = None
        self._countdown_end = 0.0
        self._tick_ev: Any = None
        self._saved_delay: float | None = None
        self._redraw = Clock.create_trigger(self._draw, -1)
        Clock.schedule_once(self._build_panels, -1)

    def _build_panels(self, *_a: Any) -> None:
        if self.panels or self.table is None:
            return
        for seat in self.table.seats:
            panel = TakoPanel(table=self.table, seat=seat, screen=self)
            panel.bind(hints=self._hints_switched)
            self.panels[seat.index] = panel

    def _hints_switched(self, *_a: Any) -> None:
        self._redraw()

    def _show_panels(self, indices: set[int]) -> None:
        """Only the seats in the game are in the widget tree (a hidden widget still costs drawing)."""
        layer = self.ids.seat_layer
        for index, panel in self.panels.items():
            if index in indices and panel.parent is None:
                layer.add_widget(panel)
            elif index not in indices and panel.parent is not None:
                layer.remove_widget(panel)

    # ------------------------------------------------------------------------------------------- lifecycle
    #: the touches of an action at a seat (:mod:`kiosk.ui.touchplan`): the grill's gestures and the claim pad
    def touch_plan(self, seat_index: int, action: Action, next_intent: Any) -> Any:
        return takoyaki_plan(self, seat_index, action, next_intent)

    def begin(self, session: GameSession) -> None:
        super().begin(session)
        session.bind(on_change=self._on_change, on_error=self._on_error, on_over=self._on_over)
        self._saved_delay = session.move_delay
        session.move_delay = PARKED_DELAY  # this screen paces the bots (each at its own speed)
        self.order_times = []
        self.trial_time = None
        self.started_at = None
        self.revealed_at = None
        session.order_times = self.order_times
        session.trial_time = None
        for panel in self.panels.values():
            panel.leave_seat()
            panel.message = ""
            panel.ids.grill.reset_touches()
        for g, seat in enumerate(session.seats):
            self.panels[seat.index].take_seat(session, g)
        self._show_panels({seat.index for seat in session.seats})
        for g in session.bots:
            self._bot_events[g] = Clock.schedule_once(partial(self._bot_tick, g), self._bot_delay(g))
        self._tick_ev = Clock.schedule_interval(self._tick, 0.1)
        # attract mode shows an order already being cooked (its bots played on off-screen): a short countdown
        self._start_countdown(self.BETWEEN_S if session.attract else self.COUNTDOWN_S)
        self._draw()

    def end(self) -> None:
        session = self.session
        if session is not None:
            session.unbind(on_change=self._on_change, on_error=self._on_error, on_over=self._on_over)
            if self._saved_delay is not None and session.move_delay == PARKED_DELAY:
                session.move_delay = self._saved_delay
        for ev in list(self._bot_events.values()) + [self._countdown_ev, self._tick_ev]:
            if ev is not None:
                ev.cancel()
        self._bot_events.clear()
        self._countdown_ev = self._tick_ev = None
        self.countdown = ""
        from kiosk.ui import motion

        motion.clear()  # no banner of this game outlives it
        for panel in self.panels.values():
            panel.ids.grill.reset_touches()
            panel.ids.grill.locked = True
        super().end()

    def hide_private(self) -> None:
        """Nothing is hidden in Takoyaki (grills and cards are public)."""

    def seat_to_bot(self, game_seat: int) -> None:
        """A bot took over a seat whose player left: it plays on that grill at its own pace from now on."""
        super().seat_to_bot(game_seat)
        self.panels[self.session.seats[game_seat].index].ids.grill.reset_touches()
        if game_seat not in self._bot_events:
            self._bot_events[game_seat] = Clock.schedule_once(
                partial(self._bot_tick, game_seat), self._bot_delay(game_seat)
            )

    # ------------------------------------------------------------------------------------------- countdown
    @property
    def counting_down(self) -> bool:
        return self._countdown_ev is not None

    def _start_countdown(self, seconds: float) -> None:
        if self._countdown_ev is not None:
            self._countdown_ev.cancel()
        self._countdown_end = clock.now() + seconds
        for panel in self.panels.values():
            panel.ids.grill.reset_touches()
        self._countdown_ev = Clock.schedule_once(self._reveal, seconds)
        self._update_countdown()
        self._redraw()

    def _reveal(self, _dt: float) -> None:
        self._countdown_ev = None
        now = clock.now()
        self.revealed_at = now
        if self.started_at is None:
            self.started_at = now
        self._update_countdown()  # every seat's copy at once: the order is revealed to all together
        self._draw()
        self.animate_reveal()

    def animate_reveal(self) -> None:
        """Every seat's copy of the new order card flips in (:func:`kiosk.ui.motion.flip_in`, 350 ms): only its
        drawing turns, the grills take fingers at once."""
        from kiosk.ui import motion

        for panel in self.panels.values():
            if panel.in_game and panel.parent is not None:
                motion.flip_in(panel.ids.order, 0.35)

    def _update_countdown(self) -> None:
        counting = self._countdown_ev is not None
        left = max(0.0, self._countdown_end - clock.now())
        self.countdown = self._count(left, self.tr) if counting else ""
        for panel in self.panels.values():  # each seat reads "GO!" in its language
            panel.countdown = self._count(left, panel.tr) if counting else ""

    @staticmethod
    def _count(left: float, tr: Translator) -> str:
        return tr.number(int(math.ceil(left))) if left > 0.05 else tr.gettext("GO!")

    def _tick(self, _dt: float) -> None:
        self._update_countdown()
        if (
            self.session is not None
            and self.session.players == 1
            and self.started_at is not None
            and not self.replay_note
        ):
            # (a replay's own pace is not the trial's time: its caption says the time)
            t = self.trial_time if self.trial_time is not None else clock.now() - self.started_at
            self.clock_text = race_time(t, self.tr)
        else:
            t = None
            self.clock_text = ""
        for panel in self.panels.values():
            panel.clock_text = race_time(t, panel.tr) if t is not None else ""

    # ------------------------------------------------------------------------------------------- bots
    def _bot_delay(self, g: int) -> float:
        bot = self.session.bots.get(g) if self.session is not None else None
        if bot is not None and hasattr(bot, "next_delay"):
            return float(bot.next_delay())
        return float(self._saved_delay if self._saved_delay is not None else 1.0)

    def _bot_tick(self, g: int, _dt: float) -> None:
        session = self.session
        if session is None:
            return
        self._bot_events[g] = Clock.schedule_once(partial(self._bot_tick, g), self._bot_delay(g))
        if self.counting_down or not session.running or session.state.is_over():
            return
        if g not in session.state.to_move():
            return
        try:
            action = session.bots[g].choose(session.state)
        except Exception as exc:  # a bot bug must not stop the race
            log.warning("takoyaki bot %s failed: %s", g, exc)
            return
        session.apply(g, action)

    # ------------------------------------------------------------------------------------------- input
    def human_action(self, game_seat: int, action: Action) -> bool:
        """Apply a human's action (True when applied); the grills are redrawn at once."""
        session = self.session
        if session is None or session.is_bot(game_seat) or self.attract or self.counting_down:
            return False
        if session.state.is_over() or game_seat not in session.state.to_move():
            return False  # out of this order: the sign is already showing, gestures do nothing
        ok = bool(session.apply(game_seat, action))
        if ok:
            self._draw()
        return ok

    def seat_event(self, event: SeatEvent) -> None:
        """A tap-stick tap: TAKOYAKI! for that seat. The seat buttons move and use the highlight
        (:mod:`kiosk.ui.focus`), where "a" with no highlight shown is TAKOYAKI! too (:meth:`focus_quick`)."""
        if self.session is None or event.seat is None:
            return
        if event.kind == "tap" and event.source in ("tap", "key"):
            self.focus_quick(event.seat)
            return
        super().seat_event(event)

    def focus_quick(self, seat: int) -> bool:
        """Seat button "a" with no highlight shown (on its release, so that a hold opens the seat's menu and is
        never a wrong claim): TAKOYAKI! for that seat."""
        g = self.session.game_seat_of(seat) if self.session is not None else None
        if g is not None:
            self.human_action(g, Claim())
        return True

    def focus_targets(self, seat: int) -> list[Any]:
        """The seat's balls and claim pad; with a ball chosen, its moves first, then the pad and the other balls."""
        panel = self.panels.get(seat)
        if panel is None:
            return []
        grill = panel.ids.grill
        pad = [panel.ids.pad]
        if grill.locked:
            return pad
        balls = [b for b in grill.balls if b.space >= 0]
        if grill.selected >= 0:
            marks = [m for m in grill.marks if m.dst >= 0]
            others = [b for b in balls if b.space != grill.selected]
            return reading_order(panel, marks) + pad + reading_order(panel, others)
        return reading_order(panel, balls) + pad

    def focus_back(self, seat: int) -> bool:
        """ "hold b": let go of the chosen ball."""
        grill = self.panels[seat].ids.grill
        if grill.selected < 0:
            return False
        grill.selected = -1
        return True

    # ------------------------------------------------------------------------------------------- events
    def _on_change(self, _session: Any, events: list[Any]) -> None:
        now = clock.now()
        new_order = False
        session = self.session
        for ev in events:
            if ev.kind == "order_won" and ev.seat is not None:
                took = now - (self.revealed_at or now)
                self.order_times.append((ev.seat, round(took, 3)))
                panel = self._panel(ev.seat)
                if panel is not None:
                    tr = panel.tr
                    won_in = tr.gettext("TAKOYAKI! Order won in {time}").format(time=race_time(took, tr))
                    panel.show_message(tr.sym("\u2714") + " " + won_in)
                    from kiosk.ui import motion

                    motion.banner(panel, "TAKOYAKI!", "takoyaki", panel.seat.rotation if panel.seat else 0)
                if (
                    session is not None
                    and session.players == 1
                    and ev.data.get("orders", 0) >= 5
                    and self.started_at is not None
                ):
                    self.trial_time = round(now - self.started_at, 3)
                    session.trial_time = self.trial_time
            elif ev.kind == "order_revealed":
                new_order = True
            elif ev.kind == "order_set_aside":
                for panel in self.panels.values():
                    if panel.in_game:
                        panel.show_message(panel.tr.gettext("Nobody made it: the order is set aside"))
        if new_order and session is not None and not session.state.is_over():
            self._start_countdown(self.BETWEEN_S)
        self._redraw()

    def _on_over(self, *_a: Any) -> None:
        for panel in self.panels.values():
            panel.ids.grill.locked = True
        self._redraw()

    def _on_error(self, _session: Any, game_seat: int, error: Exception) -> None:
        panel = self._panel(game_seat)
        if panel is not None:
            panel.show_message(rule_error_text(error, panel.tr))

    def _hint(self, panel: TakoPanel, g: int, locked: bool) -> None:
        """Hint mode: the solver's next move on the seat's grill, and in words (nothing while the grill is locked)."""
        state = self.session.state if self.session is not None else None
        order = state.current_order if state is not None else None
        if not panel.hints or locked or state is None or order is None:
            panel.prompt, panel.ids.grill.hint = "", []
            return
        text, move = hint_text(state.grill(g), order, panel.tr)
        panel.prompt = text
        if isinstance(move, Push):
            panel.ids.grill.hint = [move.src, move.dst]
        elif isinstance(move, Turn):
            panel.ids.grill.hint = [move.space, move.space]
        else:
            panel.ids.grill.hint = []

    def _panel(self, g: int) -> TakoPanel | None:
        if self.session is None or not 0 <= g < len(self.session.seats):
            return None
        return self.panels.get(self.session.seats[g].index)

    # ------------------------------------------------------------------------------------------- drawing
    def _draw(self, *_a: Any) -> None:
        session = self.session
        if session is None:
            return
        view = self.public_view(session)
        order = view["order"]
        shown = order is not None and not self.counting_down
        cells = list(parse_order(order["card"])) if order is not None else [0] * SPACES
        need = view["orders_to_win"]
        for g, seat in enumerate(session.seats):
            panel = self.panels[seat.index]
            tr = panel.tr  # every word at a seat in the seat's language
            won = len(view["won"][g])
            orders = tr.gettext("Orders {won}/{need}").format(won=tr.number(won), need=tr.number(need))
            panel.orders_text = orders + "  " + tr.sym("\u2605") * won
            panel.grill_cells = list(parse_grill(view["grills"][g]))
            panel.order_cells = cells
            panel.order_shown = shown
            panel.order_card = order["card"] if shown and order is not None else "ball"
            reason = view["out"][g]
            panel.racing = reason is None and not view["over"]
            out = tr.gettext("OUT: {reason}\nwait for the next order") if reason else ""
            panel.out_text = tr.sym("\u2716") + " " + out.format(reason=out_reason(reason, tr)) if reason else ""
            grill = panel.ids.grill
            grill.locked = not shown or reason is not None or view["over"] or panel.is_bot or self.attract
            self._hint(panel, g, grill.locked)
            if view["over"]:
                winner = tr.sym("\u2605") + " " + tr.gettext("Winner!")
                panel.status = winner if g in view["winners"] else tr.gettext("Game over")
            elif self.counting_down:
                panel.status = tr.gettext("Get ready...")
            elif reason:
                panel.status = tr.gettext("Out of this order")
            else:
                panel.status = tr.gettext("Cook the order!") if not panel.is_bot else tr.gettext("Cooking...")
        self.centre_text = self._centre_text(view)

    @staticmethod
    def public_view(session: GameSession) -> TakoyakiView:
        """The game's public view, as the engine types it (this screen shows Takoyaki only)."""
        state = session.state
        assert isinstance(state, TakoyakiState), state
        return state.view(None)

    def _centre_text(self, view: TakoyakiView) -> str:
        """The centre's scoreboard in the table's language: the order and the cards left, each seat's orders won,
        the winners at the end."""
        from kiosk.ui.words import join_names

        session, tr = self.session, self.tr
        order = view["order"]
        lines = []
        if order is not None:
            head = tr.gettext("Order {number} ({band})").format(
                number=tr.number(order["number"]), band=band_text(order["band"], tr)
            )
            left = view["deck_left"]
            lines.append(head + "   " + tr.ngettext("{n} card left", "{n} cards left", left).format(n=tr.number(left)))

        def name(g: int) -> str:
            seat = session.seats[g]
            return f"{seat.symbol} {tr.seat_name(seat.name)}"

        lines.append("   ".join(f"{name(g)} {tr.number(len(view['won'][g]))}" for g in range(session.players)))
        if view["over"]:
            winners = view["winners"]
            names = join_names([name(g) for g in winners], tr)
            over = (
                tr.ngettext("Game over \u2014 {names} wins", "Game over \u2014 {names} win", len(winners))
                if winners
                else tr.gettext("Game over")
            )
            lines.insert(0, over.format(names=names))
        return "\n".join(lines)


#: The plug-in name the shell looks for (kiosk.ui.game.screen_class_for).
GameScreen = TakoyakiScreen
