"""Back up and restore to a USB stick: one verified file, written to and read from a real loop-mounted file
system, from and into a state folder with a real TinyDB scores file; a damaged, truncated or foreign file is
refused with a clear message and changes nothing; the root helper's requests stop and start the kiosk around a
restore only.

The stick is a real **vfat** (FAT16) image made by ``mkfs.vfat``, as a café's stick is: loop-mounted by the kernel
where it has vfat, otherwise (this machine's kernel has none: ``/proc/filesystems``) mounted by ``fusefat``, a
FAT driver in user space (Debian's ``fusefat``, installed by test.sh). Needs root (mount).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk import config as kconfig
from kiosk.appliance import backup
from kiosk.appliance.admin import Admin
from kiosk.appliance.backup import BackupError, read_backup, restore_backup, write_backup
from kiosk.appliance.requests import read_status, request_backup, request_restore
from kiosk.pin import check_pin, hash_pin
from kiosk.storage import HighScores

pytestmark = pytest.mark.appliance


def _kernel_has_vfat() -> bool:
    return "vfat" in Path("/proc/filesystems").read_text().split()


@pytest.fixture
def stick(tmp_path: Path) -> Iterator[Path]:
    """A USB stick: a FAT file system image, mounted; its top folder."""
    if os.geteuid() != 0:
        pytest.skip("needs root to mount the stick's image")
    image, top = tmp_path / "stick.img", tmp_path / "stick"
    with open(image, "wb") as fh:
        fh.truncate(32 * 1024 * 1024)
    # no volume label: fusefat would list the label as a file in the top folder
    subprocess.run(["mkfs.vfat", str(image)], check=True, capture_output=True)
    top.mkdir()
    if _kernel_has_vfat():
        mount, unmount = ["mount", "-t", "vfat", "-o", "loop", str(image), str(top)], ["umount", str(top)]
    else:
        mount, unmount = ["fusefat", "-o", "rw+", str(image), str(top)], ["fusermount", "-u", str(top)]
    subprocess.run(mount, check=True, capture_output=True, text=True)
    try:
        fstype = subprocess.run(["findmnt", "-n", "-o", "FSTYPE", str(top)], capture_output=True, text=True).stdout
        assert "fat" in fstype, f"the stick is a FAT file system, not {fstype!r}"
        yield top
    finally:
        subprocess.run(unmount, check=False)


def _table(state: Path, pin: str = "2580", volume: float = 0.3) -> None:
    """A table's state folder: real high scores and play counts, settings with a PIN."""
    scores = HighScores(state / "scores.json", lower_is_better={"takoyaki": True})
    scores.add("makoto", "ABC", 42)
    scores.add("takoyaki", "XYZ", 31)
    scores.record_play("makoto")
    scores.close()
    cfg = kconfig.Config().replace(sound={"volume": volume}, operator={"pin_hash": hash_pin(pin)})
    kconfig.save(cfg, state / "kiosk.json")


def _snapshot(state: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(state.iterdir()) if p.is_file()}


def test_a_backup_is_one_verified_file_restored_into_another_table(stick: Path, tmp_path: Path) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    _table(here, pin="2580", volume=0.3)
    _table(there, pin="97531", volume=0.9)
    path = write_backup(here, stick, now=1_700_000_000)
    assert path.parent == stick and path.name.endswith(".kiosk-backup") and path.name.startswith("sushi-kiosk-backup-")
    assert [p.name for p in stick.iterdir() if p.name != "lost+found"] == [path.name], "one file, no leftovers"
    manifest, files = read_backup(path)
    assert manifest["with_pin"] is False and set(files) == {"scores.json", "kiosk.json"}
    assert json.loads(files["kiosk.json"])["operator"]["pin_hash"] is None, "no PIN hash unless asked"
    message = restore_backup(path, there)
    assert "restored the scores and settings" in message and "the table's PIN kept" in message
    scores = HighScores(there / "scores.json", lower_is_better={"takoyaki": True})
    assert [(e.name, e.score) for e in scores.top("makoto")] == [("ABC", 42)]
    assert [(e.name, e.score) for e in scores.top("takoyaki")] == [("XYZ", 31)]
    assert sum(scores.play_counts()["makoto"].values()) == 1
    scores.close()
    cfg = kconfig.load(there / "kiosk.json")
    assert cfg.sound.volume == 0.3, "the backup's settings"
    assert check_pin("97531", cfg.operator.pin_hash), "the restored table keeps its own PIN"
    assert kconfig.load(kconfig.last_good_path(there / "kiosk.json")) == cfg


def test_a_backup_with_the_pin_restores_it(stick: Path, tmp_path: Path) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    _table(here, pin="2580")
    _table(there, pin="97531")
    path = write_backup(here, stick, with_pin=True)
    assert read_backup(path)[0]["with_pin"] is True
    assert "PIN kept" not in restore_backup(path, there)
    assert check_pin("2580", kconfig.load(there / "kiosk.json").operator.pin_hash)


def _restore_refused(path: Path, state: Path, needle: str) -> None:
    before = _snapshot(state)
    with pytest.raises(BackupError) as err:
        restore_backup(path, state)
    assert needle in str(err.value), str(err.value)
    assert _snapshot(state) == before, "nothing changed"


def _retar(path: Path, edit) -> None:  # type: ignore[no-untyped-def]
    """Rewrite the backup ``path`` with ``edit(members)`` applied to its {name: bytes}."""
    with tarfile.open(path) as tar:
        members = {i.name: tar.extractfile(i).read() for i in tar}  # type: ignore[union-attr]
    edit(members)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    path.unlink()  # a new file: fusefat refuses to truncate one in place
    path.write_bytes(buf.getvalue())


