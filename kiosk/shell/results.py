"""Results and high scores: final places at every seat, arcade initials entry on the seat's own edge, boards.

Rationale and decisions: docs/developer/design.md, section ``kiosk/shell/results.py``.
"""

from __future__ import annotations

import logging
import string
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.engine import trial_board
from kiosk.i18n import Translator, translator
from kiosk.inputs import SeatEvent
from kiosk.ui.seatzone import SeatZone
from kiosk.ui.speaks import Speaks
from kiosk.ui.words import board_rank, join_names

log = logging.getLogger("kiosk.shell.results")

__all__ = ["ResultsScreen", "ResultPad", "LETTERS", "ordinal", "points_text", "trivial_score", "marked_rows"]

LETTERS = string.ascii_uppercase


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def points_text(n: int) -> str:
    """``1 point``, ``0 points``, ``12 points``."""
    return f"{n} point" if n == 1 else f"{n} points"


def trivial_score(score: int, best_on_board: int | None, best_at_table: int | None, lower_is_better: bool) -> bool:
    """Too small to be called a high score, whatever the board holds.

    Points (higher is better): 0 or less, or under a third of the board's best or of the winning score at the
    table. Times (lower is better): 0 or less, or more than three times the board's best.
    """
    if score <= 0:
        return True
    if lower_is_better:
        return best_on_board is not None and score > 3 * best_on_board
    return any(ref is not None and ref > 0 and 3 * score < ref for ref in (best_on_board, best_at_table))


def marked_rows(
    entries: list[Any], marked: set[int], n: int = 5, fmt: Callable[[int], str] = str, tr: Translator | None = None
) -> list[str]:
    """Board lines for the best ``n`` entries (``ScoreEntry``-like), the ``marked`` ids (just saved) framed by
    arrows; a marked entry further down is added under them with its place. ``tr``: the reader's language."""
    tr = tr or translator("en")
    rows = []
    for i, e in enumerate(entries, start=1):
        line = f"{board_rank(i, tr)}  {e.name:<3}   {fmt(e.score)}"
        if e.id in marked:
            rows.append(f"\u25b6 {line} \u25c0")
        elif i <= n:
            rows.append(line)
    return rows or [tr.gettext("(no scores yet)")]


class ResultPad(SeatZone):
    in_game = BooleanProperty(False)
    rank_text = StringProperty("")
    score_text = StringProperty("")
    winner = BooleanProperty(False)
    #: A bot played this seat: no "Play again" at its pad (nobody sits there to press it).
    bot = BooleanProperty(False)
    #: "Watch again" is offered here (a guest's pad, the game's journal replays, replays are on).
    can_watch = BooleanProperty(False)
    entering = BooleanProperty(False)
    #: What the entry is for: "New high score!" (all-time top 10) or "Today's top 10!".
    entry_title = StringProperty("New high score!")
    saved = StringProperty("")
    letters = ListProperty(["A", "A", "A"])
    cursor = NumericProperty(0)
    seconds_left = NumericProperty(0)
    screen = ObjectProperty(None, allownone=True)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.game_seat: int | None = None
        self.score = 0
        #: the initials saved at this seat for the game on show (None: none entered)
        self.saved_name: str | None = None

    def step(self, slot: int, delta: int) -> None:
        if not self.entering:
            return
        letters = list(self.letters)
        letters[slot] = LETTERS[(LETTERS.index(letters[slot]) + delta) % len(LETTERS)]
        self.letters = letters
        self.cursor = slot

    def confirm_letter(self) -> None:
        if self.cursor >= 2:
            self.finish()
        else:
            self.cursor += 1

    def finish(self) -> None:
        if self.entering and self.screen is not None:
            self.screen.save_initials(self)


