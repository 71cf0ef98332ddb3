"""A PIN only the owner can set: ``kiosk --set-pin`` run by root writes the installed table's own state folder as
its owner; run by another user on a table it refuses with a message; and the keyboard-free way back in, a USB
stick holding the PIN reset file, read by the root helper, which lets the screen set a new PIN for ten minutes.

The screen's side (a guest holding a corner on a table without a PIN, the reset stick seen through the menu) is
in ``tests/test_ui.py``. Real processes and real files; the ownership tests need root (the test machine is).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from other_user import NOBODY, python_as

from kiosk import config as kconfig
from kiosk.appliance import requests
from kiosk.appliance.admin import Admin, is_pin_reset_file
from kiosk.appliance.requests import (
    PIN_GRANT_S,
    consume_pin_grant,
    grant_pin_reset,
    pending,
    pin_reset_granted,
    read_status,
    request_pin_reset,
)
from kiosk.pin import check_pin, hash_pin

root_only = pytest.mark.skipif(os.geteuid() != 0, reason="needs root (files written as another user)")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Path]:
    """An installed table's state folder: owned by an unprivileged user (nobody), mode 0750, in a folder that user
    can reach (pytest's own temporary folders are private to root)."""
    top = Path(tempfile.mkdtemp(prefix="kiosk-table-"))
    top.chmod(0o755)
    state = top / "sushi-kiosk"
    state.mkdir()
    if os.geteuid() == 0:
        os.chown(state, NOBODY, NOBODY)
    state.chmod(0o750)
    try:
        yield state
    finally:
        shutil.rmtree(top)


def _set_pin(
    env_extra: dict[str, str], pin_lines: str = "1357\n1357\n", args: tuple[str, ...] = (), user: int | None = None
) -> subprocess.CompletedProcess[str]:
    """``kiosk --set-pin`` as a real process with no terminal (getpass reads the answers from stdin); as ``user``,
    from a copy of the kiosk (and the hardware package whose schema its settings read) that user can read (the
    checkout may be in a folder only root may enter)."""
    env = {k: v for k, v in os.environ.items() if k not in ("STATE_DIRECTORY", "KIOSK_CONFIG", "XDG_STATE_HOME")}
    env.update(env_extra)
    with contextlib.ExitStack() as stack:
        python = [sys.executable] if user is None else stack.enter_context(python_as(user, "kiosk", "hardware"))
        return subprocess.run(
            [*python, "-P", "-m", "kiosk", "--set-pin", *args],
            input=pin_lines,
            capture_output=True,
            text=True,
            env=env,
            start_new_session=True,
            timeout=120,
            cwd="/",
        )


# ------------------------------------------------------------------------------------------------ kiosk --set-pin
@root_only
def test_set_pin_as_root_writes_the_tables_folder_as_its_owner(table: Path, tmp_path: Path) -> None:
    home = tmp_path / "root-home"
    lockout = table / "operator-pin.json"  # a locked pad: 12 wrong PINs in a row
    lockout.write_text(json.dumps({"consecutive": 12, "failures": [1.0], "menu_seen": 0.0}))
    os.chown(lockout, NOBODY, NOBODY)
    r = _set_pin({"KIOSK_TABLE_STATE_DIR": str(table), "HOME": str(home)})
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"Operator PIN set in {table / 'kiosk.json'}" in r.stdout
    assert json.loads(lockout.read_text())["consecutive"] == 0, "the lockout ends"
    for name in ("kiosk.json", "kiosk.last-good.json", "operator-pin.json"):
        st = (table / name).stat()
        assert (st.st_uid, st.st_gid) == (NOBODY, NOBODY), name
    assert check_pin("1357", kconfig.load(table / "kiosk.json").operator.pin_hash)
    assert not home.exists(), "nothing written in root's own state folder"


@root_only
def test_set_pin_as_root_keeps_the_tables_other_settings(table: Path) -> None:
    cfg = kconfig.Config().replace(sound={"volume": 0.3}, operator={"pin_hash": hash_pin("2580")})
    kconfig.save(cfg, table / "kiosk.json")
    for p in table.iterdir():
        os.chown(p, NOBODY, NOBODY)
    r = _set_pin({"KIOSK_TABLE_STATE_DIR": str(table)}, "97531\n97531\n")
    assert r.returncode == 0, r.stderr
    again = kconfig.load(table / "kiosk.json")
    assert again.sound.volume == 0.3
    assert check_pin("97531", again.operator.pin_hash) and not check_pin("2580", again.operator.pin_hash)
    assert kconfig.load(kconfig.last_good_path(table / "kiosk.json")).operator.pin_hash == again.operator.pin_hash


@root_only
def test_set_pin_as_root_without_a_table_says_so_and_writes_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "no-table"
    r = _set_pin({"KIOSK_TABLE_STATE_DIR": str(missing), "HOME": str(tmp_path / "home")})
    assert r.returncode == 1
    assert f"There is no table here: {missing} does not exist" in r.stderr and "Nothing changed" in r.stderr
    assert not missing.exists() and not (tmp_path / "home").exists()


@root_only
def test_set_pin_by_another_user_on_a_table_asks_for_root(table: Path, tmp_path: Path) -> None:
    os.chown(table, 0, 0)  # the kiosk user's folder, seen by someone else (nobody cannot write it)
    home = tmp_path / "other"
    home.mkdir()
    os.chown(home, NOBODY, NOBODY)
    r = _set_pin({"KIOSK_TABLE_STATE_DIR": str(table), "HOME": str(home)}, user=NOBODY)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "run it as root" in r.stderr and "sudo /opt/sushi-kiosk/current/bin/kiosk --set-pin" in r.stderr
    assert list(table.iterdir()) == [] and list(home.iterdir()) == []


def test_set_pin_with_mismatched_pins_changes_nothing(tmp_path: Path) -> None:
    r = _set_pin({"KIOSK_TABLE_STATE_DIR": str(tmp_path / "none")}, "1357\n7531\n", ("--state-dir", str(tmp_path)))
    assert r.returncode == 1 and "Nothing changed" in r.stderr
    assert not (tmp_path / "kiosk.json").exists()


# ------------------------------------------------------------------------------------------------ the reset stick
def test_the_reset_file_is_found_as_a_laptop_may_name_it(tmp_path: Path) -> None:
    for name in ("kiosk-pin-reset.txt", "KIOSK-PIN-RESET.TXT", "kiosk-pin-reset.txt.txt", "kiosk-pin-reset"):
        (tmp_path / name).write_text("")
        assert is_pin_reset_file(tmp_path / name), name
    for name in ("pin-reset.txt", "kiosk-pin.txt", "notes.txt"):
        (tmp_path / name).write_text("")
        assert not is_pin_reset_file(tmp_path / name), name
    (tmp_path / "kiosk-pin-reset.d").mkdir()
    assert not is_pin_reset_file(tmp_path / "kiosk-pin-reset.d"), "a folder is not the file"


def test_a_grant_lasts_ten_minutes_and_is_used_up(tmp_path: Path) -> None:
    assert not pin_reset_granted(tmp_path) and not pin_reset_granted(None)
    grant_pin_reset(tmp_path, now=1000.0)
    assert pin_reset_granted(tmp_path, now=1000.0 + PIN_GRANT_S - 1)
    assert not pin_reset_granted(tmp_path, now=1000.0 + PIN_GRANT_S + 1), "expired"
    assert not pin_reset_granted(tmp_path, now=1000.0 - 3600), "a grant from the far future is not trusted"
    consume_pin_grant(tmp_path)
    assert not pin_reset_granted(tmp_path, now=1000.0)
    consume_pin_grant(tmp_path)  # twice: nothing to do
    (requests.requests_dir(tmp_path) / "pin-reset.grant").write_text("{not json")
    assert not pin_reset_granted(tmp_path), "a damaged grant grants nothing"


def _admin(state: Path, stick: Path | None, unmounted: list[Path]) -> Admin:
    """The real root helper; its USB look-up replaced by one stick whose top folder is ``stick`` (None: no stick)."""

    def usb_files(match):  # type: ignore[no-untyped-def]
        if stick is None:
            return [], []
        return sorted(p for p in stick.iterdir() if match(p)), [stick]

    return Admin(state, state / "root", reboot=lambda: None, usb_files=usb_files, unmount=unmounted.append)


def test_the_helper_without_the_reset_file_grants_nothing(tmp_path: Path) -> None:
    state, stick = tmp_path / "state", tmp_path / "stick"
    stick.mkdir()
    (stick / "holiday.jpg").write_bytes(b"\xff\xd8")
    request_pin_reset(state)
    assert pending(state) == ["pin-reset"]
    unmounted: list[Path] = []
    assert _admin(state, stick, unmounted).serve() == 1
    status = read_status(state)
    assert status["kind"] == "pin-reset" and status["ok"] is False
    assert "no kiosk-pin-reset.txt in the top folder of a USB stick: nothing changed" in status["message"]
    assert not pin_reset_granted(state) and pending(state) == [] and unmounted == [stick]
    request_pin_reset(state)
    assert _admin(state, None, []).serve() == 1 and not pin_reset_granted(state)


def test_the_helper_with_the_reset_file_lets_the_screen_set_a_pin(tmp_path: Path) -> None:
    state, stick = tmp_path / "state", tmp_path / "stick"
    stick.mkdir()
    (stick / "KIOSK-PIN-RESET.TXT").write_text("")  # as a FAT stick lists it
    cfg_before = kconfig.Config().replace(operator={"pin_hash": hash_pin("2580")})
    kconfig.save(cfg_before, state / "kiosk.json")
    request_pin_reset(state)
    unmounted: list[Path] = []
    assert _admin(state, stick, unmounted).serve() == 0
    status = read_status(state)
    assert status["ok"] is True and "set a new operator PIN on the screen" in status["message"]
    assert pin_reset_granted(state) and unmounted == [stick] and pending(state) == []
    grant = json.loads((requests.requests_dir(state) / "pin-reset.grant").read_text())
    assert set(grant) == {"until"}
    assert kconfig.load(state / "kiosk.json") == cfg_before, "the helper itself changes no setting, not even the PIN"


def test_the_admin_path_unit_sees_the_pin_reset_request() -> None:
    unit = Path(__file__).resolve().parents[1] / "systemd" / "kiosk-admin.path"
    assert "PathExistsGlob=/var/lib/sushi-kiosk/requests/*.request" in unit.read_text()
    assert request_pin_reset.__module__ == "kiosk.appliance.requests"
