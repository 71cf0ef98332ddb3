"""Short sound effects, synthesised by the project at first start (nothing downloaded), muted or set by the
operator.

:func:`synthesise` writes 16-bit mono WAV files with the standard ``wave`` module into ``<state>/sounds/``
(once; an existing file is kept). :class:`Sounds` loads them with Kivy's ``SoundLoader`` and plays them at the
configured volume. No audio device (a CI machine, a Pi without speakers) is one log line, never an error.

Effects: ``place`` (a soft click-tone: a card or tile played), ``claim`` (two rising notes: an order or recipe
claimed), ``win`` (a short arpeggio), ``error`` (a low buzz: refused action), ``join`` (a blip: a seat joined),
``tick`` (a countdown tick).
"""

from __future__ import annotations

import logging
import math
import struct
import wave
from collections.abc import Iterable
from pathlib import Path
from typing import Any

log = logging.getLogger("kiosk.sound")

__all__ = ["EFFECTS", "synthesise", "Sounds"]

RATE = 22050

# name -> list of (frequency Hz or 0 for silence, seconds, waveform)
EFFECTS: dict[str, list[tuple[float, float, str]]] = {
    "place": [(660, 0.06, "sine")],
    "claim": [(523.25, 0.08, "sine"), (783.99, 0.14, "sine")],
    "win": [(523.25, 0.09, "sine"), (659.25, 0.09, "sine"), (783.99, 0.09, "sine"), (1046.5, 0.25, "sine")],
    "error": [(140, 0.22, "square")],
    "join": [(880, 0.05, "sine"), (0, 0.02, "sine"), (1320, 0.05, "sine")],
    "tick": [(1200, 0.02, "sine")],
}


def _samples(notes: Iterable[tuple[float, float, str]], volume: float = 0.5) -> bytes:
    out = bytearray()
    for freq, secs, shape in notes:
        n = int(RATE * secs)
        attack, release = int(RATE * 0.005), int(RATE * 0.03)
        for i in range(n):
            env = min(1.0, i / attack if attack else 1.0, (n - i) / release if release else 1.0)
            if freq <= 0:
                v = 0.0
            else:
                phase = 2 * math.pi * freq * i / RATE
                v = math.sin(phase) if shape == "sine" else (1.0 if math.sin(phase) >= 0 else -1.0) * 0.5
            out += struct.pack("<h", int(max(-1.0, min(1.0, v * env * volume)) * 32767))
    return bytes(out)


def synthesise(folder: Path | str, *, overwrite: bool = False) -> dict[str, Path]:
    """Write every effect as ``<folder>/<name>.wav`` (if missing); returns name -> path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, notes in EFFECTS.items():
        path = folder / f"{name}.wav"
        if overwrite or not path.exists() or path.stat().st_size < 64:
            tmp = path.with_suffix(".tmp")
            with wave.open(str(tmp), "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(RATE)
                w.writeframes(_samples(notes))
            tmp.replace(path)
        paths[name] = path
    return paths


class Sounds:
    """Plays the effects at ``volume`` (0..1) unless ``muted``. ``played`` counts plays (for tests)."""

    def __init__(self, folder: Path | str | None, volume: float = 0.7, muted: bool = False) -> None:
        """``folder`` None: silent (the kiosk's first frame comes before the effects are made and loaded)."""
        self.volume = volume
        self.muted = muted
        self.played: dict[str, int] = {}
        self._sounds: dict[str, Any] = {}
        if folder is None:
            return
        try:
            paths = synthesise(folder)
        except OSError as exc:
            log.warning("cannot write sound effects to %s: %s (no sound)", folder, exc)
            return
        try:
            from kivy.core.audio import SoundLoader
        except Exception as exc:  # no audio provider at all
            log.info("no audio provider (%s): sound effects off", exc)
            return
        missing = []
        for name, path in paths.items():
            try:
                snd = SoundLoader.load(str(path))
            except Exception:
                snd = None
            if snd is None:
                missing.append(name)
            else:
                self._sounds[name] = snd
        if missing:
            log.info("audio unavailable for %d effects: sound effects off", len(missing))

    def set(self, volume: float | None = None, muted: bool | None = None) -> None:
        if volume is not None:
            self.volume = volume
        if muted is not None:
            self.muted = muted

    def play(self, name: str) -> None:
        self.played[name] = self.played.get(name, 0) + 1
        if self.muted or self.volume <= 0:
            return
        snd = self._sounds.get(name)
        if snd is None:
            return
        try:
            snd.volume = self.volume
            snd.stop()
            snd.play()
        except Exception as exc:  # a flaky audio device must not disturb the game
            log.debug("sound %s failed: %s", name, exc)
