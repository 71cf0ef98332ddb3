"""The widget-tree fit checker: text that does not fit, text too small, touch targets too small, labels that overlap.

:func:`check_tree` walks a widget tree as it is on screen (after a frame has laid it out) and returns a
:class:`Problem` for each of:

* ``cut``: a label's text does not fit its box. The text is laid out again as Kivy would with unlimited room
  (the same font, size, wrap width from ``text_size``, markup, padding, no ``shorten``, no ``max_lines``) and
  compared with the box: wider or taller than the label (so it spills over its neighbours or Kivy drops lines),
  shortened with an ellipsis (``shorten``), or a word broken across two lines because it is wider than the wrap
  width ("Cucumbe r").
* ``small_text``: a label a player must read set under :func:`~kiosk.ui.typescale.min_text_px` (18 px at
  1920x1080, 14 px at 1280x800). A label whose ``must_read`` property is False (``FinePrint``: a square's
  name in a corner) is held only to fitting.
* ``small_target``: a button (anything with Kivy's ``ButtonBehavior``) narrower or lower than
  :func:`~kiosk.ui.typescale.min_target_px` (60 px at 1080, 44 px at 800), counting only the part of it that a
  later sibling button does not cover (the visible strip of an overlapped card). A widget whose ``must_touch``
  property is False (a card in the Blind, on display only) is not a target.
* ``overlap``: the inked text of two labels overlapping on screen (by more than 2 px each way), neither inside
  the other.
* ``tofu``: a character of a label's text that its face lacks (an empty box on screen: Japanese in a Latin face,
  a symbol the CJK face lacks), by the face file's character set as fontconfig reads it (``fc-query``).
* ``unmarked`` (only with ``pseudo``, under the pseudo-translation :data:`kiosk.i18n.PSEUDO_ENV`): a word on screen
  outside the marks of a translated message: a text never marked for translation, or never extracted.

Only what is on screen counts: widgets with opacity 0 (or under one), outside the window, of zero size, or with
empty text are skipped; disabled buttons are not touch targets. A widget whose class says ``covers = True`` (a
seat's menu, drawn opaque over the seat's zone) hides what lies under it: a label or button outside it whose box
lies inside it is not checked. Boxes are compared in window coordinates, so labels in seat zones turned to face
a side are checked as drawn.

>>> Problem("cut", None, "Cucumber", "needs 120x30 px, has 80x30").line()
"cut: 'Cucumber' (needs 120x30 px, has 80x30)"
"""

from __future__ import annotations

import functools
import re
import subprocess
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import Any

from kiosk.ui.typescale import min_target_px, min_text_px

__all__ = ["Problem", "check_tree", "walk", "report", "unmarked_words", "missing_glyphs"]

TOLERANCE = 1.5  # pixels: rounding in Kivy's layout
OVERLAP = 2.0
_TAG = re.compile(r"\[/?[a-z_]+(=[^\]]*)?\]")
_ELLIPSIS = ("...", "\u2026")


@dataclass(frozen=True)
class Problem:
    """One finding: ``kind`` (``cut``, ``small_text``, ``small_target``, ``overlap``), the widget, its text."""

    kind: str
    widget: Any
    text: str
    detail: str

    def line(self) -> str:
        return f"{self.kind}: {self.text[:60]!r} ({self.detail})"

    def path(self, depth: int = 6) -> str:
        """The widget's class and its parents' (``depth`` of them), innermost first."""
        return _path(self.widget, depth) if self.widget is not None else ""

    def as_dict(self) -> dict[str, str]:
        """JSON-ready: kind, text, detail and the widget's whole path up to the window."""
        return {"kind": self.kind, "text": self.text, "detail": self.detail, "path": self.path(depth=40)}

    def __str__(self) -> str:
        path = _path(self.widget) if self.widget is not None else ""
        return f"{self.line()} at {path}" if path else self.line()


