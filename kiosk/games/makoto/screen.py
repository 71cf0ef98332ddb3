"""Makoto on the table: hands in private trays, the shared centre readable from every side, a match with the
box-lid rule and the score sheet between games.

The screen holds no rules. Every choice it offers comes from ``state.legal_actions(seat)``; it draws
``state.view(seat)`` and sends the engine's own action objects to ``session.apply``. A ``RuleError`` that gets
through anyway arrives as the session's ``on_error`` and is shown at that seat.

Rationale and decisions: docs/developer/design.md, section ``kiosk/games/makoto/screen.py``.
"""

from __future__ import annotations

import logging
from collections import Counter, deque
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, StringProperty

from kiosk.engine import Action, Outcome
from kiosk.games.makoto.actions import BlindDiscard, BlindTake, EndTurn, OracleDiscard, Pass, Play, UseLid
from kiosk.games.makoto.centre import MakotoCentre  # noqa: F401  (its kv rule, used in screen.kv)
from kiosk.games.makoto.hand import MakotoHand  # noqa: F401  (the tray's paged hand, used in screen.kv)
from kiosk.games.makoto.match import MakotoMatch, recommended_games
from kiosk.games.makoto.panel import MAX_ACTIONS, CentreSlice, HandCard, MakotoPanel, StepButton
from kiosk.games.makoto.pieces import MakotoCard
from kiosk.games.makoto.rules import BLIND, ORACLE_STEP, PLAY, MakotoState, classify
from kiosk.games.makoto.touches import makoto_plan
from kiosk.games.makoto.views import MakotoView
from kiosk.games.makoto.words import (
    Worded,
    card_text,
    cards_text,
    combo_text,
    error_text,
    grouped,
    joined,
    makoto_event_text,
    pts,
    seat_label,
)
from kiosk.inputs import SeatEvent
from kiosk.session import GameSession
from kiosk.ui import load_kv, motion
from kiosk.ui.game import BaseGameScreen

log = logging.getLogger("kiosk.games.makoto.screen")

__all__ = [
    "GameScreen",
    "MakotoScreen",
    "MakotoPanel",
    "HandCard",
    "StepButton",
    "CentreSlice",
    "MatchResult",
    "card_text",
]


def _banner(target: Any, text: str, picture: str, rotation: float, face: str) -> None:
    """:func:`kiosk.ui.motion.banner` with its words set in the reader's face (the CJK face for Japanese)."""
    ghost = motion.banner(target, text, picture, rotation)
    if face:
        for w in ghost.walk(restrict=True):
            if getattr(w, "text", None) == text:
                w.font_name = face


class MatchResult:
    """The last game of a match as the shell's results screen should score it: the match totals.

    It stands in for the final :class:`MakotoState` in the session once the match is over (every other
    attribute is the final game's)."""

    def __init__(self, state: MakotoState, match: MakotoMatch) -> None:
        self._state = state
        self._match = match

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)

    def scores(self) -> list[int]:
        return self._match.totals()

    def winners(self) -> list[int]:
        return self._match.winners()

    def outcome(self) -> Outcome:
        return Outcome(tuple(self.scores()), tuple(self.winners()), "match")

    def is_over(self) -> bool:
        return True


