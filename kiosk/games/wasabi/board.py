"""Wasabi!'s board: what a square's top holds, and the precomputed squares, windows and neighbours of each width."""

from __future__ import annotations

from kiosk.games.wasabi.cards import COLUMNS, LENGTHS, ROWS

EMPTY = -1  # tops[] value of an empty uncovered square
COVERED = -2  # tops[] value of a square under a Wasabi! card


class Geometry:
    """Precomputed squares, windows and neighbours of one board width (shared by all states)."""

    def __init__(self, cols: int) -> None:
        self.cols = cols
        self.size = ROWS * cols
        self.windows: dict[int, list[tuple[int, ...]]] = {}
        self.windows_at: dict[int, list[list[tuple[int, ...]]]] = {}
        for length in LENGTHS:
            ws: list[tuple[int, ...]] = []
            for r in range(ROWS):
                for c in range(cols - length + 1):
                    ws.append(tuple(r * cols + c + i for i in range(length)))
            for c in range(cols):
                for r in range(ROWS - length + 1):
                    ws.append(tuple((r + i) * cols + c for i in range(length)))
            self.windows[length] = ws
            at: list[list[tuple[int, ...]]] = [[] for _ in range(self.size)]
            for w in ws:
                for sq in w:
                    at[sq].append(w)
            self.windows_at[length] = at
        self.pairs: list[tuple[int, int]] = sorted(
            [(r * cols + c, r * cols + c + 1) for r in range(ROWS) for c in range(cols - 1)]
            + [(r * cols + c, (r + 1) * cols + c) for r in range(ROWS - 1) for c in range(cols)]
        )
        self.blocks: list[tuple[int, int, int, int]] = [
            (r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1)
            for r in range(ROWS - 1)
            for c in range(cols - 1)
        ]
        self.block_at: dict[int, tuple[int, int, int, int]] = {b[0]: b for b in self.blocks}

    def name(self, sq: int) -> str:
        """A player-readable square name: row letter and column number, e.g. ``B3``."""
        return f"{'ABCDEF'[sq // self.cols]}{sq % self.cols + 1}"


GEOMETRY: dict[int, Geometry] = {n: Geometry(c) for n, c in COLUMNS.items()}
