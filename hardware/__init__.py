"""The table's hardware: seat buttons on GPIO, tap sticks on USB serial, and their shared status.

This package never imports Kivy. Its classes call back with plain events from their own threads; the app
hands them to the UI thread (``Clock.schedule_once``). See docs/hardware.md and hardware/PROTOCOL.md.

* :class:`hardware.buttons.SeatButtons` -> :class:`hardware.buttons.ButtonEvent`
* :class:`hardware.taps.TapReader` -> :class:`hardware.taps.TapEvent`, :class:`hardware.taps.LinkEvent`
* :class:`hardware.status.HardwareStatus`: what the diagnostics screen shows
* :mod:`hardware.config`: default pin and stick maps, validation
"""

from .config import HardwareConfigError, StickPlace, default_config, parse_config
from .status import HardwareStatus

__all__ = ["HardwareConfigError", "StickPlace", "default_config", "parse_config", "HardwareStatus"]
