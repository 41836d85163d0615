"""How a test splits its work between the default tier and the soak tier (marker `soak`,
deselected unless `-m soak` is given; `.ci/run` runs both): a representative few in the
default tier, the many in the soak tier."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

BATCH = 25  # seeds per soak test: a failure names the seed, and there are not thousands of tests


def soak(values: Iterable[Any]) -> list[Any]:
    """Parameters that run in the soak tier only (a tuple gives the values of several
    argument names)."""
    return [pytest.param(*(value if isinstance(value, tuple) else (value,)),
                         marks=pytest.mark.soak) for value in values]


def every_other(values: Sequence[Any]) -> list[Any]:
    """A long list of cases as parameters: every other one in the default tier (the first,
    the third, ...), the rest in the soak tier."""
    return [*values[::2], *soak(values[1::2])]


def seeds(default: int, total: int) -> list[Any]:
    """The seeds 0..total-1 as parameters: the first `default` in the default tier, the rest
    in the soak tier."""
    return [*range(default), *soak(range(default, total))]


def batches(start: int, stop: int, size: int = BATCH) -> list[range]:
    """The seeds start..stop-1 in ranges of `size`: the soak tier's tests, one per range."""
    return [range(first, min(first + size, stop)) for first in range(start, stop, size)]


def batch_id(seeds: range) -> str:
    return f"seeds{seeds.start}-{seeds.stop - 1}"
