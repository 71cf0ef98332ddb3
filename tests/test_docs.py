"""The docs tell what the code does: generated parts match the code (scripts/gen_docs.py), and every ``kiosk ...``
command line, config key and relative link in README.md and docs/ is checked against the argument parser, the
config schema and the tree."""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _gen_docs():
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "scripts" / "gen_docs.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ------------------------------------------------------------------------------------------------ generated
def test_generated_docs_match_the_code() -> None:
    r = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_docs.py"), "--check"], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr


def test_wiring_table_holds_every_default_pin_once() -> None:
    from kiosk.config import Config
    from kiosk.seats import SeatMap

    table = _gen_docs().buttons_table()
    for seat in SeatMap.from_config(Config()):
        rows = [line for line in table.splitlines() if line.startswith(f"| {seat.index} | {seat.position} |")]
        assert len(rows) == 1, seat
        assert f"BCM {seat.buttons['a']} " in rows[0] and f"BCM {seat.buttons['b']} " in rows[0]
    assert table.count("BCM ") == 2 * len(Config().pins)
    assert "| 0 | south-east |" in table  # seat 0 is south-east, as the diagnostics screen numbers it


def test_a_stale_block_is_rewritten_and_an_unknown_one_refused() -> None:
    gen = _gen_docs()
    stale = (
        "before\n<!-- BEGIN GENERATED wiring-buttons: x -->\n| seat 2 | BCM 17 |\n"
        "<!-- END GENERATED wiring-buttons -->\nafter\n"
    )
    out = gen.render_markdown(stale)
    assert "BCM 17" not in out and "BCM 25 (pin 22)" in out
    assert out.startswith("before\n") and out.endswith("after\n")
    try:
        gen.render_markdown("<!-- BEGIN GENERATED nope -->\n<!-- END GENERATED nope -->\n", "x.md")
    except SystemExit as exc:
        assert "unknown generated block 'nope'" in str(exc)
    else:
        raise AssertionError("an unknown block was accepted")


def test_the_check_names_a_file_that_differs(tmp_path: Path, monkeypatch) -> None:
    gen = _gen_docs()
    doc = tmp_path / "w.md"
    doc.write_text("<!-- BEGIN GENERATED wiring-sticks: x -->\nold\n<!-- END GENERATED wiring-sticks -->\n")
    monkeypatch.setattr(gen, "ROOT", tmp_path)
    monkeypatch.setattr(gen, "MARKDOWN", ("w.md",))
    monkeypatch.setattr(gen, "PICTURES", {})
    assert gen.main(["--check"]) == 1
    assert "old" in doc.read_text()  # --check changes nothing
    assert gen.main([]) == 0
    assert "GP13" in doc.read_text()
    assert gen.main(["--check"]) == 0


# ------------------------------------------------------------------------------------------------ the docs test
def _doc_files() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    files += sorted((ROOT / "hardware").rglob("*.md"))
    return files


_FENCE = re.compile(r"^\s*(```|~~~)")
_SPAN = re.compile(r"`([^`\n]+)`")


def _fragments(path: Path) -> list[tuple[int, str]]:
    """(line number, text) of every code-block line (a line ending in a backslash joined with the next, as the
    shell reads it) and every inline code span."""
    out: list[tuple[int, str]] = []
    in_block = False
    held: tuple[int, str] | None = None
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if _FENCE.match(line):
            in_block = not in_block
            held = None
            continue
        if in_block:
            start, text = held if held is not None else (n, "")
            text += line
            if text.endswith("\\"):
                held = (start, text[:-1])
                continue
            held = None
            out.append((start, text))
        else:
            out.extend((n, m.group(1)) for m in _SPAN.finditer(line))
    return out


# ``sudo -u kiosk ...`` runs the rest as the user kiosk: that word is sudo's option's value, not the program
_COMMAND = re.compile(
    r"(?:^|&&|;|\$)\s*(?:sudo\s+(?:-u\s+\S+\s+|-(?!u\s)\S+\s+)*)?(?:[\w./-]*/)?"
    r"(kiosk-admin|kiosk-update|kiosk-eventboard|kiosk|install\.sh)(?=\s|$)(.*)"
)


def _commands() -> list[tuple[str, str, list[str]]]:
    """(where, program, arguments) of every documented call of the kiosk's commands and the installer."""
    found = []
    for path in _doc_files():
        for n, text in _fragments(path):
            text = re.split(r"(?:^|\s)#", text, maxsplit=1)[0]
            for m in _COMMAND.finditer(text):
                rest = re.split(r"&&|;|\||\)|`", m.group(2))[0].replace("[", " ").replace("]", " ")
                rest = rest.replace("...", "X")
                try:
                    args = shlex.split(rest)
                except ValueError:
                    args = rest.split()
                if args or text.strip() != m.group(0).strip():  # a bare program name names it, does not call it
                    found.append((f"{path.relative_to(ROOT)}:{n}", m.group(1), args))
    return found


