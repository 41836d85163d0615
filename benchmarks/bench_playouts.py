"""Random playouts per second: the generated Dynasties module against the hand-written one.

Both implementations play the same seeds with the same kind of random agent
(``random.Random(seed).choice(state.legal_actions())``), in one process. The two run in
alternating rounds (the order flips every round) and each figure is the median over the rounds,
so that drift in machine load affects both alike. Printed per variant (basic, warlords):

    dynasties.generated.playouts_per_s    playouts/s of generated/dynasties.py
    dynasties.handwritten.playouts_per_s  playouts/s of benchmarks/handwritten_dynasties.py
    dynasties.speedup                     generated / hand-written (target: >= 1.5)

A first record, `machine`, names the processor and Python: the ratio depends on both. The
speed-up records also give the median and the range of the rounds' own ratios (`paired_`).

Usage: python -m benchmarks.bench_playouts [--games N] [--rounds R]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

import generated.dynasties as generated_game
from benchmarks import handwritten_dynasties as handwritten_game
from benchmarks import machine_record

DEFAULT_GAMES = 200
DEFAULT_ROUNDS = 7
WARMUP_GAMES = 10
SPEEDUP_TARGET = 1.5
VARIANTS: tuple[tuple[str, bool], ...] = (("basic", False), ("warlords", True))


class _State(Protocol):
    def is_terminal(self) -> bool: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def apply_action(self, action: Any) -> None: ...


NewGame = Callable[..., _State]

IMPLEMENTATIONS: tuple[tuple[str, NewGame], ...] = (
    ("generated", generated_game.new_game),
    ("handwritten", handwritten_game.new_game),
)


def playouts(new_game: NewGame, seeds: range, warlords: bool) -> int:
    """Play one random game per seed to the end; return the total number of plies."""
    options: dict[str, object] = {"warlords": warlords}
    plies = 0
    for seed in seeds:
        choose = random.Random(seed).choice
        state = new_game(seed=seed, players=2, options=options)
        while not state.is_terminal():
            state.apply_action(choose(state.legal_actions()))
            plies += 1
    return plies


def timed_round(new_game: NewGame, seeds: range, warlords: bool) -> tuple[float, int]:
    """(seconds, plies) of one round of playouts, measured after a garbage collection."""
    gc.collect()
    start = time.perf_counter()
    plies = playouts(new_game, seeds, warlords)
    return time.perf_counter() - start, plies


def measure(games: int, rounds: int, warlords: bool) -> dict[str, list[tuple[float, int]]]:
    """Per implementation, the (seconds, plies) of each round, in alternating order."""
    seeds = range(games)
    for _name, new_game in IMPLEMENTATIONS:  # warm up caches and the allocator
        playouts(new_game, range(min(WARMUP_GAMES, games)), warlords)
    results: dict[str, list[tuple[float, int]]] = {name: [] for name, _ in IMPLEMENTATIONS}
    for index in range(rounds):
        order = IMPLEMENTATIONS if index % 2 == 0 else IMPLEMENTATIONS[::-1]
        for name, new_game in order:
            results[name].append(timed_round(new_game, seeds, warlords))
    return results


def records(games: int, rounds: int) -> Iterator[dict[str, Any]]:
    """The benchmark's JSON records, three per variant, as each variant is measured."""
    for variant, warlords in VARIANTS:
        results = measure(games, rounds, warlords)
        median_rate: dict[str, float] = {}
        for name, runs in results.items():
            rates = [games / seconds for seconds, _ in runs]
            median_rate[name] = statistics.median(rates)
            plies = runs[0][1]
            if any(round_plies != plies for _, round_plies in runs):
                raise RuntimeError(f"{name} {variant}: the same seeds played different games")
            yield {
                "name": f"dynasties.{variant}.{name}.playouts_per_s",
                "value": round(median_rate[name], 1),
                "unit": "playouts/s",
                "variant": variant,
                "games": games,
                "rounds": rounds,
                "statistic": "median",
                "best": round(max(rates), 1),
                "plies_per_game": round(plies / games, 1),
                "plies_per_s": round(statistics.median(plies / seconds for seconds, _ in runs)),
            }
        speedup = median_rate["generated"] / median_rate["handwritten"]
        # each round's own ratio: their spread says how far one run's figure may wander
        paired_ratios = [
            hand_seconds / gen_seconds
            for (gen_seconds, _), (hand_seconds, _) in zip(
                results["generated"], results["handwritten"], strict=True
            )
        ]
        yield {
            "name": f"dynasties.{variant}.speedup",
            "value": round(speedup, 3),
            "unit": "x",
            "variant": variant,
            "games": games,
            "rounds": rounds,
            "paired_median": round(statistics.median(paired_ratios), 3),
            "paired_range": [round(min(paired_ratios), 3), round(max(paired_ratios), 3)],
            "target": SPEEDUP_TARGET,
        }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_playouts",
        description="Random playouts per second, generated vs hand-written Dynasties.",
    )
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES,
                        help=f"games per implementation per round (default {DEFAULT_GAMES})")
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS,
                        help=f"alternating rounds per variant (default {DEFAULT_ROUNDS})")
    args = parser.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    print(json.dumps(machine_record()), flush=True)
    for record in records(args.games, args.rounds):
        print(json.dumps(record), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
