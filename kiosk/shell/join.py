"""Seat joining: every seat has its own join pad facing it; empty seats can take a bot; start when enough.

Every pad speaks its seat's language (:mod:`kiosk.i18n`): its language button cycles through the table's enabled
languages, showing each one's own name; the centre speaks the table's default language.

Rationale and decisions: docs/developer/design.md, section ``kiosk/shell/join.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.properties import (
    BooleanProperty,
    DictProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.screenmanager import Screen

from kiosk.config import BOT_LEVELS, LanguageConfig
from kiosk.engine import GameSpec
from kiosk.i18n import LANGUAGES, SOURCE, translator
from kiosk.inputs import SeatEvent
from kiosk.shell.howto import howto_steps, players_text
from kiosk.ui.focus import FocusRing, reading_order, top_layer, walk_choices
from kiosk.ui.seatzone import SeatZone
from kiosk.ui.speaks import Speaks
from kiosk.ui.words import join_words

__all__ = ["JoinScreen", "JoinPad"]

_LEVEL_CYCLE = ("easy", "normal", "hard", "random")


class JoinPad(SeatZone):
    mode = OptionProperty("empty", options=["empty", "human", "bot"])
    level = StringProperty("normal")
    full = BooleanProperty(False)
    can_start = BooleanProperty(False)
    screen = ObjectProperty(None, allownone=True)
    #: whether the language button shows (more than one language enabled, and no bot in the seat)
    can_choose_language = BooleanProperty(False)

    def level_name(self, level: str) -> str:
        """A bot level in the seat's language."""
        return str(self.tr.level(level))


