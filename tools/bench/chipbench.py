# Runs inside MicroPython: on the board (make bench-device), in the VM (make bench) and the unix port (callgrind); CPython too.
"""Engine speed benchmark that runs anywhere the firmware runs: the board
(`make bench-device`: `mpremote run`), the emulated chip (tools/chip/speed.py),
MicroPython's unix port (callgrind), the VM of the tests, CPython. Fixed
positions at a fixed node budget, so every run does the same work: a
`bench ...` line a position, then `total ...`.

`levels` (anywhere) then times every AI level on a few fixed positions with
the level's depth cap and node budget (the Searcher itself, no blunders):
    level L depth D nodes N ms T max M budget B
D and B the level's caps, N the mean nodes a move, T and M the mean and the
longest ms a move. `us` adds exact figures: ` us U` to `total`, ` total N us U`
to each level (the nodes and microseconds of all its positions).

Usage: chipbench.py [nodes] [firmware dir] [levels] [us] [COLSxROWS: SIZE_POSITIONS on that size]
"""
import sys

SIZE = [a for a in sys.argv[1:] if "x" in a and a[0] < "A"]
ARGS = [a for a in sys.argv[1:] if a not in ("levels", "us") and a not in SIZE]
US = "us" in sys.argv[1:]
if len(ARGS) > 1:
    sys.path.insert(0, ARGS[1])

from time import ticks_diff, ticks_us  # noqa: E402

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
    total_us = 0
    for moves in SIZE_POSITIONS if size else POSITIONS:
        board = Board(moves, *size) if size else Board(moves)
        searcher.new_game()  # each position alone: figures that do not depend on the order
        start = ticks_us()
        result = searcher.search(board, nodes=budget)
        us = ticks_diff(ticks_us(), start)
        total_nodes += result.nodes
        total_us += us
        out("bench %s move %d depth %d nodes %d ms %d" % (
            moves or "-", result.move + 1, result.depth, result.nodes, us // 1000))
    total_ms = total_us // 1000
    nps = total_nodes * 1000000 // total_us if total_us > 0 else 0
    out("total nodes %d ms %d nps %d%s" % (total_nodes, total_ms, nps, " us %d" % total_us if US else ""))
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
        total_us = 0
        worst = 0
        for moves in positions:
            board = Board(moves)
            searcher.new_game()
            start = ticks_us()
            result = searcher.search(board, depth=depth, nodes=budget)
            us = ticks_diff(ticks_us(), start)
            nodes += result.nodes
            total_us += us
            worst = max(worst, us)
        n = len(positions)
        row = (level, depth, budget, nodes // n, total_us // n // 1000, worst // 1000)
        out("level %d depth %d nodes %d ms %d max %d budget %d%s" % (
            level, depth, row[3], row[4], row[5], budget, " total %d us %d" % (nodes, total_us) if US else ""))
        rows.append(row)
    return rows


if __name__ == "__main__":
    run(int(ARGS[0]) if ARGS else 5000, size=SIZE and [int(v) for v in SIZE[0].split("x")])
    if "levels" in sys.argv[1:]:
        run_levels()
