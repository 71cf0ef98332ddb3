"""Updates on the booted table, as the owner does them: a bundle of this checkout on a USB stick, "Install update"
pressed in the operator menu (the root helper's request), and the reboots that follow (shared by the update tests)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from devtools.debroot import HERE, checkout_ignore
from devtools.guest import as_kiosk, request
from devtools.vm import Machine, Stick, make_fat_stick

MENU = """
from pathlib import Path
from kiosk.appliance import requests
print(requests.system_state(Path("/var/lib/sushi-kiosk")).text())
"""


def bundle(tmp: Path, version: str, broken: bool = False, build_args: Sequence[str] = ()) -> Path:
    """An update bundle of this checkout at ``version`` (``broken``: its kiosk exits at once, as a bad build would),
    built by ``kiosk-update build`` with ``build_args`` (another machine's: ``--platform ...``)."""
    src = tmp / f"src-{version}"
    shutil.copytree(HERE, src, ignore=checkout_ignore())
    pyproject = src / "pyproject.toml"
    pyproject.write_text(re.sub(r'^version = "[^"]+"', f'version = "{version}"', pyproject.read_text(), flags=re.M))
    if broken:
        main = src / "kiosk" / "__main__.py"
        main.write_text(main.read_text().replace("    args = parse_args(argv)\n", "    raise SystemExit(3)\n", 1))
    out = tmp / f"dist-{version}"
    subprocess.run(
        [sys.executable, "-m", "kiosk.appliance.update", "build", "--source", str(src), "--out", str(out), *build_args],
        check=True,
        capture_output=True,
    )
    return next(out.glob("*.kiosk-update"))


def menu(machine: Machine) -> str:
    return as_kiosk(machine, MENU)


def _through_the_update(machine: Machine) -> None:
    """The helper's two reboots (read-only mode off to install, back on), each a real one."""
    request(machine, "update")
    machine.rebooted()  # read-only mode off
    machine.wait_off(900)  # installed at this boot, checked for READY, read-only mode back on
    machine.boot()
    machine.wait_unit_status("kiosk.service", "attract mode")


def install_from_a_stick(machine: Machine, update: Path, tmp: Path) -> None:
    """The owner's stick with ``update`` (a bundle) plugged in while the table runs, and "Install update" pressed."""
    stick = make_fat_stick(tmp / "update.img", {update.name: update.read_bytes()}, size_mb=512)
    machine.plug(Stick("update", stick))
    machine.wait_until("the stick shows up", lambda: "vfat" in machine.out("lsblk -o FSTYPE"), 120)
    _through_the_update(machine)
