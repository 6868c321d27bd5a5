"""The state's own random generator: SplitMix64, a single 64-bit integer of state.

Python guarantees only ``random.random()`` across versions, and a Mersenne Twister state is
625 integers; SplitMix64 is tiny to snapshot, fast enough in pure Python, and its
shuffle/choice/dice outputs are pinned by ``tests/engine/test_rng.py``.
"""
from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_SPAN = 1 << 64
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """Deterministic generator. Never use the global ``random`` in rules."""

    __slots__ = ("state",)

    def __init__(self, seed: int | str = 0) -> None:
        if isinstance(seed, str):
            # A text seed (e.g. "match-17") hashes stably, unlike hash().
            acc = 0
            for ch in seed.encode():
                acc = _mix((acc ^ ch) + _GOLDEN)
            seed = acc
        self.state = _mix(int(seed) & _MASK)

    # -- core ------------------------------------------------------------------------------
    def next64(self) -> int:
        """The next raw 64-bit output."""
        self.state = (self.state + _GOLDEN) & _MASK
        return _mix(self.state)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection (no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        if n == 1:
            return 0
        limit = _SPAN - _SPAN % n
        # next64() and _mix() inlined: this is the hottest function of every shuffle and die roll.
        while True:
            z = self.state = (self.state + _GOLDEN) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x < limit:
                return x % n

    def randint(self, a: int, b: int) -> int:
        """Uniform integer in [a, b], both ends included."""
        return a + self.below(b - a + 1)

    def random(self) -> float:
        """Uniform float in [0, 1) with 53 bits."""
        return (self.next64() >> 11) / float(1 << 53)

    # -- helpers used by games ---------------------------------------------------------------
    def die(self, sides: int = 6) -> int:
        """One roll of a die numbered 1..sides."""
        return 1 + self.below(sides)

    def dice(self, count: int, sides: int = 6) -> list[int]:
        """Several rolls, in order."""
        return [self.die(sides) for _ in range(count)]

    def choice(self, seq: Sequence[T]) -> T:
        """One element, uniformly."""
        if not seq:
            raise IndexError("choice() from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        below = self.below
        for i in range(len(seq) - 1, 0, -1):
            j = below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def shuffled(self, seq: Sequence[T]) -> list[T]:
        """A shuffled copy."""
        out = list(seq)
        self.shuffle(out)
        return out

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        """k distinct elements, in draw order."""
        pool = list(seq)
        if k > len(pool):
            raise ValueError("sample larger than population")
        out = []
        for _ in range(k):
            out.append(pool.pop(self.below(len(pool))))
        return out

    def fork(self, label: str | int) -> Rng:
        """An independent generator derived from this one's state and a label, without advancing it."""
        child = Rng(0)
        salt = Rng(label).state if isinstance(label, str) else _mix(label & _MASK)
        child.state = _mix(self.state ^ salt)
        return child

    # -- snapshot ----------------------------------------------------------------------------
    def to_json(self) -> str:
        return format(self.state, "016x")

    @classmethod
    def from_json(cls, data: str) -> Rng:
        rng = cls(0)
        rng.state = int(data, 16) & _MASK
        return rng

    def copy(self) -> Rng:
        return Rng.from_json(self.to_json())