def _parser(program: str) -> argparse.ArgumentParser:
    if program == "kiosk":
        from kiosk.__main__ import build_parser
    elif program == "kiosk-admin":
        from kiosk.appliance.admin import build_parser
    elif program == "kiosk-update":
        from kiosk.appliance.update import build_parser
    elif program == "kiosk-eventboard":
        from kiosk.events.board.__main__ import build_parser
    else:
        from kiosk.appliance.install import build_parser
    return build_parser()


def test_every_documented_command_line_parses() -> None:
    commands = _commands()
    assert len(commands) > 20, commands  # the extraction finds them
    bad = []
    for where, program, args in commands:
        parser = _parser(program)
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                parser.parse_args(args)
            except SystemExit as exc:
                if exc.code:
                    bad.append(f"{where}: {program} {' '.join(args)}: {err.getvalue().strip().splitlines()[-1]}")
    assert not bad, "\n".join(bad)


def test_the_command_check_catches_an_unknown_option() -> None:
    parser = _parser("kiosk")
    with contextlib.redirect_stderr(io.StringIO()), pytest.raises(SystemExit):
        parser.parse_args(["--reset-pin"])


def test_a_command_run_as_the_kiosk_user_is_found_and_the_user_is_not_taken_for_it() -> None:
    m = _COMMAND.search("sudo -u kiosk /opt/sushi-kiosk/current/bin/kiosk --check-config --config /x/kiosk.json")
    assert m is not None and m.group(1) == "kiosk"
    assert m.group(2).split() == ["--check-config", "--config", "/x/kiosk.json"]
    assert _COMMAND.search("sudo -u kiosk nano /var/lib/sushi-kiosk/kiosk.json") is None, "nano is not the kiosk"
    m = _COMMAND.search("sudo -E /opt/sushi-kiosk/current/bin/kiosk-admin read-only off")
    assert m is not None and m.group(1) == "kiosk-admin"


def test_the_owners_guide_checks_the_tables_own_settings_file(monkeypatch) -> None:
    """Run by sudo, ``kiosk --check-config`` alone checks the settings of whoever runs it: the owner's guide names
    the table's file (the folder ``kiosk --set-pin`` and the unit use) and calls the installed program."""
    from kiosk.config import table_state_dir

    monkeypatch.delenv("KIOSK_TABLE_STATE_DIR", raising=False)
    table_file = str(table_state_dir() / "kiosk.json")
    unit = (ROOT / "systemd" / "kiosk.service").read_text()
    exec_start = re.search(r"^ExecStart=(\S+)", unit, re.M)
    assert exec_start and re.search(r"^Environment=STATE_DIRECTORY=/var/lib/sushi-kiosk$", unit, re.M)
    assert table_file == "/var/lib/sushi-kiosk/kiosk.json"
    checks = []
    for path in sorted((ROOT / "docs" / "owner").glob("*.md")):
        for n, text in _fragments(path):
            for m in _COMMAND.finditer(re.split(r"(?:^|\s)#", text, maxsplit=1)[0]):
                args = shlex.split(re.split(r"&&|;|\||\)|`", m.group(2))[0])
                if m.group(1) == "kiosk" and "--check-config" in args:
                    where = f"{path.relative_to(ROOT)}:{n}"
                    checks.append(where)
                    program = m.string[: m.end(1)].split()[-1]
                    assert program == exec_start.group(1), (where, program, "is not the installed kiosk")
                    assert "--config" in args and args[args.index("--config") + 1] == table_file, where
    assert checks, "the owner's guide shows how to check kiosk.json"


_SECTIONS = (
    "seats",
    "pins",
    "serial",
    "operator",
    "timeouts",
    "sound",
    "attract",
    "bots",
    "window",
    "event",
    "language",
)
_KEY = re.compile(rf"^(?:{'|'.join(_SECTIONS)})(?:\.[a-z_0-9<>-]+)+(?=$|:|\s|=)")


def _known_key(key: str) -> bool:
    from kiosk.config import Config, to_dict

    parts = key.split(".")
    if parts[0] == "pins":
        return len(parts) <= 3
    if parts[:2] == ["serial", "sticks"]:
        return len(parts) <= 3
    section = to_dict(Config()).get(parts[0])
    return isinstance(section, dict) and len(parts) == 2 and parts[1] in section


def _config_keys() -> list[tuple[str, str]]:
    out = []
    for path in _doc_files():
        for n, text in _fragments(path):
            m = _KEY.match(text.strip())
            if m and not re.search(r"\.(py|kv|json|md)$", m.group(0)):
                out.append((f"{path.relative_to(ROOT)}:{n}", m.group(0)))
    return out


def test_every_documented_config_key_is_one_the_kiosk_accepts() -> None:
    keys = _config_keys()
    assert len(keys) > 20, keys
    bad = [f"{where}: `{key}`" for where, key in keys if not _known_key(key)]
    assert not bad, "config keys the kiosk refuses:\n" + "\n".join(bad)
    assert not _known_key("serial.serial_number") and not _known_key("serial.vid")
    assert _known_key("serial.port") and _known_key("timeouts.idle_s") and _known_key("pins.<seat>.<button>")


