"""``python -m benchmarks``: a JSON performance report, one part per ``bench_<NAME>.py`` (``--only NAME``).

An unknown ``--only`` name is an error listing the known ones (a typo never silently runs nothing).
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import platform
import sys
import time
import traceback
from pathlib import Path


def known_names() -> list[str]:
    """The names ``--only`` accepts: one per ``benchmarks/bench_<NAME>.py``."""
    here = Path(__file__).parent
    return sorted(m.name[len("bench_") :] for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["soak"]:  # the long soak run has its own command line (benchmarks/soak.py)
        from benchmarks import soak

        return soak.main(argv[1:])
    p = argparse.ArgumentParser(prog="python -m benchmarks")
    p.add_argument("--quick", action="store_true", help="fewer samples (a smoke run)")
    p.add_argument("--only", action="append", help="run only this benchmark (bench_<NAME>.py); repeatable")
    p.add_argument("--out", type=Path, help="also write the report to this file")
    args = p.parse_args(argv)
    names = known_names()
    if args.only:
        unknown = sorted(set(args.only) - set(names))
        if unknown:
            p.error(f"unknown benchmark {', '.join(unknown)} (known: {', '.join(names)})")
        names = [n for n in names if n in args.only]
    report = {
        "machine": {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "processor": platform.processor(),
            "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        },
        "quick": args.quick,
        "results": {},
    }
    failed = False
    for name in names:
        t0 = time.perf_counter()
        try:
            mod = importlib.import_module(f"benchmarks.bench_{name}")
            res = mod.run(quick=args.quick)
        except Exception as exc:  # report and go on: one broken benchmark must not hide the others
            failed = True
            res = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}
        res["seconds"] = round(time.perf_counter() - t0, 2)
        report["results"][name] = res
        print(f"# {name}: {res['seconds']} s", file=sys.stderr)
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
