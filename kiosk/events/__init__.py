"""Sharing a leaderboard with an event's other tables through an MQTT broker (Eclipse Mosquitto).

:mod:`.contract` is what tables and the event board say (topics, records, receipts, boards); :mod:`.outbox` keeps
finished games on the table's own storage until the event board's receipt says it stored them; :mod:`.link`
publishes them with paho-mqtt in the background and keeps the event's board. A table with no event configured
imports none of it. The event board service (``python -m kiosk.events.board``) is the process that collects the
records and serves the wall page.
"""
