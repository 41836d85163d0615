"""The seeded random generator of a game state: every shuffle, roll and random choice of
the rules draws from it, so a game whose seed and actions are the same replays exactly."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from dsl.runtime_base import RuleError, T

_TWO64 = 1 << 64
_MASK64 = _TWO64 - 1
_GAMMA, _MIX1, _MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
# below(n) takes a draw under the largest multiple of n within 64 bits (no modulo bias); for
# the small n of dice, shuffles and choices it is read here, not worked out in big integers
_LIMITS = tuple(_TWO64 - _TWO64 % n if n else 0 for n in range(256))


class Rng:
    """SplitMix64: tiny state (one int), fast to clone, identical on every platform."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next64(self) -> int:
        z = self.state = (self.state + _GAMMA) & _MASK64
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise RuleError(f"cannot choose among {n} possibilities")
        limit = _LIMITS[n] if n < 256 else _TWO64 - _TWO64 % n
        while True:
            # next64(), written out: every roll and choice of the rules comes here
            z = self.state = (self.state + _GAMMA) & _MASK64
            z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
            z ^= z >> 31
            if z < limit:
                return z % n

    def roll(self, sides: int) -> int:
        return 1 + self.below(sides)

    def flip(self) -> bool:
        return self.below(2) == 1

    def shuffle(self, items: list[T]) -> None:
        # below() and next64() written out: the rules shuffle often, and a shuffle draws once
        # per item; the numbers drawn are the same
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _LIMITS[n] if n < 256 else _TWO64 - _TWO64 % n
            while True:
                state = (state + _GAMMA) & _MASK64
                z = ((state ^ (state >> 30)) * _MIX1) & _MASK64
                z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = state

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
