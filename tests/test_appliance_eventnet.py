"""The kiosk's network while the table is paired with an event (kiosk/appliance/eventnet.py): the drop-in the root
helper writes from the saved settings, its check by systemd-analyze, and the request end to end.

Real files: a state folder with a kiosk.json saved by the config's own code, and a temporary /etc (the drop-in,
resolv.conf). Host names are looked up for real ("localhost", from /etc/hosts); only a failing look-up (DNS, the
outside world) and systemd's reload and restart (recorded: no systemd in the test machine) are injected, as the
other admin tests inject the reboot. The look-up in a transient unit needs root and a running systemd: skipped
without them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from kiosk import config as kconfig
from kiosk.appliance import eventnet
from kiosk.appliance.admin import Admin
from kiosk.appliance.admin import main as admin_main
from kiosk.appliance.requests import pending, read_status, request_event_network

pytestmark = pytest.mark.appliance

ROOT = Path(__file__).resolve().parents[1]
KIOSK_UNIT = ROOT / "systemd" / "kiosk.service"


def _save(state: Path, **event: object) -> None:
    """The table's settings as the operator menu saves them (paired when ``enabled``)."""
    if event.get("enabled"):
        event = {"event": "summer-fair", "table": "table-1", **event}
    kconfig.save(kconfig.Config().replace(event=event), state / "kiosk.json")


class Table:
    """A state folder, a temporary /etc and an Admin over them that records systemd's reload and restarts."""

    def __init__(self, tmp: Path, lookup: eventnet.LookupFn | None = None) -> None:
        self.state = tmp / "state"
        self.etc = tmp / "etc"
        self.state.mkdir()
        (self.etc / "systemd" / "system").mkdir(parents=True)
        (self.etc / "resolv.conf").write_text(
            "# from DHCP\nsearch lan\nnameserver 192.168.1.1\nnameserver fe80::1%eth0\n"
        )
        self.calls: list[str] = []
        self.admin = Admin(
            self.state,
            tmp / "opt",
            etc=self.etc,
            lookup=lookup,
            reload=lambda: self.calls.append("daemon-reload"),
            service=lambda verb: self.calls.append(verb),
        )
        self.dropin = eventnet.dropin_path(self.etc)

    def ask(self, at_start: bool = False) -> int:
        request_event_network(self.state, at_start=at_start)
        return self.admin.serve()


# ------------------------------------------------------------------------------------------------ the text
def _allowed(text: str) -> list[str]:
    """The addresses allowed beyond the machine itself (``localhost``, in every drop-in)."""
    return [a for line in re.findall(r"^IPAddressAllow=(.*)$", text, re.M) for a in line.split() if a != "localhost"]


def test_the_drop_in_for_a_broker_given_as_an_address_allows_that_address_only(tmp_path: Path):
    text = eventnet.broker_dropin("192.168.1.20", tmp_path / "no-resolv.conf", lookup_fn=eventnet.local_lookup)
    assert text.splitlines()[4:10] == [
        "[Service]",
        "PrivateNetwork=no",
        "RestrictAddressFamilies=",
        "RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6",
        "IPAddressDeny=any",
        "IPAddressAllow=",
    ]
    assert _allowed(text) == ["192.168.1.20"]
    # and the machine itself (paho's wake-up socket pair is a TCP connection on loopback)
    assert "IPAddressAllow=localhost" in text.splitlines()
    assert "# event-link broker: 192.168.1.20" in text.splitlines()
    # an IPv6 broker in the short form both sides compare
    assert eventnet.normal_broker(True, "FE80:0:0::1") == "fe80::1"
    assert _allowed(eventnet.dropin_text("fe80::1", ["fe80::1"])) == ["fe80::1"]


