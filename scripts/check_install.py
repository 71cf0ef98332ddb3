#!/usr/bin/env python3
"""A real check of the installer: a fresh Debian root (mmdebstrap, or debootstrap), the installer run in it twice
(chroot), and what it set up asserted from outside.

    sudo python3 scripts/check_install.py [--cache /var/cache/sushi-kiosk-check] [--keep]

The Debian root (Bookworm, the base of Raspberry Pi OS: systemd, udev, python3, as on a Pi OS Lite image) is
built once and kept as a tarball in the cache folder, outside the checkout, so that later runs (and CI on the same
machine) only unpack it; apt's downloaded packages and pip's downloads are cached there too. Each run:

1. unpacks the root into a temporary folder, copies the checkout to ``/srv/sushi-kiosk`` in it;
2. ``install.sh --dry-run`` (nothing may change: the root's files are compared before and after);
3. ``install.sh --pin 1357`` (first run: must change things and finish with exit code 0);
4. asserts: the ``kiosk`` user and its groups, the unit files and the udev rule, the units enabled and the
   gettys and Ctrl+Alt+Del masked (``systemctl --root``), SysRq off, the venv with the system's site-packages and
   its ``kiosk --version``, ``systemd-analyze verify`` of the installed unit, the PIN stored hashed;
5. ``install.sh --pin 1357`` again: must say "Nothing changed" and leave every file as it was.

Steps that only make sense on a Pi (``/boot/firmware`` settings) must be reported as skipped, not failed.
Needs root, mmdebstrap or debootstrap, and the Debian archive and PyPI (exit code 77 = skipped, with the reason).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))  # devtools/ (run as `sudo python3 scripts/check_install.py` from anywhere)
from devtools.debroot import base_tarball as _base_tarball  # noqa: E402
from devtools.debroot import cache_lock, in_root, installer, mounted_root, say  # noqa: E402

SKIP = 77
INCLUDE = "systemd,systemd-sysv,udev,python3,ca-certificates,util-linux,dbus"
GROUPS = ("render", "video", "input", "gpio", "dialout", "audio")
PIN = "1357"


def base_tarball(cache: Path) -> Path:
    return _base_tarball(cache, INCLUDE)


class CheckFailed(AssertionError):
    pass


def check(cond: bool, what: str) -> None:
    if not cond:
        raise CheckFailed(what)
    say(f"ok: {what}")


def snapshot(root: Path) -> dict[str, tuple[int, int, float]]:
    """Every file and link under the root's /etc, /opt, /var/lib/sushi-kiosk, /usr: size, mode and mtime."""
    out: dict[str, tuple[int, int, float]] = {}
    for top in ("etc", "opt", "var/lib/sushi-kiosk", "usr", "boot"):
        base = root / top
        if not base.exists():
            continue
        for dirpath, dirs, files in os.walk(base):
            for name in files + dirs:
                p = Path(dirpath) / name
                with contextlib.suppress(OSError):
                    st = p.lstat()
                    out[str(p.relative_to(root))] = (st.st_size, st.st_mode, st.st_mtime)
    return out


def run_check(cache: Path, keep: bool) -> None:
    with cache_lock(cache):
        _run_check(cache, keep)


