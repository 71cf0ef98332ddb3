"""Soak run: ``python -m benchmarks soak --minutes N [--interval 30] [--out FILE]``.

The real kiosk app (kiosk mode, no hardware, the default configuration) runs in a child process in a 1920x1080
window on X (an Xvfb started here when ``$DISPLAY`` is unset), in attract mode: its bots play real games of every
registered title in turn, with the boards and the "touch to play" call between them, exactly as on a café table
at night. This process samples the child from the outside every ``--interval`` seconds (30 by default) through
``/proc``: resident memory (``VmRSS``), threads, open file descriptors, and the size of the state folder (scores,
journals, sounds, Kivy's home). The child records each attract game it starts (by title) and every log record of
level ERROR or above (the kiosk logs an exception raised in a UI callback and goes on) to an events file;
Kivy's own ERROR/CRITICAL lines without an exception (under Xvfb: "no clipboard provider") are reported apart.
At the end the child gets SIGTERM, as from systemd, and must stop cleanly (exit code 0).

Budget (the report's ``budget`` and ``within_budget``):

* no exception: no ERROR record, the child alive through the run and its exit code 0;
* memory: the last sample's RSS within 10 % of the RSS at the reference point, which is after the first 10
  minutes (or after half the run for runs shorter than 20 minutes, so that a short run still has a baseline
  taken after start-up);
* threads and open files flat: after the reference point they never exceed the reference value by more than
  ``FLAT_SLACK`` (a bot's worker or a sound being played may hold one for a moment) and end at or below it;
* the state folder bounded: after the reference point it grows by less than ``STATE_GROWTH_BYTES`` (attract games
  are not journaled or scored; what the folder holds is the scores file, the sounds and Kivy's home, and the
  journal archive is pruned by the storage layer).
* every registered title was played at least once (for runs long enough to cycle through them all: one cycle
  takes about four minutes with the default timings).

Nothing is timed against a wall-clock bound; the figures are what the run measured, with the verdicts.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.util import child_env, display_env

MEMORY_BUDGET = 0.10
FLAT_SLACK = 2
STATE_GROWTH_BYTES = 1 << 20
REFERENCE_S = 600.0


# --------------------------------------------------------------------------------------------- child side
def child(state: str, events: str) -> None:
    """Run inside the child: the kiosk app in attract mode; events (games, errors) appended to ``events``."""
    state_dir = Path(state)
    from kiosk.__main__ import configure_kivy

    configure_kivy(state_dir=state_dir, fullscreen=False, width=1920, height=1080, log_level="info")
    from kivy.clock import Clock

    from kiosk.app import KioskApp
    from kiosk.config import Config

    out = open(events, "a", buffering=1)  # noqa: SIM115 - open for the whole run, one line per event

    def event(kind: str, **data: Any) -> None:
        out.write(json.dumps({"t": time.monotonic(), "kind": kind, **data}) + "\n")

    class ErrorsToEvents(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            # an exception anywhere, or an error of our own, counts against the budget; Kivy's own start-up
            # complaints (no clipboard tool under Xvfb) are reported apart
            ours = record.name.split(".")[0] in ("kiosk", "hardware", "benchmarks") or record.exc_info is not None
            event(
                "error" if ours else "library_error",
                logger=record.name,
                message=record.getMessage()[:500],
                exc=bool(record.exc_info),
            )

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger().addHandler(ErrorsToEvents(level=logging.ERROR))
    app = KioskApp(Config(), state_dir=state_dir, config_path=state_dir / "kiosk.json", hardware="none")
    last: list[Any] = [None]

    def watch(_dt: float) -> None:
        director = getattr(app, "director", None)  # the shell's attract director (older apps: on the app)
        session = getattr(director, "session", None) if director is not None else None
        session = session or getattr(app, "_attract_session", None)
        if session is not None and session is not last[0]:
            event("game", key=session.spec.key, screen=app.sm.current)
        last[0] = session

    Clock.schedule_interval(watch, 0.5)
    event("start", pid=os.getpid())
    app.run()
    event("stop", reason=str(getattr(app, "stop_reason", "")))
    out.close()


# --------------------------------------------------------------------------------------------- parent side


def _folder_bytes(root: Path) -> int:
    total = 0
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            with contextlib.suppress(OSError):  # a temp file replaced while we looked
                total += os.lstat(os.path.join(dirpath, name)).st_size
    return total


def sample(pid: int, state: Path) -> dict[str, Any]:
    """One sample of process ``pid`` and folder ``state``: RSS (KiB), threads, open files, state bytes."""
    fields: dict[str, int] = {}
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "Threads"):
                fields[key] = int(value.split()[0])
    return {
        "rss_kib": fields["VmRSS"],
        "threads": fields["Threads"],
        "open_files": len(os.listdir(f"/proc/{pid}/fd")),
        "state_bytes": _folder_bytes(state),
    }


def verdict(samples: list[dict[str, Any]], reference_s: float) -> dict[str, Any]:
    """The budget's figures and verdicts from the samples (each with ``t`` seconds since start)."""
    ref = next((s for s in samples if s["t"] >= reference_s), samples[-1])
    after = [s for s in samples if s["t"] >= ref["t"]]
    last = samples[-1]
    res: dict[str, Any] = {"reference_at_s": ref["t"], "last_at_s": last["t"]}
    res["rss_mib"] = {
        "first": round(samples[0]["rss_kib"] / 1024, 1),
        "reference": round(ref["rss_kib"] / 1024, 1),
        "last": round(last["rss_kib"] / 1024, 1),
        "max": round(max(s["rss_kib"] for s in samples) / 1024, 1),
    }
    growth = last["rss_kib"] / ref["rss_kib"] - 1
    res["rss_mib"]["growth_after_reference"] = round(growth, 4)
    res["memory_ok"] = abs(growth) <= MEMORY_BUDGET
    for key in ("threads", "open_files"):
        vals = [s[key] for s in after]
        res[key] = {"reference": ref[key], "min": min(vals), "max": max(vals), "last": last[key]}
        res[f"{key}_flat"] = max(vals) <= ref[key] + FLAT_SLACK and last[key] <= ref[key]
    res["state_bytes"] = {
        "first": samples[0]["state_bytes"],
        "reference": ref["state_bytes"],
        "last": last["state_bytes"],
        "max": max(s["state_bytes"] for s in samples),
    }
    res["state_bounded"] = max(s["state_bytes"] for s in after) - ref["state_bytes"] < STATE_GROWTH_BYTES
    return res


