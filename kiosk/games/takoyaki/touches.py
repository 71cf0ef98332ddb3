"""Takoyaki's touches (:mod:`kiosk.ui.touchplan`): a push is a drag to the next space, a turn a swipe out and back
on the ball, a claim a tap on the seat's TAKOYAKI! pad. Faults are what a player does wrong: never planned."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kiosk.engine import Action
from kiosk.games.takoyaki.actions import Claim, Push, Turn
from kiosk.games.takoyaki.grillview import GrillWidget
from kiosk.ui.touchplan import Drag, NextIntent, NoTouches, Step, Tap, buttons_of

__all__ = ["takoyaki_plan"]


def takoyaki_plan(screen: Any, seat_index: int, action: Action, next_intent: NextIntent) -> Iterator[Step]:
    panel = screen.panels[seat_index]
    grill = next(w for w in panel.walk(restrict=True) if isinstance(w, GrillWidget))
    if isinstance(action, Push):
        a = grill.to_window(*grill.space_center(action.src))
        b = grill.to_window(*grill.space_center(action.dst))
        yield Drag((a, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), b))
    elif isinstance(action, Turn):
        x, y = grill.space_center(action.space)
        c = grill.cell * 0.45
        yield Drag((grill.to_window(x, y), grill.to_window(x + c, y), grill.to_window(x, y)))
    elif isinstance(action, Claim):
        pad = next((b for b in buttons_of(panel) if "TAKOYAKI" in b.text), None)
        if pad is None:
            raise NoTouches("no claim pad")
        yield Tap(pad)
    else:
        raise NoTouches(f"no gesture for {action}")
