"""Runs every command of the organiser's guide (``docs/owner/events.md``) as written, on a throwaway copy of this
machine: the child of ``tests/test_docs.py::test_every_command_of_the_events_guide_runs``, started in its own mount
and network namespaces (``unshare --mount --net``) as root.

The copy: ``/etc``, ``/opt``, ``/var``, ``/run`` and ``/root`` are overlays whose changes land in the test's folder
(the real ones are never written), the network is a loopback of its own (port 1883 and 8080 are free, whatever runs
on the machine), the checkout is a copy of the repository's files in ``sushi-kiosk``; pip installs it for real, the
dependencies it would download taken from the test's own environment (``PYTHONPATH``). Four programs are stand-ins,
as a container has no systemd and the test installs no packages: ``sudo`` (root already: it runs the command),
``apt-get`` (each package must be one apt knows; nothing is installed: Mosquitto, Python and curl are here),
``systemctl`` (``restart mosquitto`` starts Debian's broker with its own config; ``enable --now`` and ``start`` run a
unit's ``ExecStart`` as systemd would, with its ``EnvironmentFile``, ``LoadCredential`` and ``StateDirectory``;
``status`` says whether it runs) and ``journalctl -u`` (that unit's output). Everything else is the real program.

The guide's code blocks (```sh) run in order, each with ``bash -e`` in a terminal of its own (a pty: the programs
that ask for a password are answered: ``mosquitto_passwd`` with the one the guide writes for the event board,
``curl -u`` with the organisers'); a command ending ``# runs until Ctrl-C`` keeps running while the blocks that
start ``# in a second terminal`` run, and gets its Ctrl-C before the next block. ``<id>`` is a game a table
played: after the event board starts as a service, a table (the kiosk's own link, as ``table-1`` with its password)
plays one game, which must come back receipted. Prints one JSON line: the blocks run and what was checked.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "owner" / "events.md"
MQTT_PASSWORD = "the eventboard password from step 1"
ADMIN_PASSWORD = "a password for the organisers"
OVERLAID = ("/etc", "/opt", "/var", "/run", "/root")
COPIED = ("kiosk", "hardware", "layouts", "systemd", "licenses", "pyproject.toml", "README.md", "babel.cfg")

SUDO = """#!/bin/sh
# the test's stand-in: root already; sudo's own options are dropped
while [ $# -gt 0 ]; do case "$1" in -u) shift 2;; -*) shift;; *) break;; esac; done
exec "$@"
"""

APT_GET = """#!/bin/sh
# the test's stand-in: "update" does nothing; "install" checks that apt knows each package, installs nothing
[ "$1" = update ] && exit 0
[ "$1" = install ] || { echo "apt-get stand-in: only update and install" >&2; exit 1; }
shift
for p in "$@"; do
    case "$p" in -*) continue;; esac
    apt-cache show "$p" >/dev/null 2>&1 || { echo "E: Unable to locate package $p" >&2; exit 100; }
done
"""

SYSTEMCTL = r'''#!{python}
"""The test's stand-in for systemctl (see tests/events_guide_child.py)."""
import os, re, shlex, shutil, signal, socket, subprocess, sys, time
from pathlib import Path

STATE = Path("/run/stand-in-systemd")
STATE.mkdir(parents=True, exist_ok=True)


def running(unit):
    pid = STATE / f"{{unit}}.pid"
    try:
        os.kill(int(pid.read_text()), 0)
        return True
    except (OSError, ValueError):
        return False


def stop(unit):
    pid = STATE / f"{{unit}}.pid"
    if running(unit):
        p = int(pid.read_text())
        os.kill(p, signal.SIGTERM)
        for _ in range(200):
            try:
                os.kill(p, 0)
            except OSError:
                break
            time.sleep(0.05)
    pid.unlink(missing_ok=True)


def wait_port(port):
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    sys.exit(f"systemctl stand-in: nothing listens on {{port}}")


