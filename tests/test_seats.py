"""The seat model: positions, rotations, regions, input devices, keyboard keys (no window needed)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.config import POSITIONS, Config, load_dict
from kiosk.seats import EDGE_ROTATION, KEYS, Rect, SeatMap

W, H = 1920, 1080


def six() -> SeatMap:
    return SeatMap.from_config(Config())


def test_default_table_has_six_seats_clockwise() -> None:
    t = six()
    assert [s.position for s in t] == ["south-east", "south-west", "west", "north-west", "north-east", "east"]
    assert [s.index for s in t] == list(range(6))
    assert {s.edge for s in t} == {"bottom", "left", "top", "right"}


def test_every_seat_faces_its_own_edge() -> None:
    for s in six():
        assert s.rotation == EDGE_ROTATION[s.edge]
    assert six().by_position("east").rotation == 90  # counter-clockwise: "down" points right
    assert six().by_position("west").rotation == 270


def test_regions_tile_the_edges_without_overlap_and_leave_corners_free() -> None:
    t = six()
    d = t.depth_px(W, H)
    assert d == 270
    regions = [t.region(s, W, H) for s in t]
    for a, b in itertools.combinations(regions, 2):
        overlap_w = min(a.x + a.w, b.x + b.w) - max(a.x, b.x)
        overlap_h = min(a.y + a.h, b.y + b.h) - max(a.y, b.y)
        assert overlap_w <= 0 or overlap_h <= 0
    for corner in t.corners(W, H):
        cx, cy = corner.center
        assert t.seat_at(cx, cy, W, H) is None
    assert t.region(t.by_position("south-west"), W, H) == Rect(270, 0, 690, 270)
    assert t.region(t.by_position("north-east"), W, H) == Rect(960, 810, 690, 270)
    assert t.centre(W, H) == Rect(270, 270, 1380, 540)


def test_local_size_is_along_the_edge_by_depth() -> None:
    t = six()
    assert t.local_size(t.by_position("east"), W, H) == (540, 270)
    assert t.local_size(t.by_position("south-east"), W, H) == (690, 270)


def test_single_centred_long_side_seat() -> None:
    t = SeatMap(["south", "north", "east", "west"])
    assert t.region(t.by_position("south"), W, H) == Rect(270, 0, 1380, 270)
    assert t.seat_at(960, 1000, W, H).position == "north"


def test_touch_tagging_and_nearest_seat() -> None:
    t = six()
    assert t.seat_at(100, 540, W, H).position == "west"
    assert t.seat_at(1900, 540, W, H).position == "east"
    assert t.seat_at(400, 10, W, H).position == "south-west"
    assert t.seat_at(1500, 1070, W, H).position == "north-east"
    assert t.seat_at(960, 540, W, H) is None
    assert t.nearest_seat(960, 300, W, H).edge == "bottom"
    assert t.nearest_seat(1600, 540, W, H).position == "east"


def test_input_devices_belong_to_seats() -> None:
    cfg = load_dict(
        {
            "serial": {
                "sticks": {
                    "0": {"seat": "east", "hand": "left"},
                    "1": {"seat": "east", "hand": "right"},
                    "5": {"seat": "west", "hand": "left"},
                }
            }
        }
    )
    t = SeatMap.from_config(cfg)
    east = t.by_position("east")
    assert east.sticks == (0, 1) and t.seat_for_stick(5).position == "west" and t.seat_for_stick(9) is None
    assert east.buttons == {"a": 16, "b": 19}
    assert t.button_pins()[east.index] == {"a": 16, "b": 19}
    assert t.seat_for_key("3") == (east, "a") and t.seat_for_key("e") == (east, "b")
    assert t.seat_for_key("d") == (east, "tap")
    assert t.seat_for_key("z") is None


def test_keyboard_keys_are_unique_per_table() -> None:
    for combo in (Config().seats.positions, ("south", "north", "east", "west")):
        t = SeatMap(combo)
        keys = [k for s in t for k in s.keys]
        assert len(keys) == len(set(keys)) == 3 * len(t)
    assert set(KEYS) == set(POSITIONS)


def test_symbols_and_names_distinguish_seats_without_colour() -> None:
    t = six()
    assert len({s.symbol for s in t}) == len(t) and len({s.name for s in t}) == len(t)
    assert t.by_position("south-east").label == "\u25b2 Triangle"


@settings(max_examples=40, deadline=None)
@given(
    w=st.integers(640, 3840),
    h=st.integers(480, 2160),
    x=st.floats(0, 1, exclude_max=True),
    y=st.floats(0, 1, exclude_max=True),
)
def test_every_point_is_one_seat_or_the_centre_or_a_corner(w: int, h: int, x: float, y: float) -> None:
    t = six()
    px, py = x * w, y * h
    hits = [s for s in t if t.region(s, w, h).contains(px, py)]
    assert len(hits) <= 1
    if not hits:
        in_centre = t.centre(w, h).contains(px, py)
        in_corner = any(c.contains(px, py) for c in t.corners(w, h))
        assert in_centre or in_corner


@settings(max_examples=60, deadline=None)
@given(
    w=st.integers(640, 3840),
    h=st.integers(480, 2160),
    playing=st.sets(st.integers(0, 5), min_size=1),
    x=st.floats(0, 1, exclude_max=True),
    y=st.floats(0, 1, exclude_max=True),
)
def test_a_games_centre_takes_the_empty_edges_bands_and_no_players_zone(
    w: int, h: int, playing: set[int], x: float, y: float
) -> None:
    t = six()
    seats = [t[i] for i in sorted(playing)]
    centre, full = t.centre(w, h, seats), t.centre(w, h)
    px, py = x * w, y * h
    if full.contains(px, py):
        assert centre.contains(px, py), "the centre only grows"
    for s in seats:
        assert not t.region(s, w, h).contains(px, py) or not centre.contains(px, py), "a player's zone stays theirs"
    for s in t:
        if s.edge not in {p.edge for p in seats} and t.region(s, w, h).contains(px, py):
            assert centre.contains(px, py), "an edge where nobody plays is the centre's"


def test_two_players_at_the_long_sides_get_the_whole_width() -> None:
    t = six()
    sw, ne, west = t.by_position("south-west"), t.by_position("north-east"), t.by_position("west")
    assert t.centre(W, H, [sw, ne]) == Rect(0, 270, W, 540)
    assert t.centre(W, H, [sw, west]) == Rect(270, 270, W - 270, H - 270)
    assert t.centre(W, H, list(t)) == t.centre(W, H)


def test_unknown_position_rejected() -> None:
    with pytest.raises(ValueError, match="unknown seat positions"):
        SeatMap(["south", "sideways"])
