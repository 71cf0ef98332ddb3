"""The settings' file: ``kiosk.json`` read strictly (:func:`load`) or never failing (:func:`load_safely`: the
file, else its last good copy, else the defaults, keeping a valid PIN), and written atomically (:func:`save`:
temp file, fsync, rename, fsync the folder), each good file kept as ``kiosk.last-good.json`` beside it.

The file is JSON (``kiosk.json`` in the state folder unless ``--config`` or ``$KIOSK_CONFIG`` names another).
Rationale and decisions: docs/developer/design.md, section ``kiosk/config/``.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from kiosk import safejson
from kiosk.config.validate import load_dict
from kiosk.config.values import Config, ConfigError, OperatorConfig, to_dict
from kiosk.files import aside_name, atomic_write_bytes
from kiosk.pin import FORMER_DEFAULT_PIN_HASH, pin_hash_problem

__all__ = [
    "LoadedConfig",
    "load",
    "load_safely",
    "save",
    "last_good_path",
    "default_state_dir",
    "table_state_dir",
    "default_config_path",
    "MAX_BYTES",
    "MAX_DEPTH",
]

#: The largest config file read, and its deepest nesting (the real file is 2 KB and 3 levels deep).
MAX_BYTES = 256 * 1024
MAX_DEPTH = 8

log = logging.getLogger("kiosk.config")


def default_state_dir() -> Path:
    """``$STATE_DIRECTORY`` (the unit's ``Environment=STATE_DIRECTORY=/var/lib/sushi-kiosk``) or
    ``$XDG_STATE_HOME/sushi-kiosk`` (~/.local/state)."""
    env = os.environ.get("STATE_DIRECTORY")
    if env:
        return Path(env.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "sushi-kiosk"


def table_state_dir() -> Path:
    """The installed table's state folder (the unit's ``STATE_DIRECTORY`` and ``ReadWritePaths=``):
    ``/var/lib/sushi-kiosk``, or ``$KIOSK_TABLE_STATE_DIR`` (tests). ``kiosk --set-pin`` run by root writes here, as
    the folder's owner."""
    return Path(os.environ.get("KIOSK_TABLE_STATE_DIR") or "/var/lib/sushi-kiosk")


def default_config_path() -> Path:
    env = os.environ.get("KIOSK_CONFIG")
    return Path(env) if env else default_state_dir() / "kiosk.json"


def last_good_path(path: Path | str) -> Path:
    """Where the last good copy of the config at ``path`` is kept: ``kiosk.last-good.json`` beside it."""
    path = Path(path)
    return path.with_name(f"{path.stem}.last-good{path.suffix or '.json'}")


def _read(path: Path, source: str) -> Config:
    """Read and validate one file; :class:`ConfigError` for anything wrong with it, ``OSError`` to the caller."""
    try:
        data = safejson.read_file(path, max_bytes=MAX_BYTES, max_depth=MAX_DEPTH)
    except safejson.Unreadable as exc:
        raise ConfigError([str(exc)], source) from None
    return load_dict(data, source)


def load(path: Path | str, *, create: bool = True) -> Config:
    """Load and validate ``path`` strictly (:class:`ConfigError` for any problem, also for a file that cannot be
    read). A missing file is created with the defaults when ``create`` is true."""
    path = Path(path)
    if not path.exists():
        cfg = Config()
        if create:
            save(cfg, path)
        return cfg
    try:
        return _read(path, str(path))
    except OSError as exc:
        raise ConfigError([f"cannot read the file: {exc.strerror or exc}"], str(path)) from exc


@dataclass(frozen=True)
class LoadedConfig:
    """What :func:`load_safely` started with: the configuration, where it came from, and what was wrong.

    ``source`` is ``"file"`` (the config file as it is), ``"last good copy"`` or ``"defaults"``. ``problems`` is
    empty when the file was fine; otherwise one line per problem, for the operator menu.
    """

    config: Config
    source: str
    problems: tuple[str, ...] = ()
    path: Path | None = None

    @property
    def ok(self) -> bool:
        return not self.problems


