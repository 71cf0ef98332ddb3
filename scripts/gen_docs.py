"""Regenerate the parts of the docs that the code also holds, or check that they match it.

    .venv/bin/python scripts/gen_docs.py            # rewrite every generated block and picture
    .venv/bin/python scripts/gen_docs.py --check    # exit 1 naming each file that differs (tests/test_docs.py)

A generated block in a Markdown file sits between two comment lines::

    <!-- BEGIN GENERATED wiring-buttons: scripts/gen_docs.py, do not edit by hand -->
    ...
    <!-- END GENERATED wiring-buttons -->

Everything between them is replaced; everything outside is prose and left alone. Pictures (``.svg``) are
written whole.

Generated now: the benchmark table (``benchmarks``: each ``bench_<NAME>.py``'s first docstring paragraph), and
the seat-button table, the tap-stick table and the wiring picture (``wiring-*``), from the kiosk's default
configuration (``kiosk.config.Config()``: seat positions and their BCM pins), the seat model
(``kiosk.seats.SeatMap``: seat numbers, symbols, keyboard keys), the hardware package's default stick map
(``hardware.config.DEFAULT_STICKS``) and the Pico firmware's default pins (``hardware/firmware/board_config.py``).
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Callable
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOARD_CONFIG = ROOT / "hardware" / "firmware" / "board_config.py"

#: Raspberry Pi 40-pin header: BCM GPIO number -> physical pin (the same on a Pi 4 and a Pi 5).
BCM_TO_HEADER: dict[int, int] = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 5: 29, 6: 31, 13: 33, 19: 35, 26: 37,
    14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 12: 32, 16: 36, 20: 38, 21: 40,
}  # fmt: skip
PI_GROUNDS = (6, 9, 14, 20, 25, 30, 34, 39)
#: Raspberry Pi Pico: GPn -> physical pin, and the ground pins.
PICO_GP_TO_PIN: dict[int, int] = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16, 13: 17, 14: 19,
    15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34,
}  # fmt: skip
PICO_GROUNDS = (3, 8, 13, 18, 23, 28, 33, 38)


def _pico_sticks() -> list[tuple[str, int]]:
    """The firmware's default ``STICKS`` as (kind, gpio), read from board_config.py without running MicroPython."""
    src = BOARD_CONFIG.read_text()
    tree = ast.parse(src)
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "STICKS" for t in node.targets):
            value = eval(compile(ast.Expression(node.value), "board_config.py", "eval"), {"range": range})  # noqa: S307
            return [(kind, gpio) for kind, gpio, _threshold, _dead in value]
    raise SystemExit("board_config.py: no STICKS assignment found")


def _nearest_ground(pin: int, grounds: tuple[int, ...]) -> int:
    return min(grounds, key=lambda g: (abs(g - pin), g))


def wiring_data() -> dict[str, list[dict[str, object]]]:
    """The default table's seats, their buttons and their sticks, as plain rows."""
    from hardware.config import BUTTON_ROLES, DEFAULT_STICKS
    from kiosk.config import Config
    from kiosk.seats import SeatMap

    table = SeatMap.from_config(Config())
    seats = []
    for seat in table:
        seats.append(
            {
                "index": seat.index,
                "position": seat.position,
                "label": seat.label,
                "edge": seat.edge,
                "buttons": dict(seat.buttons),
                "keys": {v: k for k, v in seat.keys.items()},
            }
        )
    pico = _pico_sticks()
    sticks = []
    for stick, place in sorted(DEFAULT_STICKS.items()):
        seat_no = int(place["seat"])
        kind, gpio = pico[stick]
        pin = PICO_GP_TO_PIN[gpio]
        sticks.append(
            {
                "stick": stick,
                "seat": seat_no,
                "position": table[seat_no].position if seat_no < len(table) else None,
                "hand": place["hand"],
                "kind": kind,
                "gpio": gpio,
                "pin": pin,
                "ground": _nearest_ground(pin, PICO_GROUNDS),
            }
        )
    roles = [{"name": k, "role": v} for k, v in BUTTON_ROLES.items()]
    return {"seats": seats, "sticks": sticks, "roles": roles}


