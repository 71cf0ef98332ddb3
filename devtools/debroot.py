"""A fresh Debian root (Bookworm, the base of Raspberry Pi OS) with a copy of the checkout in it, for the installer:
built once by mmdebstrap (or debootstrap) into a cached tarball, unpacked for each use, and entered with chroot.

Shared by the installer check (``scripts/check_install.py``) and the table's disk image (:mod:`devtools.image`).
Needs root (chroot, mount); the Debian archive and PyPI the first time (apt's and pip's downloads are cached).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

__all__ = ["SUITE", "base_tarball", "cache_lock", "foreign_arch", "in_root", "installer", "mounted_root", "say"]

HERE = Path(__file__).resolve().parents[1]
SUITE = "bookworm"
HOST_CA = "/etc/ssl/certs/ca-certificates.crt"
CHROOT_CA = "/etc/ssl/certs/host-ca-certificates.crt"
# how this machine reaches the package index, passed into the root
PASS_ENV = ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_TRUSTED_HOST", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY")


def say(msg: str) -> None:
    print(f"[check] {msg}", flush=True)


def host_arch() -> str:
    """This machine's Debian architecture (amd64 here)."""
    return subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True).stdout.strip()


#: Debian's architecture -> the name of its user-mode emulator's binfmt entry (``qemu-user-static``)
QEMU_USER = {"arm64": "qemu-aarch64"}
BINFMT = Path("/proc/sys/fs/binfmt_misc")


def foreign_arch(arch: str) -> None:
    """Make this machine run ``arch``'s programs (a root of another architecture: its maintainer scripts, its
    chroot): the kernel's binfmt_misc hands them to ``qemu-user-static``'s emulator. The file system is mounted and
    the entry registered from the package's own ``/usr/lib/binfmt.d`` line when missing (these machines start with
    neither; the entry's ``F`` flag keeps the emulator usable inside a chroot). Needs root."""
    if arch == host_arch():
        return
    name = QEMU_USER.get(arch)
    if name is None:
        raise SystemExit(f"no emulator known for {arch} (known: {', '.join(QEMU_USER)})")
    if not (BINFMT / "register").exists():
        subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT)], check=True)
    if not (BINFMT / name).exists():
        conf = Path("/usr/lib/binfmt.d") / f"{name}.conf"
        if not conf.exists():
            raise SystemExit(f"{conf} is missing: apt-get install qemu-user-static")
        line = next(ln for ln in conf.read_text().splitlines() if ln.startswith(":"))
        (BINFMT / "register").write_text(line)
        say(f"{arch} programs run through {name} (binfmt_misc)")
    if (BINFMT / "status").read_text().strip() != "enabled" or "enabled" not in (BINFMT / name).read_text():
        raise SystemExit(f"binfmt_misc's {name} entry is disabled: {arch} programs cannot run here")


LEAN_INITRAMFS = (
    'mkdir -p "$1/etc/initramfs-tools/conf.d"'
    ' && echo MODULES=list > "$1/etc/initramfs-tools/conf.d/sushi-test-image.conf"'
)


def base_tarball(cache: Path, include: str, arch: str | None = None) -> Path:
    """The cached tarball of a minimal Bookworm root of ``arch`` (this machine's by default) with ``include``
    (comma-separated packages); built once. A foreign architecture's root is made under emulation
    (:func:`foreign_arch`)."""
    arch = arch or host_arch()
    foreign_arch(arch)
    # under emulation every program the kernel's package runs costs: its initramfs gets only the listed modules
    # (the images write the same setting anyway) instead of Debian's "most", which walks every driver it has
    hooks = [] if arch == host_arch() else [f"--essential-hook={LEAN_INITRAMFS}"]
    recipe = include + "".join(hooks)
    tar = cache / f"{SUITE}-{arch}-{hashlib.sha256(recipe.encode()).hexdigest()[:8]}.tar"
    if tar.exists():
        say(f"Debian root from the cache: {tar}")
        return tar
    cache.mkdir(parents=True, exist_ok=True)
    part = tar.with_name(tar.stem + ".part.tar")  # mmdebstrap picks the format by the extension
    t0 = time.monotonic()
    if shutil.which("mmdebstrap"):
        say(f"building a fresh {SUITE} root with mmdebstrap (once; cached in {cache})")
        subprocess.run(
            ["mmdebstrap", "--quiet", f"--arch={arch}", "--variant=minbase", f"--include={include}", *hooks]
            + [SUITE, str(part)],
            check=True,
        )
    else:
        say(f"building a fresh {SUITE} root with debootstrap (once; cached in {cache})")
        with tempfile.TemporaryDirectory(dir=cache) as tmp:
            subprocess.run(
                ["debootstrap", f"--arch={arch}", "--variant=minbase", f"--include={include}", SUITE, tmp], check=True
            )
            subprocess.run(["tar", "-C", tmp, "-cf", str(part), "."], check=True)
    os.replace(part, tar)
    say(f"root built in {time.monotonic() - t0:.0f} s")
    return tar


