"""The app's built rooms: its screens and overlays as the lazy build (:mod:`kiosk.shell.build`) keeps them.

An app attribute declared with :func:`on_demand` reads the builder's room of that name, building it by its typed
factory (a :class:`~kiosk.shell.build.LazyBuild` method) the first time; the builder, not the app, holds what it
built (and lets the guests' rooms go in attract mode).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol, TypeVar, overload

from kiosk.shell.build import LazyBuild

__all__ = ["BuiltRooms", "on_demand"]

R = TypeVar("R")


class _Built(Protocol):
    builder: LazyBuild


class _OnDemand(Generic[R]):
    """A descriptor on the app: reading the attribute returns the room the builder keeps, running its factory
    the first time (the builder, not the app, holds the built rooms)."""

    def __init__(self, factory: Callable[[LazyBuild], R]) -> None:
        self.factory = factory
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, app: None, owner: type | None = None) -> _OnDemand[R]: ...

    @overload
    def __get__(self, app: _Built, owner: type | None = None) -> R: ...

    def __get__(self, app: _Built | None, owner: type | None = None) -> R | _OnDemand[R]:
        if app is None:
            return self
        return app.builder.room(self.name, self.factory)


def on_demand(factory: Callable[[LazyBuild], R]) -> _OnDemand[R]:
    """An app attribute built by ``factory`` (a :class:`LazyBuild` method) the first time it is read."""
    return _OnDemand(factory)


class BuiltRooms:
    """The app's screens and overlays, as the builder keeps them (the attract screen from the first frame, the others
    built one per frame after it or when first read)."""

    attract_screen = on_demand(LazyBuild.attract_screen)  # built by LazyBuild.first_frame
    picker = on_demand(LazyBuild.picker)
    join_screen = on_demand(LazyBuild.join)
    results = on_demand(LazyBuild.results)
    operator = on_demand(LazyBuild.operator)
    overlay = on_demand(LazyBuild.overlay)
    seat_menus = on_demand(LazyBuild.seat_menus)
    diagnostics = on_demand(LazyBuild.diagnostics)
