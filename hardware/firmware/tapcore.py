"""Tap stick firmware logic: detection (threshold + dead time), the 32-bit clock, and the line protocol.

This module runs unchanged on the Pico under MicroPython (copy it next to main.py) and under CPython, where
the kiosk's tests cover it and the tests' simulated board speaks through it. So it uses only what both have:
no typing, no dataclasses, no f-string format specs, no bytes/str mixing beyond ``encode``.

Protocol (hardware/PROTOCOL.md): ASCII lines ending in ``\n`` (the board also takes ``\r`` and ``\r\n``).

* board to kiosk: ``HELLO tapstick <version> <stick count>``, ``TAP <stick> <t_us> <seq>``, ``PONG <t_us>``
* kiosk to board: ``PING``, ``HELLO?``

Rationale and decisions: docs/developer/design.md, section ``hardware/firmware/tapcore.py``.
"""

VERSION = "1.0.0"
MAX_STICKS = 12
FULL_SCALE = 65535          # ADC.read_u16() range
MASK32 = 0xFFFFFFFF          # board clock: microseconds, wrapping at 2**32
SEQ_MASK = 0xFFFF            # sequence: 0..65535, wrapping
MAX_COMMAND = 32             # kiosk-to-board lines are short; anything longer is dropped whole


def diff32(a, b):
    """``a - b`` on the 32-bit wrapping clock, as a signed number (valid while |a - b| < 2**31 us)."""
    d = (a - b) & MASK32
    return d - 0x100000000 if d >= 0x80000000 else d


class Clock32:
    """Extends a narrower wrapping tick counter to the protocol's 32-bit microsecond clock.

    MicroPython's ``time.ticks_us()`` wraps at 2**30 on the rp2 port (its small-int range), not 2**32, so the
    board counts the elapsed ticks with ``ticks_diff`` and keeps its own 32-bit total. ``now()`` must be
    called at least once per half tick period (about 9 minutes): the main loop calls it every scan.
    """

    def __init__(self, ticks_us, ticks_diff):
        self._ticks_us = ticks_us
        self._ticks_diff = ticks_diff
        self._last = ticks_us()
        self._now = 0

    def now(self):
        t = self._ticks_us()
        self._now = (self._now + self._ticks_diff(t, self._last)) & MASK32
        self._last = t
        return self._now


class StickDetector:
    """One stick's tap detector: ``feed(value, t_us)`` returns True when this sample is a new tap.

    ``threshold``: the level (0..65535) that makes a tap; ``dead_us``: how long after a tap nothing counts;
    ``rearm``: the level the signal must stay under (default half the threshold) for ``quiet_us`` before the
    next tap can count. The quiet time matters for piezo discs: a rectified ring dips to zero twice per cycle,
    so one low sample proves nothing, while 5 ms under the re-arm level means the ring is over.
    """

    def __init__(self, threshold=20000, dead_us=60000, rearm=None, quiet_us=5000):
        if not 0 < threshold <= FULL_SCALE:
            raise ValueError("threshold must be 1..65535")
        if dead_us < 0 or quiet_us < 0:
            raise ValueError("dead and quiet times must be 0 or more")
        self.threshold = threshold
        self.dead_us = dead_us
        self.quiet_us = quiet_us
        self.rearm = threshold // 2 if rearm is None else rearm
        if not 0 <= self.rearm <= self.threshold:
            raise ValueError("rearm level must be between 0 and the threshold")
        self.armed = True
        self.last_tap = None
        self.quiet_since = None

    def feed(self, value, t_us):
        if not self.armed:
            if (((t_us - self.last_tap) & MASK32) >= self.dead_us and self.quiet_since is not None
                    and ((t_us - self.quiet_since) & MASK32) >= self.quiet_us):
                self.armed = True
            else:
                if value < self.rearm:
                    if self.quiet_since is None:
                        self.quiet_since = t_us
                else:
                    self.quiet_since = None
                return False
        if value >= self.threshold:
            self.armed = False
            self.last_tap = t_us
            self.quiet_since = None
            return True
        return False


def encode_tap(stick, t_us, seq):
    return "TAP %d %d %d\n" % (stick, t_us & MASK32, seq & SEQ_MASK)


def encode_hello(version, sticks):
    return "HELLO tapstick %s %d\n" % (version, sticks)


def encode_pong(t_us):
    return "PONG %d\n" % (t_us & MASK32)


class CommandBuffer:
    """Splits the kiosk's bytes into commands; lines longer than ``MAX_COMMAND`` are dropped whole.

    A line ends at ``\n``, ``\r`` or ``\r\n`` (one end, not two): the kiosk sends ``\n``, a terminal's Enter
    (``mpremote``, ``screen``, ``minicom``) sends ``\r``. The ``\n`` of a ``\r\n`` may come in the next ``feed``
    (the Pico reads one byte at a time).
    """

    def __init__(self, limit=MAX_COMMAND):
        self.limit = limit
        self.buf = bytearray()
        self.skipping = False
        self.after_cr = False

    def feed(self, data):
        """Add bytes; return the complete commands (str, stripped) they finish, in order."""
        out = []
        for b in data:
            after_cr = self.after_cr
            self.after_cr = b == 13
            if b == 10 and after_cr:  # the \n of a \r\n: its line has ended already
                continue
            if b == 10 or b == 13:  # \n or \r
                if not self.skipping:
                    out.append(_ascii(self.buf).strip())
                self.buf = bytearray()
                self.skipping = False
            elif self.skipping:
                continue
            elif len(self.buf) >= self.limit:
                self.buf = bytearray()
                self.skipping = True
            else:
                self.buf.append(b)
        return out


def _ascii(buf):
    # printable ASCII only; MicroPython's bytes.decode() takes no error handler, so filter by hand
    return "".join(chr(b) for b in buf if 32 <= b < 127)


class TapBoard:
    """The board's protocol state: sticks, sequence counter, answers to commands.

    ``clock`` is a :class:`Clock32` (or anything with ``now()``); ``detectors`` one :class:`StickDetector`
    per stick, in stick order. :meth:`scan` feeds one sample per stick and returns the lines to send.
    """

    def __init__(self, clock, detectors, version=VERSION):
        if not 0 < len(detectors) <= MAX_STICKS:
            raise ValueError("a board has 1 to 12 sticks")
        self.clock = clock
        self.detectors = detectors
        self.version = version
        self.seq = 0
        self.commands = CommandBuffer()

    def hello(self):
        return encode_hello(self.version, len(self.detectors))

    def tap(self, stick, t_us):
        """The line for a tap of ``stick`` at ``t_us``; advances the sequence."""
        line = encode_tap(stick, t_us, self.seq)
        self.seq = (self.seq + 1) & SEQ_MASK
        return line

    def scan(self, values):
        """Feed one sample per stick (taken now); return the TAP lines for the taps they start."""
        t = self.clock.now()
        out = []
        for stick in range(len(self.detectors)):
            if self.detectors[stick].feed(values[stick], t):
                out.append(self.tap(stick, t))
        return out

    def command(self, text):
        """The reply to one kiosk command (str without newline), or None (unknown commands are ignored)."""
        if text == "PING":
            return encode_pong(self.clock.now())
        if text == "HELLO?":
            return self.hello()
        return None

    def receive(self, data):
        """Feed bytes from the kiosk; return the reply lines."""
        out = []
        for cmd in self.commands.feed(data):
            reply = self.command(cmd)
            if reply is not None:
                out.append(reply)
        return out
