"""The root helper that carries out the operator menu's requests: ``kiosk-admin serve`` (started by
``kiosk-admin.path`` when a request file appears, see :mod:`kiosk.appliance.requests`). Every outcome is written
to ``<state>/requests/status.json`` for the menu, and to the journal.

* **read-only on/off**: the root overlay (raspi-config or overlayroot) is switched for the next boot; reboot.
* **pin-reset**: the PIN reset file (``kiosk-pin-reset.txt``) on a USB stick lets the table's screen set a new
  operator PIN for ten minutes (a grant in the requests folder); the stick is the owner's proof of access.
* **backup**: the table's scores, statistics, settings and saved games (the PIN hash only when asked) as one
  file onto the owner's USB stick (never a partition the system mounts, like read-only mode's data stick),
  read back and checked (:mod:`kiosk.appliance.backup`);
* **restore**: the newest backup file on a USB stick, checked in full before anything changes; the kiosk is
  stopped while its files are replaced and started again on them;
* **update**: the bundle (the newest ``*.kiosk-update`` in the top folder of a USB stick, mounted read-only
  for the copy, or a given file) is copied into the state folder first, so that it survives the reboots below.
  If the root is read-only (the overlay is on) an install would land in RAM and vanish: the helper turns the
  overlay off, reboots, installs at the next boot (the request is still on the state partition), turns the overlay
  back on and reboots again; the install (:meth:`kiosk.appliance.update.Updater.install`) is rolled back if the
  kiosk does not reach READY.
* **event-network**: the kiosk's network while paired with an event (:mod:`kiosk.appliance.eventnet`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kiosk.appliance import backup, eventnet, readonly
from kiosk.appliance.requests import PIN_RESET_FILE, grant_pin_reset, requests_dir, write_status
from kiosk.appliance.update import BUNDLE_SUFFIX, DEFAULT_ROOT, SystemdReady, UpdateError, Updater, read_manifest

__all__ = ["Admin", "find_usb_bundles", "find_usb_files", "main", "newest_bundle"]

STATE_DIR = Path("/var/lib/sushi-kiosk")
USB_MOUNTS = Path("/run/kiosk-usb")


def _boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


def _version_key(version: str) -> tuple[tuple[int, str], ...]:
    return tuple((int(p), "") if p.isdigit() else (-1, p) for p in re.split(r"[.+-]", version))


def newest_bundle(paths: Sequence[Path]) -> Path | None:
    """The bundle with the highest version among ``paths`` (unreadable ones are left out)."""
    best: tuple[tuple[tuple[int, str], ...], float, Path] | None = None
    for p in paths:
        try:
            key = (_version_key(read_manifest(p)["version"]), p.stat().st_mtime, p)
        except (UpdateError, OSError):
            continue
        if best is None or key[:2] > best[:2]:
            best = key
    return best[2] if best else None


def find_usb_bundles(mount_root: Path = USB_MOUNTS) -> tuple[list[Path], list[Path]]:
    """Mount every removable partition read-only under ``mount_root``; the bundles found and the mounts made."""
    return find_usb_files(lambda p: p.name.endswith(BUNDLE_SUFFIX), mount_root)


def is_pin_reset_file(path: Path) -> bool:
    """The reset file, as a laptop may have named it (any case; ``.txt.txt``; no extension)."""
    return path.name.lower().startswith(PIN_RESET_FILE.removesuffix(".txt")) and path.is_file()


def find_usb_files(match: Callable[[Path], bool], mount_root: Path = USB_MOUNTS) -> tuple[list[Path], list[Path]]:
    """Mount every removable partition read-only under ``mount_root``; the files of its top folder that
    ``match``, and the mounts made (unmount them when done)."""
    folders, mounted = mount_usb("ro,nosuid,nodev,noexec", mount_root)
    found: list[Path] = []
    for where in folders:
        with contextlib.suppress(OSError):
            found.extend(sorted(p for p in where.iterdir() if match(p)))
    return found, mounted


def _system_partitions(fstab: Path = Path("/etc/fstab")) -> set[str]:
    """What ``/etc/fstab`` mounts (``UUID=``, ``LABEL=``, device paths): the system's own partitions, the data stick
    of read-only mode among them, which are never an owner's stick even while they are not mounted."""
    try:
        text = fstab.read_text()
    except OSError:
        return set()
    return {ln.split()[0] for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")}


def mount_usb(
    options: str, mount_root: Path = USB_MOUNTS, fstab: Path = Path("/etc/fstab")
) -> tuple[list[Path], list[Path]]:
    """Mount every removable partition not mounted yet under ``mount_root`` with ``options``; the top folders of
    the owner's USB partitions (mounted here now, or by an earlier request under ``mount_root``), and the mounts made
    (unmount them when done).

    A partition the system mounted elsewhere, or one ``/etc/fstab`` names, is never an owner's stick: in read-only
    mode the data stick is a USB stick mounted on the state folder, and a backup written there would die with it."""
    out = subprocess.run(
        ["lsblk", "--json", "--paths", "--output", "NAME,RM,TRAN,FSTYPE,MOUNTPOINT,TYPE,UUID,LABEL"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    system = _system_partitions(fstab)
    folders: list[Path] = []
    mounted: list[Path] = []

    def ours(where: str) -> bool:
        return Path(where) == mount_root or mount_root in Path(where).parents

    def walk(devs: list[dict[str, Any]], usb: bool) -> None:
        for d in devs:
            is_usb = usb or d.get("tran") == "usb" or d.get("rm") in (True, "1")
            names = {d.get("name"), f"UUID={d.get('uuid')}", f"LABEL={d.get('label')}"}
            where = d.get("mountpoint")
            owners = not (names & system) and (not where or ours(where))
            if owners and (
                is_usb and d.get("type") == "part" or (is_usb and d.get("fstype") and not d.get("children"))
            ):
                if not where and d.get("fstype"):
                    target = mount_root / Path(d["name"]).name
                    target.mkdir(parents=True, exist_ok=True)
                    r = subprocess.run(["mount", "-o", options, d["name"], str(target)])
                    if r.returncode == 0:
                        mounted.append(target)
                        where = str(target)
                if where:
                    folders.append(Path(where))
            walk(d.get("children") or [], is_usb)

    walk(json.loads(out).get("blockdevices", []), False)
    return folders, mounted


def _umount(mount: Path) -> None:
    subprocess.run(["umount", str(mount)], check=False)


class Admin:
    def __init__(
        self,
        state_dir: Path = STATE_DIR,
        root: Path = DEFAULT_ROOT,
        *,
        reboot: Callable[[], None] | None = None,
        updater: Updater | None = None,
        usb_files: Callable[[Callable[[Path], bool]], tuple[list[Path], list[Path]]] | None = None,
        unmount: Callable[[Path], None] | None = None,
        usb_folders: Callable[[str], tuple[list[Path], list[Path]]] | None = None,
        service: Callable[[str], None] | None = None,
        etc: Path = Path("/etc"),
        lookup: Callable[[str], list[str]] | None = None,
        reload: Callable[[], None] | None = None,
    ) -> None:
        self.state_dir = state_dir
        self.dir = requests_dir(state_dir)
        self.reboot = reboot or (lambda: subprocess.run(["systemctl", "reboot"], check=False))
        self.updater = updater or Updater(root, check=SystemdReady())
        self.usb_files = usb_files or find_usb_files
        self.unmount = unmount or _umount
        self.usb_folders = usb_folders or mount_usb
        self.service = service or (lambda verb: subprocess.run(["systemctl", verb, "kiosk.service"], check=False))
        #: the system's configuration folder: the kiosk's event drop-in and resolv.conf (a temporary one in tests)
        self.etc = etc
        self.lookup = lookup or eventnet.lookup
        self.reload = reload or (lambda: subprocess.run(["systemctl", "daemon-reload"], check=False))

    def status(self, kind: str, ok: bool, message: str) -> None:
        print(f"kiosk-admin: {kind}: {message}", flush=True)
        write_status(self.state_dir, kind=kind, ok=ok, message=message)
        with contextlib.suppress(LookupError, OSError):  # no kiosk user (a development machine)
            shutil.chown(self.dir / "status.json", "kiosk", "kiosk")

    def _take(self, name: str) -> dict[str, Any] | None:
        path = self.dir / f"{name}.request"
        try:
            data = json.loads(path.read_text())
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            data = {}
        return data if isinstance(data, dict) else {}

    def _done(self, name: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            (self.dir / f"{name}.request").unlink()

    def serve(self) -> int:
        """Carry out the waiting requests (update first); the exit code is 0 unless one failed."""
        code = 0
        upd = self._take("update")
        if upd is not None:
            code |= self.update(upd)
        if self._take("pin-reset") is not None:
            code |= self.pin_reset()
        req = self._take("backup")
        if req is not None:
            code |= self.backup(bool(req.get("with_pin")))
        if self._take("restore") is not None:
            code |= self.restore()
        net = self._take(eventnet.KIND)
        if net is not None:
            code |= self.event_network(at_start=net.get("at_start") is True)
        ro = self._take("read-only")
        if ro is not None:
            code |= self.read_only(bool(ro.get("on")))
        return code

    def backup(self, with_pin: bool = False) -> int:
        """One backup file onto the first USB stick, read back and checked; "take it out" only once unmounted (a
        stick pulled before its unmount can lose the file: the booted table's backup test did)."""
        self._done("backup")
        try:
            folders, mounts = self.usb_folders("rw,nosuid,nodev,noexec")
        except (OSError, subprocess.CalledProcessError, ValueError) as exc:
            self.status("backup", False, f"could not look at the USB sticks ({exc}): nothing written")
            return 1
        try:
            ok, message = self._write_backup(folders, with_pin)
        finally:
            for m in mounts:
                self.unmount(m)
        self.status("backup", ok, message)
        return 0 if ok else 1

    def _write_backup(self, folders: list[Path], with_pin: bool) -> tuple[bool, str]:
        if not folders:
            return False, "no USB stick found: plug one in and try again (nothing written)"
        try:
            path = backup.write_backup(self.state_dir, folders[0], with_pin=with_pin)
        except backup.BackupError as exc:
            return False, str(exc)
        pin = " with the PIN" if with_pin else " (without the PIN)"
        return True, f"backed up{pin} to {path.name} on the USB stick, checked: take it out"

    def restore(self) -> int:
        """The newest backup file on a USB stick, checked, then restored with the kiosk stopped."""
        self._done("restore")
        try:
            found, mounts = self.usb_files(lambda p: p.name.endswith(backup.SUFFIX) and not p.name.startswith("."))
        except (OSError, subprocess.CalledProcessError, ValueError) as exc:
            self.status("restore", False, f"could not look at the USB sticks ({exc}): nothing changed")
            return 1
        try:
            if not found:
                self.status(
                    "restore", False, f"no *{backup.SUFFIX} file in the top folder of a USB stick: nothing changed"
                )
                return 1
            newest = max(found, key=lambda p: p.name)
            try:
                backup.read_backup(newest)  # every check before the kiosk stops
            except backup.BackupError as exc:
                self.status("restore", False, f"{exc}: nothing changed")
                return 1
            self.service("stop")
            try:
                message = backup.restore_backup(newest, self.state_dir)
                ok = True
            except (backup.BackupError, OSError) as exc:
                message, ok = f"the restore failed: {exc}", False
            for name in (*backup.FILES, "kiosk.last-good.json"):
                with contextlib.suppress(LookupError, OSError):
                    shutil.chown(self.state_dir / name, "kiosk", "kiosk")
            self.status("restore", ok, message)
            self.service("start")
            return 0 if ok else 1
        finally:
            for m in mounts:
                self.unmount(m)

    def pin_reset(self) -> int:
        """Look for the PIN reset file on a USB stick; if it is there, let the screen set a new PIN."""
        self._done("pin-reset")
        try:
            found, mounts = self.usb_files(is_pin_reset_file)
        except (OSError, subprocess.CalledProcessError, ValueError) as exc:
            self.status("pin-reset", False, f"could not look at the USB sticks ({exc}): nothing changed")
            return 1
        for m in mounts:
            self.unmount(m)
        if not found:
            self.status(
                "pin-reset",
                False,
                f"no {PIN_RESET_FILE} in the top folder of a USB stick: nothing changed (docs/owner/pin.md)",
            )
            return 1
        grant = grant_pin_reset(self.state_dir)
        with contextlib.suppress(LookupError, OSError):  # no kiosk user (a development machine)
            shutil.chown(grant, "kiosk", "kiosk")
        self.status("pin-reset", True, "PIN reset stick found: set a new operator PIN on the screen now")
        return 0

    def event_network(self, at_start: bool = False) -> int:
        """Open the kiosk's network to the event's broker as the saved settings say, or close it again (unpaired):
        the drop-in written or removed, then ``systemctl daemon-reload`` and a restart of the kiosk, both only when
        the drop-in changed (:mod:`kiosk.appliance.eventnet`). The request is answered (removed, the outcome
        written) before the restart: the kiosk that starts finds the answer and may ask again."""
        kind, dropin = eventnet.KIND, eventnet.dropin_path(self.etc)
        failure = ""
        try:
            broker = eventnet.configured_broker(self.state_dir / "kiosk.json")
            text: str | None = None
            if broker is not None:
                wait = eventnet.START_LOOKUP_WAIT_S if at_start else 0.0
                try:
                    text = eventnet.broker_dropin(broker, self.etc / "resolv.conf", self.lookup, wait)
                except eventnet.LookupFailed as exc:
                    failure = f"could not look up the event broker {broker} ({exc})"
                    if eventnet.installed_broker(dropin) == broker:
                        self._done(kind)
                        print(f"kiosk-admin: {kind}: {failure}: the addresses found before are kept", flush=True)
                        return 0
            changed = eventnet.write_dropin(dropin, text)
        except OSError as exc:
            self._done(kind)
            self.status(kind, False, f"could not change {dropin}: {exc}; the kiosk's network is unchanged")
            return 1
        self._done(kind)
        restart = ": the kiosk restarts" if changed else ""
        if failure:
            self.status(kind, False, f"{failure}: the kiosk's network stays closed{restart}")
        elif not changed:
            print(f"kiosk-admin: {kind}: {dropin} is already what the settings say: nothing changed", flush=True)
        elif text is None:
            self.status(kind, True, f"the table is not paired: the kiosk's network is closed again{restart}")
        else:
            self.status(kind, True, f"the kiosk may reach the event broker {broker} now{restart}")
        if changed:
            self.reload()
            self.service("try-restart")
        return 1 if failure else 0

    def read_only(self, on: bool) -> int:
        self._done("read-only")
        if not readonly.supported():
            self.status(
                "read-only",
                False,
                "read-only mode needs raspi-config (Raspberry Pi OS) or overlayroot (Debian): nothing changed",
            )
            return 1
        if readonly.overlay_configured() == on:
            self.status("read-only", True, f"read-only mode is already {'on' if on else 'off'}")
            return 0
        try:
            readonly.set_overlay(on)
        except (subprocess.CalledProcessError, OSError) as exc:
            self.status("read-only", False, f"could not switch read-only mode: {exc}")
            return 1
        self.status("read-only", True, f"read-only mode {'on' if on else 'off'}: the table restarts now")
        self.reboot()
        return 0

    def update(self, req: dict[str, Any]) -> int:
        pending = self.dir / f"pending{BUNDLE_SUFFIX}"
        if not pending.exists():
            source: Path | None
            if "bundle" in req:
                source = Path(str(req["bundle"]))
            else:
                bundles, mounts = find_usb_bundles()
                source = newest_bundle(bundles)
                if source is None:
                    for m in mounts:
                        subprocess.run(["umount", str(m)], check=False)
                    self._done("update")
                    self.status("update", False, f"no readable *{BUNDLE_SUFFIX} file on a USB stick")
                    return 1
            try:
                read_manifest(source)
                shutil.copyfile(source, pending.with_name(pending.name + ".part"))
                os.replace(pending.with_name(pending.name + ".part"), pending)
            except (UpdateError, OSError) as exc:
                self._done("update")
                self.status("update", False, str(exc))
                return 1
            finally:
                if "bundle" not in req:
                    for m in mounts:
                        subprocess.run(["umount", str(m)], check=False)
        if readonly.overlay_active():
            if req.get("boot") == _boot_id():
                time.sleep(60)  # this boot already asked for the reboot: it is on its way
                return 0
            req.update(restore_read_only=True, boot=_boot_id())
            (self.dir / "update.request").write_text(json.dumps(req))
            try:
                readonly.set_overlay(False)
            except (subprocess.CalledProcessError, OSError) as exc:
                self._done("update")
                pending.unlink(missing_ok=True)
                self.status("update", False, f"could not leave read-only mode for the update: {exc}")
                return 1
            self.status("update", True, "the table restarts without read-only mode to install the update")
            self.reboot()
            return 0
        try:
            res = self.updater.install(pending)
            ok, message = res.ok, res.message
        except UpdateError as exc:
            ok, message = False, str(exc)
        pending.unlink(missing_ok=True)
        self._done("update")
        self.status("update", ok, message)
        if req.get("restore_read_only"):
            try:
                readonly.set_overlay(True)
            except (subprocess.CalledProcessError, OSError) as exc:
                self.status("update", ok, f"{message}; read-only mode could not be turned back on: {exc}")
                return 1
            self.reboot()
        return 0 if ok else 1


def build_parser() -> argparse.ArgumentParser:
    """``kiosk-admin``'s command line."""
    p = argparse.ArgumentParser(prog="kiosk-admin", description="Carry out the operator menu's system requests.")
    p.add_argument("--state-dir", type=Path, default=STATE_DIR)
    p.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("serve", help="carry out the waiting requests (started by kiosk-admin.path)")
    ro = sub.add_parser("read-only", help="turn read-only mode on or off (reboots)")
    ro.add_argument("state", choices=("on", "off", "status"))
    p.add_argument("--etc", type=Path, default=Path("/etc"), help="the system's configuration folder (tests)")
    sub.add_parser(
        "event-network",
        help="open the kiosk's network to the event broker of its saved settings, or close it (unpaired): "
        "the drop-in kiosk.service.d/event-link.conf; restarts the kiosk when it changed",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    admin = Admin(args.state_dir, args.root, etc=args.etc)
    if args.cmd == "serve":
        return admin.serve()
    if args.cmd == "event-network":
        return admin.event_network()
    if args.state == "status":
        conf = readonly.overlay_configured()
        now = readonly.overlay_active()
        print(f"read-only now: {'on' if now else 'off'}; next boot: {'unsupported' if conf is None else conf}")
        return 0
    return admin.read_only(args.state == "on")


if __name__ == "__main__":
    sys.exit(main())