class MakotoScreen(BaseGameScreen):
    """The Makoto screen (see the module docstring). Built once by the shell; ``begin`` for every game."""

    #: Games per match when the session does not say (``session.match_games``, the choice the joining screen
    #: offers from ``SPEC.match_choices``); 0: the rulebook's recommendation for the number of players.
    match_games: int = 1

    title = StringProperty("Makoto")
    #: How many moves each seat's log shows (newest last).
    HISTORY = 3
    centre_text = StringProperty("")
    sheet_text = StringProperty("")
    sheet = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        load_kv(Path(__file__).with_suffix(".kv"))  # its looks, next to it (once per process)
        super().__init__(**kw)
        self.panels: dict[int, MakotoPanel] = {}
        self.slices: list[CentreSlice] = []
        self.match: MakotoMatch | None = None
        self.final_state: MakotoState | None = None
        self._undo: dict[int, MakotoState] = {}
        self._history: deque[str] = deque(maxlen=self.HISTORY)
        #: the game seat whose turn the screen last saw start (its tray opened by itself then), else None
        self._turn_seen: int | None = None
        self._redraw = Clock.create_trigger(self._draw, -1)
        Clock.schedule_once(self._build_panels, -1)

    def _build_panels(self, *_a: Any) -> None:
        if self.panels or self.table is None:
            return
        for seat in self.table.seats:
            panel = MakotoPanel(table=self.table, seat=seat, screen=self)
            self.panels[seat.index] = panel
        for edge in ("bottom", "top", "left", "right"):
            sl = CentreSlice(table=self.table, edge=edge, screen=self)
            self.slices.append(sl)
            self.ids.centre_layer.add_widget(sl)

    # ------------------------------------------------------------------------------------------- lifecycle
    #: the touches of an action at a seat (:mod:`kiosk.ui.touchplan`): cards, then the action row
    def touch_plan(self, seat_index: int, action: Action, next_intent: Any) -> Any:
        return makoto_plan(self, seat_index, action, next_intent)

    def begin(self, session: GameSession) -> None:
        super().begin(session)
        session.bind(on_change=self._on_change, on_error=self._on_error, on_over=self._on_change)
        players = session.players
        wanted = session.match_games
        if wanted is None:
            wanted = self.match_games
        games = 1 if session.attract else (wanted if wanted > 0 else recommended_games(players))
        self.match = MakotoMatch(players, session.seed, games=games)
        saved = session.meta.get("match")
        if saved is not None and not session.attract:  # resumed after a crash in a later game of a match
            try:
                match = MakotoMatch.from_json(saved)
                if match.players != players:
                    raise ValueError(f"a match of {match.players} players, the game has {players}")
                self.match = match
            except ValueError as exc:
                log.warning("the saved match could not be restored (%s): playing this game alone", exc)
                self.match = MakotoMatch(players, session.seed, games=1)
        self.final_state = None
        self.sheet = False
        self._turn_seen = None
        self._undo.clear()
        self._history.clear()
        self._log(session.last_events)  # a resumed game: its last move, in words
        for panel in self.panels.values():
            panel.leave_seat()
            panel.error = ""
            panel.sheet = False
            panel.selected.clear()
            panel.ids.tray.close()
        for g, seat in enumerate(session.seats):
            panel = self.panels[seat.index]
            panel._build()
            panel.take_seat(session, g)
            panel.ids.tray.locked = panel.is_bot or session.attract
        layer = self.ids.seat_layer
        in_game = {seat.index for seat in session.seats}
        for index, panel in self.panels.items():  # only the seats in the game are drawn at all
            if index in in_game and panel.parent is None:
                layer.add_widget(panel)
            elif index not in in_game and panel.parent is not None:
                layer.remove_widget(panel)
        self._draw()

    def end(self) -> None:
        if self.session is not None:
            self.session.unbind(on_change=self._on_change, on_error=self._on_error, on_over=self._on_change)
        self.hide_private()
        self.sheet = False
        for panel in self.panels.values():
            panel.sheet = False
        motion.clear()  # no card of this game stays in flight
        super().end()

    def hide_private(self) -> None:
        super().hide_private()
        for panel in self.panels.values():
            panel.ids.tray.close()
            panel.selected.clear()

    def seat_event(self, event: SeatEvent) -> None:
        """Seat buttons play through the highlight (:mod:`kiosk.ui.focus`); on the score sheet "a" starts the next
        game of the match at once."""
        panel = self.panels.get(event.seat) if event.seat is not None else None
        if panel is None or not panel.in_game or event.source not in ("button", "key"):
            return
        if self.sheet and event.is_press and event.button == "a" and not panel.is_bot:
            self.next_game()
            return
        super().seat_event(event)

    def focus_back(self, seat: int) -> bool:
        """ "hold b": leave the box lid's list, or clear the selected cards."""
        panel = self.panels[seat]
        if panel.lid_mode:
            panel.command("lid")
            return True
        if panel.selected:
            panel.command("clear")
            return True
        return False

    # ------------------------------------------------------------------------------------------- match
    def _on_change(self, *_a: Any) -> None:
        session = self.session
        if session is None:
            return
        events = list(_a[1]) if len(_a) > 1 and isinstance(_a[1], list) else []
        self._log(events)
        self.animate_events(events)
        state = session.state
        if (
            isinstance(state, MakotoState)
            and state.is_over()
            and self.match is not None
            and len(self.match.results) < self.match.games
        ):
            self.match.record(state)
            self.final_state = state
            self._undo.clear()
            if self.match.games > 1 and not self.match.is_over():
                # the finished game's journal is archived; the next game's journal carries the match so far
                session.next_game(
                    self.match.next_game(),
                    seed=self.match.game_seed(self.match.index),
                    setup=self.match.setup(),
                    meta={
                        "match": self.match.to_json(),
                        "match_games": self.match.games,
                        "series": [self.match.index + 1, self.match.games],
                    },
                )
                session.pause()
                self.sheet = True
                for panel in self.panels.values():
                    panel.sheet = panel.in_game and not panel.is_bot
                    panel.ids.tray.close()
            elif self.match.games > 1:
                session.state = MatchResult(state, self.match)  # the results screen scores the match
        movers = set() if session.state.is_over() else set(session.state.to_move())
        if self._turn_seen not in movers:
            self._turn_seen = None  # the turn passed: the seat's next turn opens its tray again
        for g, seat in enumerate(session.seats):  # the turn passed: a hand opened by a tap hides again
            zone = self.panels.get(seat.index)
            if zone is not None and g not in movers and zone.ids.tray.latched:
                zone.ids.tray.close()
        self._redraw()

    # ------------------------------------------------------------------------------------------- log, motion
    def _who(self, g: int | None) -> str:
        """A game seat's name in the table's language (``● Kreis``), for the log and the centre."""
        s = self.session
        if g is None:
            return self.tr.gettext("The game")
        if s is not None and 0 <= g < len(s.seats):
            return seat_label(s.seats[g], self.tr)
        return self.tr.gettext("Seat {n}").format(n=g + 1)

    def _log(self, events: Any) -> None:
        """The last moves in words (:func:`makoto_event_text`) into every seat's log."""
        for ev in events or ():
            try:
                line = makoto_event_text(ev, self._who, str, tr=self.tr)
            except Exception:  # a formatter bug must not stop the game
                line = ev.kind.replace("_", " ")
            if line:
                self._history.append(line)
        text = "\n".join(self._history)
        for panel in self.panels.values():
            panel.log = text

    def _slice_for(self, g: int) -> CentreSlice | None:
        """The centre slice facing game seat ``g``'s edge."""
        s = self.session
        edge = s.seats[g].edge if s is not None and 0 <= g < len(s.seats) else "bottom"
        return next((sl for sl in self.slices if sl.edge == edge), self.slices[0] if self.slices else None)

    def animate_events(self, events: list[Any]) -> None:
        """Motion for one applied action's events, on top of the state (drawn already; :mod:`kiosk.ui.motion`):
        played cards fly from the player's zone into the current play of the centre slice facing that player,
        a card put into the Blind flies there and cards taken from it fly to the seat; a Kensei gets a banner
        with the crown on every slice and the player's zone glows; a player going out gets a banner with the
        trophy at their seat. Cards in flight are face up only when the move shows them to everyone."""
        from kiosk.games.makoto.pieces import CardFan, CardRow

        session = self.session
        if session is None or not events:
            return
        for ev in events:
            g = ev.seat
            if g is None or not 0 <= g < len(session.seats) or not motion.wanted(session, g):
                continue
            panel = self.panels.get(session.seats[g].index)
            sl = self._slice_for(g)
            if panel is None or sl is None or panel.parent is None:
                continue
            centre = sl.ids.centre
            fan = next((w for w in centre.children if isinstance(w, CardFan)), None)
            row = next((w for w in centre.children if isinstance(w, CardRow)), None)
            d = dict(ev.data)
            side = max(1.0, min(centre.width, centre.height) * 0.2)
            size = (side, side * 1.45)
            if ev.kind == "played" and fan is not None:
                cards = sorted(d.get("cards", []), key=lambda c: (c % 20, c // 20))
                fx, fy, fw, fh = motion.box_of(fan, size)
                px_, py_, pw, ph = motion.box_of(panel, size)
                for i, c in enumerate(cards):
                    dx = (i - (len(cards) - 1) / 2) * side * 0.35
                    card = MakotoCard(number=c % 20, kind=c // 20)
                    motion.fly(card, (px_ + dx, py_, pw, ph), (fx + dx, fy, fw, fh), 0.35)
                if d.get("kensei"):
                    motion.glow(panel, panel.seat_colour, 0.4, pulses=3)
                    for each in self.slices:
                        rot = self.table.facing_edge_rotation(each.edge) if self.table is not None else 0
                        _banner(each.ids.centre, self.tr.gettext("Kensei!"), "kensei", rot, self.face)
            elif ev.kind == "blind_discard" and row is not None:
                c = int(d.get("card", 0))
                motion.fly(MakotoCard(number=c % 20, kind=c // 20), panel, row, 0.35, size=size)
            elif ev.kind == "blind_take" and row is not None:
                for c in d.get("cards", []):
                    motion.fly(MakotoCard(number=c % 20, kind=c // 20), row, panel, 0.35, size)
            elif ev.kind == "went_out":
                seat = session.seats[g]
                words = panel.tr.gettext("Out! +{reward}").format(reward=d.get("reward", 0))
                _banner(panel, words, "trophy", seat.rotation, panel.face)

    def next_game(self) -> None:
        """Leave the score sheet and play the match's next game."""
        if not self.sheet or self.session is None:
            return
        self.sheet = False
        for panel in self.panels.values():
            panel.sheet = False
        self.session.resume()
        self._redraw()

    def _on_error(self, _session: Any, game_seat: int, error: Exception) -> None:
        if self.session is None or not 0 <= game_seat < len(self.session.seats):
            return
        panel = self.panels[self.session.seats[game_seat].index]
        panel.show_error(error_text(error, panel.tr))

    # ------------------------------------------------------------------------------------------- choices
    def _state(self) -> MakotoState | None:
        if self.session is None:
            return None
        st = self.session.state
        return st._state if isinstance(st, MatchResult) else st

    def phase_of(self, panel: MakotoPanel) -> str:
        st = self._state()
        if st is None or panel.game_seat is None or st.turn != panel.game_seat:
            return ""
        return st.phase

    def _legal(self, panel: MakotoPanel) -> list[Action]:
        st = self._state()
        if st is None or panel.game_seat is None or panel.is_bot or self.attract or self.sheet or st.is_over():
            return []
        return st.legal_actions(panel.game_seat)

    def _selection(self, panel: MakotoPanel) -> list[int]:
        return [panel.hand[i] for i in sorted(panel.selected) if i < len(panel.hand)]

    def enabled_cards(self, panel: MakotoPanel) -> set[int]:
        """Slots of the hand that can be tapped now (only choices that can lead to a legal action)."""
        legal = self._legal(panel)
        phase = self.phase_of(panel)
        if not legal or panel.lid_mode:
            return set()
        hand = panel.hand
        if not panel.hints and phase in (PLAY, BLIND, ORACLE_STEP):  # hints off: no card is marked unplayable
            return set(range(len(hand)))
        if phase == PLAY:
            sel = Counter(self._selection(panel))
            plays = [Counter(a.cards) for a in legal if isinstance(a, Play)]
            out = set(panel.selected)
            for i, c in enumerate(hand):
                if i in panel.selected:
                    continue
                want = sel + Counter([c])
                if any(all(p[k] >= n for k, n in want.items()) for p in plays):
                    out.add(i)
            return out
        if phase == BLIND:
            ok = {a.card for a in legal if isinstance(a, BlindDiscard)}
            return {i for i, c in enumerate(hand) if c in ok}
        if phase == ORACLE_STEP:
            ok = {a.card for a in legal if isinstance(a, OracleDiscard)}
            return {i for i, c in enumerate(hand) if c in ok}
        return set()

    def commands_for(self, panel: MakotoPanel) -> list[tuple[str, Any, bool]]:
        """The action row: (label, command, enabled), in the seat's language. Commands are engine actions or
        "undo"/"lid"/"clear". A quick play's label carries the cards alone as its short form (:class:`Worded`)."""
        legal = self._legal(panel)
        if not legal:
            return []
        st = self._state()
        assert st is not None
        tr = panel.tr
        phase = self.phase_of(panel)
        out: list[tuple[str, Any, bool]] = []
        lids = [a for a in legal if isinstance(a, UseLid)]
        if panel.lid_mode:
            seen = set()
            for a in lids:
                if a.card not in seen and len(out) < MAX_ACTIONS - 1:
                    seen.add(a.card)
                    out.append((tr.gettext("Lid: take {card}").format(card=card_text(a.card, tr)), a, True))
            # TRANSLATORS: a button in the narrow tray: do not use the box lid after all (one short word)
            return out + [(tr.pgettext("makoto tray", "Cancel"), "lid", True)]
        sel = self._selection(panel)
        if phase == PLAY:
            plays = [a for a in legal if isinstance(a, Play)]
            if sel:
                key = sorted(sel)
                match = next((a for a in plays if sorted(a.cards) == key), None)
                combo = classify(sel, st.players)
                if match is not None and combo:
                    what = combo_text(("set", "run", "kensei")[combo[0]], combo[1], combo[2], tr)
                    label = Worded(tr.gettext("Play {combination}").format(combination=what), cards_text(sel, tr))
                else:
                    label = tr.gettext("Play (choose cards)")
                out.append((label, match, match is not None))
                # TRANSLATORS: a button: unselect the cards chosen so far
                out.append((tr.gettext("Clear"), "clear", True))
            else:
                quick = sorted(plays, key=lambda a: (len(a.cards) != 1, len(a.cards), max(c % 20 for c in a.cards)))
                shown: list[Play] = []
                for q in quick:
                    if len(shown) == 3:
                        break
                    if all(sorted(q.cards) != sorted(b.cards) for b in shown):
                        shown.append(q)
                for q in shown:
                    cards = cards_text(q.cards, tr)
                    out.append((Worded(tr.gettext("Play {cards}").format(cards=cards), cards), q, True))
            if Pass(False) in legal:
                out.append((tr.gettext("Pass"), Pass(False), True))
            if Pass(True) in legal:
                label = tr.gettext("Pass + draw {oracle}").format(oracle=tr.sym("\u2600"))
                out.append((label, Pass(True), True))
        elif phase == BLIND:
            takes = [a for a in legal if isinstance(a, BlindTake)]
            if sel and any(isinstance(a, BlindDiscard) and a.card == sel[0] for a in legal):
                label = tr.gettext("Put {card} in Blind").format(card=card_text(sel[0], tr))
                out.append((label, BlindDiscard(sel[0]), True))
            for t in takes[:4]:
                out.append((tr.gettext("Take {cards}").format(cards=cards_text(t.cards, tr)), t, True))
            out.append((tr.gettext("End turn"), EndTurn(), EndTurn() in legal))
            if panel.game_seat in self._undo:
                # TRANSLATORS: a button: undo the cards just played this turn (not "Back", not "Cancel")
                out.append((tr.sym("\u21b6") + " " + tr.gettext("Take back"), "undo", True))
        elif phase == ORACLE_STEP:
            if sel:
                card = card_text(sel[0], tr)
                label = Worded(
                    tr.gettext("Discard {card} to Oracle").format(card=card),
                    tr.gettext("Discard {card}").format(card=card),
                )
                out.append((label, OracleDiscard(sel[0]), True))
            else:
                out.append((tr.gettext("Pick a card"), None, False))
        if lids and len(out) < MAX_ACTIONS:
            out.append((tr.gettext("Use box lid"), "lid", True))
        return out[:MAX_ACTIONS]

    def command(self, panel: MakotoPanel, command: Any) -> None:
        session = self.session
        if session is None or panel.game_seat is None or panel.is_bot or self.attract:
            return
        g = panel.game_seat
        if command == "clear":
            panel.selected.clear()
        elif command == "lid":
            panel.lid_mode = not panel.lid_mode
            panel.selected.clear()
        elif command == "undo":
            self._take_back(g)
        elif isinstance(command, Action):
            st = self._state()
            snapshot = st.clone() if isinstance(command, Play) and st is not None else None
            if session.apply(g, command):
                panel.selected.clear()
                panel.lid_mode = False
                self._undo.clear()
                if (
                    snapshot is not None
                    and isinstance(session.state, MakotoState)
                    and session.state.phase == BLIND
                    and session.state.turn == g
                ):
                    self._undo[g] = snapshot
        panel.refresh()
        self._redraw()

    def _take_back(self, g: int) -> None:
        """Undo this seat's play (only offered in its own Blind step: nothing hidden revealed, nobody acted)."""
        session = self.session
        snapshot = self._undo.pop(g, None)
        st = self._state()
        if session is None or snapshot is None or st is None or st.turn != g or st.phase != BLIND:
            return
        session.state = snapshot
        if session.journal is not None and not session.attract:
            try:
                session.journal.sync(snapshot)  # writes a rewind record
            except Exception as exc:
                log.warning("journal rewind failed: %s", exc)
        session.dispatch("on_change", [])

    # ------------------------------------------------------------------------------------------- drawing
    def fill_panel(self, panel: MakotoPanel) -> None:
        """Private data of one panel (hand, prompt) from its own view only; the prompt in the seat's language."""
        st = self._state()
        if st is None or panel.game_seat is None:
            panel.hand, panel.drawn = [], None
            return
        view = st.view(panel.game_seat)
        hand = sorted(view["hand"], key=lambda c: (c % 20, c // 20))
        if hand != panel.hand:
            panel.selected.clear()
        panel.hand = hand
        panel.drawn = view["drawn"]
        phase = self.phase_of(panel)
        tr = panel.tr
        if panel.lid_mode:
            panel.prompt = tr.gettext("Box lid: take any one card from the Blind")
        elif phase == PLAY:
            cur = view["current"]
            if cur is None:
                panel.prompt = tr.gettext("You lead: play any combination")
            else:
                combo = combo_text(cur["type"], cur["size"], cur["rank"], tr)
                panel.prompt = tr.gettext("Beat {combination} or pass").format(combination=combo)
        elif phase == BLIND:
            n = view["played_count"] or 0  # set in the Blind phase
            panel.prompt = tr.ngettext(
                "Blind: put in one card lower than {low}, or take up to {n} card of one lower number",
                "Blind: put in one card lower than {low}, or take up to {n} cards of one lower number",
                n,
            ).format(low=view["played_low"], n=n)
        elif phase == ORACLE_STEP:
            drawn = card_text(panel.drawn, tr) if panel.drawn is not None else ""
            panel.prompt = tr.gettext("You drew {card}: discard any one card").format(card=drawn)
        else:
            panel.prompt = ""
        if not panel.hints:  # hint mode off at this seat: no prompt
            panel.prompt = ""

    def _open_on_turn(self, turn: int | None) -> None:
        """A human seat's turn started: its tray opens by itself (see
        :meth:`~kiosk.ui.seatzone.PrivateTray.turn_started`); it closes when the turn passes (:meth:`_on_change`)."""
        if turn == self._turn_seen:
            return
        self._turn_seen = turn
        session = self.session
        if turn is None or session is None or not 0 <= turn < len(session.seats) or session.is_bot(turn):
            return
        self.panels[session.seats[turn].index].ids.tray.turn_started()

    def _draw(self, *_a: Any) -> None:
        session = self.session
        st = self._state()
        if session is None or st is None:
            return
        v = st.view(None)
        turn = v["turn"]
        self._open_on_turn(turn if not (self.sheet or self.attract or st.is_over()) else None)
        for g, seat in enumerate(session.seats):
            panel = self.panels[seat.index]
            panel.my_turn = turn == g and not self.sheet
            self._fill_status(panel, g, v, st.is_over())
            self.fill_panel(panel)
            panel._fill()
        tr = self.tr
        labels = [seat_label(s, tr) for s in session.seats]
        self.centre_text = self._centre_text(v, labels, st.players)
        if turn is None:
            winners = v["winners"]
            headline = tr.ngettext("Game over: {names} wins", "Game over: {names} win", len(winners)).format(
                names=joined([labels[g] for g in winners], tr)
            )
        elif v["final_turn"]:
            headline = tr.gettext("Turn: {name} (last turn!)").format(name=labels[turn])
        else:
            headline = tr.gettext("Turn: {name}").format(name=labels[turn])
        if self.match is not None and self.match.games > 1:
            played = min(len(self.match.results) + (0 if self.sheet else 1), self.match.games)
            headline += "   " + tr.gettext("Game {n} of {games}").format(n=played, games=self.match.games)
        for sl in self.slices:
            sl.face = self.face
            sl.ids.centre.show(v, labels, headline, tr)
        self.sheet_text = self._sheet_text(labels) if self.sheet and self.match is not None else ""

    def _fill_status(self, panel: MakotoPanel, g: int, v: MakotoView, over: bool) -> None:
        """A seat's status column, in the seat's language."""
        tr = panel.tr
        if self.sheet:
            panel.status = tr.gettext("Score sheet")
        elif over:
            won = g in v["winners"]
            panel.status = tr.sym("\u2605") + " " + tr.gettext("Winner") if won else tr.gettext("Game over")
        elif g in v["out"]:
            place = tr.ordinal(v["out"].index(g) + 1)
            panel.status = tr.gettext("Out: {place} place (+{reward})").format(place=place, reward=v["rewards"][g])
        elif v["turn"] == g:
            doing = "" if self.replay_note else tr.gettext("Thinking...") if panel.is_bot else tr.gettext("Your turn")
            panel.status = tr.sym("\u25b6") + (" " + doing if doing else "")
        else:
            panel.status = ""
        total = self.match.totals()[g] if self.match is not None and self.match.games > 1 else None
        panel.hand_count = v["hand_sizes"][g]
        panel.info = tr.gettext("Won {points}").format(points=pts(v["won_points"][g], tr))
        panel.match_line = tr.gettext("Match total {total}").format(total=total) if total is not None else ""
        holds = v["lid_holder"] == g
        panel.lid = tr.sym("\u25a3") + " " + tr.gettext("Holds the box lid") if holds else ""

    def _centre_text(self, v: MakotoView, labels: list[str], players: int) -> str:
        """The table in a few lines of words, in the table's language."""
        tr = self.tr
        turn, cur = v["turn"], v["current"]
        if turn is None:
            head = tr.gettext("Game over")
        elif v["final_turn"]:
            head = tr.gettext("Turn: {name} (last turn!)").format(name=labels[turn])
        else:
            head = tr.gettext("Turn: {name}").format(name=labels[turn])
        if cur is not None:
            on_table = tr.gettext("{cards} ({combination}) by {name}").format(
                cards=cards_text(cur["cards"], tr),
                combination=combo_text(cur["type"], cur["size"], cur["rank"], tr),
                name=labels[cur["by"]],
            )
        else:
            on_table = tr.gettext("nothing: the next player leads")
        rewards = " ".join(str(r) for r in v["rewards_left"]) or tr.gettext("none")
        scores = "   ".join(f"{labels[g].split()[0]} {v['scores'][g]}" for g in range(players))
        lines = [
            head,
            tr.gettext("On the table: {play}").format(play=on_table),
            tr.gettext("Blind: {cards}").format(cards=grouped(v["blind"], tr)),
            tr.gettext("Oracle {symbol}: {deck} in deck, {discarded} discarded").format(
                symbol=tr.sym("\u2600"), deck=v["oracle_deck"], discarded=len(v["oracle_discard"])
            ),
            tr.gettext("Rewards left: {rewards}").format(rewards=rewards),
            tr.gettext("Points: {scores}").format(scores=scores),
        ]
        if self.match is not None and self.match.games > 1:
            n = min(len(self.match.results) + (0 if self.sheet else 1), self.match.games)
            lines.append(tr.gettext("Match: game {n} of {games}").format(n=n, games=self.match.games))
        return "\n".join(lines)

    def _sheet_text(self, labels: list[str]) -> str:
        """The score sheet between the games of a match, in the table's language."""
        assert self.match is not None
        tr = self.tr
        sheet = self.match.score_sheet()
        rows = [tr.gettext("Score sheet after game {n} of {games}").format(n=sheet["played"], games=sheet["games"])]
        for g, lb in enumerate(labels):
            games = " + ".join(str(r[g]) for r in sheet["rows"])
            rows.append(tr.gettext("{name}: {games} = {total}").format(name=lb, games=games, total=sheet["totals"][g]))
        lid = sheet["lid_holder"]
        if lid is not None:
            words = tr.gettext("Box lid for the next game: {name} (lowest score)").format(name=labels[lid])
            rows.append(tr.sym("\u25a3") + " " + words)
        rows.append(tr.gettext("Any player: 'Next game' (or seat button a)"))
        return "\n".join(rows)


#: The plug-in name the shell looks for (kiosk.ui.game.screen_class_for).
GameScreen = MakotoScreen
