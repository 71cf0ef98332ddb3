"""Finished guests' games, journaled as the table journals them: what attract mode's replays and "Watch again" show.

The screenshot tour, the replay tests and the ``ui`` benchmark's replay stage make them with :func:`finished_game`
(random moves from a seed, through the real :class:`kiosk.storage.SavedGames`; the guest's initials, when given,
entered on the real scores with the journal's id, as the results screen enters them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["finished_game"]


def finished_game(
    saved: Any,
    key: str,
    seats: list[dict[str, Any]],
    seed: int,
    *,
    time_s: float | None = None,
    initials: str = "",
    scores: Any = None,
) -> tuple[Path, Any]:
    """A finished game of ``key`` (``seats``: ``{"seat": table seat, "bot": level or None}`` per game seat) played
    by random moves and journaled in ``saved``; ``time_s``: a time trial's time in its end record. With
    ``initials`` and ``scores``, game seat 0's score (or time) is entered on its board. Returns the archived
    journal's path and the final state."""
    from kiosk.ai import RandomBot
    from kiosk.engine import trial_board
    from kiosk.games import GAMES

    spec = GAMES[key]
    state = spec.new_game(len(seats), seed)
    journal = saved.start(key, len(seats), seed, state=state, seats=seats)
    bots = [RandomBot(g, seed + g) for g in range(len(seats))]
    while not state.is_over():
        g = state.to_move()[0]
        state.apply(g, bots[g].choose(state))
    journal.sync(state)
    outcome: Any = state.outcome()
    if time_s is not None:
        outcome = {"scores": list(outcome.scores), "winners": list(outcome.winners), "reason": "over", "time": time_s}
    path = journal.finish(outcome)
    if initials and scores is not None:
        board, score = (trial_board(key), round(time_s * 1000)) if time_s is not None else (key, state.scores()[0])
        scores.add(board, initials, score, journal=journal.id, game_seat=0)
    return Path(path), state
