"""The table as a café gets it: a Debian Bookworm disk made by the project's own installer, for booting in QEMU.

    sudo python -m devtools.image [--arch amd64|arm64] [--cache /var/cache/sushi-kiosk-check] [--rebuild]

What goes in is what a blank card gets from the owner's guide, and nothing more:

1. the blank card: a minimal Bookworm root (mmdebstrap) with what Raspberry Pi OS Lite ships and the installer
   relies on (systemd, udev, Python 3, a kernel and its initramfs tools); Debian's ``linux-image-amd64`` stands in
   for the Pi's kernel;
2. a data stick: an ext4 file system labelled KIOSKDATA, formatted as ``docs/owner`` says (``mkfs.ext4 -L
   KIOSKDATA``), attached to a loop device while the installer runs;
3. ``scripts/install.sh --pin 1357 --read-only --data-device /dev/loopN``, as the owner's guide runs it; on plain
   Debian the read-only root is Debian's ``overlayroot`` (the installer installs it where raspi-config is missing);
4. the test's own access, which a Pi has too: a root shell on the second serial port (``ttyS1``; a Pi's UART
   console is the maker's serial cable). The kernel's console is the first serial port;
5. for the emulated machine: an initramfs with only its drivers, and the unit's start timeout, its watchdog and
   the data stick's wait at boot scaled for an emulated CPU (``EMULATED_CPU``, ``EMULATED_DEVICE_TIMEOUT``).

For ``arm64`` (a Pi's own processor, :data:`ARCHES`) the same steps run in an arm64 root under user-mode emulation
(binfmt_misc, :func:`devtools.debroot.foreign_arch`): the installer's pip, apt and its build of lgpio run as on a Pi.
That image also carries ``wheels/``: the lgpio wheel built in its root, which an update bundle made on this machine
for the Pi needs (PyPI has none for aarch64; ``kiosk-update build --find-links``).

The root becomes a raw ext4 disk (``mkfs.ext4 -d``, no loop mount), the kernel and initramfs are copied beside it.
The result is cached under ``<cache>/images/<key>/`` by a hash of everything that went into it (the checkout's
installed parts, the installer, the units, this file): a second run with nothing changed returns at once. Tests boot
copy-on-write overlays of it (``devtools.vm``), so the cached disks are never changed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from devtools.debroot import HERE, base_tarball, cache_lock, host_arch, in_root, installer, mounted_root, say

__all__ = ["ARCHES", "DEFAULT_CACHE", "PIN", "Arch", "Image", "build", "image_key"]

DEFAULT_CACHE = Path(os.environ.get("KIOSK_IMAGE_CACHE", "/var/cache/sushi-kiosk-check"))
PIN = "1357"
# the blank card: Pi OS Lite's base as far as the installer and a booted table use it (kernel: Debian's own)
INCLUDE = (
    "systemd,systemd-sysv,udev,python3,ca-certificates,util-linux,dbus,"
    "linux-image-{arch},initramfs-tools,kmod,e2fsprogs,iproute2,procps,fdisk,dosfstools,usbutils,less"
)


@dataclass(frozen=True)
class Arch:
    """What differs between the emulated machines: Debian's architecture, the kernel's console (the first serial
    port: a PC's 16550, the Arm virt machine's PL011) and the port of the test's shell (a PC's second serial port;
    the virt machine has one UART, so a virtio console there)."""

    name: str
    console: str
    shell_tty: str
    read_only: bool

    def install_args(self, data_device: str) -> tuple[str, ...]:
        """The installer's arguments: the owner's guide's read-only table with its data stick, or (``read_only``
        false) its first command alone, a table writing to its card."""
        return ("--pin", PIN, "--read-only", "--data-device", data_device) if self.read_only else ("--pin", PIN)

    @property
    def include(self) -> str:
        return INCLUDE.format(arch=self.name)

    @property
    def cmdline(self) -> str:
        return CMDLINE.format(console=self.console)


ROOT_SIZE = "4G"
DATA_SIZE = "256M"
ROOT_LABEL = "KIOSKROOT"
DATA_LABEL = "KIOSKDATA"
# Pi OS boots with its console on the UART and the screen, quiet; here the kernel's console is the first serial port
CMDLINE = f"root=LABEL={ROOT_LABEL} ro console=tty1 console={{console}},115200 consoleblank=0 net.ifnames=0 quiet"
#: the PC of the booted tier, and a Pi 4's processor (``qemu-system-aarch64 -M virt -cpu cortex-a72``)
#: The arm64 table is installed without read-only mode (the guide's first command): the overlay and the data stick
#: are the same on every processor and the PC's tier boots them many times; on emulated ARM every boot costs minutes.
ARCHES = {"amd64": Arch("amd64", "ttyS0", "ttyS1", True), "arm64": Arch("arm64", "ttyAMA0", "hvc0", False)}
# what a booted image's file names depend on: the checkout's parts that the installer copies or runs
INPUTS = ("pyproject.toml", "README.md", "kiosk", "hardware", "layouts", "scripts", "systemd", "devtools/image.py")
INPUTS_TOO = ("devtools/debroot.py",)
FSTAB = (
    "# the blank card's root (Raspberry Pi OS has the same line with its PARTUUID)\n"
    f"LABEL={ROOT_LABEL} / ext4 defaults,noatime 0 1\n"
)
# the blank card's network: a wired link by DHCP (Pi OS: NetworkManager; here systemd-networkd, in systemd itself)
NETWORK = "[Match]\nName=eth*\n\n[Network]\nDHCP=yes\n"
# the test's shell: root, logged in, on the second serial port (the way in that a maker's serial cable gives)
# the initramfs holds what this machine boots from, as a Pi's does (Raspberry Pi OS makes one only for read-only
# mode, with the Pi's own drivers): virtio's disk, ext4, and the overlay for overlayroot. Debian's default
# (MODULES=most) packs every storage driver it has: 37 MB that the emulated CPU unpacks and probes for ~20 s a boot.
INITRAMFS_CONF = "# devtools/image.py: only the drivers this machine needs\nMODULES=list\n"
INITRAMFS_MODULES = "virtio_pci\nvirtio_blk\next4\noverlay\n"
# the emulated CPU: one core of this machine per table under TCG is several times slower than a Pi 4, and a boot
# beside another table slower still; the unit's start timeout and watchdog are scaled as for a Pi that much slower
# (what they guard, a start that never reaches READY and a UI that stops, is still what the tests see)
EMULATED_CPU = """# devtools/image.py: scaled for an emulated CPU (the shipped unit: WatchdogSec=30, TimeoutStartSec=90)
[Service]
WatchdogSec=120
TimeoutStartSec=360
"""
# ...and the data stick's wait at boot (the installer's fstab: x-systemd.device-timeout=30s): USB enumeration under
# emulation beside another machine can take longer than that, which a Pi's never does
EMULATED_DEVICE_TIMEOUT = ("x-systemd.device-timeout=30s", "x-systemd.device-timeout=90s")
TEST_SHELL = """# test access (devtools/image.py): a root shell on the second serial port (a serial cable on a Pi)
[Service]
ExecStart=
ExecStart=-/sbin/agetty --autologin root --noclear --keep-baud 115200,57600,38400,9600 %I $TERM
"""


@dataclass(frozen=True)
class Image:
    """A built image: the root disk, the data stick, the kernel and initramfs, and the kernel's command line."""

    folder: Path
    key: str
    cmdline: str
    arch: str = "amd64"

    @property
    def disk(self) -> Path:
        return self.folder / "disk.img"

    @property
    def data(self) -> Path:
        return self.folder / "data.img"

    @property
    def kernel(self) -> Path:
        return self.folder / "vmlinuz"

    @property
    def initrd(self) -> Path:
        return self.folder / "initrd.img"

    @property
    def wheels(self) -> Path:
        """Wheels built in the image's root for its architecture (arm64: lgpio), for bundles made on this machine."""
        return self.folder / "wheels"

    @staticmethod
    def of(folder: Path) -> Image:
        meta = json.loads((folder / "image.json").read_text())
        return Image(folder, meta["key"], meta["cmdline"], meta.get("arch", "amd64"))