class JoinScreen(Speaks, Screen):
    table = ObjectProperty(None)
    facing = OptionProperty("bottom", options=["bottom", "right", "top", "left"])
    title = StringProperty("")
    need = StringProperty("")
    summary = StringProperty("")
    can_start = BooleanProperty(False)
    default_level = StringProperty("normal")
    seats_state = DictProperty({})
    match_choices = ListProperty([])
    match_games = NumericProperty(1)
    match_label = StringProperty("")
    #: the languages a seat may choose, in cycling order (``language``: the table's, the centre's)
    languages = ListProperty([SOURCE])

    def __init__(
        self,
        on_start: Callable[[str, list[tuple[int, str | None]]], None] | None = None,
        on_back: Callable[[], None] | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.on_start = on_start
        self.on_back = on_back
        self.spec: GameSpec | None = None
        self.pads: dict[int, JoinPad] = {}
        #: every joined seat's button highlight (see :mod:`kiosk.ui.focus`)
        self.focus = FocusRing(self)
        self._focus_layer: Any = None
        for seat in self.table.seats if self.table is not None else []:
            pad = JoinPad(table=self.table, seat=seat, screen=self)
            self.pads[seat.index] = pad
            self.ids.seat_layer.add_widget(pad)

    # ------------------------------------------------------------------------------------------- setup
    def setup(
        self, spec: GameSpec, chooser: int | None, default_level: str, languages: LanguageConfig | None = None
    ) -> None:
        """Every pad empty and in the table's language (``languages``: the config's ``language`` section)."""
        self.focus.reset()
        if languages is not None:
            self.language, self.languages = languages.default, list(languages.enabled)
        self.spec = spec
        self.title = spec.title
        self.default_level = default_level
        self.need = players_text(spec, self.tr)
        for pad in self.pads.values():
            pad.mode = "empty"
            pad.level = default_level
            pad.language = self.language
        self.match_choices = list(spec.match_choices)
        self.match_games = self.match_choices[0] if self.match_choices else 1
        self._match_text()
        if chooser is not None and self.table is not None:
            self.facing = self.table[chooser].edge
            self.join(chooser)
        self._update()

    # ------------------------------------------------------------------------------------------- actions
    def filled(self) -> list[JoinPad]:
        return [p for p in self.pads.values() if p.mode != "empty"]

    def join(self, index: int) -> None:
        pad = self.pads[index]
        if pad.mode == "empty" and not self._full():
            pad.mode = "human"
        self._update()

    def leave(self, index: int) -> None:
        self.pads[index].mode = "empty"
        self._update()

    def add_bot(self, index: int) -> None:
        pad = self.pads[index]
        if pad.mode == "empty" and not self._full():
            pad.mode = "bot"
            pad.level = self.default_level
        self._update()

    def seat_again(self, seats: list[tuple[int, str | None]], languages: dict[str, str]) -> None:
        """ "Play again": the same humans (in their own ``languages``, ``{"<table seat>": language}``) and bots."""
        for index, level in seats:
            if level is None:
                self.join(index)
                self.pads[index].language = languages.get(str(index), self.language)
            else:
                self.add_bot(index)
                self.pads[index].level = level

    def cycle_level(self, index: int) -> None:
        pad = self.pads[index]
        levels = [lv for lv in _LEVEL_CYCLE if self.spec is None or lv in self.spec.bots] or list(BOT_LEVELS)
        pad.level = levels[(levels.index(pad.level) + 1) % len(levels)] if pad.level in levels else levels[0]

    def fill_bots(self) -> None:
        """Fill empty seats with bots up to the game's minimum (at least one more seat if none needed)."""
        if self.spec is None:
            return
        target = max(self.spec.min_players, min(len(self.filled()) + 1, self.spec.max_players))
        for pad in self.pads.values():
            if len(self.filled()) >= target:
                break
            if pad.mode == "empty":
                pad.mode = "bot"
                pad.level = self.default_level
        self._update()

    def cycle_language(self, index: int) -> None:
        """The seat's next enabled language (its pad's texts follow at once)."""
        pad = self.pads[index]
        langs = [lang for lang in self.languages if lang in LANGUAGES] or [SOURCE]
        pad.language = langs[(langs.index(pad.language) + 1) % len(langs)] if pad.language in langs else langs[0]

    def languages_for(self, spec: GameSpec) -> dict[str, str]:
        """The joined humans' languages other than the table's (``{"<table seat>": language}``), when this
        screen was set up for ``spec``."""
        if spec is not self.spec:
            return {}
        return {str(i): p.language for i, p in self.pads.items() if p.mode == "human" and p.language != self.language}

    def cycle_match(self) -> None:
        """Next match length of the game's ``match_choices``."""
        if self.match_choices:
            i = self.match_choices.index(self.match_games) if self.match_games in self.match_choices else -1
            self.match_games = self.match_choices[(i + 1) % len(self.match_choices)]
            self._match_text()

    def _match_text(self) -> None:
        g, _ = self.match_games, self.tr.gettext
        self.match_label = (
            ""
            if not self.match_choices
            else _("Match: one game") + " " + self.tr.sym("\u21bb")
            if g == 1
            else _("Match: full (everyone deals)") + " " + self.tr.sym("\u21bb")
            if g == 0
            else self.tr.ngettext("Match: {n} game", "Match: {n} games", g).format(n=g) + " " + self.tr.sym("\u21bb")
        )

    def start(self) -> None:
        if not self.can_start or self.spec is None or self.on_start is None:
            return
        seats = [
            (p.seat.index, None if p.mode == "human" else p.level)
            for p in sorted(self.filled(), key=lambda p: p.seat.index)
        ]
        self.on_start(self.spec.key, seats)

    def back(self) -> None:
        if self.on_back is not None:
            self.on_back()

    def seat_event(self, event: SeatEvent) -> None:
        """Seat button "a" at a seat not joined: join (a bot there gives way); at a joined seat the buttons drive
        its highlight (see the module docstring)."""
        if event.seat is None or event.seat not in self.pads:
            return
        if self.focus.handle(event):
            return
        pad = self.pads[event.seat]
        if event.is_press and event.button == "a" and pad.mode != "human":
            if pad.mode == "bot":
                pad.mode = "empty"
            self.join(event.seat)

    def on_leave(self, *_a: Any) -> None:
        self.focus.reset()

    # ------------------------------------------------------------------------------------------- buttons
    def focus_playing(self, seat: int) -> bool:
        pad = self.pads.get(seat)
        return pad is not None and pad.mode == "human"

    def focus_zone(self, seat: int) -> Any:
        return self.pads.get(seat)

    def focus_tray(self, seat: int) -> Any:
        return None

    def focus_targets(self, seat: int) -> list[Any]:
        """The seat's own pad, the centre's buttons (both in reading order as the seat sees them), then the other
        seats' bot buttons, clockwise from the seat, each pad's in its own reading order (Level, then Remove)."""
        pad = self.pads.get(seat)
        if pad is None:
            return []
        out = reading_order(pad, walk_choices(pad))
        out += reading_order(pad, walk_choices(self.ids.buttons))
        order = sorted(self.pads)
        k = order.index(seat)
        for i in order[k + 1 :] + order[:k]:
            other = self.pads[i]
            mine = [other.ids[n] for n in ("add_bot", "level", "remove_bot")]  # (weak proxies: == , not "is")
            out += [w for w in reading_order(other, walk_choices(other)) if any(w == m for m in mine)]
        return out

    def focus_back(self, seat: int) -> bool:
        return False

    def focus_next(self, seat: int, gone: Any, targets: list[Any]) -> Any:
        """A bot added by buttons: the highlight goes on to that seat's Level button (the next thing to set)."""
        for other in self.pads.values():
            inside = list(other.walk(restrict=True))
            if gone is not None and any(gone is w for w in inside):
                return next((w for w in targets if any(w is x for x in inside)), targets[0])
        return targets[0]

    def focus_layer(self) -> Any:
        self._focus_layer = top_layer(self, self._focus_layer)
        return self._focus_layer

    def focus_quick(self, seat: int) -> bool:
        """ "a" with no highlight shown at a joined seat: start, filling the seats the game needs with bots first."""
        if not self.can_start:
            self.fill_bots()
        self.start()
        return True

    # ------------------------------------------------------------------------------------------- state
    def _full(self) -> bool:
        return self.spec is not None and len(self.filled()) >= self.spec.max_players

    def _alone_text(self) -> str:
        """What playing alone means for this game: its how-to's "Alone" step (Takoyaki: a time trial), if any."""

        if self.spec is None:
            return ""
        alone = next((s.text for s in howto_steps(self.spec) if s.title == "Alone"), "")
        return translator(self.tr.language, self.spec.key).gettext(alone) if alone else ""

    def _update(self) -> None:
        spec = self.spec
        humans = [p for p in self.pads.values() if p.mode == "human"]
        bots = [p for p in self.pads.values() if p.mode == "bot"]
        n = len(humans) + len(bots)
        self.can_start = bool(spec and humans and spec.min_players <= n <= spec.max_players)
        full = self._full()
        choose = len(self.languages) > 1
        for pad in self.pads.values():
            pad.full = full and pad.mode == "empty"
            pad.can_start = self.can_start and pad.mode == "human"
            pad.can_choose_language = choose and pad.mode != "bot"
        tr, _ = self.tr, self.tr.gettext
        parts = [f"{p.seat.symbol} {tr.seat_name(p.seat.name)}" for p in sorted(humans, key=lambda p: p.seat.index)]
        if bots:
            parts.append(tr.ngettext("{n} bot", "{n} bots", len(bots)).format(n=len(bots)))
        joined = _("Joined: {seats}.").format(seats=join_words(parts, self.tr) if parts else _("nobody yet"))
        ready = _("Ready: press Start.")
        if spec is None:
            self.summary = ""
        elif self.can_start and n == 1 and self._alone_text():
            self.summary = f"{joined} {self._alone_text()} {ready}"
        elif self.can_start:
            self.summary = f"{joined} {ready}"
        elif not humans:
            self.summary = joined + " " + _("At least one player must join.")
        else:
            missing = spec.min_players - n
            need = tr.ngettext(
                "{n} more seat needed (player or bot).", "{n} more seats needed (player or bot).", missing
            )
            self.summary = f"{joined} {need.format(n=missing)}"
        self.seats_state = {p.seat.index: p.mode for p in self.pads.values()}
