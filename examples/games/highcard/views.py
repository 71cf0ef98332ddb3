"""What a High Card seat sees: its own hand (None for a spectator), every hand's size, the trick, the points."""

from __future__ import annotations

from typing import TypedDict, final

__all__ = ["HighCardView"]


@final
class HighCardView(TypedDict):
    phase: str
    hand: list[int] | None
    hand_sizes: list[int]
    trick: list[list[int]]
    points: list[int]
    to_move: list[int]
