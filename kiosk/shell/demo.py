"""How-to demos: a few real moves played by the engine's bots on a small example game, shown one after another.

A how-to step with a ``"demo"`` entry (``{"players": 2, "seed": 5, "moves": 6, "level": "easy"}``, all optional)
is shown as a short animation at the seat: :func:`demo_frames` starts a real game of the spec (the smallest
player count unless given), plays past its set-up (moves until the player to move has an action naming a
square: a board game's first placement; games without squares start at once), then lets the bots play
``moves`` moves. Each frame is one move in words and, when the public view has a ``board`` (a list of squares,
each a kind, ``None`` or a stack of kinds) with ``cols``/``columns``, the board as picture names (a public
``grills`` list of Takoyaki grills: the first seat's grill, a raw ball as a takoyaki, a fried one as a flame).
Nothing of a seat's hidden things is shown: captions and boards come from the public view and the events.

Captions use the game's own formatter when its words module has one (``kiosk.games.<key>.words`` defining
``<key>_event_text(event, who, square, tr=...)``), else a readable fallback, in the reader's language (``tr``: the
seat's translator in the game's domain; a formatter without ``tr`` writes English).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kiosk.engine import Event, GameSpec, View
from kiosk.i18n import Translator, translator
from kiosk.ui.pictures import picture_name
from kiosk.ui.words import cell_name, fallback_event_text

__all__ = ["DemoFrame", "demo_frames"]

PLAYER_NAMES = ("Ann", "Ben", "Cho", "Dan", "Eve", "Fay")


@dataclass(frozen=True)
class DemoFrame:
    caption: str
    cols: int
    cells: tuple[str, ...]  # picture names, "" for an empty square


def _formatter(spec: GameSpec, tr: Translator) -> Callable[[Event, Callable[[int | None], str], Any], str] | None:
    """The game's event formatter, speaking ``tr``'s language when it takes a ``tr`` (else English)."""
    try:
        module = importlib.import_module(f"kiosk.games.{spec.key}.words")
    except ImportError:
        return None
    fn = getattr(module, f"{spec.key}_event_text", None)
    if not callable(fn):
        return None
    try:
        takes_tr = "tr" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        takes_tr = False
    if not takes_tr:
        return fn
    return lambda ev, who, square: fn(ev, who, square, tr=tr)


def _board(public: View) -> tuple[int, tuple[str, ...]]:
    board = public.get("board")
    cols = public.get("cols", public.get("columns"))
    grills = public.get("grills")
    if board is None and isinstance(grills, list) and grills and isinstance(grills[0], str):
        rows = grills[0].split("/")  # a Takoyaki grill: "rr../gg../bb.." (upper case = fried side up)
        cells = [("" if ch == "." else "hot" if ch.isupper() else "takoyaki") for row in rows for ch in row]
        return len(rows[0]), tuple(cells)
    if not isinstance(board, list) or not isinstance(cols, int):
        return 0, ()
    cells = []
    for v in board:
        top = v[-1] if isinstance(v, list) and v else v
        cells.append(picture_name(top) if isinstance(top, str) and top else "")
    return cols, tuple(cells)


def _names_square(action: Any) -> bool:
    data = action.to_json()
    return any(k in data for k in ("cell", "square", "a", "b"))


def demo_frames(
    spec: GameSpec, players: int = 0, seed: int = 5, moves: int = 6, level: str = "easy", tr: Translator | None = None
) -> list[DemoFrame]:
    """The demo's frames: the position after set-up, then one frame per bot move (see the module docstring), their
    captions in ``tr``'s language (English without one)."""

    tr = tr or translator("en", spec.key)
    n = players or spec.min_players
    state = spec.new_game(n, seed)
    lv = level if level in spec.bots else next(iter(spec.bots))
    bots = [spec.bots[lv](g, seed + g) for g in range(n)]
    fmt = _formatter(spec, tr)

    def who(g: int | None) -> str:
        return PLAYER_NAMES[g % len(PLAYER_NAMES)] if isinstance(g, int) else ""

    has_board = isinstance(state.view(None).get("board"), list)
    for _ in range(200 if has_board else 0):  # past a board game's set-up, to its first placement
        if state.is_over():
            break
        g = state.to_move()[0]
        if any(_names_square(a) for a in state.legal_actions(g)):
            break
        state.apply(g, bots[g].choose(state))
    cols, cells = _board(state.view(None))
    frames = [DemoFrame(tr.gettext("The game starts"), cols, cells)]
    for _ in range(moves):
        if state.is_over():
            break
        g = state.to_move()[0]
        events = state.apply(g, bots[g].choose(state)) or []
        public = state.view(None)
        cols, cells = _board(public)

        def square(c: int, cols: int = cols) -> str:
            return cell_name(cols, c) if cols else str(c)

        words = []
        for ev in events:
            text = fmt(ev, who, square) if fmt is not None else fallback_event_text(ev, who, tr)
            if text:
                words.append(text)
        if words:  # a move with nothing to say (the end of a step) shows with the next one
            caption = (
                words[-1] if len(words) < 2 else tr.gettext("{first}; {then}").format(first=words[-2], then=words[-1])
            )
            frames.append(DemoFrame(caption, cols, cells))
    return frames
