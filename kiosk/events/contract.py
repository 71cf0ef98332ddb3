"""What the tables and the event board say to each other over MQTT: topics, the game record and the board.

Topics (``<event>`` and ``<table>`` are slugs, :data:`SLUG`):

* ``kiosk/events/<event>/tables/<table>/games``: one finished game per message, QoS 1, not retained;
* ``kiosk/events/<event>/tables/<table>/status``: retained ``{"v":1,"table":..,"state":"online"|"offline","at":..}``,
  "offline" being the table's Last Will;
* ``kiosk/events/<event>/board``: retained, the event's boards, published by the event board service only.

A game record (JSON, at most :data:`MAX_BYTES`): ``{"v": 1, "id", "event", "table", "game", "finished_at" (UTC,
``2026-12-03T14:05:09Z``), "duration_s", "players": [{"seat", "initials" (1-3 of A-Z 0-9, or null), "score", "bot",
"winner"}, ...1 to 6], "mode": "play", "lower_is_better" (optional: times)}``. A board: ``{"v": 1, "event",
"title", "updated", "games": {game: {"all"|"today"|"hour": [{"initials", "score", "table", "finished_at", "id"}]}}}``.
A record's ``id`` (32 hex digits, uuid4) is the key everywhere: the table's outbox, the broker's retries, the
service's database; a record seen twice counts once. Both sides check every message with :func:`check_record` /
:func:`check_board`: a message that fails is refused with one log line and nothing else is lost.
"""

from __future__ import annotations

import json
import re
import uuid
from datetime import UTC, datetime
from typing import Any

__all__ = [
    "SLUG",
    "MAX_BYTES",
    "ContractError",
    "games_topic",
    "status_topic",
    "board_topic",
    "parse_topic",
    "new_record",
    "check_record",
    "check_board",
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
_ID = re.compile(r"[0-9a-f]{32}")
_INITIALS = re.compile(r"[A-Z0-9]{1,3}")
_GAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")
_TOPIC = re.compile(r"kiosk/events/([^/]+)/(?:tables/([^/]+)/(games|status)|(board))")


class ContractError(ValueError):
    """A message that does not follow the contract; the text says what is wrong."""


def games_topic(event: str, table: str) -> str:
    return f"kiosk/events/{event}/tables/{table}/games"


def status_topic(event: str, table: str) -> str:
    return f"kiosk/events/{event}/tables/{table}/status"


def board_topic(event: str) -> str:
    return f"kiosk/events/{event}/board"


def parse_topic(topic: str) -> tuple[str, str | None, str]:
    """``(event, table or None, kind)`` with kind ``games``, ``status`` or ``board``; ContractError otherwise."""
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
            _need(isinstance(rows, list) and len(rows) <= 10, f"{key}.{period}: at most 10 rows")
            for row in rows:
                _need(isinstance(row, dict), "a board row is an object")
                _need(isinstance(row.get("initials"), str) and bool(_INITIALS.fullmatch(row["initials"])), "initials")
                _need(isinstance(row.get("score"), int) and not isinstance(row["score"], bool), "score")
                _need(isinstance(row.get("table"), str) and bool(SLUG.fullmatch(row["table"])), "table")
    return board


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
