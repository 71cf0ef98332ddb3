"""Tap stick firmware entry point (MicroPython, Raspberry Pi Pico). Runs at power-up.

All decisions (detection, framing, clock) live in tapcore.py, which the kiosk's tests run under CPython; this
file only reads the pins and moves lines over the USB serial port. Untested on hardware by the kiosk's CI:
check it on a bench with README.md's procedure.
"""
import sys
import select
import time

import machine

import board_config as cfg
from tapcore import Clock32, StickDetector, TapBoard, FULL_SCALE


def make_readers():
    """One zero-argument function per stick returning a 0..65535 sample."""
    readers = []  # type: list
    mux_adc = None
    select_pins = None
    for kind, gpio, _threshold, _dead in cfg.STICKS:
        if kind == "switch":
            pin = machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP)
            readers.append(lambda pin=pin: FULL_SCALE if pin.value() == 0 else 0)
        elif kind == "piezo":
            adc = machine.ADC(machine.Pin(gpio))
            readers.append(adc.read_u16)
        elif kind == "mux":
            if mux_adc is None:
                mux_adc = machine.ADC(machine.Pin(cfg.MUX_ADC))
                select_pins = [machine.Pin(p, machine.Pin.OUT) for p in cfg.MUX_SELECT]

            def read(ch=gpio, adc=mux_adc, sel=select_pins):
                for bit in range(4):
                    sel[bit].value((ch >> bit) & 1)
                time.sleep_us(cfg.MUX_SETTLE_US)
                return adc.read_u16()
            readers.append(read)
        else:
            raise ValueError("unknown stick kind %r" % kind)
    return readers


def main():
    readers = make_readers()
    detectors = [StickDetector(threshold=t if k != "switch" else FULL_SCALE // 2, dead_us=d)
                 for k, _g, t, d in cfg.STICKS]
    board = TapBoard(Clock32(time.ticks_us, time.ticks_diff), detectors)
    led = machine.Pin(cfg.LED, machine.Pin.OUT)
    out = sys.stdout
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    out.write(board.hello())
    led_off_at = None
    while True:
        lines = board.scan([r() for r in readers])
        for line in lines:
            out.write(line)
        if lines:
            led.on()
            led_off_at = time.ticks_add(time.ticks_ms(), 50)
        elif led_off_at is not None and time.ticks_diff(time.ticks_ms(), led_off_at) >= 0:
            led.off()
            led_off_at = None
        while poll.poll(0):
            ch = sys.stdin.buffer.read(1) if hasattr(sys.stdin, "buffer") else sys.stdin.read(1).encode()
            for reply in board.receive(ch):
                out.write(reply)


main()
