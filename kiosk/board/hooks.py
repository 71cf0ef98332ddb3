"""What a board game's screen tells the board kit (:class:`~kiosk.board.board.BoardScreen`), typed by the game's own
views (:data:`ViewT`, the public view, and :data:`SeatViewT`, a seat's: ``TypedDict``s of the game's ``views.py``):
the board, the texts, the trays' and the public column's pieces. The kit calls these; a game's screen overrides
them and reads its views by their keys."""

from __future__ import annotations

from typing import Any, Generic, TypeVar, overload

from kiosk.engine import Action, State, View
from kiosk.i18n import Translator

__all__ = ["BoardHooks", "SeatViewT", "ViewT"]

#: The game's own public view type (a ``TypedDict``, see :class:`kiosk.engine.GameState`) that the hooks take.
ViewT = TypeVar("ViewT", bound=View)
#: The game's own view type for one seat (its public view's keys and the seat's secrets).
SeatViewT = TypeVar("SeatViewT", bound=View)


class BoardHooks(Generic[ViewT, SeatViewT]):
    """The per-game part of a board screen (defaults: nothing to show)."""

    @overload
    def typed_view(self, state: State, seat: None) -> ViewT: ...
    @overload
    def typed_view(self, state: State, seat: int) -> SeatViewT: ...
    def typed_view(self, state: State, seat: int | None) -> ViewT | SeatViewT:
        """``state.view(seat)`` as the game types it: the public view for None, the seat's for a seat (each game's
        screen checks the state is its game's)."""
        raise NotImplementedError

    def board_cells(self, public: ViewT) -> list[dict[str, Any]]:
        """One dict per square: ``kind`` ("" / "teacup" / ingredient), ``stack``, ``covered``."""
        raise NotImplementedError

    def board_size(self, public: ViewT) -> tuple[int, int]:
        raise NotImplementedError

    def public_lines(self, public: ViewT) -> list[str]:
        return []

    def recipe_names(self, mine: SeatViewT, g: int) -> dict[int, str]:
        """Recipe id -> name, for the seat's action buttons."""
        return {}

    def private_lines(self, mine: SeatViewT, g: int) -> list[str]:
        return []

    def shelf_items(
        self, mine: SeatViewT, g: int, ready: set[int]
    ) -> tuple[list[dict[str, Any]], list[str], list[tuple[str, str]]]:
        """What seat ``g``'s tray draws from its own view: its recipes as :class:`RecipeShelf` card dicts (``ready``:
        the ids it can serve now), the action cards it holds, the tiles in its hand ``(kind, category)``."""
        return [], [], []

    def seat_rows(self, public: ViewT) -> list[dict[str, Any]]:
        """Per game seat, its row of the public column: ``points``, ``counters`` (:class:`SeatLine`) and ``cards``."""
        return []

    def shared_rows(
        self, public: ViewT
    ) -> tuple[list[tuple[str, float, dict[str, Any]]], list[tuple[str, float, dict[str, Any]]]]:
        """The shared things as two :class:`PieceRow` spec lists: counts and decks; named cards."""
        return [], []

    def placed_tile(self, action: Action, public: ViewT) -> str | None:
        """The tile ``action`` puts on its square (a placement), else None. Read from the action's fields and
        the public view (Maki: the taken tile is public), never from rules."""
        return None

    def prompt_text(self, public: ViewT, kinds: set[str], board_moves: bool, tr: Translator) -> str:
        """What the acting seat should do now, in its language ``tr``, from the kinds (class names) of its legal
        actions and the public view; ``board_moves``: some legal action names a square. Never names anything
        private."""
        if board_moves:
            return tr.gettext("Tap a marked square, or choose below")
        return tr.gettext("Choose below")

    def legend_text(self, tr: Translator) -> str:
        """The centre's key to the tiles' category letters, in the table's language (subclasses: the game's)."""
        return ""
