"""How to play a game, as the picker shows it: the steps of the game's ``SPEC.howto`` (its folder's
``howto.json``), or, for a game folder without one, a generic how-to built from its spec (players, the generic
screen's controls). The shell holds no per-game texts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kiosk.engine import GameSpec

__all__ = ["HowToStep", "howto_steps", "howto_text", "players_text"]


@dataclass(frozen=True)
class HowToStep:
    title: str
    text: str
    pictures: tuple[str, ...] = ()
    #: A demo of real moves (``kiosk.ui.demo``): ``{"players", "seed", "moves", "level"}``, all optional.
    demo: dict[str, Any] | None = None


def players_text(spec: GameSpec, tr: Any = None) -> str:
    """How many play, in ``tr``'s language (a :class:`kiosk.i18n.Translator`; English without one)."""
    lo, hi = spec.min_players, spec.max_players
    if tr is None:
        return f"{lo} player" if lo == hi == 1 else f"{lo}-{hi} players"
    return tr.gettext("1 player") if lo == hi == 1 else tr.gettext("{lo}-{hi} players").format(lo=lo, hi=hi)


def howto_steps(spec: GameSpec) -> list[HowToStep]:
    if spec.howto:
        return [HowToStep(s["title"], s["text"], tuple(s.get("pictures", ())), s.get("demo")) for s in spec.howto]
    return [
        HowToStep("Players", f"{spec.title} is for {players_text(spec)}; empty seats can take a bot."),
        HowToStep(
            "Your turn",
            "Your private tray at your seat shows what only you may see and the moves you can make now: "
            "tap one to play it. The middle of the table shows the game and turns to whoever plays.",
        ),
    ]


def howto_text(spec: GameSpec) -> str:
    """All steps as one Kivy markup text: each step's title in bold, then its text (both escaped)."""
    from kivy.utils import escape_markup

    return "\n".join(f"[b]{escape_markup(s.title)}:[/b] {escape_markup(s.text)}" for s in howto_steps(spec))
