"""The AI's strength levels: depth and node budgets, never wall-clock time.

A level's limits are a depth cap, a node budget and a blunder percent. The
measured strength of each level and its estimated time per move on the chip
are in docs/benchmarks.md (`make bench`). The time cap that the board adds is a
safety net only.

The budgets are the classic 7x6 board's; a level keeps its time per move on
every size: a node costs more on a larger board (more columns to scan and
order, more windows through a cell) and less on a smaller one, so a level's
budget is scaled by the node's cost there (`nodes(level, cols, rows)`). The
costs, percent of a 7x6 node's, are the chip's counts on each size (the
emulated chip, tools/chip/speed.py, recorded in tools/data/chip.txt) rounded
up; tests/test_sizes.py checks them against that record. On 7x6 the budgets
are the table's own.
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
    (42, 60000, 0),     # 8: what 2 s buys on the chip at its slow end (docs/ai.md#levels; 3 s at most: tests/test_sizes.py)
)

MIN_LEVEL = 1
MAX_LEVEL = len(LEVELS)


def clamp_level(level):
    return max(MIN_LEVEL, min(MAX_LEVEL, int(level)))


def depth(level):
    """The iteration cap (plies) of a 1-based level."""
    return LEVELS[clamp_level(level) - 1][_DEPTH]


# A node's cost on each size, percent of a 7x6 node's: rows 4..7, columns 4..8 each
_COST = bytes((68, 69, 78, 82, 88,     # 4 rows
               68, 78, 83, 96, 102,    # 5
               73, 81, 94, 100, 106,   # 6
               74, 87, 95, 103, 109))  # 7


def node_cost(cols, rows):
    """A node's cost on a cols x rows board (4x4 to 8x7), percent of a 7x6 node's."""
    return _COST[(rows - 4) * 5 + cols - 4]


def nodes(level, cols=7, rows=6):
    """The node budget of a 1-based level on a cols x rows board."""
    budget = LEVELS[clamp_level(level) - 1][_NODES]
    cost = node_cost(cols, rows)
    if cost != 100:
        budget = budget * 100 // cost
    return budget


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
