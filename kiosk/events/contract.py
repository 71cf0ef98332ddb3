"""What the tables and the event board say to each other over MQTT: topics, the game record, receipts and the board.

Topics (``<event>``, ``<table>``: slugs, :data:`SLUG`): ``kiosk/events/<event>/tables/<table>/games`` (one finished
game per message, QoS 1); ``.../tables/<table>/receipts`` (the event board's ``{"v": 1, "stored": [id, ...]}``, sent
after its database's commit and again for every copy; only that table may read it: the shipped ACL); a table keeps
a game until its receipt, not until the broker's PUBACK (one hop, not delivery); ``.../tables/<table>/status``
(retained ``{"v":1,"table","state":"online"|"offline","at"}``, "offline" the Last Will); ``kiosk/events/<event>/board``
(retained, the event's boards for the tables, from the event board only).

A record (JSON, at most :data:`MAX_BYTES`): ``{"v": 1, "id", "event", "table", "game" (a board: a game's key, or
``<key>-trial``), "finished_at" (UTC, ``2026-12-03T14:05:09Z``), "duration_s", "players": [{"seat", "initials" (1-3
of A-Z 0-9, or null), "score", "bot", "winner"}, ...1 to 6], "mode": "play", "lower_is_better" (optional, never
believed)}``. What it may claim comes from its game's spec (:func:`check_results`), and so does a board's order.
A board: ``{"v": 1, "event", "title", "updated", "games": {game: {"all"|"today"|"hour": [{"initials", "score",
"table"}]}}}``, each game's best :func:`board_rows` so that the largest possible message fits (:func:`table_board`).
The ``id`` (uuid4 hex) is the key everywhere (outbox, retries, database, receipts): a record seen twice counts once.
Both sides check every message (:func:`check_record`, :func:`check_board`): one that fails is refused with one log
line and nothing else is lost.
"""

from __future__ import annotations

import functools
import json
import re
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

__all__ = [
    "SLUG",
    "MAX_BYTES",
    "CLOCK_SKEW",
    "ContractError",
    "BoardRules",
    "games_topic",
    "status_topic",
    "receipts_topic",
    "board_topic",
    "parse_topic",
    "new_record",
    "check_record",
    "check_results",
    "rules_of",
    "event_rules",
    "receipt_payload",
    "check_receipt",
    "check_board",
    "board_rows",
    "table_board",
    "status_payload",
    "decode",
    "encode",
    "utc_text",
    "parse_utc",
]

#: An event's or a table's name in topics and records: lower-case letters, digits and dashes, at most 40.
SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
#: The largest message either side accepts (a six-player record is under 1 KB).
MAX_BYTES = 8192
#: How far ahead of the event board's clock a record's ``finished_at`` may be (tables' clocks drift a little); a
#: record further ahead is refused, and its table keeps it and sends it again until its time has come.
CLOCK_SKEW = timedelta(minutes=5)
#: The most rows a board (one game, one period) holds.
MAX_ROWS = 10
#: The most receipts in one receipt message.
MAX_RECEIPTS = 100
_ID = re.compile(r"[0-9a-f]{32}")
_INITIALS = re.compile(r"[A-Z0-9]{1,3}")
_GAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")
_TOPIC = re.compile(r"kiosk/events/([^/]+)/(?:tables/([^/]+)/(games|status|receipts)|(board))")


class ContractError(ValueError):
    """A message that does not follow the contract; the text says what is wrong."""


def games_topic(event: str, table: str) -> str:
    return f"kiosk/events/{event}/tables/{table}/games"


def status_topic(event: str, table: str) -> str:
    return f"kiosk/events/{event}/tables/{table}/status"


def receipts_topic(event: str, table: str) -> str:
    return f"kiosk/events/{event}/tables/{table}/receipts"


def board_topic(event: str) -> str:
    return f"kiosk/events/{event}/board"


def parse_topic(topic: str) -> tuple[str, str | None, str]:
    """``(event, table or None, kind)`` with kind ``games``, ``status``, ``receipts`` or ``board``; ContractError
    otherwise."""
    m = _TOPIC.fullmatch(topic)
    if m is None or not SLUG.fullmatch(m.group(1)) or (m.group(2) is not None and not SLUG.fullmatch(m.group(2))):
        raise ContractError(f"not a kiosk event topic: {topic[:120]!r}")
    return m.group(1), m.group(2), m.group(3) or "board"


def utc_text(when: datetime) -> str:
    """``2026-12-03T14:05:09Z``: UTC, whole seconds."""
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_utc(text: Any) -> datetime:
    if not isinstance(text, str) or not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", text):
        raise ContractError(f"not a UTC time like 2026-12-03T14:05:09Z: {str(text)[:40]!r}")
    try:
        return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    except ValueError as exc:
        raise ContractError(f"not a real time: {text!r}") from exc


