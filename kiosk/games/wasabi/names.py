"""Why a Wasabi! game ended (the engine's ``end_reason``), marked for its catalog (:func:`kiosk.i18n.N_`) and
translated where the game-over line says it. The game's words in its data (ingredients, recipes, action cards:
``cards.json``) are extracted from there (``babel.cfg``, :func:`kiosk.i18n.extract_json_words`)."""

from __future__ import annotations

from kiosk.i18n import N_

__all__ = ["END_REASONS"]

END_REASONS = (N_("instant win"), N_("board full"), N_("everyone passed"), N_("finished"))