def test_every_documented_config_snippet_loads() -> None:
    from kiosk.config import load_dict

    checked = 0
    bad = []
    for path in _doc_files():
        for n, text in _fragments(path):
            if not text.lstrip().startswith("{"):
                continue
            try:
                data = json.loads(text)
            except ValueError:
                continue
            if not isinstance(data, dict) or not data or not set(data) <= set(_SECTIONS):
                continue
            checked += 1
            try:
                load_dict(data)
            except ValueError as exc:
                bad.append(f"{path.relative_to(ROOT)}:{n}: {exc}")
    assert checked >= 1
    assert not bad, "\n".join(bad)


_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    in_block = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if _FENCE.match(line):
            in_block = not in_block
        if in_block or not line.startswith("#"):
            continue
        slug = _slug(line.lstrip("#"))
        k = seen.get(slug, 0)
        seen[slug] = k + 1
        out.add(slug if k == 0 else f"{slug}-{k}")
    return out


def test_every_relative_link_and_anchor_exists() -> None:
    bad = []
    checked = 0
    for path in _doc_files():
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        for m in _LINK.finditer(text):
            target = m.group(1) or m.group(2)
            if re.match(r"[a-z]+:", target):
                continue
            checked += 1
            file_part, _, anchor = target.partition("#")
            dest = (path.parent / file_part).resolve() if file_part else path
            if not dest.exists():
                bad.append(f"{path.relative_to(ROOT)}: {target}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
                bad.append(f"{path.relative_to(ROOT)}: {target}: no heading #{anchor} in {dest.name}")
    assert checked > 20
    assert not bad, "\n".join(bad)


def test_every_documented_benchmark_name_exists_and_an_unknown_one_is_an_error() -> None:
    known = sorted(p.stem.removeprefix("bench_") for p in (ROOT / "benchmarks").glob("bench_*.py"))
    bad = []
    for path in _doc_files():
        for n, text in _fragments(path):
            for name in re.findall(r"benchmarks\b.*?--only[ =]([\w-]+)", text):
                if name not in known:
                    bad.append(f"{path.relative_to(ROOT)}:{n}: --only {name}")
    assert not bad, "\n".join(bad)
    r = subprocess.run([sys.executable, "-m", "benchmarks", "--only", "nope"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2
    assert f"unknown benchmark nope (known: {', '.join(known)})" in r.stderr


# ------------------------------------------------------------------------------------------------ the events guide
#: What starts a command line (sudo, a program, a path to one): in the events guide, only in code blocks, which run.
_RUNS = re.compile(r"^(sudo|curl|kiosk-eventboard|systemctl|journalctl|mosquitto_passwd|python3|/opt/\S+|\./\S+)\s")


def test_the_events_guide_keeps_its_commands_in_blocks_that_run() -> None:
    """Every command of docs/owner/events.md is in a ```sh block (which the next test runs), none in the text."""
    path = ROOT / "docs" / "owner" / "events.md"
    text = path.read_text(encoding="utf-8")
    inline = [
        m.group(1)
        for line in re.sub(r"^```.*?^```", "", text, flags=re.M | re.S).splitlines()
        for m in _SPAN.finditer(line)
        if _RUNS.match(m.group(1))
    ]
    assert not inline, f"commands in the text, where the docs test does not run them: {inline}"
    blocks = [lang for lang, _body in re.findall(r"^```(\w*)\n(.*?)^```", text, re.M | re.S)]
    assert blocks and set(blocks) == {"sh"}, blocks
    quick = [b for b in re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S) if "# runs until Ctrl-C" in b]
    assert len(quick) == 1 and "--admin-password-file" in quick[0] and "--db /" in quick[0], quick


@pytest.mark.events
@pytest.mark.timeout(600)
def test_every_command_of_the_events_guide_runs(tmp_path: Path) -> None:
    """docs/owner/events.md, run as written on a throwaway copy of this machine (tests/events_guide_child.py): the
    broker, the event board tried in a terminal (the organisers' password works: no 401) and then as a service, a
    table's game received and receipted, and every organiser action."""
    import os
    import shutil

    if os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("mosquitto") is None:
        pytest.skip("needs root, unshare and Mosquitto (a namespace of its own for the guide's machine)")
    child = ROOT / "tests" / "events_guide_child.py"
    r = subprocess.run(
        ["unshare", "--mount", "--net", "--fork", "--", sys.executable, "-P", str(child), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=540,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-6000:]
    result = json.loads(r.stdout.strip().splitlines()[-1])
    assert result["blocks"] >= 10, result
    assert result["games"] == 1 and result["receipts"] >= 1, result
    assert result["title"] == "Summer Fair 2026", result
    assert result["tables"] == ["table-1", "table-2", "table-3"], result
