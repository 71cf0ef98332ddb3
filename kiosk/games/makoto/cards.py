"""Makoto's card geometry, without Kivy: how wide a card must be for its number and how a row of cards overlaps.

Decision: a card is never too narrow for its number. A card keeps a playing card's proportions
(:data:`CARD_ASPECT`); its number's size comes from the width it has (:func:`card_number_size`, the whole card or,
in an overlapping row, the strip left in view), so the number always fits; and a row overlaps cards rather than
squeezing them (:func:`row_layout`), keeping at least a touch target's width of every card in view, wrapping to
a second line when that is not possible.
"""

from __future__ import annotations

import math

__all__ = ["CARD_ASPECT", "DIGIT_EM", "card_width", "card_number_size", "row_layout"]

#: A Makoto card's width over its height (a playing card's proportions).
CARD_ASPECT = 0.68
#: A number's width over its font size, per digit, bold (a safe bound for DejaVu Sans and Inter digits).
DIGIT_EM = 0.66


def card_width(height: float) -> float:
    """A Makoto card's width for its height: wide enough for a two-digit number at the card's number size."""
    return height * CARD_ASPECT


def card_number_size(width: float, height: float, digits: int) -> float:
    """The number's font size on a card: as large as the corner allows, and the whole number always fits."""
    return max(1.0, min(height * 0.34, (width * 0.80) / (DIGIT_EM * max(1, digits))))


def row_layout(
    n: int, width: float, height: float, *, min_step: float, max_rows: int = 2, gap: float = 4.0
) -> tuple[float, float, float, int]:
    """Card size and overlap for ``n`` cards in a ``width`` x ``height`` box: ``(card_w, card_h, step, per_row)``.

    Cards keep :data:`CARD_ASPECT`; ``step`` is the distance between two cards' left edges (less than the card's
    width when they overlap); it is never below ``min_step`` (a touch target's width, and more than the corner
    number): with too many cards the row wraps, up to ``max_rows``, and the cards get smaller only when even
    that does not fit.

    >>> row_layout(5, 1000, 200, min_step=60)[3]
    5
    >>> cw, ch, step, per_row = row_layout(18, 600, 200, min_step=60)
    >>> per_row, step >= 60, ch <= 100
    (9, True, True)
    """
    if n <= 0 or width <= 0 or height <= 0:
        return 0.0, 0.0, 0.0, 0
    for rows in range(1, max_rows + 1):
        per_row = math.ceil(n / rows)
        ch = (height - gap * (rows - 1)) / rows
        cw = card_width(ch)
        if cw > width:
            cw = width
            ch = cw / CARD_ASPECT
        step = cw + gap if per_row * (cw + gap) - gap <= width else (width - cw) / max(1, per_row - 1)
        if step >= min_step or per_row == 1:
            return cw, ch, step, per_row
    # still too many: shrink the cards so that the last layout's step is met
    per_row = math.ceil(n / max_rows)
    ch = (height - gap * (max_rows - 1)) / max_rows
    step = min_step
    cw = min(card_width(ch), max(1.0, width - step * (per_row - 1)))
    ch = min(ch, cw / CARD_ASPECT)
    step = min(min_step, (width - cw) / max(1, per_row - 1))
    return cw, ch, step, per_row
