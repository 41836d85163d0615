"""Compile times of the Dynasties rulebook, in milliseconds.

    compile.dynasties.check_ms   parse and check (compiler.driver.check_rulebook), in process
    compile.dynasties.build_ms   check, then generate Python and docs into a temporary folder
                                 (compiler.build.build), in process
    cli.rulecraft_check_ms       wall time of `rulecraft check <rulebook>` in a subprocess,
                                 interpreter start included

Each value is the median of several runs after one warm-up run (the warm-up, which builds the
Lark parser, is reported as `cold_ms`).

Usage: python -m benchmarks.bench_compile [--runs N] [--cli-runs N]
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from compiler.build import build
from compiler.driver import check_rulebook
from dsl.diagnostics import Diagnostics

ROOT = Path(__file__).resolve().parent.parent
RULEBOOK = ROOT / "rulebooks" / "dynasties" / "dynasties.rules"
DEFAULT_RUNS = 9
DEFAULT_CLI_RUNS = 5


def run_check() -> None:
    compilation = check_rulebook(RULEBOOK)
    if not compilation.ok:
        raise RuntimeError(f"{RULEBOOK} does not check cleanly")


def run_build() -> None:
    with tempfile.TemporaryDirectory(prefix="rulecraft-bench-") as folder:
        out = Path(folder)
        diagnostics = Diagnostics()
        result = build([RULEBOOK], out, False, diagnostics)
        if diagnostics.has_errors or not all(c.ok for c in result.compilations):
            raise RuntimeError(f"{RULEBOOK} does not build")
        if not (out / "dynasties.py").is_file() or not (out / "docs" / "dynasties.md").is_file():
            raise RuntimeError("build wrote no module or docs")


def cli_command() -> list[str]:
    """The CLI of this checkout, run from its root: a `rulecraft` found on PATH may be another
    checkout's (an editable install elsewhere), whose time is not this one's."""
    return [sys.executable, "-m", "compiler"]


def run_cli() -> None:
    completed = subprocess.run(
        [*cli_command(), "check", str(RULEBOOK)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"rulecraft check failed ({completed.returncode}): {completed.stderr}")


def timings(action: Callable[[], None], runs: int) -> tuple[float, list[float]]:
    """(warm-up ms, ms of each timed run)."""
    start = time.perf_counter()
    action()
    cold = (time.perf_counter() - start) * 1000
    samples = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    return cold, samples


def record(name: str, action: Callable[[], None], runs: int) -> dict[str, Any]:
    cold, samples = timings(action, runs)
    return {
        "name": name,
        "value": round(statistics.median(samples), 2),
        "unit": "ms",
        "runs": runs,
        "statistic": "median",
        "min": round(min(samples), 2),
        "cold_ms": round(cold, 2),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_compile",
        description="Check, build and CLI times of the Dynasties rulebook.",
    )
    parser.add_argument("--runs", type=int, default=DEFAULT_RUNS,
                        help=f"timed in-process runs (default {DEFAULT_RUNS})")
    parser.add_argument("--cli-runs", type=int, default=DEFAULT_CLI_RUNS,
                        help=f"timed subprocess runs (default {DEFAULT_CLI_RUNS})")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.cli_runs < 1:
        parser.error("--runs and --cli-runs must be at least 1")
    benchmarks: tuple[tuple[str, Callable[[], None], int], ...] = (
        ("compile.dynasties.check_ms", run_check, args.runs),
        ("compile.dynasties.build_ms", run_build, args.runs),
        ("cli.rulecraft_check_ms", run_cli, args.cli_runs),
    )
    for name, action, runs in benchmarks:
        print(json.dumps(record(name, action, runs)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
