"""The operator's hardware diagnostics screen: buttons lighting up live, taps with latency, the serial link,
lost taps, and dead-switch warnings. Its looks are in ``layouts/diagnostics.kv``.

Example::

    screen = DiagnosticsScreen(name="diagnostics", status=hardware_status)
    screen_manager.add_widget(screen)

It speaks the table's language (``screen.language``, set by the operator desk; :class:`kiosk.ui.speaks.Speaks`);
the hardware layer's own warnings and errors stay as it writes them. Rationale and decisions:
docs/developer/design.md, section ``kiosk/shell/diagnostics.py``.
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
from kiosk.i18n import N_
from kiosk.ui.speaks import Speaks

__all__ = ["DiagnosticsScreen", "DiagLamp", "DiagSeatRow", "DiagStick", "KV_PATH"]

KV_PATH = Path(layouts.__file__).parent / "diagnostics.kv"

#: How long a stick cell stays lit after a tap (seconds).
TAP_FLASH = 0.25
#: How many recent taps are listed.
RECENT_TAPS = 8

LINK_WORDS = {
    "stopped": N_("not started"),
    "searching": N_("searching for the board"),
    "connected": N_("connected (waiting for HELLO)"),
    "ready": N_("ready"),
    "silent": N_("connected but not answering"),
    "lost": N_("LOST - reconnecting"),
}


class DiagLamp(Label):
    """One button's lamp."""

    lit = BooleanProperty(False)
    warn = BooleanProperty(False)
    face = StringProperty("")


class DiagSeatRow(Speaks, BoxLayout):
    """One seat: a caption and a lamp per button."""

    seat = NumericProperty(0)


class DiagStick(Label):
    """One stick's cell."""

    stick = NumericProperty(0)
    lit = BooleanProperty(False)
    warn = BooleanProperty(False)
    face = StringProperty("")


