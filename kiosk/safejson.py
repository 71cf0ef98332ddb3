"""Reading JSON that anyone (a flipped bit, a Windows editor, an adversary with the card) may have written.

Every reader of the kiosk's files (scores, journals, the config, the PIN failure log) goes through here, so the
same limits hold everywhere and every way a file can be wrong ends in one exception type, :class:`Unreadable`,
whose message says what is wrong in words an operator can act on:

    >>> loads(b'{"a": [1, 2]}', max_depth=4)
    {'a': [1, 2]}
    >>> loads(b"[" * 100_000, max_depth=32)
    Traceback (most recent call last):
    ...
    kiosk.safejson.Unreadable: nested deeper than the 32 levels allowed
    >>> loads(b"\xff\xfe{}", max_depth=4)
    Traceback (most recent call last):
    ...
    kiosk.safejson.Unreadable: not UTF-8 text (byte 0xff at position 0)

Rationale and decisions: docs/developer/design.md, section ``kiosk/safejson.py``.
"""

from __future__ import annotations

import codecs
import json
import os
import re
from pathlib import Path
from typing import Any

__all__ = ["Unreadable", "loads", "read_file", "check_depth", "max_depth_of"]


class Unreadable(ValueError):
    """A file or line is not usable JSON of the expected size and depth. The message says why."""


_KEEP = b'[]{}"'
_DROP = bytes(b for b in range(256) if b not in _KEEP)


def max_depth_of(raw: bytes, stop_above: int | None = None) -> int:
    """The deepest bracket nesting in ``raw`` (strings skipped); stops counting once above ``stop_above``.

    Works at C speed on large files (byte replacements only, no per-character Python): escaped backslashes and
    quotes are removed, everything but brackets and quotes is deleted, the text between quote pairs (string
    contents) is dropped, and then each pass removes the innermost ``[]``/``{}`` pairs, so the number of passes
    is the depth. Unbalanced brackets (not JSON anyway) count as one level each.
    """
    outside = raw.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _DROP).split(b'"')[::2]
    rest = b"".join(outside)
    depth = 0
    while rest:
        shorter = rest.replace(b"[]", b"").replace(b"{}", b"")
        depth += 1
        if len(shorter) == len(rest):  # unbalanced: what is left cannot be paired
            return depth - 1 + len(rest)
        if stop_above is not None and depth > stop_above:
            return depth
        rest = shorter
    return depth


_NO_DEFAULT: Any = object()


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_CHUNK = 1 << 20
_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder(parse_constant=_no_constants)


def _decode(raw: bytes) -> str:
    """UTF-8 to text in 1 MiB pieces (each piece one short call)."""
    if len(raw) <= _CHUNK:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise Unreadable(f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at position {exc.start})") from None
    decoder = codecs.getincrementaldecoder("utf-8")()
    parts = []
    for start in range(0, len(raw), _CHUNK):
        try:
            parts.append(decoder.decode(raw[start : start + _CHUNK], final=start + _CHUNK >= len(raw)))
        except UnicodeDecodeError as exc:
            where = start + exc.start
            raise Unreadable(f"not UTF-8 text (byte 0x{raw[where]:02x} at position {where})") from None
    return "".join(parts)


