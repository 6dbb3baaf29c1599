"""Corrections beyond the book: where the board's own search gave a value away in games, add the solver's move.

Why: the book's trees (tools/book/build.py) end somewhere, and past them the
top level's search keeps a won game in only 50-90% of positions. This plays
the board (the top level with the current book, as on the board) against the
population of `make bench --only people` (tools/bench/people.py: the perfect
player erring at 2-50%, levels 1-8, the tutorial and threat-aware AIs, the
random mover), with seeds of its own (ROUND_BASE: never the bench's), and
judges every move of the board by bitbully. Each position where a move of
the board lowered the value it held is added to tools/data/book_corrections.txt,
the book is rebuilt with it (build.py: the fastest win, or a best move), and
the next round plays fresh seeds with the new book, until a round finds no
drop or --rounds are done.

Deterministic and resumable: a round's games are cached (build/book/games/,
by the book's fingerprint), and the corrections file records the rounds
done (`# round N ...` lines), so a rerun goes on from the next round.
`make book` itself only reads the corrections file: it never plays games.

A round may play only some of the opponents (--opponents) and the board as
second player only (--second): where the drops are, as the bench's table
shows, a round of the same length finds more of them.

Usage: python tools/book/correct.py [--rounds N] [--games N] [--jobs N]
                                    [--opponents A,B] [--second]
                                    [--micropython PATH] [build.py options]
"""
import argparse
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tools.bench import people  # noqa: E402
from tools.book import build  # noqa: E402
from tools.common import ROOT  # noqa: E402

GAMES = os.path.join(ROOT, "build", "book", "games")
ROUND_BASE = 20_000_000  # round r plays seeds ROUND_BASE + 1,000,000 x r + ... (people.seed_of)
ROUND_LINE = re.compile(r"# round (\d+):")


def read(path):
    """(positions, rounds done) of a corrections file."""
    positions, rounds = set(), 0
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                m = ROUND_LINE.match(line)
                if m:
                    rounds = max(rounds, int(m.group(1)))
                elif line.strip() and not line.startswith("#"):
                    moves = line.split()[0]
                    positions.add("" if moves == "-" else moves)  # "-": the empty board
    return positions, rounds


def write(path, positions, notes):
    """The corrections file, atomically: its notes, then the positions sorted."""
    build.write_positions(path, positions, notes, (
        "Positions where the top level's search gave a value away in games",
        "(tools/book/correct.py); tools/book/build.py adds the solver's move."))


def drops(by):
    """{moves: count} of the positions where the board's move lowered its value."""
    found = {}
    for rows in by.values():
        for g in rows:
            for ply in g["drops"]:
                found[g["moves"][:ply]] = found.get(g["moves"][:ply], 0) + 1
    return found


def played(opponents, sides):
    """What a round's note says of its games beyond their number ("" for all of them)."""
    out = ""
    if opponents != people.OPPONENTS:
        out += " against " + ",".join(opponents)
    if sides == (False,):
        out += " as second player"
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3, help="rounds to play at most (default 3)")
    p.add_argument("--games", type=int, default=50, help="games a side per opponent a round (default 50)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes for the games and the "
                   "solver (default 1)")
    p.add_argument("--micropython", help="a MicroPython unix port to run the engines in (faster)")
    p.add_argument("--opponents", help="comma-separated, of: " + ",".join(people.OPPONENTS) +
                   " (default: all)")
    p.add_argument("--second", action="store_true", help="the board as second player only")
    p.add_argument("--extra", default=build.EXTRA, help="the corrections file")
    args, rest = p.parse_known_args(argv)
    opponents = people.opponents_of(args.opponents, p)
    sides = (False,) if args.second else (True, False)
    started = time.time()

    def say(text):
        print("%6.0f s  %s" % (time.time() - started, text), flush=True)

    positions, done = read(args.extra)
    notes = []
    if os.path.exists(args.extra):
        with open(args.extra) as f:
            notes = [line.rstrip("\n") for line in f if ROUND_LINE.match(line)]
    out = build.OUT
    for i, a in enumerate(rest):
        if a == "--out" and i + 1 < len(rest):
            out = rest[i + 1]
    for r in range(done + 1, done + 1 + args.rounds):
        say("round %d: building the book" % r)
        build.main(rest + ["--extra", args.extra, "--jobs", str(args.jobs)])
        by = people.run(args.games, opponents, jobs=args.jobs, micropython=args.micropython, book=out,
                        say=say, cache=GAMES, base=ROUND_BASE + 1_000_000 * r, sides=sides)
        found = drops(by)
        new = set(found) - positions
        games = sum(len(rows) for rows in by.values())
        note = "# round %d: %d games%s, %d drops at %d positions, %d new" % (
            r, games, played(opponents, sides), sum(found.values()), len(found), len(new))
        say(note[2:])
        positions |= new
        notes.append(note)
        write(args.extra, positions, notes)
        if not found:
            break
    say("rebuilding the book with %d corrections" % len(positions))
    return build.main(rest + ["--extra", args.extra, "--jobs", str(args.jobs)])


if __name__ == "__main__":
    sys.exit(main())