def checkout_ignore() -> Callable[[Any, list[str]], set[str]]:
    """What of the checkout is not copied into a root: the venv, git, build output, caches."""
    return shutil.ignore_patterns(
        ".venv", ".git", "artifacts", "build", "dist", "*.egg-info", "__pycache__", ".hypothesis", ".pytest_cache"
    )


@contextlib.contextmanager
def mounted_root(tar: Path, cache: Path, keep: bool, source: Path = HERE) -> Iterator[Path]:
    """The tarball unpacked into a temporary folder with /proc, /sys, /dev and the caches mounted, and the checkout
    copied to ``/srv/sushi-kiosk``; everything unmounted (and the folder removed unless ``keep``) afterwards."""
    work = Path(tempfile.mkdtemp(prefix="kiosk-root-", dir=os.environ.get("KIOSK_ROOT_TMP")))
    root = work / "root"
    root.mkdir()
    mounts: list[Path] = []
    try:
        subprocess.run(["tar", "-C", str(root), "-xf", str(tar)], check=True)
        shutil.copyfile("/etc/resolv.conf", root / "etc" / "resolv.conf", follow_symlinks=True)
        # this machine's certificate authorities, for pip behind a network that re-signs TLS
        shutil.copyfile(HOST_CA, root / CHROOT_CA.lstrip("/"))
        for src, dst, opts in (
            ("proc", "proc", ["-t", "proc"]),
            ("sysfs", "sys", ["-t", "sysfs", "-o", "ro"]),
            ("/dev", "dev", ["--rbind"]),
            (str(cache / "apt-archives"), "var/cache/apt/archives", ["--bind"]),
            (str(cache / "pip"), "var/cache/pip", ["--bind"]),
        ):
            if src.startswith("/"):
                Path(src).mkdir(parents=True, exist_ok=True)
            (root / dst).mkdir(parents=True, exist_ok=True)
            subprocess.run(["mount", *opts, src, str(root / dst)], check=True)
            mounts.append(root / dst)
        shutil.copytree(source, root / "srv" / "sushi-kiosk", ignore=checkout_ignore())
        yield root
    finally:
        # anything mounted below the root meanwhile (the installer's data partition) goes first
        inner = [ln.split()[1] for ln in Path("/proc/mounts").read_text().splitlines() if str(root) in ln]
        for m in sorted(inner, key=len, reverse=True):
            subprocess.run(["umount", "-R", "-l", m], check=False, capture_output=True)
        still = [ln.split()[1] for ln in Path("/proc/mounts").read_text().splitlines() if str(work) in ln]
        if keep or still:
            # never delete a tree with /dev still bound inside it
            say(f"kept: {root}" + (f" (still mounted: {still})" if still else ""))
        else:
            shutil.rmtree(work, ignore_errors=True)


def in_root(root: Path, *cmd: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": "/root",
        "LANG": "C.UTF-8",
        "PIP_CACHE_DIR": "/var/cache/pip",
        "PIP_CERT": CHROOT_CA,
        "DEBIAN_FRONTEND": "noninteractive",
    }
    env.update({k: v for k, v in os.environ.items() if k in PASS_ENV})
    return subprocess.run(
        ["chroot", str(root), *cmd], env=env, capture_output=True, text=True, input=stdin, start_new_session=True
    )


def installer(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``scripts/install.sh ARGS`` run in the root, its output echoed."""
    t0 = time.monotonic()
    r = in_root(root, "/srv/sushi-kiosk/scripts/install.sh", *args)
    say(f"install.sh {' '.join(args)}: exit {r.returncode} in {time.monotonic() - t0:.0f} s")
    for line in (r.stdout + r.stderr).splitlines():
        print(f"    | {line}", flush=True)
    return r


@contextlib.contextmanager
def cache_lock(cache: Path) -> Iterator[None]:
    """One user at a time per cache: the roots share its apt and pip caches (apt locks its archive folder)."""
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / "check.lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        yield