def run(minutes: float, interval: float = 30.0, progress: bool = True) -> dict[str, Any]:
    env, xvfb = display_env()
    tmp = Path(tempfile.mkdtemp(prefix="kiosk-soak-"))
    state, events, log_path = tmp / "state", tmp / "events.jsonl", tmp / "kiosk.log"
    state.mkdir()
    kivy_env = child_env(env, state / "kivy")
    kivy_env.pop("NOTIFY_SOCKET", None)
    root = Path(__file__).resolve().parents[1]
    code = f"import benchmarks.soak as s; s.child({str(state)!r}, {str(events)!r})"
    samples: list[dict[str, Any]] = []
    total = minutes * 60.0
    reference_s = min(REFERENCE_S, total / 2)
    died: int | None = None
    try:
        with open(log_path, "wb") as log_fh:
            proc = subprocess.Popen(
                [sys.executable, "-c", code], env=kivy_env, cwd=root, stdout=log_fh, stderr=subprocess.STDOUT
            )
            t0 = time.monotonic()
            next_at = t0
            while True:
                now = time.monotonic()
                if proc.poll() is not None:
                    died = proc.returncode
                    break
                if now >= next_at:
                    s = {"t": round(now - t0, 1), **sample(proc.pid, state)}
                    samples.append(s)
                    if progress:
                        print(f"# soak {s}", file=sys.stderr, flush=True)
                    if now - t0 >= total:
                        break
                    next_at += interval
                time.sleep(max(0.0, min(1.0, next_at - time.monotonic())))
            if died is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    code_end = proc.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    code_end = proc.wait()
            else:
                code_end = died
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(timeout=10)
    recorded = [json.loads(line) for line in events.read_text().splitlines()] if events.exists() else []
    errors = [e for e in recorded if e["kind"] == "error"]
    library_errors = [e for e in recorded if e["kind"] == "library_error"]
    games: dict[str, int] = {}
    for e in recorded:
        if e["kind"] == "game":
            games[e["key"]] = games.get(e["key"], 0) + 1
    from kiosk.games import GAMES

    report: dict[str, Any] = {
        "machine": {"python": platform.python_version(), "machine": platform.machine()},
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "minutes": minutes,
        "interval_s": interval,
        "display": "own Xvfb" if xvfb is not None else env.get("DISPLAY"),
        "attract_games": games,
        "errors": errors[:20],
        "error_count": len(errors),
        "library_messages": [f"{e['logger']}: {e['message'].splitlines()[0]}" for e in library_errors[:10]],
        "exit_code": code_end,
        "died_during_run": died is not None,
        "budget": {
            "memory_growth_after_reference": MEMORY_BUDGET,
            "threads_and_files_slack": FLAT_SLACK,
            "state_growth_bytes": STATE_GROWTH_BYTES,
            "reference_s": reference_s,
        },
    }
    if samples:
        report["summary"] = verdict(samples, reference_s)
    report["samples"] = samples
    cycle_long_enough = total >= 6 * 60
    all_titles = set(games) >= set(GAMES)
    report["all_titles_played"] = all_titles
    summary = report.get("summary", {})
    report["within_budget"] = bool(
        samples
        and died is None
        and code_end == 0
        and not errors
        and summary.get("memory_ok")
        and summary.get("threads_flat")
        and summary.get("open_files_flat")
        and summary.get("state_bounded")
        and (all_titles or not cycle_long_enough)
    )
    if not report["within_budget"]:
        report["log_tail"] = log_path.read_text(errors="replace")[-4000:]
    shutil.rmtree(tmp, ignore_errors=True)
    return report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks soak", description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=60.0, help="length of the run (default 60)")
    p.add_argument("--interval", type=float, default=30.0, help="seconds between samples (default 30)")
    p.add_argument("--out", type=Path, help="also write the JSON report to this file")
    args = p.parse_args(argv)
    report = run(args.minutes, args.interval)
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text)
    return 0 if report["within_budget"] else 1


if __name__ == "__main__":
    sys.exit(main())
