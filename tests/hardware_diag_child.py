"""Run by tests/test_hardware_diagnostics.py in its own process (Kivy allows one window per process, and the
shell's UI tests own theirs): the diagnostics screen in a real window, fed by the real hardware classes
(SeatButtons on gpiozero's MockFactory, TapReader on a simulated board over a pty). Prints one JSON line of
observations; the parent asserts on them. Argument: a folder for the screenshot and temporary files.

Kivy's clock is frozen (``kiosk.clock.freeze()``): the screen's refresh runs on virtual time, one ``STEP`` per
frame, so what the screen shows after n frames never depends on the machine's speed. The hardware classes run
real threads; where the child waits for one of them it waits for the condition in the status (no bound of its
own: the parent's time-out ends a hang, and the last "waiting for" line on stdout says where), then turns frames
until the screen shows it (at most a few virtual seconds). The status keeps the real clock: its press and tap
times come from the hardware threads. Only the tap flash (lit for 0.25 s after a tap) is looked at with the
status clock held at the tap's arrival, as a refresh at that moment would see it.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

out = Path(sys.argv[1])
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_HOME", str(out / "kivy-home"))
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from kivy.config import Config  # noqa: E402

Config.set("graphics", "width", "1600")
Config.set("graphics", "height", "900")
Config.set("kivy", "exit_on_escape", "0")

from gpiozero.pins.mock import MockFactory  # noqa: E402
from kivy.base import runTouchApp, stopTouchApp  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.lang import Builder  # noqa: E402
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager  # noqa: E402

from devtools.harness import STEP, frames  # noqa: E402
from hardware.buttons import SeatButtons  # noqa: E402
from hardware.config import default_config, parse_config  # noqa: E402
from hardware.simboard import SimulatedBoard  # noqa: E402
from hardware.status import HardwareStatus  # noqa: E402
from hardware.taps import TapEvent, TapReader  # noqa: E402
from kiosk import clock  # noqa: E402
from kiosk.shell import diagnostics  # noqa: E402
from kiosk.shell.diagnostics import DiagnosticsScreen  # noqa: E402

obs: dict = {"window": type(Window).__module__}
virtual = clock.freeze()


def show(pred, what: str, seconds: float = 5.0) -> None:
    """Frames until the screen shows ``pred()``, at most ``seconds`` virtual seconds (the refresh is 0.1 s)."""
    for _ in range(round(seconds / STEP)):
        if pred():
            return
        frames()
    raise SystemExit(f"not shown within {seconds} virtual seconds: {what}")


def wait_for(pred, what: str) -> None:
    """A hardware thread's work: poll until ``pred()`` holds, however long it takes (the parent's bound)."""
    print(f"waiting for {what}", flush=True)
    while not pred():
        time.sleep(0.005)


class StatusClock:
    """The status's clock: the real monotonic clock, unless held at one moment (``hold``/``release``)."""

    def __init__(self) -> None:
        self.held: float | None = None

    def __call__(self) -> float:
        return time.monotonic() if self.held is None else self.held


cfg = parse_config(default_config())
status_clock = StatusClock()
status = HardwareStatus(dead_after_games=2, stuck_after=0.5, clock=status_clock)
factory = MockFactory()
taps: list = []
buttons = SeatButtons(cfg["pins"], lambda e: None, pin_factory=factory, hold_time=0.2, status=status)
board = SimulatedBoard(link=out / "tapstick0")
reader = TapReader(
    board.path,
    lambda e: taps.append(e) if isinstance(e, TapEvent) else None,
    sticks=cfg["sticks"],
    status=status,
    ping_interval=0.1,
)

sm = ScreenManager(transition=NoTransition())
sm.add_widget(Screen(name="operator"))
screen = DiagnosticsScreen(name="diagnostics")
sm.add_widget(screen)
runTouchApp(sm, embedded=True)
frames(6)

