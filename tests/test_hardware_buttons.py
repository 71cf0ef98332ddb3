"""Seat buttons through gpiozero's MockFactory: press/release/hold, bounce, a stuck button, no GPIO, threads."""

from __future__ import annotations

import glob
import logging
import threading
import time
import warnings
from pathlib import Path

import gpiozero
import pytest
from gpiozero.pins.mock import MockFactory, MockPin
from hardware_testutil import NO_HOLD, Collector, live_threads, no_new_threads
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardware.buttons import ButtonEvent, SeatButtons
from hardware.config import DEFAULT_PINS, HardwareConfigError
from hardware.status import HardwareStatus

TWO_SEATS = {0: {"a": 5, "b": 6}, 1: {"a": 12, "b": 13}}


def kinds(events, seat=None, button=None):
    return [e.kind for e in events if (seat is None or e.seat == seat) and (button is None or e.button == button)]


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


def test_press_release_carry_seat_and_button(factory):
    events, status = Collector(), HardwareStatus()
    with SeatButtons(TWO_SEATS, events, pin_factory=factory, hold_time=NO_HOLD, status=status) as buttons:
        assert buttons.available
        buttons.pin(1, "b").drive_low()
        assert buttons.is_pressed(1, "b")
        assert status.snapshot()["buttons"][1]["b"]["pressed"] is True
        buttons.pin(1, "b").drive_high()
        buttons.pin(0, "a").drive_low()
    assert events.events == [ButtonEvent(1, "b", "press"), ButtonEvent(1, "b", "release"), ButtonEvent(0, "a", "press")]
    snap = status.snapshot()
    assert snap["gpio_available"] is True
    assert snap["buttons"][1]["b"]["pressed"] is False and snap["buttons"][1]["b"]["uses"] == 1


def test_bounce_time_reaches_every_pin_driver(factory):
    with SeatButtons(DEFAULT_PINS, lambda e: None, bounce_time=0.02, pin_factory=factory) as buttons:
        for seat, named in DEFAULT_PINS.items():
            for name, _pin in named.items():
                assert buttons.pin(seat, name).bounce == pytest.approx(0.02)
                assert buttons.pin(seat, name).pull == "up"  # wired to ground, internal pull-up


class KernelDebouncePin(MockPin):
    """A MockPin that debounces the way the Pi 5's lgpio (the kernel's line debounce) does: a level is
    reported only once it has been stable for the pin's ``bounce`` seconds. MockPin itself ignores
    ``bounce`` (checked), so without this the tests would never see the debouncing the product relies on.

    Time is virtual: ``contact(level)`` is the raw switch, ``advance(seconds)`` lets time pass."""

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self.raw = self._state
        self.stable_for = 0.0

    def contact(self, level: bool) -> None:
        if level != self.raw:
            self.raw = level
            self.stable_for = 0.0
            if not self._bounce:  # no debounce asked for: every edge is reported at once
                self._report()

    def advance(self, seconds: float) -> None:
        self.stable_for += seconds
        if self._bounce and self.stable_for >= self._bounce:
            self._report()

    def _report(self) -> None:
        if self.raw != self._state:
            self.drive_high() if self.raw else self.drive_low()


def bouncy_press_and_release(pin: KernelDebouncePin) -> None:
    """A real switch: 6 ms of chatter on press, held 200 ms, 4 ms of chatter on release (1 ms steps)."""
    for level in (0, 1, 0, 0, 1, 0):
        pin.contact(bool(level))
        pin.advance(0.001)
    for _ in range(200):
        pin.advance(0.001)
    for level in (1, 0, 1, 1):
        pin.contact(bool(level))
        pin.advance(0.001)
    for _ in range(50):
        pin.advance(0.001)


def test_bouncy_contacts_give_one_press_and_one_release_with_bounce_time():
    factory = MockFactory(pin_class=KernelDebouncePin)
    events = Collector()
    with SeatButtons(TWO_SEATS, events, bounce_time=0.02, pin_factory=factory, hold_time=NO_HOLD) as buttons:
        bouncy_press_and_release(buttons.pin(0, "a"))
    assert kinds(events.events) == ["press", "release"]
    factory.reset()


def test_without_bounce_time_the_same_contacts_chatter():
    factory = MockFactory(pin_class=KernelDebouncePin)
    events = Collector()
    with SeatButtons(TWO_SEATS, events, bounce_time=None, pin_factory=factory, hold_time=NO_HOLD) as buttons:
        bouncy_press_and_release(buttons.pin(0, "a"))
    assert kinds(events.events).count("press") > 1  # why bounce_time matters
    factory.reset()


