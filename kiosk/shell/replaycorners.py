"""A finished game replayed from its journal on its own game screen, and the words laid over it.

:class:`ReplaySession` is a :class:`~kiosk.session.GameSession` whose moves come from the journal, one at a
time on Kivy's clock at the pace :func:`kiosk.bestgames.pace` gives, each applied with the journal's recorded
chance outcomes (:func:`kiosk.engine.recorded_chance`). Every seat counts as a bot for the screen (trays locked,
no buttons, no turn prompts), so what a seat held stays as hidden as during the game; it is an attract session,
so nothing is journaled, scored or sounded. :class:`ReplayCorners` shows the caption (attract mode) or the
"Watch again" notice (after a game) in the four corners, which belong to no seat, each facing one edge.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from kivy.clock import Clock
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from kiosk.bestgames import pace
from kiosk.engine import Action, GameSpec, recorded_chance
from kiosk.i18n import Translator, translator
from kiosk.seats import Seat, SeatMap
from kiosk.session import GameSession

log = logging.getLogger("kiosk.shell.replaycorners")

__all__ = ["ReplaySession", "ReplayCorners", "ReplayCorner"]


class ReplaySession(GameSession):
    """The game of ``records`` (a journal's engine records) from its start, replayed over about ``total_s`` seconds.
    ``names``: game seat -> the initials to show for a guest (else none); ``levels``: the bots' seats."""

    #: what the game screens read to say "(replay)" beside the title (:class:`kiosk.ui.game.BaseGameScreen`)
    replay = True

    def __init__(
        self,
        spec: GameSpec,
        players: int,
        seed: int,
        setup: Mapping[str, Any] | None,
        records: Sequence[Mapping[str, Any]],
        seats: Sequence[Seat],
        *,
        names: Mapping[int, str],
        levels: Mapping[int, str],
        total_s: float,
        longest_s: float,
    ) -> None:
        self._feed: Iterator[Mapping[str, Any]] = iter([r for r in records if "chance" in r])
        with recorded_chance(self._feed):
            state = spec.start(players, seed, setup)
        super().__init__(spec, state, seats, {}, seed=seed, attract=True, bot_levels=levels)
        self.moves: list[tuple[int, Action]] = [
            (int(r["seat"]), spec.action_from_json(r["action"])) for r in records if "chance" not in r
        ]
        self.delays = pace([(g, type(a).__name__) for g, a in self.moves], total_s, longest_s)
        self.names = dict(names)
        #: How many of the moves are on screen.
        self.done = 0
        self._step_ev: Any = None

    def is_bot(self, game_seat: int) -> bool:
        return True  # nobody plays: no seat takes a touch, every tray stays closed

    def humans(self) -> list[int]:
        return []

    def who(self, game_seat: int, tr: Translator | None = None) -> str:
        tr = tr or translator("en")
        if game_seat in self.bot_levels:
            return tr.gettext("Bot ({level})").format(level=tr.level(self.bot_levels[game_seat]))
        return self.names.get(game_seat, "")  # a guest: only initials, else nothing (the seat's colour says who)

    def _schedule_bots(self) -> None:
        """The recorded moves take the bots' place: the next one after its delay."""
        if not self.running or self.done >= len(self.moves) or self._step_ev is not None:
            return
        self.move_delay = self.delays[self.done]  # motion is drawn at a watchable pace (kiosk.ui.motion.wanted)
        self._step_ev = Clock.schedule_once(self._step, self.move_delay)

    def _step(self, _dt: float) -> None:
        self._step_ev = None
        if not self.running or self.done >= len(self.moves):
            return
        g, action = self.moves[self.done]
        self.done += 1
        with recorded_chance(self._feed):
            if not self.apply(g, action):  # checked before it was shown: only a changed engine gets here
                log.warning("replay of %s stopped at move %d: %s", self.spec.key, self.done, self.last_error)
                self.stop()

    def stop(self) -> None:
        super().stop()
        if self._step_ev is not None:
            self._step_ev.cancel()
            self._step_ev = None

    def mark_trays(self, screen: Any, replaying: bool) -> None:
        """While replaying, a guest's closed tray shows no bot's picture (its seat counts as a bot's only to keep the
        tray shut); after it (``replaying`` False) every tray shows what its seat's ``bot`` says again."""
        for g, seat in enumerate(self.seats):
            tray = screen.focus_tray(seat.index)
            if tray is not None:
                tray.on_bot(tray, tray.bot)
                if replaying and g not in self.bot_levels:
                    tray.bot_picture = ""


class ReplayCorner(Label):
    """One corner's words, drawn turned by ``rotation`` about its centre (its kv rule: ``layouts/replay.kv``)."""

    rotation = NumericProperty(0)
    edge = StringProperty("bottom")
    face = StringProperty("")

    def on_touch_down(self, touch: Any) -> bool:
        return False  # the table's gestures decide what a touch does (kiosk.shell.gestures)


class ReplayCorners(Widget):
    """The four corners' words over a replay (:meth:`say`). A corner the game's centre takes (nobody plays at one
    of its edges, so the centre's texts reach it) stays empty: the words never lie over the game's."""

    def __init__(self, table: SeatMap, **kw: Any) -> None:
        super().__init__(**kw)
        self.table = table
        self.corners: list[ReplayCorner] = []
        for edge in ("bottom", "right", "left", "top"):  # the corners' order: sw, se, nw, ne (SeatMap.corners)
            corner = ReplayCorner(edge=edge, rotation=table.facing_edge_rotation(edge))
            self.corners.append(corner)
            self.add_widget(corner)
        self._texts: Mapping[str, tuple[str, str]] = {}
        self._seats: Sequence[Seat] = ()
        self.bind(size=self._layout, pos=self._layout)

    def say(self, texts: Mapping[str, tuple[str, str]], seats: Sequence[Seat]) -> None:
        """``texts``: edge -> (text, face) for the corner facing that edge; ``seats``: the game's."""
        self._texts, self._seats = dict(texts), list(seats)
        self._layout()

    def on_touch_down(self, touch: Any) -> bool:
        return False

    def _layout(self, *_a: Any) -> None:
        # (Kivy's window opens on its first import: not when tools import this module)
        from kivy.core.window import Window

        w, h = Window.size
        centre = self.table.centre(w, h, self._seats)
        for corner, r in zip(self.corners, self.table.corners(w, h), strict=True):
            corner.size_hint = (None, None)
            corner.size = (r.w, r.h)
            corner.pos = (r.x, r.y)
            shown = not centre.contains(*r.center)
            corner.text, corner.face = self._texts.get(corner.edge, ("", "")) if shown else ("", "")
