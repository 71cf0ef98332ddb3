"""The operator PIN: its hash in the config file (:func:`hash_pin`, :func:`check_pin`, PBKDF2), and its policy:
growing delays, a lockout, and a log of every wrong PIN (no Kivy, no screens).

    >>> guard = PinGuard(None, clock=lambda: 1000.0)     # None: kept in memory only (a test, a try-out)
    >>> for _ in range(3):
    ...     _ = guard.record_failure()
    >>> guard.wait_s()                                   # the 4th try waits
    5.0
    >>> guard.record_success(); guard.wait_s()
    0.0

Rationale and decisions: docs/developer/design.md, section ``kiosk/pin.py``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
import secrets
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from kiosk import clock as kiosk_clock
from kiosk import safejson
from kiosk.files import atomic_write_bytes, quarantine

__all__ = [
    "hash_pin",
    "check_pin",
    "pin_hash_problem",
    "PIN_ITERATIONS",
    "FORMER_DEFAULT_PIN",
    "FORMER_DEFAULT_PIN_HASH",
    "DEFAULT_PIN",
    "PinGuard",
    "delay_after",
    "check_in_background",
    "hash_in_background",
    "new_pin_hash",
    "FREE_TRIES",
    "LOCKOUT_AFTER",
    "LOCKOUT_S",
]

log = logging.getLogger("kiosk.operator")

#: The factory PIN of the versions that had one. Never accepted now: a config still holding its factory hash
#: (:data:`FORMER_DEFAULT_PIN_HASH`, fixed salt) loads as "no PIN", with a problem for the operator, and the
#: installer uses the PIN to recognise an old install's hash and replace it. (``DEFAULT_PIN`` is its old name.)
FORMER_DEFAULT_PIN = "2468"
DEFAULT_PIN = FORMER_DEFAULT_PIN
FORMER_DEFAULT_PIN_HASH = (
    "pbkdf2_sha256$120000$6b696f736b2d64656661756c74$fdcf4b5c917e763de93fb06130f90cc99a1cc296b79e889542c7c6d03a62e08e"
)
#: PBKDF2 iterations of a new PIN hash, and the range a stored hash may use.
PIN_ITERATIONS = 120_000
PIN_ITERATIONS_RANGE = (10_000, 600_000)
_PIN_HASH = re.compile(r"pbkdf2_sha256\$([0-9]{1,9})\$([0-9a-fA-F]{16,128})\$([0-9a-fA-F]{64})\Z")
_PIN = re.compile(r"[0-9]{4,8}\Z")


def hash_pin(pin: str, *, salt: bytes | None = None, iterations: int = PIN_ITERATIONS) -> str:
    """Hash an operator PIN for the config file. PINs are 4 to 8 digits (0-9)."""
    if not (isinstance(pin, str) and _PIN.match(pin)):
        raise ValueError("the operator PIN must be 4 to 8 digits (0-9)")
    lo, hi = PIN_ITERATIONS_RANGE
    if not lo <= iterations <= hi:
        raise ValueError(f"iterations must be between {lo} and {hi}")
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations)
    return f"pbkdf2_sha256${iterations}${salt.hex()}${digest.hex()}"


def check_pin(pin: str, pin_hash: str | None) -> bool:
    """True when ``pin`` matches the stored hash (constant-time comparison). False for no hash or a hash whose
    parameters are out of range (never a multi-second computation). Takes about 0.1 to 0.5 s: call it off the UI
    thread."""
    if pin_hash is None or pin_hash_problem(pin_hash) is not None or not _PIN.match(pin or ""):
        return False
    _algo, iterations, salt, digest = pin_hash.split("$")
    got = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), int(iterations))
    return hmac.compare_digest(got.hex(), digest.lower())


def pin_hash_problem(value: Any) -> str | None:
    """Why ``value`` cannot be an operator PIN hash (None if it can); the text names what is allowed."""
    if value is None:
        return None
    if not isinstance(value, str):
        return f"must be a string made by `kiosk --set-pin` (or null: no PIN yet), got {_short(value)}"
    if not value.startswith("pbkdf2_sha256$"):
        return (
            "unknown algorithm: must look like pbkdf2_sha256$<iterations>$<salt hex>$<hash hex> (use `kiosk --set-pin`)"
        )
    m = _PIN_HASH.match(value)
    if not m:
        return (
            "must look like pbkdf2_sha256$<iterations>$<salt hex>$<hash hex>: iterations in digits 0-9, a salt of "
            "16 to 128 and a hash of 64 hexadecimal digits (use `kiosk --set-pin`)"
        )
    lo, hi = PIN_ITERATIONS_RANGE
    if not lo <= int(m.group(1)) <= hi:
        return f"iterations must be between {lo} and {hi}, got {int(m.group(1))} (use `kiosk --set-pin`)"
    if len(m.group(2)) % 2:
        return "the salt must have an even number of hexadecimal digits (use `kiosk --set-pin`)"
    return None


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


FREE_TRIES = 3
LOCKOUT_AFTER = 10
LOCKOUT_S = 15 * 60.0
MAX_DELAY_S = 60.0
KEEP_FAILURES = 200
FILE_NAME = "operator-pin.json"
_MAX_BYTES = 64 * 1024


def delay_after(failures: int) -> float:
    """Seconds to wait before the next try after ``failures`` wrong PINs in a row."""
    if failures < FREE_TRIES:
        return 0.0
    if failures < LOCKOUT_AFTER:
        return float(min(MAX_DELAY_S, 5.0 * 2.0 ** (failures - FREE_TRIES)))
    return LOCKOUT_S


class PinGuard:
    """Counts wrong PINs, says how long the next try must wait, and keeps the failure log.

    ``path``: the state file (``<state folder>/operator-pin.json``), or None to keep everything in memory.
    ``clock``: wall-clock seconds (:func:`kiosk.clock.wall`); tests pass a fake one.
    """

    def __init__(self, path: Path | str | None, *, clock: Callable[[], float] = kiosk_clock.wall) -> None:
        self.path = Path(path) if path is not None else None
        self._clock = clock
        self._lock = threading.Lock()
        self.consecutive = 0  #: wrong PINs in a row
        self.failures: list[float] = []  #: times of the last wrong PINs, oldest first
        self.menu_seen = 0.0  #: when the operator menu was last opened
        #: Why the state file was not usable (moved aside), or could not be written; None when fine.
        self.problem: str | None = None
        self._load()

    # --- the policy ------------------------------------------------------------------------------------
    def wait_s(self) -> float:
        """Seconds until the next try is allowed (0.0: now)."""
        with self._lock:
            if not self.failures or self.consecutive < FREE_TRIES:
                return 0.0
            delay = delay_after(self.consecutive)
            elapsed = max(0.0, self._clock() - self.failures[-1])  # a clock that went back counts as no time
            return max(0.0, delay - elapsed)

    @property
    def locked_out(self) -> bool:
        """True during a lockout (10 or more wrong PINs in a row and the 15 minutes not over)."""
        return self.consecutive >= LOCKOUT_AFTER and self.wait_s() > 0

    def record_failure(self) -> float:
        """A wrong PIN was entered: log it with its time, keep it, and return the wait before the next try."""
        with self._lock:
            now = self._clock()
            self.consecutive += 1
            self.failures = (self.failures + [now])[-KEEP_FAILURES:]
            n = self.consecutive
        wait = delay_after(n)
        log.warning(
            "wrong operator PIN at %s (%d in a row)%s",
            datetime.fromtimestamp(now).astimezone().isoformat(timespec="seconds"),
            n,
            f"; next try in {wait:.0f} s" if wait else "",
        )
        self._save()
        return wait

    def record_success(self) -> None:
        """The right PIN: the count starts again (the log stays)."""
        with self._lock:
            changed = self.consecutive != 0
            self.consecutive = 0
        if changed:
            self._save()

    def reset(self) -> None:
        """A new PIN was set (``kiosk --set-pin``): no wait, no lockout."""
        self.record_success()

    # --- the operator menu -----------------------------------------------------------------------------
    def failures_since_menu(self) -> list[datetime]:
        """Wrong PINs since the operator menu was last opened, oldest first (local times)."""
        with self._lock:
            return [datetime.fromtimestamp(t).astimezone() for t in self.failures if t > self.menu_seen]

    def menu_opened(self) -> None:
        """The menu was opened (and showed :meth:`failures_since_menu`): those count as seen."""
        with self._lock:
            self.menu_seen = max([self._clock(), *self.failures])
        self._save()

    # --- the file --------------------------------------------------------------------------------------
    def _load(self) -> None:
        if self.path is None:
            return
        try:
            data = safejson.read_file(self.path, max_bytes=_MAX_BYTES, max_depth=3)
            consecutive, failures, seen = data["consecutive"], data["failures"], data["menu_seen"]
            if not (
                isinstance(consecutive, int)
                and not isinstance(consecutive, bool)
                and 0 <= consecutive < 10**6
                and isinstance(failures, list)
                and all(isinstance(t, (int, float)) and not isinstance(t, bool) for t in failures)
                and isinstance(seen, (int, float))
            ):
                raise ValueError("not a PIN failure log")
        except FileNotFoundError:
            return
        except OSError as exc:
            self.problem = f"{self.path.name} cannot be read: {exc.strerror or exc}"
            log.error("%s", self.problem)
            return
        except (ValueError, KeyError, TypeError) as exc:
            self.problem = f"{self.path.name} was damaged ({exc}) and moved aside"
            try:
                quarantine(self.path, str(exc))
            except OSError as move_exc:
                log.error("could not move %s aside: %s", self.path, move_exc)
            return
        self.consecutive = consecutive
        self.failures = sorted(float(t) for t in failures)[-KEEP_FAILURES:]
        self.menu_seen = float(seen)

    def _save(self) -> None:
        if self.path is None:
            return
        with self._lock:
            blob = json.dumps(
                {"consecutive": self.consecutive, "failures": self.failures, "menu_seen": self.menu_seen}
            ).encode()
        try:
            atomic_write_bytes(self.path, blob)
        except OSError as exc:
            self.problem = f"{self.path.name} cannot be written ({exc.strerror or exc}): kept in memory"
            log.error("%s", self.problem)


# ------------------------------------------------------------------------------------------------ PIN set-up
def new_pin_hash(first: str, second: str) -> str:
    """The hash for a PIN typed twice; ``ValueError`` with the message for the set-up screen."""
    if first != second:
        raise ValueError("The two PINs differ. Try again.")
    try:
        return hash_pin(first)
    except ValueError:
        raise ValueError("A PIN is 4 to 8 digits.") from None


def check_in_background(pin: str, pin_hash: str | None, done: Callable[[bool], None]) -> threading.Thread:
    """Check ``pin`` in a daemon thread and call ``done(matches)`` from that thread (hand it to the UI with
    ``Clock.schedule_once``)."""
    return kiosk_clock.background(lambda: done(check_pin(pin, pin_hash)), "pin-check")


def hash_in_background(first: str, second: str, done: Callable[[str | None, str | None], None]) -> threading.Thread:
    """:func:`new_pin_hash` in a daemon thread; ``done(hash, None)`` or ``done(None, message)``."""

    def run() -> None:
        try:
            h = new_pin_hash(first, second)
        except ValueError as exc:
            done(None, str(exc))
            return
        done(h, None)

    return kiosk_clock.background(run, "pin-hash")
