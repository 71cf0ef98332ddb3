"""Every screen's text fits, at both window sizes: the fit checker (:mod:`devtools.fit`) over the screenshot
tour's screens (:func:`devtools.shots.fit_tour`: attract mode, the picker, a how-to and the joining screen from a long
and a short edge, every game with a human at a long and at a short edge, every step of a seat's how-to, the results with
the initials entry from both edges, the operator screen facing both edges).

Each size is one child process (``python -m devtools.shots --child <size> --fit``: Kivy allows one window per
process) on this display, in a language every seat reads: English at both sizes, and each other language at one
size, Japanese and German at the tighter 1280x800 (CI's time; ``python -m devtools.shots --fit --language xx``
walks any other pair). The pseudo-translation's tour (``--pseudo``) finds every word on screen that no catalog
holds: a text never marked for translation, or never extracted. A finding is text that does not fit its box, text
under the minimum size, a character its face lacks, a touch target under the minimum, or two labels overlapping;
any finding fails the size's test, listed by screen (none is excused).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.ui

#: The bound (s) of one size's child process (conftest gives each test a pytest-timeout a minute longer).
CHILD_S = 600

SIZES = ("1920x1080", "1280x800")
TOURS = [(size, "en") for size in SIZES] + [
    ("1280x800", "ja"),
    ("1280x800", "de"),
    ("1920x1080", "fr"),
    ("1920x1080", "es"),
]


def fit_findings(size: str, tmp: Path, *extra: str) -> dict[str, Any]:
    assert os.environ.get("DISPLAY"), "UI tests need a display: run them under xvfb-run (see test.sh)"
    out = tmp / f"fit_{size}.json"
    env = dict(os.environ, SDL_AUDIODRIVER="dummy", KIVY_NO_ARGS="1", KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1")
    cmd = [sys.executable, "-m", "devtools.shots", "--child", size, "--fit", "--findings", str(out), "--out", str(tmp)]
    cmd += list(extra)
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=CHILD_S, cwd=tmp)
    if not out.exists():
        raise AssertionError(f"the tour failed (rc {proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}")
    result: dict[str, Any] = json.loads(out.read_text())
    result["stderr"] = proc.stderr[-6000:]
    return result


@pytest.mark.parametrize(("size", "language"), TOURS)
def test_every_screen_fits(size: str, language: str, tmp_path: Path) -> None:
    result = fit_findings(size, tmp_path, "--language", language)
    findings: dict[str, list[dict[str, str]]] = result["findings"]
    assert not result["failed"], f"shots that could not be taken: {result['failed']}\n{result['stderr']}"
    games = ("maki", "wasabi", "makoto", "takoyaki")
    wanted = [f"{g}_{e}" for g in games for e in ("long", "short")]
    wanted += [f"{s}_{e}" for s in ("picker", "howto", "join", "results") for e in ("long", "short")]
    wanted += ["operator_long", "operator_short", "attract_call", "attract_boards"]
    wanted += [f"operator_{page}_{e}" for page in ("menu", "event") for e in ("long", "short")]
    wanted += ["attract_event_boards"]
    missing = [name for name in wanted if name not in findings]
    assert not missing, f"screens not walked: {missing}"
    steps = [name for name in findings if name.startswith("seat_howto_")]  # every step of each game, both edges
    assert len(steps) >= 2 * len(games) * 5 and any(n.endswith("_7_short") for n in steps), steps
    problems = [
        f"{shot}: {f['kind']}: {f['text'][:60]!r} ({f['detail']}) at {f['path']}"
        for shot, items in findings.items()
        for f in items
    ]
    assert not problems, f"{len(problems)} findings at {size} in {language}:\n" + "\n".join(problems)


def test_every_word_on_screen_comes_from_a_catalog(tmp_path: Path) -> None:
    result = fit_findings("1920x1080", tmp_path, "--pseudo")
    assert not result["failed"], f"shots that could not be taken: {result['failed']}\n{result['stderr']}"
    assert len(result["findings"]) >= 30, sorted(result["findings"])
    problems = sorted({f"{f['text'][:70]!r} ({f['detail']})" for items in result["findings"].values() for f in items})
    assert not problems, f"{len(problems)} texts not from a catalog:\n" + "\n".join(problems)
