"""A game being played at the table: the engine state, which table seat holds which game seat, and the bots.

:class:`GameSession` is what every game screen (the generic one and the per-game screens of later issues)
drives. Screens turn gestures into actions and call :meth:`GameSession.apply`; they redraw on ``on_change``.
Rules stay in the engine: an illegal action raises :class:`kiosk.engine.RuleError`, which the session turns into
``on_error(game_seat, error)`` (the :class:`~kiosk.engine.RuleError`: its message id and values) for the screen to
word in that seat's language (:func:`kiosk.ui.words.refusal_text`) and show there, and nothing changes.

Bots (empty seats, and every seat in attract mode) move at a watchable pace: ``move_delay`` seconds after the
position they answer appeared. A bot thinks on a clone of the state in a worker thread so the UI keeps drawing
while a search bot works; its answer is applied on the UI thread only if the game has not moved on meanwhile
(otherwise it thinks again). Bots never see more than the contract lets them (``choose(state)`` on a clone; the
shared bots determinize).

The journal: with ``journal`` (a ``kiosk.storage.GameJournal``), every applied action is synced to the card
(``journal.sync(state)``) before the table sees its result; a finished game ends it with the outcome, an
abandoned one with ``abandon("idle")``, and a crashed one is offered for resuming at the next start. Without a
journal (storage unavailable, attract mode) the session runs the same.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from kivy.clock import Clock
from kivy.event import EventDispatcher

from kiosk import clock
from kiosk.engine import Action, Event, GameSpec, RuleError, State
from kiosk.i18n import Translator, translator
from kiosk.seats import Seat

log = logging.getLogger("kiosk.session")

__all__ = ["GameSession", "describe_action", "format_value"]


def format_value(v: Any, tr: Translator | None = None) -> str:
    """A JSON-ready value as short readable text (lists joined with spaces, dicts as key: value); ``tr``: the
    reader's language (yes/no)."""
    if isinstance(v, (list, tuple)):
        return " ".join(format_value(x, tr) for x in v) if v else "-"
    if isinstance(v, dict):
        return ", ".join(f"{k}: {format_value(x, tr)}" for k, x in v.items())
    if isinstance(v, bool):
        tr = tr or translator("en")
        return tr.gettext("yes") if v else tr.gettext("no")
    if v is None:
        return "-"
    return str(v)


def describe_action(action: Action, tr: Translator | None = None) -> str:
    """An action as a button label: ``Play(cards=(7, 7))`` -> ``Play 7 7``; ``Pass()`` -> ``Pass``. With ``tr`` (the
    seat's, in the game's domain) the action's name is looked up in the game's catalog (a game marks its action
    names with ``N_`` to have them translated)."""
    data = action.to_json()
    name = data.pop("type")
    name = tr.gettext(name) if tr is not None else name
    parts = [format_value(v, tr) for v in data.values()]
    return " ".join([name] + [p for p in parts if p])


