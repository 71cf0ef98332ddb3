"""Replays: the day's best game of each title in the attract cycle, and "Watch again" on the results screen.

The day's best come from the journal archive (:mod:`kiosk.bestgames`, read when attract mode begins). A journal
is checked whole before its first move is shown: read, replayed by the engine to its end, and its final scores
compared with its end record; one that fails (damaged, another version of the rules, a game not installed, a
seat this table no longer has) is skipped with one log line and never shown (the day's next best on its board
is, if there is one). A replay is read-only: its session keeps no journal, records no play and enters no score
(:class:`kiosk.shell.replaycorners.ReplaySession`).

Watch again (decision): any touch on the table or any seat button skips it, back to the results; the corners say
so in the languages of the players on their edge.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock

from kiosk.bestgames import Played, choose_best, day_played
from kiosk.engine import trial_board
from kiosk.i18n import translator
from kiosk.shell.replaycorners import ReplayCorners, ReplaySession
from kiosk.storage.journal import SUFFIX, load_journal, replay_journal

from .seathelp import mark_badges

if TYPE_CHECKING:
    from kiosk.shell.doors import ReplayDoor

log = logging.getLogger("kiosk.shell.replays")

__all__ = ["ReplayRoom", "ATTRACT_PACE", "WATCH_PACE"]

#: (the whole game's seconds at most, one move's at most): attract mode's pace, and Watch again's (faster).
ATTRACT_PACE = (90.0, 1.2)
WATCH_PACE = (30.0, 0.6)
#: Seconds the final position stays before attract mode goes on, or Watch again returns to the results.
HOLD_S = 3.0


class ReplayRoom:
    """Shows replays (:meth:`show_best` in attract mode, :meth:`watch_again` after a game); :attr:`session` is the
    replay on screen."""

    def __init__(self, app: ReplayDoor) -> None:
        self.app = app
        self.session: ReplaySession | None = None
        #: Watch again is on screen (mode "replay"); a touch or a seat button ends it.
        self.watching = False
        #: the day's best per board, as :meth:`refresh` found them
        self.best: dict[str, Played] = {}
        self._skip: set[str] = set()  # journals found unreplayable (logged once)
        self._turn: dict[str, int] = {}
        self._corners: ReplayCorners | None = None
        self._ev: Any = None

    @property
    def enabled(self) -> bool:
        return bool(self.app.cfg.attract.replays) and bool(self.app.saved_games.available)

    # ---------------------------------------------------------------------------------------------- attract
    def refresh(self) -> None:
        """Read the day's best from the archive again (attract mode begins)."""
        if not self.enabled:
            self.best = {}
            return
        lower = {k: s.lower_is_better for k, s in self.app.games.items()}
        archive = self.app.saved_games.archive
        played = day_played(archive, datetime.date.today()) if archive is not None else []
        self.best = choose_best(played, lower, self._skip)

    def has_best(self, key: str) -> bool:
        return any(p.game == key for p in self.best.values())

    def show_best(self, key: str, on_over: Callable[..., None]) -> float | None:
        """Replay game ``key``'s best of the day with its caption (a game with a time trial: the best game and the
        fastest trial in turn); the seconds it may take, or None when there is none to show."""
        boards = [b for b in (key, trial_board(key)) if b in self.best]
        turn = self._turn.get(key, 0)
        self._turn[key] = turn + 1
        for board in boards[turn % len(boards) :] + boards[: turn % len(boards)] if boards else []:
            while board in self.best:
                played = self.best[board]
                session = self._prepare(played.path, ATTRACT_PACE)
                if session is None:  # skipped from now on: the day's next best on that board, if any
                    self.refresh()
                    continue
                tr = translator(self.app.cfg.language.default)
                text = self._caption(played, session, tr)
                self._start(session, on_over, None)
                self._say(dict.fromkeys(("bottom", "right", "left", "top"), (text, tr.face)))
                return sum(session.delays) + HOLD_S + 5.0
        return None

    def _caption(self, played: Played, session: ReplaySession, tr: Any) -> str:
        """ "Today's best / Maki / KEN: 212 points / Played at 14:05": initials, else the seat's symbol and name."""
        spec = self.app.games[played.game]
        score, g = played.score(played.time_s is not None or spec.lower_is_better)
        seat = session.seats[g]
        who = session.names.get(g) or f"{tr.sym(seat.symbol)} {tr.seat_name(seat.name)}"
        if played.time_s is not None:
            shown = tr.gettext("{seconds} s").format(seconds=tr.number(round(score / 1000, 2), "0.00"))
        else:
            shown = tr.ngettext("{n} point", "{n} points", score).format(n=tr.number(score))
        lines = [tr.gettext("Today's best game"), spec.title, tr.gettext("{who}: {score}").format(who=who, score=shown)]
        return "\n".join(lines + [tr.gettext("Played at {time}").format(time=tr.time(played.ended, "HH:mm"))])

    # ---------------------------------------------------------------------------------------------- watch again
    def can_watch(self, journal_id: str) -> bool:
        """Whether the game of ``journal_id`` (just finished) can be watched again."""
        path = self._path(journal_id) if journal_id else None
        return self.enabled and path is not None and path.is_file()

    def watch_again(self, journal_id: str, languages: Mapping[int, str]) -> bool:
        """Replay the game just finished, fast, facing its players (``languages``: table seat -> language); the
        results come back when it ends or is skipped. False (nothing shown) when its journal does not replay."""
        path = self._path(journal_id)
        session = self._prepare(path, WATCH_PACE) if path is not None else None
        if session is None:
            return False
        session.set_languages(self.app.cfg.language.default, {str(i): v for i, v in languages.items()})
        self.watching = True
        self._start(session, lambda *_a: self._later(HOLD_S, self.skip), "replay")
        texts = {}
        for edge in ("bottom", "right", "left", "top"):
            langs = sorted({languages[s.index] for s in session.seats if s.edge == edge and s.index in languages})
            langs = langs or [self.app.cfg.language.default]
            trs = [translator(lang) for lang in langs]
            words = ["\n".join([t.gettext("Watch again"), t.gettext("Touch anywhere to skip")]) for t in trs]
            texts[edge] = ("\n".join(words), next((t.face for t in trs if t.face), ""))
        self._say(texts)
        return True

    def skip(self, *_a: Any) -> None:
        """A touch or a seat button during Watch again: back to the results."""
        if self.watching:
            self.stop()
            self.app.show("results", mode="results")
            self.app.results.resume()

    # ---------------------------------------------------------------------------------------------- the replay
    def _path(self, journal_id: str) -> Path | None:
        """The finished game's journal in the archive; None when the games are not kept (storage unavailable)."""
        archive = self.app.saved_games.archive
        return None if archive is None else archive / f"{journal_id}{SUFFIX}"

    def _prepare(self, path: Path, pace: tuple[float, float]) -> ReplaySession | None:
        """The replay of the journal at ``path``, checked whole (see the module docstring), or None (logged)."""
        if path.stem in self._skip:
            return None
        try:
            loaded = load_journal(path)
            h, end = loaded.header, loaded.end
            if h is None or end is None or loaded.problem or end.get("end") != "finished":
                raise ValueError(loaded.problem or "not a finished game")
            spec = self.app.games.get(h["game"])
            if spec is None:
                raise ValueError(f"the game {h['game']!r} is not installed")
            state, acknowledged = replay_journal(loaded, spec)
            if acknowledged is not loaded or list(state.scores()) != list((end.get("outcome") or {})["scores"]):
                raise ValueError("it does not end as recorded")
            seats = [self.app.table[int(s["seat"])] for s in h["seats"] if 0 <= int(s["seat"]) < len(self.app.table)]
            if len(seats) != h["players"]:
                raise ValueError("a seat this table does not have")
            levels = {g: str(s["bot"]) for g, s in enumerate(h["seats"]) if s.get("bot")}
            names = self._initials(h["id"], h["game"], (end.get("outcome") or {}).get("time") is not None)
            return ReplaySession(
                spec, h["players"], h["seed"], h.get("setup"), loaded.records, seats,
                names=names, levels=levels, total_s=pace[0], longest_s=pace[1],
            )  # fmt: skip
        except Exception as exc:  # anything from the card is untrusted: one line, and the journal is not shown
            self._skip.add(path.stem)
            log.warning("replay of %s skipped: %s", path.name, exc)
            return None

    def _initials(self, journal_id: str, game: str, trial: bool) -> dict[int, str]:
        """Game seat -> the initials its guest entered for this game (the scores keep the journal's id)."""
        scores = self.app.scores
        if not scores.available:
            return {}
        entries = scores.top_today(trial_board(game) if trial else game, 100)
        return {
            int(e.details["game_seat"]): e.name
            for e in entries
            if e.details.get("journal") == journal_id and isinstance(e.details.get("game_seat"), int)
        }

    def _start(self, session: ReplaySession, on_over: Callable[..., None], mode: str | None) -> None:
        screen = self.app.game_screens.screen_for(session.spec.key)
        screen.begin(session)
        mark_badges(screen, session)  # each badge in its seat's language (no seat menu: nobody plays)
        session.mark_trays(screen, True)
        session.bind(on_over=on_over)
        self.session = session
        self.app.show(screen.name, mode=mode)
        session.start()

    def _say(self, texts: dict[str, tuple[str, str]]) -> None:
        if self._corners is None:
            self._corners = ReplayCorners(self.app.table)
        self._corners.say(texts, self.session.seats if self.session is not None else ())
        if self._corners.parent is None and self.app.root is not None:
            self.app.root.add_widget(self._corners)

    def _later(self, seconds: float, then: Callable[..., None]) -> None:
        if self._ev is not None:
            self._ev.cancel()
        self._ev = Clock.schedule_once(then, seconds)

    def stop(self) -> None:
        """Take the replay off the screen (attract mode moves on, a player arrived, Watch again ends)."""
        from kiosk.ui import motion  # (the pieces' motion: loaded with the first game, off start-up)

        if self._ev is not None:
            self._ev.cancel()
            self._ev = None
        self.watching = False
        if self._corners is not None and self._corners.parent is not None:
            self._corners.parent.remove_widget(self._corners)
        session, self.session = self.session, None
        if session is None:
            return
        session.stop()
        motion.clear()
        screen = self.app.game_screens.get(session.spec.key)
        if screen is not None and screen.session is session:
            session.mark_trays(screen, False)
            screen.end()
