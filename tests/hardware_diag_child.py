"""Run by tests/test_hardware_diagnostics.py in its own process (Kivy allows one window per process, and the
shell's UI tests own theirs): the diagnostics screen in a real window, fed by the real hardware classes
(SeatButtons on gpiozero's MockFactory, TapReader on a simulated board over a pty). Prints one JSON line of
observations; the parent asserts on them. Argument: a folder for the screenshot and temporary files.
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
from kivy.base import EventLoop, runTouchApp, stopTouchApp  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.lang import Builder  # noqa: E402
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager  # noqa: E402

from hardware.buttons import SeatButtons  # noqa: E402
from hardware.config import default_config, parse_config  # noqa: E402
from hardware.simboard import SimulatedBoard  # noqa: E402
from hardware.status import HardwareStatus  # noqa: E402
from hardware.taps import TapEvent, TapReader  # noqa: E402
from kiosk.ui import diagnostics  # noqa: E402
from kiosk.ui.diagnostics import DiagnosticsScreen  # noqa: E402

obs: dict = {"window": type(Window).__module__}


def frames(seconds: float = 0.0, until=None) -> None:
    end = time.monotonic() + seconds
    while True:
        EventLoop.idle()
        if until is not None and until():
            return
        if time.monotonic() >= end and until is None:
            return
        if until is not None and time.monotonic() > end + 30:
            raise SystemExit("timed out waiting: " + getattr(until, "__name__", "condition"))
        time.sleep(0.005)


cfg = parse_config(default_config())
status = HardwareStatus(dead_after_games=2, stuck_after=0.5)
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
frames(0.2)

obs["refreshing_before_enter"] = screen.refreshing
screen.status = status
sm.current = "diagnostics"
frames(0.1)
obs["refreshing_when_shown"] = screen.refreshing
obs["kv_loaded_once"] = Builder.files.count(str(diagnostics.KV_PATH))
obs["seat_rows"] = len(screen.ids.seats.children)
obs["stick_cells"] = len(screen.ids.sticks.children)

# a button lights up live, and goes dark again
buttons.pin(2, "a").drive_low()
frames(until=lambda: screen._lamps[(2, "a")].lit)
obs["lamp_2a_lit"] = screen._lamps[(2, "a")].lit
obs["lamp_2b_lit"] = screen._lamps[(2, "b")].lit

# the serial link comes up; taps show with latency
reader.start()
frames(until=lambda: screen.link_state == "ready")
frames(until=lambda: status.snapshot()["link"]["rtt_ms"] is not None)
board.tap(5)
frames(until=lambda: screen._sticks[5].lit)
frames(until=lambda: "ms" in screen.taps_text.splitlines()[-1])
obs["stick5_text"] = screen._sticks[5].text
obs["taps_text"] = screen.taps_text
obs["link_text_ready"] = screen.link_text
obs["stuck_warning"] = None
frames(0.7)  # seat 2 "a" still down: stuck after 0.5 s
obs["stuck_warning"] = [w for w in status.snapshot()["warnings"] if "stuck" in w]
obs["lamp_2a_warn"] = screen._lamps[(2, "a")].warn
shot = Window.screenshot(name=str(out / "diagnostics.png"))  # Kivy numbers it: diagnostics0001.png
os.replace(shot, out / "diagnostics.png")
obs["screenshot"] = sorted(p.name for p in out.glob("diagnostics*.png"))
buttons.pin(2, "a").drive_high()
frames(until=lambda: not screen._lamps[(2, "a")].lit)

# dead switches after games without use, lost taps
for _ in range(3):
    status.game_started(seats=[0, 1])
board.send_line("TAP 1 5 40\n")  # after seq 0: 39 lost
frames(until=lambda: "Lost taps: 39" in screen.counters_text)
obs["counters_text"] = screen.counters_text
obs["warnings_text"] = screen.warnings_text
obs["lamp_0b_warn"] = screen._lamps[(0, "b")].warn
obs["lamp_4b_warn"] = screen._lamps[(4, "b")].warn

# unplug: the link state is visible
board.unplug()
frames(until=lambda: screen.link_state == "lost")
obs["link_text_lost"] = screen.link_text

# leaving cancels the refresh; Back returns to the operator screen
sm.current = "operator"
frames(0.1)
obs["refreshing_after_leave"] = screen.refreshing
count = screen.refreshes
frames(0.4)
obs["refreshes_while_hidden"] = screen.refreshes - count
sm.current = "diagnostics"
frames(0.1)
screen.back()
frames(0.1)
obs["after_back"] = sm.current
obs["refreshing_after_back"] = screen.refreshing

reader.stop()
buttons.close()
board.close()
stopTouchApp()
print("OBS " + json.dumps(obs))