def test_the_drop_in_for_a_host_name_allows_its_addresses_and_the_dns_servers(tmp_path: Path):
    resolv = tmp_path / "resolv.conf"
    resolv.write_text("nameserver 192.168.1.1\nnameserver fe80::1%wlan0\nnameserver 192.168.1.1\noptions edns0\n")
    text = eventnet.broker_dropin("localhost", resolv, lookup_fn=eventnet.local_lookup)  # a real look-up
    allowed = _allowed(text)
    assert "127.0.0.1" in allowed and allowed[-2:] == ["192.168.1.1", "fe80::1"]
    assert "# event-link broker: localhost" in text.splitlines()
    # sorted and deduplicated: the same answers in another order give the same text
    a = eventnet.dropin_text("eventpi.lan", ["10.0.0.9", "10.0.0.2", "10.0.0.9"], ["10.0.0.1"])
    b = eventnet.dropin_text("eventpi.lan", ["10.0.0.2", "10.0.0.9"], ["10.0.0.1", "10.0.0.1"])
    assert a == b and _allowed(a) == ["10.0.0.2", "10.0.0.9", "10.0.0.1"]


def test_no_drop_in_when_the_table_is_not_paired(tmp_path: Path):
    assert eventnet.configured_broker(tmp_path / "kiosk.json") is None  # no settings at all
    _save(tmp_path, enabled=False, broker="192.168.1.20")
    assert eventnet.configured_broker(tmp_path / "kiosk.json") is None
    _save(tmp_path, enabled=True, broker="EventPi.LAN")
    assert eventnet.configured_broker(tmp_path / "kiosk.json") == "eventpi.lan"


def test_the_settings_are_read_as_the_kiosk_reads_them_and_a_link_is_refused(tmp_path: Path):
    state = tmp_path / "state"
    state.mkdir()
    _save(state, enabled=True, broker="10.0.0.5")
    (state / "kiosk.json").write_text("{ broken")  # the kiosk then runs on its last good copy: so does the helper
    assert eventnet.configured_broker(state / "kiosk.json") == "10.0.0.5"
    other = tmp_path / "elsewhere.json"
    kconfig.save(
        kconfig.Config().replace(event={"enabled": True, "broker": "6.6.6.6", "event": "e", "table": "t"}), other
    )
    (state / "kiosk.json").unlink()
    (state / "kiosk.last-good.json").unlink()
    (state / "kiosk.json").symlink_to(other)
    assert eventnet.configured_broker(state / "kiosk.json") is None


def test_write_is_atomic_idempotent_and_removal_keeps_other_drop_ins(tmp_path: Path):
    path = eventnet.dropin_path(tmp_path)
    text = eventnet.dropin_text("10.0.0.5", ["10.0.0.5"])
    assert eventnet.write_dropin(path, text) is True
    assert path.read_text() == text and (path.stat().st_mode & 0o777) == 0o644
    stamp = path.stat().st_mtime_ns
    assert eventnet.write_dropin(path, text) is False and path.stat().st_mtime_ns == stamp
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left
    (path.parent / "rotation.conf").write_text("[Service]\n")
    assert eventnet.write_dropin(path, None) is True and not path.exists()
    assert (path.parent / "rotation.conf").exists()
    assert eventnet.write_dropin(path, None) is False


