"""The kiosk config file: defaults, validation with clear errors, atomic saving, PIN hashing (no Kivy)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk import config as kc
from kiosk.config import Config, ConfigError, load, load_dict, save
from kiosk.pin import check_pin, hash_pin


def test_empty_file_is_all_defaults() -> None:
    assert load_dict({}) == Config()


def test_missing_file_is_created_with_defaults(tmp_path: Path) -> None:
    path = tmp_path / "state" / "kiosk.json"
    cfg = load(path)
    assert cfg == Config()
    assert json.loads(path.read_text())["timeouts"]["idle_s"] == 90.0
    assert load(path) == cfg


def test_round_trip_through_the_file(tmp_path: Path) -> None:
    cfg = Config().replace(
        sound={"volume": 0.25, "muted": True},
        attract={"text": "Play with us"},
        seats={"positions": ["south", "north", "east", "west"], "depth": 0.3},
        serial={"port": "/dev/tapstick0", "sticks": {"3": {"seat": "east", "hand": "left"}}},
    )
    path = tmp_path / "k.json"
    save(cfg, path)
    assert load(path) == cfg
    assert not list(tmp_path.glob(".*.tmp")), "the temp file is renamed away"


def test_there_is_no_default_pin(tmp_path: Path) -> None:
    """Reproduces: every fresh install accepted the PIN 2468 printed in the docs."""
    cfg = Config()
    assert cfg.operator.pin_hash is None and not cfg.operator.pin_set
    assert not any(check_pin(pin, cfg.operator.pin_hash) for pin in ("2468", "0000", "1234"))
    path = tmp_path / "kiosk.json"
    load(path)
    assert json.loads(path.read_text())["operator"]["pin_hash"] is None
    assert load(path).operator.pin_hash is None
    docs = (Path(__file__).resolve().parents[1] / "docs" / "kiosk.md").read_text()
    assert "2468" not in docs


def test_pin_hash_is_salted_and_checked() -> None:
    a, b = hash_pin("5555"), hash_pin("5555")
    assert a != b and check_pin("5555", a) and check_pin("5555", b)
    assert not check_pin("5556", a)
    assert "5555" not in a
    for bad in ("12", "abcd", "123456789", ""):
        with pytest.raises(ValueError, match="4 to 8 digits"):
            hash_pin(bad)


def test_every_problem_reported_at_once_naming_the_key() -> None:
    with pytest.raises(ConfigError) as err:
        load_dict(
            {
                "seats": {"positions": ["south", "south-west", "up"]},
                "pins": {"east": {"a": 99}, "west": {"a": 5}, "south-west": {"a": 5}},
                "timeouts": {"idle_s": -1, "bogus": 3},
                "sound": {"volume": "loud", "muted": "no"},
                "attract": {"text": "", "bot_level": "genius"},
                "operator": {"pin_hash": "1234"},
                "serial": {"sticks": {"14": {"seat": "east", "hand": "left"}, "2": {"seat": "east", "hand": "up"}}},
                "extra": 1,
            },
            source="kiosk.json",
        )
    msg = str(err.value)
    assert msg.startswith("invalid kiosk configuration in kiosk.json:")
    for needle in (
        "seats.positions[2]: unknown seat position 'up'",
        "pins.east.a: must be a BCM GPIO number",
        "pins.south-west.a: GPIO 5 is already used by pins.west.a",
        "timeouts.idle_s: must be between",
        "timeouts.bogus: unknown key",
        "sound.volume: must be a number",
        "sound.muted: must be true or false",
        "attract.text: must be 1 to 60 printable characters",
        "attract.bot_level: must be one of random, easy",
        "operator.pin_hash: unknown algorithm",
        "serial.sticks.14: stick numbers are 0 to 11",
        "serial.sticks.2: must be",
        "extra: unknown section",
    ):
        assert needle in msg, needle
    assert len(err.value.problems) >= 13


def test_centred_seat_cannot_share_its_side() -> None:
    with pytest.raises(ConfigError, match="'south' is the single centred seat"):
        load_dict({"seats": {"positions": ["south", "south-west", "east"]}})
    with pytest.raises(ConfigError, match="at least 2 seats"):
        load_dict({"seats": {"positions": ["east"]}})


def test_positions_are_kept_in_clockwise_order() -> None:
    cfg = load_dict({"seats": {"positions": ["west", "east", "south", "north"]}})
    assert cfg.seats.positions == ("south", "west", "north", "east")


def test_bad_json_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "k.json"
    path.write_text('{"sound": {"volume": 0.5,}}')
    with pytest.raises(ConfigError, match="not valid JSON: .* line 1"):
        load(path)


def test_replace_validates() -> None:
    with pytest.raises(ConfigError, match="sound.volume"):
        Config().replace(sound={"volume": 2})


@settings(max_examples=60, deadline=None)
@given(
    volume=st.floats(allow_nan=False, allow_infinity=False, min_value=-5, max_value=5),
    idle=st.floats(allow_nan=False, allow_infinity=False, min_value=-10, max_value=5000),
    positions=st.lists(st.sampled_from(kc.POSITIONS), unique=True, max_size=8),
)
def test_validation_accepts_exactly_the_valid_values(volume: float, idle: float, positions: list[str]) -> None:
    data = {"sound": {"volume": volume}, "timeouts": {"idle_s": idle}, "seats": {"positions": positions}}
    ok_positions = len(positions) >= 2 and not any(
        side in positions and (f"{side}-west" in positions or f"{side}-east" in positions)
        for side in ("south", "north")
    )
    valid = 0 <= volume <= 1 and 15 <= idle <= 3600 and ok_positions
    if valid:
        cfg = load_dict(data)
        assert cfg.sound.volume == volume and set(cfg.seats.positions) == set(positions)
        assert len(cfg.seats.positions) <= 6
    else:
        with pytest.raises(ConfigError):
            load_dict(data)


def test_check_config_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from kiosk.__main__ import main

    path = tmp_path / "kiosk.json"
    assert main(["--config", str(path), "--state-dir", str(tmp_path), "--check-config"]) == 0
    assert "missing" in capsys.readouterr().out
    save(Config(), path)
    assert main(["--config", str(path), "--state-dir", str(tmp_path), "--check-config"]) == 0
    out = capsys.readouterr().out
    assert "OK (6 seats)" in out and "No operator PIN is set" in out
    path.write_text(json.dumps({"timeouts": {"idle_s": 0}}))
    assert main(["--config", str(path), "--state-dir", str(tmp_path), "--check-config"]) == 2
    err = capsys.readouterr().err
    assert "timeouts.idle_s: must be between 15 and 3600 seconds, got 0" in err
    assert "would start with the last good copy" in err


def test_systemd_unit_verifies(tmp_path: Path) -> None:
    """The unit has the keys platform.md asks for, and ``systemd-analyze verify`` prints nothing for it."""
    import shutil
    import subprocess
    import sys

    unit = (Path(__file__).resolve().parents[1] / "systemd" / "kiosk.service").read_text()
    for needed in (
        "Type=notify",
        "WatchdogSec=",
        "StartLimitIntervalSec=0",
        "ReadWritePaths=/var/lib/sushi-kiosk",
        "Environment=STATE_DIRECTORY=/var/lib/sushi-kiosk",
        "WorkingDirectory=-/var/lib/sushi-kiosk",
        "KIVY_HOME=/var/lib/sushi-kiosk/kivy",
        "TTYPath=/dev/tty1",
        "Conflicts=getty@tty1.service",
        "ExecStart=/opt/sushi-kiosk/current/bin/kiosk --fullscreen",
        "Restart=always",
    ):
        assert needed in unit, needed
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed")
    kiosk_bin = Path(sys.executable).with_name("kiosk")
    target = tmp_path / "kiosk.service"
    target.write_text(unit.replace("/opt/sushi-kiosk/current/bin/kiosk", str(kiosk_bin)))
    out = subprocess.run([tool, "verify", str(target)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and not out.stdout.strip() and not out.stderr.strip(), out.stdout + out.stderr
