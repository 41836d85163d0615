"""The seeded random generator of a game state: every shuffle, roll and random choice of
the rules draws from it, so a game whose seed and actions are the same replays exactly."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from dsl.runtime_base import RuleError, T

_MASK64 = (1 << 64) - 1


class Rng:
    """SplitMix64: tiny state (one int), fast to clone, identical on every platform."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise RuleError(f"cannot choose among {n} possibilities")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def roll(self, sides: int) -> int:
        return 1 + self.below(sides)

    def flip(self) -> bool:
        return self.below(2) == 1

    def shuffle(self, items: list[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Iterable[T]) -> list[T]:
        result = list(items)
        self.shuffle(result)
        return result

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def clone(self) -> Rng:
        other = Rng(0)
        other.state = self.state
        return other
