"""The shell's screens and overlays, one typed factory each: what :class:`~kiosk.shell.build.LazyBuild` runs the
first time a room is used (:func:`kiosk.shell.rooms.on_demand` names them). Each screen's module is imported by its
factory, so a room the table never opens (the operator menu, diagnostics) costs no start-up time."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar, cast

if TYPE_CHECKING:
    from kivy.uix.widget import Widget

    from kiosk.shell.attractscreen import AttractScreen
    from kiosk.shell.diagnostics import DiagnosticsScreen
    from kiosk.shell.doors import BuildDoor
    from kiosk.shell.join import JoinScreen
    from kiosk.shell.operator import OperatorScreen
    from kiosk.shell.overlay import Overlay
    from kiosk.shell.picker import PickerScreen
    from kiosk.shell.results import ResultsScreen
    from kiosk.shell.seatmenu import SeatMenus

__all__ = ["RoomFactories"]

S = TypeVar("S")


class RoomFactories:
    """The factories; the builder (a subclass) keeps what they built in :attr:`rooms`."""

    app: BuildDoor
    rooms: dict[str, Widget]

    def _screen(self, screen: S) -> S:
        self.app.sm.add_widget(screen)
        return screen

    def attract_screen(self) -> AttractScreen:
        """Built with the first frame (:meth:`first_frame`)."""
        return cast("AttractScreen", self.rooms["attract_screen"])

    def picker(self) -> PickerScreen:
        from kiosk.shell.picker import PickerScreen  # (built when first used: the screen's module stays off start-up)

        app = self.app
        picker = PickerScreen(name="picker", table=app.table, on_pick=app.open_join, on_back=app.go_attract)
        picker.table_language = lambda: app.cfg.language.default  # the operator may change it: read when shown
        picker.set_games(app.games)
        return self._screen(picker)

    def join(self) -> JoinScreen:
        from kiosk.shell.join import JoinScreen  # (built when first used: the screen's module stays off start-up)

        app = self.app
        return self._screen(JoinScreen(name="join", table=app.table, on_start=app.start_game, on_back=app.open_picker))

    def results(self) -> ResultsScreen:
        from kiosk.shell.results import ResultsScreen  # (built when first used: the screen's module stays off start-up)

        app = self.app
        return self._screen(
            ResultsScreen(
                name="results",
                table=app.table,
                on_done=app.go_attract,
                on_again=app.play_again,
                on_final=app.event_game_over,
                on_watch=app.watch_again,
                can_watch=app.can_watch,
            )
        )

    def operator(self) -> OperatorScreen:
        # (built when first used: the screen's module stays off start-up)
        from kiosk.shell.operator import OperatorScreen

        return self._screen(OperatorScreen(name="operator", table=self.app.table, desk=self.app.operator_desk))

    def overlay(self) -> Overlay:
        from kiosk.shell.overlay import Overlay  # (built when first used: the screen's module stays off start-up)

        return Overlay(table=self.app.table, on_answer=self.app.answer_idle)

    def seat_menus(self) -> SeatMenus:
        from kiosk.shell.seatmenu import SeatMenus  # (built when first used: the screen's module stays off start-up)

        app, hooks = self.app, self.app.seat_hooks
        return SeatMenus(
            host=app.root,
            table=app.table,
            offered=hooks.menu_offered,
            leave_question=hooks.leave_question,
            on_leave=hooks.leave_seat,
            hints_at=hooks.hints_at,
            on_switch_hints=hooks.switch_hints,
            language_at=hooks.language_at,
        )

    def diagnostics(self) -> DiagnosticsScreen:
        # (built when first used: the screen's module stays off start-up)
        from kiosk.shell.diagnostics import DiagnosticsScreen

        screen = DiagnosticsScreen(name="diagnostics")
        screen.status = self.app.hardware.status  # after construction: the screen's rows exist by then
        return self._screen(screen)
