"""High scores: a short import path for :class:`kiosk.storage.HighScores` (the implementation lives there)."""

from kiosk.storage import HighScores, ScoreEntry, StorageError, StorageUnavailable, UnavailableHighScores

__all__ = ["HighScores", "ScoreEntry", "StorageError", "StorageUnavailable", "UnavailableHighScores"]
