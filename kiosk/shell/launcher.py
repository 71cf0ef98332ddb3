"""The game launcher: starts a game from the joining screen (or a resumed one from its journal), plays the game's
sounds, and hands a finished game to the results screen. The game screens: :mod:`kiosk.shell.screens`; hint mode
and leaving a game at a seat: :mod:`kiosk.shell.seathelp`.
"""

from __future__ import annotations

import datetime
import functools
import logging
import random
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.properties import ObjectProperty

from kiosk.ai import make_bot
from kiosk.engine import Event, GameSpec, State
from kiosk.session import GameSession
from kiosk.ui.game import BaseGameScreen

from .screens import GameScreens
from .seathelp import mark_badges

if TYPE_CHECKING:
    from kiosk.shell.doors import LauncherDoor

log = logging.getLogger("kiosk.shell.launcher")

__all__ = ["GameLauncher", "Seats"]

#: [(table seat index, None for a human or a bot level)], clockwise.
Seats = list[tuple[int, "str | None"]]


class GameLauncher(EventDispatcher):
    """Owns the game in progress and the game screens (:attr:`game_screens`). It publishes the game in progress as
    its one Kivy property :attr:`session` (the router re-publishes it as ``app.session`` for the other rooms)."""

    #: The game in progress (a :class:`GameSession`), None between games.
    session = ObjectProperty(None, allownone=True)

    def __init__(self, app: LauncherDoor) -> None:
        super().__init__()
        self.app = app
        #: The guests' games' seeds (its own generator: attract mode's draws never shift them).
        self.rng = random.Random(f"{app.seed}:games")
        #: "game:<key>" / "game:generic" and every game key -> its screen (the app's: other rooms show them too)
        self.game_screens: GameScreens = app.game_screens
        self.last_join: tuple[str, Seats] | None = None
        self.last_languages: dict[str, str] = {}  # its humans' own languages: "Play again" keeps them
        #: Table seats whose human finished a game, per day ("2026-12-01" -> indices): hint mode starts off there.
        self.finished_today: dict[str, set[int]] = {}
        self._results_ev: Any = None  # the finished game's results, shown in a moment (see _over)

    def screen_for(self, key: str) -> BaseGameScreen:
        """The screen for a game (see :meth:`GameScreens.screen_for`)."""
        return self.game_screens.screen_for(key)

    # ---------------------------------------------------------------------------------------------- starting
    def start(self, key: str, seats: Seats, match_games: int | None = None, seed: int | None = None) -> None:
        """A new game of ``key``: journal it, count the play, tell the hardware who plays, launch it. ``seed``:
        drawn from the launcher's own generator unless given."""
        app = self.app
        spec = app.games[key]
        chairs = sorted(seats)  # clockwise
        spec.check_players(len(chairs))
        if seed is None:
            seed = self.rng.randrange(2**31)
        state = spec.new_game(len(chairs), seed)
        seats = state.seating(chairs)  # seat 0 starts: drawn from the seed where the rulebook says "at random"
        meta: dict[str, Any] = {} if match_games is None else {"match_games": match_games}
        self.last_languages = app.join_screen.languages_for(spec) if app.is_built("join_screen") else {}
        meta.update({"languages": self.last_languages} if self.last_languages else {})  # a resumed game reads them
        journal = None
        if app.saved_games.available:
            try:
                journal = app.saved_games.start(
                    key, len(seats), seed, state=state, meta=meta, seats=[{"seat": i, "bot": lv} for i, lv in seats]
                )
            except Exception as exc:
                log.warning("no journal for this game: %s", exc)
        self.last_join = (key, chairs)
        if app.scores.available:
            try:
                app.scores.record_play(key)
            except Exception as exc:
                log.warning("play count not saved: %s", exc)
        status = app.hardware.status
        if status is not None:  # None without the hardware package
            try:
                status.game_started([i for i, _ in seats])
            except Exception as exc:
                log.debug("status.game_started: %s", exc)
        self.launch(spec, state, seats, seed, journal, meta)

    def resume(self, offer: Any) -> None:
        """Go on with an unfinished game (a :class:`kiosk.storage.UnfinishedGame`)."""
        state, journal = offer.resume()
        assignment = [(int(s["seat"]), s.get("bot")) for s in offer.seats or []]
        self.launch(self.app.games[offer.game], state, assignment, int(offer.seed), journal, dict(offer.meta or {}))

    def launch(self, spec: GameSpec, state: State, seats: Seats, seed: int, journal: Any, meta: dict[str, Any]) -> None:
        app = self.app
        app.stop_bots()
        bots = {}
        levels = {}
        for g, (_index, level) in enumerate(seats):
            if level is not None:
                lv = level if level in spec.bots else next(iter(spec.bots))
                bots[g] = make_bot(spec, lv, g, seed * 1009 + g * 7919 + 1, app.bot_iterations)
                levels[g] = lv
        session = GameSession(
            spec,
            state,
            [app.table[i] for i, _ in seats],
            bots,
            seed=seed,
            move_delay=app.cfg.bots.move_delay_s,
            journal=journal,
            bot_levels=levels,
        )
        session.bind(on_over=self._over, on_change=self.on_change, on_error=self._on_error)
        session.meta = dict(meta)
        session.set_languages(app.cfg.language.default, meta.get("languages"))
        if "match_games" in meta:
            session.match_games = meta["match_games"]
        saved = app.saved_games
        if saved.available:

            def journal_factory(
                next_state: State, next_seed: int, setup: dict[str, Any], next_meta: dict[str, Any]
            ) -> Any:
                seats_now = session.seat_list()  # a seat a bot took over stays a bot in the next game
                return saved.start(
                    spec.key, len(seats), next_seed, state=next_state, seats=seats_now, meta=next_meta, setup=setup
                )

            session.journal_factory = journal_factory
        self.session = session
        screen = self.screen_for(spec.key)
        screen.begin(session)
        mark_badges(screen, session)
        done = self.finished_today.get(datetime.date.today().isoformat(), set())
        for g in session.humans():
            zone = screen.panels.get(session.seats[g].index)
            if zone is not None:
                zone.hints = session.seats[g].index not in done
        app.hub.note_input()
        # and again once it is drawn: a screen's first frame (built when first shown) may take a moment
        Clock.schedule_once(lambda _dt: app.hub.note_input(), 0)
        app.show(screen.name, mode="game")
        # the results screen (built on demand) is built during the game, not in the frame its last move ends it
        Clock.schedule_once(lambda _dt: app.prepare("results"), 1.0)
        if session.humans():  # (a resumed game may start from attract mode, without the picker)
            app.ensure_ready(guests=True)
        session.start()
        if state.is_over():
            self._over()

    def play_again(self) -> None:
        """ "Play again" on the results screen: the joining screen with the same seats and bot levels."""
        if self.last_join is None:
            self.app.go_attract()
            return
        key, seats = self.last_join
        self.app.open_join(key, None)
        self.app.join_screen.seat_again(seats, self.last_languages)

    # ---------------------------------------------------------------------------------------------- playing
    def on_change(self, session: GameSession, events: list[Event]) -> None:
        if session.attract:
            return
        kinds = {e.kind for e in events}
        self.app.sounds.play("claim" if any("claim" in k or "won" in k for k in kinds) else "place")

    def _on_error(self, *_a: Any) -> None:
        self.app.sounds.play("error")

    def _over(self, *_a: Any) -> None:
        """The game is over: its results in a moment (the last move is seen first). The moment belongs to this
        game: ended (or replaced by a new game) before then, no results are shown for another game."""
        self.app.sounds.play("win")
        if self._results_ev is not None:
            self._results_ev.cancel()
        self._results_ev = Clock.schedule_once(functools.partial(self._results, self.session), 1.5)

    def _results(self, ended: GameSession | None, _dt: float) -> None:
        self._results_ev = None
        app = self.app
        session: GameSession | None = self.session
        if session is None or session is not ended or app.mode != "game":
            return
        if session.state.is_over():
            today = self.finished_today.setdefault(datetime.date.today().isoformat(), set())
            self.finished_today = {datetime.date.today().isoformat(): today}  # only today's are kept
            today.update(session.seats[g].index for g in session.humans())
        app.results.setup(session, app.scores, app.cfg.timeouts.initials_s, app.cfg.timeouts.results_s)
        self.end()
        app.show("results", mode="results")
        app.unprompt()  # a "Still playing?" still up when the last move came goes with its game

    def end_game(self, reason: str = "ended") -> None:
        """End the game in progress without results (the last player left, or the operator ended it): saved as
        abandoned, then attract mode."""
        if self.session is None:
            return
        self.abandon(reason)
        self.app.go_attract()

    def pause(self) -> None:
        if self.session is not None:
            self.session.pause()

    def resume_play(self) -> None:
        if self.session is not None:
            self.session.resume()

    def abandon(self, reason: str) -> None:
        """Save the game as abandoned (its journal is closed, not offered again) and end it."""
        if self.session is not None:
            self.session.abandon(reason)
        self.end()

    def end(self) -> None:
        """Stop the game in progress and release its screen (the journal stays as it is)."""
        if self.app.is_built("seat_menus"):
            self.app.seat_menus.close_all()
        if self._results_ev is not None:  # a finished game's results are not shown over what comes next
            self._results_ev.cancel()
            self._results_ev = None
        session = self.session
        if session is None:
            return
        session.stop()
        session.unbind(on_over=self._over, on_change=self.on_change, on_error=self._on_error)
        screen = self.game_screens.get(session.spec.key)
        if screen is not None and screen.session is session:
            screen.end()
            mark_badges(screen, None)
        self.session = None

    def close(self) -> None:
        """The app stops: an unfinished game keeps its journal, to be offered at the next start."""
        if self.session is not None:
            self.session.close()
