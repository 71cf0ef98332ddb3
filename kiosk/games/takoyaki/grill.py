"""The Takoyaki grill: geometry, ball and order encodings, and the match test (pure data, no game flow).

>>> g = parse_grill("rr../gg../bb..")
>>> format_grill(g)
'rr../gg../bb..'
>>> matches(parse_grill("rr../gg../..BB"), parse_order("RR../GG../..BB"))
True

Rationale and decisions: docs/developer/design.md, section ``kiosk/games/takoyaki/grill.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

ROWS = 3
COLS = 4
SPACES = ROWS * COLS
#: Columns of the heated area (the player's right half).
HEATED_COLUMNS = (2, 3)
COLOURS = (1, 2, 3)
COLOUR_NAMES = {1: "red", 2: "green", 3: "blue"}
LETTERS = {1: "r", 2: "g", 3: "b"}
BALLS_PER_COLOUR = 2

Grill = tuple[int, ...]
Order = tuple[int, ...]


def space(row: int, col: int) -> int:
    return row * COLS + col


HEATED: tuple[bool, ...] = tuple(s % COLS in HEATED_COLUMNS for s in range(SPACES))
#: Manhattan distance between two spaces (the fewest pushes for a ball on an empty grill).
DIST: tuple[tuple[int, ...], ...] = tuple(
    tuple(abs(a // COLS - b // COLS) + abs(a % COLS - b % COLS) for b in range(SPACES)) for a in range(SPACES)
)
#: Orthogonal neighbours of each space, ascending.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(b for b in range(SPACES) if DIST[a][b] == 1) for a in range(SPACES)
)


def ball(colour: int, fried: bool) -> int:
    return colour + 3 * int(fried)


def colour_of(code: int) -> int:
    """The colour (1-3) of a ball code, 0 for an empty space."""
    return 0 if code == 0 else (code - 1) % 3 + 1


def is_fried(code: int) -> bool:
    return code > 3


def flipped(code: int) -> int:
    return code + 3 if code <= 3 else code - 3


def _rows(text: str) -> list[str]:
    rows = text.strip().split("/")
    if len(rows) != ROWS or any(len(r) != COLS for r in rows):
        raise ValueError(f"expected {ROWS} rows of {COLS} spaces separated by '/', got {text!r}")
    return rows


def parse_grill(text: str) -> Grill:
    """``"rr../gg../bb.."`` -> grill tuple; checks there are two balls of each colour."""
    cells: list[int] = []
    for row in _rows(text):
        for ch in row:
            if ch == ".":
                cells.append(0)
                continue
            colour = {"r": 1, "g": 2, "b": 3}.get(ch.lower())
            if colour is None:
                raise ValueError(f"unknown ball {ch!r} in {text!r}")
            cells.append(ball(colour, ch.isupper()))
    grill = tuple(cells)
    check_grill(grill)
    return grill


def format_grill(grill: Sequence[int]) -> str:
    out = []
    for r in range(ROWS):
        row = ""
        for c in range(COLS):
            code = grill[space(r, c)]
            row += (
                "." if code == 0 else (LETTERS[colour_of(code)].upper() if is_fried(code) else LETTERS[colour_of(code)])
            )
        out.append(row)
    return "/".join(out)


def parse_order(text: str) -> Order:
    """``"..RR/..GG/..BB"`` -> order tuple; checks it is a valid order card."""
    cells: list[int] = []
    for row in _rows(text):
        for ch in row:
            colour = {".": 0, "R": 1, "G": 2, "B": 3}.get(ch)
            if colour is None:
                raise ValueError(f"an order card has only '.', 'R', 'G' and 'B', not {ch!r} ({text!r})")
            cells.append(colour)
    order = tuple(cells)
    check_order(order)
    return order


def format_order(order: Sequence[int]) -> str:
    return "/".join("".join(".RGB"[order[space(r, c)]] for c in range(COLS)) for r in range(ROWS))


def check_grill(grill: Sequence[int]) -> None:
    if len(grill) != SPACES or any(not isinstance(v, int) or not 0 <= v <= 6 for v in grill):
        raise ValueError(f"a grill is {SPACES} spaces of 0-6, got {grill!r}")
    for c in COLOURS:
        if sum(1 for v in grill if colour_of(v) == c) != BALLS_PER_COLOUR:
            raise ValueError(f"a grill holds two {COLOUR_NAMES[c]} balls: {format_grill(grill)}")


def check_order(order: Sequence[int]) -> None:
    if len(order) != SPACES or any(not isinstance(v, int) or not 0 <= v <= 3 for v in order):
        raise ValueError(f"an order is {SPACES} spaces of 0-3, got {order!r}")
    for c in COLOURS:
        if sum(1 for v in order if v == c) != BALLS_PER_COLOUR:
            raise ValueError(f"an order shows two {COLOUR_NAMES[c]} balls: {format_order(order)}")


def goal_grill(order: Sequence[int]) -> Grill:
    """The one grill that meets ``order``."""
    return tuple(0 if c == 0 else ball(c, HEATED[s]) for s, c in enumerate(order))


def matches(grill: Sequence[int], order: Sequence[int]) -> bool:
    """True exactly when ``grill`` meets ``order`` (the "TAKOYAKI!" check)."""
    for s in range(SPACES):
        c = order[s]
        v = grill[s]
        if c == 0:
            if v:
                return False
        elif v == 0 or (v - 1) % 3 + 1 != c or (v > 3) != HEATED[s]:
            return False
    return True


#: All six raw side up in the unheated area, a row per colour (as the box illustration).
START: Grill = parse_grill("rr../gg../bb..")
