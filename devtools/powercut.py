"""Power cuts on the booted table: the machine stopped without shutdown (QEMU killed) at a random moment while a
game is played and scores are saved, then switched on again and checked. Shared by the system test (10 cuts) and
the benchmark (``python -m benchmarks --only powercuts``: as many as asked), through :class:`PowerCuts`.

The writing is the kiosk's own: a game's journal synced after every move (``GameJournal.sync``) and high scores
added (``HighScores.add``), by the installed app's modules as the kiosk user on the real data stick (ext4,
``data=journal``), with the kiosk's unit stopped meanwhile so that one process owns the files, as in the kiosk. A
line is printed on the serial console after each call returns, which is when the screen says "saved": every score
so confirmed must be there after the boot, and the interrupted game must be offered to resume by the real kiosk.
The writing starts by reading the scores the last boot kept (the same store, before it writes): that is the check
of the cut before it, and :meth:`PowerCuts.finish` reads them once more after the last.
"""

from __future__ import annotations

import ast
import base64
import random
import re
import time
from dataclasses import dataclass, field

from devtools.guest import PYTHON, STATE
from devtools.vm import Machine

WORKLOAD = """
import random, sys
from pathlib import Path
from kiosk.games import GAMES
from kiosk.storage.journal import SavedGames
from kiosk.storage.scores import HighScores
st, seed, n = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
hs = HighScores.open_or_unavailable(st / "scores.json")
print("@@kept %s %r@@" % (hs.available, sorted((e.name, e.score) for e in hs.top("maki", n=100000))), flush=True)
if sys.argv[4:] == ["read"]:
    sys.exit(0)
saved = SavedGames.open_or_unavailable(st / "games", specs=GAMES)
while True:
    seed = rng.randrange(10**6)
    state = GAMES["makoto"].new_game(players=3, seed=seed)
    journal = saved.start("makoto", 3, seed, state=state, seats=[{"kind": "human"}] * 3)
    print("@@game %s@@" % journal.id, flush=True)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        journal.sync(state)
        print("@@move %s %d@@" % (journal.id, len(journal.records)), flush=True)
        if rng.random() < 0.15:
            break  # the guests walk away mid-game: an unfinished game for the next start (played on below)
        if rng.random() < 0.3:
            entry = hs.add("maki", "P%02d" % (n % 100), 1000 + n)
            print("@@confirmed %s %d@@" % (entry.name, entry.score), flush=True)
            n += 1
    if state.is_over():
        journal.finish(state.outcome())
        print("@@finished %s@@" % journal.id, flush=True)
"""
KEPT = re.compile(rb"@@kept (\w+) (\[.*?\])@@")


@dataclass
class Cut:
    """One power cut: what was confirmed before it, and the games being written when it came."""

    confirmed: list[tuple[str, int]] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    #: the game being played when the plug was pulled (at least one move on the card, not finished), if any
    interrupted: str | None = None
    #: its journal's records as the last line seen said (each printed after the records were synced)
    records: int = 0
    after_s: float = 0.0


