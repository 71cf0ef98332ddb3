"""Read-only mode's data stick: left out at boot, the table still starts and plays and says nothing is kept; back at
the next boot, everything on it is there. (Before the fix the unit required the stick's mount: "Dependency failed
for kiosk.service" and a black screen for good.)"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from devtools.vm import Machine
from system.screenlook import look

pytestmark = [pytest.mark.system, pytest.mark.timeout(1200)]
STATE = "/var/lib/sushi-kiosk"


def test_a_table_without_its_data_stick_starts_plays_and_says_so(machine: Machine, artifacts: Path) -> None:
    settings = machine.stick_file("kiosk.json")
    assert settings and json.loads(settings)["operator"]["pin_hash"], "the installer put the PIN on the stick"
    machine.detach_data_stick()
    t0 = time.monotonic()
    machine.boot()
    machine.wait_unit_status("kiosk.service", "attract mode")
    started = time.monotonic() - t0
    assert machine.shell(f"findmnt {STATE}")[0] != 0, "nothing is mounted on the state folder"
    # the table runs on the folder beneath, in RAM under the root overlay; the operator still has the PIN set at
    # install time (the folder beneath keeps it)
    assert machine.out("findmnt -n -o FSTYPE /") == "overlay"
    assert "pin_hash" in machine.out(f"cat {STATE}/kiosk.json")
    said = "the data stick is not mounted on /var/lib/sushi-kiosk: nothing the table saves is kept"
    machine.wait_until("the kiosk says the data stick is missing", lambda: said in machine.journal(), 120)
    # it plays: attract mode's bots play real games on the screen, and the watchdog is fed
    machine.wait_until(
        "the bots' game moves on", lambda: machine.unit("kiosk.service")["NRestarts"] == "0" and _moved(machine), 120
    )
    shot = machine.screendump(artifacts / "no-stick.png")
    assert look(shot).drawn, look(shot)
    machine.shutdown()
    assert machine.stick_file("kiosk.json") == settings, "the stick was not touched"

    machine.attach_data_stick()
    machine.boot()
    machine.wait_unit_status("kiosk.service", "attract mode")
    assert machine.out(f"findmnt -n -o FSTYPE {STATE}") == "ext4"
    assert said not in machine.journal()
    assert json.loads(machine.out(f"cat {STATE}/kiosk.json"))["operator"]["pin_hash"]
    machine.shutdown()
    assert machine.stick_fsck()[0] == 0
    assert machine.stick_file("kiosk.json") == settings
    (artifacts / "timing.json").write_text(json.dumps({"boot_to_attract_without_stick_s": round(started, 1)}))


def _moved(machine: Machine) -> bool:
    """Two screendumps a few seconds apart differ: something moves on the screen."""
    a = machine.screendump(machine.folder / "a.png").read_bytes()
    time.sleep(3)
    b = machine.screendump(machine.folder / "b.png").read_bytes()
    return a != b
