"""The booted tier: the table as a café plugs it in, in QEMU (``./test.sh -m system``; docs/developer/testing.md).

The image is built once per checkout by :mod:`devtools.image` (the installer run in a fresh Debian root, cached by a
hash of what went into it); each test boots copy-on-write overlays of it through :class:`devtools.vm.Machine`.
Needs root (the image's chroot and loop device), mmdebstrap and QEMU (test.sh installs both); without them the
tier is skipped with the reason. Screendumps and the guest's console logs stay in ``artifacts/system/<test>/``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from devtools.image import Image, build
from devtools.vm import Machine

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "system"


@pytest.fixture(scope="session")
def image() -> Image:
    if os.geteuid() != 0:
        pytest.skip("the booted tier needs root (the image's chroot and loop device)")
    for tool in ("qemu-system-x86_64", "qemu-img", "mmdebstrap", "mkfs.ext4"):
        if not shutil.which(tool):
            pytest.skip(f"the booted tier needs {tool} (test.sh installs it)")
    return build()


@pytest.fixture
def artifacts(request: pytest.FixtureRequest) -> Path:
    folder = ARTIFACTS / request.node.name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


@pytest.fixture
def machine(image: Image, tmp_path: Path, artifacts: Path) -> Iterator[Machine]:
    m = Machine(image, tmp_path / "vm")
    try:
        yield m
    finally:
        m.power_cut()
        for log in ("console.log", "shell.log", "qemu.log"):
            if (m.folder / log).exists():
                shutil.copyfile(m.folder / log, artifacts / log)
