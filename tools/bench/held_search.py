# Runs inside MicroPython: the unix port (tools/bench/held.py); CPython too, through host_sim.
"""The top level's search alone on each position of a file: its move and nodes.

Each position is judged alone (the table cleared first), with the search's
own depth and a node budget, no book. One line a position: `MOVES COLUMN
NODES` (a 1-based column). tools/bench/held.py runs it and judges the moves;
tools/book/exits.py too, with a SEED: the engine's PRNG, fresh for each
position, breaks ties at the root as the board's player does (without one
the first of equal moves is taken).

With `replies` (tools/book/exits.py, one move after a game leaves the
book), the search's move is played, and for each reply of the opponent the
search runs again from the table and PRNG state the first search left, as
in the game; one line for each reply instead (the position after it).

Usage: held_search.py POSITIONS-FILE NODES [firmware dir] [SEED] [replies]
"""
import sys

if len(sys.argv) > 3:
    sys.path.insert(0, sys.argv[3])

from connect4.engine.board import Board  # noqa: E402
from connect4.engine.rng import Rng  # noqa: E402
from connect4.engine.search import Searcher  # noqa: E402


def replies(searcher, moves, col, rng, nodes):
    """The search after each reply to `col` at `moves`, each from the state the search left."""
    after = moves + str(col)
    board = Board(after)
    if board.is_over():
        return
    table = bytes(searcher.tt)
    last = bytes(searcher.last)
    hi, lo = rng.hi, rng.lo
    for reply in board.legal_moves():
        child = Board(after + str(reply + 1))
        if child.is_over():
            continue
        searcher.tt[:] = table
        searcher.last[:] = last
        rng.hi, rng.lo = hi, lo
        r = searcher.search(child, nodes=nodes, rng=rng)
        print(child.moves_string(), r.move + 1, r.nodes)


def main():
    nodes = int(sys.argv[2])
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else None
    then = len(sys.argv) > 5 and sys.argv[5] == "replies"
    searcher = Searcher()
    with open(sys.argv[1]) as f:
        for line in f:
            moves = line.strip()
            if not moves or moves[0] == "#":
                continue
            searcher.new_game()
            rng = None if seed is None else Rng(seed)
            r = searcher.search(Board(moves), nodes=nodes, rng=rng)
            if then:
                replies(searcher, moves, r.move + 1, rng, nodes)
            else:
                print(moves, r.move + 1, r.nodes)


main()
