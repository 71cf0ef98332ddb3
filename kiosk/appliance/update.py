"""Update bundles and the updater: a new version is installed beside the running one, switched to, and switched
back by itself if it does not reach READY.

**The bundle** (``kiosk-update build``, or ``kiosk --build-update DIR`` from a checkout) is one file,
``sushi-kiosk-<version>-<id>.kiosk-update``: an uncompressed tar with ``manifest.json`` (format, name,
version, id, platform, the sha256 of every wheel) and ``wheels/`` (the app's wheel and every dependency's). It
installs with no network. Wheels are platform-specific: build on the Pi itself, or on a PC with
``--platform manylinux2014_aarch64 --python-version 3.11`` for a 64-bit Pi OS Bookworm.

**The layout** under the root (``/opt/sushi-kiosk``)::

    versions/<id>/     one virtual environment per installed version (its own, the system's site-packages not
                       seen: lgpio comes with the app); complete once it holds the file ``.complete``
    current -> versions/<id>     what kiosk.service runs (ExecStart=/opt/sushi-kiosk/current/bin/kiosk)
    previous -> versions/<id>    the version before it, kept for a manual rollback (``kiosk-update rollback``)
    update.json        the updater's journal: the step it is at, the versions involved, the last result

Rationale and decisions: docs/developer/design.md, section ``kiosk/appliance/update.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import email.parser
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import urllib.parse
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from kiosk.appliance import seed

__all__ = [
    "APP_DIST",
    "BUNDLE_SUFFIX",
    "DEFAULT_ROOT",
    "STEPS",
    "NoStart",
    "ProcessReady",
    "ReadyCheck",
    "Result",
    "SystemdReady",
    "UpdateError",
    "Updater",
    "build_bundle",
    "main",
    "read_manifest",
]

APP_DIST = "sushi-table-kiosk"
BUNDLE_SUFFIX = ".kiosk-update"
DEFAULT_ROOT = Path("/opt/sushi-kiosk")
FORMAT = 1
STEPS = ("unpacking", "installed", "switching", "switched", "checking")
COMPLETE = ".complete"
#: pip's environment when it builds the app's dependencies from source: lgpio (the Pi's GPIO library, source only on
#: PyPI) links its C library in (its setup.py's ``PYPI=1``) instead of needing the system's liblgpio
BUILD_ENV = {"PYPI": "1"}
#: Fault injection for the tests: the updater kills itself (SIGKILL, like a power cut) at this step.
CRASH_ENV = "KIOSK_UPDATE_CRASH_AT"


class UpdateError(Exception):
    """A bundle that cannot be installed, or an install that failed before the switch (nothing changed)."""


@dataclass(frozen=True)
class Result:
    ok: bool
    message: str
    version: str | None = None
    changed: bool = True


def _crash_point(step: str) -> None:
    if os.environ.get(CRASH_ENV) == step:
        os.kill(os.getpid(), signal.SIGKILL)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# ------------------------------------------------------------------------------------------------ bundles
def build_bundle(
    source: Path,
    out_dir: Path,
    *,
    platform: str | None = None,
    python_version: str | None = None,
    find_links: Sequence[Path] = (),
    run: Callable[..., Any] = subprocess.run,
) -> Path:
    """Build the app at ``source`` and every dependency into wheels, and pack them as one bundle in ``out_dir``.

    With ``platform`` (a pip platform tag) the dependencies are downloaded as binary wheels for that platform
    instead of built for this machine; a dependency only that platform has (lgpio on ARM: pip judges the markers
    here) is looked for too, also among the wheels in ``find_links`` (PyPI has no lgpio wheel for ARM: one built
    on a Pi, or by the arm64 image, ``devtools.image``). A bundle that would lack one is refused here.
    """
    source = Path(source).resolve()
    if not (source / "pyproject.toml").exists():
        raise UpdateError(f"{source} is not a checkout of the kiosk (no pyproject.toml)")
    machine = _machine_of(platform) if platform else None
    out_dir.mkdir(parents=True, exist_ok=True)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    links = [arg for f in find_links for arg in ("--find-links", str(Path(f).resolve()))]
    with tempfile.TemporaryDirectory(prefix="kiosk-bundle-") as tmp:
        wheels = Path(tmp) / "wheels"
        if platform and machine:
            run([*pip, "wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels), str(source)], check=True)
            own = next(wheels.glob("sushi_table_kiosk-*.whl"))
            pv = ["--python-version", python_version] if python_version else []
            target = ["--only-binary=:all:", "--platform", platform, *pv, *links, "--dest", str(wheels)]
            run([*pip, "download", "--quiet", *target, str(own)], check=True)
            for req in _target_only(own, machine):
                # a project-built wheel is tagged for the plain platform (linux_<machine>), not manylinux
                got = run(
                    [*pip, "download", "--quiet", *target, "--platform", f"linux_{machine}", req],
                    capture_output=True,
                    text=True,
                )
                if got.returncode != 0:
                    where = f" in {', '.join(map(str, find_links))}" if find_links else ""
                    raise UpdateError(
                        f"{req}: needed on {machine}, and no wheel of it for {platform} was found on the index"
                        f"{where}. PyPI has only its source: build its wheel on a Pi or with the arm64 image "
                        "(docs/appliance.md) and name its folder with --find-links"
                    )
        else:
            run([*pip, "wheel", "--quiet", *links, "--wheel-dir", str(wheels), str(source)], check=True)
        own_wheels = sorted(wheels.glob("sushi_table_kiosk-*.whl"))
        if len(own_wheels) != 1:
            raise UpdateError(f"expected one sushi_table_kiosk wheel, found {[p.name for p in own_wheels]}")
        version = own_wheels[0].name.split("-")[1]
        files = {p.name: _sha256(p) for p in sorted(wheels.glob("*.whl"))}
        build_id = hashlib.sha256("".join(f"{n}:{h}\n" for n, h in files.items()).encode()).hexdigest()[:12]
        manifest = {
            "format": FORMAT,
            "name": APP_DIST,
            "version": version,
            "id": f"{version}-{build_id}",
            "platform": platform or sysconfig.get_platform(),
            "python": python_version or f"{sys.version_info.major}.{sys.version_info.minor}",
            "built": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "wheels": files,
        }
        (Path(tmp) / "manifest.json").write_text(json.dumps(manifest, indent=2))
        out = out_dir / f"sushi-kiosk-{manifest['id']}{BUNDLE_SUFFIX}"
        part = out.with_name(out.name + ".part")
        with tarfile.open(part, "w") as tar:
            tar.add(Path(tmp) / "manifest.json", arcname="manifest.json")
            for name in files:
                tar.add(wheels / name, arcname=f"wheels/{name}")
        os.replace(part, out)
    return out


def _machine_of(platform: str) -> str:
    """The processor of a pip platform tag (``manylinux2014_aarch64`` -> ``aarch64``)."""
    m = re.search(r"(aarch64|armv7l|x86_64|i686)$", platform)
    if not m:
        raise UpdateError(f"--platform {platform}: not a Linux platform tag (e.g. manylinux2014_aarch64)")
    return m.group(1)


def _target_only(wheel: Path, machine: str) -> list[str]:
    """The app's requirements (its wheel's ``Requires-Dist``) whose markers hold on Linux on ``machine``, not here."""
    from packaging.requirements import Requirement  # (a bundle's build only: not on the table's start-up)

    with zipfile.ZipFile(wheel) as z:
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        requires = email.parser.BytesParser().parsebytes(z.read(meta)).get_all("Requires-Dist") or []
    there = {"sys_platform": "linux", "platform_system": "Linux", "platform_machine": machine, "extra": ""}
    out = []
    for line in requires:
        req = Requirement(line)
        if req.marker is not None and req.marker.evaluate(there) and not req.marker.evaluate({"extra": ""}):
            req.marker = None
            out.append(str(req))
    return out


def read_manifest(bundle: Path) -> dict[str, Any]:
    """The bundle's manifest, checked; :class:`UpdateError` with a clear message for anything else."""
    try:
        with tarfile.open(bundle, "r:*") as tar:
            member = tar.extractfile("manifest.json")
            if member is None:
                raise KeyError("manifest.json")
            manifest = json.loads(member.read())
    except (OSError, tarfile.TarError, KeyError, ValueError) as exc:
        raise UpdateError(f"{bundle} is not a kiosk update bundle: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("name") != APP_DIST or manifest.get("format") != FORMAT:
        raise UpdateError(f"{bundle} is not a kiosk update bundle (format {FORMAT} of {APP_DIST})")
    if not re.fullmatch(r"[A-Za-z0-9.+_-]+", str(manifest.get("id", ""))) or not isinstance(
        manifest.get("wheels"), dict
    ):
        raise UpdateError(f"{bundle}: manifest without a valid id or wheel list")
    return manifest


def _unpack_wheels(bundle: Path, manifest: dict[str, Any], dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    wanted = manifest["wheels"]
    with tarfile.open(bundle, "r:*") as tar:
        for name in wanted:
            if "/" in name or not name.endswith(".whl"):
                raise UpdateError(f"bundle lists a bad wheel name: {name!r}")
            try:
                member = tar.extractfile(f"wheels/{name}")
            except KeyError:
                member = None
            if member is None:
                raise UpdateError(f"bundle lacks wheels/{name}")
            with open(dest / name, "wb") as out:
                shutil.copyfileobj(member, out)
            if _sha256(dest / name) != wanted[name]:
                raise UpdateError(f"{name}: checksum does not match the manifest (a damaged copy?)")


# ------------------------------------------------------------------------------------------------ READY checks
class ReadyCheck(Protocol):
    def check(self, env: Path) -> tuple[bool, str]:
        """Start the kiosk from venv ``env`` (or restart the service now pointing at it); True once READY."""
        ...

    def restart(self) -> None:
        """Restart the kiosk on whatever ``current`` points at (after a rollback)."""
        ...


class SystemdReady:
    """The Pi: restart ``kiosk.service`` and wait until systemd reports it ``active`` (Type=notify: after READY=1).

    The timeout is the unit's own ``TimeoutStartSec`` unless given.
    """

    def __init__(self, unit: str = "kiosk.service", timeout: float | None = None, poll: float = 1.0) -> None:
        self.unit = unit
        self.timeout = timeout
        self.poll = poll

    def _show(self, *props: str) -> dict[str, str]:
        out = subprocess.run(
            ["systemctl", "show", self.unit, *(f"--property={p}" for p in props)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def check(self, env: Path) -> tuple[bool, str]:
        props = self._show("InvocationID", "TimeoutStartUSec")
        timeout = self.timeout
        if timeout is None:
            m = re.fullmatch(r"(?:(\d+)min ?)?(?:(\d+)s)?", props.get("TimeoutStartUSec", "").strip())
            timeout = float(int(m.group(1) or 0) * 60 + int(m.group(2) or 0)) if m and m.group(0) else 90.0
        before = props.get("InvocationID", "")
        subprocess.run(["systemctl", "restart", "--no-block", self.unit], check=True)
        deadline = time.monotonic() + timeout + 5
        state: dict[str, str] = {}
        while time.monotonic() < deadline:
            state = self._show("InvocationID", "ActiveState", "SubState")
            if state.get("InvocationID") not in ("", before) and state.get("ActiveState") == "active":
                return True, f"{self.unit} is active (READY)"
            time.sleep(self.poll)
        return False, f"{self.unit} did not reach READY within {timeout:.0f} s ({state.get('SubState', '?')})"

    def restart(self) -> None:
        subprocess.run(["systemctl", "restart", "--no-block", self.unit], check=False)


class ProcessReady:
    """Start ``<env>/bin/kiosk ARGS`` with a notify socket of our own and wait for its ``READY=1``, then stop it.

    For trying an update on a desktop (and the tests): the same READY=1 the service sends to systemd.
    """

    def __init__(self, args: Sequence[str] = (), env: dict[str, str] | None = None, timeout: float = 90.0) -> None:
        self.args = list(args)
        self.env = env
        self.timeout = timeout

    def check(self, env: Path) -> tuple[bool, str]:
        with tempfile.TemporaryDirectory(prefix="kiosk-notify-") as tmp:
            path = os.path.join(tmp, "notify")
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.bind(path)
                sock.settimeout(0.5)
                child_env = dict(self.env if self.env is not None else os.environ, NOTIFY_SOCKET=path)
                proc = subprocess.Popen(
                    [str(env / "bin" / "kiosk"), *self.args],
                    env=child_env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                )
                _crash_point("checking")
                deadline = time.monotonic() + self.timeout
                try:
                    while time.monotonic() < deadline:
                        with contextlib.suppress(TimeoutError):
                            if b"READY=1" in sock.recv(4096).split(b"\n"):
                                return True, "the new version reached READY"
                        if proc.poll() is not None:
                            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
                            tail = err.strip().splitlines()[-1:] or [""]
                            return False, f"the new version exited with code {proc.returncode} before READY: {tail[0]}"
                    return False, f"the new version did not reach READY within {self.timeout:.0f} s"
                finally:
                    if proc.poll() is None:
                        proc.terminate()
                        try:
                            proc.wait(timeout=20)
                        except subprocess.TimeoutExpired:
                            proc.kill()
                            proc.wait()
                    if proc.stderr:
                        proc.stderr.close()

    def restart(self) -> None:
        """Nothing runs between checks here."""


class NoStart:
    """No READY check: nothing is started (the installer in a chroot, or before the service ever ran)."""

    def __init__(self, why: str = "not started") -> None:
        self.why = why

    def check(self, env: Path) -> tuple[bool, str]:
        return True, self.why

    def restart(self) -> None:
        """Nothing to restart."""


# ------------------------------------------------------------------------------------------------ the updater
class Updater:
    """Install bundles into ``root`` (see the module docstring for the layout and the steps)."""

    def __init__(
        self,
        root: Path = DEFAULT_ROOT,
        *,
        check: ReadyCheck | None = None,
        python: str | None = None,
        say: Callable[[str], None] = print,
    ) -> None:
        self.root = Path(root)
        self.versions = self.root / "versions"
        self.current = self.root / "current"
        self.previous = self.root / "previous"
        self.journal_path = self.root / "update.json"
        self.check = check if check is not None else SystemdReady()
        self.python: str = python or str(getattr(sys, "_base_executable", sys.executable))
        self.say = say

    # ---- state
    def _link(self, link: Path) -> str | None:
        try:
            target = os.readlink(link)
        except OSError:
            return None
        return Path(target).name

    def active(self) -> str | None:
        """The id ``current`` points at."""
        return self._link(self.current)

    def previous_version(self) -> str | None:
        return self._link(self.previous)

    def complete(self, vid: str) -> bool:
        return (self.versions / vid / COMPLETE).exists()

    def installed(self) -> list[str]:
        if not self.versions.is_dir():
            return []
        return sorted(p.name for p in self.versions.iterdir() if (p / COMPLETE).exists())

    def journal(self) -> dict[str, Any]:
        try:
            data = json.loads(self.journal_path.read_text())
            return data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}

    def _record(self, **entry: Any) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        _write_atomic(self.journal_path, json.dumps(entry, indent=1).encode())

    def _point(self, link: Path, vid: str | None) -> None:
        """Point ``link`` at ``versions/vid`` (relative), atomically; remove it for None."""
        if vid is None:
            with contextlib.suppress(FileNotFoundError):
                link.unlink()
        else:
            tmp = link.with_name(f".{link.name}.new")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            os.symlink(f"versions/{vid}", tmp)
            os.replace(tmp, link)
        _fsync_dir(link.parent)

    def status(self) -> dict[str, Any]:
        return {
            "root": str(self.root),
            "current": self.active(),
            "previous": self.previous_version(),
            "installed": self.installed(),
            "journal": self.journal(),
        }

    # ---- recovery
    def recover(self) -> str | None:
        """Undo an update the updater did not finish (see the module docstring); a sentence, or None if clean."""
        j = self.journal()
        step = j.get("step")
        said = None
        if step in STEPS:
            new, old, old_prev = j.get("new"), j.get("old"), j.get("old_previous")
            if step in ("switching", "switched", "checking"):
                self._point(self.current, old)
                self._point(self.previous, old_prev)
                said = f"an update to {new} was interrupted before it reached READY: back to {old}"
            else:
                said = f"an update to {new} was interrupted while {step}: {old} stays"
            self._record(step="interrupted", new=new, old=old, at=step, message=said, when=time.time())
        if self.versions.is_dir():
            keep = {self.active(), self.previous_version()}
            for p in self.versions.iterdir():
                if p.name not in keep and not (p / COMPLETE).exists():
                    shutil.rmtree(p, ignore_errors=True)
        if said:
            self.say(said)
        return said

    # ---- install
    def _build_env(self, bundle: Path, manifest: dict[str, Any], target: Path) -> None:
        """A fresh venv with the bundle's wheels as pip resolves them for this machine; the distributions the running
        version already has at the same version are carried over from it (:mod:`kiosk.appliance.seed`), not
        reinstalled: an update of the app alone takes seconds instead of minutes on a Pi."""
        if target.exists():
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        wheels = target / "wheels"
        _unpack_wheels(bundle, manifest, wheels)
        _crash_point("unpacking")
        running = self._running_env()
        tools = seed.installed(running) if running is not None else {}  # the running venv's distributions
        has_pip = "pip" in tools
        venv = [self.python, "-m", "venv", *(["--without-pip"] if has_pip else []), str(target)]
        subprocess.run(venv, check=True, capture_output=True)
        if running is not None and has_pip and not seed.carry(running, target, {"pip": tools["pip"]}):
            subprocess.run([str(target / "bin" / "python"), "-m", "ensurepip"], check=True, capture_output=True)
        pip = [str(target / "bin" / "python"), "-m", "pip", "--isolated", "--disable-pip-version-check"]
        wanted = self._resolve(pip, wheels, manifest)
        app = seed.canonical(APP_DIST)
        carried = (
            [] if running is None else seed.carry(running, target, {n: v for n, (v, _) in wanted.items() if n != app})
        )
        rest = {n: str(path) for n, (_, path) in wanted.items() if n not in carried}
        self.say(
            f"{len(carried)} libraries carried over unchanged from {running.name if running else '-'}; "
            f"installing {len(rest)} wheels: {', '.join(sorted(rest))}"
        )
        proc = subprocess.run(
            [
                *pip,
                "install",
                "--quiet",
                "--no-index",
                "--no-cache-dir",
                "--ignore-installed",
                "--no-deps",
                *rest.values(),
            ],
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            raise UpdateError(f"installing the wheels failed: {proc.stderr.strip()[-500:]}")
        shutil.rmtree(wheels)
        self._finish_env(target, manifest)

    def _running_env(self) -> Path | None:
        vid = self.active()
        return self.versions / vid if vid is not None and self.complete(vid) else None

    @staticmethod
    def _resolve(pip: list[str], wheels: Path, manifest: dict[str, Any]) -> dict[str, tuple[str, Path]]:
        """What pip would install from the bundle's wheels for this machine (its markers, its tags): canonical
        name -> (version, wheel). A bundle that lacks a wheel fails here, before anything is installed."""
        report = wheels / "report.json"
        proc = subprocess.run(
            [*pip, "install", "--quiet", "--dry-run", "--ignore-installed", "--no-index", "--no-cache-dir"]
            + ["--report", str(report), "--find-links", str(wheels), f"{APP_DIST}=={manifest['version']}"],
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            raise UpdateError(f"the bundle's wheels do not install here: {proc.stderr.strip()[-500:]}")
        wanted: dict[str, tuple[str, Path]] = {}
        for item in json.loads(report.read_text())["install"]:
            url = urllib.parse.urlparse(item["download_info"]["url"])
            path = Path(urllib.parse.unquote(url.path))
            if url.scheme != "file" or path.parent != wheels:
                raise UpdateError(f"pip wants {item['download_info']['url']}, which is not in the bundle")
            wanted[seed.canonical(item["metadata"]["name"])] = (item["metadata"]["version"], path)
        report.unlink()
        return wanted

    def _build_from_source(self, source: Path, target: Path) -> None:
        """The installer's way: a fresh venv with the app built from a checkout (dependencies from the index)."""
        if target.exists():
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([self.python, "-m", "venv", str(target)], check=True, capture_output=True)
        pip = [str(target / "bin" / "python"), "-m", "pip", "--disable-pip-version-check"]
        cache = [] if os.environ.get("PIP_CACHE_DIR") else ["--no-cache-dir"]  # keep the SD card tidy
        proc = subprocess.run(
            [*pip, "install", "--quiet", *cache, str(source)],
            capture_output=True,
            text=True,
            env=dict(os.environ, **BUILD_ENV),
        )
        if proc.returncode != 0:
            raise UpdateError(f"pip install {source} failed: {proc.stderr.strip()[-800:]}")
        self._finish_env(target, {"source": str(source), "id": target.name, "version": target.name.split("-")[0]})

    def _finish_env(self, target: Path, manifest: dict[str, Any]) -> None:
        answer = subprocess.run([str(target / "bin" / "kiosk"), "--version"], capture_output=True, text=True)
        version = str(manifest.get("version", ""))
        if answer.returncode != 0 or version not in answer.stdout:
            raise UpdateError(f"the new kiosk does not start: {(answer.stdout + answer.stderr).strip()[-300:]}")
        _write_atomic(target / COMPLETE, json.dumps(manifest).encode())
        _fsync_dir(target.parent)

    def install(self, bundle: Path) -> Result:
        """Install ``bundle``, switch to it, check READY, roll back if not. Raises :class:`UpdateError` only for
        a bundle that cannot be installed (then nothing changed)."""
        self.recover()
        bundle = Path(bundle)
        manifest = read_manifest(bundle)
        return self._install(manifest["id"], lambda target: self._build_env(bundle, manifest, target))

    def install_source(self, source: Path, vid: str) -> Result:
        """Install the app from a checkout as version ``vid`` (the installer), with the same steps as a bundle."""
        self.recover()
        return self._install(vid, lambda target: self._build_from_source(Path(source), target))

    def _install(self, vid: str, build: Callable[[Path], None]) -> Result:
        old, old_prev = self.active(), self.previous_version()
        if old == vid and self.complete(vid):
            return Result(True, f"{vid} is already the running version; nothing changed", vid, changed=False)
        target = self.versions / vid
        self._record(step="unpacking", new=vid, old=old, old_previous=old_prev, when=time.time())
        if not self.complete(vid):
            self.say(f"installing {vid} into {target}")
            try:
                build(target)
            except (UpdateError, OSError, tarfile.TarError, subprocess.CalledProcessError) as exc:
                shutil.rmtree(target, ignore_errors=True)
                msg = f"{vid} could not be installed: {exc}"
                self._record(step="failed", new=vid, old=old, message=msg, when=time.time())
                raise UpdateError(msg) from exc
        else:
            self.say(f"{vid} is already unpacked in {target}: reusing it")
        self._record(step="installed", new=vid, old=old, old_previous=old_prev, when=time.time())
        _crash_point("installed")
        self._record(step="switching", new=vid, old=old, old_previous=old_prev, when=time.time())
        if old is not None:
            self._point(self.previous, old)
        _crash_point("switching")
        self._point(self.current, vid)
        self._record(step="switched", new=vid, old=old, old_previous=old_prev, when=time.time())
        _crash_point("switched")
        self._record(step="checking", new=vid, old=old, old_previous=old_prev, when=time.time())
        self.say(f"switched to {vid}: waiting for READY")
        ok, why = self.check.check(target)
        if ok:
            msg = f"updated to {vid}" + (f" (previous: {old})" if old else "")
            self._record(step="done", new=vid, old=old, message=msg, when=time.time())
            self._prune()
            self.say(msg)
            return Result(True, msg, vid)
        self._point(self.current, old)
        self._point(self.previous, old_prev)
        msg = f"{vid} did not start ({why}): rolled back to {old}"
        self._record(step="rolled-back", new=vid, old=old, message=msg, when=time.time())
        if old is not None:
            self.check.restart()
        shutil.rmtree(target, ignore_errors=True)
        self.say(msg)
        return Result(False, msg, old)

    def rollback(self) -> Result:
        """Switch back to ``previous`` by hand (the two swap places), and restart the kiosk."""
        self.recover()
        cur, prev = self.active(), self.previous_version()
        if prev is None or not self.complete(prev):
            return Result(False, "there is no previous version to go back to", cur, changed=False)
        self._point(self.current, prev)
        self._point(self.previous, cur)
        msg = f"rolled back to {prev} (previous: {cur})"
        self._record(step="done", new=prev, old=cur, message=msg, when=time.time())
        self.check.restart()
        self.say(msg)
        return Result(True, msg, prev)

    def _prune(self) -> None:
        keep = {self.active(), self.previous_version()}
        for p in self.versions.iterdir():
            if p.name not in keep:
                shutil.rmtree(p, ignore_errors=True)


# ------------------------------------------------------------------------------------------------ command line
def build_parser() -> argparse.ArgumentParser:
    """``kiosk-update``'s command line."""
    p = argparse.ArgumentParser(prog="kiosk-update", description="Build and install kiosk update bundles.")
    p.add_argument("--root", type=Path, default=DEFAULT_ROOT, help=f"installation root (default {DEFAULT_ROOT})")
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="build a bundle from a checkout")
    b.add_argument("--source", type=Path, default=Path("."), help="the checkout (default: here)")
    b.add_argument("--out", type=Path, default=Path("dist"), help="output folder (default dist/)")
    b.add_argument("--platform", help="pip platform tag for the dependencies, e.g. manylinux2014_aarch64")
    b.add_argument("--python-version", help="with --platform: the target's Python, e.g. 3.11")
    b.add_argument(
        "--find-links",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="a folder of wheels PyPI lacks (lgpio for aarch64, built on a Pi); may be given more than once",
    )
    i = sub.add_parser("install", help="install a bundle, switch to it, roll back if it does not reach READY")
    i.add_argument("bundle", type=Path)
    i.add_argument("--unit", default="kiosk.service", help="the service to restart (default kiosk.service)")
    i.add_argument(
        "--try-run",
        nargs=argparse.REMAINDER,
        metavar="ARGS",
        help="no systemd: start the new kiosk with these arguments and wait for its READY=1 (a desktop)",
    )
    i.add_argument("--timeout", type=float, default=None, help="seconds to wait for READY (default: the unit's)")
    sub.add_parser("recover", help="undo an interrupted update (run at boot)")
    sub.add_parser("rollback", help="switch back to the previous version")
    sub.add_parser("status", help="print the installed versions and the last update as JSON")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.cmd == "build":
        try:
            out = build_bundle(
                args.source,
                args.out,
                platform=args.platform,
                python_version=args.python_version,
                find_links=args.find_links,
            )
        except (UpdateError, subprocess.CalledProcessError) as exc:
            print(f"kiosk-update: {exc}", file=sys.stderr)
            return 1
        print(out)
        return 0
    check: ReadyCheck
    if args.cmd == "install" and args.try_run is not None:
        check = ProcessReady(args.try_run, timeout=args.timeout or 90.0)
    else:
        check = SystemdReady(getattr(args, "unit", "kiosk.service"), timeout=getattr(args, "timeout", None))
    updater = Updater(args.root, check=check)
    if args.cmd == "status":
        print(json.dumps(updater.status(), indent=2))
        return 0
    if args.cmd == "recover":
        said = updater.recover()
        print(said or "nothing to recover")
        return 0
    try:
        res = updater.install(args.bundle) if args.cmd == "install" else updater.rollback()
    except UpdateError as exc:
        print(f"kiosk-update: {exc}", file=sys.stderr)
        return 2
    if args.cmd == "install" and res.changed is False:
        print(res.message)
    return 0 if res.ok else 1


if __name__ == "__main__":
    sys.exit(main())
