"""Makoto's touches (:mod:`kiosk.ui.touchplan`): the tray's cards tapped to choose them, then the action row's
button (Play, Pass, the Blind's and the Oracle's steps, the box lid)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kiosk.engine import Action
from kiosk.games.makoto.actions import BlindDiscard, OracleDiscard, Play, UseLid
from kiosk.games.makoto.panel import StepButton
from kiosk.ui.touchplan import NextIntent, NoTouches, OpenTray, Step, Tap

__all__ = ["makoto_plan"]


def _step_button(panel: Any, command: Any) -> Any:
    for w in panel.walk(restrict=True):
        shown = not w.disabled and w.opacity > 0 and w.get_root_window() is not None
        if isinstance(w, StepButton) and w.command == command and shown:
            return w
    return None


def _tap_cards(panel: Any, cards: list[int]) -> Iterator[Step]:
    want = list(cards)
    for slot, card in enumerate(panel.cards):
        if card.code in want and slot not in panel.selected:
            want.remove(card.code)
            # cards overlap (the next one lies on this one's right): the corner left in view, top left
            yield Tap(card, min(0.5, 22.0 / max(1.0, card.width)), 1.0 - min(0.5, 22.0 / max(1.0, card.height)))
            if slot not in panel.selected:
                raise NoTouches(f"a tap on card {card.code} did not select it")
    if want:
        shown = [c.code for c in panel.cards]
        raise NoTouches(f"cards {want} not among the hand's cards on screen {shown} (hand {panel.hand})")


def makoto_plan(screen: Any, seat_index: int, action: Action, next_intent: NextIntent) -> Iterator[Step]:
    panel = screen.panels[seat_index]
    yield OpenTray(panel.ids.tray)
    button = _step_button(panel, action)
    if button is None:
        if isinstance(action, Play):
            yield from _tap_cards(panel, list(action.cards))
        elif isinstance(action, (BlindDiscard, OracleDiscard)):
            yield from _tap_cards(panel, [action.card])
        elif isinstance(action, UseLid):
            lid = _step_button(panel, "lid")
            if lid is None:
                raise NoTouches("no box lid button")
            yield Tap(lid)
        button = _step_button(panel, action)
    if button is None:
        raise NoTouches(f"no button for {action}")
    yield Tap(button)
