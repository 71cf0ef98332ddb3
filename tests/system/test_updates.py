"""Updates on the installed table in read-only mode, across real reboots: a good bundle from the owner's USB stick
installs (the root helper turns the overlay off, reboots, installs beside the running version, turns the overlay
back on, reboots) and the table comes back on it; a bundle that cannot start is rolled back by itself; the
operator menu says which version runs."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from devtools.debroot import HERE, checkout_ignore
from devtools.guest import as_kiosk, request, wait_status
from devtools.vm import Machine, Stick, make_fat_stick
from system.screenlook import wait_drawn

pytestmark = [pytest.mark.system, pytest.mark.timeout(2700)]

MENU = """
from pathlib import Path
from kiosk.appliance import requests
print(requests.system_state(Path("/var/lib/sushi-kiosk")).text())
"""


def _bundle(tmp: Path, version: str, broken: bool = False) -> Path:
    """An update bundle of this checkout at ``version`` (``broken``: its kiosk exits at once, as a bad build would)."""
    src = tmp / f"src-{version}"
    shutil.copytree(HERE, src, ignore=checkout_ignore())
    pyproject = src / "pyproject.toml"
    pyproject.write_text(re.sub(r'^version = "[^"]+"', f'version = "{version}"', pyproject.read_text(), flags=re.M))
    if broken:
        main = src / "kiosk" / "__main__.py"
        main.write_text(main.read_text().replace("    args = parse_args(argv)\n", "    raise SystemExit(3)\n", 1))
    out = tmp / f"dist-{version}"
    subprocess.run(
        [sys.executable, "-m", "kiosk.appliance.update", "build", "--source", str(src), "--out", str(out)],
        check=True,
        capture_output=True,
    )
    return next(out.glob("*.kiosk-update"))


def _menu(machine: Machine) -> str:
    return as_kiosk(machine, MENU)


def _through_the_update(machine: Machine) -> None:
    """The helper's two reboots (read-only mode off to install, back on), each a real one."""
    request(machine, "update")
    machine.rebooted()  # read-only mode off
    machine.wait_off(900)  # installed at this boot, checked for READY, read-only mode back on
    machine.boot()
    machine.wait_unit_status("kiosk.service", "attract mode")


def test_an_update_installs_across_reboots_and_a_bad_one_rolls_back(
    machine: Machine, tmp_path: Path, artifacts: Path
) -> None:
    good = _bundle(tmp_path, "0.2.0")
    bad = _bundle(tmp_path, "0.3.0", broken=True)
    machine.boot()
    machine.wait_unit_status("kiosk.service", "attract mode")
    before = _menu(machine)
    assert re.search(r"^Version: 0\.1\.0-src\w+$", before, re.M), before

    stick = make_fat_stick(tmp_path / "good.img", {good.name: good.read_bytes()}, size_mb=512)
    machine.plug(Stick("update", stick))
    machine.wait_until("the stick shows up", lambda: "vfat" in machine.out("lsblk -o FSTYPE"), 120)
    _through_the_update(machine)
    menu = _menu(machine)
    assert "Version: 0.2.0-" in menu and "System: read-only" in menu, menu
    assert machine.out("findmnt -n -o FSTYPE /") == "overlay"
    wait_drawn(machine, artifacts / "after-update.png")

    machine.pull("update")
    stick = make_fat_stick(tmp_path / "bad.img", {bad.name: bad.read_bytes()}, size_mb=512)
    machine.plug(Stick("update", stick))
    machine.wait_until("the stick shows up", lambda: "vfat" in machine.out("lsblk -o FSTYPE"), 120)
    _through_the_update(machine)
    menu = _menu(machine)
    assert "Version: 0.2.0-" in menu, f"the bad update was not rolled back:\n{menu}"
    answer = wait_status(machine, "update")
    assert answer.get("ok") is False, answer
    assert machine.out("findmnt -n -o FSTYPE /") == "overlay"
