"""A seeded PRNG that gives the same numbers on CPython and MicroPython.

MicroPython's `random` differs from CPython's, so the AI's tie-breaks and
blunders draw from this xorshift32 instead: the same seed plays the same game
in the simulator and on the board.
"""


class Rng:
    def __init__(self, seed=1):
        self.seed(seed)

    def seed(self, seed):
        self.state = (int(seed) & 0xFFFFFFFF) or 0x9E3779B9

    def next32(self):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x

    def below(self, n):
        """A uniform int in [0, n); n is small (a handful of columns or levels)."""
        return (self.next32() >> 8) % n

    def chance(self, percent):
        """True with probability percent/100."""
        return percent > 0 and self.below(100) < percent

    def choice(self, items):
        return items[self.below(len(items))]
