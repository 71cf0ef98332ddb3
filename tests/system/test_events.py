"""Events from the installed table: unpaired, the kiosk has no network at all (its sandbox); paired, the root helper
opens the sandbox to the broker's address only (kiosk.service.d/event-link.conf) and a finished game waiting in the
table's outbox reaches a real Mosquitto on this machine's loopback (QEMU's guestfwd: the guest reaches nothing
else). Before the fix the link logged "[Errno 97] Address family not supported by protocol" and nothing arrived."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from devtools.broker import Mosquitto
from devtools.guest import STATE, as_kiosk
from devtools.image import Image
from devtools.vm import Machine

pytestmark = [pytest.mark.system, pytest.mark.timeout(1500)]
BROKER = "10.0.2.100"  # the broker's address as the guest sees it (QEMU's user network forwards it here)

PAIR_WITH_A_GAME = f"""
from pathlib import Path
from kiosk import config as kc
from kiosk.events.contract import new_record
from kiosk.events.outbox import Outbox
st = Path({STATE!r})
cfg = kc.load_safely(st / "kiosk.json", create=False).config
event = {{"enabled": True, "broker": {BROKER!r}, "port": 1883, "event": "fair", "table": "table-1"}}
kc.save(cfg.replace(event=event), st / "kiosk.json")
(st / "events").mkdir(exist_ok=True)
box = Outbox(st / "events" / "outbox.jsonl")
players = [{{"seat": 0, "score": 31, "initials": "ABC", "bot": False, "winner": True}},
           {{"seat": 1, "score": 17, "initials": None, "bot": True, "winner": False}}]
record = new_record("fair", "table-1", "maki", players, 600.0)
box.add(record)
box.close()
print(record["id"])
"""


def _kiosk_links(machine: Machine) -> list[str]:
    """The network interfaces the kiosk's process sees (its namespace's /proc/net/dev)."""
    pid = machine.unit("kiosk.service")["MainPID"]
    rows = machine.out(f"cat /proc/{pid}/net/dev").splitlines()[2:]
    return sorted(r.split(":")[0].strip() for r in rows)


def test_a_paired_table_delivers_a_game_and_an_unpaired_one_has_no_network(
    image: Image, tmp_path: Path, artifacts: Path
) -> None:
    with Mosquitto(tmp_path / "broker", persist=False) as broker:
        got: list[dict[str, object]] = []
        arrived = threading.Event()

        def on_message(_c: object, _u: object, msg: mqtt.MQTTMessage) -> None:
            if msg.topic == "kiosk/events/fair/tables/table-1/games":
                got.append(json.loads(msg.payload))
                arrived.set()

        sub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="wall-test")
        sub.on_message = on_message
        sub.connect("127.0.0.1", broker.port)
        sub.subscribe("kiosk/events/#", qos=1)
        sub.loop_start()
        # one socat per connection the guest opens (a chardev target would be one connection, made at QEMU's start)
        forward = f"tcp:{BROKER}:1883-cmd:socat - TCP:127.0.0.1:{broker.port}"
        machine = Machine(image, tmp_path / "vm", guestfwd=forward)
        try:
            machine.boot()
            machine.wait_unit_status("kiosk.service", "attract mode")
            # unpaired: the machine has a network (eth0 up by DHCP), the kiosk does not
            assert "eth0" in machine.out("ip -o link")
            assert _kiosk_links(machine) == ["lo"]
            assert machine.shell("test -e /etc/systemd/system/kiosk.service.d/event-link.conf")[0] != 0

            # paired (the operator menu saves the settings; a game finished meanwhile waits in the outbox)
            machine.out("systemctl stop kiosk.service")
            record_id = as_kiosk(machine, PAIR_WITH_A_GAME).splitlines()[-1]
            machine.out("systemctl start --no-block kiosk.service")
            # the kiosk sees settings that the sandbox does not match, asks the root helper, which writes the
            # drop-in and restarts it
            machine.wait_until(
                "the event drop-in is written",
                lambda: machine.shell("test -s /etc/systemd/system/kiosk.service.d/event-link.conf")[0] == 0,
                300,
                every=3.0,
            )
            dropin = machine.out("cat /etc/systemd/system/kiosk.service.d/event-link.conf")
            assert "PrivateNetwork=no" in dropin
            machine.wait_until("the game arrives at the broker", arrived.is_set, 300, every=5.0)
            assert got[0]["id"] == record_id and got[0]["players"][0]["initials"] == "ABC"
            machine.wait_unit_status("kiosk.service", "attract mode")
            assert "eth0" in _kiosk_links(machine)
            # the sandbox is open to the broker's address only (systemd's view of the unit with its drop-in)
            unit = machine.unit("kiosk.service")
            # (localhost: paho's wake-up socket pair; systemd shows it as its two address ranges)
            assert set(unit["IPAddressAllow"].split()) == {"127.0.0.0/8", "::1/128", f"{BROKER}/32"}, unit[
                "IPAddressAllow"
            ]
            assert set(unit["IPAddressDeny"].split()) == {"0.0.0.0/0", "::/0"}, unit["IPAddressDeny"]  # "any"
            (artifacts / "dropin.conf").write_text(dropin)
        except BaseException:
            if machine.proc is not None:
                (artifacts / "kiosk-journal.txt").write_text(machine.journal(lines=400))
            raise
        finally:
            machine.power_cut()
            sub.loop_stop()
            for log in ("console.log", "shell.log"):
                if (machine.folder / log).exists():
                    (artifacts / log).write_bytes((machine.folder / log).read_bytes())