class DiagnosticsScreen(Speaks, Screen):
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
    warned = BooleanProperty(False)  #: the hardware layer has warnings
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

    def on_language(self, *args: Any) -> None:
        super().on_language(*args)
        if not hasattr(self, "_sticks"):
            return  # a language given to the constructor: nothing drawn yet
        for row in self._seat_rows.values():
            row.language = self.language
        for lamp in self._lamps.values():
            lamp.face = self.face
        for cell in self._sticks.values():
            cell.face = self.face
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
            self.link_text = self.tr._("No hardware layer: keyboard only")
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
                row = self._seat_rows[seat] = DiagSeatRow(seat=seat, language=self.language)
                if box is not None:
                    box.add_widget(row)
            for name, info in named.items():
                lamp = self._lamps.get((seat, name))
                if lamp is None:
                    lamp = self._lamps[(seat, name)] = DiagLamp(text=name, face=self.face)
                    row.ids.lamps.add_widget(lamp)
                lamp.lit = bool(info["pressed"])
                lamp.warn = bool(info["stuck"] or info["dead"])
                text = f"{name}  ({self.tr.number(info['uses'])})"
                if info["stuck"] and info["held_for"] is not None:
                    held = self.tr.number(round(info["held_for"]))
                    text += "\n" + self.tr._("held {seconds} s").format(seconds=held)
                elif info["dead"]:
                    text += "\n" + self.tr._("unused {games}").format(games=self.tr.number(info["games_missed"]))
                lamp.text = text

    def _update_sticks(self, snap: dict[str, Any]) -> None:
        grid = self.ids.get("sticks")
        for stick, info in snap["sticks"].items():
            cell = self._sticks.get(stick)
            if cell is None:
                cell = self._sticks[stick] = DiagStick(stick=stick, face=self.face)
                if grid is not None:
                    grid.add_widget(cell)
            ago = info["last_tap_ago"]
            cell.lit = ago is not None and ago < TAP_FLASH
            cell.warn = bool(info["dead"])
            where = self._where(info["seat"], info["hand"], self.tr._("unmapped"))
            latency = "-" if info["last_latency_ms"] is None else self._ms(info["last_latency_ms"])
            taps = self.tr.ngettext("{n} tap", "{n} taps", info["taps"]).format(n=self.tr.number(info["taps"]))
            text = self.tr._("Stick {n}").format(n=stick) + f"\n{where}\n{taps}  {latency}"
            if info["dead"]:
                unused = self.tr.ngettext("unused {n} game", "unused {n} games", info["games_missed"])
                text += "\n" + unused.format(n=self.tr.number(info["games_missed"]))
            cell.text = text

    def _where(self, seat: int | None, hand: str, unmapped: str) -> str:
        """A stick's seat and hand (``seat 2 right``) in the screen's language."""
        if seat is None:
            return unmapped
        hands = {"left": self.tr.pgettext("hand", "left"), "right": self.tr.pgettext("hand", "right")}
        return self.tr._("seat {seat} {hand}").format(seat=seat, hand=hands.get(hand, hand))

    def _ms(self, ms: float) -> str:
        return self.tr._("{ms} ms").format(ms=self.tr.number(ms, "0.0"))

    def _update_texts(self, snap: dict[str, Any]) -> None:
        link, tr = snap["link"], self.tr
        self.link_state = link["state"]
        state = tr._(LINK_WORDS[link["state"]]) if link["state"] in LINK_WORDS else link["state"]
        parts = [tr._("Tap board: {state}").format(state=state)]
        if link["port"]:
            parts.append(str(link["port"]))
        if link["firmware"]:
            sticks = tr.ngettext("firmware {version}, {n} stick", "firmware {version}, {n} sticks", link["stick_count"])
            parts.append(sticks.format(version=link["firmware"], n=tr.number(link["stick_count"])))
        if link["rtt_ms"] is not None and link["state"] in ("ready", "connected"):
            parts.append(tr._("ping {time}").format(time=self._ms(link["rtt_ms"])))
        if link["for"] is not None and link["state"] in ("lost", "searching", "silent"):
            parts.append(tr._("for {seconds} s").format(seconds=tr.number(round(link["for"]))))
        if link["last_error"] and link["state"] in ("lost", "searching"):
            parts.append(str(link["last_error"])[:80])
        self.link_text = "  |  ".join(parts)
        errors = snap["line_errors"]
        bad = sum(v for k, v in errors.items() if k != "callback")
        n = tr.number
        self.counters_text = tr._(
            "Taps: {taps}   Lost taps: {lost}   Bad lines: {bad}   Connections: {connections}   Games: {games}"
        ).format(
            taps=n(snap["taps_total"]), lost=n(snap["lost_taps"]), bad=n(bad), connections=n(link["connects"]),
            games=n(snap["games"]),
        )  # fmt: skip
        if errors.get("callback"):
            self.counters_text += "   " + tr._("Handler errors: {n}").format(n=n(errors["callback"]))
        lines = []
        for tap in reversed(snap["recent_taps"][-RECENT_TAPS:]):
            where = self._where(tap["seat"], tap["hand"], "-")
            latency = "?" if tap["latency_ms"] is None else self._ms(tap["latency_ms"])
            stick = tr._("stick {n}").format(n=f"{tap['stick']:>2}")
            lines.append(f"{stick}  {where:<14} #{tap['seq']:<5} {latency}")
        self.taps_text = "\n".join(lines) if lines else tr._("No taps yet: tap a stick")
        gpio = snap["gpio_available"]
        self.gpio_text = (
            tr._("Seat buttons: GPIO")
            if gpio
            else tr._("Seat buttons: keyboard fallback")
            if gpio is False
            else tr._("Seat buttons: not started")
        )
        self.warned = bool(snap["warnings"])
        self.warnings_text = "\n".join(snap["warnings"]) if snap["warnings"] else tr._("No warnings")


def load_kv() -> None:
    """Load ``layouts/diagnostics.kv`` once per process (a second load would duplicate its rules)."""
    path = str(KV_PATH)
    if path not in Builder.files:
        Builder.load_file(path)


load_kv()