def _bcm(pin: int) -> str:
    return f"BCM {pin} (pin {BCM_TO_HEADER[pin]})"


def buttons_table() -> str:
    data = wiring_data()
    roles = {r["name"]: r["role"] for r in data["roles"]}
    lines = [
        f"| seat | where it is | symbol | button `a` ({roles['a']}) | button `b` ({roles['b']}) | other wire "
        "| keys a/b/tap |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for s in data["seats"]:
        b = s["buttons"]
        assert isinstance(b, dict) and isinstance(s["keys"], dict)
        ground = _nearest_ground(BCM_TO_HEADER[b["a"]], PI_GROUNDS)
        keys = " / ".join(f"`{s['keys'][k]}`" for k in ("a", "b", "tap"))
        lines.append(
            f"| {s['index']} | {s['position']} | {s['label']} | {_bcm(b['a'])} | {_bcm(b['b'])} | GND (pin {ground}) "
            f"| {keys} |"
        )
    return "\n".join(lines)


def sticks_table() -> str:
    data = wiring_data()
    lines = [
        "| stick | seat / hand | Pico pin | GPIO | other wire |",
        "| --- | --- | --- | --- | --- |",
    ]
    for s in data["sticks"]:
        where = f"seat {s['seat']} ({s['position']}) {s['hand']}" if s["position"] else f"seat {s['seat']} {s['hand']}"
        lines.append(f"| {s['stick']} | {where} | {s['pin']} | GP{s['gpio']} | GND (pin {s['ground']}) |")
    return "\n".join(lines)


_ORDER = ("south-west", "south", "south-east", "east", "north-east", "north", "north-west", "west")


def benchmarks_table() -> str:
    """One row per ``python -m benchmarks --only NAME``: the first paragraph of its module's docstring."""
    lines = ["| `--only` | file | what it measures |", "| --- | --- | --- |"]
    for path in sorted((ROOT / "benchmarks").glob("bench_*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        first = " ".join(doc.split("\n\n")[0].split()).replace("|", "\\|")
        first = re.sub(r":\w+:`~?([^`]+)`", r"`\1`", first).replace("``", "`")
        name = path.stem.removeprefix("bench_")
        lines.append(f"| `{name}` | `benchmarks/{path.name}` | {first} |")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------ the picture
_W, _H = 980, 640
_TABLE = (210, 120, 560, 360)  # x, y, w, h of the screen seen from above (north at the top)


def _seat_box(edge: str, position: str) -> tuple[float, float, float, float]:
    x, y, w, h = _TABLE
    if edge in ("bottom", "top"):
        yy = y + h + 20 if edge == "bottom" else y - 110
        if position in ("south", "north"):
            return (x + w / 2 - 140, yy, 280, 90)
        left = position.endswith("west")
        return ((x + 10) if left else (x + w / 2 + 10), yy, w / 2 - 20, 90)
    xx = 10 if edge == "left" else x + w + 10
    return (xx, y + h / 2 - 90, 190, 180)


def wiring_svg() -> str:
    data = wiring_data()
    x, y, w, h = _TABLE
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{_H}" viewBox="0 0 {_W} {_H}" '
        'font-family="DejaVu Sans, sans-serif" font-size="13">',
        "<!-- generated by scripts/gen_docs.py from kiosk/config/values.py's defaults: do not edit by hand -->",
        f'<rect width="{_W}" height="{_H}" fill="#ffffff"/>',
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="#20242c" stroke="#000" stroke-width="3" rx="8"/>',
        f'<text x="{x + w / 2}" y="{y + h / 2 - 10}" fill="#ffffff" font-size="18" text-anchor="middle">'
        "the screen, seen from above</text>",
        f'<text x="{x + w / 2}" y="{y + h / 2 + 14}" fill="#c8c8c8" text-anchor="middle">'
        "north = the top edge of the picture on the screen</text>",
        f'<text x="{x + w / 2}" y="{y + h / 2 + 34}" fill="#c8c8c8" text-anchor="middle">'
        "seat numbers count clockwise from south-east</text>",
        f'<text x="{_W - 20}" y="30" text-anchor="end" font-size="16">N ↑</text>',
    ]
    sticks_by_seat: dict[int, list[dict[str, object]]] = {}
    for st in data["sticks"]:
        sticks_by_seat.setdefault(int(str(st["seat"])), []).append(st)
    for s in data["seats"]:
        bx, by, bw, bh = _seat_box(str(s["edge"]), str(s["position"]))
        b = s["buttons"]
        assert isinstance(b, dict)
        lines = [
            f"seat {s['index']}: {s['position']}",
            str(s["label"]),
            f"a: BCM {b['a']} (pin {BCM_TO_HEADER[b['a']]})",
            f"b: BCM {b['b']} (pin {BCM_TO_HEADER[b['b']]})",
        ]
        mine = sticks_by_seat.get(int(str(s["index"])), [])
        if mine:
            lines.append(
                "sticks " + ", ".join(f"{st['stick']} {str(st['hand'])[0].upper()}=GP{st['gpio']}" for st in mine)
            )
        out.append(f'<rect x="{bx:g}" y="{by:g}" width="{bw:g}" height="{bh:g}" fill="#f3f3f3" stroke="#555" rx="6"/>')
        step = 16 if bh < 100 else 22
        top = by + (bh - step * (len(lines) - 1)) / 2 + 4
        for i, text in enumerate(lines):
            weight = ' font-weight="bold"' if i == 0 else ""
            out.append(
                f'<text x="{bx + bw / 2:g}" y="{top + i * step:g}" text-anchor="middle"{weight}>{escape(text)}</text>'
            )
    out.append(
        f'<text x="{_W / 2:g}" y="{_H - 12}" text-anchor="middle" fill="#444">buttons: BCM GPIO on the Pi header to '
        f"GND (pins {', '.join(map(str, PI_GROUNDS))}); sticks: Pico GPIO to GND</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------------------------ files
BLOCKS: dict[str, Callable[[], str]] = {
    "wiring-buttons": buttons_table,
    "wiring-sticks": sticks_table,
    "benchmarks": benchmarks_table,
}
#: Markdown files that hold generated blocks.
MARKDOWN = (
    "docs/maker/wiring.md",
    "docs/developer/benchmarks.md",
    "hardware/firmware/README.md",
)
PICTURES: dict[str, Callable[[], str]] = {"docs/maker/wiring.svg": wiring_svg}

_BLOCK = re.compile(
    r"(<!-- BEGIN GENERATED (?P<name>[a-z-]+)[^\n]*-->\n)(?P<body>.*?)(<!-- END GENERATED (?P=name) -->)", re.S
)


def render_markdown(text: str, path: str = "") -> str:
    def sub(m: re.Match[str]) -> str:
        name = m.group("name")
        if name not in BLOCKS:
            raise SystemExit(f"{path}: unknown generated block {name!r} (known: {', '.join(sorted(BLOCKS))})")
        return f"{m.group(1)}{BLOCKS[name]()}\n{m.group(4)}"

    return _BLOCK.sub(sub, text)


def expected_files() -> dict[Path, str]:
    """Every generated file's expected text (Markdown files with their blocks filled in)."""
    out: dict[Path, str] = {}
    for rel in MARKDOWN:
        path = ROOT / rel
        out[path] = render_markdown(path.read_text(encoding="utf-8"), rel)
    for rel, make in PICTURES.items():
        out[ROOT / rel] = make()
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if a generated part differs")
    args = p.parse_args(argv)
    stale = []
    for path, text in expected_files().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(path.relative_to(ROOT))
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print("generated docs differ from the code (run: .venv/bin/python scripts/gen_docs.py):", file=sys.stderr)
        for rel in stale:
            print(f"  {rel}", file=sys.stderr)
        return 1
    for rel in [] if args.check else stale:
        print(f"rewrote {rel}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
