"""Does the top level's search keep a value it holds, where the book ends?

Why: past its book the board (level 8) plays by its search, and a person
who errs hands it a won or drawn position there; the search must keep it
(issue 19). tools/data/positions_held.txt holds 3,037 such positions from
the people bench's games. Each is searched alone at level 8's budget (no
book, the table cleared) by tools/bench/held_search.py, in a MicroPython
unix port (fast, the board's viper code) or in CPython (slow: host_sim's
plain-Python path), and the move judged by bitbully: kept when it keeps the
position's class (win or draw). --firmware DIR measures another firmware
tree (a git worktree of another commit), so two designs compare on the same
positions; docs/ai.md#the-proof gives the figures.

Usage: python tools/bench/held.py [--micropython PATH] [--firmware DIR] [--nodes N] [--limit N]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tools import common  # noqa: E402
from tools.common import DATA, ROOT, TOP_LEVEL, sign  # noqa: E402

POSITIONS = os.path.join(DATA, "positions_held.txt")
SCRIPT = common.path(common.HELD_SEARCH)


def search(positions, nodes, firmware, micropython=None):
    """{moves: (1-based column, nodes)} of the search alone on `positions` (a file)."""
    out = common.run_script([SCRIPT, positions, str(nodes), firmware], micropython)
    found = {}
    for line in out.splitlines():
        moves, col, n = line.split()
        found[moves] = (int(col), int(n))
    return found


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--micropython", help="a MicroPython unix port to search in (fast)")
    p.add_argument("--firmware", default=os.path.join(ROOT, "firmware"), help="the firmware tree to measure")
    p.add_argument("--nodes", type=int, help="the node budget (default: the top level's)")
    p.add_argument("--limit", type=int, help="only the first N positions")
    args = p.parse_args(argv)
    import host_sim  # noqa: F401
    from connect4.engine import levels
    from tools.bench.perfect import shared
    nodes = args.nodes or levels.nodes(TOP_LEVEL)
    positions = POSITIONS
    if args.limit:
        positions = os.path.join(ROOT, "build", "held-positions.txt")
        os.makedirs(os.path.dirname(positions), exist_ok=True)
        with open(POSITIONS) as f, open(positions, "w") as out:
            out.writelines([line for line in f if not line.startswith("#")][:args.limit])
    found = search(positions, nodes, os.path.abspath(args.firmware), args.micropython)
    judge = shared()
    tally = {1: [0, 0, 0], 0: [0, 0, 0]}  # class held -> [positions, kept, nodes]
    for moves, (col, n) in found.items():
        scores = judge.analyze(moves)
        held = sign(max(s for s in scores if s is not None))  # as tools/bench/people.py judges
        if held < 0:
            continue  # not a held position (the file holds none)
        row = tally[held]
        row[0] += 1
        row[1] += sign(scores[col - 1]) == held
        row[2] += n
    print("top level's search alone, %d nodes, %s, firmware %s" % (
        nodes, "MicroPython unix port" if args.micropython else "CPython", os.path.relpath(args.firmware, ROOT)))
    for held, name in ((1, "won"), (0, "drawn")):
        count, kept, n = tally[held]
        if count:
            print("  %-5s positions %5d  kept %5d (%.2f%%)  mean nodes %d" % (
                name, count, kept, 100.0 * kept / count, n // count))
    count = tally[1][0] + tally[0][0]
    print("  all   positions %5d  kept %5d (%.2f%%)" % (count, tally[1][1] + tally[0][1],
                                                       100.0 * (tally[1][1] + tally[0][1]) / max(1, count)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
