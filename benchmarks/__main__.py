"""Run every benchmark: python -m benchmarks [--games N] [--rounds R] [--runs N].

`--card-sizes 1000,10000` limits the generated card sets of bench_cards (default 1k, 10k, 50k).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from benchmarks import bench_cards, bench_compile, bench_games, bench_lab, bench_playouts


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
    parser.add_argument("--card-sizes", default=",".join(str(s) for s in bench_cards.DEFAULT_SIZES),
                        help="generated card set sizes for bench_cards, comma-separated")
    args = parser.parse_args(argv)
    status = bench_compile.main(["--runs", str(args.runs)])
    status |= bench_playouts.main(["--games", str(args.games), "--rounds", str(args.rounds)])
    status |= bench_games.main([])
    status |= bench_cards.main(["--sizes", args.card_sizes, "--games", str(args.games)])
    status |= bench_lab.main([])
    return status


if __name__ == "__main__":
    sys.exit(main())
