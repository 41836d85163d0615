"""Runnable benchmarks (DESIGN.md §7).

Each script prints one JSON object per line with at least ``name``, ``value`` and ``unit``.
``python -m benchmarks`` runs them all; ``python -m benchmarks.bench_playouts`` (or
``bench_compile``) runs one. Timings are reported, never asserted in tests.
"""
