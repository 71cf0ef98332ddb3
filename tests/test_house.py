"""The house rules of the code base, checked on the source tree (``kiosk/``, ``layouts/``):

* the import graph: no module of the shared UI (``kiosk/ui/``, the board kit ``kiosk/board/``) or the shell
  (``kiosk/shell/``, ``kiosk/app.py``) imports a game (``kiosk.games.<name>``; the registry ``kiosk.games`` and
  its lookups by key are fine), and no game imports another game; storage, the widget kit and the board kit do not
  read the registry at all (their caller hands them what they need);
* sizes: no UI module (under ``kiosk/ui/``, ``kiosk/shell/``, or a game's modules that use Kivy) over 700 lines;
* kv in two kinds of places: ``layouts/`` for the shell's screens, or beside the module it styles (a ``.kv`` file
  next to a ``.py`` of the same name); no kv strings in Python;
* test and benchmark tooling stays out of the installed package (``devtools/``).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KIOSK = ROOT / "kiosk"
GAMES = sorted(p.name for p in (KIOSK / "games").iterdir() if (p / "__init__.py").exists())


def imports_of(path: Path, tree: ast.Module | None = None) -> set[str]:
    """Every module ``path`` imports (absolute names; ``from . import x`` resolved against its package); ``tree``:
    its parsed source, when the caller left some of it out."""
    tree = tree if tree is not None else ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    return found


def game_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["kiosk", "games"] and parts[2] in GAMES else None


def modules(*folders: Path) -> list[Path]:
    return sorted(p for folder in folders for p in folder.rglob("*.py"))


def test_the_shared_ui_and_the_shell_import_no_game() -> None:
    shared = [*modules(KIOSK / "ui", KIOSK / "board", KIOSK / "shell"), KIOSK / "app.py"]
    found = {f"{p.relative_to(ROOT)} imports {m}" for p in shared for m in imports_of(p) if game_of(m) is not None}
    print(f"import graph: {len(shared)} shared UI and shell modules, none imports a game" if not found else "")
    assert not found, sorted(found)


def is_main_block(node: ast.stmt) -> bool:
    """``if __name__ == "__main__":``: a module's command, the top of its program (a caller of the module)."""
    test = node.test if isinstance(node, ast.If) else None
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators)
    )


def test_storage_and_the_kits_are_handed_the_registry() -> None:
    """Storage, the widget kit and the board kit import no game registry (``kiosk.games``), at the top or inside a
    function: their caller (the app's build) hands them what they need, such as which boards rank lower scores
    first, or the games' pictures and ingredient categories. Only a module's command (its ``__main__`` block, as
    ``python -m kiosk.ui.pictures``) is a caller of its own and may read the registry."""
    kit = modules(KIOSK / "storage", KIOSK / "ui", KIOSK / "board")
    readers = set()
    for p in kit:
        tree = ast.parse(p.read_text(encoding="utf-8"))
        tree.body = [node for node in tree.body if not is_main_block(node)]
        found = imports_of(p, tree)
        if any(m == "kiosk.games" or m.startswith("kiosk.games.") for m in found):
            readers.add(str(p.relative_to(ROOT)))
    print(f"the registry: {len(kit)} kit and storage modules, none reads it" if not readers else "")
    assert not readers, sorted(readers)


def test_no_game_imports_another() -> None:
    found = set()
    for key in GAMES:
        for p in modules(KIOSK / "games" / key):
            found |= {f"{p.relative_to(ROOT)} imports {m}" for m in imports_of(p) if game_of(m) not in (None, key)}
    print(f"import graph: {len(GAMES)} games, none imports another" if not found else "")
    assert not found, sorted(found)


def uses_kivy(path: Path) -> bool:
    return any(m == "kivy" or m.startswith("kivy.") for m in imports_of(path))


def test_no_ui_module_is_over_700_lines() -> None:
    ui = [
        p
        for p in modules(KIOSK / "ui", KIOSK / "board", KIOSK / "shell", KIOSK / "games")
        if p.parts[-3:-1] != ("kiosk",)
    ]
    ui = [p for p in ui if "ui" in p.parts or "shell" in p.parts or uses_kivy(p)]
    lines = {p: len(p.read_text(encoding="utf-8").splitlines()) for p in ui}
    too_long = {str(p.relative_to(ROOT)): n for p, n in lines.items() if n > 700}
    assert not too_long, too_long
    print(f"{len(lines)} UI modules, the longest {max(lines.values())} lines")