def new_record(
    event: str,
    table: str,
    game: str,
    players: list[dict[str, Any]],
    duration_s: float,
    finished_at: datetime | None = None,
    record_id: str | None = None,
    lower_is_better: bool = False,
) -> dict[str, Any]:
    """A finished game as the contract's record (checked: ContractError when a field is out of bounds).
    ``lower_is_better``: the scores are times (a time trial's board), the lowest best."""
    record: dict[str, Any] = {
        "v": 1,
        "id": record_id or uuid.uuid4().hex,
        "event": event,
        "table": table,
        "game": game,
        "finished_at": utc_text(finished_at or datetime.now(UTC)),
        "duration_s": round(max(0.0, float(duration_s)), 1),
        "players": players,
        "mode": "play",
    }
    if lower_is_better:
        record["lower_is_better"] = True
    return check_record(record)


def _need(cond: bool, what: str) -> None:
    if not cond:
        raise ContractError(what)


def check_record(record: Any) -> dict[str, Any]:
    """The record itself when it follows the contract (version 1); ContractError naming the first fault."""
    _need(isinstance(record, dict), "a record is a JSON object")
    _need(record.get("v") == 1, f"unknown record version {str(record.get('v'))[:10]!r}")
    _need(isinstance(record.get("id"), str) and bool(_ID.fullmatch(record["id"])), "id: 32 lower-case hex digits")
    for key in ("event", "table"):
        _need(isinstance(record.get(key), str) and bool(SLUG.fullmatch(record[key])), f"{key}: not a slug")
    _need(isinstance(record.get("game"), str) and bool(_GAME.fullmatch(record["game"])), "game: not a game's key")
    parse_utc(record.get("finished_at"))
    d = record.get("duration_s")
    _need(isinstance(d, int | float) and not isinstance(d, bool) and 0 <= d < 86400, "duration_s: 0 to a day")
    players = record.get("players")
    _need(isinstance(players, list) and 1 <= len(players) <= 6, "players: 1 to 6")
    seats = set()
    for p in players:
        _need(isinstance(p, dict), "a player is a JSON object")
        seat, score = p.get("seat"), p.get("score")
        _need(isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat <= 5, "seat: 0 to 5")
        _need(seat not in seats, f"seat {seat} twice")
        seats.add(seat)
        _need(isinstance(score, int) and not isinstance(score, bool) and abs(score) < 10**9, "score: a whole number")
        ini = p.get("initials")
        _need(ini is None or (isinstance(ini, str) and bool(_INITIALS.fullmatch(ini))), "initials: 1-3 of A-Z 0-9")
        _need(isinstance(p.get("bot"), bool) and isinstance(p.get("winner"), bool), "bot and winner: true/false")
    _need(record.get("mode") == "play", "mode: play")
    _need(isinstance(record.get("lower_is_better", False), bool), "lower_is_better: true/false")
    return record


# ---------------------------------------------------------------------------------------------- what a game can do
@dataclass(frozen=True)
class BoardRules:
    """What a board's records may claim, and how the board ranks them: from the game's spec, never from a record.

    ``players``: the fewest and most seats; ``score``: the lowest and highest score (a time trial's: its times in
    milliseconds); ``lower_is_better``: the board's ordering (a time trial's: the fastest first); ``title``: the
    board's name for people; ``unit``: ``"points"`` or ``"ms"``."""

    players: tuple[int, int]
    score: tuple[int, int]
    lower_is_better: bool
    title: str
    unit: str = "points"


def rules_of(specs: Mapping[str, Any]) -> dict[str, BoardRules]:
    """The boards of the games ``specs`` (key -> :class:`~kiosk.engine.GameSpec`): one per game that declares its
    :class:`~kiosk.engine.Results`, and one more, ``<key>-trial``, per game with a time trial."""
    from kiosk.engine import trial_board

    out: dict[str, BoardRules] = {}
    for key, spec in specs.items():
        results = getattr(spec, "results", None)
        if results is None:
            continue  # a game that declares nothing: the event takes none of its records
        out[key] = BoardRules(
            (spec.min_players, spec.max_players), tuple(results.score), bool(spec.lower_is_better), spec.title
        )
        if results.trial_ms is not None:
            out[trial_board(key)] = BoardRules((1, 1), tuple(results.trial_ms), True, f"{spec.title} time trial", "ms")
    return out


@functools.cache
def event_rules() -> dict[str, BoardRules]:
    """:func:`rules_of` the games this installation knows (:data:`kiosk.games.GAMES`): what both the table and the
    event board check records against."""
    from kiosk.games import GAMES

    return rules_of(GAMES)


def check_results(record: dict[str, Any], rules: Mapping[str, BoardRules]) -> dict[str, Any]:
    """The record (already :func:`check_record`-ed) when its game is one of ``rules`` and every result is one that
    game can produce; ContractError naming the first that is not."""
    game = record["game"]
    board = rules.get(game)
    _need(board is not None, f"{game!r} is not a game this event knows")
    assert board is not None
    players = record["players"]
    lo, hi = board.players
    _need(lo <= len(players) <= hi, f"{len(players)} player(s): {board.title} is for {lo} to {hi}")
    lo, hi = board.score
    for p in players:
        score = p["score"]
        what = "time (ms)" if board.unit == "ms" else "score"
        _need(lo <= score <= hi, f"seat {p['seat']}'s {what} {score}: {board.title} can only give {lo} to {hi}")
    return record


