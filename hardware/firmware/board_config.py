"""Which sensor each stick is, and its detection settings (edit on the Pico; see README.md's wiring table).

Each entry: ``(kind, gpio, threshold, dead_us)``.

* ``"switch"``: a vibration/spring switch between the GPIO and GND, internal pull-up; closed = tap.
  threshold and dead_us: the threshold is ignored (a switch is 0 or full scale), dead_us is its chatter time.
* ``"piezo"``: a piezo disc on an ADC input (GP26, GP27 or GP28 only) with a 1 MOhm resistor across it and a
  Schottky clamp (see README.md). threshold is on the 0..65535 ``read_u16`` scale.
* ``"mux"``: a piezo disc on channel ``gpio`` (0..15) of a 74HC4067 multiplexer feeding GP26 (MUX_ADC), with the
  select lines on MUX_SELECT.

Stick numbers are list positions (0..11). The default is twelve switch sticks on GP2..GP13.
"""
STICKS = [("switch", 2 + i, 32768, 40000) for i in range(12)]

# Example for piezo discs through a multiplexer (uncomment and adjust thresholds after measuring):
# STICKS = [("mux", ch, 12000, 60000) for ch in range(12)]

MUX_ADC = 26
MUX_SELECT = (14, 15, 16, 17)   # S0..S3
MUX_SETTLE_US = 5

LED = "LED"