class GameSession(EventDispatcher):
    """One game at the table.

    ``seats[g]`` is the table :class:`~kiosk.seats.Seat` of game seat ``g``; ``bots`` maps game seats to bot
    objects (``choose(state)``); the other seats are humans. Events: ``on_change(events)`` after every applied
    action, ``on_error(game_seat, error)`` (a :class:`~kiosk.engine.RuleError`) for a refused one, ``on_over()``
    once when the game ends.
    """

    __events__ = ("on_change", "on_error", "on_over")

    def __init__(
        self,
        spec: GameSpec,
        state: State,
        seats: Sequence[Seat],
        bots: Mapping[int, Any],
        *,
        seed: int,
        move_delay: float = 1.0,
        attract: bool = False,
        journal: Any = None,
        bot_levels: Mapping[int, str] | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.spec = spec
        self.state = state
        self.seats = list(seats)
        self.bots = dict(bots)
        self.bot_levels = dict(bot_levels or {})
        self.seed = seed
        self.move_delay = move_delay
        self.attract = attract
        self.journal = journal
        #: JSON the screen gets back on resume (the journal header's ``meta``), e.g. a match's progress.
        self.meta: dict[str, Any] = {}
        #: ``factory(state, seed, setup, meta) -> journal`` for the next game of a series (see :meth:`next_game`);
        #: None: later games of a series run without a journal.
        self.journal_factory: Callable[..., Any] | None = None
        #: Games per match chosen on the joining screen (None: the game's own default).
        self.match_games: int | None = None
        #: A time trial's time in seconds, set by the game's screen when a lone player finishes (results then
        #: enter it on the game's time-trial board).
        self.trial_time: float | None = None
        #: The language of each human's table seat (:mod:`kiosk.i18n`), chosen on its join pad; a seat not in it
        #: reads :attr:`language`, the table's.
        self.languages: dict[int, str] = {}
        self.language = "en"
        self.started = clock.wall()
        self.last_events: list[Event] = []
        self.last_error: tuple[int, str] | None = None
        self._generation = 0
        self._thinking: set[int] = set()
        self._pending: dict[int, Any] = {}
        self._running = False
        self._over_sent = False

    # ----------------------------------------------------------------------------------------- queries
    @property
    def players(self) -> int:
        return self.state.players

    def humans(self) -> list[int]:
        return [g for g in range(self.players) if g not in self.bots]

    def game_seat_of(self, table_index: int) -> int | None:
        for g, seat in enumerate(self.seats):
            if seat.index == table_index:
                return g
        return None

    def set_languages(self, default: str, chosen: Any) -> None:
        """The table's language and the seats' own (``{"<table seat>": language}``, as the journal keeps it)."""
        from kiosk.i18n import LANGUAGES

        self.language = default
        if isinstance(chosen, dict):
            self.languages = {int(i): v for i, v in chosen.items() if str(i).isdigit() and v in LANGUAGES}

    def language_of(self, table_index: int) -> str:
        """The language a table seat reads (its own, else the table's)."""
        return self.languages.get(table_index, self.language)

    def is_bot(self, game_seat: int) -> bool:
        return game_seat in self.bots

    def who(self, game_seat: int, tr: Translator | None = None) -> str:
        """How a seat's panel names its player: "Player", "Bot" or "Bot (hard)" (in ``tr``'s language)."""
        tr = tr or translator("en")
        if not self.is_bot(game_seat):
            return tr.gettext("Player")
        level = self.bot_levels.get(game_seat, "")
        return tr.gettext("Bot ({level})").format(level=tr.level(level)) if level else tr.gettext("Bot")

    @property
    def running(self) -> bool:
        """False while the shell has paused the game (idle prompt, operator menu) or after it stopped."""
        return self._running

    def bot_delay(self, game_seat: int) -> float:
        """Seconds before a bot answers (``move_delay``; a screen that paces its bots itself may override it)."""
        return self.move_delay

    # ----------------------------------------------------------------------------------------- control
    def start(self) -> None:
        self._running = True
        self._schedule_bots()

    def close(self) -> None:
        """Stop for good (the kiosk is shutting down): bots stop, the journal file is closed but stays
        unfinished, so the game is offered for resuming at the next start."""
        self.stop()
        if self.journal is not None:
            try:
                self.journal.close()
            except Exception as exc:
                log.warning("journal close failed: %s", exc)

    def stop(self) -> None:
        """Stop the bots (pending answers are dropped); the state stays as it is."""
        self._running = False
        self._generation += 1
        for ev in self._pending.values():
            ev.cancel()
        self._pending.clear()
        self._thinking.clear()

    def pause(self) -> None:
        self.stop()

    def resume(self) -> None:
        self.start()

    def replace_with_bot(self, game_seat: int, bot: Any, level: str) -> None:
        """A human left: ``bot`` (of ``level``) plays game seat ``game_seat`` from now on, from the position as it
        stands (a bot thinks from ``state``, so nothing of the game changes)."""
        if game_seat in self.bots:
            raise ValueError(f"game seat {game_seat} is a bot already")
        self.bots[game_seat] = bot
        self.bot_levels[game_seat] = level
        if self.journal is not None and not self.attract:  # a resumed game keeps the bot at that seat
            try:
                self.journal.set_seats(self.seat_list())
            except Exception as exc:  # storage trouble must not stop the game
                log.warning("the bot's seat is not in the journal: %s", exc)
        self._generation += 1
        self._schedule_bots()

    def seat_list(self) -> list[dict[str, Any]]:
        """Who sits where, as the journal keeps it: per game seat, its table seat and its bot's level (None for
        a human)."""
        return [
            {"seat": seat.index, "bot": self.bot_levels.get(g) if g in self.bots else None}
            for g, seat in enumerate(self.seats)
        ]

    def apply(self, game_seat: int, action: Action) -> bool:
        """Apply an action for a game seat; False (and ``on_error``) when the engine refuses it."""
        if self.state.is_over():
            self.dispatch("on_error", game_seat, RuleError("The game is over"))
            return False
        try:
            events = self.state.apply(game_seat, action)
        except RuleError as exc:
            self.last_error = (game_seat, str(exc))
            self.dispatch("on_error", game_seat, exc)
            return False
        self.last_events = list(events or [])
        self._generation += 1
        self._write_journal()
        self.dispatch("on_change", self.last_events)
        if self.state.is_over():
            self._running_over()
        else:
            self._schedule_bots()
        return True

    def next_game(
        self, state: State, *, seed: int, setup: Mapping[str, Any] | None = None, meta: Mapping[str, Any] | None = None
    ) -> None:
        """The next game of a series (a Makoto match) replaces the finished one in this session.

        The finished game's journal ends as finished, with its outcome (archived), and the new game gets a
        journal of its own with its ``setup`` and ``meta`` (the series so far), so a crash resumes the series
        at this game. Call it from an ``on_change`` handler when the game just ended.
        """
        if self.journal is not None and not self.attract:
            self._finish_journal()
        self.journal = None
        self.state = state
        self.meta = dict(meta or {})
        self._generation += 1
        if self.journal_factory is not None and not self.attract:
            try:
                self.journal = self.journal_factory(state, seed, dict(setup or {}), self.meta)
            except Exception as exc:  # storage trouble must not stop the game
                log.warning("no journal for the next game: %s", exc)

    def _running_over(self) -> None:
        self.stop()
        if not self._over_sent:
            self._over_sent = True
            self._finish_journal()
            self.dispatch("on_over")

    # ----------------------------------------------------------------------------------------- bots
    def _schedule_bots(self) -> None:
        if not self._running or self.state.is_over():
            return
        for g in self.state.to_move():
            if g in self.bots and g not in self._pending and g not in self._thinking:
                self._pending[g] = Clock.schedule_once(partial(self._bot_think, g, self._generation), self.bot_delay(g))

    def _bot_think(self, g: int, generation: int, _dt: float) -> None:
        self._pending.pop(g, None)
        if not self._running or generation != self._generation or g not in self.state.to_move():
            self._schedule_bots()
            return
        try:
            snapshot = self.state.clone()
        except NotImplementedError:
            snapshot = None
        if snapshot is None:  # no clone: think on the UI thread (a random bot is instant)
            self._bot_answer(g, generation, self.bots[g].choose(self.state), 0)
            return
        self._thinking.add(g)
        clock.background(partial(self._bot_worker, g, generation, snapshot), f"bot-{self.spec.key}-{g}")

    def _bot_worker(self, g: int, generation: int, snapshot: State) -> None:
        try:
            action = self.bots[g].choose(snapshot)
        except Exception as exc:  # a bot bug must not freeze the table: fall back to the first legal action
            log.exception("bot %s of %s failed: %s", g, self.spec.key, exc)
            action = None
        Clock.schedule_once(partial(self._bot_answer, g, generation, action), 0)

    def _bot_answer(self, g: int, generation: int, action: Action | None, _dt: float) -> None:
        self._thinking.discard(g)
        if not self._running:
            return
        if generation != self._generation or g not in self.state.to_move():
            self._schedule_bots()  # the game moved on while the bot thought: think again
            return
        if action is None:
            action = self.state.legal_actions(g)[0]
        if not self.apply(g, action):
            log.warning("bot %s chose an illegal action %s; playing the first legal one", g, action)
            self.apply(g, self.state.legal_actions(g)[0])

    # ----------------------------------------------------------------------------------------- journal
    def _write_journal(self) -> None:
        if self.journal is None or self.attract:
            return
        try:
            self.journal.sync(self.state)
        except Exception as exc:  # storage trouble must not stop the game
            log.warning("journal write failed: %s", exc)

    def _finish_journal(self) -> None:
        if self.journal is None or self.attract:
            return
        outcome: Any = self.state.outcome()
        if outcome is not None and self.trial_time is not None:  # a time trial's time, for the day's best
            outcome = {**dataclasses.asdict(outcome), "time": self.trial_time}
        try:
            self.journal.finish(outcome)
        except Exception as exc:
            log.warning("journal finish failed: %s", exc)

    def abandon(self, reason: str = "abandoned") -> None:
        """Stop the game and close its journal as abandoned (saved: the archive keeps it)."""
        self.stop()
        if self.journal is not None and not self.attract and not self.state.is_over():
            try:
                self.journal.abandon(reason)
            except Exception as exc:
                log.warning("journal abandon failed: %s", exc)

    # default handlers
    def on_change(self, events: list[Event]) -> None:
        pass

    def on_error(self, game_seat: int, error: RuleError) -> None:
        pass

    def on_over(self) -> None:
        pass
