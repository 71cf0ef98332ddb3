"""How to play a game, as the picker shows it: the steps of the game's ``SPEC.howto`` (its folder's
``howto.json``), or, for a game folder without one, a generic how-to built from its spec (players, the generic
screen's controls). The shell holds no per-game texts.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from kivy.utils import escape_markup

from kiosk.engine import GameSpec
from kiosk.i18n import translator

__all__ = ["HowToStep", "howto_steps", "howto_text", "players_text"]


@dataclass(frozen=True)
class HowToStep:
    title: str
    text: str
    pictures: tuple[str, ...] = ()
    #: A demo of real moves (``kiosk.shell.demo``): ``{"players", "seed", "moves", "level"}``, all optional.
    demo: dict[str, Any] | None = None


def players_text(spec: GameSpec, tr: Any = None) -> str:
    """How many play, in ``tr``'s language (a :class:`kiosk.i18n.Translator`; English without one)."""
    lo, hi = spec.min_players, spec.max_players
    if tr is None:
        return f"{lo} player" if lo == hi == 1 else f"{lo}-{hi} players"
    if lo == hi:
        return tr.ngettext("{n} player", "{n} players", lo).format(n=tr.number(lo))
    return tr.gettext("{lo}-{hi} players").format(lo=tr.number(lo), hi=tr.number(hi))


def howto_steps(spec: GameSpec, tr: Any = None) -> list[HowToStep]:
    """The game's steps in ``tr``'s language (a :class:`kiosk.i18n.Translator` in the game's domain: its
    ``howto.json`` steps are in its catalog; the generic steps in the shell's); English without one."""

    tr = tr or translator("en", spec.key)
    if spec.howto:
        return [
            HowToStep(tr.gettext(s["title"]), tr.gettext(s["text"]), tuple(s.get("pictures", ())), s.get("demo"))
            for s in spec.howto
        ]
    players = players_text(spec, tr)
    return [
        HowToStep(
            tr.gettext("Players"),
            tr.gettext("{game} is for {players}; empty seats can take a bot.").format(game=spec.title, players=players),
        ),
        HowToStep(
            tr.gettext("Your turn"),
            tr.gettext(
                "Your private tray at your seat shows what only you may see and the moves you can make now: "
                "tap one to play it. The middle of the table shows the game and turns to whoever plays."
            ),
        ),
    ]


def card_steps(spec: GameSpec, tr: Any = None) -> dict[str, HowToStep]:
    """Every card and tile of the game explained (its folder's ``explain.py``: ``explanations(tr)``), by the name
    the engine gives it, in ``tr``'s language; empty for a game without one."""

    name = f"kiosk.games.{spec.key}.explain"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return {}
        raise
    explained: dict[str, HowToStep] = module.explanations(tr or translator("en", spec.key))
    return explained


def howto_text(spec: GameSpec, tr: Any = None) -> str:
    """All steps as one Kivy markup text in ``tr``'s language: each step's title in bold, then its text (both
    escaped)."""
    tr = tr or translator("en", spec.key)
    steps = howto_steps(spec, tr)
    # a game's steps not yet in this language read as English, punctuation included
    line = tr.gettext("[b]{title}:[/b] {text}") if steps != howto_steps(spec) else "[b]{title}:[/b] {text}"
    return "\n".join(line.format(title=escape_markup(s.title), text=escape_markup(s.text)) for s in steps)
