"""Makoto's card layouts as plain geometry (no Kivy): readable strips in the centre, the Blind's steps, a hand's
pages. The widgets in :mod:`kiosk.games.makoto.centre` and :mod:`kiosk.games.makoto.hand` place cards by them; the
tests check them without a window."""

from __future__ import annotations

from kiosk.games.makoto.cards import DIGIT_EM

__all__ = ["PILE_STEP", "legible_strip", "blind_steps", "hand_pages"]

#: The distance between two cards of one number lying as a pile in the Blind (their edges show, no number).
PILE_STEP = 7.0


def legible_strip(min_px: float) -> float:
    """The least width of a covered card's strip that carries a two-digit corner number at ``min_px``
    (:func:`~kiosk.games.makoto.cards.card_number_size` gives the corner ``width * 0.8 / (DIGIT_EM * digits)``), with a
    pixel to spare.

    >>> round(legible_strip(14), 1), round(legible_strip(18), 1)
    (24.1, 30.7)
    """
    return min_px * DIGIT_EM * 2 / 0.8 + 1.0


def blind_steps(numbers: list[int], width: float, card_w: float, strip: float, gap: float = 4.0) -> list[float]:
    """Where each card of a sorted Blind row starts, as the distance to the next card (the last one's is its own
    width): whole cards side by side when they fit; else an even overlap that leaves each covered card at least
    ``strip`` (its corner number readable); else cards of one number as piles (:data:`PILE_STEP`) and the
    readable strips shared out; else as many of the lowest cards as fit that way (the list is shorter).

    >>> blind_steps([2, 4, 5], 300, 40, 25)
    [44.0, 44.0, 40]
    >>> [round(s) for s in blind_steps([2, 4, 5, 7], 130, 40, 25)]
    [30, 30, 30, 40]
    >>> blind_steps([3, 3, 3, 9], 100, 40, 25)
    [7.0, 7.0, 44.0, 40]
    """
    n = len(numbers)
    if n == 0:
        return []
    if n * (card_w + gap) - gap <= width:
        return [card_w + gap] * (n - 1) + [card_w]
    even = (width - card_w) / max(1, n - 1)
    if even >= strip:
        return [even] * (n - 1) + [card_w]
    for k in range(n, 0, -1):
        shown = numbers[:k]
        piled = [a == b for a, b in zip(shown, shown[1:])]
        readable = piled.count(False)
        room = width - card_w - PILE_STEP * piled.count(True)
        if readable == 0 and room >= 0:
            return [PILE_STEP] * (k - 1) + [card_w]
        if readable and room / readable >= strip:
            wide = min(card_w + gap, room / readable)
            return [PILE_STEP if p else wide for p in piled] + [card_w]
    return [card_w]


def hand_pages(n: int, capacity: int) -> list[tuple[int, int]]:
    """The pages of a hand of ``n`` cards in a box that holds ``capacity`` targets: ``(start, end)`` card indexes
    per page. One page when everything fits; else the first and last pages give a place to one page button,
    the middle ones to two.

    >>> hand_pages(14, 20)
    [(0, 14)]
    >>> hand_pages(14, 8)
    [(0, 7), (7, 14)]
    >>> hand_pages(18, 6)
    [(0, 5), (5, 9), (9, 13), (13, 18)]
    """
    if n <= capacity or capacity < 3:
        return [(0, n)]
    pages = []
    start, end = 0, capacity - 1
    while n - start > capacity - 1:
        pages.append((start, end))
        start, end = end, end + capacity - 2
    pages.append((start, n))
    return pages