@pytest.fixture(scope="module")
def edge_rig():
    factory = MockFactory()
    events, status = Collector(), HardwareStatus()
    buttons = SeatButtons(TWO_SEATS, events, pin_factory=factory, hold_time=NO_HOLD, status=status)
    yield buttons, events, status
    buttons.close()
    factory.reset()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(st.sampled_from([(0, "a"), (0, "b"), (1, "a")]), st.booleans()), max_size=40))
def test_any_edge_sequence_keeps_press_release_alternating_and_status_true(edge_rig, steps):
    """Even if some chatter got past the driver, events per button alternate and the status ends right."""
    buttons, events, status = edge_rig
    for key in [(0, "a"), (0, "b"), (1, "a")]:
        buttons.pin(*key).drive_high()  # everything released
    events.clear()
    for (seat, name), level in steps:
        pin = buttons.pin(seat, name)
        pin.drive_high() if level else pin.drive_low()
    final = {key: not buttons.pin(*key).state for key in [(0, "a"), (0, "b"), (1, "a")]}
    snap = status.snapshot()
    for (seat, name), pressed in final.items():
        seq = kinds(events.events, seat, name)
        assert seq == ["press", "release"] * (len(seq) // 2) + ["press"] * (len(seq) % 2)
        assert snap["buttons"][seat][name]["pressed"] is pressed


def test_stuck_button_holds_once_and_blocks_no_other_seat(factory):
    events, status = Collector(), HardwareStatus(stuck_after=0.2)
    with SeatButtons(DEFAULT_PINS, events, pin_factory=factory, hold_time=0.05, status=status) as buttons:
        for seat in range(1, 6):
            # the quick taps below are taps however slowly this machine runs between a press and its release
            buttons._buttons[(seat, "a")].hold_time = NO_HOLD
        buttons.pin(0, "a").drive_low()  # jammed down
        events.wait(lambda e: e.kind == "hold" and e.seat == 0, "seat 0's hold")
        for seat in range(1, 6):  # everybody else plays on
            for _ in range(3):
                buttons.pin(seat, "a").drive_low()
                buttons.pin(seat, "a").drive_high()
        buttons.pin(3, "b").drive_low()
        events.wait(lambda e: e.kind == "hold" and e.seat == 3, "seat 3's hold")  # another seat's hold still works
        buttons.pin(3, "b").drive_high()
        # A negative check (seat 0's hold is never repeated) needs time to pass: six more hold periods at least.
        # A loaded machine only sleeps longer; a repeat would come sooner, never later. It also puts seat 0's
        # press more than stuck_after (0.2 s) in the past, which the status must call stuck.
        time.sleep(0.3)
        for seat in range(1, 6):
            assert kinds(events.events, seat, "a") == ["press", "release"] * 3
        assert kinds(events.events, 0, "a") == ["press", "hold"]  # one hold, never repeated
        snap = status.snapshot()
        assert snap["buttons"][0]["a"]["stuck"] is True and snap["buttons"][0]["a"]["pressed"] is True
        assert any("Seat 0 button a" in w and "stuck" in w for w in snap["warnings"])
        buttons.pin(0, "a").drive_high()
    assert kinds(events.events, 0, "a") == ["press", "hold", "release"]
    assert status.snapshot()["buttons"][0]["a"]["stuck"] is False


def test_a_slow_handler_for_one_seat_does_not_delay_another_seats_hold(factory):
    """gpiozero runs each button's hold timer in its own thread."""
    events = Collector()
    gate = threading.Event()
    seat0_busy = []  # at seat 1's hold: was seat 0's handler still stuck in its hold?

    def handler(e):
        if e.seat == 1 and e.kind == "hold":
            seat0_busy.append(not gate.is_set())
        events(e)
        if e.seat == 0 and e.kind == "hold":
            gate.wait()  # the app is busy with seat 0's hold until the test lets it go

    with SeatButtons(TWO_SEATS, handler, pin_factory=factory, hold_time=0.05) as buttons:
        try:
            buttons.pin(0, "a").drive_low()
            events.wait(lambda e: e.kind == "hold" and e.seat == 0, "seat 0's hold")
            buttons.pin(1, "a").drive_low()
            # seat 0's handler stays blocked until the finally below: if seat 1's hold waited for it, this
            # wait would hang (and pytest-timeout end it)
            events.wait(lambda e: e.kind == "hold" and e.seat == 1, "seat 1's hold while seat 0's handler is busy")
            assert seat0_busy == [True]
        finally:
            gate.set()


def test_handler_exception_is_logged_and_counted(factory, caplog):
    status = HardwareStatus()

    def handler(e):
        raise RuntimeError("app bug")

    with SeatButtons(TWO_SEATS, handler, pin_factory=factory, hold_time=NO_HOLD, status=status) as buttons:
        with caplog.at_level(logging.ERROR, logger="hardware.buttons"):
            buttons.pin(0, "a").drive_low()
            buttons.pin(0, "a").drive_high()
        assert status.snapshot()["line_errors"]["callback"] == 2
        assert status.snapshot()["buttons"][0]["a"]["uses"] == 1
    assert "app bug" in caplog.text


def test_no_gpio_means_keyboard_fallback_and_one_log_line(monkeypatch, caplog):
    model = Path("/proc/device-tree/model")
    if model.exists() and "Raspberry Pi" in model.read_text(errors="ignore"):
        pytest.skip("this machine has real GPIO")
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(gpiozero.Device, "pin_factory", None)
    events, status = Collector(), HardwareStatus()
    with caplog.at_level(logging.INFO), warnings.catch_warnings():
        warnings.simplefilter("error")  # gpiozero's fallback warnings must not leak to the console
        buttons = SeatButtons(DEFAULT_PINS, events, status=status)
    assert buttons.available is False and "BadPinFactory" in buttons.unavailable_reason
    assert [r.getMessage() for r in caplog.records if r.name.startswith("hardware")] == [
        f"No GPIO ({buttons.unavailable_reason}): seat buttons use the keyboard fallback"
    ]
    # the keyboard path delivers the same events and status
    buttons.inject(2, "a", "press")
    buttons.inject(2, "a", "release")
    assert events.events == [ButtonEvent(2, "a", "press"), ButtonEvent(2, "a", "release")]
    snap = status.snapshot()
    assert snap["gpio_available"] is False and snap["buttons"][2]["a"]["uses"] == 1
    assert any("keyboard" in w for w in snap["warnings"])
    with pytest.raises(ValueError):
        buttons.inject(9, "a", "press")
    with pytest.raises(ValueError):
        buttons.inject(0, "a", "tap")
    buttons.close()


def test_a_named_pin_factory_that_finds_no_pi_is_a_clear_fallback_not_a_crash(monkeypatch, caplog):
    """The unit names gpiozero's factory (GPIOZERO_PIN_FACTORY=lgpio on a Pi 5). On a machine that is no Pi (an
    Arm board, a virtual machine) the named factory loads and then fails with its own error (gpiozero's
    PinUnknownPi, lgpio's ``error``), not an OSError: the kiosk keeps running on the keyboard and says why. Here
    gpiozero's own native factory, which fails that way on this PC."""
    if glob.glob("/dev/gpiochip*"):
        pytest.skip("this machine has a GPIO chip")
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "native")
    monkeypatch.setattr(gpiozero.Device, "pin_factory", None)
    events, status = Collector(), HardwareStatus()
    with caplog.at_level(logging.INFO):
        buttons = SeatButtons(DEFAULT_PINS, events, status=status)
    assert buttons.available is False
    assert buttons.unavailable_reason.startswith("no GPIO chip (no /dev/gpiochip*), PinUnknownPi: ")
    assert status.snapshot()["gpio_available"] is False
    assert "keyboard fallback" in caplog.text and "no GPIO chip" in caplog.text