def test_kv_lives_in_layouts_or_beside_its_module() -> None:
    stray = [str(kv.relative_to(ROOT)) for kv in KIOSK.rglob("*.kv") if not kv.with_suffix(".py").exists()]
    assert not stray, f"kv files with no module of their name beside them: {stray}"
    strings = [
        str(p.relative_to(ROOT)) for p in modules(KIOSK) if "Builder.load_string" in p.read_text(encoding="utf-8")
    ]
    assert not strings, f"kv strings in Python: {strings}"
    assert sorted(p.name for p in (ROOT / "layouts").glob("*.kv")), "the shell's screens keep their kv in layouts/"


def test_tooling_is_out_of_the_package() -> None:
    shipped = {p.name for p in modules(KIOSK)}
    assert not shipped & {"touchplay.py", "fit.py", "shots.py"}, shipped & {"touchplay.py", "fit.py", "shots.py"}
    assert (ROOT / "devtools" / "__init__.py").exists()
    for p in modules(KIOSK):
        assert "devtools" not in {m.split(".")[0] for m in imports_of(p)}, f"{p} imports the tooling"


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")


def test_every_engine_is_written_the_same_way() -> None:
    """A ``Phase`` enum ending in ``over``; every action in the game's ``actions.py``; each handled by a method
    named ``_a_<action in snake case>`` (a family of actions: one ``_a_`` method named for the family) that
    declares its phases; the bots registered as ``BOTS`` in ``bots.py`` at the four levels."""
    import importlib

    from kiosk.engine import GamePhase
    from kiosk.games import GAMES as REGISTRY

    checked = []
    for game in GAMES:
        rules = importlib.import_module(f"kiosk.games.{game}.rules")
        actions = importlib.import_module(f"kiosk.games.{game}.actions")
        bots = importlib.import_module(f"kiosk.games.{game}.bots")
        phase = rules.Phase
        assert issubclass(phase, GamePhase) and phase("over") == "over", game
        spec = REGISTRY[game]
        state_class = type(spec.new_game(max(2, spec.min_players), 1))
        families: dict[str, list[type]] = {}
        for action_class, (name, phases, _any_seat) in state_class._HANDLERS.items():
            assert action_class.__module__ == actions.__name__, f"{game}: {action_class.__name__} is not in actions.py"
            assert phases, f"{game}: {name} declares no phases"
            assert set(phases) <= set(phase), f"{game}: {name} names phases {set(phases) - set(phase)}"
            families.setdefault(name, []).append(action_class)
        for name, classes in families.items():
            if len(classes) == 1:
                assert name == f"_a_{_snake(classes[0].__name__)}", f"{game}: {name} handles {classes[0].__name__}"
            else:
                assert name.startswith("_a_"), f"{game}: {name}"
        assert spec.bots is bots.BOTS and set(bots.BOTS) == {"random", "easy", "normal", "hard"}, game
        checked.append(f"{game}: {len(state_class._HANDLERS)} actions, {len(families)} handlers")
    print("\n".join(checked))


def test_a_games_words_are_in_its_words_py() -> None:
    """One name for a game's words in every game folder: ``words.py`` holds the texts code composes (the last moves
    in words, ``<key>_event_text``, which the how-to's demo finds there); no game keeps them in a file of another
    name, and no screen defines them."""
    import importlib

    for game in GAMES:
        folder = KIOSK / "games" / game
        assert not {"names.py", "texts.py"} & {p.name for p in folder.iterdir()}, game
        words = importlib.import_module(f"kiosk.games.{game}.words")
        assert callable(getattr(words, f"{game}_event_text", None)), f"{game}: no {game}_event_text in words.py"
        screen = folder / "screen.py"
        if screen.exists():
            defined = {
                n.name for n in ast.parse(screen.read_text(encoding="utf-8")).body if isinstance(n, ast.FunctionDef)
            }
            assert not {n for n in defined if n.endswith(("_event_text", "_action_label"))}, game


