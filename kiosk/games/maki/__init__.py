"""maki: engine not written yet (see its issue)."""
