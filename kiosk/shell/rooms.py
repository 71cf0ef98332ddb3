"""The app's built rooms: its screens and overlays as the lazy build (:mod:`kiosk.shell.build`) keeps them.

An app attribute declared with :func:`on_demand` reads the builder's room of that name, building it by its step the
first time; the builder, not the app, holds what it built (and lets the guests' rooms go in attract mode).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kiosk.shell.attractscreen import AttractScreen
    from kiosk.shell.diagnostics import DiagnosticsScreen
    from kiosk.shell.join import JoinScreen
    from kiosk.shell.operator import OperatorScreen
    from kiosk.shell.overlay import Overlay
    from kiosk.shell.picker import PickerScreen
    from kiosk.shell.results import ResultsScreen
    from kiosk.shell.seatmenu import SeatMenus

__all__ = ["BuiltRooms", "on_demand"]


class _OnDemand:
    """A descriptor on the app: reading the attribute returns the room the builder keeps, running its build step
    the first time (the builder, not the app, holds the built rooms)."""

    def __init__(self, step: str) -> None:
        self.step = step
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, app: Any, owner: type | None = None) -> Any:
        if app is None:
            return self

        return app.builder.room(self.name, self.step)


def on_demand(step: str) -> Any:
    """An app attribute built by :class:`LazyBuild`'s method ``step`` the first time it is read."""
    return _OnDemand(step)


class BuiltRooms:
    """The app's screens and overlays, as the builder keeps them (the attract screen from the first frame, the others
    built one per frame after it or when first read)."""

    attract_screen: AttractScreen = on_demand("")  # built by LazyBuild.first_frame
    picker: PickerScreen = on_demand("_picker")
    join_screen: JoinScreen = on_demand("_join")
    results: ResultsScreen = on_demand("_results")
    operator: OperatorScreen = on_demand("_operator")
    overlay: Overlay = on_demand("_overlay")
    seat_menus: SeatMenus = on_demand("_seat_menus")
    diagnostics: DiagnosticsScreen = on_demand("_diagnostics")
