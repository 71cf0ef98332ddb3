"""The operator's hardware diagnostics screen: buttons lighting up live, taps with latency, the serial link,
lost taps, and dead-switch warnings. Its looks are in ``layouts/diagnostics.kv``.

Example::

    screen = DiagnosticsScreen(name="diagnostics", status=hardware_status)
    screen_manager.add_widget(screen)

Rationale and decisions: docs/developer/design.md, section ``kiosk/ui/diagnostics.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

import layouts

__all__ = ["DiagnosticsScreen", "DiagLamp", "DiagSeatRow", "DiagStick", "KV_PATH"]

KV_PATH = Path(layouts.__file__).parent / "diagnostics.kv"

#: How long a stick cell stays lit after a tap (seconds).
TAP_FLASH = 0.25
#: How many recent taps are listed.
RECENT_TAPS = 8

LINK_WORDS = {
    "stopped": "not started",
    "searching": "searching for the board",
    "connected": "connected (waiting for HELLO)",
    "ready": "ready",
    "silent": "connected but not answering",
    "lost": "LOST - reconnecting",
}


class DiagLamp(Label):
    """One button's lamp."""

    lit = BooleanProperty(False)
    warn = BooleanProperty(False)


class DiagSeatRow(BoxLayout):
    """One seat: a caption and a lamp per button."""

    seat = NumericProperty(0)


class DiagStick(Label):
    """One stick's cell."""

    stick = NumericProperty(0)
    lit = BooleanProperty(False)
    warn = BooleanProperty(False)


