"""HardwareStatus (dead switches, stuck buttons, link, thread safety) and the hardware configuration helper."""

from __future__ import annotations

import json
import threading

import pytest

from hardware.config import (
    DEFAULT_PINS,
    DEFAULT_STICKS,
    HardwareConfigError,
    StickPlace,
    default_config,
    parse_config,
    parse_pins,
    parse_serial,
    parse_sticks,
)
from hardware.status import HardwareStatus


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def make_status(**kw) -> HardwareStatus:
    st = HardwareStatus(**kw)
    st.register_buttons(parse_pins(DEFAULT_PINS))
    st.register_sticks(parse_sticks(DEFAULT_STICKS))
    return st


def test_snapshot_is_plain_json_data():
    st = make_status()
    st.record_button(0, "a", "press")
    st.record_tap(3, 1000, 0, 5.0, 0.0012, seat=1, hand="right")
    st.set_link("connected", port="/dev/tapstick0")
    snap = st.snapshot()
    json.dumps(snap)
    assert snap["recent_taps"][-1] == {
        "stick": 3,
        "seat": 1,
        "hand": "right",
        "t_us": 1000,
        "seq": 0,
        "received": 5.0,
        "latency_ms": 1.2,
    }
    assert snap["sticks"][3]["last_latency_ms"] == 1.2
    snap["buttons"][0]["a"]["pressed"] = False  # a copy: changing it changes nothing
    assert st.snapshot()["buttons"][0]["a"]["pressed"] is True


def test_a_device_unused_for_more_than_n_games_at_its_seat_is_flagged_and_clears_on_use():
    st = make_status(dead_after_games=3)
    for _ in range(3):
        st.game_started(seats=[0, 1])
        st.record_button(0, "a", "press")
        st.record_button(0, "a", "release")
    snap = st.snapshot()
    assert not any(b["dead"] for seat in snap["buttons"].values() for b in seat.values())
    st.game_started(seats=[0, 1])  # 4th game without seat 0 "b" or seat 1 anything
    snap = st.snapshot()
    assert snap["buttons"][0]["b"]["dead"] and snap["buttons"][1]["a"]["dead"]
    assert not snap["buttons"][0]["a"]["dead"]
    assert not snap["buttons"][4]["a"]["dead"]  # seat 4 did not play: not blamed
    assert "Seat 0 button b not used in the last 3 games: check the switch" in snap["warnings"]
    st.record_button(0, "b", "press")
    assert not st.snapshot()["buttons"][0]["b"]["dead"]


def test_sticks_are_not_blamed_for_games_without_sticks():
    st = make_status(dead_after_games=1)
    for _ in range(5):
        st.game_started(sticks=False)
    assert not any(s["dead"] for s in st.snapshot()["sticks"].values())
    st.game_started()
    st.game_started()
    snap = st.snapshot()
    assert all(s["dead"] for s in snap["sticks"].values())
    assert any(w.startswith("Stick 0 (seat 0 left) not used") for w in snap["warnings"])
    st.record_tap(0, 1, 0, 1.0, None)
    assert not st.snapshot()["sticks"][0]["dead"]


def test_usage_survives_a_restart_and_bad_usage_data_is_ignored():
    st = make_status(dead_after_games=2)
    for _ in range(3):
        st.game_started()
    usage = json.loads(json.dumps(st.usage()))
    again = make_status(dead_after_games=2)
    again.load_usage(usage)
    assert again.snapshot()["buttons"][2]["a"]["dead"] and again.snapshot()["games"] == 3
    broken = make_status()
    broken.load_usage({"games": "many", "buttons": 7})
    assert broken.snapshot()["games"] == 0


def test_stuck_and_held_for_use_the_clock():
    clock = FakeClock()
    st = HardwareStatus(stuck_after=30, clock=clock)
    st.register_buttons({0: {"a": 5}})
    st.record_button(0, "a", "press")
    clock.t += 10
    st.record_button(0, "a", "hold")
    b = st.snapshot()["buttons"][0]["a"]
    assert b["held"] and b["held_for"] == pytest.approx(10) and not b["stuck"]
    clock.t += 25
    assert st.snapshot()["buttons"][0]["a"]["stuck"]
    st.record_button(0, "a", "release")
    b = st.snapshot()["buttons"][0]["a"]
    assert not b["pressed"] and b["held_for"] is None and not b["stuck"]


