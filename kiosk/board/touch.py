"""The board screens' touches (Maki, Wasabi!): tiles dragged onto squares, squares tapped, the tray's buttons,
and a two-choice button (:class:`~kiosk.board.twostep.Then`) when it offers what the player wants next.

:func:`board_plan` is :meth:`kiosk.board.board.BoardScreen.touch_plan` (see :mod:`kiosk.ui.touchplan`): the fewest
touches the seat's own controls allow. A take-and-place is one drag when the player wants the tile on a square at
once; opening the tray is a touch only when it is closed.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import Any

from kiosk.engine import Action, State
from kiosk.ui.touchplan import Move, NextIntent, NoTouches, OpenTray, Step, Tap, panel_plan

__all__ = ["board_plan", "both_button"]


def both_button(panel: Any, action: Action, next_intent: NextIntent) -> Action | None:
    """The seat's button doing ``action`` and the player's next choice in one touch (a
    :class:`~kiosk.board.twostep.Then`: Maki's "Serve Maguro N., then Draw 3"), when the seat's buttons (``panel``, a
    board screen's seat) offer one for what the player wants next: the intents after ``action`` on a copy of the
    state (``next_intent(*actions)``), through the steps between (a 2-ingredient recipe's reward card, chosen on
    its own afterwards) up to a choice such a button offers. None: no such button (the plain one is for it)."""
    from kiosk.board.twostep import Then

    offered = [a for a in panel.actions if isinstance(a, Then) and a.first == action]
    kinds = {type(a.then) for a in offered}
    steps = [action]
    for _ in range(3):
        if not offered:
            return None
        after = next_intent(*steps)
        if after is None:
            return None
        if Then(action, after) in offered:
            return Then(action, after)
        if type(after) in kinds:
            return None  # a choice of that kind the buttons do not offer with it: step by step
        steps.append(after)
    return None


def _tile_widget(screen: Any, panel: Any, action: Action | None, kind: str) -> Generator[Step, None, Any]:
    """The tile to take for ``action`` (or a hand tile of ``kind``), opening the tray when it is in the hand; the
    generator's value is the widget (None: no such tile)."""
    for row in (screen.ids.pantry, panel.ids.hand):
        for w in row.children:
            if (action is not None and w.action == action) or (action is None and w.mode == "hand" and w.kind == kind):
                if row is panel.ids.hand:
                    yield OpenTray(panel.ids.tray)
                return w
    return None


def _view_after(screen: Any, state: State, g: int, action: Action) -> object:
    st = state.clone()
    st.apply(g, action)
    return screen.typed_view(st, None)


def board_plan(screen: Any, seat_index: int, action: Action, next_intent: NextIntent) -> Iterator[Step]:
    from kiosk.ui.words import action_squares

    panel = screen.panels[seat_index]
    session = screen.session
    g = session.game_seat_of(seat_index)
    journal = session.state.journal
    before = len(journal) if journal is not None else 0
    n = len(screen.tiles)
    pick = screen.pick_tile(action)
    tile = screen.placed_tile(action, screen.typed_view(session.state, None))
    squares = action_squares(action, n)
    both = both_button(panel, action, next_intent) if pick is None and not squares else None
    if both is not None:
        yield from panel_plan(panel, both)
    elif pick is not None:
        widget = yield from _tile_widget(screen, panel, action, pick[0])
        if widget is None:
            raise NoTouches(f"no tile for {action}")
        after = next_intent(action)
        cell = action_squares(after, n)[0] if after is not None and action_squares(after, n) else -1
        if after is not None and cell >= 0 and screen.placed_tile(after, _view_after(screen, session.state, g, action)):
            yield Move(widget, screen.tiles[cell])  # take it and put it on its square: one touch
        else:
            yield Tap(widget)
    elif tile is not None and len(squares) == 1:
        if screen.chosen == tile:
            yield Tap(screen.tiles[squares[0]])
        else:
            widget = yield from _tile_widget(screen, panel, None, tile)
            if widget is None:
                raise NoTouches(f"no tile {tile} to place")
            yield Move(widget, screen.tiles[squares[0]])
    elif squares:
        yield Tap(screen.tiles[squares[0]])
        journal = session.state.journal
        if journal is not None and len(journal) == before:
            yield from panel_plan(panel, action)
    else:
        yield from panel_plan(panel, action)
