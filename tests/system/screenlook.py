"""What a screendump shows, told apart by its pixels: attract mode drawn by the kiosk, or a black screen or a text
console (the two ways a table fails to show itself). Thresholds from the images themselves: attract mode is a full
screen of coloured pieces and type (thousands of colours, mid brightness); a console is a black field with grey
text in a handful of colours; a screen nobody draws on is one colour."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageStat

from devtools.vm import Machine


@dataclass(frozen=True)
class Look:
    size: tuple[int, int]
    colours: int  #: distinct colours (capped at 65536)
    brightness: float  #: mean luminance 0..255
    dark_share: float  #: share of near-black pixels

    @property
    def drawn(self) -> bool:
        """A picture the kiosk drew: many colours, not a black field with text on it."""
        return self.colours > 500 and self.dark_share < 0.6 and self.brightness > 30


def look(path: Path) -> Look:
    with Image.open(path) as im:
        rgb = im.convert("RGB")
        small = rgb.resize((rgb.width // 2, rgb.height // 2))
        colours = small.getcolors(maxcolors=65536)
        grey = rgb.convert("L")
        hist = grey.histogram()
        dark = sum(hist[:16]) / (grey.width * grey.height)
        return Look(rgb.size, len(colours) if colours else 65536, ImageStat.Stat(grey).mean[0], dark)


def wait_drawn(machine: Machine, path: Path, timeout: float = 120) -> Look:
    """Screendumps until the kiosk's picture is on the screen (the first seconds after READY=1 can still be black
    while the first screens fade in); the last one stays at ``path``."""
    seen: list[Look] = []

    def drawn() -> bool:
        seen.append(look(machine.screendump(path)))
        return seen[-1].drawn

    machine.wait_until(f"the kiosk's picture on the screen ({path.name})", drawn, timeout, every=2.0)
    return seen[-1]


def wait_still(machine: Machine, path: Path, timeout: float = 120) -> Look:
    """Screendumps until two in a row, a few seconds apart, are the same picture: a screen that waits for the guests
    (the picker, a menu), not attract mode, whose bots and calls never stand still; the last stays at ``path``."""
    previous = b""

    def still() -> bool:
        nonlocal previous
        machine.screendump(path)
        now = path.read_bytes()
        same, previous = now == previous, now
        return same and look(path).drawn

    machine.wait_until(f"a still picture on the screen ({path.name})", still, timeout, every=3.0)
    return look(path)
