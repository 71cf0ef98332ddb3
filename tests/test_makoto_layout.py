"""Makoto's card layouts as geometry (kiosk/games/makoto/layout.py): the centre's numbers stay readable, a hand's
pages reach every card with every place a whole touch target. No window: the screens' own tests look at them."""

from __future__ import annotations

import doctest

from hypothesis import given
from hypothesis import strategies as st

from kiosk.games.makoto import layout
from kiosk.games.makoto.cards import card_number_size, card_width
from kiosk.games.makoto.layout import PILE_STEP, blind_steps, hand_pages, legible_strip


def test_doctests() -> None:
    result = doctest.testmod(layout)
    assert result.attempted >= 5 and result.failed == 0


def test_a_readable_strip_carries_a_two_digit_number_at_the_minimum() -> None:
    for min_px, card_h in ((14.0, 50.0), (18.0, 64.0)):
        strip = legible_strip(min_px)
        assert card_number_size(strip, card_h * 0.9, 2) >= min_px  # the corner label's size (pieces.kv)
        assert card_number_size(strip - 3, card_h * 0.9, 2) < min_px  # and not much more room than that


def test_the_side_slice_blind_that_drew_1_px_numbers() -> None:
    """A short side's slice at 1280x800: a Blind row of 281 x 53 px held ten cards at 1 px; now each readable."""
    numbers = [2, 4, 5, 10, 10, 11, 11, 12, 13, 13]
    cw = card_width(52.8)
    strip = legible_strip(14)
    steps = blind_steps(numbers, 281, cw, strip)
    assert len(steps) == len(numbers)
    assert all(s >= strip for s in steps[:-1]), steps
    assert sum(steps) <= 281 + 0.01


@given(
    numbers=st.lists(st.integers(1, 13), min_size=1, max_size=30).map(sorted),
    width=st.floats(60, 1200),
    card_h=st.floats(40, 140),
    min_px=st.sampled_from([14.0, 18.0]),
)
def test_blind_steps_keep_every_number_readable(numbers: list[int], width: float, card_h: float, min_px: float) -> None:
    cw = min(card_width(card_h), width)
    strip = legible_strip(min_px)
    steps = blind_steps(numbers, width, cw, strip)
    k = len(steps)
    assert 1 <= k <= len(numbers)
    assert steps[-1] == cw
    if k > 1:
        assert sum(steps) <= width + 0.01, "the row stays in its box"
    for i, s in enumerate(steps[:-1]):
        if s < cw:  # a covered card: a readable strip, or a pile under a card of its own number
            assert s >= strip or (s == PILE_STEP and numbers[i] == numbers[i + 1]), (i, s, numbers[: k + 1])
    if k < len(numbers):  # cards give way only when even piles do not fit: the highest ones
        groups = len(set(numbers[: k + 1]))
        assert cw + (groups - 1) * strip + (k - groups + 1) * PILE_STEP > width - 0.01


@given(n=st.integers(0, 18), capacity=st.integers(0, 20))
def test_hand_pages_reach_every_card_within_the_room(n: int, capacity: int) -> None:
    pages = hand_pages(n, capacity)
    assert pages[0][0] == 0 and pages[-1][1] == n
    assert all(a[1] == b[0] for a, b in zip(pages, pages[1:])), "pages follow each other, no card left out"
    if len(pages) > 1:
        for i, (start, end) in enumerate(pages):
            buttons = (i > 0) + (i < len(pages) - 1)
            assert end - start > 0 and end - start + buttons <= capacity, (pages, capacity)
    else:
        assert n <= capacity or capacity < 3  # one page: it fits (or no room to page at all)