def _run_check(cache: Path, keep: bool) -> None:
    tar = base_tarball(cache)
    with mounted_root(tar, cache, keep) as root:
        src = root / "srv" / "sushi-kiosk"  # the copy of the checkout that the installer runs from
        before = snapshot(root)
        dry = installer(root, "--dry-run", "--pin", PIN)
        check(dry.returncode == 0 and "[would]" in dry.stdout, "--dry-run lists the steps it would take")
        after_dry = snapshot(root)
        changed = {k for k in set(before) | set(after_dry) if before.get(k) != after_dry.get(k)}
        check(not changed, f"--dry-run changed nothing (changed: {sorted(changed)[:5]})")

        first = installer(root, "--pin", PIN)
        check(first.returncode == 0, "first run succeeds")
        check("[done]" in first.stdout and "[FAIL]" not in first.stdout, "first run changed the system")
        check("[skip]  display: no /boot/firmware/cmdline.txt" in first.stdout, "Pi-only steps skipped with a message")

        passwd = in_root(root, "getent", "passwd", "kiosk").stdout
        check(passwd.startswith("kiosk:") and passwd.rstrip().endswith(":/usr/sbin/nologin"), "user kiosk, no shell")
        groups = set(in_root(root, "id", "-nG", "kiosk").stdout.split())
        check(set(GROUPS) <= groups, f"kiosk is in {', '.join(GROUPS)} (has {sorted(groups)})")
        for unit in ("kiosk.service", "kiosk-update-recover.service", "kiosk-admin.service", "kiosk-admin.path"):
            installed = root / "etc/systemd/system" / unit
            check(installed.read_text() == (src / "systemd" / unit).read_text(), f"{unit} installed")
        for name in ("99-tapstick.rules", "99-gpio.rules"):
            rule = root / "etc/udev/rules.d" / name
            check(rule.read_text() == (src / "hardware/udev" / name).read_text(), f"udev rule {name} installed")
        modules = (root / "etc/modules-load.d/sushi-kiosk.conf").read_text()
        check("cdc_acm" in modules.split(), "the tap-stick board's driver loads at boot (DeviceAllow=char-ttyACM)")

        def state(unit: str) -> str:
            return subprocess.run(
                ["systemctl", f"--root={root}", "is-enabled", unit], capture_output=True, text=True
            ).stdout.strip()

        for unit in ("kiosk.service", "kiosk-update-recover.service", "kiosk-admin.path"):
            check(state(unit) == "enabled", f"{unit} enabled (systemctl --root)")
        for unit in ("getty@.service", "autovt@.service", "ctrl-alt-del.target"):
            check(state(unit) == "masked", f"{unit} masked: no login prompt, no Ctrl+Alt+Del reboot")
        for unit in ("e2scrub_reap.service", "e2scrub_all.timer"):
            check(state(unit) == "masked", f"{unit} masked: no LVM snapshot scrubbing at boot")
        check("kernel.sysrq = 0" in (root / "etc/sysctl.d/90-kiosk.conf").read_text(), "SysRq off")
        check("NAutoVTs=0" in (root / "etc/systemd/logind.conf.d/90-kiosk.conf").read_text(), "logind: no VTs")
        emoji = root / "usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
        check(emoji.exists(), "the emoji font for the pieces' pictures is installed")
        cjk = root / "usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
        check(cjk.exists(), "the CJK face for Japanese at a seat is installed (kiosk.i18n.CJK_PATH)")
        cfg = (root / "opt/sushi-kiosk/current/pyvenv.cfg").read_text()
        check("include-system-site-packages = false" in cfg, "the venv is the app's own (the system's packages unseen)")
        version = in_root(root, "/opt/sushi-kiosk/current/bin/kiosk", "--version")
        check(version.returncode == 0 and version.stdout.startswith("kiosk "), f"venv: {version.stdout.strip()}")
        verify = in_root(root, "systemd-analyze", "verify", "/etc/systemd/system/kiosk.service")
        check(verify.returncode == 0 and not (verify.stdout + verify.stderr).strip(), f"verify: {verify.stderr}")
        pin = in_root(
            root,
            "/opt/sushi-kiosk/current/bin/python",
            "-c",
            "import json,sys; from kiosk.pin import check_pin;"
            "h=json.load(open('/var/lib/sushi-kiosk/kiosk.json'))['operator']['pin_hash'];"
            f"sys.exit(0 if check_pin('{PIN}', h) and not check_pin('2468', h) else 1)",
        )
        check(pin.returncode == 0, f"the operator PIN is stored hashed {pin.stderr.strip()}")
        owner = in_root(root, "stat", "-c", "%U", "/var/lib/sushi-kiosk/kiosk.json").stdout.strip()
        check(owner == "kiosk", "the config file belongs to kiosk")

        after_first = snapshot(root)
        second = installer(root, "--pin", PIN)
        check(second.returncode == 0, "second run succeeds")
        check("Nothing changed" in second.stdout and "[done]" not in second.stdout, "second run says nothing changed")
        after_second = snapshot(root)
        diff = sorted(k for k in set(after_first) | set(after_second) if after_first.get(k) != after_second.get(k))
        check(not diff, f"second run changed no file (changed: {diff[:5]})")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cache", type=Path, default=Path("/var/cache/sushi-kiosk-check"), help="cache folder")
    p.add_argument("--keep", action="store_true", help="keep the root afterwards (for a look around)")
    args = p.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_a: sys.exit(143))  # clean up the mounts when stopped
    if os.geteuid() != 0:
        print("skipped: needs root (chroot, mount)", file=sys.stderr)
        return SKIP
    if not (shutil.which("mmdebstrap") or shutil.which("debootstrap")):
        print("skipped: neither mmdebstrap nor debootstrap is installed", file=sys.stderr)
        return SKIP
    try:
        base_tarball(args.cache)
    except subprocess.CalledProcessError as exc:
        print(f"skipped: could not build the Debian root (no network to the archive?): {exc}", file=sys.stderr)
        return SKIP
    try:
        run_check(args.cache, args.keep)
    except CheckFailed as exc:
        print(f"[check] FAILED: {exc}", file=sys.stderr)
        return 1
    say("PASSED: the installer set up a fresh Debian root, and its second run changed nothing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