def test_the_readme_layout_table_matches_the_tree() -> None:
    """Every path in the first column of the README's "Layout" table exists (``<key>``: every game folder)."""
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1] for line in table.splitlines() if line.startswith("| `")]
    paths = [p for row in rows for p in re.findall(r"`([^`]+)`", row)]
    assert len(paths) >= 15, paths
    missing = []
    for p in paths:
        for concrete in [p.replace("<key>", g) for g in GAMES] if "<key>" in p else [p]:
            if not (ROOT / concrete).exists():
                missing.append(concrete)
    assert not missing, f"the README's layout names paths that do not exist: {missing}"
    # and every top-level folder of the code base is in it
    tops = {p.split("/")[0] for p in paths}
    for folder in ("kiosk", "hardware", "layouts", "devtools", "systemd", "tests", "benchmarks", "examples", "docs"):
        assert folder in tops, f"{folder}/ is missing from the README's layout table"


def test_module_docstrings_are_short() -> None:
    """A module's docstring says what it is for and its decisions briefly (<= 20 lines); the longer rationale is in
    docs/ (docs/developer/design.md)."""
    sizes = []
    for p in modules(KIOSK, ROOT / "hardware"):
        doc = ast.get_docstring(ast.parse(p.read_text(encoding="utf-8")), clean=False)
        sizes.append((doc.count("\n") + 1 if doc else 0, str(p.relative_to(ROOT))))
    long = [f"{path}: {n} lines" for n, path in sorted(sizes, reverse=True) if n > 20]
    assert not long, long
    print("longest:", sorted(sizes, reverse=True)[:3])


SHELL = KIOSK / "shell"


def _takes_a_door(path: Path) -> bool:
    """A room's module: a class whose constructor's first argument is ``app`` (its door)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef) and node.name == "__init__":
            args = node.args.args[1:]
            if args and args[0].arg == "app":
                return True
    return False


def test_rooms_are_small_and_the_router_thin() -> None:
    """A room (a module of ``kiosk/shell/`` whose class takes a door) <= 250 lines; the screens the rooms show sit
    beside them under the UI modules' limit."""
    rooms = [p for p in SHELL.glob("*.py") if _takes_a_door(p) or p.name in ("doors.py", "rooms.py")]
    assert len(rooms) >= 9, [p.name for p in rooms]
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in rooms}
    assert all(n <= 250 for n in sizes.values()), {k: n for k, n in sizes.items() if n > 250}
    app = len((KIOSK / "app.py").read_text(encoding="utf-8").splitlines())
    assert app < 200, f"kiosk/app.py has {app} lines"
    print("rooms:", sizes, "app.py:", app)


def _writes_to_app(tree: ast.AST) -> list[str]:
    """``app.x = ...`` / ``self.app.x = ...`` (and augmented or tuple targets), and ``setattr(app, ...)``."""

    def is_app(node: ast.AST) -> bool:
        return (isinstance(node, ast.Name) and node.id == "app") or (
            isinstance(node, ast.Attribute) and node.attr == "app" and isinstance(node.value, ast.Name)
        )

    found = []
    for node in ast.walk(tree):
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for t in targets:
            for sub in t.elts if isinstance(t, ast.Tuple) else [t]:
                if isinstance(sub, ast.Attribute) and is_app(sub.value):
                    found.append(f"line {sub.lineno}: {ast.unparse(sub)}")
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "setattr" and node.args and is_app(node.args[0]):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.Attribute) and node.attr == "__dict__" and is_app(node.value):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_only_the_router_changes_the_app() -> None:
    """No room sets an attribute of the app (its mode, config, stores, screens...): it asks the router."""
    writes = {
        str(p.relative_to(ROOT)): _writes_to_app(ast.parse(p.read_text(encoding="utf-8"))) for p in modules(SHELL)
    }
    writes = {k: v for k, v in writes.items() if v}
    assert not writes, writes


def test_every_room_takes_a_narrow_door() -> None:
    """A room's constructor takes its door (a Protocol of kiosk/shell/doors.py naming what it uses), never the app."""
    doors_tree = ast.parse((SHELL / "doors.py").read_text(encoding="utf-8"))
    doors = {n.name for n in doors_tree.body if isinstance(n, ast.ClassDef) and not n.name.startswith("_")}
    rooms = {}
    for p in modules(SHELL):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name == "__init__":
                args = node.args.args[1:]
                if args and args[0].arg == "app":
                    rooms[p.name] = ast.unparse(args[0].annotation) if args[0].annotation else None
    assert len(rooms) >= 7, rooms
    assert all(door in doors for door in rooms.values()), rooms
    importers = [
        p.name for p in modules(SHELL) if any(m == "kiosk.app" or m.startswith("kiosk.app.") for m in imports_of(p))
    ]
    assert not importers, f"rooms that import the app: {importers}"


