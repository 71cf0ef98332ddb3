"""The event room: the table's side of an event's shared leaderboard (:mod:`kiosk.events`), when it is paired.

Unpaired (``event.enabled`` false, the default) it does nothing and imports nothing of MQTT: a lone table is as it
always was. Paired, it keeps the outbox in the state folder (``events/outbox.jsonl``) and the link to the broker;
each finished game goes into the outbox when its results are final (the initials entered or timed out, the table's
own boards written: :meth:`EventRoom.game_over`), and out to the broker when it can. The operator menu and attract
mode read the link's state, the outbox's length and the event's board when they show them (plain values the
link's threads set).

On an installed table the kiosk's sandbox has no network until the root helper opens it to the broker
(:mod:`kiosk.appliance.eventnet`): :meth:`EventRoom.ask_for_network` asks for that when the table starts and after
its event settings are saved, whenever the helper's drop-in is not the one the settings want; :meth:`status`
says so while the network is being opened ("restarting to reach the broker...") or stays closed (the helper's
reason), instead of the link's own state (which would only say that it cannot connect).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from kiosk import clock
from kiosk.appliance import eventnet, requests
from kiosk.events.contract import ContractError, new_record
from kiosk.shell.attractscreen import board_rows

if TYPE_CHECKING:
    from kiosk.i18n import Translator
    from kiosk.shell.doors import EventsDoor

log = logging.getLogger("kiosk.shell.events")

__all__ = ["EventRoom", "OUTBOX"]

#: The outbox's file in the state folder.
OUTBOX = "events/outbox.jsonl"


class EventRoom:
    """The table's event link, when paired (see the module docstring)."""

    def __init__(self, app: EventsDoor) -> None:
        self.app = app
        self.link: Any = None
        self._outbox: Any = None
        #: where the sandbox's state is read (:mod:`kiosk.appliance.eventnet`'s defaults: the installed table's)
        self.dropin = eventnet.DROPIN
        self.helper_unit: Path | None = None
        self.table_dir: Path | None = None

    @property
    def paired(self) -> bool:
        return self.link is not None

    def start(self) -> None:
        """Start the link if the config pairs the table with an event (a second call after a settings change
        restarts it with the new settings)."""
        self.stop()
        settings = self.app.cfg.event
        if not settings.enabled:
            return
        try:
            from kiosk.events.link import EventLink  # (the event link and its MQTT client: only at a paired table)
            from kiosk.events.outbox import Outbox  # (the event link and its MQTT client: only at a paired table)

            self._outbox = Outbox(self.app.state_dir / OUTBOX)
            self.link = EventLink(settings, self._outbox)
            self.link.start()
        except Exception as exc:  # a broken link never stops the table
            log.error("the event link cannot start: %s", exc)
            self.link = None

    def stop(self) -> None:
        if self.link is not None:
            self.link.stop()
            self.link = None
        if self._outbox is not None:
            self._outbox.close()
            self._outbox = None

    def ask_for_network(self, at_start: bool = False) -> None:
        """Ask the root helper to open the sandbox to the broker (or close it, unpaired) when its drop-in is not the
        one the saved settings want; ``at_start`` also when the broker is a name, to look it up again
        (:func:`kiosk.appliance.eventnet.should_ask`; nothing on a table not installed as an appliance). Call it
        only once the settings are on disk: the helper reads them there."""
        s, state_dir = self.app.cfg.event, self.app.state_dir
        try:
            if eventnet.should_ask(
                state_dir,
                s.enabled,
                s.broker,
                at_start=at_start,
                dropin=self.dropin,
                helper_unit=self.helper_unit,
                table_dir=self.table_dir,
            ):
                requests.request_event_network(state_dir, at_start=at_start)
        except OSError as exc:
            log.error("could not ask the system to open the network to the event broker: %s", exc)

    def status(self) -> Mapping[str, Any]:
        """For the operator menu: ``state`` (off, connecting, online, offline; network-pending and network-closed
        while the sandbox is not open to the broker yet), ``error`` and ``waiting``."""
        if self.link is None:
            return {"state": "off", "error": "", "waiting": 0}
        s = self.app.cfg.event
        network, why = eventnet.network_state(
            self.app.state_dir,
            s.enabled,
            s.broker,
            dropin=self.dropin,
            helper_unit=self.helper_unit,
            table_dir=self.table_dir,
        )
        if network:
            return {"state": f"network-{network}", "error": why, "waiting": len(self.link.outbox)}
        return {"state": self.link.state, "error": self.link.error, "waiting": len(self.link.outbox)}

    @property
    def board(self) -> dict[str, Any] | None:
        """The event's board as its service last published it (None: unpaired, or none yet)."""
        return self.link.board if self.link is not None else None

    def board_rows(self, key: str, tr: Translator | None = None, n: int = 5) -> tuple[str, list[str]]:
        """The event's name and its best ``n`` at the game ``key`` as attract mode's board lines (from the
        retained board; places written the way of ``tr``'s language, as the table's own boards beside them), or
        ``("", [])`` when unpaired or no board has come yet."""
        board = self.board
        if board is None:
            return "", []

        rows = board["games"].get(key, {}).get("all", [])
        entries = [SimpleNamespace(name=r["initials"], score=r["score"]) for r in rows]
        return str(board.get("title") or board["event"])[:40], board_rows(entries, n, tr=tr)

    def game_over(self, session: Any, key: str, players: list[dict[str, Any]], lower_is_better: bool = False) -> None:
        """A finished game's final results on the board ``key`` (``players`` as the contract has them): into the
        outbox, then out. A record its game could not produce (the game's spec says which) stays off the event, with
        a log line naming the table (:meth:`kiosk.events.link.EventLink.publish`)."""
        if self.link is None or session.attract:
            return

        s = self.app.cfg.event
        try:
            record = new_record(
                s.event, s.table, key, players, clock.wall() - session.started, lower_is_better=lower_is_better
            )
            self.link.publish(record)
        except (ContractError, OSError) as exc:  # the table's own boards have it; say why the event does not
            log.error("table %s: the game could not go to the event's outbox: %s", s.table, exc)
