"""The installer: a fresh Raspberry Pi OS Lite (Bookworm or later, 64-bit) becomes the table in one command.

    sudo scripts/install.sh [--pin 1234] [--read-only --data-device /dev/sda1] [--rotate 180] [--dry-run]

It runs with the system's Python (standard library only) from a checkout of the repository, as root. Every step
first looks whether its work is already done, then does it (``[done]``), finds it done (``[ok]``), or is skipped
with the reason (``[skip]``, e.g. Pi-only firmware settings on another machine). ``--dry-run`` prints what each
step would do (``[would]``) and changes nothing. A second run changes nothing and says so; the exit code is 0
either way (1 for a step that failed, 2 for bad arguments).

Rationale and decisions: docs/developer/design.md, section ``kiosk/appliance/install.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import grp
import hashlib
import json
import os
import platform
import pwd
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from kiosk.appliance import readonly
from kiosk.appliance.update import DEFAULT_ROOT, NoStart, SystemdReady, UpdateError, Updater

__all__ = ["Installer", "main", "source_digest"]

USER = "kiosk"
GROUPS = ("render", "video", "input", "gpio", "dialout", "audio")
STATE_DIR = Path("/var/lib/sushi-kiosk")
PACKAGES = (
    "python3-venv",
    "libgl1",
    "libegl1",
    "libgles2",
    "libgl1-mesa-dri",
    "libmtdev1",
    # the pieces' pictures (colour emoji) and the table's type faces (docs/look.md); Japanese at a seat
    # (docs/developer/languages.md)
    "fonts-noto-color-emoji",
    "fonts-inter",
    "fonts-dejavu-core",
    "fonts-noto-cjk",
)
#: the Pi's GPIO library (lgpio: the Pi 5's only one) is the app's own dependency on Linux on ARM, and PyPI has only
#: its source: pip builds it into the app's venv with its C library linked in (``PYPI=1``, update.BUILD_ENV), for
#: which it needs these. The same on Raspberry Pi OS and on plain Debian (whose archive has no python3-lgpio).
LGPIO_BUILD = ("swig", "gcc", "libc6-dev", "python3-dev")
ARM = ("aarch64", "armv7l")
# read-only mode where raspi-config is missing (plain Debian): Debian's own root overlay (kiosk/appliance/readonly.py);
# its initramfs script needs busybox's tools (grep), which overlayroot does not depend on
OVERLAY_PACKAGES = ("overlayroot", "busybox")
#: the tap-stick board's name and ModemManager kept away; the GPIO chips for the gpio group (plain Debian lacks it)
UDEV_RULES = ("99-tapstick.rules", "99-gpio.rules")
UNITS = ("kiosk.service", "kiosk-update-recover.service", "kiosk-admin.service", "kiosk-admin.path")
ENABLE = ("kiosk.service", "kiosk-update-recover.service", "kiosk-admin.path")
MASK = ("getty@.service", "autovt@.service", "ctrl-alt-del.target")
#: what a table has no use for and would spend its boot on: e2fsprogs' scrub of LVM snapshots (the table has no LVM;
#: the reaper alone took 18 s of a booted table's 45 s start on one emulated CPU, beside the kiosk's own start)
SPARE = ("e2scrub_reap.service", "e2scrub_all.timer")
SYSCTL = "# The kiosk: no magic SysRq keys from a USB keyboard\nkernel.sysrq = 0\n"
LOGIND = "# The kiosk: logind starts no login prompt on any virtual console\n[Login]\nNAutoVTs=0\nReserveVT=0\n"
MODULES = "# The kiosk: the tap-stick board's USB serial driver, before kiosk.service (DeviceAllow=)\ncdc_acm\n"
FIRMWARE = Path("/boot/firmware")
FIRMWARE_LINES = ("disable_splash=1", "dtoverlay=vc4-kms-v3d")


def source_digest(source: Path) -> str:
    """A digest of what goes into the app's wheel: the same checkout gives the same installed version id."""
    h = hashlib.sha256()
    files = [source / "pyproject.toml", source / "README.md"]
    for top in ("kiosk", "hardware", "layouts"):
        files += [p for p in (source / top).rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    for p in sorted(files):
        h.update(str(p.relative_to(source)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:12]


def _version(source: Path) -> str:
    m = re.search(r'^version = "([^"]+)"', (source / "pyproject.toml").read_text(), re.M)
    if not m:
        raise SystemExit(f"{source}/pyproject.toml has no version")
    return m.group(1)


@dataclass
class Installer:
    source: Path
    dry_run: bool = False
    pin: str | None = None
    read_only: bool = False
    data_device: str | None = None
    rotate: int | None = None
    root: Path = DEFAULT_ROOT
    out: Callable[[str], None] = print
    changed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    # ---- reporting
    def ok(self, step: str, what: str) -> None:
        self.out(f"[ok]    {step}: {what}")

    def skip(self, step: str, why: str) -> None:
        self.out(f"[skip]  {step}: {why}")

    def change(self, step: str, what: str, action: Callable[[], object]) -> None:
        if self.dry_run:
            self.out(f"[would] {step}: {what}")
            self.changed.append(step)
            return
        try:
            action()
        except (OSError, subprocess.CalledProcessError, UpdateError, ValueError) as exc:
            self.out(f"[FAIL]  {step}: {what}: {exc}")
            self.failed.append(step)
            return
        self.out(f"[done]  {step}: {what}")
        self.changed.append(step)

    @staticmethod
    def systemd_running() -> bool:
        return Path("/run/systemd/system").is_dir()

    @staticmethod
    def run(*cmd: str, **kw: object) -> None:
        subprocess.run(cmd, check=True, **kw)  # type: ignore[call-overload]

    def write_file(self, step: str, path: Path, text: str, mode: int = 0o644, then: Sequence[str] = ()) -> bool:
        """Make ``path`` hold ``text``; True when it changed (or would)."""
        try:
            same = path.read_text() == text
        except OSError:
            same = False
        if same:
            self.ok(step, f"{path} is in place")
            return False

        def write() -> None:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.tmp")
            tmp.write_text(text)
            tmp.chmod(mode)
            os.replace(tmp, path)
            if then:
                self.run(*then)

        self.change(step, f"write {path}", write)
        return True

    # ---- steps
    def step_packages(self) -> None:
        step = "packages"
        lists = any(Path("/var/lib/apt/lists").glob("*_Packages"))
        wanted = (*PACKAGES, *self._overlay_packages(), *self._gpio_build())
        missing = [p for p in wanted if not self._dpkg_has(p)]
        if lists and not missing:
            self.ok(step, "all installed")
            return
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")

        def install() -> None:
            self.run("apt-get", "update", "-qq")
            todo = [p for p in wanted if not self._dpkg_has(p)]
            if todo:
                self.run("apt-get", "install", "-y", "-qq", "--no-install-recommends", *todo, env=env)

        what = "apt-get install " + " ".join(missing) if missing else "apt-get update (no package lists yet)"
        if any(p in missing for p in LGPIO_BUILD):
            what += " (swig and a compiler build lgpio, the Pi's GPIO library, from its source: PyPI has no ARM wheel)"
        self.change(step, what, install)

    @staticmethod
    def _gpio_build() -> tuple[str, ...]:
        """What pip needs to build lgpio, on the machines where the app depends on it (pyproject's marker)."""
        return LGPIO_BUILD if platform.machine() in ARM else ()

    def _overlay_packages(self) -> tuple[str, ...]:
        """overlayroot for read-only mode where raspi-config (Raspberry Pi OS) is not there to switch the overlay."""
        return OVERLAY_PACKAGES if self.read_only and readonly.backend() != "raspi-config" else ()

    @staticmethod
    def _dpkg_has(pkg: str) -> bool:
        r = subprocess.run(["dpkg-query", "-W", "-f=${Status}", pkg], capture_output=True, text=True)
        return r.returncode == 0 and "install ok installed" in r.stdout

    def step_user(self) -> None:
        step = "user"
        for g in GROUPS:
            try:
                grp.getgrnam(g)
            except KeyError:
                self.change(step, f"create group {g}", partial(self.run, "groupadd", "--system", g))
        try:
            pwd.getpwnam(USER)
        except KeyError:
            self.change(
                step,
                f"create the system user {USER} (no login shell, home {STATE_DIR})",
                lambda: self.run(
                    "useradd",
                    "--system",
                    "--user-group",
                    "--home-dir",
                    str(STATE_DIR),
                    "--no-create-home",
                    "--shell",
                    "/usr/sbin/nologin",
                    USER,
                ),
            )
        have = self._groups_of(USER)
        missing = [g for g in GROUPS if g not in have]
        if missing:
            self.change(
                step, f"add {USER} to {', '.join(missing)}", lambda: self.run("usermod", "-aG", ",".join(GROUPS), USER)
            )
        elif not self.dry_run or have:
            self.ok(step, f"{USER} exists, in {', '.join(GROUPS)}")

    @staticmethod
    def _groups_of(user: str) -> set[str]:
        return {g.gr_name for g in grp.getgrall() if user in g.gr_mem}

    def step_app(self) -> None:
        step = "app"
        vid = f"{_version(self.source)}-src{source_digest(self.source)}"
        updater = Updater(self.root, check=NoStart(), python="/usr/bin/python3", say=lambda _s: None)
        if updater.active() == vid and updater.complete(vid):
            self.ok(step, f"{self.root}/current is {vid}")
            return
        if self.systemd_running() and self._unit_active("kiosk.service"):
            updater.check = SystemdReady()

        def install() -> None:
            res = updater.install_source(self.source, vid)
            if not res.ok:
                raise UpdateError(res.message)

        self.change(step, f"build {vid} into {self.root}/versions (python3 -m venv)", install)

    @staticmethod
    def _unit_active(unit: str) -> bool:
        return subprocess.run(["systemctl", "is-active", "--quiet", unit]).returncode == 0

    def step_udev(self) -> None:
        reload = ("udevadm", "control", "--reload") if self.systemd_running() else ()
        for rules in UDEV_RULES:
            text = (self.source / "hardware" / "udev" / rules).read_text()
            self.write_file("udev", Path("/etc/udev/rules.d") / rules, text, then=reload)
        # the tap-stick board's driver loaded at every boot, board or not: the unit's DeviceAllow=char-ttyACM is
        # resolved from /proc/devices when the kiosk starts, so a board plugged in later (cdc_acm loaded only then)
        # could not be opened until the kiosk restarted
        self.write_file("udev", Path("/etc/modules-load.d/sushi-kiosk.conf"), MODULES)

    def step_units(self) -> None:
        step = "service"
        changed = False
        for unit in UNITS:
            changed |= self.write_file(
                step, Path("/etc/systemd/system") / unit, (self.source / "systemd" / unit).read_text()
            )
        if changed and self.systemd_running():
            self.change(step, "systemctl daemon-reload", lambda: self.run("systemctl", "daemon-reload"))
        for unit in ENABLE:
            if self._is_enabled(unit) == "enabled":
                self.ok(step, f"{unit} enabled")
            else:
                self.change(step, f"enable {unit}", partial(self.run, "systemctl", "enable", "--quiet", unit))

    @staticmethod
    def _is_enabled(unit: str) -> str:
        r = subprocess.run(["systemctl", "is-enabled", unit], capture_output=True, text=True)
        return r.stdout.strip()

    def step_consoles(self) -> None:
        step = "consoles"
        for unit in MASK + SPARE:
            if self._is_enabled(unit) == "masked":
                self.ok(step, f"{unit} masked")
            else:
                self.change(step, f"mask {unit}", partial(self.run, "systemctl", "mask", "--quiet", unit))
        self.write_file(step, Path("/etc/systemd/logind.conf.d/90-kiosk.conf"), LOGIND)
        apply = ("sysctl", "--quiet", "-p", "/etc/sysctl.d/90-kiosk.conf") if self.systemd_running() else ()
        self.write_file(step, Path("/etc/sysctl.d/90-kiosk.conf"), SYSCTL, then=apply)

    def step_firmware(self) -> None:
        step = "display"
        cmdline = FIRMWARE / "cmdline.txt"
        config = FIRMWARE / "config.txt"
        if not cmdline.exists():
            self.skip(step, f"no {cmdline}: not a Raspberry Pi (screen blanking and firmware settings left alone)")
        else:
            words = cmdline.read_text().split()
            if "consoleblank=0" in words:
                self.ok(step, "consoleblank=0 (screen never blanks)")
            else:
                new = " ".join([w for w in words if not w.startswith("consoleblank=")] + ["consoleblank=0"]) + "\n"
                self.change(step, f"consoleblank=0 in {cmdline}", lambda: cmdline.write_text(new))
        if config.exists():
            lines = config.read_text().splitlines()
            missing = [x for x in FIRMWARE_LINES if x not in (ln.strip() for ln in lines)]
            if missing:
                text = "\n".join(lines + ["# sushi table kiosk", *missing]) + "\n"
                self.change(step, f"{', '.join(missing)} in {config}", lambda: config.write_text(text))
            else:
                self.ok(step, f"{config} has {', '.join(FIRMWARE_LINES)}")
        dropin = Path("/etc/systemd/system/kiosk.service.d/rotation.conf")
        if self.rotate is None:
            if dropin.exists():
                self.ok(step, f"display rotation kept ({dropin})")
            return
        text = (
            "# display rotation (Kivy turns the touches with it)\n"
            f"[Service]\nEnvironment=KCFG_GRAPHICS_ROTATION={self.rotate}\n"
        )
        self.write_file(step, dropin, text)

    def step_pin(self) -> None:
        step = "operator PIN"
        config_file = STATE_DIR / "kiosk.json"
        current = self._stored_pin_hash(config_file)
        from kiosk import pin as kpin

        if current and self.pin is None:
            # a reinstall, or a data stick that already holds the table's settings: one PIN, the one already set
            self.ok(step, f"kept the PIN already set in {config_file} (another one: --pin, or kiosk --set-pin)")
            return
        if current and self.pin is not None and kpin.check_pin(self.pin, current):
            self.ok(step, f"the PIN given is the one set in {config_file}")
            return
        pin = self.pin
        if pin is None and not self.dry_run:
            if not sys.stdin.isatty():
                self.out(f"[FAIL]  {step}: no PIN set yet: give --pin, or run the installer on a terminal")
                self.failed.append(step)
                return
            pin = getpass.getpass("Operator PIN for the table (4-8 digits): ")
            if getpass.getpass("Again: ") != pin:
                self.out(f"[FAIL]  {step}: the PINs differ")
                self.failed.append(step)
                return
            self.pin = pin  # asked once: the same PIN for the data stick
        if pin is not None:
            try:
                kpin.hash_pin(pin)
            except ValueError as exc:
                self.out(f"[FAIL]  {step}: {exc}")
                self.failed.append(step)
                return
        what = "replaced by the PIN given" if current else "set"
        self.change(step, f"{what}, with kiosk --set-pin (in {config_file})", lambda: self._set_pin(pin or ""))

    @staticmethod
    def _stored_pin_hash(path: Path) -> str | None:
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            return None
        value = data.get("operator", {}).get("pin_hash") if isinstance(data, dict) else None
        return value if isinstance(value, str) else None

    def _set_pin(self, pin: str) -> None:
        STATE_DIR.mkdir(parents=True, exist_ok=True)
        user = pwd.getpwnam(USER)
        os.chown(STATE_DIR, user.pw_uid, user.pw_gid)
        STATE_DIR.chmod(0o750)
        env = dict(os.environ, STATE_DIRECTORY=str(STATE_DIR), HOME=str(STATE_DIR))
        # no controlling terminal: getpass reads the two answers from the pipe
        r = subprocess.run(
            [
                "setpriv",
                f"--reuid={user.pw_uid}",
                f"--regid={user.pw_gid}",
                "--init-groups",
                str(self.root / "current" / "bin" / "kiosk"),
                "--set-pin",
                "--state-dir",
                str(STATE_DIR),
            ],
            input=f"{pin}\n{pin}\n",
            capture_output=True,
            text=True,
            env=env,
            start_new_session=True,
            cwd=STATE_DIR,
        )
        if r.returncode != 0:
            raise ValueError(f"kiosk --set-pin failed: {(r.stdout + r.stderr).strip()[-300:]}")

    def step_read_only(self) -> None:
        step = "read-only"
        if not self.read_only:
            return
        for line in readonly.plan(self.data_device, STATE_DIR):
            if line.done:
                self.ok(step, line.what)
            elif line.skip:
                self.skip(step, line.what)
            elif line.error:
                self.out(f"[FAIL]  {step}: {line.what}")
                self.failed.append(step)
                return
            else:
                self.change(step, line.what, line.action)

    def run_all(self) -> int:
        if os.geteuid() != 0 and not self.dry_run:
            self.out("The installer changes the system: run it as root (sudo), or with --dry-run to see the steps.")
            return 2
        if readonly.supported() and readonly.overlay_active():
            self.out(
                "Read-only mode is on: what the installer changes would be written to memory and lost at the next "
                "start, so it changes nothing. Turn read-only mode off first (operator menu, System, or: sudo "
                "/opt/sushi-kiosk/current/bin/kiosk-admin read-only off; the table restarts), then run the installer "
                "again; with --read-only it turns the mode back on."
            )
            return 1
        self.out(
            f"Installing the sushi table from {self.source}" + (" (dry run: nothing changes)" if self.dry_run else "")
        )
        for step in (
            self.step_packages,
            self.step_user,
            self.step_app,
            self.step_udev,
            self.step_units,
            self.step_consoles,
            self.step_firmware,
            # the PIN before read-only mode too: the folder beneath the data stick keeps it, so a table started
            # without its stick still has an operator PIN (and a fresh stick gets it with the rest of the folder)
            self.step_pin,
            self.step_read_only,
            self.step_pin,  # and on the data stick mounted now (which may hold another table's PIN: one PIN)
        ):
            step()
        if self.failed:
            self.out(f"FAILED: {', '.join(dict.fromkeys(self.failed))}. Fix the cause and run the installer again.")
            return 1
        if self.dry_run:
            n = len(self.changed)
            self.out(f"Dry run: {n} change(s) would be made." if n else "Dry run: nothing would change.")
        elif self.changed:
            self.out(f"Done: {len(self.changed)} change(s). Reboot to start the table: sudo reboot")
        else:
            self.out("Nothing changed: the table was already set up.")
        return 0


def build_parser() -> argparse.ArgumentParser:
    """The installer's command line (``scripts/install.sh``; the docs test checks the documented calls)."""
    p = argparse.ArgumentParser(prog="install.sh", description="Turn a fresh Raspberry Pi OS Lite into the table.")
    p.add_argument("--dry-run", action="store_true", help="print each step that would change something; change nothing")
    p.add_argument("--pin", help="the operator PIN (4-8 digits); asked on the terminal when not given")
    p.add_argument(
        "--read-only", action="store_true", help="read-only root (overlay) with the state on its own partition"
    )
    p.add_argument("--data-device", help="with --read-only: the partition for the state folder (ext4), e.g. /dev/sda1")
    p.add_argument("--rotate", type=int, choices=(0, 90, 180, 270), help="turn the picture (and the touches)")
    p.add_argument("--source", type=Path, default=Path(__file__).resolve().parents[2], help="the checkout")
    p.add_argument("--root", type=Path, default=DEFAULT_ROOT, help=f"where the app goes (default {DEFAULT_ROOT})")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    p = build_parser()
    args = p.parse_args(argv)
    if args.pin is not None and not (args.pin.isdigit() and 4 <= len(args.pin) <= 8):
        p.error("--pin must be 4 to 8 digits")
    inst = Installer(
        source=args.source.resolve(),
        dry_run=args.dry_run,
        pin=args.pin,
        read_only=args.read_only,
        data_device=args.data_device,
        rotate=args.rotate,
        root=args.root,
    )
    with contextlib.suppress(KeyboardInterrupt):
        return inst.run_all()
    print("\ninterrupted: run the installer again to finish", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
