"""The seeded generator of game states (dsl.runtime_rng): Rng.shuffle writes below() and
next64() out for speed, and must draw exactly what the plain Fisher-Yates over below() draws,
or the same seed would no longer play the same game."""

from __future__ import annotations

import random

from dsl import runtime_rng
from dsl.runtime_rng import Rng


def reference_shuffle(rng: Rng, items: list[int]) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


def test_shuffle_draws_what_below_draws() -> None:
    pick = random.Random(12)
    for seed in [0, 1, 2**63, 2**64 - 1, *(pick.getrandbits(64) for _ in range(300))]:
        fast, slow = Rng(seed), Rng(seed)
        for _ in range(5):
            size = pick.randint(0, 60)
            a, b = list(range(size)), list(range(size))
            fast.shuffle(a)
            reference_shuffle(slow, b)
            assert a == b
            assert fast.state == slow.state


def test_known_draws_of_a_seed() -> None:
    # SplitMix64's published first output for seed 0, and what seed 7 has always drawn
    assert Rng(0).next64() == 0xE220A8397B1DCDAF
    rng = Rng(7)
    assert [rng.below(6) for _ in range(8)] == [3, 0, 0, 3, 4, 3, 4, 0]
    items = list(range(10))
    rng.shuffle(items)
    assert items == [7, 6, 8, 2, 4, 0, 1, 3, 9, 5]


def test_below_reads_the_limits_it_would_work_out() -> None:
    # below() reads the rejection limit of a small n from a table: a draw must be kept or
    # drawn again exactly as the limit worked out in big integers says, up to n = 2**64
    two64 = 1 << 64
    assert all(runtime_rng._LIMITS[n] == two64 - two64 % n for n in range(1, 256))
    for n in [1, 2, 3, 6, 255, 256, 257, 1000, 2**63 + 1, 3 * 2**62, two64 - 1, two64]:
        rng, plain = Rng(n), n & (two64 - 1)
        limit = two64 - two64 % n
        for _ in range(20):
            draws = []
            while True:
                z = Rng(0)
                z.state = plain
                value = z.next64()
                plain = z.state
                draws.append(value)
                if value < limit:
                    break
            assert rng.below(n) == draws[-1] % n
            assert rng.state == plain
