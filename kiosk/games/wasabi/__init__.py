"""wasabi: engine not written yet (see its issue)."""
