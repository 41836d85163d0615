"""Random plies per second of every generated game, optionally against the same games compiled
by an earlier Rulecraft (another checkout of the repository).

Each game (`generated/<game>.py`, its default options) plays seeded random games: seed s with
`random.Random(s).choice` over `legal_actions()`, decks drawn by the seed from the game's shipped
decks when it has them, two players. A round plays every game in a fresh Python process, so the
two trees never share a module or a runtime; with `--baseline DIR` each round runs the current
tree and the baseline in alternating order, and each figure is the median over the rounds, so
drift in machine load affects both alike. Printed per game:

    games.<game>.plies_per_s              median over the rounds
    games.<game>.playouts_per_s           whole random games per second, median over the rounds
    games.<game>.baseline.plies_per_s     the same for the baseline tree (with --baseline)
    games.<game>.speedup                  current / baseline (median of the paired ratios)

The two trees must play the same games (the same plies over the same seeds); a difference is
reported, since it would make the comparison meaningless (tests/test_same_games.py guards it).

Usage: python -m benchmarks.bench_games [--games N] [--rounds R] [--baseline DIR]
e.g.   git worktree add /tmp/before <commit>
       python -m benchmarks.bench_games --baseline /tmp/before
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_GAMES = 30
DEFAULT_ROUNDS = 5

# Run in a child process with the tree first on sys.path (python -c, so that a baseline tree
# needs nothing of this file): prints {game: [plies, seconds]} as JSON.
CHILD = """
import gc, importlib, json, random, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
games = int(sys.argv[2])
found = {}
for name in sys.argv[3].split(","):
    game = importlib.import_module("generated." + name)
    decks = game.INFO.get("decks") or []
    def play(seeds):
        plies = 0
        for seed in seeds:
            chosen = None
            if decks:
                pick = random.Random(seed)
                chosen = {p: pick.choice(decks) for p in game.PLAYER_NAMES[:2]}
            state = game.new_game(seed=seed, players=2, decks=chosen)
            choose = random.Random(seed).choice
            while not state.is_terminal():
                state.apply_action(choose(state.legal_actions()))
                plies += 1
        return plies
    play(range(2))
    gc.collect()
    start = time.perf_counter()
    plies = play(range(games))
    found[name] = [plies, time.perf_counter() - start]
print(json.dumps(found))
"""


def game_names(tree: Path) -> list[str]:
    return sorted(p.stem for p in (tree / "generated").glob("*.py") if p.stem != "__init__")


def one_round(tree: Path, names: list[str], games: int) -> dict[str, tuple[int, float]]:
    """{game: (plies, seconds)} of one round in a fresh process on `tree`."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(tree), str(games), ",".join(names)],
        cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"playing in {tree} failed: {done.stderr.strip()[-2000:]}")
    return {name: (plies, seconds)
            for name, (plies, seconds) in json.loads(done.stdout.splitlines()[-1]).items()}


def emit(name: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"name": name, "value": value, "unit": unit, **extra}), flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_games",
        description="Random plies/s of every generated game, optionally against a baseline "
                    "checkout.")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES,
                        help=f"games per game per round (default {DEFAULT_GAMES})")
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS,
                        help=f"rounds, alternating trees (default {DEFAULT_ROUNDS})")
    parser.add_argument("--baseline", type=Path,
                        help="another checkout of the repository to compare with")
    args = parser.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    trees = {"current": ROOT}
    names = game_names(ROOT)
    if args.baseline is not None:
        if not (args.baseline / "generated").is_dir():
            parser.error(f"{args.baseline} has no generated/ folder")
        trees["baseline"] = args.baseline.resolve()
        names = [name for name in names if name in game_names(args.baseline)]
    runs: dict[str, list[dict[str, tuple[int, float]]]] = {tree: [] for tree in trees}
    for index in range(args.rounds):
        order = list(trees.items()) if index % 2 == 0 else list(trees.items())[::-1]
        for label, tree in order:
            runs[label].append(one_round(tree, names, args.games))
    for name in names:
        rates: dict[str, list[float]] = {}
        for label in trees:
            plies = {run[name][0] for run in runs[label]}
            rates[label] = [run[name][0] / run[name][1] for run in runs[label]]
            prefix = f"games.{name}" if label == "current" else f"games.{name}.{label}"
            emit(f"{prefix}.plies_per_s", round(statistics.median(rates[label])), "plies/s",
                 games=args.games, rounds=args.rounds, plies=sorted(plies))
            # a game's length varies by game, so games per second say what a playout costs
            playouts = [args.games / run[name][1] for run in runs[label]]
            emit(f"{prefix}.playouts_per_s", round(statistics.median(playouts), 1), "playouts/s",
                 games=args.games, rounds=args.rounds)
        if "baseline" in trees:
            same = ({run[name][0] for run in runs["current"]}
                    == {run[name][0] for run in runs["baseline"]})
            paired = statistics.median(
                now / before for now, before in zip(rates["current"], rates["baseline"],
                                                    strict=True))
            emit(f"games.{name}.speedup", round(paired, 3), "x", same_games=same)
    return 0


if __name__ == "__main__":
    sys.exit(main())
