"""THE seat model: the one place in the code that knows the table.

    >>> from kiosk.config import Config
    >>> table = SeatMap.from_config(Config())
    >>> [s.position for s in table.seats]
    ['south-east', 'south-west', 'west', 'north-west', 'north-east', 'east']
    >>> table.seat_at(100, 500, 1920, 1080).position      # a touch near the left (west) edge
    'west'
    >>> table.by_position("north-east").rotation            # faces a player sitting at the top edge
    180
    >>> table.region(table.by_position("east"), 1920, 1080)
    Rect(x=1650.0, y=270.0, w=270.0, h=540.0)
    >>> table.centre(1920, 1080)                             # between every seat's zone
    Rect(x=270.0, y=270.0, w=1380.0, h=540.0)
    >>> table.centre(1920, 1080, [table.by_position("south-west"), table.by_position("north-east")])
    Rect(x=0.0, y=270.0, w=1920.0, h=540.0)

Rationale and decisions: docs/developer/design.md, section ``kiosk/seats.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from kiosk.config import POSITIONS, Config

__all__ = ["Rect", "Seat", "SeatMap", "EDGE_ROTATION", "SEAT_STYLES", "KEYS"]


class Rect(NamedTuple):
    x: float
    y: float
    w: float
    h: float

    def contains(self, px: float, py: float) -> bool:
        return self.x <= px < self.x + self.w and self.y <= py < self.y + self.h

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)


#: Rotation (degrees counter-clockwise) that turns a widget to face a player sitting at that edge.
EDGE_ROTATION: dict[str, int] = {"bottom": 0, "right": 90, "top": 180, "left": 270}

_POSITION_EDGE = {
    "south-west": "bottom",
    "south": "bottom",
    "south-east": "bottom",
    "east": "right",
    "north-east": "top",
    "north": "top",
    "north-west": "top",
    "west": "left",
}

#: Symbol, name and colour of each seat position: the symbol and its name are the cue, colour only helps.
#: The glyphs are in DejaVu Sans, which Kivy ships (``data/fonts/DejaVuSans.ttf``).
SEAT_STYLES: dict[str, tuple[str, str, tuple[float, float, float, float]]] = {
    "south-west": ("\u25cf", "Circle", (0.95, 0.35, 0.30, 1)),  # ● red
    "south": ("\u25cf", "Circle", (0.95, 0.35, 0.30, 1)),
    "south-east": ("\u25b2", "Triangle", (0.25, 0.65, 0.95, 1)),  # ▲ blue
    "east": ("\u25a0", "Square", (0.98, 0.80, 0.20, 1)),  # ■ yellow
    "north-east": ("\u25c6", "Diamond", (0.35, 0.80, 0.40, 1)),  # ◆ green
    "north": ("\u25c6", "Diamond", (0.35, 0.80, 0.40, 1)),
    "north-west": ("\u2605", "Star", (0.75, 0.45, 0.95, 1)),  # ★ purple
    "west": ("\u2665", "Heart", (1.00, 0.60, 0.20, 1)),  # ♥ orange
}

#: Keyboard fallback, per seat position: (button "a", button "b", tap stick). Documented in docs/kiosk.md.
#: Digits are the "a" buttons (choose / join / TAKOYAKI!), the row below them the "b" buttons (next choice; held:
#: back), the home row the tap sticks (the seat buttons' mapping: kiosk.ui.focus).
KEYS: dict[str, tuple[str, str, str]] = {
    "south-west": ("1", "q", "a"),
    "south": ("1", "q", "a"),
    "south-east": ("2", "w", "s"),
    "east": ("3", "e", "d"),
    "north-east": ("4", "r", "f"),
    "north": ("4", "r", "f"),
    "north-west": ("5", "t", "g"),
    "west": ("6", "y", "h"),
}


@dataclass(frozen=True)
class Seat:
    """One seat of the table (see the module docstring for the geometry and numbering)."""

    index: int
    position: str
    edge: str
    rotation: int
    symbol: str
    name: str
    colour: tuple[float, float, float, float]
    buttons: Mapping[str, int] = field(default_factory=dict)  # button name -> BCM pin
    sticks: tuple[int, ...] = ()  # tap stick numbers
    keys: Mapping[str, str] = field(default_factory=dict)  # keyboard key -> "a" | "b" | "tap"

    @property
    def label(self) -> str:
        """What the seat is called on screen: its symbol and shape name, e.g. '▲ Triangle'."""
        return f"{self.symbol} {self.name}"


class SeatMap:
    """The table's seats and their screen geometry (pure Python; widgets live in :mod:`kiosk.ui.seatzone`)."""

    def __init__(
        self,
        positions: Iterable[str],
        depth: float = 0.25,
        pins: Mapping[str, Mapping[str, int]] | None = None,
        sticks: Mapping[int, tuple[str, str]] | None = None,
    ) -> None:
        wanted = set(positions)
        unknown = wanted - set(POSITIONS)
        if unknown:
            raise ValueError(f"unknown seat positions: {sorted(unknown)}")
        pins = pins or {}
        sticks = sticks or {}
        self.depth = depth
        seats: list[Seat] = []
        for pos in POSITIONS:  # clockwise
            if pos not in wanted:
                continue
            edge = _POSITION_EDGE[pos]
            symbol, name, colour = SEAT_STYLES[pos]
            a, b, tap = KEYS[pos]
            seats.append(
                Seat(
                    index=len(seats),
                    position=pos,
                    edge=edge,
                    rotation=EDGE_ROTATION[edge],
                    symbol=symbol,
                    name=name,
                    colour=colour,
                    buttons=dict(pins.get(pos, {})),
                    sticks=tuple(sorted(k for k, (p, _hand) in sticks.items() if p == pos)),
                    keys={a: "a", b: "b", tap: "tap"},
                )
            )
        self.seats: list[Seat] = seats
        self._by_position = {s.position: s for s in seats}

    @classmethod
    def from_config(cls, cfg: Config) -> SeatMap:
        return cls(cfg.seats.positions, cfg.seats.depth, cfg.pins, cfg.serial.sticks)

    # ---------------------------------------------------------------------------------------- look-ups
    def __len__(self) -> int:
        return len(self.seats)

    def __iter__(self) -> Iterator[Seat]:
        return iter(self.seats)

    def __getitem__(self, index: int) -> Seat:
        return self.seats[index]

    def by_position(self, position: str) -> Seat:
        return self._by_position[position]

    def seat_for_key(self, key: str) -> tuple[Seat, str] | None:
        """The seat and its input ("a", "b" or "tap") a keyboard key stands for, or None."""
        for seat in self.seats:
            if key in seat.keys:
                return seat, seat.keys[key]
        return None

    def seat_for_stick(self, stick: int) -> Seat | None:
        for seat in self.seats:
            if stick in seat.sticks:
                return seat
        return None

    def seat_for_pin_seat(self, index: int) -> Seat | None:
        """Seat buttons are wired by seat index (see :meth:`button_pins`)."""
        return self.seats[index] if 0 <= index < len(self.seats) else None

    def button_pins(self) -> dict[int, dict[str, int]]:
        """``{seat index: {button: BCM pin}}`` for ``hardware.buttons.SeatButtons``."""
        return {s.index: dict(s.buttons) for s in self.seats if s.buttons}

    # ---------------------------------------------------------------------------------------- geometry
    def depth_px(self, width: float, height: float) -> float:
        return round(self.depth * min(width, height))

    def region(self, seat: Seat, width: float, height: float) -> Rect:
        """The seat's zone in window coordinates (axis-aligned)."""
        d = self.depth_px(width, height)
        pos = seat.position
        if seat.edge in ("bottom", "top"):
            y = 0.0 if seat.edge == "bottom" else float(height - d)
            side = "south" if seat.edge == "bottom" else "north"
            if pos == side:
                return Rect(float(d), y, float(width - 2 * d), float(d))
            mid = width / 2
            if pos.endswith("west"):
                return Rect(float(d), y, float(mid - d), float(d))
            return Rect(float(mid), y, float(width - d - mid), float(d))
        x = 0.0 if seat.edge == "left" else float(width - d)
        return Rect(x, float(d), float(d), float(height - 2 * d))

    def local_size(self, seat: Seat, width: float, height: float) -> tuple[float, float]:
        """The zone's size as its player sees it: (along the edge, depth into the table)."""
        r = self.region(seat, width, height)
        return (r.w, r.h) if seat.edge in ("bottom", "top") else (r.h, r.w)

    def centre(self, width: float, height: float, seats: Iterable[Seat] | None = None) -> Rect:
        """The shared middle of the table, between the seat zones (corners excluded).

        ``seats``: the seats in play (a game's); the centre then also takes the band of every edge where none of
        them sits (its zones are empty in this game), so a game at two sides has a larger board. Without it
        every seat of the table counts."""
        d = float(self.depth_px(width, height))
        used = {s.edge for s in (self.seats if seats is None else seats)}
        x0 = d if "left" in used else 0.0
        x1 = float(width) - d if "right" in used else float(width)
        y0 = d if "bottom" in used else 0.0
        y1 = float(height) - d if "top" in used else float(height)
        return Rect(x0, y0, x1 - x0, y1 - y0)

    def corners(self, width: float, height: float) -> list[Rect]:
        """The four corner squares that belong to no seat (the operator gesture's home)."""
        d = self.depth_px(width, height)
        return [
            Rect(0.0, 0.0, d, d),
            Rect(width - d, 0.0, d, d),
            Rect(0.0, height - d, d, d),
            Rect(width - d, height - d, d, d),
        ]

    def seat_at(self, x: float, y: float, width: float, height: float) -> Seat | None:
        """The seat whose zone holds the point, or None (centre or a corner)."""
        for seat in self.seats:
            if self.region(seat, width, height).contains(x, y):
                return seat
        return None

    def nearest_seat(self, x: float, y: float, width: float, height: float) -> Seat:
        """The seat closest to a point anywhere on the table (whose player most likely touched there)."""

        def dist(seat: Seat) -> float:
            cx, cy = self.region(seat, width, height).center
            return (cx - x) ** 2 + (cy - y) ** 2

        return min(self.seats, key=dist)

    def facing_edge_rotation(self, edge: str) -> int:
        """Rotation for a shared (centre) widget that should face the given edge."""
        return EDGE_ROTATION[edge]
