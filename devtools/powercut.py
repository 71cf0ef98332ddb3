"""Power cuts on the booted table: the machine stopped without shutdown (QEMU killed) at a random moment while a
game is played and scores are saved, then switched on again and checked. Shared by the system test (10 cuts) and
the benchmark (``python -m benchmarks --only powercuts``: as many as asked).

The writing is the kiosk's own: a game's journal synced after every move (``GameJournal.sync``) and high scores
added (``HighScores.add``), by the installed app's modules as the kiosk user on the real data stick (ext4,
``data=journal``), with the kiosk's unit stopped meanwhile so that one process owns the files, as in the kiosk. A
line is printed on the serial console after each call returns, which is when the screen says "saved": every score
so confirmed must be there after the boot, and the interrupted game must be offered to resume by the real kiosk.
"""

from __future__ import annotations

import ast
import random
import re
import time
from dataclasses import dataclass, field

from devtools.guest import PYTHON, STATE, as_kiosk
from devtools.vm import Machine

WORKLOAD = """
import random, sys
from pathlib import Path
from kiosk.games import GAMES
from kiosk.storage.journal import SavedGames
from kiosk.storage.scores import HighScores
st = Path(%(state)r)
rng = random.Random(%(seed)d)
hs = HighScores.open_or_unavailable(st / "scores.json")
saved = SavedGames.open_or_unavailable(st / "games", specs=GAMES)
n = %(first)d
while True:
    seed = rng.randrange(10**6)
    state = GAMES["makoto"].new_game(players=3, seed=seed)
    journal = saved.start("makoto", 3, seed, state=state, seats=[{"kind": "human"}] * 3)
    print("@@game %%s@@" %% journal.id, flush=True)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        journal.sync(state)
        print("@@move %%s %%d@@" %% (journal.id, len(journal.records)), flush=True)
        if rng.random() < 0.15:
            break  # the guests walk away mid-game: an unfinished game for the next start (played on below)
        if rng.random() < 0.3:
            entry = hs.add("maki", "P%%02d" %% (n %% 100), 1000 + n)
            print("@@confirmed %%s %%d@@" %% (entry.name, entry.score), flush=True)
            n += 1
    if state.is_over():
        journal.finish(state.outcome())
        print("@@finished %%s@@" %% journal.id, flush=True)
"""


@dataclass
class Cut:
    """One power cut: what was confirmed before it, and the games being written when it came."""

    confirmed: list[tuple[str, int]] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    #: the game being played when the plug was pulled (at least one move on the card, not finished), if any
    interrupted: str | None = None
    after_s: float = 0.0


def cut_while_writing(machine: Machine, rng: random.Random, first: int) -> Cut:
    """Stop the kiosk, start the writing, pull the plug at a random moment after it started; what it confirmed."""
    assert machine.tty is not None
    machine.out("systemctl stop kiosk.service")
    code = WORKLOAD % {"state": STATE, "seed": rng.randrange(10**6), "first": first}
    as_kiosk(machine, f"open('/tmp/workload.py', 'w').write({code!r})")
    start = len(machine.tty.data)
    machine.tty.send(
        f"cd {STATE} && setpriv --reuid=kiosk --regid=kiosk --init-groups env HOME={STATE} {PYTHON} /tmp/workload.py\n"
    )
    machine.tty.wait(re.compile(rb"@@move "), start, time.monotonic() + 120)
    delay = rng.uniform(0.5, 8.0)
    time.sleep(delay)  # the random moment of the cut: wall-clock on purpose (the guest runs on regardless)
    machine.power_cut()
    text = machine.tty.data[start:].decode(errors="replace")
    games = re.findall(r"@@game (\S+)@@", text)
    last = games[-1] if games else None
    moved = last is not None and f"@@move {last} " in text and f"@@finished {last}@@" not in text
    return Cut(
        confirmed=[(m.group(1), int(m.group(2))) for m in re.finditer(r"@@confirmed (\S+) (\d+)@@", text)],
        games=games,
        interrupted=last if moved else None,
        after_s=round(delay, 1),
    )


SCORES = f"""
from pathlib import Path
from kiosk.storage.scores import HighScores
hs = HighScores.open_or_unavailable(Path({STATE!r}) / "scores.json")
print(hs.available, sorted((e.name, e.score) for e in hs.top("maki", n=100000)))
"""


def check_after(machine: Machine, cut: Cut, confirmed_so_far: list[tuple[str, int]]) -> None:
    """Boot after a cut: the kiosk starts on the stick, offers the interrupted game, and every confirmed score is
    there (read with the kiosk stopped again: the scores file is one process's at a time)."""
    machine.boot()
    machine.wait_unit_status("kiosk.service", "attract mode")
    assert machine.out(f"findmnt -n -o FSTYPE {STATE}") == "ext4", "the data stick is mounted"
    assert "EXT4-fs error" not in machine.out("journalctl -k -b --no-pager -o cat")
    if cut.interrupted:
        said = f"offering to resume the makoto game {cut.interrupted}"
        machine.wait_until(f"the kiosk offers game {cut.interrupted}", lambda: said in machine.journal(), 120)
    machine.out("systemctl stop kiosk.service")
    available, kept = as_kiosk(machine, SCORES).split(" ", 1)
    assert available == "True", kept
    missing = set(confirmed_so_far) - set(ast.literal_eval(kept))
    assert not missing, f"confirmed scores lost: {sorted(missing)[:5]}"
