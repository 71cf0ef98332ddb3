"""The operator menu's requests and the root helper that carries them out, and read-only mode's plan.

Real files in a temporary state folder; a real ext4 file system (made by mkfs.ext4 in a file) for the
read-only plan. raspi-config (Raspberry Pi OS only) is not on the test machine: the helper must say so and
change nothing. The update path with a real bundle and READY check is in test_appliance_update.py.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from kiosk.appliance import readonly
from kiosk.appliance.admin import Admin, newest_bundle
from kiosk.appliance.requests import pending, read_status, request_read_only, request_update, system_state, write_status
from kiosk.appliance.update import NoStart, Updater

pytestmark = pytest.mark.appliance


def _fake_bundle(path: Path, version: str) -> Path:
    """A bundle with a manifest only (enough for choosing; its missing wheels make an install fail)."""
    data = json.dumps(
        {"format": 1, "name": "sushi-table-kiosk", "version": version, "id": f"{version}-x", "wheels": {"a.whl": "0"}}
    ).encode()
    with tarfile.open(path, "w") as tar:
        info = tarfile.TarInfo("manifest.json")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return path


def test_requests_are_files_the_menu_can_read_back(tmp_path: Path):
    assert pending(tmp_path) == [] and read_status(tmp_path) == {}
    request_read_only(tmp_path, False)
    request_update(tmp_path)
    assert pending(tmp_path) == ["read-only", "update"]
    assert json.loads((tmp_path / "requests" / "read-only.request").read_text())["on"] is False
    assert json.loads((tmp_path / "requests" / "update.request").read_text()) == {"from": "usb"}


@pytest.mark.skipif(readonly.supported(), reason="raspi-config is installed here")
def test_read_only_request_without_raspi_config_changes_nothing_and_says_why(tmp_path: Path):
    reboots: list[int] = []
    request_read_only(tmp_path, True)
    admin = Admin(tmp_path, tmp_path / "opt", reboot=lambda: reboots.append(1))
    assert admin.serve() == 1
    status = read_status(tmp_path)
    assert status["kind"] == "read-only" and status["ok"] is False and "Raspberry Pi OS" in status["message"]
    assert pending(tmp_path) == [] and reboots == []


def test_update_request_with_a_broken_bundle_reports_and_changes_nothing(tmp_path: Path):
    bundle = _fake_bundle(tmp_path / "x.kiosk-update", "0.2.0")
    root = tmp_path / "opt"
    request_update(tmp_path / "state", str(bundle))
    admin = Admin(tmp_path / "state", root, reboot=lambda: None, updater=Updater(root, check=NoStart()))
    assert admin.serve() == 1
    status = read_status(tmp_path / "state")
    assert status["kind"] == "update" and status["ok"] is False and "0.2.0-x" in status["message"]
    assert pending(tmp_path / "state") == []
    assert not (tmp_path / "state" / "requests" / "pending.kiosk-update").exists()
    assert Updater(root).active() is None and Updater(root).installed() == []


def test_update_request_for_a_missing_file(tmp_path: Path):
    request_update(tmp_path, str(tmp_path / "nowhere.kiosk-update"))
    admin = Admin(tmp_path, tmp_path / "opt", reboot=lambda: None)
    assert admin.serve() == 1
    assert "not a kiosk update bundle" in read_status(tmp_path)["message"]


def test_newest_bundle_by_version_not_by_name(tmp_path: Path):
    a = _fake_bundle(tmp_path / "z-old.kiosk-update", "0.9.0")
    b = _fake_bundle(tmp_path / "a-new.kiosk-update", "0.10.0")
    junk = tmp_path / "junk.kiosk-update"
    junk.write_bytes(b"junk")
    assert newest_bundle([a, b, junk]) == b
    assert newest_bundle([junk]) is None


def test_overlay_is_read_from_the_mount_table():
    assert readonly.overlay_active("overlay / overlay rw,lowerdir=/media/root-ro 0 0\n")
    assert not readonly.overlay_active("/dev/mmcblk0p2 / ext4 rw,noatime 0 0\noverlay /x overlay rw 0 0\n")


def test_the_data_stick_is_missing_only_when_fstab_gives_the_folder_its_own_entry_and_nothing_is_mounted(
    tmp_path: Path,
):
    state = tmp_path / "state"
    state.mkdir()
    fstab = tmp_path / "fstab"
    assert not readonly.data_stick_missing(state, fstab)  # no fstab at all (a try-out, a container)
    fstab.write_text("proc /proc proc defaults 0 0\n# the old stick:\n")
    assert not readonly.data_stick_missing(state, fstab)  # a table without read-only mode
    fstab.write_text(f"proc /proc proc defaults 0 0\n  # UUID=1234 {state} ext4 {readonly.MOUNT_OPTIONS} 0 2\n")
    assert not readonly.data_stick_missing(state, fstab)  # only a comment names it
    fstab.write_text(f"UUID=1234 {state}-old ext4 defaults 0 2\nUUID=1234 {tmp_path} ext4 defaults 0 2\n")
    assert not readonly.data_stick_missing(state, fstab)  # a neighbour's entry, not the folder's
    fstab.write_text(f"proc /proc proc defaults 0 0\n\nUUID=1234\t{state}\text4 {readonly.MOUNT_OPTIONS} 0 2\n")
    assert readonly.data_stick_missing(state, fstab)  # its own entry, and the folder is no mount point
    fstab.write_text(f"UUID=1234 {tmp_path / 'never-made'} ext4 defaults 0 2\n")
    assert readonly.data_stick_missing(tmp_path / "never-made", fstab)  # no folder at all: nothing mounted either
    # a real mount point with its own entry: the stick is there
    for mounted in (Path("/proc"), Path("/")):
        fstab.write_text(f"UUID=1234 {mounted} ext4 {readonly.MOUNT_OPTIONS} 0 2\n")
        assert not readonly.data_stick_missing(mounted, fstab)


def test_the_overlayroot_setting_is_the_last_assignment_in_the_file():
    assert readonly._overlayroot_setting("") == ""
    assert readonly._overlayroot_setting(readonly.OVERLAYROOT_ON) == "tmpfs:recurse=0"
    assert readonly._overlayroot_setting(readonly.OVERLAYROOT_OFF) == ""
    text = '# overlayroot="tmpfs"\noverlayroot_cfgdisk="disabled"\n  overlayroot=\'tmpfs:recurse=0\'  \n'
    assert readonly._overlayroot_setting(text) == "tmpfs:recurse=0"  # not the comment, not another key
    assert readonly._overlayroot_setting(text + "overlayroot=disabled\n") == "disabled"
    assert readonly._overlayroot_setting(text + readonly.OVERLAYROOT_OFF + "\n") == ""


@pytest.mark.skipif(shutil.which("raspi-config") is not None, reason="raspi-config is installed here")
def test_overlayroot_is_switched_in_its_config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Debian's overlayroot, the overlay not in effect now: the setting is written to (and read from) its file.
    ``overlayroot-chroot`` stands in as a script that runs its command (on this machine's root), which is also what
    it does on a table whose overlay is on (on the real root beneath)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    chroot = bin_dir / "overlayroot-chroot"
    chroot.write_text('#!/bin/sh\nexec "$@"\n')
    chroot.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    conf = tmp_path / "etc" / "overlayroot.local.conf"
    conf.parent.mkdir()
    monkeypatch.setattr(readonly, "OVERLAYROOT_CONF", conf)
    assert readonly.backend() == "overlayroot" and readonly.supported()
    assert readonly.overlay_configured() is False  # no file yet: overlayroot's default is off
    conf.write_text("overlayroot=disabled\n")
    assert readonly.overlay_configured() is False
    readonly.set_overlay(True)
    assert readonly.OVERLAYROOT_ON in conf.read_text().splitlines()
    assert readonly.overlay_configured() is True
    readonly.set_overlay(False)
    assert readonly.OVERLAYROOT_OFF in conf.read_text().splitlines()
    assert readonly.overlay_configured() is False
    assert sorted(p.name for p in conf.parent.iterdir()) == ["overlayroot.local.conf"]  # no temporary file left


def test_read_only_plan_needs_a_data_partition(tmp_path: Path):
    [line] = readonly.plan(None, tmp_path / "state", tmp_path / "fstab")
    assert line.error and "--data-device" in line.what
    [line] = readonly.plan(str(tmp_path / "missing"), tmp_path / "state", tmp_path / "fstab")
    assert line.error and "does not exist" in line.what


@pytest.mark.skipif(shutil.which("mkfs.ext4") is None or shutil.which("blkid") is None, reason="no e2fsprogs")
def test_read_only_plan_puts_the_state_partition_in_fstab_once(tmp_path: Path):
    image = tmp_path / "data.img"
    image.write_bytes(b"")
    fstab = tmp_path / "fstab"
    fstab.write_text("proc /proc proc defaults 0 0\n")
    [line] = readonly.plan(str(image), tmp_path / "state", fstab)
    assert line.error and "mkfs.ext4" in line.what  # not ext4 yet: never formatted by the installer
    with open(image, "wb") as fh:
        fh.truncate(8 << 20)
    subprocess.run(["mkfs.ext4", "-q", "-F", "-L", "KIOSKDATA", str(image)], check=True)
    lines = readonly.plan(str(image), tmp_path / "state", fstab)
    to_fstab = lines[0]
    assert not (to_fstab.done or to_fstab.error) and "fstab" in to_fstab.what
    to_fstab.action()
    text = fstab.read_text()
    assert "proc /proc" in text and f"{tmp_path / 'state'} ext4 " in text and "data=journal" in text
    again = readonly.plan(str(image), tmp_path / "state", fstab)
    assert again[0].done
    assert fstab.read_text() == text
    assert any(ln.skip or ln.done or "overlay" in ln.what for ln in again[2:])


def test_system_state_for_the_operator_menu(tmp_path: Path):
    unit = tmp_path / "kiosk-admin.path"
    state = system_state(tmp_path, unit, mounts="/dev/root / ext4 rw 0 0\n")
    assert not state.helper and "not installed as a table" in state.text()
    unit.write_text("[Path]\n")
    state = system_state(tmp_path, unit, mounts="overlay / overlay rw 0 0\n")
    assert state.helper and state.read_only and "read-only" in state.text()
    request_read_only(tmp_path, False)
    assert "Working on: read-only" in system_state(tmp_path, unit, mounts="overlay / overlay rw 0 0\n").text()
    (tmp_path / "requests" / "read-only.request").unlink()
    write_status(tmp_path, kind="update", ok=True, message="updated to 0.1.1-abc")
    text = system_state(tmp_path, unit, mounts="/dev/root / ext4 rw 0 0\n").text()
    assert "writable (maintenance)" in text and "updated to 0.1.1-abc" in text
