"""The operator menu's language settings (a part of :class:`kiosk.shell.operator.OperatorScreen`): the table's
language (``language.default``: the shared centre, every seat until it picks another, and the menu itself) and the
languages a seat may choose (``language.enabled``), checked and saved as the config file is
(``desk.update_config``, :func:`kiosk.config.load_dict`). Each language is shown by its own name, in its own face.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import ListProperty, StringProperty

from kiosk.config import ConfigError
from kiosk.i18n import LANGUAGES, SOURCE, font_for, translator

__all__ = ["LanguageSettings"]


class LanguageSettings:
    """Mixin of the operator screen (before ``Screen`` in its bases): the two settings and their rows' words."""

    #: The table's language and the ones a seat may choose (in :data:`kiosk.i18n.LANGUAGES` order), as saved.
    default_language = StringProperty(SOURCE)
    seat_languages = ListProperty([SOURCE])

    desk: Any
    pin_message: Any

    def cycle_language(self) -> None:
        """The table's language: the next of the five. The seats keep their choice, with the new language added
        (a table offering one language keeps one: the new one). The menu speaks it at once."""
        codes = list(LANGUAGES)
        new = codes[(codes.index(self.default_language) + 1) % len(codes)]
        chosen = set(self.seat_languages)
        chosen = {new} if chosen == {self.default_language} else chosen | {new}
        self._set_languages(new, chosen)

    def toggle_seat_language(self, code: str) -> None:
        """A seat may choose ``code``, or no longer; the table's own language cannot be turned off."""
        if code != self.default_language and code in LANGUAGES:
            self._set_languages(self.default_language, set(self.seat_languages) ^ {code})

    def _set_languages(self, default: str, chosen: set[str]) -> None:
        try:
            self.desk.update_config(language={"default": default, "enabled": [c for c in LANGUAGES if c in chosen]})
        except ConfigError as exc:
            self.pin_message = self.refusal(exc)
            return
        language = self.desk.cfg.language
        self.default_language, self.seat_languages = language.default, list(language.enabled)
        self.pin_message = ""
        self.speak_again()

    def speak_again(self) -> None:
        """After a new table language: every page in it (the operator screen does this)."""

    def refusal(self, exc: ConfigError) -> str:
        return "; ".join(exc.problems)

    @staticmethod
    def language_name(code: str) -> str:
        """A language by its own name (``日本語``, ``Deutsch``), whatever the menu speaks."""
        return LANGUAGES.get(code, code)

    @staticmethod
    def language_face(code: str) -> str:
        """The face a language's own name is set in (the CJK face for ``日本語``, else ``""``)."""
        return font_for(code)

    @staticmethod
    def language_mark(code: str, on: bool) -> str:
        """A seat language's toggle: a check mark and a space while a seat may choose it (a mark its face has)."""
        return translator(code).sym("\u2714") + " " if on else ""
