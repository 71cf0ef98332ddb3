"""A config that never darkens the table: every way the file can be wrong starts the kiosk with the last good copy
or the defaults and reports the problem; ranges for every value; the PIN hash's parameters (no Kivy)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk import config as kc
from kiosk.config import Config, ConfigError, last_good_path, load_dict, load_safely, save
from kiosk.pin import FORMER_DEFAULT_PIN_HASH, check_pin, hash_pin

GOOD = Config().replace(sound={"volume": 0.3}, attract={"text": "Sushi time"})


def saved_good(tmp_path: Path) -> Path:
    path = tmp_path / "kiosk.json"
    save(GOOD.replace(operator={"pin_hash": hash_pin("4321", iterations=10_000)}), path)
    return path


# ---------------------------------------------------------------------------------- each case of the issue
@pytest.mark.parametrize(
    "content, problem",
    [
        (b"\xff\xfe\x00{\x00}", "not UTF-8 text"),
        (bytes(range(256)) * 4, "not UTF-8 text"),
        (b"", "not valid JSON"),
        (b'{"sound": {"volume": 0.5', "not valid JSON"),
        (b'{"sound": {"volum": 0.5}}', "sound.volum: unknown key"),
        (b"[" * 100_000, "nested deeper than the 8 levels allowed"),
        (b'{"timeouts": {"idle_s": 0.1}}', "timeouts.idle_s: must be between 15 and 3600 seconds, got 0.1"),
        (b'{"sound": {"volume": NaN}}', "not valid JSON"),
        (b" " * (kc.MAX_BYTES + 1), "more than the 256 KiB"),
    ],
)
def test_a_bad_file_starts_with_the_last_good_copy_and_says_why(tmp_path: Path, content: bytes, problem: str) -> None:
    """Reproduces: these files ended in a traceback or exit code 2 (a dark table restarted every few seconds)."""
    path = saved_good(tmp_path)
    path.write_bytes(content)
    loaded = load_safely(path)
    assert loaded.source == "last good copy"
    assert loaded.config.sound.volume == 0.3 and loaded.config.attract.text == "Sushi time"
    assert check_pin("4321", loaded.config.operator.pin_hash)
    assert any(problem in p for p in loaded.problems), loaded.problems
    assert path.read_bytes() == content, "the operator's file is left for them to fix"
    with pytest.raises(ConfigError):  # --check-config stays strict
        kc.load(path, create=False)


def test_without_a_last_good_copy_the_defaults_keep_a_valid_pin(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.json"
    pin_hash = hash_pin("8642", iterations=10_000)
    path.write_text(json.dumps({"operator": {"pin_hash": pin_hash}, "sound": {"volume": 9}}))
    loaded = load_safely(path)
    assert loaded.source == "defaults" and loaded.config.sound.volume == Config().sound.volume
    assert loaded.config.operator.pin_hash == pin_hash, "a typo elsewhere does not drop the PIN"
    assert loaded.problems == ("sound.volume: must be between 0 and 1, got 9",)


def test_a_utf8_bom_from_a_windows_editor_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"sound": {"volume": 0.4}}).encode())
    loaded = load_safely(path)
    assert loaded.ok and loaded.source == "file" and loaded.config.sound.volume == 0.4
    assert kc.load(path).sound.volume == 0.4


def test_a_good_load_refreshes_the_last_good_copy(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.json"
    path.write_text(json.dumps({"sound": {"volume": 0.2}}))  # a valid hand edit
    assert load_safely(path).ok
    assert json.loads(last_good_path(path).read_text())["sound"]["volume"] == 0.2


def test_a_deleted_file_comes_back_from_the_last_good_copy_with_its_pin(tmp_path: Path) -> None:
    path = saved_good(tmp_path)
    path.unlink()
    loaded = load_safely(path)
    assert loaded.source == "last good copy" and check_pin("4321", loaded.config.operator.pin_hash)
    assert path.exists() and kc.load(path) == loaded.config


def test_first_start_on_a_card_that_refuses_writes_runs_on_defaults(tmp_path: Path) -> None:
    """Reproduces: the first start on a read-only card exited with code 2."""
    blocker = tmp_path / "state"
    blocker.write_text("a file where the state folder should be")
    loaded = load_safely(blocker / "kiosk.json")
    assert loaded.config == Config() and loaded.source == "defaults"
    assert len(loaded.problems) == 1 and "could not be created" in loaded.problems[0]


def test_saving_over_a_broken_file_keeps_it_aside(tmp_path: Path) -> None:
    path = saved_good(tmp_path)
    path.write_bytes(b'{"sound": {"volume": 0.5}, "typo": 1}')
    loaded = load_safely(path)
    save(loaded.config.replace(sound={"volume": 0.6}), path)  # the operator changed the volume on the table
    assert kc.load(path).sound.volume == 0.6
    aside = list(tmp_path.glob("kiosk.rejected-*.json"))
    assert len(aside) == 1 and aside[0].read_bytes() == b'{"sound": {"volume": 0.5}, "typo": 1}'
    assert json.loads(last_good_path(path).read_text())["sound"]["volume"] == 0.6


def test_every_value_has_a_range_named_in_its_message() -> None:
    cases = {
        ("timeouts", "idle_s", 0.1): "between 15 and 3600 seconds",
        ("timeouts", "still_playing_s", 1): "between 5 and 600 seconds",
        ("timeouts", "initials_s", 1): "between 5 and 300 seconds",
        ("timeouts", "results_s", 0): "between 3 and 600 seconds",
        ("timeouts", "menu_idle_s", 1): "between 10 and 3600 seconds",
        ("operator", "hold_s", 0.5): "between 2 and 30 seconds",
        ("attract", "move_delay_s", 0.01): "between 0.1 and 10 seconds",
        ("attract", "game_s", 1): "between 10 and 600 seconds",
        ("attract", "boards_s", 0.5): "between 2 and 120 seconds",
        ("attract", "call_s", 0.5): "between 2 and 120 seconds",
        ("bots", "move_delay_s", 11): "between 0 and 10 seconds",
        ("sound", "volume", -1): "between 0 and 1",
        ("seats", "depth", 0.9): "between 0.12 and 0.4",
        ("window", "width", 10): "between 320 and 7680 pixels",
        ("window", "height", 1.5): "a whole number from 240 to 4320 pixels",
        ("attract", "text", "\x07bell"): "1 to 60 printable characters",
        ("bots", "default_level", "genius"): "one of random, easy, normal, hard",
        ("sound", "muted", "yes"): "true or false",
    }
    for (section, key, value), needle in cases.items():
        with pytest.raises(ConfigError) as err:
            load_dict({section: {key: value}})
        assert len(err.value.problems) == 1 and err.value.problems[0].startswith(f"{section}.{key}: ")
        assert needle in str(err.value), (section, key, str(err.value))


# ---------------------------------------------------------------------------------------------- the PIN hash
@pytest.mark.parametrize(
    "pin_hash, needle",
    [
        ("pbkdf2_sha256$0$6b696f736b2d6465$" + "a" * 64, "iterations must be between 10000 and 600000, got 0"),
        ("pbkdf2_sha256$\u0661\u0662\u0660\u0660\u0660\u0660$6b696f736b2d6465$" + "a" * 64, "digits 0-9"),
        ("pbkdf2_sha256$\uff11\uff12\uff10\uff10\uff10\uff10$6b696f736b2d6465$" + "a" * 64, "digits 0-9"),
        ("pbkdf2_sha256$999999999$6b696f736b2d6465$" + "a" * 64, "iterations must be between"),
        ("md5$120000$6b696f736b2d6465$" + "a" * 64, "unknown algorithm"),
        ("pbkdf2_sha256$120000$6b 69$" + "a" * 64, "hexadecimal"),
        ("pbkdf2_sha256$120000$6b696f736b2d6465$" + "a" * 63, "hexadecimal"),
        (1234, "must be a string"),
    ],
)
def test_pin_hash_parameters_are_validated_with_a_clear_message(pin_hash: object, needle: str) -> None:
    """Reproduces: iterations 0 or a non-ASCII digit passed validation and then no PIN ever matched; a huge
    iteration count blocked the UI for seconds."""
    with pytest.raises(ConfigError) as err:
        load_dict({"operator": {"pin_hash": pin_hash}})
    assert "operator.pin_hash: " in str(err.value) and needle in str(err.value)
    start = time.perf_counter()
    assert not check_pin("1234", pin_hash)  # type: ignore[arg-type]
    assert time.perf_counter() - start < 5, "refused without computing anything"


def test_pins_are_ascii_digits() -> None:
    for bad in ("\u0661\u0662\u0663\u0664", "12 34", "123456789", "abcd", ""):
        with pytest.raises(ValueError, match="4 to 8 digits"):
            hash_pin(bad)
    h = hash_pin("0042", iterations=10_000)
    assert check_pin("0042", h) and not check_pin("\u0660\u0660\u0664\u0662", h)
    assert check_pin("0042", h.upper().replace("PBKDF2_SHA256", "pbkdf2_sha256"))


# ------------------------------------------------------------------------------------------ property tests
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
SECTION_KEYS = st.sampled_from(["seats", "pins", "serial", "operator", "timeouts", "sound", "attract", "bots"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(JSON, st.dictionaries(SECTION_KEYS, JSON, max_size=5)))
def test_any_json_shape_is_either_a_config_or_a_config_error(data: object) -> None:
    try:
        cfg = load_dict(data)  # type: ignore[arg-type]
    except ConfigError as exc:
        assert exc.problems and all(isinstance(p, str) and len(p) < 600 for p in exc.problems)
    else:
        assert load_dict(kc.to_dict(cfg)) == cfg


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    content=st.one_of(
        st.binary(max_size=300),
        st.builds(lambda n, c: c * n, st.integers(1, 50_000), st.sampled_from([b"[", b"{", b'{"a":', b"[1,"])),
        JSON.map(lambda v: json.dumps(v).encode()),
        st.builds(lambda v, cut: json.dumps(v).encode()[:cut], st.dictionaries(SECTION_KEYS, JSON), st.integers(0, 80)),
    )
)
def test_any_bytes_start_the_kiosk_and_lose_nothing(tmp_path: Path, content: bytes) -> None:
    folder = tmp_path / f"f{time.perf_counter_ns()}"
    folder.mkdir()
    path = folder / "kiosk.json"
    save(GOOD, path)
    path.write_bytes(content)
    loaded = load_safely(path)
    assert isinstance(loaded.config, Config)
    if loaded.problems:
        assert loaded.config == GOOD and loaded.source == "last good copy"
        assert path.read_bytes() == content
    else:
        assert loaded.config == kc.load(path)


# ------------------------------------------------------------------------------------------------ commands
def test_set_pin_asks_twice_and_ends_a_lockout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kiosk.__main__ import main
    from kiosk.pin import FILE_NAME, PinGuard

    path = tmp_path / "kiosk.json"
    path.write_bytes(b"\x00 broken")  # set-pin works even when the config does not load
    guard = PinGuard(tmp_path / FILE_NAME)
    for _ in range(10):
        guard.record_failure()
    assert guard.locked_out
    answers = iter(["1357", "1375"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    assert main(["--config", str(path), "--state-dir", str(tmp_path), "--set-pin"]) == 1
    assert path.read_bytes() == b"\x00 broken", "nothing changed"
    answers = iter(["135799", "135799"])
    assert main(["--config", str(path), "--state-dir", str(tmp_path), "--set-pin"]) == 0
    assert check_pin("135799", kc.load(path).operator.pin_hash)
    assert list(tmp_path.glob("kiosk.rejected-*.json")), "the broken file is kept aside"
    assert not PinGuard(tmp_path / FILE_NAME).locked_out


def test_an_old_install_with_the_former_factory_pin_has_no_pin(tmp_path: Path) -> None:
    """A table installed by a version that had the factory PIN 2468 does not keep accepting it after an update."""
    path = tmp_path / "kiosk.json"
    path.write_text(json.dumps({"operator": {"pin_hash": FORMER_DEFAULT_PIN_HASH}, "sound": {"volume": 0.2}}))
    assert check_pin("2468", FORMER_DEFAULT_PIN_HASH), "the hash old versions wrote"
    loaded = load_safely(path)
    assert loaded.config.operator.pin_hash is None and not loaded.config.operator.pin_set
    assert any("former factory PIN 2468" in p for p in loaded.problems)


def test_the_config_imports_without_third_party_packages() -> None:
    """The installer checks and sets the PIN with the system's Python, before the kiosk's packages exist (the
    config and the PIN's hashing import no third-party package)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "for name in ('tinydb', 'kivy', 'gpiozero', 'serial'): sys.modules[name] = None\n"
        "from kiosk import config, pin\n"
        "assert pin.check_pin('2468', pin.FORMER_DEFAULT_PIN_HASH)\n"
        "assert config.load_dict({}).operator.pin_hash is None\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
