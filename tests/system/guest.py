"""Small steps in the booted table, done the way the table itself does them: as the kiosk user with the installed
app's own Python and modules (what the operator menu's buttons call), never by editing the kiosk's files by hand."""

from __future__ import annotations

import json
import shlex

from devtools.vm import Machine

STATE = "/var/lib/sushi-kiosk"
PYTHON = "/opt/sushi-kiosk/current/bin/python"

#: A table that has been played on: a high score and a play count, a game in progress (its journal), a setting.
SEED = f"""
from pathlib import Path
from kiosk import config as kc
from kiosk.games import GAMES
from kiosk.storage.journal import SavedGames
from kiosk.storage.scores import HighScores
st = Path({STATE!r})
hs = HighScores.open_or_unavailable(st / "scores.json")
hs.add("maki", "ABC", 42)
hs.record_play("maki")
hs.close()
saved = SavedGames.open_or_unavailable(st / "games", specs=GAMES)
state = GAMES["makoto"].new_game(players=3, seed=7)
journal = saved.start("makoto", 3, 7, state=state, seats=[{{"kind": "human"}}] * 3)
seat = state.to_move()[0]
state.apply(seat, state.legal_actions(seat)[0])
journal.sync(state)
cfg = kc.load_safely(st / "kiosk.json", create=False).config
kc.save(cfg.replace(language={{"default": "de"}}), st / "kiosk.json")
print(journal.path.name)
"""


def as_kiosk(machine: Machine, code: str, timeout: float = 300) -> str:
    """Python ``code`` run as the kiosk user in the state folder (its output; it must succeed)."""
    return machine.out(
        f"cd {STATE} && setpriv --reuid=kiosk --regid=kiosk --init-groups env HOME={STATE} "
        f"{PYTHON} -c {shlex.quote(code)}",
        timeout,
    )


def seed(machine: Machine) -> str:
    """Play-worn state written with the kiosk stopped (the kiosk's own stores); the saved game's file name."""
    machine.out("systemctl stop kiosk.service")
    name = as_kiosk(machine, SEED).splitlines()[-1]
    machine.out("systemctl start --no-block kiosk.service")
    return name


def request(machine: Machine, kind: str) -> None:
    """What the operator menu's button does: a request file for the root helper (kiosk.appliance.requests)."""
    as_kiosk(
        machine,
        f"from pathlib import Path; from kiosk.appliance import requests; requests.request_{kind}(Path({STATE!r}))",
    )


def status(machine: Machine) -> dict[str, object]:
    rc, out = machine.shell(f"cat {STATE}/requests/status.json")
    return json.loads(out) if rc == 0 and out.strip() else {}


def wait_status(machine: Machine, kind: str, timeout: float = 300) -> dict[str, object]:
    """The root helper's answer to a request of ``kind`` (the operator menu shows the same)."""
    seen: dict[str, object] = {}

    def answered() -> bool:
        nonlocal seen
        seen = status(machine)
        return seen.get("kind") == kind

    machine.wait_until(f"the root helper answers the {kind} request", answered, timeout, every=2.0)
    return seen