class ResultsScreen(Speaks, Screen):
    """The centre (winners, boards) speaks the table's language (``tr``, ``face``); each pad its seat's."""

    table = ObjectProperty(None)
    title = StringProperty("")
    alltime = ListProperty([])
    today = ListProperty([])
    board_note = StringProperty("")
    summary = StringProperty("")

    def __init__(
        self,
        on_done: Callable[[], None] | None = None,
        on_again: Callable[[], None] | None = None,
        on_final: Callable[..., None] | None = None,
        on_watch: Callable[[str, dict[int, str]], bool] | None = None,
        can_watch: Callable[[str], bool] | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.on_done = on_done
        self.on_again = on_again
        #: "Watch again": ``on_watch(journal id, {table seat: language})`` (False: it could not be replayed),
        #: offered where ``can_watch(journal id)``
        self.on_watch, self.can_watch = on_watch, can_watch
        #: The finished game's journal ("" without one): the scores entered keep it, Watch again replays it.
        self.journal_id = ""
        #: ``on_final(session, board key, players, lower_is_better)`` once a game's results are final (every
        #: initials entry saved or timed out): the players as the event record has them (:mod:`kiosk.events`)
        self.on_final = on_final
        self._session: Any = None
        self.scores: Any = None
        self.game_key = ""
        self.trial = False
        self.details: dict[str, Any] = {}
        #: Ids of the entries saved on this screen (marked on the boards).
        self.marked: set[int] = set()
        self.initials_s = 30.0
        self.results_s = 20.0
        self._tick_ev: Any = None
        self._done_ev: Any = None
        self.pads: dict[int, ResultPad] = {}
        for seat in self.table.seats if self.table is not None else []:
            pad = ResultPad(table=self.table, seat=seat, screen=self)
            self.pads[seat.index] = pad
            self.ids.seat_layer.add_widget(pad)
            pad.sync_shown()

    # ------------------------------------------------------------------------------------------- setup
    def setup(self, session: Any, scores: Any, initials_s: float, results_s: float) -> None:
        """Show a finished game's results (``session`` a GameSession whose state is over)."""
        self.cancel_timers()
        self.scores = scores
        self.initials_s = initials_s
        self.results_s = results_s
        spec, state = session.spec, session.state
        self.game_key = spec.key
        self.title = spec.title
        self.domain, self.language = spec.key, session.language
        self.trial = session.trial_time is not None
        final = state.scores()
        winners = set(state.winners())
        order = sorted(range(state.players), key=lambda g: final[g], reverse=not spec.lower_is_better)
        place = {}
        for _rank, g in enumerate(order, start=1):
            same = [h for h in order if final[h] == final[g]]
            place[g] = min(order.index(h) for h in same) + 1
        self.journal_id = str(getattr(session.journal, "id", None) or "")
        self.details = {"players": state.players, "bots": len(session.bots)}
        self.details.update({"journal": self.journal_id} if self.journal_id else {})
        watchable = bool(self.journal_id) and self.can_watch is not None and self.can_watch(self.journal_id)
        self.marked = set()
        lower = bool(spec.lower_is_better) or self.trial
        best_at_table = None if lower or not final else max(final)
        for pad in self.pads.values():
            pad.in_game = False
            pad.entering = False
            pad.saved = ""
            pad.saved_name = None
            pad.game_seat = None
        available = bool(scores.available)
        for g, seat in enumerate(session.seats):
            pad = self.pads[seat.index]
            pad.in_game = True
            pad.game_seat = g
            pad.score = final[g]
            pad.winner = g in winners
            pad.bot = session.is_bot(g)
            pad.can_watch = watchable and not pad.bot
            pad.language = session.language_of(seat.index)
            tr = pad.tr
            pad.rank_text = (tr.sym("\u2605") + " " if g in winners else "") + tr.ordinal(place[g])
            points = tr.ngettext("{n} point", "{n} points", final[g]).format(n=tr.number(final[g]))
            who = tr.gettext("Bot: {points}") if session.is_bot(g) else tr.gettext("You: {points}")
            pad.score_text = who.format(points=points)
            if self.trial and not session.is_bot(g):
                pad.score = int(round(session.trial_time * 1000))
                seconds = tr.number(round(pad.score / 1000, 2), "0.00")
                pad.score_text = tr.gettext("Time: {seconds} s").format(seconds=seconds)
            pad.letters = ["A", "A", "A"]
            pad.cursor = 0
            human = available and not session.is_bot(g)
            title = self._entry_title(pad.score, best_at_table, lower, tr) if human else ""
            if title:
                pad.entering = True
                pad.entry_title = title
                pad.seconds_left = int(initials_s)
        tr = self.tr
        names = join_names(
            [f"{session.seats[g].symbol} {tr.seat_name(session.seats[g].name)}" for g in sorted(winners)], tr
        )
        if self.trial:
            seconds = tr.number(round(session.trial_time, 2), "0.00")
            self.summary = tr.gettext("Time trial: {seconds} s").format(seconds=seconds)
        elif winners:
            self.summary = tr.ngettext("Winner: {names}", "Winners: {names}", len(winners)).format(names=names)
        else:
            self.summary = tr.gettext("Game over")
        self.refresh_boards()
        self._session = session
        if any(p.entering for p in self.pads.values()):
            self._tick_ev = Clock.schedule_interval(self._tick, 1.0)
        else:
            self._final()
            self._done_ev = Clock.schedule_once(self._done, results_s)

    @property
    def board_key(self) -> str:
        return trial_board(self.game_key) if self.trial else self.game_key

    def _entry_title(self, score: int, best_at_table: int | None, lower: bool, tr: Translator) -> str:
        """ "New high score!", "Today's top 10!" or "" (no entry) for a human's score (see the module rules)."""
        game = self.board_key
        try:
            best = self.scores.top(game, 1)
            if trivial_score(score, best[0].score if best else None, best_at_table, lower):
                return ""
            if self.scores.qualifies(game, score):
                return tr.gettext("New high score!")
            if self.scores.qualifies(game, score, since=self.scores.start_of_today()):
                return tr.gettext("Today's top 10!")
        except Exception as exc:
            log.warning("cannot check the board: %s", exc)
        return ""

    def refresh_boards(self) -> None:
        scores = self.scores
        tr = self.tr
        if not scores.available:
            self.alltime, self.today = [tr.gettext("(boards unavailable)")], []
            self.board_note = tr.gettext("Scores cannot be saved right now")  # the reason: the operator's health panel
            return
        self.board_note = tr.gettext("time trial: fastest five orders") if self.trial else ""

        def fmt(v: int) -> str:
            if self.trial:
                return tr.gettext("{seconds} s").format(seconds=tr.number(round(v / 1000, 2), "0.00"))
            return tr.number(v)

        self.alltime = marked_rows(scores.top(self.board_key, 10), self.marked, fmt=fmt, tr=tr)
        self.today = marked_rows(scores.top_today(self.board_key, 10), self.marked, fmt=fmt, tr=tr)

    # ------------------------------------------------------------------------------------------- entry
    def save_initials(self, pad: ResultPad) -> None:
        name = "".join(pad.letters)
        pad.entering = False
        try:
            seat = {"seat": pad.seat.position, "game_seat": pad.game_seat}  # the game seat: a replay's initials
            entry = self.scores.add(self.board_key, name, pad.score, **seat, **self.details)
            self.marked.add(entry.id)
            pad.saved = pad.tr.gettext("Saved as {name}").format(name=name)
            pad.saved_name = name
        except Exception as exc:  # storage refused: say so, never crash the table
            log.error("could not save %s: %s", name, exc)
            pad.saved = pad.tr.gettext("Could not save the score")
        self.refresh_boards()
        if not any(p.entering for p in self.pads.values()):
            if self._tick_ev is not None:
                self._tick_ev.cancel()
                self._tick_ev = None
            self._final()
            self._done_ev = Clock.schedule_once(self._done, self.results_s)

    def _final(self) -> None:
        """The results are final: the game as the event record has it, to ``on_final`` (once per game)."""
        session, self._session = self._session, None
        if session is None or self.on_final is None:
            return
        players = [
            {
                "seat": p.game_seat,
                "initials": p.saved_name,
                "score": int(p.score),
                "bot": bool(p.bot),
                "winner": bool(p.winner),
            }
            for p in sorted(self.pads.values(), key=lambda p: p.game_seat if p.game_seat is not None else -1)
            if p.in_game and p.game_seat is not None
        ]
        self.on_final(session, self.board_key, players, bool(session.spec.lower_is_better) or self.trial)

    def _tick(self, _dt: float) -> None:
        for pad in self.pads.values():
            if pad.entering:
                pad.seconds_left = max(0, pad.seconds_left - 1)
                if pad.seconds_left <= 0:
                    self.save_initials(pad)

    def seat_event(self, event: SeatEvent) -> None:
        pad = self.pads.get(event.seat) if event.seat is not None else None
        if pad is None or not pad.entering or not event.is_press:
            return
        if event.button == "b":  # the seat buttons' mapping in every game: b next, a choose
            pad.step(int(pad.cursor), 1)
        elif event.button == "a":
            pad.confirm_letter()

    # ------------------------------------------------------------------------------------------- leaving
    def cancel_timers(self) -> None:
        for ev in (self._tick_ev, self._done_ev):
            if ev is not None:
                ev.cancel()
        self._tick_ev = self._done_ev = None

    def _done(self, _dt: float) -> None:
        self._done_ev = None
        if self.on_done is not None:
            self.on_done()

    def again(self) -> None:
        if any(p.entering for p in self.pads.values()):
            return
        self.cancel_timers()
        if self.on_again is not None:
            self.on_again()

    def watch_again(self) -> None:
        """A guest's "Watch again": the game replayed (:mod:`kiosk.shell.replays`), then these results again."""
        if any(p.entering for p in self.pads.values()) or self.on_watch is None or not self.journal_id:
            return
        self.cancel_timers()
        languages = {i: p.language for i, p in self.pads.items() if p.in_game}
        if not self.on_watch(self.journal_id, languages):  # its journal does not replay: no more offers
            for pad in self.pads.values():
                pad.can_watch = False
            self.resume()

    def resume(self) -> None:
        """Back from Watch again: the results stay their time again, then attract mode."""
        self.cancel_timers()
        self._done_ev = Clock.schedule_once(self._done, self.results_s)

    def on_leave(self, *_a: Any) -> None:
        self.cancel_timers()