def test_one_touch_harness() -> None:
    """The loop and the fingers exist once (devtools/harness.py): the UI tests' conftest, the touch driver, the
    screenshot tour and the benchmarks import them; and the touch driver has no driver of its own per game."""
    harness = ROOT / "devtools" / "harness.py"
    own = {"Finger", "Toucher", "frames", "tick", "run_until", "turn", "_frame", "_turn"}
    for folder in (ROOT / "tests", ROOT / "devtools", ROOT / "benchmarks"):
        for p in folder.rglob("*.py"):
            if p == harness:
                continue
            tree = ast.parse(p.read_text(encoding="utf-8"))
            defined = {
                n.name
                for n in tree.body
                if isinstance(n, (ast.ClassDef, ast.FunctionDef))
                and not any(f"{m}.{n.name}(" in ast.unparse(n) for m in ("conftest", "harness"))  # a wrapper is fine
            }
            assert not defined & own, f"{p.relative_to(ROOT)} defines its own {sorted(defined & own)}"
    driver = (ROOT / "devtools" / "touchplay.py").read_text(encoding="utf-8")
    assert "kiosk.games." not in driver and "Driver(" not in driver, "the touch driver knows a game"


def test_every_view_is_typed() -> None:
    """Each game declares its views' shapes in its ``views.py`` (``TypedDict``\\s: the JSON shape is the contract),
    its state is a ``GameState`` of them (the public view and a seat's), ``view`` returns them, and no screen or kit
    takes a view as ``dict[str, Any]``: a renamed key fails mypy, not a guest's game."""
    found = []
    for key in GAMES:
        rules = ast.parse((KIOSK / "games" / key / "rules.py").read_text(encoding="utf-8"))
        assert (KIOSK / "games" / key / "views.py").exists(), f"{key}: no views.py"
        states = [c for c in rules.body if isinstance(c, ast.ClassDef) and c.name.endswith("State")]
        assert any(ast.unparse(b).startswith("GameState[") for c in states for b in c.bases), f"{key}: not a GameState"
        for c in states:
            for f in c.body:
                if isinstance(f, ast.FunctionDef) and f.name == "view":
                    returns = ast.unparse(f.returns) if f.returns else ""
                    assert "dict" not in returns and "Any" not in returns, f"{key}: view() -> {returns}"
                    found.append(f"{key}: view() -> {returns}")
    views_in = [*modules(KIOSK / "games", KIOSK / "board", KIOSK / "ui", KIOSK / "shell")]
    loose = []
    for p in views_in:
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for a in node.args.args + node.args.kwonlyargs:
                    annotation = ast.unparse(a.annotation) if a.annotation is not None else ""
                    if a.arg in ("view", "public", "mine", "v") and "dict[str, Any]" in annotation:
                        loose.append(f"{p.relative_to(ROOT)}:{node.lineno} {node.name}({a.arg})")
    assert not loose, f"views taken as dict[str, Any]: {loose}"
    print("\n".join(found))


#: Each door's members (its own and what it inherits), at most: a door grows only by a decision written here.
DOOR_SIZES = {
    "AttractDoor": 21,
    "BuildDoor": 22,
    "DeskDoor": 31,
    "EventsDoor": 2,
    "GesturesDoor": 14,
    "IdleDoor": 14,
    "LauncherDoor": 23,
    "ReplayDoor": 9,
    "SeatHelpDoor": 9,
    "SeatHooks": 6,
}


