# Runs inside MicroPython: the unix port (tools/book/exits.py); CPython too, through host_sim.
"""The top level's search one move after a game leaves the first-player book.

For each position of the file (an exit: the board's table empty, every
earlier move of its game the book's), the search runs as the board runs it
there: a fresh table, a fresh PRNG of SEED, the level's budget. Its move is
played, and for each reply of the defender the search runs again from the
table and PRNG state that first search left, as in the game. One line for
each reply: `MOVES COLUMN` (the position after the reply, a 1-based column).

Usage: exit_replies.py POSITIONS-FILE NODES FIRMWARE-DIR SEED
"""
import sys

sys.path.insert(0, sys.argv[3])

from connect4.engine.board import Board  # noqa: E402
from connect4.engine.rng import Rng  # noqa: E402
from connect4.engine.search import Searcher  # noqa: E402


def main():
    nodes = int(sys.argv[2])
    seed = int(sys.argv[4])
    searcher = Searcher()
    table = bytearray(len(searcher.tt))
    last = bytearray(len(searcher.last))
    with open(sys.argv[1]) as f:
        for line in f:
            moves = line.strip()
            if not moves or moves[0] == "#":
                continue
            searcher.new_game()
            rng = Rng(seed)
            after = moves + str(searcher.search(Board(moves), nodes=nodes, rng=rng).move + 1)
            board = Board(after)
            if board.is_over():
                continue
            table[:] = searcher.tt
            last[:] = searcher.last
            hi, lo = rng.hi, rng.lo
            for reply in board.legal_moves():
                child = Board(after + str(reply + 1))
                if child.is_over():
                    continue
                searcher.tt[:] = table
                searcher.last[:] = last
                rng.hi, rng.lo = hi, lo
                print(child.moves_string(), searcher.search(child, nodes=nodes, rng=rng).move + 1)


main()
