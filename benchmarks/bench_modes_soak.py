"""CPU per game of the Dynasty TCG modes' soak (tests/test_dynasty_tcg_modes.py), to extrapolate
the soak tier's time without playing its 2,000 games.

Each game is `play_one(mode, players, seed)` of the test file, every check at every ply, in a
child process per tree (the tree first on sys.path), timed by the child's process time. With
`--baseline DIR` (a checkout from before a change) the baseline plays each seed too, as the
soak played it then: a baseline whose play_one takes `full` plays each seed both without the
reading of action texts and with it; the runs alternate in an order that turns with the seed,
so drift in machine load affects every side alike. Printed per mode, in CPU seconds per game,
and the 1,000 games of a mode extrapolated in minutes:

    <mode>.games                  games measured (`--games` seeds, the setups in turn)
    <mode>.current                this tree's mean
    <mode>.baseline.lite          the baseline without action texts (a `full` baseline)
    <mode>.baseline.full          the baseline with every check
    <mode>.baseline.soak          the baseline's soak: full when seed % 8 < 2, else lite
    <mode>.minutes.current        1,000 games at the mean
    <mode>.minutes.baseline       1,000 games of the baseline's soak

Usage: python -m benchmarks.bench_modes_soak [--games N] [--modes war,royale] [--baseline DIR]
e.g.   git worktree add /tmp/before <commit>
       python -m benchmarks.bench_modes_soak --games 25 --baseline /tmp/before
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
SETUPS = {"war": (4, 6), "royale": (3, 4)}
SOAK_GAMES = 1000
FULL_EVERY = 8  # the baseline soak read the action texts of seeds with seed % 8 < 2

# A child reads "mode players seed full" lines and answers "seconds plies" for each game.
CHILD = """
import inspect, sys, time
sys.path.insert(0, sys.argv[1])
from tests.test_dynasty_tcg_modes import play_one
takes_full = "full" in inspect.signature(play_one).parameters
for line in sys.stdin:
    mode, players, seed, full = line.split()
    options = {"full": full == "1"} if takes_full else {}
    start = time.process_time()
    plies = len(play_one(mode, int(players), int(seed), **options))
    print(f"{time.process_time() - start:.4f} {plies}", flush=True)
"""


class Child:
    def __init__(self, tree: Path) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", CHILD, str(tree)], cwd=tree,
                                        text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def play(self, mode: str, players: int, seed: int, full: bool) -> float:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(f"{mode} {players} {seed} {int(full)}\n")
        stdin.flush()
        return float(_line(stdout).split()[0])

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def _line(stream: IO[str]) -> str:
    line = stream.readline()
    if not line:
        raise RuntimeError("the child process stopped (run the tests of the tree to see why)")
    return line


def measure(games: int, modes: list[str], baseline: Path | None) -> dict[str, float]:
    current = Child(ROOT)
    before = Child(baseline) if baseline is not None else None
    found: dict[str, float] = {}
    try:
        for mode in modes:
            counts = SETUPS[mode]
            sums = {"current": 0.0, "lite": 0.0, "full": 0.0}
            for seed in range(games):
                players = counts[seed % len(counts)]
                runs: list[tuple[str, Child, bool]] = [("current", current, True)]
                if before is not None:
                    runs += [("lite", before, False), ("full", before, True)]
                turn = seed % len(runs)
                for key, child, texts in runs[turn:] + runs[:turn]:
                    sums[key] += child.play(mode, players, seed, texts)
            found[f"{mode}.games"] = games
            found[f"{mode}.current"] = sums["current"] / games
            found[f"{mode}.minutes.current"] = SOAK_GAMES * sums["current"] / games / 60
            if before is not None:
                lite, full = sums["lite"] / games, sums["full"] / games
                # the baseline soak: two seeds in FULL_EVERY (one of each setup) read texts
                soak = (2 * full + (FULL_EVERY - 2) * lite) / FULL_EVERY
                found[f"{mode}.baseline.lite"] = lite
                found[f"{mode}.baseline.full"] = full
                found[f"{mode}.baseline.soak"] = soak
                found[f"{mode}.minutes.baseline"] = SOAK_GAMES * soak / 60
    finally:
        current.close()
        if before is not None:
            before.close()
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10, help="seeds a mode (default 10)")
    parser.add_argument("--modes", default="war,royale")
    parser.add_argument("--baseline", type=Path, default=None)
    args = parser.parse_args(argv)
    for key, value in measure(args.games, args.modes.split(","), args.baseline).items():
        print(f"{key} {value:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