# ---------------------------------------------------------------------------------------------- receipts
def receipt_payload(ids: Iterable[str]) -> bytes:
    """The event board's receipt for the records ``ids`` (stored: committed to its database)."""
    return encode({"v": 1, "stored": list(ids)})


def check_receipt(data: Any) -> list[str]:
    """The record ids a receipt message says are stored; ContractError naming the fault otherwise."""
    _need(isinstance(data, dict) and data.get("v") == 1, "a receipt is a version 1 JSON object")
    ids = data.get("stored")
    _need(isinstance(ids, list) and 1 <= len(ids) <= MAX_RECEIPTS, f"stored: 1 to {MAX_RECEIPTS} ids")
    for rid in ids:
        _need(isinstance(rid, str) and bool(_ID.fullmatch(rid)), "stored: ids of 32 lower-case hex digits")
    return list(ids)


# ---------------------------------------------------------------------------------------------- boards
def check_board(board: Any, event: str) -> dict[str, Any]:
    """An event board message (see the module docstring) for ``event``; ContractError naming the first fault."""
    _need(isinstance(board, dict) and board.get("v") == 1, "a board is a version 1 JSON object")
    _need(board.get("event") == event, "the board of another event")
    _need(isinstance(board.get("title"), str) and len(board["title"]) <= 80, "title: at most 80 characters")
    games = board.get("games")
    _need(isinstance(games, dict) and len(games) <= 32, "games: an object")
    for key, boards in games.items():
        _need(isinstance(key, str) and bool(_GAME.fullmatch(key)) and isinstance(boards, dict), "a game's boards")
        for period in ("all", "today", "hour"):
            rows = boards.get(period, [])
            _need(isinstance(rows, list) and len(rows) <= MAX_ROWS, f"{key}.{period}: at most {MAX_ROWS} rows")
            for row in rows:
                _need(isinstance(row, dict), "a board row is an object")
                _need(isinstance(row.get("initials"), str) and bool(_INITIALS.fullmatch(row["initials"])), "initials")
                _need(isinstance(row.get("score"), int) and not isinstance(row["score"], bool), "score")
                _need(isinstance(row.get("table"), str) and bool(SLUG.fullmatch(row["table"])), "table")
    return board


#: The largest row of a table's board: ``{"initials":"WWW","score":-999999999,"table":<a 40-letter slug>}`` and its
#: comma (a score is a whole number under 10**9 either way).
ROW_BYTES = len('{"initials":"WWW","score":-999999999,"table":""},') + 40
#: The largest room one game takes besides its rows: its key (32 characters) and three empty periods.
GAME_BYTES = len('"":{"all":[],"hour":[],"today":[]},') + 32
#: The largest room the rest takes: the event (40), the title (80 characters, each up to 6 bytes in JSON: a
#: control character escaped as ``\u0001``) and the time.
FRAME_BYTES = len('{"event":"","games":{},"title":"","updated":"2026-12-03T14:05:09Z","v":1}') + 40 + 80 * 6


def board_rows(games: int) -> int:
    """How many rows each period of each of ``games`` games can have on a table's board so that the largest
    possible message fits :data:`MAX_BYTES` (at most :data:`MAX_ROWS`; 0 when not even one row each fits)."""
    room = MAX_BYTES - FRAME_BYTES - games * GAME_BYTES
    per_row = 3 * max(1, games) * ROW_BYTES
    return max(0, min(MAX_ROWS, room // per_row))


def table_board(
    event: str, title: str, updated: datetime, games: Mapping[str, Mapping[str, list[dict[str, Any]]]]
) -> dict[str, Any]:
    """The board message for the tables: each game's best :func:`board_rows` rows of each period (``games``: the
    full boards, best first), each row only what a table shows (initials, score, table). It never exceeds
    :data:`MAX_BYTES`, whatever the names and scores (checked at the largest values by the tests)."""
    n = board_rows(len(games))
    out: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for key, periods in games.items():
        out[key] = {
            period: [
                {"initials": r["initials"], "score": r["score"], "table": r["table"]}
                for r in periods.get(period, [])[:n]
            ]
            for period in ("all", "today", "hour")
        }
    return {"v": 1, "event": event, "title": title[:80], "updated": utc_text(updated), "games": out}


def status_payload(table: str, state: str, at: datetime | None = None) -> bytes:
    return encode({"v": 1, "table": table, "state": state, "at": utc_text(at or datetime.now(UTC))})


def encode(obj: Any) -> bytes:
    data = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()
    if len(data) > MAX_BYTES:
        raise ContractError(f"{len(data)} bytes: over the {MAX_BYTES} allowed")
    return data


def decode(payload: bytes | bytearray) -> Any:
    """The JSON in a message; ContractError for an oversized, non-UTF-8 or non-JSON payload."""
    if len(payload) > MAX_BYTES:
        raise ContractError(f"{len(payload)} bytes: over the {MAX_BYTES} allowed")
    try:
        return json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ContractError(f"not UTF-8 JSON: {str(exc)[:80]}") from exc
