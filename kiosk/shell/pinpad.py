"""The operator PIN pad: checking a PIN (with the wrong-PIN delays and lockout of :class:`kiosk.pin.PinGuard`) and
setting a new one (typed twice). Looks in ``layouts/pinpad.kv``.

    pad = PinPad(guard=app.pin_guard)
    pad.bind(on_success=..., on_new_pin=lambda pad, pin_hash: ..., on_cancel=...)
    pad.start("check", pin_hash)     # or pad.start("setup")

Decisions written down:

* The PBKDF2 check and hash (0.1 to 0.5 s) run in a thread (:func:`kiosk.pin.check_in_background`); the pad
  shows "Checking..." and ignores keys meanwhile, so the UI never stalls and a PIN is never checked twice.
* While a wait or a lockout runs, the keys are disabled and the message counts down each second ("Wrong PIN.
  Next try in 0:08", "Locked after 10 wrong PINs: try again in 14:32"). Opening the pad during a lockout shows
  the countdown at once: closing and reopening it (another corner hold) buys nothing.
* The set-up asks for the PIN, then the same again; a mismatch starts over with a message.
* It speaks the language its screen gives it (:class:`kiosk.ui.speaks.Speaks`: ``pad.language = "de"``); a message
  handed to :meth:`PinPad.start` comes in that language already.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ObjectProperty, OptionProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from kiosk.i18n import N_
from kiosk.pin import PinGuard, check_in_background, hash_in_background
from kiosk.ui.speaks import Speaks

__all__ = ["PinPad"]

MAX_DIGITS = 8
#: The set-up's refusals (``kiosk.pin.new_pin_hash``), translated where shown.
PIN_ERRORS = (N_("The two PINs differ. Try again."), N_("A PIN is 4 to 8 digits."))


def _clock_text(seconds: float) -> str:
    s = int(seconds + 0.999)
    return f"{s // 60}:{s % 60:02d}"


class PinPad(Speaks, BoxLayout):
    guard = ObjectProperty(None)  #: a kiosk.pin.PinGuard (None: no delays, e.g. a set-up alone)
    mode = OptionProperty("check", options=["check", "setup"])
    step = OptionProperty("first", options=["first", "second"])
    entry = StringProperty("")
    message = StringProperty("Operator PIN")
    busy = BooleanProperty(False)  #: a check or hash is running in its thread
    waiting = BooleanProperty(False)  #: a delay or lockout is running: keys disabled
    wrong = BooleanProperty(False)  #: the message tells of a wrong PIN (shown in the warning colour)

    __events__ = ("on_success", "on_new_pin", "on_cancel")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._pin_hash: str | None = None
        self._first = ""
        self._tick: Any = None
        self._generation = 0  # a result of an earlier start() is ignored
        self._counting = False  # the message is a wait's countdown

    # --- starting -----------------------------------------------------------------------------------------
    def start(self, mode: str, pin_hash: str | None = None, message: str | None = None) -> None:
        """Show the pad for checking ``pin_hash`` (``"check"``) or setting a new PIN (``"setup"``)."""
        self._generation += 1
        self.mode = mode
        self._pin_hash = pin_hash
        self.step = "first"
        self.entry = ""
        self._first = ""
        self.busy = False
        if mode == "setup":
            self._say(message or self.tr._("No operator PIN yet. Choose one (4 to 8 digits)"))
        else:
            self._say(message or self.tr._("Operator PIN"))
        self._update_wait()

    def _say(self, message: str, wrong: bool = False) -> None:
        self.message, self.wrong, self._counting = message, wrong, False

    def stop(self) -> None:
        self._generation += 1
        self.busy = False
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None

    # --- keys ---------------------------------------------------------------------------------------------
    @property
    def accepting(self) -> bool:
        return not self.busy and not self.waiting

    def digit(self, d: str) -> None:
        if self.accepting and len(self.entry) < MAX_DIGITS:
            self.entry += d

    def backspace(self) -> None:
        if self.accepting:
            self.entry = self.entry[:-1]

    def cancel(self) -> None:
        self.stop()
        self.entry = ""
        self.dispatch("on_cancel")

    def submit(self) -> None:
        if not self.accepting:
            return
        pin, self.entry = self.entry, ""
        if self.mode == "check":
            self._check(pin)
        elif self.step == "first":
            if not (4 <= len(pin) <= MAX_DIGITS):
                self._say(self.tr._("A PIN is 4 to 8 digits. Choose one"))
                return
            self._first = pin
            self.step = "second"
            self._say(self.tr._("Type the same PIN again"))
        else:
            self._hash(self._first, pin)

    # --- checking -----------------------------------------------------------------------------------------
    def _check(self, pin: str) -> None:
        self.busy = True
        self._say(self.tr._("Checking..."))
        gen = self._generation
        check_in_background(pin, self._pin_hash, lambda ok: Clock.schedule_once(lambda _dt: self._checked(gen, ok)))

    def _checked(self, gen: int, ok: bool) -> None:
        if gen != self._generation:
            return
        self.busy = False
        guard: PinGuard | None = self.guard
        if ok:
            if guard is not None:
                guard.record_success()
            self._say(self.tr._("Operator PIN"))
            self.dispatch("on_success")
            return
        if guard is not None:
            guard.record_failure()
        self._say(self.tr._("Wrong PIN"), wrong=True)
        self._update_wait()

    def _update_wait(self, _dt: float = 0) -> None:
        guard: PinGuard | None = self.guard
        wait = guard.wait_s() if guard is not None and self.mode == "check" else 0.0
        self.waiting = wait > 0
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        if not self.waiting:
            if self._counting:
                self._say(self.tr._("Operator PIN"))
            return
        if guard is not None and guard.locked_out:
            locked = self.tr.ngettext(
                "Locked after {n} wrong PIN: try again in {time}",
                "Locked after {n} wrong PINs: try again in {time}",
                guard.consecutive,
            )
            self._say(locked.format(n=self.tr.number(guard.consecutive), time=_clock_text(wait)), wrong=True)
        else:
            self._say(self.tr._("Wrong PIN. Next try in {time}").format(time=_clock_text(wait)), wrong=True)
        self._counting = True
        self._tick = Clock.schedule_once(self._update_wait, min(1.0, wait))

    # --- setting ------------------------------------------------------------------------------------------
    def _hash(self, first: str, second: str) -> None:
        self.busy = True
        self._say(self.tr._("Saving..."))
        gen = self._generation

        def done(pin_hash: str | None, error: str | None) -> None:
            Clock.schedule_once(lambda _dt: self._hashed(gen, pin_hash, error))

        hash_in_background(first, second, done)

    def _hashed(self, gen: int, pin_hash: str | None, error: str | None) -> None:
        if gen != self._generation:
            return
        self.busy = False
        if pin_hash is None:
            self.step = "first"
            why = self.tr._(error) if error else ""
            self._say(self.tr._("{error} Choose a PIN (4 to 8 digits)").format(error=why), wrong=True)
            return
        self.dispatch("on_new_pin", pin_hash)

    # --- events -------------------------------------------------------------------------------------------
    def on_success(self) -> None:
        pass

    def on_new_pin(self, pin_hash: str) -> None:
        pass

    def on_cancel(self) -> None:
        pass
