"""Instructions per book lookup (engine/book.py), by callgrind on a MicroPython unix port.

Why counted, not timed: as tools/bench/instr_per_node.py does for search
nodes, valgrind's callgrind counts the instructions of a MicroPython
unix-port binary (32-bit build: the chip's small ints) running the
firmware's own book.py on firmware/book.bin. Two runs, with few and with
many lookups of the same positions, are subtracted so that start-up,
imports and opening the file cancel out. The unix port reads the file
through the OS (the kernel's work is not counted); on the chip LittleFS
walks its block list instead: see docs/benchmarks.md for that estimate.

Usage: python tools/book/lookup_cost.py /path/to/micropython [--record]
Prints `instructions per lookup N`; --record writes it to tools/data/book.txt,
which `make bench --only perfect` reads.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tools.common import DATA, ROOT  # noqa: E402

BOOK_FILE = os.path.join(DATA, "book.txt")
# Positions where the top level looks the book up in two real games.
POSITIONS = (  # the first player's turns of a game against the perfect player (seed 5)
    "", "4444", "44444732", "444447322224", "4444473222245665", "44444732222456655663",
    "444447322224566556633552", "4444473222245665566335526633",
    "44444732222456655663355266333251", "444447322224566556633552663332511177",
    # the second player's turns against the erring one (seed 7): the last three miss
    "4", "444", "44447", "4444741", "444474146", "44447414656", "4444741465661",
    "444474146566155")


SCRIPT = """
import sys
sys.path.insert(0, %(firmware)r)
from connect4.engine.board import Board
from connect4.engine import book
bk = book.open_book(%(book)r)
boards = [Board(m) for m in %(positions)r]
for _ in range(%(rounds)d):
    for b in boards:
        bk.move(b)
"""


def count(binary, rounds, book_path):
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "lookups.py")
        with open(script, "w") as f:
            f.write(SCRIPT % {"firmware": os.path.join(ROOT, "firmware"), "book": book_path,
                              "positions": POSITIONS, "rounds": rounds})
        result = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + os.path.join(tmp, "cg.out"),
             binary, script], capture_output=True, text=True, check=True)
    return int(re.search(r"Collected : (\d+)", result.stderr).group(1))


def measure(binary, book_path, low=2, high=12):
    return (count(binary, high, book_path) - count(binary, low, book_path)) // (
        (high - low) * len(POSITIONS))


def recorded():
    """(instructions per lookup, provenance) from tools/data/book.txt, or (None, None)."""
    if not os.path.exists(BOOK_FILE):
        return None, None
    values = {}
    with open(BOOK_FILE) as f:
        for line in f:
            if not line.startswith("#") and " " in line:
                key, value = line.rstrip("\n").split(" ", 1)
                values[key] = value
    return int(values["instructions_per_lookup"]), values.get("source", "")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("micropython", help="a MicroPython unix-port binary")
    parser.add_argument("--book", default=os.path.join(ROOT, "firmware", "book.bin"))
    parser.add_argument("--record", action="store_true", help="write the figure to tools/data/book.txt")
    args = parser.parse_args(argv)
    ipl = measure(args.micropython, args.book)
    print("instructions per lookup %d (%s, %d positions)" % (ipl, args.micropython, len(POSITIONS)))
    if args.record:
        version = subprocess.run([args.micropython, "-c", "import sys; print(sys.version)"],
                                 capture_output=True, text=True, check=True).stdout.strip()
        with open(BOOK_FILE, "w") as f:
            f.write("# Written by: python tools/book/lookup_cost.py BINARY --record\n")
            f.write("instructions_per_lookup %d\n" % ipl)
            f.write("source callgrind on %s (unix port), %s\n" % (
                version.split("; ")[-1], time.strftime("%Y-%m-%d")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
