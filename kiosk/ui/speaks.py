"""A widget that speaks a seat's (or the table's) language (:mod:`kiosk.i18n`): setting ``language`` sets ``tr``,
its translator (kv rules write ``root.tr._('Join')``), and ``face``, the font its words are set in (the CJK face for
Japanese, else ``""``: kv rules write ``font_name: root.face or FONT``). ``domain``: whose words, the shell's
(``kiosk``) or a game's (its folder's name: its own catalog first, then the shell's)."""

from __future__ import annotations

from typing import Any

from kivy.properties import ObjectProperty, StringProperty

from kiosk.i18n import DOMAIN, SOURCE, translator
from kiosk.ui.typescale import register_fonts

__all__ = ["Speaks"]

register_fonts()  # the CJK face for Japanese among them


class Speaks:
    """Mixin (first in the bases, as Kivy's behaviours are): ``language``, ``domain``, ``tr`` and ``face``."""

    language = StringProperty(SOURCE)
    domain = StringProperty(DOMAIN)
    #: rebind: kv rules read ``root.tr._(...)``, a chain Kivy re-evaluates on a new ``tr`` only with rebind
    tr = ObjectProperty(translator(SOURCE), rebind=True)
    face = StringProperty("")

    def on_language(self, *_a: Any) -> None:
        self.tr = translator(self.language, self.domain)
        self.face = self.tr.face

    on_domain = on_language
