"""Small helpers shared by the benchmark modules."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence


def percentiles(samples: Sequence[float], scale: float = 1000.0) -> dict[str, float]:
    """p50/p90/p99/max of samples (seconds), reported in milliseconds by default."""
    xs = sorted(samples)
    if not xs:
        return {}

    def q(p: float) -> float:
        return xs[min(len(xs) - 1, int(p * len(xs)))] * scale

    return {
        "n": len(xs),
        "p50": round(q(0.50), 3),
        "p90": round(q(0.90), 3),
        "p99": round(q(0.99), 3),
        "max": round(xs[-1] * scale, 3),
        "mean": round(statistics.fmean(xs) * scale, 3),
    }


def timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0
