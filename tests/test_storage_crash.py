"""Crash tests: a child process writes, the parent kills it with SIGKILL at random moments, 200 times each, and
checks after every kill that everything the child acknowledged is on disk and loads.

* High scores: the child adds scores in a loop and prints each acknowledged entry; after every kill the file
  opens (no quarantine) and holds every acknowledged entry with its name and score.
* Game journal: the child plays games (resuming the interrupted one at start, like the kiosk), printing each
  acknowledged action; after every kill the journal replays to the position of the last acknowledged action (or
  the one after it, if the kill came between fsync and print), identical to a from-scratch run of the same
  deterministic policy. A kill inside the write of an action that reshuffles can leave the action's line without
  its chance record; that action was not acknowledged and the replay (``replay_journal``, as at resume) drops it.
  The same tear is reproduced byte for byte in ``test_storage_journal.py``.

The moment of the kill is random: mostly while the child is writing (after a drawn number of acknowledgements,
0 to 2, and a random pause), sometimes while it is still starting up (opening, cleaning temporary files, cutting
a torn tail, archiving). Waiting for those acknowledgements (not for a time) is what makes every run test
something however slow the machine: the parent only ever waits for the child's lines, with no bound of its own
but the test's pytest-timeout. Children are forked by a helper process
that has already imported everything (``storage_child.py zygote``), so 400 kills do not pay 400 interpreter
start-ups; each child is still a separate process, killed with SIGKILL and reaped before the parent looks.
SIGKILL cannot model a power cut (the page cache survives it); durability across power loss rests on the fsync
of the file and of its folder before a call returns, which is what the code does.
"""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import storage_child

from kiosk.engine import replay
from kiosk.storage import HighScores, load_journal, replay_journal

#: 200 real SIGKILLs per test, each against a child process: the slow tier (about half a minute of CPU)
pytestmark = pytest.mark.slow

KILLS = 200
CHILD = Path(__file__).with_name("storage_child.py")
#: How often a long wait notes on stderr what it still waits for (a note, never a bound).
NOTE_EVERY = 10.0


class Zygote:
    """A helper process (``storage_child.py zygote``) that forks the children: each child is a separate process
    killed with SIGKILL, without paying an interpreter start-up per kill. Lines are read from one pipe; only
    complete lines count as acknowledged."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(CHILD), "zygote"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.buf = b""
        self.lines: list[str] = []
        self.wait_for("ZYGOTE")

    def pump(self) -> None:
        while True:
            try:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
            except BlockingIOError:
                return
            if not chunk:
                return
            self.buf += chunk
            *done, self.buf = self.buf.split(b"\n")
            self.lines += [d.decode() for d in done]

    def wait_for(self, word: str, count: int = 1) -> str | None:
        """The ``count``-th line starting with ``word`` (None for ``count`` 0), waiting for it as long as it takes:
        the test's pytest-timeout ends a hang, and the stderr note says what was awaited."""
        since = next_note = time.monotonic()
        next_note += NOTE_EVERY
        while True:
            self.pump()
            seen = [line for line in self.lines if line.startswith(word)]
            if len(seen) >= count:
                return seen[count - 1] if count else None
            if self.proc.poll() is not None:
                raise AssertionError(f"zygote exited: {self.proc.stderr.read().decode()}")
            if time.monotonic() >= next_note:
                waited = time.monotonic() - since
                print(f"still waiting for {word!r} x{count} after {waited:.0f} s: {self.lines[-5:]}", file=sys.stderr)
                next_note += NOTE_EVERY
            select.select([self.proc.stdout], [], [], 0.1)  # until the pipe has more (or 0.1 s: look again)

    def run(self, *args: str) -> int:
        self.lines = []
        self.proc.stdin.write(("RUN " + " ".join(args) + "\n").encode())
        self.proc.stdin.flush()
        pid = self.wait_for("PID ")
        assert pid is not None
        return int(pid.split()[1])

    def kill(self, pid: int) -> list[str]:
        os.kill(pid, signal.SIGKILL)
        self.proc.stdin.write(f"WAIT {pid}\n".encode())
        self.proc.stdin.flush()
        dead = self.wait_for(f"DEAD {pid}")
        assert dead is not None and dead.split()[2] == str(int(signal.SIGKILL)), (
            f"child died on its own: {self.lines[-5:]}"
        )
        return list(self.lines)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()  # it ends at the end of its input (bounded by the test's pytest-timeout)
        self.proc.stdout.close()
        self.proc.stderr.close()


@pytest.fixture
def zygote():
    z = Zygote()
    yield z
    z.close()