def test_link_state_counts_connections_and_rejects_unknown_states():
    st = make_status()
    st.set_link("searching")
    st.set_link("connected", port="/dev/ttyACM0")
    st.set_link("ready", firmware="1.0.0", stick_count=12)
    st.set_link("lost", last_error="unplugged")
    st.set_link("connected", port="/dev/ttyACM0")
    link = st.snapshot()["link"]
    assert link["connects"] == 2 and link["state"] == "connected" and link["firmware"] is None
    with pytest.raises(ValueError):
        st.set_link("exploded")
    with pytest.raises(ValueError):
        st.set_link("ready", colour="red")


def test_concurrent_writers_and_readers_lose_nothing():
    st = make_status()
    n = 2000

    def taps(stick):
        for i in range(n):
            st.record_tap(stick, i, i, float(i), 0.001)

    def buttons(seat):
        for _ in range(n):
            st.record_button(seat, "a", "press")
            st.record_button(seat, "a", "release")

    def reader():
        for _ in range(200):
            st.snapshot()

    threads = [threading.Thread(target=taps, args=(s,)) for s in range(4)]
    threads += [threading.Thread(target=buttons, args=(s,)) for s in range(4)] + [threading.Thread(target=reader)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    snap = st.snapshot()
    assert snap["taps_total"] == 4 * n
    assert all(snap["sticks"][s]["taps"] == n for s in range(4))
    assert all(snap["buttons"][s]["a"]["uses"] == n for s in range(4))
    assert snap["version"] == st.version


# -- configuration ---------------------------------------------------------------------------------------------


def test_defaults_round_trip_through_json_and_validate():
    cfg = json.loads(json.dumps(default_config()))  # keys become strings, as in a config file
    parsed = parse_config(cfg)
    assert parsed["pins"] == DEFAULT_PINS
    assert parsed["sticks"][11] == StickPlace(5, "right")
    assert parsed["serial"]["vid"] == 0x2E8A and parsed["serial"]["port"] is None
    assert parse_config(None) == parse_config({})


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"pins": {0: {"a": 1}}}, "not a header GPIO"),
        ({"pins": {0: {"a": 5}, 1: {"b": 5}}}, "used by both"),
        ({"pins": {"x": {"a": 5}}}, "seat 'x' is not a number"),
        ({"pins": {0: {"a": True}}}, "not a BCM number"),
        ({"sticks": {12: {"seat": 0, "hand": "left"}}}, "outside 0-11"),
        ({"sticks": {0: {"seat": 0, "hand": "left"}, 1: {"seat": 0, "hand": "left"}}}, "two sticks"),
        ({"sticks": {0: {"seat": 0, "hand": "middle"}}}, "'left' or 'right'"),
        ({"serial": {"vid": "zz"}}, "not a hex number"),
        ({"serial": {"speed": 9600}}, "unknown serial setting"),
        ({"bounce_time": -1}, "bounce_time"),
        ({"dead_after_games": 0}, "dead_after_games"),
        ({"colour": "red"}, "unknown hardware setting"),
    ],
)
def test_bad_configuration_says_what_is_wrong(bad, message):
    with pytest.raises(HardwareConfigError, match=message):
        parse_config(bad)


def test_serial_ids_accept_hex_strings():
    assert parse_serial({"vid": "2e8a", "pid": "0005", "port": "/dev/tapstick0"})["pid"] == 5


def test_udev_rule_matches_the_default_usb_ids():
    from pathlib import Path

    from hardware.config import DEFAULT_USB_PID, DEFAULT_USB_VID

    rule = Path(__file__).resolve().parents[1] / "hardware" / "udev" / "99-tapstick.rules"
    lines = [ln for ln in rule.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    assert len(lines) == 1
    assert f'ATTRS{{idVendor}}=="{DEFAULT_USB_VID:04x}"' in lines[0]
    assert f'ATTRS{{idProduct}}=="{DEFAULT_USB_PID:04x}"' in lines[0]
    assert 'SYMLINK+="tapstick0"' in lines[0] and 'ENV{ID_MM_DEVICE_IGNORE}="1"' in lines[0]


def test_the_hardware_package_never_imports_kivy():
    import subprocess
    import sys

    code = (
        "import sys, hardware, hardware.buttons, hardware.taps, hardware.status, hardware.config, "
        "hardware.simboard, hardware.firmware.tapcore\n"
        "bad = sorted(m for m in sys.modules if m == 'kivy' or m.startswith('kivy.'))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)  # bounded by the test's pytest-timeout
