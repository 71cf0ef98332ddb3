"""Read-only mode: the system survives a power cut during a write because, while the table runs, nothing writes to
the system's file system at all.

* **The root** is an overlay file system in effect from the next boot: the SD card's root partition is mounted
  read-only and every write lands in RAM and is gone at the next boot. On Raspberry Pi OS it is raspi-config's
  (``raspi-config nonint enable_overlayfs``); on plain Debian, which has no raspi-config, it is Debian's own
  counterpart ``overlayroot`` (an initramfs hook; ``overlayroot="tmpfs:recurse=0"`` in
  ``/etc/overlayroot.local.conf``: ``recurse=0`` leaves the state folder's own partition writable). Turning it
  off for maintenance also takes a reboot; while it is on, overlayroot's setting is changed on the real root
  through ``overlayroot-chroot``.
* **The state folder** (``/var/lib/sushi-kiosk``: scores, saved games, the config file, Kivy's home) is its own
  ext4 partition, mounted by ``/etc/fstab`` with ``data=journal`` (data and metadata through the journal: a write
  cut short is replayed or dropped as a whole at the next mount) and ``nofail`` (a missing stick still lets the
  table play, with its data in RAM until the next boot). The storage layer writes files atomically on top of that
  (see docs/storage.md).

Where neither raspi-config nor overlayroot is installed the overlay step is skipped with a message, not failed
(the installer installs overlayroot for ``--read-only`` where the archive has it and raspi-config is missing).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "PlanLine",
    "backend",
    "data_stick_missing",
    "overlay_active",
    "overlay_configured",
    "plan",
    "set_overlay",
    "supported",
]

FSTAB = Path("/etc/fstab")
OVERLAYROOT_CONF = Path("/etc/overlayroot.local.conf")
OVERLAYROOT_ON = 'overlayroot="tmpfs:recurse=0"'
OVERLAYROOT_OFF = 'overlayroot=""'
# nofail: a missing stick does not stop the boot; the device timeout is how long the kiosk waits for a stick that
# is slow to show up (a USB stick enumerates in a few seconds; an emulated one in the booted tests takes longer)
MOUNT_OPTIONS = "defaults,noatime,data=journal,commit=5,nofail,x-systemd.device-timeout=30s"


@dataclass
class PlanLine:
    what: str
    action: Callable[[], None] = field(default=lambda: None)
    done: bool = False
    skip: bool = False
    error: bool = False


def backend() -> str | None:
    """What switches the root overlay here: ``"raspi-config"`` (Raspberry Pi OS), ``"overlayroot"`` (Debian's
    package), or None (neither is installed)."""
    if shutil.which("raspi-config"):
        return "raspi-config"
    if shutil.which("overlayroot-chroot"):
        return "overlayroot"
    return None


def supported() -> bool:
    """True where the root overlay can be switched (raspi-config or overlayroot is installed)."""
    return backend() is not None


def _overlayroot_setting(text: str) -> str:
    value = ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("overlayroot="):
            value = line.split("=", 1)[1].strip().strip("\"'")
    return value


def overlay_configured() -> bool | None:
    """Whether the overlay is set for the next boot (None: not supported here)."""
    kind = backend()
    if kind == "raspi-config":
        return subprocess.run(["raspi-config", "nonint", "get_overlay_conf"], capture_output=True).returncode == 0
    if kind == "overlayroot":
        if overlay_active():
            # the file seen through the overlay may have been changed in RAM: read the real root's
            r = subprocess.run(
                ["overlayroot-chroot", "cat", str(OVERLAYROOT_CONF)], capture_output=True, text=True, check=False
            )
            text = r.stdout
        else:
            try:
                text = OVERLAYROOT_CONF.read_text()
            except OSError:
                text = ""
        value = _overlayroot_setting(text)
        return bool(value) and value != "disabled"
    return None


def overlay_active(mounts: str | None = None) -> bool:
    """Whether the root is an overlay right now (from ``/proc/mounts``)."""
    if mounts is None:
        try:
            mounts = Path("/proc/mounts").read_text()
        except OSError:
            return False
    return any(len(f) > 2 and f[1] == "/" and f[2] == "overlay" for f in (line.split() for line in mounts.splitlines()))


def set_overlay(on: bool) -> None:
    """Turn the overlay on or off from the next boot (raises CalledProcessError or OSError when it fails)."""
    if backend() == "raspi-config":
        subprocess.run(["raspi-config", "nonint", "enable_overlayfs" if on else "disable_overlayfs"], check=True)
        return
    text = f"# sushi table kiosk: read-only mode {'on' if on else 'off'}\n{OVERLAYROOT_ON if on else OVERLAYROOT_OFF}\n"
    if overlay_active():
        # written on the real root (overlayroot-chroot mounts it writable for the command), not into RAM
        subprocess.run(
            ["overlayroot-chroot", "sh", "-c", f"cat > {OVERLAYROOT_CONF}"], input=text, text=True, check=True
        )
    else:
        tmp = OVERLAYROOT_CONF.with_name(f".{OVERLAYROOT_CONF.name}.tmp")
        tmp.write_text(text)
        os.replace(tmp, OVERLAYROOT_CONF)


def data_stick_missing(state_dir: Path, fstab: Path = FSTAB) -> bool:
    """True when ``fstab`` gives the state folder its own partition (read-only mode's data stick) and nothing is
    mounted there now: the table runs on the folder beneath (in RAM while the root overlay is on), so nothing it
    saves is kept past the next start."""
    try:
        text = fstab.read_text()
    except OSError:
        return False
    entries = [ln.split() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    return any(f[1:2] == [str(state_dir)] for f in entries) and not os.path.ismount(state_dir)


def _blkid(device: str) -> dict[str, str]:
    r = subprocess.run(["blkid", "-o", "export", device], capture_output=True, text=True)
    return dict(line.split("=", 1) for line in r.stdout.splitlines() if "=" in line)


def _mounted_source(path: Path) -> str | None:
    r = subprocess.run(["findmnt", "-n", "-o", "SOURCE", "--mountpoint", str(path)], capture_output=True, text=True)
    return r.stdout.strip() or None


def plan(device: str | None, state_dir: Path, fstab: Path = FSTAB) -> list[PlanLine]:
    """What read-only mode needs here: each line done already, to do (with its action), skipped, or an error."""
    lines: list[PlanLine] = []
    if not device:
        return [
            PlanLine(
                "read-only mode needs a writable partition for scores, saved games and settings: give "
                "--data-device (a USB stick or a second partition, ext4: mkfs.ext4 -L KIOSKDATA DEVICE)",
                error=True,
            )
        ]
    if not Path(device).exists():
        return [PlanLine(f"{device} does not exist", error=True)]
    info = _blkid(device)
    if info.get("TYPE") != "ext4" or not info.get("UUID"):
        return [
            PlanLine(
                f"{device} is not an ext4 file system (it is {info.get('TYPE', 'empty')}); format it first "
                f"(this erases it): mkfs.ext4 -L KIOSKDATA {device}",
                error=True,
            )
        ]
    uuid = info["UUID"]
    entry = f"UUID={uuid} {state_dir} ext4 {MOUNT_OPTIONS} 0 2"
    text = fstab.read_text() if fstab.exists() else ""
    if entry in text.splitlines():
        lines.append(PlanLine(f"{device} is in {fstab} for {state_dir}", done=True))
    else:
        others = [ln for ln in text.splitlines() if ln.split()[1:2] == [str(state_dir)]]

        def add_entry() -> None:
            kept = [ln for ln in text.splitlines() if ln not in others]
            fstab.write_text("\n".join([*kept, "# sushi table kiosk: the state folder's own partition", entry]) + "\n")

        lines.append(PlanLine(f"mount {device} (UUID {uuid}) on {state_dir} from {fstab}", add_entry))
    src = _mounted_source(state_dir)
    if src is not None and (src == device or Path(src).resolve() == Path(device).resolve()):
        lines.append(PlanLine(f"{state_dir} is mounted from {device}", done=True))
    else:

        def mount() -> None:
            state_dir.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory() as tmp:
                subprocess.run(["mount", device, tmp], check=True)
                try:
                    if not any(p.name != "lost+found" for p in Path(tmp).iterdir()):
                        # the first time: what the table has saved so far moves onto the partition
                        subprocess.run(["cp", "-a", f"{state_dir}/.", tmp], check=True)
                finally:
                    subprocess.run(["umount", tmp], check=True)
            subprocess.run(["mount", str(state_dir)], check=True)
            subprocess.run(["chown", "kiosk:kiosk", str(state_dir)], check=True)
            state_dir.chmod(0o750)

        lines.append(PlanLine(f"mount {device} on {state_dir} (the saved state copied onto it the first time)", mount))
    conf = overlay_configured()
    if conf is None:
        lines.append(PlanLine("neither raspi-config nor overlayroot: the root overlay is left alone", skip=True))
    elif conf:
        lines.append(PlanLine("the root overlay is on", done=True))
    else:
        lines.append(PlanLine(f"turn the root overlay on ({backend()}; from the next boot)", lambda: set_overlay(True)))
    return lines