def run_and_kill(zygote: Zygote, rng: random.Random, *args: str) -> tuple[list[str], int]:
    """Start a child, kill it at a random moment; its lines, and how many acknowledgements the parent waited for
    before the kill (the child may have printed more). The draws come from ``rng`` alone, whatever the timing.

    The pauses pick the moment of the kill: they wait for nothing (what the child did by then is what the test
    looks at, whatever it is), so a slower machine moves the kill, never breaks the test."""
    pid = zygote.run(*args)
    waited = 0
    if rng.random() < 0.15:
        time.sleep(rng.uniform(0.0, 0.02))  # somewhere in start-up (open, clean-up, resume, archive)
    else:
        zygote.wait_for("READY")
        waited = rng.randrange(3)  # then while writing: after 0, 1 or 2 acknowledged writes, ...
        zygote.wait_for("ACK ", waited)
        time.sleep(rng.uniform(0.0, 0.06))  # ... somewhere in the next writes
    return zygote.kill(pid), waited


def test_scores_survive_sigkill(tmp_path, zygote):
    path = tmp_path / "scores.json"
    rng = random.Random(7)
    acknowledged: dict[int, tuple[str, int]] = {}
    mid_write = 0  # kills that left a temporary file behind, i.e. landed inside a write
    waited = 0  # acknowledgements the parent waited for before its kills (the least it can have seen)
    for kill in range(KILLS):
        lines, n = run_and_kill(zygote, rng, "scores", str(path))
        waited += n
        for line in lines:
            if line.startswith("ACK "):
                _, entry_id, name, score = line.split()
                acknowledged[int(entry_id)] = (name, int(score))
        mid_write += bool(list(tmp_path.glob(".scores.json.tmp-*")))
        with HighScores(path, lower_is_better={"crash": False}) as scores:
            assert scores.quarantined is None, f"kill {kill}: the file did not load"
            assert scores.skipped == 0
            stored = {e.id: (e.name, e.score) for e in scores.top("crash", n=10**9)}
        missing = {i: v for i, v in acknowledged.items() if stored.get(i) != v}
        assert not missing, f"kill {kill}: acknowledged entries lost: {missing}"
        assert not list(tmp_path.glob(".scores.json.tmp-*")), "the parent's open should remove stale temp files"
    assert len(acknowledged) >= waited > KILLS // 4, "the kills came too early to test anything"
    print(f"{len(acknowledged)} acknowledged entries, {mid_write} of {KILLS} kills inside a write")


def test_journal_replays_to_last_acknowledged_action(tmp_path, zygote):
    key = storage_child.crash_game_key()
    specs = storage_child.specs()
    spec = specs[key]
    rng = random.Random(11)
    acked: dict[str, int] = {}
    resumed = 0
    torn = 0
    dropped = 0  # kills that left an action without its chance record
    waited = 0  # acknowledgements the parent waited for before its kills (the least it can have seen)
    acks = 0  # acknowledgements seen
    for kill in range(KILLS):
        lines, n = run_and_kill(zygote, rng, "journal", str(tmp_path), key)
        waited += n
        acks += sum(line.startswith("ACK ") for line in lines)
        touched = set()
        for line in lines:
            word, *rest = line.split()
            if word == "ACK":
                acked[rest[0]] = int(rest[1])
                touched.add(rest[0])
            elif word == "RESUME":
                resumed += 1
                assert int(rest[1]) >= acked.get(rest[0], 0), f"kill {kill}: resumed behind an acknowledged action"
        for game_id in touched:
            (path,) = list(tmp_path.glob(f"*/{game_id}.jsonl"))
            loaded = load_journal(path)
            assert loaded.header is not None and not loaded.damaged
            torn += bool(loaded.ignored_bytes)
            state, acknowledged = replay_journal(loaded, spec)
            dropped += acknowledged is not loaded
            n = acknowledged.actions
            assert acked[game_id] <= n <= acked[game_id] + 1, (
                f"kill {kill}: {n} actions on disk, {acked[game_id]} acked"
            )
            h = loaded.header
            assert replay(spec, h["players"], h["seed"], acknowledged.records).fingerprint() == state.fingerprint()
            expected = storage_child.play_to(spec, h["players"], h["seed"], n)
            assert state.fingerprint() == expected.fingerprint(), f"kill {kill}: replay differs from the game"
    assert acks >= waited > KILLS // 4, "the kills came too early to test anything"
    assert sum(acked.values()) > KILLS // 4
    assert resumed > KILLS // 4, "the interrupted game was rarely resumed"
    print(
        f"{key}: {sum(acked.values())} acknowledged actions in {len(acked)} games, {resumed} resumes, "
        f"{torn} torn tails, {dropped} actions without their chance record"
    )
