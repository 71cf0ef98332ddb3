"""Read-only mode: the system survives a power cut during a write because, while the table runs, nothing writes to
the system's file system at all.

* **The root** is Raspberry Pi OS's overlay file system (``raspi-config nonint enable_overlayfs``, in effect
  from the next boot): the SD card's root partition is mounted read-only and every write lands in RAM and is gone
  at the next boot. Turning it off for maintenance (``disable_overlayfs``) also takes a reboot.
* **The state folder** (``/var/lib/sushi-kiosk``: scores, saved games, the config file, Kivy's home) is its own
  ext4 partition, mounted by ``/etc/fstab`` with ``data=journal`` (data and metadata through the journal: a write
  cut short is replayed or dropped as a whole at the next mount) and ``nofail`` (a missing stick still lets the
  table play, with its data in RAM until the next boot). The storage layer writes files atomically on top of that
  (see docs/storage.md).

Where raspi-config is missing (not Raspberry Pi OS) the overlay step is skipped with a message, not failed.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["PlanLine", "overlay_active", "overlay_configured", "plan", "set_overlay", "supported"]

FSTAB = Path("/etc/fstab")
MOUNT_OPTIONS = "defaults,noatime,data=journal,commit=5,nofail,x-systemd.device-timeout=10s"


@dataclass
class PlanLine:
    what: str
    action: Callable[[], None] = field(default=lambda: None)
    done: bool = False
    skip: bool = False
    error: bool = False


def supported() -> bool:
    """True where the Pi OS overlay file system can be switched (raspi-config is installed)."""
    return shutil.which("raspi-config") is not None


def overlay_configured() -> bool | None:
    """Whether the overlay is set for the next boot (None: not supported here)."""
    if not supported():
        return None
    return subprocess.run(["raspi-config", "nonint", "get_overlay_conf"], capture_output=True).returncode == 0


def overlay_active(mounts: str | None = None) -> bool:
    """Whether the root is an overlay right now (from ``/proc/mounts``)."""
    if mounts is None:
        try:
            mounts = Path("/proc/mounts").read_text()
        except OSError:
            return False
    return any(len(f) > 2 and f[1] == "/" and f[2] == "overlay" for f in (line.split() for line in mounts.splitlines()))


def set_overlay(on: bool) -> None:
    """Turn the overlay on or off from the next boot (raspi-config; raises CalledProcessError when it fails)."""
    subprocess.run(["raspi-config", "nonint", "enable_overlayfs" if on else "disable_overlayfs"], check=True)


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
        lines.append(PlanLine("no raspi-config (not Raspberry Pi OS): the root overlay is left alone", skip=True))
    elif conf:
        lines.append(PlanLine("the root overlay is on", done=True))
    else:
        lines.append(PlanLine("turn the root overlay on (raspi-config; from the next boot)", lambda: set_overlay(True)))
    return lines
