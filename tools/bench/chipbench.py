# Runs inside MicroPython: on the board (make bench-device), in the VM (make bench) and the unix port (callgrind); CPython too.
"""Engine speed benchmark that runs anywhere the firmware runs.

MicroPython on the board (`make bench-device` sends it with `mpremote run`),
MicroPython's unix port (under callgrind, for instructions per node), the
MicroPython VM of the tests, and CPython. It searches a fixed set of
positions with a fixed node budget, so every run does the same work, and
prints one `bench ...` line a position and a `total ...` line.

With the argument `levels` (anywhere; `make bench-device` gives it), it then
times every AI level of connect4.engine.levels: a few fixed positions searched
with the level's depth cap and node budget (the Searcher itself, no
blunders), one line a level:
    level L depth D nodes N ms T max M budget B
D and B are the level's caps, N the mean nodes searched a move, T and M the
mean and the longest milliseconds a move.

Usage: chipbench.py [nodes] [firmware dir] [levels] [COLSxROWS: SIZE_POSITIONS on that size]
"""
import sys

SIZE = [a for a in sys.argv[1:] if "x" in a and a[0] < "A"]
ARGS = [a for a in sys.argv[1:] if a != "levels" and a not in SIZE]
if len(ARGS) > 1:
    sys.path.insert(0, ARGS[1])

from time import ticks_ms, ticks_diff  # noqa: E402

from connect4.engine.board import Board  # noqa: E402
from connect4.engine.search import Searcher  # noqa: E402

POSITIONS = ("", "4453", "444443", "3344352", "44", "1234567765",
             "3453", "4344355", "4")
LEVEL_POSITIONS = ("", "4453", "3344352")
SIZE_POSITIONS = ("", "1", "12", "21", "33", "23", "31")


_SEARCHER = []


def searcher_once():
    """One Searcher for every run: a second table would not fit beside the first
    in a small heap that has not been collected yet (new_game() clears it)."""
    if not _SEARCHER:
        _SEARCHER.append(Searcher())
    return _SEARCHER[0]


def run(budget, out=print, size=None):
    searcher = searcher_once()
    total_nodes = 0
    total_ms = 0
    for moves in SIZE_POSITIONS if size else POSITIONS:
        board = Board(moves, *size) if size else Board(moves)
        searcher.new_game()  # each position alone: figures that do not depend on the order
        start = ticks_ms()
        result = searcher.search(board, nodes=budget)
        ms = ticks_diff(ticks_ms(), start)
        total_nodes += result.nodes
        total_ms += ms
        out("bench %s move %d depth %d nodes %d ms %d" % (
            moves or "-", result.move + 1, result.depth, result.nodes, ms))
    nps = total_nodes * 1000 // total_ms if total_ms > 0 else 0
    out("total nodes %d ms %d nps %d" % (total_nodes, total_ms, nps))
    return total_nodes, total_ms


def run_levels(out=print, positions=LEVEL_POSITIONS):
    """Per level: (level, depth, budget, mean nodes, mean ms, max ms), also printed."""
    from connect4.engine import levels
    searcher = searcher_once()
    rows = []
    for level in range(levels.MIN_LEVEL, levels.MAX_LEVEL + 1):
        depth = levels.depth(level)
        budget = levels.nodes(level)
        nodes = 0
        total_ms = 0
        worst = 0
        for moves in positions:
            board = Board(moves)
            searcher.new_game()
            start = ticks_ms()
            result = searcher.search(board, depth=depth, nodes=budget)
            ms = ticks_diff(ticks_ms(), start)
            nodes += result.nodes
            total_ms += ms
            worst = max(worst, ms)
        n = len(positions)
        row = (level, depth, budget, nodes // n, total_ms // n, worst)
        out("level %d depth %d nodes %d ms %d max %d budget %d" % (
            level, depth, row[3], row[4], worst, budget))
        rows.append(row)
    return rows


if __name__ == "__main__":
    run(int(ARGS[0]) if ARGS else 5000, size=SIZE and [int(v) for v in SIZE[0].split("x")])
    if "levels" in sys.argv[1:]:
        run_levels()
