"""The sushi game table kiosk."""

__version__ = "0.1.0"
