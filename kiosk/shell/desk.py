"""The operator desk: the room behind the operator menu. It implements :class:`kiosk.ui.operator.OperatorDesk`
(the only thing the operator screen knows of the app): it opens the menu over whatever was on (a game in
progress pauses and goes on when the menu closes; anything else returns to attract mode), and it carries out the
menu's actions (settings written to the config file at once, a board reset, diagnostics, quit).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kiosk import config as kconfig
from kiosk.config import Config
from kiosk.engine import GameSpec

if TYPE_CHECKING:
    from kiosk.app import KioskApp

log = logging.getLogger("kiosk.shell.desk")

__all__ = ["OperatorRoom"]


class OperatorRoom:
    """Opens and closes the operator menu and serves it (see :class:`kiosk.ui.operator.OperatorDesk`)."""

    def __init__(self, app: KioskApp) -> None:
        self.app = app
        self._before: tuple[str, str] | None = None  # (screen, mode) the menu was opened over

    # ---------------------------------------------------------------------------------------------- flow
    def open(self, facing: str) -> None:
        app = self.app
        if app.mode == "operator":
            return
        app.builder.ensure_ready()
        self._before = (app.sm.current, app.mode)
        app.launcher.pause()
        app.director.stop()
        app.idle.unprompt()
        app.mode = "operator"
        app.operator.open(facing)
        app.sm.current = "operator"

    def close(self) -> None:
        """Leave the menu: back to the game it interrupted, or attract mode."""
        app = self.app
        before, self._before = self._before, None
        if before is not None and before[1] == "game" and app.launcher.session is not None:
            app.mode = "game"
            app.hub.last_input = time.monotonic()
            app.sm.current = before[0]
            app.launcher.resume_play()
            return
        app.go_attract()

    # ---------------------------------------------------------------------------------------------- desk
    @property
    def cfg(self) -> Config:
        return self.app.cfg

    @property
    def games(self) -> Mapping[str, GameSpec]:
        return self.app.games

    @property
    def scores(self) -> Any:
        return self.app.scores

    def open_diagnostics(self) -> None:
        self.app.sm.current = "diagnostics"

    def hardware_summary(self) -> str:
        hw = self.app.hardware
        lines = ["Hardware:"] + [f"  {n}" for n in hw.notes[-4:]]
        status = hw.status
        if status is not None:  # None without the hardware package
            try:
                snap = status.snapshot()
                link = snap.get("link", {})
                state = link.get("state") if isinstance(link, dict) else link
                lines.append(f"  tap-stick link: {state}")
                if "lost_taps" in snap:
                    lines.append(f"  lost taps: {snap['lost_taps']}")
            except Exception as exc:
                lines.append(f"  status unavailable: {exc}")
        lines.append("  keyboard fallback: on (see docs/kiosk.md)")
        return "\n".join(lines)

    def reset_board(self, key: str) -> int:
        scores = self.app.scores
        if not scores.available:
            return 0
        try:
            return int(scores.reset(key))
        except Exception as exc:
            log.error("could not reset the %s board: %s", key, exc)
            return 0

    def update_config(self, **sections: Any) -> None:
        """Validate and apply changed settings, and write the config file."""
        app = self.app
        app.cfg = app.cfg.replace(**sections)
        app.sounds.set(volume=app.cfg.sound.volume, muted=app.cfg.sound.muted)
        app.attract_screen.text = app.cfg.attract.text
        if app.config_path is not None:
            try:
                kconfig.save(app.cfg, app.config_path)
            except OSError as exc:
                log.error("could not save the config file %s: %s", app.config_path, exc)

    def quit_kiosk(self) -> None:
        """The operator's "quit to desktop" (the only way out from the screen)."""
        self.app.service.stop_reason = "operator quit"
        self.app.stop()
