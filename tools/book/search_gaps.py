"""Where the top level's own search loses the game's value along the book's lines.

Why: the book (tools/book/build.py) stores the board's move at every
position of its first-player tree, so the board never relies on its search
there; this measures how much of that the search alone would get right, ply
by ply: a sample of the book's positions (build/book/entries.txt, written by
`make book`), searched at the top level without the book (the table cleared
before each search, as the engine does today), each move judged by bitbully.

Usage: python tools/book/search_gaps.py [--per-ply N]
"""
import argparse
import multiprocessing
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import host_sim  # noqa: E402,F401
from connect4.engine.board import Board  # noqa: E402
from connect4.engine.player import AIPlayer  # noqa: E402
from tools.book.build import ENTRIES  # noqa: E402
from tools.common import TOP_LEVEL  # noqa: E402


def judge(moves):
    from tools.bench import perfect
    result = AIPlayer(level=TOP_LEVEL, seed=1, blunder=0).choose(Board(moves))
    scores = perfect.shared().analyze(moves)
    best = max(s for s in scores if s is not None)
    return len(moves), (scores[result.move] > 0) == (best > 0), scores[result.move] == best


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--per-ply", type=int, default=20, help="positions sampled per ply (default 20)")
    args = p.parse_args(argv)
    by_ply = {}
    with open(ENTRIES) as f:
        for line in f:
            moves, _, side = line.split()
            if side == "first":
                by_ply.setdefault(len(moves.strip("-")), []).append(moves.strip("-"))
    sample = []
    for ply in sorted(by_ply):
        rows = by_ply[ply]
        step = max(1, len(rows) // args.per_ply)
        sample += rows[::step][:args.per_ply]
    with multiprocessing.Pool(2) as pool:
        rows = pool.map(judge, sample, chunksize=4)
    print("| discs | positions | search keeps the win | plays a best move |")
    print("|---:|---:|---:|---:|")
    for ply in sorted(by_ply):
        mine = [r for r in rows if r[0] == ply]
        if mine:
            print("| %d | %d | %.0f%% | %.0f%% |" % (ply, len(mine), 100.0 * sum(r[1] for r in mine) / len(mine),
                                                 100.0 * sum(r[2] for r in mine) / len(mine)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
