"""How a seat's own controls carry out an action: what every game screen declares about its choosable widgets.

A screen's ``touch_plan(seat_index, action, next_intent)`` yields the touches one at a time (each is carried out
before the next is asked for, so a step can depend on what the previous one showed): :class:`Tap` a widget,
:class:`Drag` through window points, :class:`Move` a widget onto another, :class:`OpenTray` (the seat's private
tray, when it is closed). ``next_intent(*actions)`` says what the player wants after ``actions`` (on a copy of the
state; None when the turn is over), so a screen can offer two choices in one touch. :func:`panel_plan` is every
screen's default: the seat's buttons carry their actions (``button.action``), on pages. The touch driver
(``devtools.touchplay``) and the touches benchmark play whole games through these, so a new game on the generic
screen needs nothing more. No rules here: the screen only says where its widgets are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from kiosk.engine import Action

__all__ = ["Drag", "Move", "NoTouches", "OpenTray", "Step", "Tap", "TouchPlanned", "buttons_of", "panel_plan"]


class NoTouches(LookupError):
    """The seat's controls offer no way to make this move."""


@dataclass(frozen=True)
class Tap:
    """A finger down and up at ``(fx, fy)`` of ``widget`` (fractions of its size)."""

    widget: Any
    fx: float = 0.5
    fy: float = 0.5


@dataclass(frozen=True)
class Drag:
    """One finger down at the first window point, through the others, up at the last."""

    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Move:
    """One finger from ``widget``'s centre onto ``target``'s (where they are once the layout has settled)."""

    widget: Any
    target: Any


@dataclass(frozen=True)
class OpenTray:
    """Open the seat's private tray with a tap on its top line, when it is closed."""

    tray: Any


Step = Tap | Drag | Move | OpenTray
NextIntent = Callable[..., Action | None]


class TouchPlanned(Protocol):
    def touch_plan(self, seat_index: int, action: Action, next_intent: NextIntent) -> Iterator[Step]: ...


def buttons_of(root: Any) -> list[Any]:
    """The enabled, visible, on-screen buttons under ``root``."""
    from kivy.uix.button import Button  # (only to tell a button apart, when a plan is made: off start-up)

    return [
        w
        for w in root.walk(restrict=True)
        if isinstance(w, Button) and w.text and not w.disabled and w.opacity > 0 and w.get_root_window() is not None
    ]


def panel_plan(panel: Any, action: Action) -> Iterator[Step]:
    """The seat panel's button for ``action``: open its tray, turn to the button's page, tap it."""
    tray = panel.ids.get("tray")
    if tray is not None:
        yield OpenTray(tray)
    page = panel.page_of(action)
    if page is None:
        raise NoTouches(f"{action} is not among the seat's buttons {list(panel.labels)}")
    for _ in range(panel.pages):
        if panel.page == page:
            break
        arrow = next((b for b in buttons_of(panel) if b.text.endswith("\u25b6")), None)
        if arrow is None:
            raise NoTouches("no next-page button")
        yield Tap(arrow)
    button = next((b for b in buttons_of(panel) if getattr(b, "action", None) == action), None)
    if button is None:
        raise NoTouches(f"no button for {action} on page {panel.page + 1} ({list(panel.labels)})")
    yield Tap(button)
