"""What `pip install .` must deliver: the console script, every game's data files and every layout."""

from __future__ import annotations

import importlib.metadata
import json
from pathlib import Path

import kiosk
import layouts
from kiosk.games import GAMES, ORDER


def test_console_script_is_declared():
    scripts = {e.name: e.value for e in importlib.metadata.entry_points(group="console_scripts")}
    assert scripts.get("kiosk") == "kiosk.__main__:main"


def test_layouts_are_installed():
    kv = sorted(p.name for p in Path(layouts.__file__).parent.glob("*.kv"))
    assert kv, "no .kv files next to the layouts package"


def test_every_game_folder_is_registered_and_its_data_loads():
    games_dir = Path(kiosk.__file__).parent / "games"
    for folder in sorted(p for p in games_dir.iterdir() if (p / "__init__.py").exists()):
        for data in folder.glob("*.json"):
            json.loads(data.read_text(encoding="utf-8"))
    assert "makoto" in GAMES
    assert list(GAMES)[: len([k for k in ORDER if k in GAMES])] == [k for k in ORDER if k in GAMES]


def test_game_folders_carry_their_screen_looks_and_howto():
    """One game = one folder: a game screen's .kv sits next to it, and its how-to is installed and loaded."""
    games_dir = Path(kiosk.__file__).parent / "games"
    for key, spec in GAMES.items():
        screen = games_dir / key / "screen.py"
        if screen.exists() and "load_kv(" in screen.read_text(encoding="utf-8"):
            assert (games_dir / key / "screen.kv").exists(), f"{key}'s screen.kv is not installed"
        if (games_dir / key / "howto.json").exists():
            assert spec.howto and all(step["title"] and step["text"] for step in spec.howto), key
    assert "2 to 4 players" in GAMES["maki"].howto[0]["text"]
    assert not {"maki.kv", "wasabi.kv", "makoto.kv", "takoyaki.kv"} & {
        p.name for p in Path(layouts.__file__).parent.iterdir()
    }
