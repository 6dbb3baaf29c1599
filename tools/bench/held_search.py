# Runs inside MicroPython: the unix port (tools/bench/held.py); CPython too, through host_sim.
"""The top level's search alone on each position of a file: its move and nodes.

Each position is judged alone (the table cleared first), with the search's
own depth and a node budget, no book. One line a position: `MOVES COLUMN
NODES` (a 1-based column). tools/bench/held.py runs it and judges the moves;
tools/book/exits.py too, with a SEED: the engine's PRNG, fresh for each
position, breaks ties at the root as the board's player does (without one
the first of equal moves is taken).

Usage: held_search.py POSITIONS-FILE NODES [firmware dir] [SEED]
"""
import sys

if len(sys.argv) > 3:
    sys.path.insert(0, sys.argv[3])

from connect4.engine.board import Board  # noqa: E402
from connect4.engine.rng import Rng  # noqa: E402
from connect4.engine.search import Searcher  # noqa: E402


def main():
    nodes = int(sys.argv[2])
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else None
    searcher = Searcher()
    with open(sys.argv[1]) as f:
        for line in f:
            moves = line.strip()
            if not moves or moves[0] == "#":
                continue
            searcher.new_game()
            rng = None if seed is None else Rng(seed)
            r = searcher.search(Board(moves), nodes=nodes, rng=rng)
            print(moves, r.move + 1, r.nodes)


main()
