"""Compiling pauses the cycle collector and then, when the block made many objects, moves them
to the oldest generation (compiler.driver.collector_paused, Promotions): nothing may stay
frozen, cycles left as garbage must still be freed (at once by gc.collect(), and by the next
paused block once many objects were moved), and a caller's own frozen objects and collector
setting must be left as they were. As the garbage of a big compilation waits for a full
collection, a compilation must be freed by reference counting alone once dropped: no garbage
cycle may hold on to its model."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from compiler.build import outputs
from compiler.driver import PROMOTIONS, check_rulebook, collector_paused

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rulebooks" / "rulers_gambit" / "rulers_gambit.rules"
RULEBOOKS = sorted((ROOT / "rulebooks").glob("*/*.rules"))


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


@pytest.fixture
def every_block_moved(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(PROMOTIONS, "least", 0)


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generations of the collections that run while the test does."""
    found: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            found.append(info["generation"])

    gc.callbacks.append(record)
    yield found
    gc.callbacks.remove(record)


def young(obj: object) -> bool:
    return any(o is obj for o in gc.get_objects(generation=0))


def test_nothing_stays_frozen_and_the_collector_runs_again(every_block_moved: None) -> None:
    assert gc.get_freeze_count() == 0
    compilation = check_rulebook(RULES)
    assert compilation.ok
    assert gc.get_freeze_count() == 0
    assert gc.isenabled()


def test_what_a_block_made_leaves_the_youngest_generation(
    every_block_moved: None, collections: list[int]
) -> None:
    threshold = gc.get_threshold()[0]
    with collector_paused():
        kept = [Holder() for _ in range(2 * threshold)]
        assert young(kept[0])
    more = [Holder() for _ in range(threshold // 2)]  # would start a collection of all
    assert collections == []
    assert not young(kept[0])
    assert young(more[0])


def test_what_a_small_block_made_is_collected_as_usual(collections: list[int]) -> None:
    threshold = gc.get_threshold()[0]
    assert PROMOTIONS.least > 2 * threshold
    with collector_paused():
        kept = [Holder() for _ in range(2 * threshold)]
    [Holder() for _ in range(threshold // 2)]
    assert collections and collections[0] == 0
    assert not young(kept[0])


def test_cycles_left_as_garbage_are_still_freed(every_block_moved: None) -> None:
    with collector_paused():
        first, second = Holder(), Holder()
        first.other, second.other = second, first
        ref = weakref.ref(first)
        del first, second
    assert ref() is not None  # a cycle: reference counting alone cannot free it
    gc.collect()
    assert ref() is None


def test_many_moved_objects_make_the_next_block_collect_first(
    every_block_moved: None, collections: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    gc.collect()
    collections.clear()
    assert PROMOTIONS.moved == 0
    monkeypatch.setattr(PROMOTIONS, "limit", 1000)
    with collector_paused():
        first, second = Holder(), Holder()
        first.other, second.other = second, first
        ref = weakref.ref(first)
        del first, second
        kept = [Holder() for _ in range(1000)]
    assert PROMOTIONS.moved >= len(kept)
    assert ref() is not None
    with collector_paused():
        assert ref() is None  # collected before the block began
    assert 2 in collections
    assert PROMOTIONS.moved < 1000  # counted again from that collection


def test_any_full_collection_clears_the_count(every_block_moved: None) -> None:
    with collector_paused():
        kept = [Holder() for _ in range(1000)]
    assert PROMOTIONS.moved >= len(kept)
    gc.collect()
    assert PROMOTIONS.moved == 0


def test_a_callers_frozen_objects_stay_frozen(every_block_moved: None) -> None:
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


def test_a_paused_collector_stays_paused(every_block_moved: None) -> None:
    gc.disable()
    with collector_paused():
        made = Holder()
    assert not gc.isenabled()
    assert young(made)
    assert gc.get_freeze_count() == 0


@pytest.mark.parametrize("rules", RULEBOOKS, ids=lambda path: path.stem)
def test_a_dropped_compilation_needs_no_collection(rules: Path) -> None:
    gc.disable()  # reference counting alone
    compilation = check_rulebook(rules)
    assert compilation.model is not None
    model = weakref.ref(compilation.model)
    variants = [weakref.ref(v.model) for v in compilation.variants if v.model is not None]
    del compilation
    assert model() is None
    assert all(variant() is None for variant in variants)


def test_a_dropped_build_needs_no_collection(tmp_path: Path) -> None:
    gc.disable()
    compilation = check_rulebook(RULES)
    assert compilation.model is not None
    outputs(compilation, tmp_path)
    model = weakref.ref(compilation.model)
    del compilation
    assert model() is None
