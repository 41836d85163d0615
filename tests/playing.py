"""What the random-game tests of every game share: playing a game through its public API, and
seeds in batches (a soak test plays a batch; a failure names the seed and the ply)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

State = Any  # a generated module's State; the tests use its public methods only
Choose = Callable[[list[Any]], Any]
BATCH = 25  # seeds per soak test


def play(state: State, choose: Choose, plies: int | None = None) -> list[str]:
    """Apply up to `plies` chosen actions (all, to the end, when None); return their texts."""
    texts: list[str] = []
    while not state.is_terminal() and (plies is None or len(texts) < plies):
        action = choose(state.legal_actions())
        texts.append(str(action))
        state.apply_action(action)
    return texts


def batches(start: int, stop: int, size: int = BATCH) -> list[range]:
    """The seeds start..stop-1 in ranges of `size`: the soak tier's tests, one per range."""
    return [range(first, min(first + size, stop)) for first in range(start, stop, size)]


def batch_id(seeds: range) -> str:
    return f"seeds{seeds.start}-{seeds.stop - 1}"
