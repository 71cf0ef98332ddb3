"""The event board service: one process at an event (a laptop, a Pi, one of the tables) that collects every
table's finished games from the broker into SQLite and serves the wall page (``python -m kiosk.events.board``).
Needs the ``eventboard`` extra (Starlette, uvicorn); the tables themselves need only paho-mqtt."""
