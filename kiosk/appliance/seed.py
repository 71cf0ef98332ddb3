"""Carry the running version's unchanged libraries into a new version's environment.

An update bundle holds every wheel the app needs, but most updates change the app alone: reinstalling Kivy, Pillow
and the rest (unpacking, byte-compiling) is most of an update's time on a Pi's SD card. :func:`carry` copies, from the
running version's virtual environment into the new one, each distribution that the new version wants at exactly the
version already installed, every file checked against the hash pip wrote in its ``RECORD``: a file damaged on the
card is not carried, and that distribution is installed from the bundle's wheel instead. Scripts in ``bin/`` get
their ``#!`` line pointed at the new environment's Python. The running version is only read.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import re
import shutil
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path


def canonical(name: str) -> str:
    """A distribution's name as pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def site_packages(env: Path) -> Path | None:
    """The one ``lib/pythonX.Y/site-packages`` of virtual environment ``env`` (None if it has not exactly one)."""
    found = sorted(env.glob("lib/python3*/site-packages"))
    return found[0] if len(found) == 1 else None


def installed(env: Path) -> dict[str, str]:
    """Canonical name -> version of every distribution in ``env``'s site-packages."""
    site = site_packages(env)
    if site is None:
        return {}
    return {canonical(d.metadata["Name"] or ""): d.version for d in metadata.distributions(path=[str(site)])}


def _record_hash(data: bytes, mode: str) -> str:
    return base64.urlsafe_b64encode(hashlib.new(mode, data).digest()).rstrip(b"=").decode()


def _carry_one(dist: metadata.Distribution, old_env: Path, new_env: Path) -> list[Path] | None:
    """Copy one distribution's files; the files written, or None (nothing left behind) if one is missing, damaged
    or lies outside ``old_env``."""
    written: list[Path] = []
    old_root = old_env.resolve()
    shebang_old = str(old_env).encode()
    try:
        for entry in dist.files or ():
            src = Path(str(dist.locate_file(entry))).resolve()
            rel = src.relative_to(old_root)  # ValueError: a file outside the environment
            data = src.read_bytes()
            if entry.hash is not None and _record_hash(data, entry.hash.mode) != entry.hash.value:
                raise ValueError(f"{rel}: does not match its RECORD")
            if rel.parts[0] == "bin" and data.startswith(b"#!"):
                first, _, rest = data.partition(b"\n")
                data = first.replace(shebang_old, str(new_env).encode()) + b"\n" + rest
            dest = new_env / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
            written.append(dest)
            shutil.copystat(src, dest)  # the mtime too: the byte-compiled files stay valid for their sources
    except (OSError, ValueError):
        for path in written:
            with contextlib.suppress(OSError):
                path.unlink()
        return None
    return written


def carry(old_env: Path, new_env: Path, wanted: Mapping[str, str]) -> list[str]:
    """Copy into ``new_env`` every distribution of ``old_env`` named in ``wanted`` (canonical name -> version) at
    that very version; returns the canonical names carried (the rest must be installed from wheels). Both
    environments must be of the same Python (X.Y); otherwise nothing is carried."""
    old_site, new_site = site_packages(old_env), site_packages(new_env)
    if old_site is None or new_site is None or old_site.relative_to(old_env) != new_site.relative_to(new_env):
        return []
    carried: list[str] = []
    for dist in metadata.distributions(path=[str(old_site)]):
        name = canonical(dist.metadata["Name"] or "")
        if name in carried or wanted.get(name) != dist.version:
            continue
        if _carry_one(dist, old_env, new_env) is not None:
            carried.append(name)
    return carried
