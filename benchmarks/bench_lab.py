"""The balance lab's speed: whole games per second of `rulecraft simulate` (random agents, all
statistics kept) with one process and with two, and MCTS decisions per second.

    lab.<game>.games_per_s.jobs1    random games of the lab, one process
    lab.<game>.games_per_s.jobs2    the same games, two processes (seeds split as the CLI does)
    lab.<game>.mcts<I>.decisions_per_s   moves chosen by MCTS(I) in the opening plies
    lab.<game>.mcts<I>.depth<D>.decisions_per_s   the same with rollout_depth=D (Ruler's
                                    Gambit and Dynasty Builder, which declare a heuristic)

The figures depend on the machine and its load: on a shared machine, run it alone.

Usage: python -m benchmarks.bench_lab [--games N] [--iterations I] [--decisions D]
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
from collections.abc import Sequence

from compiler import agents, lab

GAMES = ("dynasties", "rulers_gambit")
DEPTH_GAMES = ("rulers_gambit", "dynasty_builder")


def emit(name: str, value: float, unit: str) -> None:
    print(json.dumps({"name": name, "value": round(value, 2), "unit": unit}), flush=True)


def games_per_second(name: str, games: int, jobs: int) -> float:
    module = importlib.import_module(f"generated.{name}")
    setup = lab.Setup(game=name)  # the pool's workers are forked with the module loaded
    started = time.perf_counter()
    played = sum(1 for _ in lab.run(module, setup, games, jobs))
    return played / (time.perf_counter() - started)


def mcts_decisions_per_second(name: str, iterations: int, decisions: int,
                              depth: int | None = None) -> float:
    """MCTS(iterations) choosing for both sides from the start, `decisions` times (moves with
    one legal action are not decisions and are played without search)."""
    module = importlib.import_module(f"generated.{name}")
    options: dict[str, object] = {"iterations": iterations}
    if depth is not None:
        options["rollout_depth"] = depth
    agent = agents.make(("mcts", options))
    rng = random.Random(0)
    state = module.new_game(seed=0)
    done = 0
    spent = 0.0
    while done < decisions and not state.is_terminal():
        actions = state.legal_actions()
        if len(actions) == 1:
            state.apply_action(actions[0])
            continue
        started = time.perf_counter()
        action = agent.step(state, rng)
        spent += time.perf_counter() - started
        state.apply_action(action)
        done += 1
    return done / spent if spent else 0.0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_lab")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--decisions", type=int, default=10)
    parser.add_argument("--rollout-depth", type=int, default=20)
    args = parser.parse_args(argv)
    for name in GAMES:
        for jobs in (1, 2):
            emit(f"lab.{name}.games_per_s.jobs{jobs}",
                 games_per_second(name, args.games, jobs), "games/s")
        emit(f"lab.{name}.mcts{args.iterations}.decisions_per_s",
             mcts_decisions_per_second(name, args.iterations, args.decisions), "decisions/s")
    for name in DEPTH_GAMES:
        emit(f"lab.{name}.mcts{args.iterations}.depth{args.rollout_depth}.decisions_per_s",
             mcts_decisions_per_second(name, args.iterations, args.decisions,
                                       args.rollout_depth), "decisions/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
