"""The table in a virtual machine: boot the image of :mod:`devtools.image` in QEMU and look at it as a person would.

    >>> with Machine(build(), tmp) as m:                               # doctest: +SKIP
    ...     m.boot()
    ...     m.wait_unit_status("kiosk.service", "attract mode")
    ...     m.screendump(tmp / "attract.png")
    ...     m.tap(0.5, 0.5)                                          # through the kernel: QEMU's usb-tablet
    ...     m.shell("systemctl is-active kiosk")                     # (0, 'active')
    ...     m.power_cut()                                            # QEMU killed: no shutdown at all

What a test reaches is what the booted table has: the framebuffer (QMP ``screendump``), the kernel's input stack
(a ``usb-tablet``, absolute axes), USB sticks plugged in and pulled out while it runs (``usb-storage`` on an xHCI
bus, QMP ``device_add``/``device_del``), the kernel's console (first serial port, kept in ``console.log``), and a root
shell on the second serial port (the image's test access; on the Arm virt machine, which has one UART, a virtio
console). Disks are copy-on-write overlays of the image's (qcow2,
in the machine's folder): a reboot or a power cut keeps what the guest wrote, the cached image never changes.

Pure emulation (TCG) is the default: nested KVM is unreliable on these machines (``KIOSK_VM_ACCEL=kvm`` tries it).
Every wait is for a condition, bounded by a deadline in the guest's terms (a boot under TCG on a busy 2-core
machine takes about a minute); nothing sleeps for a fixed time to let the guest "catch up".
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import secrets
import shlex
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from devtools.image import Image

PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In QEMU's child before exec: killed with its parent (a test process that dies leaves no machine running,
    eating a core under the next run). Linux sends it when the thread that started QEMU ends: start and stop a
    machine from one thread."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


__all__ = ["GuestError", "Machine", "Stick", "make_fat_stick"]

#: each architecture's emulator and machine: a PC, and the Arm virt machine with a Pi 4's core (Cortex-A72)
QEMU = {"amd64": ["qemu-system-x86_64"], "arm64": ["qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72"]}
TABLET_MAX = 32767


def default_cpus() -> int:
    """``KIOSK_VM_CPUS``, else two, or one per machine when test workers run machines side by side (each emulated
    CPU is a busy host thread: two machines of two on two cores only wait for each other)."""
    if os.environ.get("KIOSK_VM_CPUS"):
        return int(os.environ["KIOSK_VM_CPUS"])
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    return max(1, min(2, (os.cpu_count() or 2) // workers))


class GuestError(AssertionError):
    """The guest did not do what was waited for (with the console's last lines)."""


@dataclass
class Stick:
    """A USB stick: a disk image file, plugged in under ``id`` (``removable=on``)."""

    id: str
    file: Path
    fmt: str = "raw"


def make_fat_stick(path: Path, files: dict[str, bytes] | None = None, size_mb: int = 64) -> Path:
    """A FAT32 stick image as a laptop formats it, with ``files`` in its top folder (mtools: no mount needed)."""
    subprocess.run(["truncate", "-s", f"{size_mb}M", str(path)], check=True)
    subprocess.run(["mkfs.vfat", "-F", "32", "-n", "OWNER", str(path)], check=True, capture_output=True)
    for name, data in (files or {}).items():
        src = path.with_name(f".{name}")
        src.write_bytes(data)
        subprocess.run(["mcopy", "-i", str(path), str(src), f"::{name}"], check=True)
        src.unlink()
    return path


@dataclass
class _Serial:
    """A reader of one of the guest's serial ports (a unix socket that QEMU serves): everything it said, kept."""

    path: Path
    log: Path
    data: bytearray = field(default_factory=bytearray)
    cond: threading.Condition = field(default_factory=threading.Condition)
    sock: socket.socket | None = None
    thread: threading.Thread | None = None

    def connect(self, deadline: float) -> None:
        while True:
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(str(self.path))
                break
            except OSError:
                s.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self.sock = s
        self.thread = threading.Thread(target=self._read, daemon=True, name=f"serial {self.path.name}")
        self.thread.start()

    def _read(self) -> None:
        assert self.sock is not None
        with open(self.log, "ab") as log:
            while True:
                try:
                    chunk = self.sock.recv(65536)
                except OSError:
                    chunk = b""
                with self.cond:
                    if not chunk:
                        self.sock = None
                        self.cond.notify_all()
                        return
                    self.data += chunk
                    self.cond.notify_all()
                log.write(chunk)
                log.flush()

    def send(self, text: str) -> None:
        if self.sock is None:
            raise GuestError(f"{self.path.name}: the machine is off")
        self.sock.sendall(text.encode())

    def wait(self, pattern: re.Pattern[bytes], start: int, deadline: float) -> re.Match[bytes]:
        with self.cond:
            while True:
                m = pattern.search(self.data, start)
                if m:
                    return m
                if self.sock is None:
                    raise GuestError(f"{self.path.name}: the machine stopped while waiting for {pattern.pattern!r}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise GuestError(f"{self.path.name}: no {pattern.pattern!r} in time")
                self.cond.wait(min(left, 1.0))

    def close(self) -> None:
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)
        if self.thread is not None:
            self.thread.join(5)


class Machine:
    """One table: the image's disks as overlays in ``folder``, booted as often as a test likes."""

    def __init__(
        self,
        image: Image,
        folder: Path,
        *,
        data_stick: bool = True,
        memory_mb: int = 2048,
        cpus: int | None = None,
        guestfwd: str | None = None,
        cmdline_extra: str = "",
    ) -> None:
        self.image = image
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.memory_mb = memory_mb
        self.cpus = cpus or default_cpus()
        self.guestfwd = guestfwd
        self.cmdline_extra = cmdline_extra
        self.root_disk = self.folder / "root.qcow2"
        self.data_disk: Path | None = self.folder / "data.qcow2" if data_stick else None
        self.proc: subprocess.Popen[bytes] | None = None
        self.qmp: Any = None
        self.console: _Serial | None = None
        self.tty: _Serial | None = None
        self.boots = 0
        self.sticks: dict[str, Stick] = {}
        self._data_plugged = True  # the data stick is in at the next boot
        self._overlay(self.root_disk, image.disk)
        if self.data_disk is not None:
            self._overlay(self.data_disk, image.data)

    # ---- disks
    @staticmethod
    def _overlay(path: Path, base: Path) -> None:
        if not path.exists():
            subprocess.run(
                ["qemu-img", "create", "-q", "-f", "qcow2", "-b", str(base), "-F", "raw", str(path)], check=True
            )

    def stick_file(self, name: str, disk: Path | None = None) -> bytes | None:
        """A file of the data stick (ext4), read on this machine while the guest is off (debugfs: no mount)."""
        raw = self._raw(disk or self.data_disk)
        r = subprocess.run(["debugfs", "-R", f"cat /{name}", str(raw)], capture_output=True)
        return r.stdout if r.returncode == 0 and b"File not found" not in r.stderr else None

    def stick_fsck(self, disk: Path | None = None) -> tuple[int, str]:
        """``e2fsck -fn`` of the data stick (read-only check): 0 when the file system needs no repair."""
        raw = self._raw(disk or self.data_disk)
        r = subprocess.run(["e2fsck", "-fn", str(raw)], capture_output=True, text=True)
        return r.returncode, r.stdout + r.stderr

    def _raw(self, disk: Path | None) -> Path:
        if disk is None:
            raise GuestError("this machine has no data stick")
        if self.proc is not None:
            raise GuestError("read a stick only while the machine is off")
        raw = self.folder / f"{disk.stem}.raw"
        subprocess.run(["qemu-img", "convert", "-O", "raw", str(disk), str(raw)], check=True)
        return raw

    def detach_data_stick(self) -> None:
        """The data stick left out at the next boot (it keeps what it holds)."""
        self._data_plugged = False

    def attach_data_stick(self) -> None:
        self._data_plugged = True

    # ---- power
    def command(self) -> list[str]:
        accel = os.environ.get("KIOSK_VM_ACCEL", "tcg") if self.image.arch == "amd64" else "tcg"
        cmd = [
            *QEMU[self.image.arch],
            "-accel",
            accel,
            "-m",
            str(self.memory_mb),
            "-smp",
            str(self.cpus),
            # only the devices named here (no default NIC, CD drive or parallel port); the standard VGA (bochs-drm in
            # the guest: a KMS device for SDL's kmsdrm driver)
            "-nodefaults",
            # a reboot from inside stops QEMU (as a power-off would): the test switches the table on again, so
            # every boot is one the test saw coming (wait_off, then boot)
            "-no-reboot",
            *self._display(),
            "-display",
            "none",
            "-kernel",
            str(self.image.kernel),
            "-initrd",
            str(self.image.initrd),
            "-append",
            (self.image.cmdline + " " + self.cmdline_extra).strip(),
            "-drive",
            f"file={self.root_disk},format=qcow2,if=virtio",
            "-device",
            "qemu-xhci,id=xhci",
            "-device",
            "usb-tablet,bus=xhci.0,id=tablet",
            "-chardev",
            f"socket,id=console,path={self.folder / 'console.sock'},server=on,wait=off",
            "-serial",
            "chardev:console",
            "-chardev",
            f"socket,id=shell,path={self.folder / 'shell.sock'},server=on,wait=off",
            *self._shell_port(),
            "-qmp",
            f"unix:{self.folder / 'qmp.sock'},server=on,wait=off",
        ]
        if self.data_disk is not None and self._data_plugged:
            cmd += [
                "-drive",
                f"if=none,id=datastick,file={self.data_disk},format=qcow2",
                "-device",
                "usb-storage,bus=xhci.0,drive=datastick,id=datastick-dev,removable=on,serial=KIOSKDATA01",
            ]
        if self.guestfwd:
            cmd += ["-nic", f"user,model=virtio-net-pci,restrict=on,guestfwd={self.guestfwd}"]
        else:
            cmd += ["-nic", "none"]
        return cmd

    def _display(self) -> list[str]:
        """The screen: a PC's standard VGA, the Arm machine's bochs display (both bochs-drm in the guest: a KMS device
        with a plain framebuffer, as a Pi's vc4 gives SDL's kmsdrm driver)."""
        return ["-vga", "std"] if self.image.arch == "amd64" else ["-device", "bochs-display"]

    def _shell_port(self) -> list[str]:
        """The test's shell: a PC's second serial port; the Arm virt machine has one UART, so a virtio console."""
        if self.image.arch == "amd64":
            return ["-serial", "chardev:shell"]
        return ["-device", "virtio-serial-pci", "-device", "virtconsole,chardev=shell"]

    def boot(self, timeout: float = 300) -> None:
        """Power on; returns once the test's shell answers (systemd is up: the kiosk may still be starting)."""
        if self.proc is not None:
            raise GuestError("the machine is already on")
        for name in ("console.sock", "shell.sock", "qmp.sock"):
            (self.folder / name).unlink(missing_ok=True)
        self.boots += 1
        deadline = time.monotonic() + timeout
        self.proc = subprocess.Popen(
            self.command(),
            stdin=subprocess.DEVNULL,
            stdout=open(self.folder / "qemu.log", "ab"),  # noqa: SIM115 (the child keeps it)
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent,  # noqa: PLW1509 (prctl only: no lock taken between fork and exec)
        )
        self.console = _Serial(self.folder / "console.sock", self.folder / "console.log")
        self.tty = _Serial(self.folder / "shell.sock", self.folder / "shell.log")
        try:
            self.console.connect(deadline)
            self.tty.connect(deadline)
            self._connect_qmp(deadline)
            for stick in self.sticks.values():
                self._device_add(stick)
            self._login(deadline)
        except BaseException:
            self.power_cut()
            raise

    def _connect_qmp(self, deadline: float) -> None:
        from qemu.qmp.legacy import QEMUMonitorProtocol

        while True:
            try:
                q = QEMUMonitorProtocol(str(self.folder / "qmp.sock"))
                q.connect(negotiate=True)
                break
            except Exception:  # the socket is not there yet
                if time.monotonic() > deadline or (self.proc is not None and self.proc.poll() is not None):
                    raise
                time.sleep(0.05)
        q.settimeout(60)
        self.qmp = q

    def _login(self, deadline: float) -> None:
        assert self.tty is not None
        start = len(self.tty.data)
        # agetty logs root in by itself (what is sent before agetty opens the port is lost, so wait for its line);
        # then poke until the shell answers (the line discipline keeps what is typed while bash starts)
        self.tty.wait(re.compile(rb"\(automatic login\)"), start, deadline)
        pattern = re.compile(rb"@@READY(\d+)@@")
        while True:
            self.tty.send(
                "\nstty -echo; PS1=; PS2=; export PAGER=cat SYSTEMD_PAGER= TERM=dumb; echo @@READY$((6*7))@@\n"
            )
            try:
                self.tty.wait(pattern, start, min(deadline, time.monotonic() + 10))
                return
            except GuestError:
                if time.monotonic() > deadline:
                    raise GuestError(f"no shell on the second serial port in time\n{self.console_tail()}") from None

    def power_cut(self) -> None:
        """The plug pulled: QEMU killed at once, no shutdown, nothing flushed by the guest."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        self._closed()

    def shutdown(self, timeout: float = 180) -> None:
        """A clean power-off from inside (``systemctl poweroff``), waited for."""
        if self.proc is None:
            return
        assert self.tty is not None
        with contextlib.suppress(GuestError):
            self.tty.send("systemctl poweroff\n")
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.power_cut()
            raise GuestError(f"the machine did not power off in time\n{self.console_tail()}") from None
        self._closed()

    def rebooted(self, timeout: float = 600) -> None:
        """The guest rebooted by itself (an update, read-only mode switched): wait for it, then switch on again."""
        self.wait_off(timeout)
        self.boot()

    def wait_off(self, timeout: float = 600) -> None:
        """Wait for the guest to power itself off or reboot (``-no-reboot``: either stops QEMU)."""
        if self.proc is None:
            return
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.power_cut()
            raise GuestError(f"the machine did not reboot or power off in time\n{self.console_tail()}") from None
        self._closed()

    def _closed(self) -> None:
        if self.qmp is not None:
            with contextlib.suppress(Exception):
                self.qmp.close()
        self.qmp = None
        for s in (self.console, self.tty):
            if s is not None:
                s.close()
        self.proc = None

    def __enter__(self) -> Machine:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.power_cut()

    # ---- the test's shell
    def shell(self, command: str, timeout: float = 120, check: bool = False) -> tuple[int, str]:
        """Run ``command`` in the guest's root shell; its exit code and output (stdout and stderr)."""
        if self.tty is None or self.proc is None:
            raise GuestError("the machine is off")
        nonce = secrets.token_hex(4)
        start = len(self.tty.data)
        self.tty.send(f"( {command} ) </dev/null 2>&1; echo @@{nonce}:$?@@\n")
        m = self.tty.wait(re.compile(rb"@@" + nonce.encode() + rb":(\d+)@@"), start, time.monotonic() + timeout)
        out = self.tty.data[start : m.start()].decode(errors="replace").replace("\r", "").strip("\n")
        rc = int(m.group(1))
        if check and rc != 0:
            raise GuestError(f"{command!r} exited {rc}:\n{out}")
        return rc, out

    def out(self, command: str, timeout: float = 120) -> str:
        """``command``'s output; it must succeed."""
        return self.shell(command, timeout, check=True)[1]

    def wait_until(self, what: str, pred: Callable[[], bool], timeout: float, every: float = 1.0) -> None:
        """Poll ``pred`` (which asks the guest) until it holds; fail with ``what`` and the console's tail."""
        deadline = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > deadline:
                raise GuestError(f"not in time: {what}\n{self.console_tail()}")
            time.sleep(every)

    def unit(self, name: str) -> dict[str, str]:
        """``systemctl show`` of a unit, as a dict."""
        text = self.out(f"systemctl show {shlex.quote(name)} --no-pager")
        return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)

    def wait_unit_status(self, name: str, status: str, timeout: float = 300) -> dict[str, str]:
        """Wait until the unit is active with ``status`` in its StatusText (sd_notify STATUS=)."""
        seen: dict[str, str] = {}

        def ready() -> bool:
            nonlocal seen
            seen = self.unit(name)
            return seen.get("ActiveState") == "active" and status in seen.get("StatusText", "")

        try:
            self.wait_until(f"{name} active with status {status!r}", ready, timeout, every=2.0)
        except GuestError as exc:
            journal = self.shell(f"journalctl -b -u {shlex.quote(name)} --no-pager | tail -40")[1]
            raise GuestError(
                f"{exc}\nlast seen: {seen.get('ActiveState')} {seen.get('StatusText')!r}\n{journal}"
            ) from None
        return seen

    def journal(self, unit: str = "kiosk.service", lines: int = 200) -> str:
        return self.shell(f"journalctl -b -u {shlex.quote(unit)} --no-pager -o cat | tail -{lines}")[1]

    def console_tail(self, lines: int = 30) -> str:
        if self.console is None:
            return ""
        text = self.console.data.decode(errors="replace").replace("\r", "")
        return "--- console ---\n" + "\n".join(text.splitlines()[-lines:])

    # ---- what a person sees and does
    def screendump(self, path: Path) -> Path:
        """The framebuffer as it is now, a PNG."""
        self.qmp.cmd("screendump", filename=str(path), format="png")
        return path

    def tap(self, x: float, y: float, hold_s: float = 0.15) -> None:
        """A touch at (x, y) in 0..1 of the screen (y from the top), through the guest's kernel (usb-tablet)."""
        ax, ay = round(x * TABLET_MAX), round(y * TABLET_MAX)
        move = [
            {"type": "abs", "data": {"axis": "x", "value": ax}},
            {"type": "abs", "data": {"axis": "y", "value": ay}},
        ]
        self.qmp.cmd("input-send-event", events=move)
        self.qmp.cmd("input-send-event", events=[{"type": "btn", "data": {"down": True, "button": "left"}}])
        time.sleep(hold_s)  # a finger's contact time: the guest samples the tablet at its own pace
        self.qmp.cmd("input-send-event", events=[{"type": "btn", "data": {"down": False, "button": "left"}}])

    def plug(self, stick: Stick) -> None:
        """Plug a USB stick in (now if the machine runs, and at every boot until pulled out)."""
        self.sticks[stick.id] = stick
        if self.proc is not None:
            self._device_add(stick)

    def _device_add(self, stick: Stick) -> None:
        self.qmp.cmd(
            "blockdev-add",
            **{
                "node-name": f"{stick.id}-node",
                "driver": stick.fmt,
                "file": {"driver": "file", "filename": str(stick.file)},
            },
        )
        self.qmp.cmd(
            "device_add", driver="usb-storage", bus="xhci.0", drive=f"{stick.id}-node", id=stick.id, removable=True
        )

    def pull(self, stick_id: str) -> None:
        """Pull a USB stick out."""
        self.sticks.pop(stick_id, None)
        if self.proc is None:
            return
        self.qmp.cmd("device_del", id=stick_id)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            ev = self.qmp.pull_event(wait=1.0)
            if ev and ev.get("event") == "DEVICE_DELETED" and ev.get("data", {}).get("device") == stick_id:
                break
        self.qmp.cmd("blockdev-del", **{"node-name": f"{stick_id}-node"})
