"""Storage that loses nothing: crash-safe high scores and statistics, and game journals for resuming after a
power cut. User documentation: ``docs/storage.md``.

* :class:`HighScores` (and :class:`UnavailableHighScores`) -- boards and play counts in one TinyDB file.
* :class:`AtomicJSONStorage` -- the TinyDB ``Storage`` behind it (temp file, fsync, ``os.replace``, folder fsync).
* :class:`SavedGames`, :class:`GameJournal`, :class:`UnfinishedGame` -- the per-action journal of the game in
  progress, the "Resume the Makoto game from 14:05?" offers at start, and the archive.
* :class:`ScoreStore`, :class:`GameStore` -- the stores as the kiosk uses them, real or stand-in (Protocols).
"""

from .atomic import AtomicJSONStorage, StorageError, StorageUnavailable
from .journal import (
    GameJournal,
    JournalError,
    LoadedJournal,
    NullJournal,
    SavedGames,
    UnavailableSavedGames,
    UnfinishedGame,
    load_journal,
    replay_journal,
)
from .scores import HighScores, ScoreEntry, UnavailableHighScores, check_name, check_score
from .stores import GameStore, ScoreStore

__all__ = [
    "GameStore",
    "ScoreStore",
    "AtomicJSONStorage",
    "StorageError",
    "StorageUnavailable",
    "HighScores",
    "UnavailableHighScores",
    "ScoreEntry",
    "check_name",
    "check_score",
    "SavedGames",
    "UnavailableSavedGames",
    "GameJournal",
    "NullJournal",
    "UnfinishedGame",
    "LoadedJournal",
    "JournalError",
    "load_journal",
    "replay_journal",
]