def test_doors_are_typed_and_no_wider_than_their_rooms_need() -> None:
    """No door member is a bare ``Any``; each door stays within its measured size (:data:`DOOR_SIZES`)."""
    import re

    tree = ast.parse((SHELL / "doors.py").read_text(encoding="utf-8"))
    classes = {c.name: c for c in tree.body if isinstance(c, ast.ClassDef)}

    def members(c: ast.ClassDef) -> list[ast.stmt]:
        own = [n for n in c.body if isinstance(n, (ast.FunctionDef, ast.AnnAssign))]
        inherited = [m for b in c.bases if ast.unparse(b) in classes for m in members(classes[ast.unparse(b)])]
        return own + inherited

    sizes = {}
    for name, c in classes.items():
        for n in members(c):
            typed = ast.unparse(n.annotation) if isinstance(n, ast.AnnAssign) else ast.unparse(n.args)
            typed += "" if isinstance(n, ast.AnnAssign) or n.returns is None else ast.unparse(n.returns)
            assert not re.search(r"\bAny\b", typed), f"{name}: {typed}"
        if not name.startswith("_"):
            sizes[name] = len(members(c))
    assert set(sizes) == set(DOOR_SIZES), sizes
    wider = {k: (n, DOOR_SIZES[k]) for k, n in sizes.items() if n > DOOR_SIZES[k]}
    assert not wider, f"doors wider than measured (members, limit): {wider}"
    print("door members:", sizes)


def _door_members(door: ast.ClassDef) -> dict[str, str]:
    """A door's members (its own: a door inherits from no other) and their types as written."""
    found = {}
    for n in door.body:
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            found[n.target.id] = ast.unparse(n.annotation)
        elif isinstance(n, ast.FunctionDef):
            found[n.name] = ast.unparse(n.args) + " -> " + (ast.unparse(n.returns) if n.returns else "")
    return found