class PowerCuts:
    """Cuts on one table, one after another: ``boot()``, then ``cut()`` as often as wanted, then ``finish()``.
    Every check fails with an AssertionError naming what was lost."""

    def __init__(self, machine: Machine, rng: random.Random) -> None:
        self.machine = machine
        self.rng = rng
        self.confirmed: list[tuple[str, int]] = []
        self.cuts: list[Cut] = []

    def boot(self) -> None:
        self.machine.boot()
        self.machine.wait_unit_status("kiosk.service", "attract mode")

    def cut(self) -> Cut:
        """Write, pull the plug at a random moment after the first move, switch on again and check."""
        cut = self._cut_while_writing()
        self.confirmed += cut.confirmed
        self.cuts.append(cut)
        self._check_boot(cut)
        return cut

    def finish(self) -> None:
        """The scores after the last cut (each cut's own writing checked the boot before it)."""
        self._stop_kiosk()
        text = self.machine.out(f"cd {STATE} && {self._workload('read')}")
        self._check_kept(text.encode())

    # ---- the steps
    def _stop_kiosk(self) -> None:
        self.machine.out("systemctl stop kiosk.service")

    def _workload(self, *args: str) -> str:
        """The workload written into the guest; the command that runs it as the kiosk user (``read``: only read)."""
        script = base64.b64encode(WORKLOAD.encode()).decode()
        self.machine.out(f"echo {script} | base64 -d > /tmp/workload.py && chmod a+r /tmp/workload.py")
        who = f"setpriv --reuid=kiosk --regid=kiosk --init-groups env HOME={STATE}"
        seed = self.rng.randrange(10**6)
        return f"{who} {PYTHON} /tmp/workload.py {STATE} {seed} {len(self.confirmed)} {' '.join(args)}"

    def _check_kept(self, text: bytes) -> None:
        m = KEPT.search(text)
        assert m is not None, f"the scores were not read: {text[-300:]!r}"
        assert m.group(1) == b"True", f"the scores file could not be opened: {text[-300:]!r}"
        missing = set(self.confirmed) - set(ast.literal_eval(m.group(2).decode()))
        assert not missing, f"confirmed scores lost: {sorted(missing)[:5]}"

    def _cut_while_writing(self) -> Cut:
        machine = self.machine
        assert machine.tty is not None
        self._stop_kiosk()
        command = f"cd {STATE} && {self._workload()}\n"
        start = len(machine.tty.data)
        machine.tty.send(command)
        machine.tty.wait(re.compile(rb"@@move "), start, time.monotonic() + 120)
        delay = self.rng.uniform(0.5, 8.0)
        time.sleep(delay)  # the random moment of the cut: wall-clock on purpose (the guest runs on regardless)
        machine.power_cut()
        data = bytes(machine.tty.data[start:])
        self._check_kept(data)  # what the boot before this cut kept
        text = data.decode(errors="replace")
        games = re.findall(r"@@game (\S+)@@", text)
        last = games[-1] if games else None
        moved = last is not None and f"@@move {last} " in text and f"@@finished {last}@@" not in text
        records = [int(n) for n in re.findall(rf"@@move {last} (\d+)@@", text)] if moved else []
        return Cut(
            confirmed=[(m.group(1), int(m.group(2))) for m in re.finditer(r"@@confirmed (\S+) (\d+)@@", text)],
            games=games,
            interrupted=last if moved else None,
            records=records[-1] if records else 0,
            after_s=round(delay, 1),
        )

    def _check_boot(self, cut: Cut) -> None:
        """Switched on after a cut: the kiosk starts on the stick and offers the interrupted game."""
        machine = self.machine
        self.boot()
        assert machine.out(f"findmnt -n -o FSTYPE {STATE}") == "ext4", "the data stick is mounted"
        assert "EXT4-fs error" not in machine.out("journalctl -k -b --no-pager -o cat")
        if cut.interrupted:
            offer = re.compile(r"offering to resume the makoto game (\S+)")
            machine.wait_until(
                "the kiosk offers a game to resume", lambda: offer.search(machine.journal()) is not None, 120
            )
            offered = offer.findall(machine.journal())[-1]
            seen = {game for c in self.cuts for game in c.games}
            # The serial console lags the guest (its last lines may never have left the machine): the game seen last
            # may have ended after it, and a newer one, never seen here, be the one the kiosk offers. A game seen
            # here before the last one must never be offered (the newest would be lost); the last one's journal must
            # hold every record its last line reported, wherever the kiosk put it (resumable, or archived as ended).
            assert offered == cut.interrupted or offered not in seen, (
                f"the kiosk offers {offered}, a game older than {cut.interrupted}, interrupted by the cut"
            )
            lines = machine.out(
                f"cat {STATE}/games/active/{cut.interrupted}.jsonl {STATE}/games/archive/"
                f"{cut.interrupted}.jsonl 2>/dev/null | wc -l"
            )
            assert int(lines) >= cut.records, f"{cut.interrupted}: {lines} lines kept, {cut.records} records synced"
