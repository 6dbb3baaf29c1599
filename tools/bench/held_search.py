# Runs inside MicroPython: the unix port (tools/bench/held.py); CPython too, through host_sim.
"""The top level's search alone on each position of a file: its move and nodes.

Each position is judged alone (the table cleared first), with the search's
own depth and a node budget, no book. One line a position: `MOVES COLUMN
NODES` (a 1-based column). tools/bench/held.py runs it and judges the moves.

Usage: held_search.py POSITIONS-FILE NODES [firmware dir]
"""
import sys

if len(sys.argv) > 3:
    sys.path.insert(0, sys.argv[3])

from connect4.engine.board import Board  # noqa: E402
from connect4.engine.search import Searcher  # noqa: E402


def main():
    nodes = int(sys.argv[2])
    searcher = Searcher()
    with open(sys.argv[1]) as f:
        for line in f:
            moves = line.strip()
            if not moves or moves[0] == "#":
                continue
            searcher.new_game()
            r = searcher.search(Board(moves), nodes=nodes)
            print(moves, r.move + 1, r.nodes)


main()