def _path(w: Any, depth: int = 6) -> str:
    parts: list[str] = []
    while w is not None and len(parts) < depth:
        parts.append(type(w).__name__)
        parent = w.parent
        w = parent if parent is not w else None
    return " < ".join(parts)


def walk(root: Any) -> Iterator[Any]:
    """Every widget on screen under ``root`` (itself included): opacity 0 and zero-size branches are skipped, and
    so is decoration in flight (``decoration`` true: a motion's ghost, on screen for 150-400 ms over the real
    widgets, which are checked)."""
    stack = [root]
    while stack:
        w = stack.pop()
        if getattr(w, "opacity", 1) <= 0.01 or getattr(w, "decoration", False):
            continue
        yield w
        stack.extend(reversed(getattr(w, "children", [])))


def _window_rect(w: Any, x: float, y: float, width: float, height: float) -> tuple[float, float, float, float]:
    """A rectangle in ``w``'s parent coordinates as a bounding box in window coordinates."""
    pts = [w.to_window(px, py) for px, py in ((x, y), (x + width, y), (x, y + height), (x + width, y + height))]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def _box(w: Any) -> tuple[float, float, float, float]:
    """``w``'s own box in window coordinates; a scatter's (a turned seat zone) through its own transform."""
    from kivy.uix.scatter import Scatter

    if not isinstance(w, Scatter):
        return _window_rect(w, w.x, w.y, w.width, w.height)
    pts = [w.to_window(px, py, initial=False) for px, py in ((0, 0), (w.width, 0), (0, w.height), (w.width, w.height))]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def _is_widget(w: Any) -> bool:
    from kivy.uix.widget import Widget

    return isinstance(w, Widget)


def _is_label(w: Any) -> bool:
    from kivy.uix.label import Label

    return isinstance(w, Label)


def _is_button(w: Any) -> bool:
    from kivy.uix.behaviors import ButtonBehavior

    return isinstance(w, ButtonBehavior)


def _plain(label: Any) -> str:
    return _TAG.sub("", label.text) if label.markup else label.text


def _layout(label: Any, wrap: float | None) -> tuple[tuple[float, float], list[str]]:
    """Lay ``label``'s text out as Kivy does, with wrap width ``wrap`` and unlimited height: (size, lines)."""
    core = label._label
    opts = dict(core.options)
    opts.update(text_size=(wrap, None), shorten=False, max_lines=0)
    opts.pop("text", None)  # Kivy keeps the label's text outside the options it renders with
    c = type(core)(text=label.text, **opts)
    c.refresh()
    lines = ["".join(getattr(word, "text", "") for word in line.words) for line in getattr(c, "_cached_lines", [])]
    return (float(c.content_size[0]), float(c.content_size[1])), lines


def _broken_word(plain: str, lines: list[str]) -> str:
    """A word of ``plain`` that the layout split across two lines, or ``""``."""
    words = plain.split()
    for a, b in zip(lines, lines[1:]):
        if a and b and not a[-1].isspace() and not b[0].isspace():
            tail = a.split()[-1] if a.split() else ""
            head = b.split()[0] if b.split() else ""
            if tail and head and (tail + head) in words and tail not in words:
                return tail + head
    return ""


