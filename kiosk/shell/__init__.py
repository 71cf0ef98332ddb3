"""The shell: the app's flows as rooms, each one class with one job, wired by the thin router
:class:`kiosk.app.KioskApp` (which only switches between modes and holds the shared parts: config, seat map,
input hub, sounds, storage, screens).

* :class:`~kiosk.shell.build.LazyBuild` -- builds the screens one per frame after the first attract frame.
* :class:`~kiosk.shell.service.ServiceGlue` -- signals, sd_notify and the watchdog, kiosk-mode hardening.
* :class:`~kiosk.shell.attract.AttractDirector` -- the attract cycle (bots' games, boards, call), resume offers.
* :class:`~kiosk.shell.launcher.GameLauncher` -- starts and resumes games, owns the game screens and results.
* :class:`~kiosk.shell.idle.IdleWatch` -- "Still playing?", abandoning idle games, menus timing out.
* :class:`~kiosk.shell.gestures.TableGestures` -- window touches to seat events, the operator corner hold,
  seat buttons to the current screen.
* :class:`~kiosk.shell.desk.OperatorRoom` -- opens/closes the operator menu and implements
  :class:`kiosk.shell.operator.OperatorDesk` for it.

Each room takes its door (:mod:`kiosk.shell.doors`: a Protocol naming what it uses) and keeps its own flow's state;
only the router changes the table's mode and shared parts.
"""
