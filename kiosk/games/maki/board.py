"""Maki's play area: its size by player count, what a space holds, and the precomputed lines of each size."""

from __future__ import annotations

from dataclasses import dataclass

ROWS = 6
#: Board columns by player count (the rest of the board is covered by the action display).
COLUMNS = {2: 5, 3: 6, 4: 7}
#: What a space holds besides an ingredient kind (an index into ``cards.KINDS``).
EMPTY, CUP = -1, -2


@dataclass(frozen=True)
class Geometry:
    """Precomputed lines of a board size: every straight segment of each length, and which contain a cell."""

    cols: int
    segments: dict[int, tuple[tuple[int, ...], ...]]
    cell_segments: dict[int, tuple[tuple[tuple[int, ...], ...], ...]]
    adjacent: tuple[tuple[int, int], ...]

    @property
    def cells(self) -> int:
        return ROWS * self.cols


def _geometry(cols: int) -> Geometry:
    segs: dict[int, list[tuple[int, ...]]] = {}
    for length in range(2, 6):
        out = []
        for r in range(ROWS):
            for c in range(cols - length + 1):
                out.append(tuple(r * cols + c + i for i in range(length)))
        for c in range(cols):
            for r in range(ROWS - length + 1):
                out.append(tuple((r + i) * cols + c for i in range(length)))
        segs[length] = out
    n = ROWS * cols
    cell_segs = {L: tuple(tuple(s for s in segs[L] if cell in s) for cell in range(n)) for L in segs}
    adj = [(a, b) for a in range(n) for b in (a + 1, a + cols) if b < n and (b == a + cols or b % cols != 0)]
    return Geometry(cols, {L: tuple(v) for L, v in segs.items()}, cell_segs, tuple(sorted(adj)))


GEOMETRY: dict[int, Geometry] = {c: _geometry(c) for c in set(COLUMNS.values())}


def cell_name(cols: int, cell: int) -> str:
    """A cell as players read it: row letter and column number, e.g. ``B3``."""
    return f"{'ABCDEF'[cell // cols]}{cell % cols + 1}"


#: Per board width: the orthogonally adjacent pairs ``(a, b)``, ``a < b``.
ADJACENT: dict[int, frozenset[tuple[int, int]]] = {c: frozenset(g.adjacent) for c, g in GEOMETRY.items()}
