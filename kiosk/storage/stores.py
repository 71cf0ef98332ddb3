"""The stores as the kiosk uses them, one :class:`typing.Protocol` each, shared by the real store and its stand-in
for when storage cannot be used: :class:`ScoreStore` (:class:`~kiosk.storage.scores.HighScores` or
:class:`~kiosk.storage.scores.UnavailableHighScores`) and :class:`GameStore` (:class:`~kiosk.storage.journal.SavedGames`
or :class:`~kiosk.storage.journal.UnavailableSavedGames`). The app holds its stores as these, so mypy checks that a
room reads nothing the stand-in lacks."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from kiosk.storage.journal import GameJournal, NullJournal, UnfinishedGame
    from kiosk.storage.scores import ScoreEntry

__all__ = ["GameStore", "ScoreStore"]


class ScoreStore(Protocol):
    """High scores and plays per day; the stand-in's reads are empty and its writes raise ``StorageUnavailable``."""

    @property
    def available(self) -> bool: ...

    @property
    def reason(self) -> str: ...

    def add(self, game: str, name: str, score: int, **details: object) -> ScoreEntry: ...

    def top(self, game: str, n: int = 10, since: datetime | date | None = None) -> list[ScoreEntry]: ...

    def top_today(self, game: str, n: int = 10) -> list[ScoreEntry]: ...

    def qualifies(self, game: str, score: int, n: int = 10, since: datetime | date | None = None) -> bool: ...

    def start_of_today(self) -> datetime: ...

    def reset(self, game: str) -> int: ...

    def record_play(self, game: str, when: datetime | date | None = None) -> int: ...

    def play_counts(
        self, game: str | None = None, since: date | None = None, until: date | None = None
    ) -> dict[str, dict[str, int]]: ...

    def close(self) -> None: ...


class GameStore(Protocol):
    """The games' journals (crash recovery, the archive the day's best games are replayed from); the stand-in keeps
    nothing and has no archive (``archive`` None)."""

    @property
    def available(self) -> bool: ...

    @property
    def archive(self) -> Path | None: ...

    def start(
        self,
        game: str,
        players: int,
        seed: int,
        *,
        state: object = None,
        seats: object = None,
        meta: Mapping[str, object] | None = None,
        setup: Mapping[str, object] | None = None,
    ) -> GameJournal | NullJournal: ...

    def unfinished(self) -> list[UnfinishedGame]: ...

    def journal_bytes(self) -> int: ...

    def close(self) -> None: ...