def _label_problems(label: Any, window: tuple[float, float]) -> list[Problem]:
    text = _plain(label).strip()
    if not text:
        return []
    out: list[Problem] = []
    if getattr(label, "must_read", True) and label.font_size < min_text_px(window) - 0.05:
        out.append(
            Problem("small_text", label, text, f"{label.font_size:.1f} px, minimum {min_text_px(window):.0f} px")
        )
    label.texture_update()
    tw, th = label.text_size
    wrap = tw if tw is not None and tw > 0 else None
    (need_w, need_h), lines = _layout(label, wrap)
    box_w, box_h = label.width, label.height
    if th is not None and th > 0:
        box_h = min(box_h, th + 2 * _pad(label)[1])
    if need_w > box_w + TOLERANCE or need_h > box_h + TOLERANCE:
        out.append(Problem("cut", label, text, f"needs {need_w:.0f}x{need_h:.0f} px, has {box_w:.0f}x{box_h:.0f}"))
    elif (
        label.shorten
        and any(e in "".join(_shown_lines(label)) for e in _ELLIPSIS)
        and not any(e in text for e in _ELLIPSIS)
    ):
        out.append(Problem("cut", label, text, "shortened with an ellipsis"))
    elif not label.shorten and len(_inked(_shown_lines(label))) < len(_inked(lines)):
        # Kivy drops a last line that does not fit the box's height whole (its own measure, which a line height
        # below 1 makes differ from the laid-out size above): the text fits by size and still loses a line
        shown, needed = len(_inked(_shown_lines(label))), len(_inked(lines))
        out.append(Problem("cut", label, text, f"{shown} of its {needed} lines shown"))
    broken = _broken_word(text, lines) if wrap else ""
    if broken:
        out.append(Problem("cut", label, text, f"the word {broken!r} is broken across two lines"))
    return out


def _inked(lines: list[str]) -> list[str]:
    return [line for line in lines if line.strip()]


def _pad(label: Any) -> tuple[float, float]:
    p = label.padding
    return (float(p[0]), float(p[1])) if len(p) >= 2 else (float(p[0]), float(p[0]))


def _shown_lines(label: Any) -> list[str]:
    return ["".join(getattr(w, "text", "") for w in line.words) for line in getattr(label._label, "_cached_lines", [])]


def _ink(label: Any) -> tuple[float, float, float, float]:
    """Where the label's texture is drawn (Kivy centres it in the label), in window coordinates."""
    tw, th = label.texture_size
    return _window_rect(label, label.center_x - tw / 2, label.center_y - th / 2, tw, th)


def _inside(a: Any, b: Any) -> bool:
    w = b.parent
    while w is not None and w is not w.parent:
        if w is a:
            return True
        w = w.parent
    return False


