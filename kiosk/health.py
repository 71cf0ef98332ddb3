"""The table's health in one plain value, for the operator menu and the attract screen's corner marks (no Kivy).

    >>> h = Health(pin_set=False)
    >>> h.marks()
    ['No operator PIN']

:func:`collect` reads what the stores, the config loader, the PIN guard and the hardware layer already know (no
file is parsed; one folder listing and one ``statvfs``), so it is cheap enough to call whenever the menu opens.

Decisions written down:

* Files moved aside are listed from the state folder itself (``*.corrupt-*``, ``*.rejected-*``), not only those
  of this start: the operator sees them until someone looks at them and deletes them.
* The corner marks are short and few: "No operator PIN" (a try-out, or a table whose settings were lost: the
  corner gesture says how the owner sets one, never offers to set it) and "Settings problem" (the config did not
  load: the table runs on the last good copy or the defaults). Everything else waits for the menu; guests need
  not know about a card that is filling up.
* "Low space" is below 50 MB free on the card (a full scores file is about 10 MB, a game journal well under 1 MB).
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from kiosk.appliance import readonly
from kiosk.i18n import N_, SOURCE, Translator, translator

__all__ = ["Health", "collect", "data_stick_missing", "LOW_SPACE_BYTES"]

LOW_SPACE_BYTES = 50 * 10**6
log = logging.getLogger(__name__)
_said = {"stick": False}  # the missing data stick is logged once per start


@dataclass(frozen=True)
class Health:
    """What the operator menu's health panel shows. Every field has a harmless default."""

    storage_ok: bool = True
    storage_reason: str = ""
    boards: dict[str, int] = field(default_factory=dict)  #: entries per game
    scores_problems: tuple[str, ...] = ()  #: what was wrong with the scores file at start
    journal_state: str = "no game"  #: "on", "retrying", "closed", "off", "no game"
    journal_error: str | None = None
    journal_failed_writes: int = 0
    saved_games_ok: bool = True
    journal_start_error: str | None = None  #: why the last new game got no journal (card full), if it did not
    journals_set_aside: tuple[tuple[str, str], ...] = ()  #: (file, reason) archived at this start
    files_aside: tuple[str, ...] = ()  #: damaged files kept aside in the state folder
    free_bytes: int | None = None
    total_bytes: int | None = None
    config_source: str = "file"
    config_problems: tuple[str, ...] = ()
    pin_set: bool = True
    pin_failures: tuple[datetime, ...] = ()  #: wrong PINs since the menu was last opened
    pin_consecutive: int = 0
    pin_wait_s: float = 0.0
    pin_problem: str | None = None
    hardware: tuple[str, ...] = ()
    data_stick_missing: bool = False  #: read-only mode's data stick is not mounted: nothing is kept

    @property
    def low_space(self) -> bool:
        return self.free_bytes is not None and self.free_bytes < LOW_SPACE_BYTES

    def marks(self, tr: Translator | None = None) -> list[str]:
        """The small marks for a corner of the attract screen (empty when all is well), in ``tr``'s language."""
        tr = tr or translator(SOURCE)
        out = []
        if self.data_stick_missing:
            out.append(tr._("No data stick"))
        if not self.pin_set:
            out.append(tr._("No operator PIN"))
        if self.config_problems:
            out.append(tr._("Settings problem"))
        return out

    def problems(self, tr: Translator | None = None) -> list[str]:
        """One short line per thing that needs the operator (empty when all is well), in ``tr``'s language."""
        tr = tr or translator(SOURCE)
        n, out = tr.number, []
        if self.data_stick_missing:
            out.append(tr._(DATA_STICK_MISSING))
        if not self.pin_set:
            out.append(tr._("No operator PIN is set."))
        if self.pin_failures:
            k = len(self.pin_failures)
            text = tr.ngettext(
                "{n} wrong PIN since the menu was last opened.", "{n} wrong PINs since the menu was last opened.", k
            )
            out.append(text.format(n=n(k)))
        if self.config_problems:
            k = len(self.config_problems)
            text = tr.ngettext(
                "Settings file has {n} problem: running on the {source}.",
                "Settings file has {n} problems: running on the {source}.",
                k,
            )
            out.append(text.format(n=n(k), source=self.config_source))
        if not self.storage_ok:
            out.append(tr._("High scores unavailable."))
        if self.scores_problems:
            k = len(self.scores_problems)
            text = tr.ngettext(
                "Scores file had {n} damaged part, left out.", "Scores file had {n} damaged parts, left out.", k
            )
            out.append(text.format(n=n(k)))
        if self.journal_state == "retrying":
            out.append(tr._("Saving the game for crash recovery fails (retried at every move)."))
        if self.journal_start_error:
            out.append(tr._("The last game started without crash recovery."))
        if not self.saved_games_ok:
            out.append(tr._("Crash recovery unavailable."))
        if self.files_aside:
            k = len(self.files_aside)
            out.append(tr.ngettext("{n} damaged file kept aside.", "{n} damaged files kept aside.", k).format(n=n(k)))
        if self.low_space:
            out.append(tr._("The card is almost full."))
        return out

    def lines(self, tr: Translator | None = None) -> list[str]:
        """The full panel as text lines, most important first, in ``tr``'s language (English by default; the
        stores' and the config checker's own reasons stay as they write them)."""
        tr = tr or translator(SOURCE)
        n = tr.number
        out: list[str] = []
        if self.data_stick_missing:
            out.append(tr._(DATA_STICK_MISSING))
        scores = tr._("ok") if self.storage_ok else tr._("UNAVAILABLE ({reason})").format(reason=self.storage_reason)
        entries = sum(self.boards.values())
        boards = tr.ngettext("{n} board", "{n} boards", len(self.boards)).format(n=n(len(self.boards)))
        high = tr.ngettext(
            "High scores: {state}; {n} entry on {boards}", "High scores: {state}; {n} entries on {boards}", entries
        )
        out.append(high.format(state=scores, n=n(entries), boards=boards))
        out += ["  " + tr._("left out at start: {problem}").format(problem=p) for p in self.scores_problems[:3]]
        if len(self.scores_problems) > 3:
            out.append("  " + tr._("... and {n} more").format(n=n(len(self.scores_problems) - 3)))
        failing = tr.ngettext(
            "FAILING, retried at every move ({n} failed write)",
            "FAILING, retried at every move ({n} failed writes)",
            self.journal_failed_writes,
        )
        journal = {
            "on": tr._("on (every move saved)"),
            "retrying": failing.format(n=n(self.journal_failed_writes)),
            "closed": tr._("closed"),
            "off": tr._("off (no storage)"),
            "no game": tr._("no game running"),
        }.get(self.journal_state, self.journal_state)
        recovery = tr._("ok") if self.saved_games_ok else tr._("UNAVAILABLE")
        out.append(tr._("Crash recovery: {state}; journal {journal}").format(state=recovery, journal=journal))
        if self.journal_error and self.journal_state == "retrying":
            out.append("  " + tr._("last error: {error}").format(error=self.journal_error))
        if self.journal_start_error:
            without = tr._("the last game started without crash recovery: {error}")
            out.append("  " + without.format(error=self.journal_start_error))
        aside = tr._("journal set aside: {name} ({why})")
        out += ["  " + aside.format(name=name, why=why) for name, why in self.journals_set_aside[:3]]
        if self.files_aside:
            shown = ", ".join(self.files_aside[:3]) + (" ..." if len(self.files_aside) > 3 else "")
            kept = tr._("Damaged files kept aside: {n} ({names})")
            out.append(kept.format(n=n(len(self.files_aside)), names=shown))
        if self.free_bytes is not None and self.total_bytes:
            card = tr._("Card: {free} MB free of {total} MB").format(
                free=n(round(self.free_bytes / 1e6)), total=n(round(self.total_bytes / 1e6))
            )
            out.append(card + ("  " + tr._("LOW") if self.low_space else ""))
        if self.config_problems:
            source = tr._(_SOURCES[self.config_source]) if self.config_source in _SOURCES else self.config_source
            out.append(tr._("Settings: running on the {source}; the file has problems:").format(source=source))
            out += [f"  {p}" for p in self.config_problems[:4]]
            if len(self.config_problems) > 4:
                more = tr._("... and {n} more ({command})")
                out.append("  " + more.format(n=n(len(self.config_problems) - 4), command="kiosk --check-config"))
        else:
            out.append(tr._("Settings: ok"))
        pin = tr._("set") if self.pin_set else tr._("NOT SET")
        fails = len(self.pin_failures)
        line = tr._("Operator PIN: {state}; wrong PINs since last visit: {n}").format(state=pin, n=n(fails))
        if fails:
            when = ", ".join(_when(t, tr) for t in self.pin_failures[-3:])
            line += " " + tr._("(last: {times})").format(times=when)
        out.append(line)
        if self.pin_problem:
            out.append(f"  {self.pin_problem}")
        out += list(self.hardware)
        return out