class DiagnosticsScreen(Screen):
    """Live hardware status for the operator (see the module docstring)."""

    status = ObjectProperty(None, allownone=True)
    refresh_interval = NumericProperty(0.1)
    back_screen = StringProperty("operator")
    link_state = StringProperty("stopped")
    link_text = StringProperty("")
    counters_text = StringProperty("")
    taps_text = StringProperty("")
    warnings_text = StringProperty("")
    gpio_text = StringProperty("")
    refreshes = NumericProperty(0)

    __events__ = ("on_back",)

    def __init__(self, **kw: Any) -> None:
        load_kv()
        super().__init__(**kw)
        self._event: Any = None
        self._seat_rows: dict[int, DiagSeatRow] = {}
        self._lamps: dict[tuple[int, str], DiagLamp] = {}
        self._sticks: dict[int, DiagStick] = {}

    # -- lifecycle -------------------------------------------------------------------------------------------

    def on_enter(self, *args: Any) -> None:
        self.refresh()
        if self._event is None:
            self._event = Clock.schedule_interval(self.refresh, self.refresh_interval)

    def on_leave(self, *args: Any) -> None:
        if self._event is not None:
            self._event.cancel()
            self._event = None

    @property
    def refreshing(self) -> bool:
        """True while the Clock interval is scheduled (only while shown)."""
        return self._event is not None

    def on_status(self, *args: Any) -> None:
        self.refresh()

    def on_back(self) -> bool:
        if self.manager is not None and self.manager.has_screen(self.back_screen):
            self.manager.current = self.back_screen
        return True

    def back(self) -> None:
        self.dispatch("on_back")

    # -- drawing ---------------------------------------------------------------------------------------------

    def refresh(self, *args: Any) -> None:
        """Read the status once and update every widget (UI thread)."""
        self.refreshes += 1
        if self.status is None:
            self.link_state = "stopped"
            self.link_text = "No hardware layer: keyboard only"
            self.counters_text = self.taps_text = self.gpio_text = ""
            self.warnings_text = ""
            return
        snap = self.status.snapshot()
        self._update_buttons(snap)
        self._update_sticks(snap)
        self._update_texts(snap)

    def _update_buttons(self, snap: dict[str, Any]) -> None:
        box = self.ids.get("seats")
        for seat, named in snap["buttons"].items():
            row = self._seat_rows.get(seat)
            if row is None:
                row = self._seat_rows[seat] = DiagSeatRow(seat=seat)
                if box is not None:
                    box.add_widget(row)
            for name, info in named.items():
                lamp = self._lamps.get((seat, name))
                if lamp is None:
                    lamp = self._lamps[(seat, name)] = DiagLamp(text=name)
                    row.ids.lamps.add_widget(lamp)
                lamp.lit = bool(info["pressed"])
                lamp.warn = bool(info["stuck"] or info["dead"])
                note = ""
                if info["stuck"] and info["held_for"] is not None:
                    note = f"\nheld {info['held_for']:.0f} s"
                elif info["dead"]:
                    note = f"\nunused {info['games_missed']}"
                lamp.text = f"{name}  ({info['uses']}){note}"

    def _update_sticks(self, snap: dict[str, Any]) -> None:
        grid = self.ids.get("sticks")
        for stick, info in snap["sticks"].items():
            cell = self._sticks.get(stick)
            if cell is None:
                cell = self._sticks[stick] = DiagStick(stick=stick)
                if grid is not None:
                    grid.add_widget(cell)
            ago = info["last_tap_ago"]
            cell.lit = ago is not None and ago < TAP_FLASH
            cell.warn = bool(info["dead"])
            where = "unmapped" if info["seat"] is None else f"seat {info['seat']} {info['hand']}"
            latency = "-" if info["last_latency_ms"] is None else f"{info['last_latency_ms']:.1f} ms"
            cell.text = f"Stick {stick}\n{where}\n{info['taps']} taps  {latency}"
            if info["dead"]:
                cell.text += f"\nunused {info['games_missed']} games"

    def _update_texts(self, snap: dict[str, Any]) -> None:
        link = snap["link"]
        self.link_state = link["state"]
        parts = [f"Tap board: {LINK_WORDS.get(link['state'], link['state'])}"]
        if link["port"]:
            parts.append(str(link["port"]))
        if link["firmware"]:
            parts.append(f"firmware {link['firmware']}, {link['stick_count']} sticks")
        if link["rtt_ms"] is not None and link["state"] in ("ready", "connected"):
            parts.append(f"ping {link['rtt_ms']:.1f} ms")
        if link["for"] is not None and link["state"] in ("lost", "searching", "silent"):
            parts.append(f"for {link['for']:.0f} s")
        if link["last_error"] and link["state"] in ("lost", "searching"):
            parts.append(str(link["last_error"])[:80])
        self.link_text = "  |  ".join(parts)
        errors = snap["line_errors"]
        bad = sum(v for k, v in errors.items() if k != "callback")
        self.counters_text = (
            f"Taps: {snap['taps_total']}   Lost taps: {snap['lost_taps']}   Bad lines: {bad}   "
            f"Connections: {link['connects']}   Games: {snap['games']}"
        )
        if errors.get("callback"):
            self.counters_text += f"   Handler errors: {errors['callback']}"
        lines = []
        for tap in reversed(snap["recent_taps"][-RECENT_TAPS:]):
            where = "-" if tap["seat"] is None else f"seat {tap['seat']} {tap['hand']}"
            latency = "?" if tap["latency_ms"] is None else f"{tap['latency_ms']:.1f} ms"
            lines.append(f"stick {tap['stick']:>2}  {where:<14} #{tap['seq']:<5} {latency}")
        self.taps_text = "\n".join(lines) if lines else "No taps yet: tap a stick"
        gpio = snap["gpio_available"]
        self.gpio_text = (
            "Seat buttons: GPIO"
            if gpio
            else "Seat buttons: keyboard fallback"
            if gpio is False
            else "Seat buttons: not started"
        )
        self.warnings_text = "\n".join(snap["warnings"]) if snap["warnings"] else "No warnings"


def load_kv() -> None:
    """Load ``layouts/diagnostics.kv`` once per process (a second load would duplicate its rules)."""
    path = str(KV_PATH)
    if path not in Builder.files:
        Builder.load_file(path)


load_kv()
