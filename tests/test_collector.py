"""Compiling pauses the cycle collector and then moves what it made to the oldest generation
(compiler.driver.collector_paused): nothing may stay frozen, cycles left as garbage must still be
freed, and a caller's own frozen objects and collector setting must be left as they were."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from compiler.driver import check_rulebook, collector_paused

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rulebooks" / "rulers_gambit" / "rulers_gambit.rules"


class Holder:
    """A gc-tracked object that can be weakly referenced and put in a cycle."""

    def __init__(self) -> None:
        self.other: object = None


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.enable()
    yield
    if not was_enabled:
        gc.disable()


def young(obj: object) -> bool:
    return any(o is obj for o in gc.get_objects(generation=0))


def test_nothing_stays_frozen_and_the_collector_runs_again() -> None:
    assert gc.get_freeze_count() == 0
    compilation = check_rulebook(RULES)
    assert compilation.ok
    assert gc.get_freeze_count() == 0
    assert gc.isenabled()


def test_what_the_block_made_leaves_the_youngest_generation() -> None:
    collections: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    threshold = gc.get_threshold()[0]
    gc.callbacks.append(record)
    try:
        with collector_paused():
            kept = [Holder() for _ in range(2 * threshold)]
            assert young(kept[0])
        more = [Holder() for _ in range(threshold // 2)]  # would start a collection of all
    finally:
        gc.callbacks.remove(record)
    assert collections == []
    assert not young(kept[0])
    assert young(more[0])


def test_cycles_left_as_garbage_are_still_freed() -> None:
    with collector_paused():
        first, second = Holder(), Holder()
        first.other, second.other = second, first
        ref = weakref.ref(first)
        del first, second
    assert ref() is not None  # a cycle: reference counting alone cannot free it
    gc.collect()
    assert ref() is None


def test_a_callers_frozen_objects_stay_frozen() -> None:
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 0
        with collector_paused():
            made = Holder()
        assert gc.get_freeze_count() == frozen
        assert gc.isenabled()
        assert young(made)  # not moved: the next collection walks it, as without the move
    finally:
        gc.unfreeze()


def test_a_paused_collector_stays_paused() -> None:
    gc.disable()
    with collector_paused():
        made = Holder()
    assert not gc.isenabled()
    assert young(made)
    assert gc.get_freeze_count() == 0