def test_the_lookup_entry_point_prints_json():
    """What the transient unit runs (sandboxed_lookup): the installed module, as a command."""
    run = [sys.executable, "-m", "kiosk.appliance.eventnet", "lookup"]
    out = subprocess.run([*run, "localhost"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "127.0.0.1" in json.loads(out.stdout)["addresses"]
    bad = subprocess.run([*run, "no such host"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and json.loads(bad.stdout)["error"]


@pytest.mark.skipif(
    os.geteuid() != 0 or not Path("/run/systemd/system").is_dir() or shutil.which("systemd-run") is None,
    reason="the look-up in a transient unit needs root and a running systemd",
)
def test_the_sandboxed_lookup_runs_in_a_transient_unit():
    assert "127.0.0.1" in eventnet.sandboxed_lookup("localhost")


# ------------------------------------------------------------------------------------------------ systemd
@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze missing (test.sh installs it)")
@pytest.mark.parametrize("broker", ["192.168.1.20", "localhost"])
def test_systemd_accepts_the_unit_with_the_drop_in_and_rates_it(tmp_path: Path, broker: str):
    exe = tmp_path / "bin-placeholder"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    unit = tmp_path / "kiosk.service"
    unit.write_text(
        re.sub(r"^(Exec\w+=[-+!@]*)(/opt/sushi-kiosk/\S+)", rf"\g<1>{exe}", KIOSK_UNIT.read_text(), flags=re.M)
    )
    dropin = tmp_path / "kiosk.service.d" / eventnet.DROPIN_NAME
    resolv = tmp_path / "resolv.conf"
    resolv.write_text("nameserver 192.168.1.1\n")
    eventnet.write_dropin(dropin, eventnet.broker_dropin(broker, resolv, lookup_fn=eventnet.local_lookup))
    proc = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0 and not (proc.stdout + proc.stderr).strip(), proc.stdout + proc.stderr
    # the drop-in is read (a wrong key in it is reported), so the clean run above checked it
    dropin.write_text(dropin.read_text() + "NoSuchKey=1\n")
    proc = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, cwd=tmp_path)
    assert "NoSuchKey" in proc.stdout + proc.stderr
    dropin.write_text(dropin.read_text().replace("NoSuchKey=1\n", ""))
    sec = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    out = sec.stdout + sec.stderr
    level = float(re.search(r"Overall exposure level for \S+: ([0-9.]+)", out).group(1))  # type: ignore[union-attr]
    assert 0.6 < level <= 2.0, out  # opened (network, internet sockets) yet still well sandboxed
    failing = {line.split()[1] for line in out.splitlines() if line.startswith("✗")}
    assert "PrivateNetwork=" in failing and "IPAddressDeny=" in failing  # an allow list, not "any address"
    # the unpaired unit is the base unit, untouched
    assert re.search(r"^PrivateNetwork=yes$", KIOSK_UNIT.read_text(), re.M)


# ------------------------------------------------------------------------------------------------ the request
def test_pairing_and_unpairing_end_to_end(tmp_path: Path):
    t = Table(tmp_path)
    _save(t.state, enabled=True, broker="192.168.1.20", port=8883)
    assert t.ask() == 0
    assert pending(t.state) == []
    assert _allowed(t.dropin.read_text()) == ["192.168.1.20"]
    assert t.calls == ["daemon-reload", "try-restart"]
    status = read_status(t.state)
    assert status["kind"] == "event-network" and status["ok"] is True and "192.168.1.20" in status["message"]

    # asked again with the same settings (the kiosk's start): nothing written, nothing restarted
    stamp = t.dropin.stat().st_mtime_ns
    t.calls.clear()
    (t.state / "requests" / "status.json").unlink()
    assert t.ask(at_start=True) == 0
    assert t.dropin.stat().st_mtime_ns == stamp and t.calls == [] and read_status(t.state) == {}

    # another broker: rewritten, restarted
    _save(t.state, enabled=True, broker="10.1.2.3")
    assert t.ask() == 0
    assert _allowed(t.dropin.read_text()) == ["10.1.2.3"] and t.calls == ["daemon-reload", "try-restart"]

    # unpaired: the drop-in goes, the kiosk restarts into its closed sandbox
    t.calls.clear()
    _save(t.state, enabled=False, broker="10.1.2.3")
    assert t.ask() == 0
    assert not t.dropin.exists() and t.calls == ["daemon-reload", "try-restart"]
    assert "not paired" in read_status(t.state)["message"]


def test_the_request_never_names_the_addresses(tmp_path: Path):
    t = Table(tmp_path)
    _save(t.state, enabled=True, broker="192.168.1.20")
    request_event_network(t.state)
    path = t.state / "requests" / "event-network.request"
    path.write_text(json.dumps({"broker": "6.6.6.6", "addresses": ["0.0.0.0/0"], "at_start": "yes"}))
    assert t.admin.serve() == 0
    assert _allowed(t.dropin.read_text()) == ["192.168.1.20"]


def test_a_broker_given_by_name_is_looked_up_with_the_dns_servers(tmp_path: Path):
    t = Table(tmp_path)
    _save(t.state, enabled=True, broker="localhost")
    assert t.ask() == 0
    allowed = _allowed(t.dropin.read_text())
    assert "127.0.0.1" in allowed and allowed[-2:] == ["192.168.1.1", "fe80::1"]


def test_a_failed_lookup_closes_the_network_for_a_new_broker_and_keeps_it_for_the_same(tmp_path: Path):
    answers: dict[str, list[str]] = {"eventpi.lan": ["192.168.1.20"]}

    def dns(host: str) -> list[str]:  # the outside world: answers, or not
        if host not in answers:
            raise eventnet.LookupFailed("Name or service not known")
        return answers[host]

    t = Table(tmp_path, lookup=dns)
    _save(t.state, enabled=True, broker="eventpi.lan")
    assert t.ask() == 0 and _allowed(t.dropin.read_text())[0] == "192.168.1.20"
    # the same broker, not found this time (the network is not up yet): the addresses found before are kept
    del answers["eventpi.lan"]
    t.calls.clear()
    assert t.ask(at_start=False) == 0 and t.dropin.exists() and t.calls == []
    # another broker that cannot be found: the old broker's drop-in goes, and the menu learns why
    _save(t.state, enabled=True, broker="typo.lan")
    assert t.ask() == 1
    assert not t.dropin.exists() and t.calls == ["daemon-reload", "try-restart"]
    status = read_status(t.state)
    assert status["ok"] is False and "typo.lan" in status["message"] and "Name or service" in status["message"]
    assert pending(t.state) == []


def test_a_lookup_at_start_is_tried_again_while_the_network_comes_up(tmp_path: Path):
    tries: list[str] = []

    def dns(host: str) -> list[str]:
        tries.append(host)
        if len(tries) < 3:
            raise eventnet.LookupFailed("Temporary failure in name resolution")
        return ["192.168.1.20"]

    resolv = tmp_path / "resolv.conf"
    naps: list[float] = []
    text = eventnet.broker_dropin("eventpi.lan", resolv, dns, wait_s=60, sleep=naps.append)
    assert _allowed(text) == ["192.168.1.20"]
    # and the machine itself (paho's wake-up socket pair is a TCP connection on loopback)
    assert "IPAddressAllow=localhost" in text.splitlines() and len(tries) == 3 and naps == [5.0, 5.0]
    tries.clear()
    with pytest.raises(eventnet.LookupFailed):
        eventnet.broker_dropin("eventpi.lan", resolv, dns, wait_s=0)  # the owner's pairing: one try, an answer now
    assert len(tries) == 1


def test_kiosk_admin_event_network_from_a_shell(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    state, etc = tmp_path / "state", tmp_path / "etc"
    state.mkdir()
    _save(state, enabled=False)
    # unpaired and no drop-in: nothing to change (so nothing calls systemctl here)
    assert admin_main(["--state-dir", str(state), "--etc", str(etc), "event-network"]) == 0
    assert "nothing changed" in capsys.readouterr().out and not eventnet.dropin_path(etc).exists()


# ------------------------------------------------------------------------------------------------ the kiosk's side
def test_the_kiosk_asks_when_the_drop_in_is_not_what_its_settings_want(tmp_path: Path):
    t = Table(tmp_path)
    unit = tmp_path / "kiosk-admin.path"
    where = {"dropin": t.dropin, "helper_unit": unit, "table_dir": t.state}
    # not an installed table (no helper): never asks, nothing to say
    assert not eventnet.should_ask(t.state, True, "10.0.0.5", **where)
    assert eventnet.network_state(t.state, True, "10.0.0.5", **where) == ("", "")
    unit.write_text("[Path]\n")
    assert not eventnet.should_ask(tmp_path / "another-state", True, "10.0.0.5", **where)  # not the table's folder
    assert not eventnet.should_ask(t.state, False, "10.0.0.5", **where)  # unpaired, no drop-in: as it should be
    assert eventnet.should_ask(t.state, True, "10.0.0.5", **where)  # paired (or restored from a backup)
    request_event_network(t.state)
    assert eventnet.network_state(t.state, True, "10.0.0.5", inet=False, **where) == ("pending", "")
    _save(t.state, enabled=True, broker="10.0.0.5")
    assert t.admin.serve() == 0
    assert not eventnet.should_ask(t.state, True, "10.0.0.5", **where)
    assert not eventnet.should_ask(t.state, True, "10.0.0.5", at_start=True, **where)  # an address: no look-up
    # written, but this process started before it: the restart is on its way; after it, nothing to say
    assert eventnet.network_state(t.state, True, "10.0.0.5", inet=False, **where) == ("pending", "")
    assert eventnet.network_state(t.state, True, "10.0.0.5", inet=True, **where) == ("", "")
    assert eventnet.should_ask(t.state, False, "10.0.0.5", **where)  # unpaired: close it again
    assert eventnet.should_ask(t.state, True, "10.0.0.6", **where)  # another broker


def test_the_kiosk_says_why_the_network_stays_closed(tmp_path: Path):
    def dns(host: str) -> list[str]:
        raise eventnet.LookupFailed("Name or service not known")

    t = Table(tmp_path, lookup=dns)
    unit = tmp_path / "kiosk-admin.path"
    unit.write_text("[Path]\n")
    where = {"dropin": t.dropin, "helper_unit": unit, "table_dir": t.state}
    _save(t.state, enabled=True, broker="typo.lan")
    assert eventnet.should_ask(t.state, True, "typo.lan", at_start=True, **where)
    assert t.ask() == 1
    state, why = eventnet.network_state(t.state, True, "typo.lan", inet=False, **where)
    assert state == "closed" and "typo.lan" in why


def test_a_broker_name_is_looked_up_again_at_each_start(tmp_path: Path):
    t = Table(tmp_path)
    unit = tmp_path / "kiosk-admin.path"
    unit.write_text("[Path]\n")
    where = {"dropin": t.dropin, "helper_unit": unit, "table_dir": t.state}
    _save(t.state, enabled=True, broker="localhost")
    assert t.ask() == 0
    assert not eventnet.should_ask(t.state, True, "localhost", **where)  # a change of another setting: no
    assert eventnet.should_ask(t.state, True, "localhost", at_start=True, **where)  # its address may have changed


def test_the_event_room_asks_and_reports_through_the_same_files(tmp_path: Path):
    """The kiosk's event room (kiosk/shell/eventroom.py) with a real link to a port nobody listens on."""
    from kiosk.shell.eventroom import EventRoom

    t = Table(tmp_path)
    _save(t.state, enabled=True, broker="127.0.0.1", port=9)
    app = SimpleNamespace(cfg=kconfig.load(t.state / "kiosk.json"), state_dir=t.state)
    room = EventRoom(app)  # type: ignore[arg-type]
    room.dropin, room.helper_unit, room.table_dir = t.dropin, tmp_path / "kiosk-admin.path", t.state
    room.helper_unit.write_text("[Path]\n")
    room.start()
    try:
        room.ask_for_network(at_start=True)
        assert pending(t.state) == ["event-network"]
        assert room.status()["state"] == "network-pending"
        assert t.admin.serve() == 0 and t.dropin.exists()
        # this test process may open internet sockets: as a kiosk restarted into the opened sandbox
        assert room.status()["state"] in ("connecting", "offline")
        room.ask_for_network(at_start=True)
        assert pending(t.state) == []  # an address, already allowed: nothing to ask
    finally:
        room.stop()
