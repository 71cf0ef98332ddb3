"""Performance measurements: ``python -m benchmarks [--quick] [--only NAME]`` prints one JSON report.

Each ``benchmarks/bench_<name>.py`` module defines ``run(quick: bool) -> dict`` and lands under its name in the
report. The machine is shared and noisy: a module that has a budget measures a baseline in the same run and
reports ratios next to absolute figures, with ``"budget"`` and ``"within_budget"`` keys.
"""
