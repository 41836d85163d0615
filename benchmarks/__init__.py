"""Runnable benchmarks (DESIGN.md §7).

Each script prints one JSON object per line with at least ``name``, ``value`` and ``unit``.
``python -m benchmarks`` runs them all; ``python -m benchmarks.bench_playouts`` (or
``bench_compile``) runs one. Timings are reported, never asserted in tests.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path
from typing import Any


def machine_record() -> dict[str, Any]:
    """The machine a run measured: a speed-up between two engines depends on the processor
    and its state (docs/performance.md, "Eighth round")."""
    processor = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text(errors="replace").splitlines():
            if line.startswith("model name"):
                processor = line.partition(":")[2].strip()
                break
    return {"name": "machine", "value": os.cpu_count() or 1, "unit": "cpus",
            "processor": processor, "python": platform.python_version(),
            "implementation": platform.python_implementation()}

