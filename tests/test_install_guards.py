"""The installer's guards: it changes nothing on a system in read-only mode (and says how to turn the mode off),
and it keeps one operator PIN and says which (the data stick's, when it holds one; the one given with --pin
replaces it). The installer itself in a fresh Debian root: tests/test_appliance_install.py."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from kiosk import config as kconfig
from kiosk.appliance import install, readonly
from kiosk.pin import hash_pin

pytestmark = pytest.mark.appliance

ROOT = Path(__file__).resolve().parents[1]


def _installer(lines: list[str], **kw: object) -> install.Installer:
    inst = install.Installer(source=ROOT, dry_run=True, pin=None, read_only=False, data_device=None, rotate=None, **kw)
    inst.out = lines.append  # type: ignore[method-assign]
    return inst


def test_read_only_mode_on_changes_nothing_and_says_how(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(readonly, "supported", lambda: True)
    monkeypatch.setattr(readonly, "overlay_active", lambda mounts=None: True)
    lines: list[str] = []
    assert _installer(lines).run_all() == 1
    text = "\n".join(lines)
    assert "Read-only mode is on" in text and "kiosk-admin read-only off" in text and "changes nothing" in text
    assert "[would]" not in text and "[done]" not in text and "Installing" not in text


def test_an_overlay_that_is_not_pi_os_read_only_mode_is_no_reason_to_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(readonly, "supported", lambda: False)  # no raspi-config: a container's overlay root
    monkeypatch.setattr(readonly, "overlay_active", lambda mounts=None: True)
    inst = _installer([])
    calls: list[str] = []
    for name in [n for n in dir(inst) if n.startswith("step_")]:
        monkeypatch.setattr(inst, name, lambda name=name: calls.append(name))
    assert inst.run_all() == 0
    # the PIN on the folder beneath the data stick first (a table started without its stick still has it), then
    # on the stick mounted by read-only mode
    assert calls[-3:] == ["step_pin", "step_read_only", "step_pin"], calls


def test_a_pin_already_set_is_kept_and_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(install, "STATE_DIR", tmp_path)
    kconfig.save(kconfig.Config().replace(operator={"pin_hash": hash_pin("2580")}), tmp_path / "kiosk.json")
    lines: list[str] = []
    _installer(lines).step_pin()
    assert lines == [
        f"[ok]    operator PIN: kept the PIN already set in {tmp_path / 'kiosk.json'} (another one: --pin, or "
        "kiosk --set-pin)"
    ]
    lines.clear()
    inst = _installer(lines)
    inst.pin = "2580"
    inst.step_pin()
    assert lines == [f"[ok]    operator PIN: the PIN given is the one set in {tmp_path / 'kiosk.json'}"]
    lines.clear()
    inst.pin = "97531"
    inst.step_pin()
    assert lines == [
        f"[would] operator PIN: replaced by the PIN given, with kiosk --set-pin (in {tmp_path / 'kiosk.json'})"
    ]


@pytest.mark.skipif(shutil.which("mkfs.ext4") is None, reason="needs mkfs.ext4")
def test_the_dry_run_mounts_the_data_stick_before_the_pin(tmp_path: Path) -> None:
    image = tmp_path / "stick.img"
    with open(image, "wb") as fh:
        fh.truncate(16 * 1024 * 1024)
    subprocess.run(["mkfs.ext4", "-q", "-L", "KIOSKDATA", str(image)], check=True)
    r = subprocess.run(
        [str(ROOT / "scripts" / "install.sh"), "--dry-run", "--pin", "1357", "--read-only", "--data-device"]
        + [str(image)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = r.stdout
    assert "read-only:" in out and "operator PIN:" in out, out
    assert out.index("operator PIN:") < out.index("read-only:") < out.rindex("operator PIN:"), out