obs["refreshing_before_enter"] = screen.refreshing
screen.status = status
sm.current = "diagnostics"
frames(3)
obs["refreshing_when_shown"] = screen.refreshing
obs["kv_loaded_once"] = Builder.files.count(str(diagnostics.KV_PATH))
obs["seat_rows"] = len(screen.ids.seats.children)
obs["stick_cells"] = len(screen.ids.sticks.children)

# a button lights up live, and goes dark again
buttons.pin(2, "a").drive_low()
wait_for(lambda: status.snapshot()["buttons"][2]["a"]["pressed"], "seat 2 a pressed")
show(lambda: screen._lamps[(2, "a")].lit, "seat 2 a lit")
obs["lamp_2a_lit"] = screen._lamps[(2, "a")].lit
obs["lamp_2b_lit"] = screen._lamps[(2, "b")].lit

# the serial link comes up; taps show with latency
reader.start()
wait_for(lambda: status.snapshot()["link"]["state"] == "ready", "the board's hello")
wait_for(lambda: status.snapshot()["link"]["rtt_ms"] is not None, "a PONG")
show(lambda: screen.link_state == "ready", "the link ready")
board.tap(5)
wait_for(lambda: taps and status.snapshot()["sticks"][5]["taps"] == 1, "stick 5's tap")
status_clock.held = taps[-1].received  # the status as a refresh at the tap's arrival sees it (flash on)
show(lambda: screen._sticks[5].lit and "ms" in screen.taps_text.splitlines()[-1], "stick 5 lit, with its latency")
status_clock.held = None
obs["stick5_text"] = screen._sticks[5].text
obs["taps_text"] = screen.taps_text
obs["link_text_ready"] = screen.link_text
# seat 2 "a" still down: stuck after 0.5 s (real time: the press time came from gpiozero's thread)
wait_for(lambda: status.snapshot()["buttons"][2]["a"]["stuck"], "seat 2 a stuck")
show(lambda: screen._lamps[(2, "a")].warn, "seat 2 a warning")
obs["stuck_warning"] = [w for w in status.snapshot()["warnings"] if "stuck" in w]
obs["lamp_2a_warn"] = screen._lamps[(2, "a")].warn
shot = Window.screenshot(name=str(out / "diagnostics.png"))  # Kivy numbers it: diagnostics0001.png
os.replace(shot, out / "diagnostics.png")
obs["screenshot"] = sorted(p.name for p in out.glob("diagnostics*.png"))
buttons.pin(2, "a").drive_high()
wait_for(lambda: not status.snapshot()["buttons"][2]["a"]["pressed"], "seat 2 a released")
show(lambda: not screen._lamps[(2, "a")].lit, "seat 2 a dark")

# dead switches after games without use, lost taps
for _ in range(3):
    status.game_started(seats=[0, 1])
board.send_line("TAP 1 5 40\n")  # after seq 0: 39 lost
wait_for(lambda: status.snapshot()["lost_taps"] == 39, "the 39 lost taps counted")
show(lambda: "Lost taps: 39" in screen.counters_text, "39 lost taps")
obs["counters_text"] = screen.counters_text
obs["warnings_text"] = screen.warnings_text
obs["lamp_0b_warn"] = screen._lamps[(0, "b")].warn
obs["lamp_4b_warn"] = screen._lamps[(4, "b")].warn

# unplug: the link state is visible
board.unplug()
wait_for(lambda: status.snapshot()["link"]["state"] == "lost", "the link lost")
show(lambda: screen.link_state == "lost", "the link lost")
obs["link_text_lost"] = screen.link_text

# leaving cancels the refresh; Back returns to the operator screen
sm.current = "operator"
frames(3)
obs["refreshing_after_leave"] = screen.refreshing
count = screen.refreshes
frames(12)  # 0.4 virtual seconds: four refreshes if the interval still ran
obs["refreshes_while_hidden"] = screen.refreshes - count
sm.current = "diagnostics"
frames(3)
screen.back()
frames(3)
obs["after_back"] = sm.current
obs["refreshing_after_back"] = screen.refreshing

reader.stop()
buttons.close()
board.close()
stopTouchApp()
print("OBS " + json.dumps(obs))
