"""Run a Python child as another real user (``nobody``), wherever the checkout lives (not a test module itself).

A few tests check what the kiosk does for a user who may not write somewhere: ``kiosk --set-pin`` run by someone
else than root on a table, a scores folder the kiosk cannot write. Root may write anywhere, so the test (run as
root) starts a child that drops to ``nobody`` with ``setpriv``, a real user with no rights of its own.

That child cannot run from the checkout: its ``.venv`` (and the interpreter the venv points to, say pyenv's in
root's home) may sit in a folder only root may enter, a clone in ``/root`` or any ``0700`` folder. So it runs
from a world-readable temporary copy of the installed packages it needs (the same files the tests import), on an
interpreter that user can run: the venv's own base interpreter when it can, else the system's ``python3``,
tried as that user first (same version as the tests' preferred, 3.11 or newer accepted).
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

#: The unprivileged user the children run as (Debian's ``nobody``).
NOBODY = 65534

#: What a usable interpreter must do as that user: start, import some of its standard library, say its version.
_PROBE = "import json, sys, tempfile; print(*sys.version_info[:2])"


def drop_to(uid: int) -> list[str]:
    """The start of a command line that runs the rest as ``uid`` (its own group, no other groups). The rest is
    started by ``env``, already as that user: setpriv itself may still find a program in a folder only root may
    enter, and what works in the test must be what that user can do."""
    return ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "env"]


@functools.cache
def interpreter_for(uid: int) -> str:
    """A Python that ``uid`` can run: this Python's base interpreter, else the system's ``python3``."""
    candidates = [os.path.realpath(getattr(sys, "_base_executable", sys.executable))]
    system = shutil.which("python3", path="/usr/bin:/bin:/usr/local/bin")
    if system:
        candidates.append(system)
    usable: list[str] = []
    tried: list[str] = []
    for path in dict.fromkeys(candidates):
        try:
            probe = subprocess.run(
                [*drop_to(uid), path, "-I", "-c", _PROBE], capture_output=True, text=True, timeout=60, cwd="/"
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            tried.append(f"{path}: {exc}")
            continue
        if probe.returncode != 0:
            tried.append(f"{path}: {probe.stderr.strip()[-300:] or probe.returncode}")
            continue
        version = tuple(int(part) for part in probe.stdout.split())
        if version == sys.version_info[:2]:
            return path
        if version >= (3, 11):
            usable.append(path)
        tried.append(f"{path}: Python {'.'.join(map(str, version))}")
    if usable:
        return usable[0]
    raise RuntimeError(f"no Python 3.11+ that user {uid} can run: " + "; ".join(tried))


@contextlib.contextmanager
def python_as(uid: int, *packages: str) -> Iterator[list[str]]:
    """The start of a command line that runs Python as ``uid`` with a readable copy of ``packages`` (top-level
    names, copied from where this process imports them) first on its path; add the Python arguments. The copy
    is removed afterwards."""
    top = Path(tempfile.mkdtemp(prefix="kiosk-as-user-"))
    try:
        site = top / "site"
        site.mkdir()
        for name in packages:
            spec = importlib.util.find_spec(name)
            if spec is None:
                raise ModuleNotFoundError(name)
            if spec.submodule_search_locations:
                shutil.copytree(
                    next(iter(spec.submodule_search_locations)),
                    site / name,
                    ignore=shutil.ignore_patterns("__pycache__"),
                )
            elif spec.origin:
                shutil.copy(spec.origin, site)
        for folder, _dirs, files in os.walk(top):  # readable whatever the umask or the files' own modes
            os.chmod(folder, 0o755)
            for f in files:
                os.chmod(os.path.join(folder, f), 0o644)
        yield [*drop_to(uid), f"PYTHONPATH={site}", interpreter_for(uid), "-s"]
    finally:
        shutil.rmtree(top)
