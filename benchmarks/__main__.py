"""Run every benchmark: python -m benchmarks [--games N] [--rounds R] [--runs N]."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from benchmarks import bench_compile, bench_playouts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Run every benchmark; each prints one JSON object per line.",
    )
    parser.add_argument("--games", type=int, default=bench_playouts.DEFAULT_GAMES,
                        help="playouts per implementation per round")
    parser.add_argument("--rounds", type=int, default=bench_playouts.DEFAULT_ROUNDS,
                        help="alternating playout rounds per variant")
    parser.add_argument("--runs", type=int, default=bench_compile.DEFAULT_RUNS,
                        help="timed in-process compile runs")
    args = parser.parse_args(argv)
    status = bench_compile.main(["--runs", str(args.runs)])
    status |= bench_playouts.main(["--games", str(args.games), "--rounds", str(args.rounds)])
    return status


if __name__ == "__main__":
    sys.exit(main())