def test_a_damaged_or_foreign_file_is_refused_and_changes_nothing(stick: Path, tmp_path: Path) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    _table(here)
    _table(there, pin="97531", volume=0.9)
    good = write_backup(here, stick)
    blob = good.read_bytes()

    damaged = stick / "damaged.kiosk-backup"
    damaged.write_bytes(blob)
    _retar(damaged, lambda m: m.update({"scores.json": m["scores.json"].replace(b"ABC", b"ABD")}))
    _restore_refused(damaged, there, "is damaged: scores.json does not match its checksum")

    truncated = stick / "truncated.kiosk-backup"
    truncated.write_bytes(blob[: len(blob) // 3])
    with pytest.raises(BackupError):
        restore_backup(truncated, there)
    _restore_refused(truncated, there, "")

    text = stick / "notes.kiosk-backup"
    text.write_text("shopping list\n")
    _restore_refused(text, there, "is not a backup of this table")

    foreign = stick / "other.kiosk-backup"
    foreign.write_bytes(blob)
    _retar(foreign, lambda m: m.update({"manifest.json": json.dumps({"kind": "holiday-photos"}).encode()}))
    _restore_refused(foreign, there, "is not a backup of this table (it is 'holiday-photos')")

    newer = stick / "newer.kiosk-backup"
    newer.write_bytes(blob)

    def future(m: dict[str, bytes]) -> None:
        manifest = json.loads(m["manifest.json"])
        manifest["format"] = 99
        m["manifest.json"] = json.dumps(manifest).encode()

    _retar(newer, future)
    _restore_refused(newer, there, "made by another version of the kiosk (format 99)")

    refused = stick / "refused.kiosk-backup"
    refused.write_bytes(blob)

    def bad_settings(m: dict[str, bytes]) -> None:
        data = json.loads(m["kiosk.json"])
        data["serial"]["serial_number"] = "E661"
        m["kiosk.json"] = json.dumps(data).encode()
        manifest = json.loads(m["manifest.json"])
        manifest["files"]["kiosk.json"]["sha256"] = backup._sha256(m["kiosk.json"])
        m["manifest.json"] = json.dumps(manifest).encode()

    _retar(refused, bad_settings)
    _restore_refused(refused, there, "its settings are not ones this kiosk accepts")


def test_a_stick_that_does_not_keep_the_file_intact_is_an_error(
    stick: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = tmp_path / "here"
    here.mkdir()
    _table(here)
    real = backup.read_backup

    def flaky(source):  # type: ignore[no-untyped-def]
        if isinstance(source, Path):
            raise BackupError("read back: damaged")
        return real(source)

    monkeypatch.setattr(backup, "read_backup", flaky)
    with pytest.raises(BackupError, match="did not keep the backup intact"):
        write_backup(here, stick)
    assert [p for p in stick.iterdir() if p.name != "lost+found"] == [], "the bad file is removed"


def test_the_root_helper_backs_up_and_restores_around_a_stopped_kiosk(stick: Path, tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    _table(state, volume=0.3)
    calls: list[str] = []
    admin = Admin(
        state,
        tmp_path / "root",
        reboot=lambda: None,
        usb_folders=lambda options: ([stick], []),
        usb_files=lambda match: (sorted(p for p in stick.iterdir() if match(p)), []),
        service=calls.append,
    )
    request_backup(state)
    assert admin.serve() == 0
    status = read_status(state)
    assert status["kind"] == "backup" and status["ok"] and "checked" in status["message"], status
    assert calls == [], "a backup does not stop the kiosk"
    kconfig.save(kconfig.load(state / "kiosk.json").replace(sound={"volume": 0.8}), state / "kiosk.json")
    request_restore(state)
    assert admin.serve() == 0
    assert calls == ["stop", "start"]
    assert kconfig.load(state / "kiosk.json").sound.volume == 0.3
    assert read_status(state)["ok"] and "restored" in read_status(state)["message"]
    # a damaged newest backup: refused before the kiosk is stopped, nothing changes
    calls.clear()
    newest = max(stick.glob("*.kiosk-backup"), key=lambda p: p.name)
    (stick / "sushi-kiosk-backup-99999999-000000.kiosk-backup").write_bytes(newest.read_bytes()[:100])
    before = _snapshot(state)
    request_restore(state)
    assert admin.serve() == 1
    assert calls == [] and _snapshot(state) == before
    assert "nothing changed" in read_status(state)["message"]


def test_the_root_helper_without_a_stick_says_so(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    _table(state)
    admin = Admin(state, tmp_path / "root", usb_folders=lambda o: ([], []), usb_files=lambda m: ([], []), service=print)
    request_backup(state)
    assert admin.serve() == 1 and "no USB stick found" in read_status(state)["message"]
    request_restore(state)
    assert admin.serve() == 1 and "no *.kiosk-backup file" in read_status(state)["message"]


def test_the_root_helper_says_take_it_out_only_once_the_stick_is_unmounted(stick: Path, tmp_path: Path) -> None:
    """The owner pulls the stick when the menu says "take it out": by then it must be unmounted (a stick pulled
    before its unmount lost the file on the booted table)."""
    state = tmp_path / "state"
    state.mkdir()
    _table(state)
    said_at_unmount: list[dict[str, Any]] = []
    admin = Admin(
        state,
        tmp_path / "root",
        usb_folders=lambda options: ([stick], [stick]),
        unmount=lambda mount: said_at_unmount.append(read_status(state)),
        service=print,
    )
    request_backup(state)
    assert admin.serve() == 0
    assert said_at_unmount == [{}], "the menu said something before the stick was unmounted"
    assert "take it out" in read_status(state)["message"]
