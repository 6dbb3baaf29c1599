"""A seeded PRNG that gives the same numbers on CPython and MicroPython.

MicroPython's `random` differs from CPython's, so the AI's tie-breaks and
blunders draw from this xorshift32 instead: the same seed plays the same game
in the simulator and on the board.

The 32-bit state is kept as two 16-bit halves: on the chip an int of 2**30 or
more is a heap-allocated big int, and every intermediate here stays below
2**29, so a draw allocates nothing. The sequence is the plain xorshift32's.
"""
from micropython import const

_HALF = const(0xFFFF)


class Rng:
    def __init__(self, seed=1):
        self.seed(seed)

    def seed(self, seed):
        """Any int; its low 32 bits count (0 picks a fixed nonzero state)."""
        seed = int(seed)
        self.hi = (seed >> 16) & _HALF
        self.lo = seed & _HALF
        if self.hi == 0 and self.lo == 0:
            self.hi = 0x9E37
            self.lo = 0x79B9

    def _step(self):
        """x ^= x << 13; x ^= x >> 17; x ^= x << 5 (mod 2**32), on the halves."""
        hi = self.hi
        lo = self.lo
        hi ^= ((hi << 13) | (lo >> 3)) & _HALF
        lo ^= (lo << 13) & _HALF
        lo ^= hi >> 1
        hi ^= ((hi << 5) | (lo >> 11)) & _HALF
        lo ^= (lo << 5) & _HALF
        self.hi = hi
        self.lo = lo

    def below(self, n):
        """A uniform int in [0, n); n is small (a handful of columns or levels)."""
        self._step()
        return ((self.hi << 8) | (self.lo >> 8)) % n  # the state's top 24 bits

    def chance(self, percent):
        """True with probability percent/100."""
        return percent > 0 and self.below(100) < percent

    def choice(self, items):
        return items[self.below(len(items))]
