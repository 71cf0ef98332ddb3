"""The small marks in a corner of the attract screen that tell the operator something needs them ("No operator
PIN", "Settings problem"): see :meth:`kiosk.health.Health.marks`. Looks in ``layouts/marks.kv``.

The mark sits in the bottom-left corner, the square that belongs to no seat (where the operator gesture is held),
small and dim: guests may see it, but it is addressed to whoever holds that corner. Empty text hides it. Its text
follows the app's ``operator_marks`` (set by the operator's room, :meth:`kiosk.shell.desk.OperatorRoom.update_marks`);
while the bots play in attract mode, the call in that corner shows the same marks instead
(:class:`kiosk.shell.attractscreen.EdgeCalls`).
"""

from __future__ import annotations

from collections.abc import Sequence

from kivy.uix.label import Label

__all__ = ["CornerMark", "mark_text"]


def mark_text(marks: Sequence[str]) -> str:
    """The marks, one a line, each behind a warning sign ("" for none)."""
    return "\n".join(f"\u26a0 {m}" for m in marks)


class CornerMark(Label):
    """The attract screen's mark (its text: ``layouts/marks.kv``)."""
