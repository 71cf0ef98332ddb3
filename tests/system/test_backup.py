"""Back up and restore on the installed table in read-only mode: the owner's stick plugged in while the table runs
gets the backup, never the data stick (which is a USB stick too, mounted on the state folder); the file restores
on a freshly built table (the dead SD card) with scores, statistics, settings and saved games back."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from devtools.guest import STATE, as_kiosk, request, seed, wait_status
from devtools.image import Image
from devtools.vm import Machine, Stick, make_fat_stick
from system.screenlook import wait_drawn

pytestmark = [pytest.mark.system, pytest.mark.timeout(1800)]

SCORES = f"""
from pathlib import Path
from kiosk.storage.scores import HighScores
hs = HighScores.open_or_unavailable(Path({STATE!r}) / "scores.json")
print([(e.name, e.score) for e in hs.top("maki")], hs.play_totals().get("maki", 0))
"""


def _stick_files(img: Path) -> list[str]:
    out = subprocess.run(["mdir", "-b", "-i", str(img), "::"], capture_output=True, text=True).stdout
    return [line.strip().split("/")[-1] for line in out.splitlines() if line.strip()]


def test_backup_goes_to_the_owners_stick_and_restores_on_a_new_table(
    machine: Machine, image: Image, tmp_path: Path, artifacts: Path
) -> None:
    machine.boot()
    machine.wait_unit_status("kiosk.service", "attract mode")
    journal = seed(machine)
    machine.wait_unit_status("kiosk.service", "attract mode")

    owner = Stick("owner", make_fat_stick(tmp_path / "owner.img"))
    machine.plug(owner)
    machine.wait_until("the owner's stick shows up", lambda: "vfat" in machine.out("lsblk -o FSTYPE"), 120)
    request(machine, "backup")
    answer = wait_status(machine, "backup")
    assert answer.get("ok") is True, answer
    machine.pull("owner")
    machine.shutdown()

    backups = [f for f in _stick_files(owner.file) if f.endswith(".kiosk-backup")]
    assert len(backups) == 1, _stick_files(owner.file)
    assert machine.stick_file(backups[0]) is None, "the backup is on the data stick"
    # the data stick came through the table's runs and the power-off without a repair
    assert machine.stick_fsck()[0] == 0

    # the dead SD card: a table built anew (fresh disks) with the owner's stick
    fresh = Machine(image, tmp_path / "fresh")
    try:
        fresh.boot()
        fresh.wait_unit_status("kiosk.service", "attract mode")
        fresh.plug(owner)
        fresh.wait_until("the owner's stick shows up", lambda: "vfat" in fresh.out("lsblk -o FSTYPE"), 120)
        request(fresh, "restore")
        answer = wait_status(fresh, "restore")
        assert answer.get("ok") is True, answer
        assert "saved game" in str(answer.get("message")), answer
        fresh.wait_unit_status("kiosk.service", "attract mode")
        wait_drawn(fresh, artifacts / "restored.png")
        # read with the kiosk stopped: the scores file is one process's at a time (the kiosk opens it after its
        # first frame)
        fresh.out("systemctl stop kiosk.service")
        assert as_kiosk(fresh, SCORES) == "[('ABC', 42)] 1"
        settings = json.loads(fresh.out(f"cat {STATE}/kiosk.json"))
        assert settings["language"]["default"] == "de"
        assert settings["operator"]["pin_hash"], "the fresh table's PIN kept (the backup has none)"
        assert fresh.shell(f"test -s {STATE}/games/active/{journal}")[0] == 0
    finally:
        fresh.power_cut()
        for log in ("console.log", "shell.log"):
            if (fresh.folder / log).exists():
                (artifacts / f"fresh-{log}").write_bytes((fresh.folder / log).read_bytes())