def loads(raw: bytes, *, max_depth: int, empty: Any = _NO_DEFAULT, levels: int = 0) -> Any:
    """Parse ``raw`` (UTF-8, optional BOM) as JSON no deeper than ``max_depth``; raise :class:`Unreadable`.
    ``empty``, if given, is returned for a text that is only white space (instead of an error). ``levels`` > 0:
    the text must be an object whose values are objects down to that many levels, walked record by record (see
    the module docstring)."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    text = _decode(raw)
    if empty is not _NO_DEFAULT and not text.strip():
        return empty
    if levels > 0:
        value, end = _walk_object(text, _ws(text, 0), levels, max_depth - levels)
        if _ws(text, end) != len(text):
            raise Unreadable(f"not valid JSON: extra data at position {_ws(text, end)}")
        return value
    # Cheap first: only a text with that many opening brackets can be that deep.
    if raw.count(b"[") + raw.count(b"{") > max_depth and max_depth_of(raw, max_depth) > max_depth:
        raise Unreadable(f"nested deeper than the {max_depth} levels allowed")
    try:
        return json.loads(text, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        raise Unreadable(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except (ValueError, RecursionError) as exc:  # huge integers, NaN; recursion only if the stack was already deep
        raise Unreadable(f"not valid JSON: {exc}") from None


def read_file(
    path: str | os.PathLike[str], *, max_bytes: int, max_depth: int, empty: Any = _NO_DEFAULT, levels: int = 0
) -> Any:
    """Read and parse a JSON file; :class:`Unreadable` if it is too large (checked first), not UTF-8, not JSON or
    too deep. ``OSError`` (missing file, unreadable card) is left to the caller."""
    path = Path(path)
    size = path.stat().st_size
    if size > max_bytes:
        raise Unreadable(f"{_mb(size)} is more than the {_mb(max_bytes)} such a file may have")
    with open(path, "rb") as fh:
        raw = fh.read(max_bytes + 1)  # the file may grow between stat and read
    if len(raw) > max_bytes:
        raise Unreadable(f"more than the {_mb(max_bytes)} such a file may have")
    return loads(raw, max_depth=max_depth, empty=empty, levels=levels)


def _ws(text: str, pos: int) -> int:
    m = _WS.match(text, pos)
    return m.end() if m else pos


def _value(text: str, pos: int, max_depth: int) -> tuple[Any, int]:
    """One innermost value at ``pos``: a single parser call, then its depth."""
    try:
        value, end = _DECODER.raw_decode(text, pos)
    except json.JSONDecodeError as exc:
        raise Unreadable(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise Unreadable(f"nested deeper than the {max_depth} levels allowed") from None
    except ValueError as exc:
        raise Unreadable(f"not valid JSON: {exc}") from None
    if not check_depth(value, max_depth):
        raise Unreadable(f"nested deeper than the {max_depth} levels allowed")
    return value, end


def _walk_object(text: str, pos: int, levels: int, leaf_depth: int) -> tuple[dict[str, Any], int]:
    """Parse the object at ``pos`` key by key; values are walked ``levels - 1`` more levels when they are objects
    (anything else is parsed whole, for the caller's shape check)."""
    if text[pos : pos + 1] != "{":
        what = "end of file" if pos >= len(text) else repr(text[pos])
        raise Unreadable(f"not valid JSON here: expected an object at position {pos}, found {what}")
    out: dict[str, Any] = {}
    pos = _ws(text, pos + 1)
    if text[pos : pos + 1] == "}":
        return out, pos + 1
    while True:
        if text[pos : pos + 1] != '"':
            raise Unreadable(f"not valid JSON: expected a key at position {pos}")
        key, pos = _value(text, pos, 1)
        pos = _ws(text, pos)
        if text[pos : pos + 1] != ":":
            raise Unreadable(f"not valid JSON: expected ':' at position {pos}")
        pos = _ws(text, pos + 1)
        if levels > 1 and text[pos : pos + 1] == "{":
            out[key], pos = _walk_object(text, pos, levels - 1, leaf_depth)
        else:
            out[key], pos = _value(text, pos, leaf_depth + levels - 1)
        pos = _ws(text, pos)
        c = text[pos : pos + 1]
        if c == "}":
            return out, pos + 1
        if c != ",":
            raise Unreadable(f"not valid JSON: expected ',' or '}}' at position {pos}")
        pos = _ws(text, pos + 1)


def check_depth(value: Any, max_depth: int) -> bool:
    """True when a parsed value nests no deeper than ``max_depth`` (an iterative walk: safe at any depth)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            if depth > max_depth:
                return False
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            if depth > max_depth:
                return False
            stack.extend((v, depth + 1) for v in item)
    return True


def _mb(n: int) -> str:
    if n < 2**20:
        return f"{n / 1024:.0f} KiB" if n >= 1024 else f"{n} bytes"
    return f"{n / 2**20:.1f} MiB"