def load_safely(path: Path | str, *, create: bool = True) -> LoadedConfig:
    """Load the config the kiosk starts with. Never raises: see the module docstring for the fallbacks."""
    path = Path(path)
    good = last_good_path(path)
    problems: list[str] = []
    broken_pin: str | None = None
    try:
        cfg = _read(path, path.name)
    except (FileNotFoundError, NotADirectoryError):
        fallback = _fallback(good, problems, None)
        source = "defaults" if fallback is None else "last good copy"
        cfg = fallback or Config()
        if fallback is not None:
            problems.insert(0, f"{path.name} was missing: restored from {good.name}")
        if create:
            try:
                save(cfg, path)
            except OSError as exc:
                problems.append(f"{path.name} could not be created ({exc.strerror or exc}): changes are not kept")
        for line in problems:
            log.warning("config: %s", line)
        return LoadedConfig(cfg, source if problems else "file", tuple(problems), path)
    except ConfigError as exc:
        problems.extend(exc.problems)
        broken_pin = _salvage_pin(path)
    except OSError as exc:
        problems.append(f"{path.name} cannot be read: {exc.strerror or exc}")
    else:
        _refresh_last_good(cfg, path)
        return LoadedConfig(cfg, "file", (), path)
    fallback = _fallback(good, problems, broken_pin)
    if fallback is not None:
        source = "last good copy"
        cfg = fallback
    else:
        source = "defaults"
        cfg = Config() if broken_pin is None else Config(operator=OperatorConfig(pin_hash=broken_pin))
    log.warning(
        "config %s has %d problem(s); the kiosk runs with the %s: %s", path, len(problems), source, "; ".join(problems)
    )
    return LoadedConfig(cfg, source, tuple(problems), path)


def _fallback(good: Path, problems: list[str], broken_pin: str | None) -> Config | None:
    try:
        cfg = _read(good, good.name)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (ConfigError, OSError) as exc:
        problems.append(f"the last good copy {good.name} is not usable either: {str(exc).splitlines()[-1].strip()}")
        return None
    if broken_pin is not None and broken_pin != cfg.operator.pin_hash:
        cfg = dataclasses.replace(cfg, operator=dataclasses.replace(cfg.operator, pin_hash=broken_pin))
    return cfg


def _salvage_pin(path: Path) -> str | None:
    """A valid PIN hash in a config that does not load as a whole (so a typo elsewhere keeps the PIN)."""
    try:
        data = safejson.read_file(path, max_bytes=MAX_BYTES, max_depth=MAX_DEPTH)
        value = data["operator"]["pin_hash"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    ok = isinstance(value, str) and pin_hash_problem(value) is None and value != FORMER_DEFAULT_PIN_HASH
    return value if ok else None


def _refresh_last_good(cfg: Config, path: Path) -> None:
    good = last_good_path(path)
    blob = _encode(cfg)
    try:
        if good.exists() and good.read_bytes() == blob:
            return
        atomic_write_bytes(good, blob)
    except OSError as exc:
        log.warning("could not keep the last good config %s: %s", good, exc.strerror or exc)


def _encode(cfg: Config) -> bytes:
    return (json.dumps(to_dict(cfg), indent=2) + "\n").encode("utf-8")


def save(cfg: Config, path: Path | str) -> None:
    """Write the configuration atomically (temp file in the same folder, fsync, rename, fsync the folder) and
    keep it as the last good copy. A file in the way that does not load is moved aside first
    (``kiosk.rejected-<stamp>.json``). ``OSError`` if the card refuses the write (the old file is untouched)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        try:
            _read(path, path.name)
        except (ConfigError, OSError) as exc:
            dest = aside_name(path, "rejected")
            try:
                os.replace(path, dest)
                log.warning("%s did not load (%s); moved aside to %s", path, str(exc).splitlines()[-1].strip(), dest)
            except OSError as move_exc:
                log.warning("could not move %s aside: %s", path, move_exc)
    blob = _encode(cfg)
    atomic_write_bytes(path, blob)
    _refresh_last_good(cfg, path)
