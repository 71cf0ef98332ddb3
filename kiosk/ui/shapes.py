"""Shapes every piece draws, without Kivy (kv files import them)."""

from __future__ import annotations

__all__ = ["rounded_box"]


def rounded_box(x: float, y: float, w: float, h: float, r: float) -> tuple[float, float, float, float, float]:
    """A ``Line(rounded_rectangle=...)`` argument Kivy draws safely: at least 2 px each way and a corner radius
    under half the shorter side (a collapsed or over-rounded box corrupts Kivy's line buffer)."""
    w, h = max(2.0, w), max(2.0, h)
    return (x, y, w, h, max(0.0, min(r, w / 2 - 0.5, h / 2 - 0.5)))
