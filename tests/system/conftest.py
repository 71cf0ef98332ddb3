"""The booted tier: the table as a café plugs it in, in QEMU (``./test.sh -m system``; docs/developer/testing.md).

The image is built once per checkout by :mod:`devtools.image` (the installer run in a fresh Debian root, cached by a
hash of what went into it); each test boots copy-on-write overlays of it through :class:`devtools.vm.Machine`
(``machine``), or shares one booted table with the other tests of its file (``shared_table``). Two workers run two
machines side by side, one virtual CPU each (``KIOSK_VM_CPUS``), the longest tests first. Needs root (the image's
chroot and loop device), mmdebstrap and QEMU (test.sh installs both); without them the tier is skipped with the
reason. Screendumps and the guest's console logs stay in ``artifacts/system/<test or file>/``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from devtools.image import Image, build
from devtools.vm import Machine
from system.booted import artifacts_folder, switched_off

#: the longest first (a boot under emulation is about a minute; power cuts boot six times per table, an update three
#: times and installs), so that the last test to start is a short one and the workers finish together
LONGEST_FIRST = ("test_power_cuts.py", "test_updates.py", "test_update_rollback.py", "test_backup.py")
#: files whose tests run on one booted table, in order (they go to one worker together)
SHARED_TABLE = ("test_boot.py",)


def scope_of(nodeid: str) -> str:
    """What one worker runs in one go: a test on its own table, or a file whose tests share one."""
    file = nodeid.split("::", 1)[0]
    return file if Path(file).name in SHARED_TABLE else nodeid


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    def rank(item: Any) -> int:
        name = Path(str(item.fspath)).name
        return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # (stable: a file's own order stays)


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
    return artifacts_folder(request.node.name)


@pytest.fixture
def machine(image: Image, tmp_path: Path, artifacts: Path) -> Iterator[Machine]:
    m = Machine(image, tmp_path / "vm")
    try:
        yield m
    finally:
        switched_off(m, artifacts)


@pytest.fixture(scope="module")
def shared_table(
    image: Image, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[Machine]:
    """One table for a file's tests (in ``SHARED_TABLE``): switched on by the first, off after the last."""
    name = Path(str(request.node.fspath)).stem
    m = Machine(image, tmp_path_factory.mktemp(name) / "vm")
    try:
        yield m
    finally:
        switched_off(m, artifacts_folder(name))