#: Read-only mode without its data stick (the operator menu's first line, and a problem).
DATA_STICK_MISSING = N_(
    "The data stick is missing: nothing is kept (scores, saved games, settings) until it is back and the table "
    "restarts."
)

#: Where the settings came from (``LoadedConfig.source``), in the panel's words.
_SOURCES = {"file": N_("file"), "last good copy": N_("last good copy"), "defaults": N_("defaults")}


def _when(t: datetime, tr: Translator) -> str:
    """A wrong PIN's day and time, the language's way (``04 Dec 15:05``, ``04.12. 15:05``)."""
    from babel.dates import format_skeleton

    return f"{format_skeleton('dMMM', t, locale=tr.language)} {tr.time(t)}"


def _files_aside(folders: Iterable[Path]) -> tuple[str, ...]:
    found: list[str] = []
    for folder in folders:
        try:
            found += sorted(
                p.name for p in folder.iterdir() if (".corrupt-" in p.name or ".rejected-" in p.name) and p.is_file()
            )
        except OSError:
            continue
    return tuple(found)


def data_stick_missing(state_dir: Path | None) -> bool:
    """Read-only mode's data stick is not mounted on the state folder (:func:`kiosk.appliance.readonly.
    data_stick_missing`); said once per start in the log."""
    missing = state_dir is not None and readonly.data_stick_missing(Path(state_dir))
    if missing and not _said["stick"]:
        _said["stick"] = True
        log.warning("the data stick is not mounted on %s: nothing the table saves is kept", state_dir)
    return missing


