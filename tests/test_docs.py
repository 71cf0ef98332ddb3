"""The docs tell what the code does: generated parts match the code (scripts/gen_docs.py), and every ``kiosk ...``
command line, config key and relative link in README.md and docs/ is checked against the argument parser, the
config schema and the tree."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

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
