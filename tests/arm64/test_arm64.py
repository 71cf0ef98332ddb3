"""The table on the Pi's own processor (64-bit ARM, a Cortex-A72 emulated), one table switched on once and used by
these tests in order: the installer's work on ARM (lgpio built from its source, the app's venv), a power-on to
attract mode drawn through KMS/DRM, the GPIO library loaded and the kiosk saying this machine is no Pi, and
updates as the owner installs them with no network: a bundle built on this PC for aarch64 installs and the table
comes back on it (also after a power cut), a bundle missing a wheel is refused before anything changes."""

from __future__ import annotations

import json
import re
import tarfile
import time
from pathlib import Path

import pytest
from system.screenlook import wait_drawn
from system.updating import bundle, menu

from devtools.guest import as_kiosk, request, wait_status
from devtools.image import PIN, Image
from devtools.vm import Machine, Stick, make_fat_stick

pytestmark = [pytest.mark.arm64, pytest.mark.timeout(1200)]

#: what the owner's guide builds on a PC for a 64-bit Pi OS Bookworm (docs/appliance.md)
FOR_THE_PI = ("--platform", "manylinux2014_aarch64", "--python-version", "3.11")


def on(table: Machine) -> Machine:
    """The table, switched on if a test runs on its own."""
    if table.proc is None:
        table.boot(timeout=600)
    return table


def test_the_installer_completes_on_arm(table: Machine, image: Image) -> None:
    """The image's install (scripts/install.sh in the arm64 root, as on a Pi) built lgpio from its source with the
    packages it installed; on the booted table the app runs on aarch64 and a second run of the installer, now on a
    running system, finds everything done."""
    log = (image.folder / "install.log").read_text()
    assert "[FAIL]" not in log, log
    packages = next(line for line in log.splitlines() if line.startswith("[done]  packages:"))
    assert all(p in packages.split() for p in ("swig", "gcc", "python3-dev")), packages
    assert re.search(r"^\[done\]  app: build ", log, re.M), log
    assert sorted(p.name for p in image.wheels.glob("*.whl")) == [
        next(image.wheels.glob("lgpio-*-cp311-cp311-linux_aarch64.whl")).name
    ]
    m = on(table)
    assert m.out("uname -m") == "aarch64"
    said = m.out("/opt/sushi-kiosk/current/bin/python -c 'import platform, kivy, lgpio; print(platform.machine())'")
    assert said.splitlines()[-1] == "aarch64", said
    again = m.out(f"/srv/sushi-kiosk/scripts/install.sh --pin {PIN}", timeout=600)
    assert "Nothing changed" in again and "[done]" not in again and "[FAIL]" not in again, again


def test_power_on_to_attract_mode_through_kms(table: Machine, artifacts: Path) -> None:
    m = table
    if m.proc is not None:
        m.power_cut()
    t0 = time.monotonic()
    m.boot(timeout=600)
    unit = m.wait_unit_status("kiosk.service", "attract mode", timeout=600)
    boot_to_attract = time.monotonic() - t0
    pid = unit["MainPID"]
    assert unit["Type"] == "notify" and unit["NRestarts"] == "0" and unit["User"] == "kiosk"
    assert "/dev/dri/card0" in m.shell(f"ls -l /proc/{pid}/fd")[1]
    assert m.out(f"tr '\\0' '\\n' < /proc/{pid}/environ | grep ^SDL_VIDEODRIVER=") == "SDL_VIDEODRIVER=kmsdrm"
    seen = wait_drawn(m, artifacts / "attract.png")
    assert seen.size[0] >= 1024, seen
    started = int(unit["ExecMainStartTimestampMonotonic"])
    active = int(unit["ActiveEnterTimestampMonotonic"])
    (artifacts / "timing.json").write_text(
        json.dumps({"boot_to_attract_s": round(boot_to_attract, 1), "kiosk_start_s": (active - started) / 1e6})
    )


def test_the_gpio_library_loads_and_the_kiosk_says_this_is_no_pi(table: Machine) -> None:
    """The unit names lgpio (GPIOZERO_PIN_FACTORY=lgpio, a Pi 5's only way). QEMU's virt machine has a GPIO chip (a
    PL061, its power button's) but no Pi header: the kiosk runs on with the keyboard fallback and its log says why,
    naming the chip. lgpio itself, built for aarch64 by the installer, opens that chip as the kiosk user (the
    installer's udev rule gives /dev/gpiochip* to the gpio group, as Raspberry Pi OS does)."""
    m = on(table)
    unit = m.wait_unit_status("kiosk.service", "attract mode", timeout=600)
    assert unit["NRestarts"] == "0"
    log = m.journal()
    pattern = r"No GPIO \(not a Raspberry Pi \(GPIO chips here: [^;]*pl061; no Pi header\), PinUnknownPi: .+\): seat"
    assert re.search(pattern, log), log
    said = as_kiosk(
        m,
        "import lgpio\n"
        "h = lgpio.gpiochip_open(0)\n"
        "print('chip', lgpio.gpio_get_chip_info(h))\n"
        "lgpio.gpiochip_close(h)\n",
    )
    assert re.search(r"^chip \(0, \d+, 'gpiochip\d+', '[\w.]*pl061'\)$", said, re.M), said


