"""The Pi's own processor: the table installed, booted and updated on 64-bit ARM under emulation (``./test.sh -m
arm64``; docs/developer/testing.md).

The image is :mod:`devtools.image`'s for ``arm64``: a Debian Bookworm arm64 root made under user-mode emulation, the
project's installer run in it as on a Pi (pip builds lgpio there from its source), Debian's arm64 kernel; booted in
``qemu-system-aarch64 -M virt -cpu cortex-a72`` (a Pi 4's core, pure emulation: no KVM for ARM here). One table is
switched on once and its tests run on it in order (``table``): every boot of emulated ARM costs minutes. Needs root,
QEMU's ARM system and user emulators and mmdebstrap (test.sh installs them); skipped with the reason otherwise.
Screendumps and the guest's logs stay in ``artifacts/arm64/<file>/``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from system.booted import artifacts_folder, switched_off

from devtools.image import Image, build
from devtools.vm import Machine


@pytest.fixture(scope="session")
def image() -> Image:
    if os.geteuid() != 0:
        pytest.skip("the arm64 tier needs root (the image's chroot, binfmt_misc, a loop device)")
    for tool in ("qemu-system-aarch64", "qemu-aarch64-static", "qemu-img", "mmdebstrap", "mkfs.ext4"):
        if not shutil.which(tool):
            pytest.skip(f"the arm64 tier needs {tool} (test.sh installs it)")
    return build(arch="arm64")


@pytest.fixture(scope="module")
def artifacts(request: pytest.FixtureRequest) -> Path:
    return artifacts_folder(Path(str(request.node.fspath)).stem, "arm64")


@pytest.fixture(scope="module")
def table(image: Image, tmp_path_factory: pytest.TempPathFactory, artifacts: Path) -> Iterator[Machine]:
    """One arm64 table for a file's tests, switched on by the first that needs it, off after the last."""
    m = Machine(image, tmp_path_factory.mktemp("arm64") / "vm", data_stick=False, cpus=2)
    try:
        yield m
    finally:
        switched_off(m, artifacts)