def test_bad_pin_map_is_a_config_error(factory):
    with pytest.raises(HardwareConfigError, match="BCM pin 5 is used by both"):
        SeatButtons({0: {"a": 5}, 1: {"a": 5}}, print, pin_factory=factory)


def test_close_is_quick_with_buttons_held_down(factory):
    # gpiozero alone: close() waits out the hold time of every pressed button. The hold time here is longer than
    # the test may run, so a close() that waited for it would be ended by pytest-timeout (the stack shows
    # where); no bound of this test's own depends on the machine's speed.
    events = Collector()
    buttons = SeatButtons(DEFAULT_PINS, events, pin_factory=factory, hold_time=NO_HOLD)
    for seat in DEFAULT_PINS:
        buttons.pin(seat, "a").drive_low()  # every hold timer is running
    t0 = time.monotonic()
    buttons.close()
    assert time.monotonic() - t0 < NO_HOLD
    assert kinds(events.events) == ["press"] * len(DEFAULT_PINS)  # closed before any hold: none fired


def test_close_releases_pins_and_stops_hold_threads():
    before = live_threads()
    factory = MockFactory()
    events = Collector()
    buttons = SeatButtons(DEFAULT_PINS, events, pin_factory=factory, hold_time=0.05)
    assert len(live_threads() - before) == 12  # gpiozero's hold thread per button
    buttons.pin(0, "a").drive_low()
    events.wait(lambda e: e.kind == "hold", "seat 0's hold")
    buttons.close()
    buttons.close()
    no_new_threads(before)
    # the pins are free again: a new set can claim them
    SeatButtons(DEFAULT_PINS, events, pin_factory=factory).close()
    factory.reset()
