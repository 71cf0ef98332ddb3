"""Small steps in the booted table, done the way the table itself does them: as the kiosk user with the installed
app's own Python and modules (what the operator menu's buttons call), never by editing the kiosk's files by hand."""

from __future__ import annotations

import json
import shlex

from devtools.vm import Machine

STATE = "/var/lib/sushi-kiosk"
PYTHON = "/opt/sushi-kiosk/current/bin/python"

#: A table that has been played on: a high score and a play count, a game in progress (its journal), a setting.
SEED = f"""
from pathlib import Path
from kiosk import config as kc
from kiosk.games import GAMES
from kiosk.storage.journal import SavedGames
from kiosk.storage.scores import HighScores
st = Path({STATE!r})
hs = HighScores.open_or_unavailable(st / "scores.json")
hs.add("maki", "ABC", 42)
hs.record_play("maki")
hs.close()
saved = SavedGames.open_or_unavailable(st / "games", specs=GAMES)
state = GAMES["makoto"].new_game(players=3, seed=7)
journal = saved.start("makoto", 3, 7, state=state, seats=[{{"kind": "human"}}] * 3)
seat = state.to_move()[0]
state.apply(seat, state.legal_actions(seat)[0])
journal.sync(state)
cfg = kc.load_safely(st / "kiosk.json", create=False).config
kc.save(cfg.replace(language={{"default": "de", "enabled": ("de", "en")}}), st / "kiosk.json")
print(journal.path.name)
"""


def as_kiosk(machine: Machine, code: str, timeout: float = 300) -> str:
    """Python ``code`` run as the kiosk user in the state folder (its output; it must succeed)."""
    return machine.out(
        f"cd {STATE} && setpriv --reuid=kiosk --regid=kiosk --init-groups env HOME={STATE} "
        f"{PYTHON} -c {shlex.quote(code)}",
        timeout,
    )


def seed(machine: Machine) -> str:
    """Play-worn state written with the kiosk stopped (the kiosk's own stores); the saved game's file name."""
    machine.out("systemctl stop kiosk.service")
    name = as_kiosk(machine, SEED).splitlines()[-1]
    machine.out("systemctl start --no-block kiosk.service")
    return name


def request(machine: Machine, kind: str) -> None:
    """What the operator menu's button does: a request file for the root helper (kiosk.appliance.requests)."""
    as_kiosk(
        machine,
        f"from pathlib import Path; from kiosk.appliance import requests; requests.request_{kind}(Path({STATE!r}))",
    )


def status(machine: Machine) -> dict[str, object]:
    rc, out = machine.shell(f"cat {STATE}/requests/status.json")
    return json.loads(out) if rc == 0 and out.strip() else {}


def wait_status(machine: Machine, kind: str, timeout: float = 300) -> dict[str, object]:
    """The root helper's answer to a request of ``kind`` (the operator menu shows the same)."""
    seen: dict[str, object] = {}

    def answered() -> bool:
        nonlocal seen
        seen = status(machine)
        return seen.get("kind") == kind

    machine.wait_until(f"the root helper answers the {kind} request", answered, timeout, every=2.0)
    return seen


#: A tap-stick board on real USB inside the guest: a USB gadget (the ACM function, the Pico's MicroPython ids) on
#: the kernel's dummy host controller, so the guest's own USB stack, cdc_acm driver and udev (the shipped rule's
#: /dev/tapstick0) see a board plugged in. Its side of the line is /dev/ttyGS0.
GADGET = """
set -e
modprobe dummy_hcd
modprobe libcomposite
G=/sys/kernel/config/usb_gadget/tapstick
mkdir -p $G/strings/0x409 $G/configs/c.1 $G/functions/acm.usb0
echo 0x2e8a > $G/idVendor
echo 0x0005 > $G/idProduct
echo MicroPython > $G/strings/0x409/manufacturer
echo 'Board in FS mode' > $G/strings/0x409/product
echo E66138935F2B2A2C > $G/strings/0x409/serialnumber
ln -sf $G/functions/acm.usb0 $G/configs/c.1/
ls /sys/class/udc | head -1 > $G/UDC
"""

#: The board's side, speaking the protocol through the firmware's own core (hardware.firmware.tapcore, as the
#: Pico runs it): answers HELLO? and PING, and once the kiosk has asked, taps the given sticks a second apart.
BOARD = """
import os, select, sys, time, tty
from hardware.firmware.tapcore import StickDetector, TapBoard
class Clock:
    t0 = time.monotonic_ns() // 1000
    def now(self):
        return (time.monotonic_ns() // 1000 - self.t0) & 0xFFFFFFFF
fd = os.open("/dev/ttyGS0", os.O_RDWR | os.O_NOCTTY)
tty.setraw(fd)
clock = Clock()
board = TapBoard(clock, [StickDetector() for _ in range(12)])
os.write(fd, board.hello().encode())
sticks = [int(s) for s in sys.argv[1:]]
asked, next_tap = False, 0.0
while sticks:
    ready, _, _ = select.select([fd], [], [], 0.1)
    if ready:
        data = os.read(fd, 256)
        asked = asked or b"HELLO?" in data or b"PING" in data
        for reply in board.receive(data):
            os.write(fd, reply.encode())
    if asked and time.monotonic() >= next_tap:
        line = board.tap(sticks.pop(0), clock.now())
        os.write(fd, line.encode())
        print("@@sent " + line.strip() + "@@", flush=True)
        next_tap = time.monotonic() + 1.0
"""
