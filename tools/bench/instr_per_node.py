"""Instructions per search node of the native (viper) engine, by callgrind.

The chip's time per move is estimated as nodes x instructions per node /
tools.common.CHIP_IPS (100 M instructions per second). Instructions per node are counted, not timed:
valgrind's callgrind runs tools/bench/chipbench.py on a MicroPython unix-port binary
that you built yourself from MicroPython's source (its docs explain how; a
32-bit build with MICROPY_FORCE_32BIT=1 has the chip's 31-bit small ints and
native emitter semantics). Two budgets are run and the difference taken, so
start-up and imports cancel out.

Usage: python tools/bench/instr_per_node.py /path/to/micropython [--sizes] [--record]
Prints `instructions per node N`; --record writes it, with the engine's
fingerprint, to tools/data/chip.txt, which `make bench` reads. --sizes also
measures every board size (chipbench's SIZE_POSITIONS on that size) and
records each as `instructions_per_node_COLSxROWS N` (`make bench --only sizes`).
"""
import argparse
import hashlib
import os
import time
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tools import common  # noqa: E402
from tools.common import CHIP_FILE, ROOT, chip_record  # noqa: E402

ENGINE_FILES = ("board.py", "core.py", "search.py")


def engine_fingerprint():
    """A hash of the engine sources the figure depends on, to spot a stale record."""
    digest = hashlib.sha1()
    for name in ENGINE_FILES:
        with open(os.path.join(ROOT, "firmware", "connect4", "engine", name), "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()[:12]


def version(binary):
    out = subprocess.run([binary, "-c", "import sys; print(sys.version)"],
                         capture_output=True, text=True, check=True).stdout
    return out.strip().split("; ")[-1]


def count(binary, budget, size=None):
    """(total instructions, nodes) of one chipbench run under callgrind (on a size "COLSxROWS")."""
    with tempfile.TemporaryDirectory() as tmp:
        result = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + os.path.join(tmp, "cg.out"),
             binary, common.path(common.CHIPBENCH), str(budget),
             os.path.join(ROOT, "firmware")] + ([size] if size else []),
            capture_output=True, text=True, check=True)
    instructions = int(re.search(r"Collected : (\d+)", result.stderr).group(1))
    nodes = int(re.search(r"total nodes (\d+)", result.stdout).group(1))
    return instructions, nodes


def measure(binary, low=3000, high=12000, size=None):
    i1, n1 = count(binary, low, size)
    i2, n2 = count(binary, high, size)
    return (i2 - i1) // (n2 - n1)


def all_sizes():
    """Every supported size as "COLSxROWS", 4x4 to 8x7."""
    return ["%dx%d" % (c, r) for r in range(4, 8) for c in range(4, 9)]


def recorded(key="instructions_per_node"):
    """The figure `key` of tools/data/chip.txt, or None."""
    value = chip_record().get(key) if os.path.exists(CHIP_FILE) else None
    return int(value) if value and value.isdigit() else None
    with open(CHIP_FILE) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2 and parts[0] == key:
                return int(parts[1])
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("micropython", help="a MicroPython unix-port binary with the native emitter")
    parser.add_argument("--low", type=int, default=3000, help="node budget per position, first run")
    parser.add_argument("--high", type=int, default=12000, help="node budget per position, second run")
    parser.add_argument("--sizes", action="store_true", help="also measure every board size")
    parser.add_argument("--record", action="store_true", help="write the figure to tools/data/chip.txt")
    args = parser.parse_args(argv)
    ipn = measure(args.micropython, args.low, args.high)
    print("instructions per node %d (%s, budgets %d/%d)" % (ipn, args.micropython, args.low, args.high))
    by_size = []
    for size in all_sizes() if args.sizes else ():
        by_size.append((size, measure(args.micropython, args.low, args.high, size)))
        print("instructions per node %d on %s" % (by_size[-1][1], size))
    if args.record:
        with open(CHIP_FILE, "w") as f:
            f.write("# Written by: python tools/bench/instr_per_node.py BINARY --record\n")
            f.write("instructions_per_node %d\n" % ipn)
            f.write("engine %s\n" % engine_fingerprint())
            for size, figure in by_size:
                f.write("instructions_per_node_%s %d\n" % (size, figure))
            f.write("source callgrind on %s (unix port), chipbench budgets %d/%d, %s\n" % (
                version(args.micropython), args.low, args.high, time.strftime("%Y-%m-%d")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
