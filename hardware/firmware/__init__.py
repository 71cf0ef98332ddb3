"""Tap stick firmware (MicroPython for a Raspberry Pi Pico). Only :mod:`tapcore` runs on the host too.

Copy ``tapcore.py``, ``board_config.py`` and ``main.py`` to the Pico (see README.md); this ``__init__`` only
makes the folder importable so the kiosk's tests can cover ``tapcore`` under CPython.
"""