def image_key(source: Path = HERE, arch: str = "amd64") -> str:
    """A hash of what goes into the image: the checkout's files that the installer copies or runs, and the recipe."""
    a = ARCHES[arch]
    h = hashlib.sha256(repr(a).encode() + a.include.encode() + a.cmdline.encode())
    files: list[Path] = []
    for top in (*INPUTS, *INPUTS_TOO):
        p = source / top
        if p.is_file():
            files.append(p)
        elif p.is_dir():
            files += [f for f in p.rglob("*") if f.is_file() and "__pycache__" not in f.parts and f.suffix != ".pyc"]
    for f in sorted(files):
        h.update(str(f.relative_to(source)).encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _run(*cmd: str) -> str:
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip()


def build(cache: Path = DEFAULT_CACHE, *, rebuild: bool = False, keep: int = 2, arch: str = "amd64") -> Image:
    """The image of ``arch`` for this checkout, built unless the cache holds it already."""
    a = ARCHES[arch]
    key = image_key(arch=arch)
    folder = cache / "images" / key
    if (folder / "image.json").exists() and not rebuild:
        say(f"image from the cache: {folder}")
        return Image.of(folder)
    if os.geteuid() != 0:
        raise SystemExit("building the image needs root (chroot, mount, a loop device)")
    with cache_lock(cache):
        if (folder / "image.json").exists() and not rebuild:
            return Image.of(folder)
        t0 = time.monotonic()
        tar = base_tarball(cache, a.include, arch)
        (cache / "images").mkdir(parents=True, exist_ok=True)
        part = Path(tempfile.mkdtemp(prefix=f".{key}.", dir=cache / "images"))
        try:
            # the key of what was copied in (the checkout may change while the image builds)
            key = _build_into(part, tar, cache, a)
            folder = cache / "images" / key
            built = round(time.monotonic() - t0, 1)
            meta = {"key": key, "cmdline": a.cmdline, "arch": arch, "built_s": built}
            (part / "image.json").write_text(json.dumps(meta, indent=1))
            if folder.exists():
                shutil.rmtree(folder)
            os.replace(part, folder)
        finally:
            shutil.rmtree(part, ignore_errors=True)
        _prune(cache / "images", keep, arch)
        say(f"{arch} image built in {time.monotonic() - t0:.0f} s: {folder}")
        return Image.of(folder)


def _prune(images: Path, keep: int, arch: str) -> None:
    """Only the newest ``keep`` images of ``arch`` stay (each is a few hundred MB of a sparse disk)."""
    done = sorted(
        (p for p in images.iterdir() if (p / "image.json").exists() and Image.of(p).arch == arch),
        key=lambda p: p.stat().st_mtime,
    )
    for old in done[:-keep]:
        shutil.rmtree(old, ignore_errors=True)


def _build_into(out: Path, tar: Path, cache: Path, arch: Arch) -> str:
    data = out / "data.img"
    subprocess.run(["truncate", "-s", DATA_SIZE, str(data)], check=True)
    subprocess.run(["mkfs.ext4", "-q", "-L", DATA_LABEL, str(data)], check=True)
    loop = _run("losetup", "--find", "--show", str(data))
    try:
        with mounted_root(tar, cache, keep=True) as root:
            key = image_key(root / "srv" / "sushi-kiosk", arch.name)
            (root / "etc" / "fstab").write_text(FSTAB)
            (root / "etc" / "hostname").write_text("sushi-table\n")
            (root / "etc" / "hosts").write_text("127.0.0.1 localhost\n127.0.1.1 sushi-table\n")
            (root / "etc/systemd/network/20-wired.network").write_text(NETWORK)
            subprocess.run(["systemctl", f"--root={root}", "enable", "systemd-networkd.service"], check=True)
            shell = root / f"etc/systemd/system/serial-getty@{arch.shell_tty}.service.d"
            shell.mkdir(parents=True, exist_ok=True)
            (shell / "autologin.conf").write_text(TEST_SHELL)
            (root / "etc/systemd/system/kiosk.service.d").mkdir(parents=True, exist_ok=True)
            (root / "etc/systemd/system/kiosk.service.d/emulated-cpu.conf").write_text(EMULATED_CPU)
            getty = f"serial-getty@{arch.shell_tty}.service"
            subprocess.run(["systemctl", f"--root={root}", "enable", getty], check=True)
            (root / "etc/initramfs-tools/conf.d/sushi-test-image.conf").write_text(INITRAMFS_CONF)
            with (root / "etc/initramfs-tools/modules").open("a") as modules:
                modules.write(INITRAMFS_MODULES)
            r = installer(root, *arch.install_args(loop))
            (out / "install.log").write_text(r.stdout + r.stderr)
            if r.returncode != 0:
                raise SystemExit(f"the installer failed in the image's root (exit {r.returncode})")
            fstab = (root / "etc" / "fstab").read_text()
            if arch.read_only:
                assert EMULATED_DEVICE_TIMEOUT[0] in fstab, "the installer's data stick line changed"
                (root / "etc" / "fstab").write_text(fstab.replace(*EMULATED_DEVICE_TIMEOUT))
            # the installer's overlayroot rebuilt the initramfs already; once more so the list holds either way
            subprocess.run(
                ["chroot", str(root), "update-initramfs", "-u", "-k", "all"], check=True, capture_output=True
            )
            if arch.name != host_arch():
                _foreign_wheels(root, out / "wheels")
            work = root.parent
        # mounted_root unmounted /proc, /sys, /dev, the caches and the data stick: the tree is plain files now
        try:
            (root / "etc" / "resolv.conf").unlink(missing_ok=True)
            boot = root / "boot"
            kernel = max(boot.glob("vmlinuz-*"))
            initrd = max(boot.glob("initrd.img-*"))
            shutil.copyfile(kernel, out / "vmlinuz")
            shutil.copyfile(initrd, out / "initrd.img")
            disk = out / "disk.img"
            subprocess.run(["mkfs.ext4", "-q", "-L", ROOT_LABEL, "-d", str(root), str(disk), ROOT_SIZE], check=True)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    finally:
        subprocess.run(["losetup", "-d", loop], check=False)
    # the data stick as the installer left it: checked, so a stick with errors is never the test's start
    subprocess.run(["e2fsck", "-fn", str(data)], check=True, capture_output=True)
    return key


def _foreign_wheels(root: Path, dest: Path) -> None:
    """The wheels of the image's own build that PyPI lacks for its architecture (lgpio), copied out of its root for
    bundles built on this machine: pip builds lgpio the way the installer did (``PYPI=1``: its C library linked
    in), the same version."""
    venv_python = "/opt/sushi-kiosk/current/bin/python"
    version = in_root(root, venv_python, "-c", "import importlib.metadata as m; print(m.version('lgpio'))")
    if version.returncode != 0:
        raise SystemExit(f"the image's venv has no lgpio: {version.stderr.strip()}")
    built = in_root(
        root,
        "env",
        "PYPI=1",
        venv_python,
        "-m",
        "pip",
        "wheel",
        "--quiet",
        "--disable-pip-version-check",
        "--no-deps",
        "--no-binary=lgpio",
        "--use-pep517",  # (its sdist has no pyproject.toml: without this pip wants the wheel package in the venv)
        "--wheel-dir=/tmp/foreign-wheels",
        f"lgpio=={version.stdout.strip()}",
    )
    if built.returncode != 0:
        raise SystemExit(f"lgpio's wheel did not build in the image's root: {built.stderr.strip()[-800:]}")
    dest.mkdir(parents=True, exist_ok=True)
    for wheel in (root / "tmp/foreign-wheels").glob("*.whl"):
        shutil.copyfile(wheel, dest / wheel.name)
        say(f"built for the bundles: {wheel.name}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="cache folder (default %(default)s)")
    p.add_argument("--rebuild", action="store_true", help="build even when the cache holds this image")
    p.add_argument("--arch", choices=sorted(ARCHES), default="amd64", help="the machine (default %(default)s)")
    args = p.parse_args(argv)
    img = build(args.cache, rebuild=args.rebuild, arch=args.arch)
    print(img.folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