def collect(
    *,
    state_dir: Path | None = None,
    scores: Any = None,
    saved_games: Any = None,
    journal: Any = None,
    loaded_config: Any = None,
    pin_guard: Any = None,
    pin_set: bool = True,
    hardware: Sequence[str] = (),
) -> Health:
    """Build a :class:`Health` from the kiosk's parts (any may be None: not started, or a try-out)."""
    stick_missing = data_stick_missing(state_dir)
    storage_ok = bool(getattr(scores, "available", False))
    boards: dict[str, int] = {}
    if storage_ok:
        for game in scores.games():
            n = scores.count(game)
            if n:
                boards[game] = n
    free = total = None
    if state_dir is not None:
        try:
            usage = shutil.disk_usage(state_dir)
            free, total = usage.free, usage.total
        except OSError:
            pass
    return Health(
        storage_ok=storage_ok,
        storage_reason=str(getattr(scores, "reason", "not opened") if scores is not None else "not opened"),
        boards=boards,
        scores_problems=tuple(getattr(scores, "problems", ()) or ()),
        journal_state=str(getattr(journal, "state", "no game")) if journal is not None else "no game",
        journal_error=getattr(journal, "error", None) if journal is not None else None,
        journal_failed_writes=int(getattr(journal, "failed_writes", 0)) if journal is not None else 0,
        saved_games_ok=bool(getattr(saved_games, "available", False)),
        journal_start_error=getattr(saved_games, "last_error", None),
        journals_set_aside=tuple(getattr(saved_games, "set_aside", ()) or ()),
        files_aside=_files_aside([state_dir]) if state_dir is not None else (),
        free_bytes=free,
        total_bytes=total,
        config_source=str(getattr(loaded_config, "source", "file")),
        config_problems=tuple(getattr(loaded_config, "problems", ()) or ()),
        pin_set=pin_set,
        pin_failures=tuple(pin_guard.failures_since_menu()) if pin_guard is not None else (),
        pin_consecutive=int(getattr(pin_guard, "consecutive", 0)),
        pin_wait_s=float(pin_guard.wait_s()) if pin_guard is not None else 0.0,
        pin_problem=getattr(pin_guard, "problem", None),
        hardware=tuple(hardware),
        data_stick_missing=stick_missing,
    )