def mosquitto():
    stop("mosquitto")
    run = Path("/run/mosquitto")
    run.mkdir(exist_ok=True)
    for d in (run, Path("/var/lib/mosquitto"), Path("/var/log/mosquitto")):
        d.mkdir(parents=True, exist_ok=True)
        shutil.chown(d, "mosquitto", "mosquitto")
    log = open(STATE / "mosquitto.log", "ab")
    p = subprocess.Popen(["/usr/sbin/mosquitto", "-c", "/etc/mosquitto/mosquitto.conf"], stdin=subprocess.DEVNULL,
                         stdout=log, stderr=log, start_new_session=True)
    (STATE / "mosquitto.pid").write_text(str(p.pid))
    wait_port(1883)


def unit_file(unit):
    text = Path(f"/etc/systemd/system/{{unit}}.service").read_text()
    text = re.sub(r"\\\n", " ", text)
    keys = {{}}
    for line in text.splitlines():
        m = re.match(r"(\w+)=(.*)", line.strip())
        if m:
            keys.setdefault(m.group(1), []).append(m.group(2))
    return keys


def start(unit):
    if unit == "mosquitto":
        return mosquitto()
    keys = unit_file(unit)
    env = dict(os.environ)
    for f in keys.get("EnvironmentFile", []):
        for line in Path(f.lstrip("-")).read_text().splitlines():
            m = re.match(r"\s*([A-Za-z_]\w*)=(.*)", line)
            if m and not line.lstrip().startswith("#"):
                env[m.group(1)] = m.group(2).strip().strip('"')
    creds = STATE / f"{{unit}}.credentials"
    creds.mkdir(mode=0o700, exist_ok=True)
    for c in keys.get("LoadCredential", []):
        name, _, path = c.partition(":")
        (creds / name).write_bytes(Path(path).read_bytes())
    env["CREDENTIALS_DIRECTORY"] = str(creds)
    for d in keys.get("StateDirectory", []):
        Path("/var/lib", d).mkdir(parents=True, exist_ok=True)
    argv = []
    for word in shlex.split(keys["ExecStart"][0]):
        m = re.fullmatch(r"\$\{{(\w+)\}}", word)
        if m:  # systemd: ${{VAR}} is one word
            argv.append(env.get(m.group(1), ""))
        elif re.fullmatch(r"\$(\w+)", word):  # $VAR: split at white space
            argv += env.get(word[1:], "").split()
        else:
            argv.append(re.sub(r"\$\{{(\w+)\}}", lambda m: env.get(m.group(1), ""), word))
    log = open(STATE / f"{{unit}}.log", "ab")
    p = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
    (STATE / f"{{unit}}.pid").write_text(str(p.pid))


args = [a for a in sys.argv[1:] if a not in ("--no-pager", "--quiet", "-q")]
verb, units = args[0], [u.removesuffix(".service") for u in args[1:] if not u.startswith("-")]
if verb == "daemon-reload":
    sys.exit(0)
if verb in ("enable", "start", "restart"):
    if verb == "enable" and "--now" not in args:
        sys.exit(0)
    for u in units:
        stop(u)
        start(u)
    sys.exit(0)
if verb == "stop":
    for u in units:
        stop(u)
    sys.exit(0)
if verb == "status":
    u = units[0]
    ok = running(u)
    print(f"* {{u}}.service\n     Active: {{'active (running)' if ok else 'inactive (dead)'}}")
    sys.exit(0 if ok else 3)
sys.exit(f"systemctl stand-in: {{' '.join(sys.argv[1:])}} is not something the guide should need")
'''

JOURNALCTL = r'''#!{python}
"""The test's stand-in for journalctl -u UNIT [-n N] (see tests/events_guide_child.py)."""
import sys
from pathlib import Path