def _without(bundle_path: Path, prefix: str, out: Path) -> Path:
    """The bundle as an older builder made it for the Pi: ``prefix``'s wheel left out (manifest and all)."""
    with tarfile.open(bundle_path) as tar:
        manifest = json.loads(tar.extractfile("manifest.json").read())  # type: ignore[union-attr]
        dropped = [n for n in manifest["wheels"] if n.startswith(prefix)]
        assert dropped, manifest["wheels"]
        for n in dropped:
            del manifest["wheels"][n]
        manifest["id"] += "-no" + prefix.rstrip("-")
        folder = out / "unpacked"
        tar.extractall(folder, filter="data")
    (folder / "manifest.json").write_text(json.dumps(manifest))
    result = out / f"sushi-kiosk-{manifest['id']}.kiosk-update"
    with tarfile.open(result, "w") as tar:
        tar.add(folder / "manifest.json", arcname="manifest.json")
        for n in manifest["wheels"]:
            tar.add(folder / "wheels" / n, arcname=f"wheels/{n}")
    return result


def _install(m: Machine, update: Path, tmp: Path, stick_id: str) -> dict[str, object]:
    """The owner's stick with ``update`` plugged in, "Install update" pressed; the helper's answer (the table is
    writable: no reboots, the kiosk restarted on the new version and checked for READY)."""
    stick = make_fat_stick(tmp / f"{stick_id}.img", {update.name: update.read_bytes()}, size_mb=512)
    m.plug(Stick(stick_id, stick))
    m.wait_until("the stick shows up", lambda: "vfat" in m.out("lsblk -o FSTYPE"), 180)
    m.out("rm -f /var/lib/sushi-kiosk/requests/status.json")
    request(m, "update")
    answer = wait_status(m, "update", timeout=900)
    m.pull(stick_id)
    return answer


@pytest.mark.timeout(1800)
def test_a_bundle_built_here_for_the_pi_installs_offline_and_one_missing_a_wheel_is_refused(
    table: Machine, image: Image, tmp_path: Path, artifacts: Path
) -> None:
    """``kiosk-update build`` on this x86 machine for aarch64 (lgpio's wheel from the image's build, named with
    --find-links: PyPI has none), carried on a USB stick to a table with no network. The same bundle without lgpio
    (what the builder made before it judged the Pi's dependencies for the Pi) is refused before anything changes."""
    good = bundle(tmp_path, "0.2.0", build_args=(*FOR_THE_PI, "--find-links", str(image.wheels)))
    with tarfile.open(good) as tar:
        names = tar.getnames()
    assert any(re.fullmatch(r"wheels/lgpio-.*linux_aarch64\.whl", n) for n in names), names
    assert any(re.fullmatch(r"wheels/[Kk]ivy-.*aarch64\.whl", n) for n in names), names
    lacking = _without(good, "lgpio-", tmp_path)

    m = on(table)
    unit = m.wait_unit_status("kiosk.service", "attract mode", timeout=600)
    assert m.shell("ip -o route")[1].strip() == "", "the table has a network"
    before = menu(m)
    assert re.search(r"^Version: 0\.1\.0-src\w+$", before, re.M), before
    versions = m.out("ls /opt/sushi-kiosk/versions")

    answer = _install(m, lacking, tmp_path, "lacking")
    assert answer.get("ok") is False and "lgpio" in str(answer.get("message")), answer
    assert m.out("ls /opt/sushi-kiosk/versions") == versions
    again = m.unit("kiosk.service")
    assert again["MainPID"] == unit["MainPID"] and again["NRestarts"] == "0", "the refused bundle restarted the kiosk"
    assert re.search(r"^Version: 0\.1\.0-src\w+$", menu(m), re.M)

    answer = _install(m, good, tmp_path, "good")
    assert answer.get("ok") is True, answer
    m.wait_unit_status("kiosk.service", "attract mode", timeout=600)
    assert "Version: 0.2.0-" in menu(m)
    wait_drawn(m, artifacts / "after-update.png")
    # the updated table, its plug pulled and put back, starts on the new version
    m.power_cut()
    m.boot(timeout=600)
    m.wait_unit_status("kiosk.service", "attract mode", timeout=600)
    assert "Version: 0.2.0-" in menu(m)
    assert "lgpio" in as_kiosk(m, "import lgpio, importlib.metadata as md; print('lgpio', md.version('lgpio'))")
