"""Update bundles and the updater, for real: bundles built from this checkout (and from copies of it with another
version, and with a start-up that fails) by the real build command, installed into fresh virtual environments,
and checked by starting the installed kiosk in a real window until it sends READY=1.

A power cut is simulated by the updater killing itself with SIGKILL at each step (``KIOSK_UPDATE_CRASH_AT``),
followed by ``kiosk-update recover`` as at the next boot.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from kiosk.appliance.update import (
    CRASH_ENV,
    STEPS,
    ProcessReady,
    UpdateError,
    Updater,
    _machine_of,
    _target_only,
    build_bundle,
    read_manifest,
)

ROOT = Path(__file__).resolve().parents[1]
pytestmark = [pytest.mark.appliance, pytest.mark.slow, pytest.mark.timeout(900)]


def _source_copy(dest: Path, version: str, broken: bool = False) -> Path:
    ignore = shutil.ignore_patterns(".venv", ".git", "artifacts", "tests", "build", "dist", "*.egg-info", "__pycache__")
    shutil.copytree(ROOT, dest, ignore=ignore)
    py = dest / "pyproject.toml"
    text, n = re.subn(r'^version = "[^"]+"', f'version = "{version}"', py.read_text(), count=1, flags=re.M)
    assert n == 1
    py.write_text(text)
    if broken:  # answers --version, then fails before its first frame
        main = dest / "kiosk" / "__main__.py"
        text, n = re.subn(
            r"^(    hardware = args\.hardware if)",
            r"    raise SystemExit('this build is broken on purpose')\n\1",
            main.read_text(),
            count=1,
            flags=re.M,
        )
        assert n == 1, "the start-up line to break was not found in kiosk/__main__.py"
        main.write_text(text)
    return dest


@pytest.fixture(scope="module")
def bundles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("bundles")
    out = base / "dist"
    return {
        "a": build_bundle(ROOT, out),
        "b": build_bundle(_source_copy(base / "src-b", "0.1.1"), out),
        "broken": build_bundle(_source_copy(base / "src-broken", "0.1.2", broken=True), out),
    }


def test_a_bundle_for_the_pi_judges_the_apps_dependencies_for_the_pi(bundles, tmp_path):
    """pip judges a requirement's marker on the machine it runs on, so a bundle built on a PC for the Pi would lack
    lgpio (a dependency only on Linux on ARM). The builder reads the app's own wheel for the Pi's processor: lgpio
    there, nothing for a PC; a platform it cannot read is refused before any build."""
    with tarfile.open(bundles["a"]) as tar:
        name = next(n for n in tar.getnames() if n.startswith("wheels/sushi_table_kiosk-"))
        tar.extract(name, tmp_path, filter="data")
    wheel = tmp_path / name
    on_the_pi = [Requirement(r) for r in _target_only(wheel, _machine_of("manylinux2014_aarch64"))]
    assert [(r.name, r.marker, "0.2.2" in r.specifier, "0.3" in r.specifier) for r in on_the_pi] == [
        ("lgpio", None, True, False)
    ]
    assert _target_only(wheel, "x86_64") == []
    assert _machine_of("linux_armv7l") == "armv7l" and _machine_of("manylinux_2_17_aarch64") == "aarch64"
    with pytest.raises(UpdateError, match="macosx_11_0_arm64"):
        build_bundle(ROOT, tmp_path / "dist", platform="macosx_11_0_arm64")
    assert not (tmp_path / "dist").exists()


@pytest.fixture(scope="module")
def kiosk_args(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], dict[str, str]]:
    state = tmp_path_factory.mktemp("state")
    env = dict(os.environ, KIVY_HOME=str(state / "kivy"), KIVY_NO_ARGS="1", SDL_AUDIODRIVER="dummy")
    env.pop(CRASH_ENV, None)
    return ["--hardware", "none", "--state-dir", str(state)], env


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory, bundles, kiosk_args) -> tuple[Path, Path]:
    """A root with version A installed, and a copy of it (venvs are not relocatable: tests restore it in place)."""
    base = tmp_path_factory.mktemp("opt")
    root = base / "sushi-kiosk"
    args, env = kiosk_args
    res = Updater(root, check=ProcessReady(args, env), say=lambda _s: None).install(bundles["a"])
    assert res.ok, res.message
    snap = base / "snapshot"
    shutil.copytree(root, snap, symlinks=True)
    return root, snap


@pytest.fixture
def root_a(snapshot) -> Path:
    root, snap = snapshot
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(snap, root, symlinks=True)
    return root


def _version(root: Path) -> str:
    out = subprocess.run([str(root / "current" / "bin" / "kiosk"), "--version"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()[-1]


def test_bundle_holds_the_app_and_its_dependencies(bundles):
    m = read_manifest(bundles["a"])
    names = " ".join(m["wheels"])
    assert m["version"] == "0.1.0" and m["id"].startswith("0.1.0-")
    for dist in ("sushi_table_kiosk", "Kivy", "gpiozero", "pyserial", "tinydb"):
        assert dist.lower() in names.lower(), f"{dist} missing from the bundle: {names}"
    with tarfile.open(bundles["a"]) as tar:
        assert sorted(n for n in tar.getnames() if n.startswith("wheels/")) == sorted(
            f"wheels/{w}" for w in m["wheels"]
        )


def test_good_update_switches_and_keeps_the_previous_version(root_a, bundles, kiosk_args):
    args, env = kiosk_args
    up = Updater(root_a, check=ProcessReady(args, env), say=lambda _s: None)
    a_id = up.active()
    assert _version(root_a) == "0.1.0"
    res = up.install(bundles["b"])
    assert res.ok and res.changed, res.message
    b_id = read_manifest(bundles["b"])["id"]
    assert up.active() == b_id and up.previous_version() == a_id
    assert _version(root_a) == "0.1.1"
    assert up.journal()["step"] == "done"
    again = up.install(bundles["b"])
    assert again.ok and not again.changed and "nothing changed" in again.message
    back = up.rollback()
    assert back.ok and up.active() == a_id and up.previous_version() == b_id
    assert _version(root_a) == "0.1.0"


def test_broken_update_is_rolled_back(root_a, bundles, kiosk_args):
    args, env = kiosk_args
    up = Updater(root_a, check=ProcessReady(args, env, timeout=60), say=lambda _s: None)
    a_id, prev = up.active(), up.previous_version()
    res = up.install(bundles["broken"])
    assert not res.ok and "rolled back" in res.message and "broken on purpose" in res.message, res.message
    assert up.active() == a_id and up.previous_version() == prev
    assert up.journal()["step"] == "rolled-back"
    assert not (root_a / "versions" / read_manifest(bundles["broken"])["id"]).exists()
    assert _version(root_a) == "0.1.0"


def test_a_damaged_bundle_changes_nothing(root_a, bundles, tmp_path):
    bad = tmp_path / "bad.kiosk-update"
    with tarfile.open(bundles["a"]) as src, tarfile.open(bad, "w") as dst:
        m = json.loads(src.extractfile("manifest.json").read())
        m["id"] = "9.9.9-damaged"
        data = json.dumps(m).encode()
        info = tarfile.TarInfo("manifest.json")
        info.size = len(data)
        import io

        dst.addfile(info, io.BytesIO(data))
        for name in m["wheels"]:
            member = src.getmember(f"wheels/{name}")
            blob = src.extractfile(member).read()
            if name.startswith("tinydb"):
                blob = blob[:-10] + b"0123456789"  # one damaged wheel
            ti = tarfile.TarInfo(member.name)
            ti.size = len(blob)
            dst.addfile(ti, io.BytesIO(blob))
    up = Updater(root_a, check=ProcessReady([], timeout=1), say=lambda _s: None)
    before = up.status()
    with pytest.raises(UpdateError, match="checksum"):
        up.install(bad)
    assert (up.active(), up.previous_version(), up.installed()) == (
        before["current"],
        before["previous"],
        before["installed"],
    )
    garbage = tmp_path / "garbage.kiosk-update"
    garbage.write_bytes(b"not a tar")
    with pytest.raises(UpdateError, match="not a kiosk update bundle"):
        up.install(garbage)
    assert up.active() == before["current"]


def _updater(root: Path, *cmd: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "kiosk.appliance.update", "--root", str(root), *cmd],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    out, err = proc.communicate(timeout=600)
    # a power cut takes everything with it: the kiosk the updater was checking too
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_power_cut_at_each_step_leaves_the_old_version_running(root_a, bundles, kiosk_args):
    args, env = kiosk_args
    up = Updater(root_a, check=ProcessReady(args, env), say=lambda _s: None)
    a_id, prev = up.active(), up.previous_version()
    b_id = read_manifest(bundles["b"])["id"]
    for step in STEPS:
        cut = _updater(root_a, "install", str(bundles["b"]), "--try-run", *args, env=dict(env, **{CRASH_ENV: step}))
        assert cut.returncode == -signal.SIGKILL, f"{step}: {cut.returncode} {cut.stderr}"
        assert up.journal()["step"] == step
        boot = _updater(root_a, "recover", env=env)
        assert boot.returncode == 0, boot.stderr
        assert "interrupted" in boot.stdout
        assert up.active() == a_id and up.previous_version() == prev, step
        assert _version(root_a) == "0.1.0"
        assert up.journal()["step"] == "interrupted" and up.journal()["at"] == step
        leftovers = [p.name for p in (root_a / "versions").iterdir() if not (p / ".complete").exists()]
        assert leftovers == [], f"{step}: half-installed versions left: {leftovers}"
        # from "installed" on, the new version is complete and is reused by the next try
        assert (b_id in up.installed()) == (STEPS.index(step) >= STEPS.index("installed")), step
    done = _updater(root_a, "install", str(bundles["b"]), "--try-run", *args, env=env)
    assert done.returncode == 0, done.stderr
    assert up.active() == b_id and up.previous_version() == a_id
    assert _version(root_a) == "0.1.1"
    assert _updater(root_a, "recover", env=env).stdout.strip() == "nothing to recover"


def test_kiosk_command_line_version_and_build_outside_a_checkout(tmp_path: Path):
    kiosk = Path(sys.executable).parent / "kiosk"
    v = subprocess.run([str(kiosk), "--version"], capture_output=True, text=True, timeout=60)
    assert v.returncode == 0 and re.fullmatch(r"kiosk \d+\.\d+\.\d+\S*\n", v.stdout)
    b = subprocess.run([str(kiosk), "--build-update", "out"], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert b.returncode == 1 and "is not a checkout of the kiosk" in b.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_an_update_carries_the_unchanged_libraries_over_and_not_a_damaged_one(root_a, bundles, kiosk_args):
    """Version B needs the libraries A runs with, at the same versions: they are copied from A's environment (each
    file checked against its RECORD), not reinstalled; a library whose file was damaged on the card comes from B's
    wheel instead, whole again; scripts point at B's Python."""
    args, env = kiosk_args
    said: list[str] = []
    up = Updater(root_a, check=ProcessReady(args, env), say=said.append)
    a_env = root_a / "versions" / up.active()
    tinydb = next(a_env.glob("lib/python3*/site-packages/tinydb/__init__.py"))
    good = tinydb.read_bytes()
    tinydb.write_bytes(good + b"# a bit flipped on the SD card\n")
    res = up.install(bundles["b"])
    assert res.ok, res.message
    carried = next(s for s in said if "carried over" in s)
    assert f"unchanged from {a_env.name}" in carried, said
    reinstalled = carried.rsplit(": ", 1)[1].split(", ")
    # the app and the damaged tinydb from the bundle; Kivy, Pillow and the other intact ones carried (a library
    # this machine's Python changed after pip installed it, as certifi's CA file here, is reinstalled too)
    assert {"sushi-table-kiosk", "tinydb"} <= set(reinstalled), said
    assert not {"kivy", "pillow", "babel", "gpiozero", "pyserial", "paho-mqtt"} & set(reinstalled), said
    b_env = root_a / "versions" / up.active()
    assert next(b_env.glob("lib/python3*/site-packages/tinydb/__init__.py")).read_bytes() == good
    assert (b_env / "bin" / "pybabel").read_text().splitlines()[0] == f"#!{b_env}/bin/python"
    check = subprocess.run(
        [str(b_env / "bin" / "python"), "-c", "import kivy, PIL, tinydb, babel, serial, gpiozero, paho.mqtt"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert check.returncode == 0, check.stderr
    assert _version(root_a) == "0.1.1"