def _rooms() -> set[str]:
    """The rooms: the classes of ``kiosk/shell/`` that :class:`kiosk.app.KioskApp` builds in its ``__init__`` (the
    dict of game screens it builds there is screens, as the doors hand out other screens, not a room)."""
    app = ast.parse((KIOSK / "app.py").read_text(encoding="utf-8"))
    shell = {
        a.asname or a.name
        for n in app.body
        if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("kiosk.shell")
        for a in n.names
    }
    init = next(n for n in ast.walk(app) if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    built = {c.func.id for c in ast.walk(init) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}
    dicts = {
        c.name
        for p in modules(SHELL)
        for c in ast.parse(p.read_text(encoding="utf-8")).body
        if isinstance(c, ast.ClassDef) and any(ast.unparse(b).startswith("dict") for b in c.bases)
    }
    return (built & shell) - dicts


def test_no_door_hands_out_a_room() -> None:
    """No door member's type names a room (a class the app builds in its ``__init__``): a room asks the router for
    another room's work through a narrow method (:mod:`kiosk.shell.routes`), never holds the other room."""
    import re

    rooms = _rooms()
    assert {"GameLauncher", "AttractDirector", "LazyBuild", "OperatorRoom", "ReplayRoom"} <= rooms, rooms
    tree = ast.parse((SHELL / "doors.py").read_text(encoding="utf-8"))
    handed = {
        f"{c.name}.{name}: {typed}"
        for c in tree.body
        if isinstance(c, ast.ClassDef)
        for name, typed in _door_members(c).items()
        if set(re.findall(r"\w+", typed)) & rooms
    }
    assert not handed, f"doors that hand out a room: {sorted(handed)}"


def test_every_door_member_is_used_by_its_room() -> None:
    """Each member of a room's door is read by that room (``app.<member>`` in a module naming the door): a door
    holds only what its room uses."""
    import re

    tree = ast.parse((SHELL / "doors.py").read_text(encoding="utf-8"))
    doors = [c for c in tree.body if isinstance(c, ast.ClassDef) and c.name.endswith("Door")]
    assert len(doors) >= 9, [c.name for c in doors]
    texts = [p.read_text(encoding="utf-8") for p in modules(SHELL) if p.name != "doors.py"]
    unused = {}
    for door in doors:
        assert not door.bases or [ast.unparse(b) for b in door.bases] == ["Protocol"], door.name
        used_by = "\n".join(t for t in texts if re.search(rf"\b{door.name}\b", t))
        assert used_by, f"no room takes {door.name}"
        idle = [m for m in _door_members(door) if not re.search(rf"\bapp\.{m}\b", used_by)]
        if idle:
            unused[door.name] = idle
    assert not unused, f"door members their room never reads: {unused}"


def test_every_function_local_import_says_why() -> None:
    """In the shell, storage, the kit and the app, an import inside a function says why it is not at the top (a
    comment on its line or above its block: a cycle it breaks, a heavy module kept off start-up, Kivy's window)."""
    files = [*modules(SHELL, KIOSK / "storage", KIOSK / "ui"), KIOSK / "app.py"]
    silent: dict[str, int] = {}
    total = 0
    for p in files:
        lines = p.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        local = {
            id(n): n
            for f in ast.walk(tree)
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
            for n in ast.walk(f)
            if isinstance(n, (ast.Import, ast.ImportFrom))
        }
        for node in local.values():
            total += 1
            reason = "#" in lines[(node.end_lineno or node.lineno) - 1]
            above = node.lineno - 2
            while not reason and above >= 0 and lines[above].strip().startswith(("import ", "from ", "#")):
                reason = lines[above].strip().startswith("#")
                above -= 1
            if not reason:
                name = str(p.relative_to(ROOT))
                silent[name] = silent.get(name, 0) + 1
    assert not silent, f"function-local imports without a reason: {silent}"
    print(f"{total} function-local imports, each with its reason")


def test_build_steps_are_typed_factories() -> None:
    """The app's built rooms name their factory (a ``LazyBuild`` method), never a string looked up with getattr."""
    rooms = ast.parse((SHELL / "rooms.py").read_text(encoding="utf-8"))
    calls = [n for n in ast.walk(rooms) if isinstance(n, ast.Call) and ast.unparse(n.func) == "on_demand"]
    assert len(calls) >= 8, len(calls)
    strings = [ast.unparse(c) for c in calls if any(isinstance(a, ast.Constant) for a in c.args)]
    assert not strings, f"build steps named by a string: {strings}"
    build = ast.parse((SHELL / "build.py").read_text(encoding="utf-8"))
    lookups = [
        ast.unparse(n)
        for n in ast.walk(build)
        if isinstance(n, ast.Call) and ast.unparse(n.func) == "getattr" and ast.unparse(n.args[0]) == "self"
    ]
    assert not lookups, f"a build step looked up by name: {lookups}"


def _import_graph(*folders: str, local: bool) -> dict[str, set[str]]:
    """Module -> the project modules it imports when it is imported (``local``: also inside its functions);
    ``if TYPE_CHECKING:`` blocks are not imports."""
    files = {p: ".".join(p.relative_to(ROOT).with_suffix("").parts) for f in folders for p in (ROOT / f).rglob("*.py")}
    files = {p: m.removesuffix(".__init__") for p, m in files.items() if "firmware" not in p.parts}
    known = set(files.values())
    graph: dict[str, set[str]] = {}
    for p, mod in files.items():
        package = mod if p.name == "__init__.py" else mod.rpartition(".")[0]
        found: set[str] = set()

        def visit(nodes: list[ast.stmt], package: str = package, found: set[str] = found) -> None:
            for n in nodes:
                if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test):
                    continue
                if isinstance(n, ast.Import):
                    found.update(a.name for a in n.names)
                elif isinstance(n, ast.ImportFrom):
                    base = n.module or ""
                    if n.level:
                        parts = package.split(".")[: len(package.split(".")) - n.level + 1]
                        base = ".".join(parts + ([base] if base else []))
                    subs = {f"{base}.{a.name}" for a in n.names} & known
                    found.update(subs or {base})
                elif isinstance(n, (ast.If, ast.Try, ast.With)) or (
                    local and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                ):
                    for field in ("body", "orelse", "finalbody"):
                        visit(getattr(n, field, []))
                    for handler in getattr(n, "handlers", []):
                        visit(handler.body)
                elif isinstance(n, ast.ClassDef):
                    visit(n.body)

        visit(ast.parse(p.read_text(encoding="utf-8")).body)
        graph[mod] = {m for m in found if m in known and m != mod}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph`` (strongly connected parts of more than one module)."""
    import sys

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle() -> None:
    """Nothing imports itself round a cycle when it is imported (kiosk/, hardware/, devtools/); the tooling not even
    through its functions' imports. (The one cycle a function breaks: ``Config.replace`` validates, and validation
    builds a ``Config``.)"""
    assert not _cycles(_import_graph("kiosk", "hardware", "devtools", local=False))
    assert not _cycles(_import_graph("devtools", local=True))
    found = _cycles(_import_graph("kiosk", "hardware", local=True))
    assert found == [["kiosk.config.validate", "kiosk.config.values"]], found
