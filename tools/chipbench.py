"""Engine speed benchmark that runs anywhere the firmware runs.

MicroPython on the board (`make bench-device` sends it with `mpremote run`),
MicroPython's unix port (under callgrind, for instructions per node), the
MicroPython VM of the tests, and CPython. It searches a fixed set of
positions with a fixed node budget, so every run does the same work, and
prints one `bench ...` line a position and a `total ...` line.

Usage: chipbench.py [nodes] [firmware dir]
"""
import sys

if len(sys.argv) > 2:
    sys.path.insert(0, sys.argv[2])

from time import ticks_ms, ticks_diff  # noqa: E402

from connect4.engine.board import Board  # noqa: E402
from connect4.engine.search import Searcher  # noqa: E402

POSITIONS = ("", "4453", "444443", "3344352", "44", "1234567765",
             "3453", "4344355", "4")


def run(budget, out=print):
    searcher = Searcher()
    total_nodes = 0
    total_ms = 0
    for moves in POSITIONS:
        board = Board(moves)
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


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
