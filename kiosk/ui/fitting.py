"""Text that fits its box in every language: :class:`ShrinkToFit` sets a label's (or a button's) ``font_size`` to
the largest from its ``base_size`` down to the smallest a player reads (:func:`kiosk.ui.typescale.min_text_px`) at
which its text fits the box without a word broken across lines, as Kivy lays it out (a German word, a Japanese
phrase). A translation longer than English's is set a step smaller instead of being cut. ``FitLabel`` and
``FitButton`` (kv: ``layouts/common.kv``) are the usual widgets with it."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import NumericProperty
from kivy.uix.button import Button
from kivy.uix.label import Label

from kiosk.ui.typescale import min_text_px

__all__ = ["ShrinkToFit", "FitLabel", "FitButton", "fits", "laid_out"]


def _layout(label: Any, text: str, **changes: Any) -> tuple[Any, float, float]:
    """``text`` laid out as ``label`` lays its own out (its core label's options, with ``changes``), by Kivy's
    layout alone: the core label (its lines) and its size. No texture is drawn (a texture per try would cost the
    renderer's memory)."""
    opts = dict(label._label.options, **changes)
    opts.pop("text", None)
    core = type(label._label)(text=text, **opts)
    w, h = core.render()
    return core, float(w), float(h)


def laid_out(label: Any, text: str) -> tuple[float, float]:
    """The size ``text`` takes in ``label`` (its font, size, wrap width, padding), by Kivy's layout alone."""
    return _layout(label, text)[1:]


def fits(label: Any, font_size: float) -> bool:
    """``label``'s text at ``font_size`` fits its box: laid out as Kivy does (its font, wrap width from its
    ``text_size`` or its width, padding), no taller or wider than the box and no word split across lines."""
    pad_x, pad_y = (float(label.padding[0]), float(label.padding[1])) if len(label.padding) >= 2 else (0.0, 0.0)
    width = label.text_size[0] if label.text_size[0] else label.width - 2 * pad_x
    c, w, h = _layout(label, label.text, text_size=(width, None), shorten=False, max_lines=0, font_size=font_size)
    box_h = min(label.height, label.text_size[1] + 2 * pad_y) if label.text_size[1] else label.height
    if w > label.width + 1.5 or h > box_h + 1.5:
        return False
    words = set(label.text.split())
    lines = ["".join(getattr(x, "text", "") for x in line.words) for line in getattr(c, "_cached_lines", [])]
    for a, b in zip(lines, lines[1:]):  # a word wider than the line is split by Kivy: not a fit
        if a.split() and b.split() and not a[-1].isspace() and not b[0].isspace():
            tail, head = a.split()[-1], b.split()[0]
            if tail + head in words and tail not in words:
                return False
    return True


class ShrinkToFit:
    """Mixin (before ``Label``/``Button``): ``base_size`` (0: off) is the size the text wants; ``font_size``
    follows it down, a pixel at a time, to the smallest a player reads, while the text does not fit."""

    base_size = NumericProperty(0)
    # the Label's (Kivy is untyped)
    width: float
    height: float
    text: str
    font_size: float
    fbind: Any

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._fit_trigger = Clock.create_trigger(self._fit, -1)
        for prop in ("size", "text", "font_name", "base_size", "text_size", "bold"):
            self.fbind(prop, self._fit_trigger)

    def _fit(self, *_a: Any) -> None:
        # (Kivy's window opens on its first import: not when tools import this module)
        from kivy.core.window import Window

        if self.base_size <= 0 or self.width < 2 or self.height < 2 or not self.text:
            if self.base_size > 0:
                self.font_size = self.base_size
            return
        smallest = min_text_px(Window.size)
        size = float(self.base_size)
        while size > smallest and not fits(self, size):
            size = max(smallest, size - 1)
        self.font_size = size


class FitLabel(ShrinkToFit, Label):
    pass


Factory.register("ShrinkToFit", cls=ShrinkToFit)  # kv: <FitBigButton@ShrinkToFit+BigButton> (layouts/common.kv)


class FitButton(ShrinkToFit, Button):
    pass
