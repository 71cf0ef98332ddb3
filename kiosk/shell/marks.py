"""The small marks in a corner of the attract screen that tell the operator something needs them ("No operator
PIN", "Settings problem"): see :meth:`kiosk.health.Health.marks`. Looks in ``layouts/marks.kv``.

The mark sits in the bottom-left corner, the square that belongs to no seat (where the operator gesture is held),
small and dim: guests may see it, but it is addressed to whoever holds that corner. Empty text hides it.
"""

from __future__ import annotations

from collections.abc import Sequence

from kivy.uix.label import Label

__all__ = ["CornerMark"]


class CornerMark(Label):
    def show(self, marks: Sequence[str]) -> None:
        """Show these marks (one a line); none hides the mark."""
        self.text = "\n".join(f"\u26a0 {m}" for m in marks)
