"""The AI's strength levels: depth and node budgets, never wall-clock time.

A level's limits are a depth cap, a node budget and a blunder percent. The
measured strength of each level and its estimated time per move on the chip
are in docs/benchmarks.md (`make bench`). The time cap that the board adds is a
safety net only.
"""
from micropython import const

_DEPTH = const(0)
_NODES = const(1)
_BLUNDER = const(2)

LEVELS = (
    # depth, nodes, blunder %
    (1, 100, 90),       # 1: a child can win
    (2, 200, 45),       # 2
    (3, 600, 20),       # 3
    (3, 800, 10),       # 4
    (4, 1500, 5),       # 5
    (6, 4000, 2),       # 6
    (12, 15000, 0),     # 7
    (42, 50000, 0),     # 8: the strongest the chip affords (under 2 s a move on average)
)

MIN_LEVEL = 1
MAX_LEVEL = len(LEVELS)


def clamp_level(level):
    return max(MIN_LEVEL, min(MAX_LEVEL, int(level)))


def depth(level):
    """The iteration cap (plies) of a 1-based level."""
    return LEVELS[clamp_level(level) - 1][_DEPTH]


def nodes(level):
    """The node budget of a 1-based level."""
    return LEVELS[clamp_level(level) - 1][_NODES]


def blunder(level):
    """The percent of a level's moves played at random."""
    return LEVELS[clamp_level(level) - 1][_BLUNDER]


def demo_pair(rng, last=(0, 0)):
    """Two different random levels (first mover, second) for an AI-vs-AI demo game.

    Never `last`, the previous game's pair: the strong levels play without
    blunders, so the same levels in the same order could replay the very
    same game, move for move.
    """
    while True:
        a = MIN_LEVEL + rng.below(MAX_LEVEL)
        b = MIN_LEVEL + rng.below(MAX_LEVEL - 1)
        if b >= a:
            b += 1
        if a != last[0] or b != last[1]:
            return a, b