def _within(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Rectangle ``a`` lies inside rectangle ``b`` (both x, y, w, h)."""
    return (
        a[0] >= b[0] - TOLERANCE
        and a[1] >= b[1] - TOLERANCE
        and a[0] + a[2] <= b[0] + b[2] + TOLERANCE
        and a[1] + a[3] <= b[1] + b[3] + TOLERANCE
    )


def _visible_width(button: Any) -> float:
    """The button's width, less what a later sibling button lying over its right part covers."""
    parent = button.parent
    if parent is None:
        return float(button.width)
    siblings = list(reversed(parent.children))  # drawing order: later ones lie on top
    i = siblings.index(button) if button in siblings else -1
    width = float(button.width)
    for other in siblings[i + 1 :]:
        if not _is_button(other) or getattr(other, "opacity", 1) <= 0.01:
            continue
        if (
            other.y <= button.y + TOLERANCE
            and other.top >= button.top - TOLERANCE
            and button.x < other.x < button.right
        ):
            width = min(width, other.x - button.x)
    return width


_MARKED = re.compile("\u27e6[^\u27e6\u27e7]*\u27e7")  # kiosk.i18n.PSEUDO_MARKS, innermost first
_WORD = re.compile(r"[^\W\d_]{2,}")


def unmarked_words(text: str, allowed: Collection[str] = ()) -> list[str]:
    """The words of ``text`` (two letters or more) outside the pseudo-translation's marks, less ``allowed`` (names
    that are not messages: the games' titles, a player's initials).

    >>> unmarked_words("\u27e6Saved as \u27e6Circle\u27e7\u27e7 B3: Maki, Score 12", {"Maki"})
    ['Score']
    """
    while True:
        inner = _MARKED.sub(" ", text)
        if inner == text:
            break
        text = inner
    text = text.split("\u27e6", 1)[0]  # a message shortened to fit (a seat badge's): marked up to where it was cut
    return [w for w in _WORD.findall(text) if w not in allowed]


@functools.cache
def _charset(path: str) -> frozenset[int] | None:
    """The characters a face file holds (its first face, as SDL_ttf opens it), or None when unknown."""
    try:
        out = subprocess.run(
            ["fc-query", "--index", "0", "--format", "%{charset}", path], capture_output=True, text=True, timeout=30
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    chars: set[int] = set()
    for part in out.split():
        lo, _, hi = part.partition("-")
        chars.update(range(int(lo, 16), int(hi or lo, 16) + 1))
    return frozenset(chars) or None


def missing_glyphs(label: Any) -> str:
    """The characters of ``label``'s text that its face lacks (``""``: none, or the face is unknown)."""
    if label.markup and "[font=" in label.text:
        return ""
    path = label._label.options.get("font_name_r") or ""
    chars = _charset(path) if path else None
    if chars is None:
        return ""
    return "".join(sorted({c for c in _plain(label) if ord(c) > 0x20 and not c.isspace() and ord(c) not in chars}))


def check_tree(
    root: Any, window: tuple[float, float] | None = None, pseudo: Collection[str] | None = None
) -> list[Problem]:
    """Every problem in the tree under ``root`` (see the module docstring). ``window``: the window's size
    (default: Kivy's window). ``pseudo``: under the pseudo-translation, only the ``unmarked`` words (less these
    allowed names)."""
    if window is None:
        from kivy.core.window import Window

        window = (float(Window.width), float(Window.height))
    if pseudo is not None:
        return [
            Problem("unmarked", w, _plain(w).strip(), f"not from a catalog: {', '.join(words)}")
            for w in walk(root)
            if _is_label(w) and w.width > 0 and (words := unmarked_words(_plain(w), pseudo))
        ]
    out: list[Problem] = []
    inks: list[tuple[Any, tuple[float, float, float, float]]] = []
    target = min_target_px(window)
    shown = [w for w in walk(root) if _is_widget(w) and w.width > 0 and w.height > 0]  # the Window is no widget
    covers = [(c, _box(c)) for c in shown if getattr(c, "covers", False)]
    for w in shown:
        wx, wy, ww, wh = _window_rect(w, w.x, w.y, w.width, w.height)
        if wx >= window[0] or wy >= window[1] or wx + ww <= 0 or wy + wh <= 0:
            continue
        if any(c is not w and not _inside(c, w) and _within((wx, wy, ww, wh), r) for c, r in covers):
            continue
        if _is_button(w) and not w.disabled and getattr(w, "must_touch", True):
            vis = _visible_width(w)
            if vis < target - TOLERANCE or w.height < target - TOLERANCE:
                name = _plain(w).strip() if _is_label(w) else type(w).__name__
                out.append(Problem("small_target", w, name, f"{vis:.0f}x{w.height:.0f} px, minimum {target:.0f}"))
        if _is_label(w) and _plain(w).strip():
            out.extend(_label_problems(w, window))
            inks.append((w, _ink(w)))
            if missing := missing_glyphs(w):
                out.append(Problem("tofu", w, _plain(w).strip(), f"its face {w.font_name!r} lacks {missing!r}"))
    for i, (a, ra) in enumerate(inks):
        for b, rb in inks[i + 1 :]:
            dx = min(ra[0] + ra[2], rb[0] + rb[2]) - max(ra[0], rb[0])
            dy = min(ra[1] + ra[3], rb[1] + rb[3]) - max(ra[1], rb[1])
            if dx > OVERLAP and dy > OVERLAP and not _inside(a, b) and not _inside(b, a):
                out.append(Problem("overlap", a, _plain(a).strip(), f"over {_plain(b).strip()[:40]!r}"))
    return out


def report(problems: list[Problem]) -> str:
    """The problems one a line (for a test's failure message)."""
    return "\n".join(str(p) for p in problems) or "no problems"