args = sys.argv[1:]
unit = args[args.index("-u") + 1].removesuffix(".service")
n = int(args[args.index("-n") + 1]) if "-n" in args else 10
lines = (Path("/run/stand-in-systemd") / f"{{unit}}.log").read_text(errors="replace").splitlines()
print("\n".join(lines[-n:]) or "-- No entries --")
'''


def sh(cmd: list[str]) -> None:
    subprocess.run(cmd, check=True)


def isolate(work: Path) -> None:
    """The throwaway copy of the machine (see the module docstring)."""
    sh(["mount", "--make-rprivate", "/"])
    sh(["ip", "link", "set", "lo", "up"])
    for d in OVERLAID:
        upper, scratch = work / "overlay" / d.strip("/") / "upper", work / "overlay" / d.strip("/") / "work"
        upper.mkdir(parents=True)
        scratch.mkdir(parents=True)
        sh(["mount", "-t", "overlay", "overlay", "-o", f"lowerdir={d},upperdir={upper},workdir={scratch}", d])


def stand_ins(work: Path) -> Path:
    bin_dir = work / "stand-ins"
    bin_dir.mkdir()
    python = shutil.which("python3") or sys.executable
    real_python = subprocess.run([python, "-c", "import sys; print(sys.executable)"], capture_output=True, text=True)
    interpreter = real_python.stdout.strip() or sys.executable
    for name, text in (
        ("sudo", SUDO),
        ("apt-get", APT_GET),
        ("systemctl", SYSTEMCTL.format(python=interpreter)),
        ("journalctl", JOURNALCTL.format(python=interpreter)),
    ):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    return bin_dir


def checkout(work: Path) -> Path:
    """``sushi-kiosk``: the repository's files as a checkout has them (no build output, no virtual environment)."""
    dest = work / "sushi-kiosk"
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", *COPIED], capture_output=True, check=True)
    for rel in filter(None, listed.stdout.decode().split("\0")):
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, dest / rel)
    return dest


def dependencies(work: Path) -> Path:
    """A folder with the test environment's installed packages but the kiosk's own and pip's: the event board's
    dependencies as pip would have downloaded them (the namespace has no network)."""
    import sysconfig

    site = Path(sysconfig.get_paths()["purelib"])
    deps = work / "dependencies"
    deps.mkdir()
    own = re.compile(r"^(kiosk|hardware|layouts|sushi_table_kiosk.*|pip|pip-.*|.*\.pth)$")
    for entry in site.iterdir():
        if not own.match(entry.name) and entry.name != "__pycache__":
            (deps / entry.name).symlink_to(entry)
    return deps


def blocks() -> list[str]:
    """The guide's ```sh blocks, in order."""
    return re.findall(r"^```sh\n(.*?)^```", GUIDE.read_text(encoding="utf-8"), re.M | re.S)


class Terminal:
    """A block run by ``bash -e`` in a pty of its own, its password prompts answered."""

    ANSWERS = (
        (re.compile(rb"(Reenter password|Password): *$"), MQTT_PASSWORD),
        (re.compile(rb"Enter host password for user '[^']*': *$"), ADMIN_PASSWORD),
    )

    def __init__(self, script: str, cwd: Path, env: dict[str, str]) -> None:
        self.script = script
        self.out = b""
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: its own session, the pty its controlling terminal (curl asks /dev/tty)
            os.chdir(cwd)
            os.execvpe("bash", ["bash", "-e", "-o", "pipefail", "-c", script], env)

    def pump(self, timeout: float) -> bool:
        """Read what there is (answering prompts) for up to ``timeout`` s; False once the terminal closed."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            return False
        if not data:
            return False
        self.out += data
        tail = self.out[-200:].rstrip(b"\r\n")
        for pattern, answer in self.ANSWERS:
            if pattern.search(tail) and not tail.endswith(b"\x00"):
                time.sleep(0.05)
                os.write(self.fd, answer.encode() + b"\n")
                self.out += b"\x00"  # answered: the same prompt is not answered twice
        return True

    def wait(self, bound: float) -> int:
        """The block's exit status (its terminal read to the end, prompts answered), within ``bound`` s."""
        end = time.monotonic() + bound
        while time.monotonic() < end:
            open_ = self.pump(0.1)
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                while open_ and self.pump(0.05) and select.select([self.fd], [], [], 0)[0]:
                    pass
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
        os.kill(self.pid, signal.SIGKILL)
        raise TimeoutError(f"not finished within {bound} s:\n{self.script}\n{self.text()}")

    def ctrl_c(self) -> None:
        os.write(self.fd, b"\x03")

    def text(self) -> str:
        return self.out.replace(b"\x00", b"").decode(errors="replace")[-4000:]


def http(path: str, bound: float = 60) -> Any:
    end = time.monotonic() + bound
    while True:
        try:
            with urllib.request.urlopen("http://127.0.0.1:8080/" + path, timeout=2) as r:
                return json.loads(r.read())
        except OSError:
            if time.monotonic() > end:
                raise
            time.sleep(0.1)


def play_a_game() -> str:
    """A table as the guide sets one up (step 3): the kiosk's own link to the broker as ``table-1``; one finished
    game, back receipted by the event board. Its id."""
    from datetime import UTC, datetime

    from kiosk.config import EventConfig
    from kiosk.events.contract import new_record
    from kiosk.events.link import EventLink
    from kiosk.events.outbox import Outbox

    settings = EventConfig(
        enabled=True,
        broker="localhost",
        port=1883,
        event="summer-fair",
        table="table-1",
        user="table-1",
        password=MQTT_PASSWORD,
    )
    link = EventLink(settings, Outbox(Path("/run/table-1/outbox.jsonl")))
    link.start()
    players = [
        {"seat": 0, "initials": "ANA", "score": 42, "bot": False, "winner": True},
        {"seat": 1, "initials": None, "score": 17, "bot": True, "winner": False},
    ]
    record = new_record("summer-fair", "table-1", "maki", players, 300.0, finished_at=datetime.now(UTC))
    assert link.publish(record)
    end = time.monotonic() + 60
    while len(link.outbox) and time.monotonic() < end:
        time.sleep(0.1)
    link.stop()
    assert not len(link.outbox), f"the game was not receipted: {link.state} {link.error}"
    return str(record["id"])


def main() -> None:
    work = Path(sys.argv[1])
    isolate(work)
    bin_dir = stand_ins(work)
    cwd = work / "home"
    cwd.mkdir()
    checkout(cwd)
    env = {
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "HOME": "/root",
        "TERM": "dumb",
        "LANG": "C.UTF-8",
        # pip installs the checkout for real; what it would download comes from the test's own environment
        "PIP_NO_INDEX": "1",
        "PIP_NO_DEPS": "1",
        "PIP_NO_BUILD_ISOLATION": "0",  # pip's way to say --no-build-isolation: setuptools from the same place
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PYTHONPATH": str(dependencies(work)),
    }
    ran: list[str] = []
    record_id = ""
    foreground: Terminal | None = None
    for block in blocks():
        second = block.lstrip().startswith("# in a second terminal")
        if foreground is not None and not second:
            foreground.ctrl_c()
            code = foreground.wait(30)
            assert code in (0, 130), f"Ctrl-C: exit {code}\n{foreground.text()}"
            foreground = None
        if "<id>" in block:
            assert record_id, "a game id is needed before the block that names one"
            block = block.replace("<id>", record_id)
        lines = block.splitlines()
        long_running = [i for i, line in enumerate(lines) if line.rstrip().endswith("# runs until Ctrl-C")]
        if long_running:
            term = Terminal(block, cwd, env)
            http("api/status")  # it answers
            term.pump(0.1)
            foreground = term
            ran.append(block)
            continue
        started = time.monotonic()
        term = Terminal(block, cwd, env)
        code = term.wait(240)
        assert code == 0, f"exit {code}:\n{block}\n---\n{term.text()}"
        print(f"{time.monotonic() - started:6.1f} s  {lines[0][:90]}", file=sys.stderr)
        ran.append(block)
        if "enable --now kiosk-eventboard" in block:
            http("api/status")
            record_id = play_a_game()
    assert foreground is None
    board = http("api/board")
    status = http("api/status")
    result = {
        "blocks": len(ran),
        "games": board["games"],
        "tables": [t["table"] for t in board["tables"]],
        "title": board["board"]["title"],
        "receipts": status.get("receipts"),
    }
    subprocess.run([str(bin_dir / "systemctl"), "stop", "kiosk-eventboard", "mosquitto"], check=False)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
