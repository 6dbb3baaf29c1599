"""Instructions per search node of the native (viper) engine, by callgrind: a cross-check.

The chip's own figures are counted on the chip, in the emulator
(tools/chip/speed.py, recorded in tools/data/chip.txt, which every chip time
estimate uses). This one needs no emulator and no firmware image: valgrind's
callgrind counts instructions of tools/bench/chipbench.py on a MicroPython
unix-port binary that you built yourself from MicroPython's source (its docs
explain how; a 32-bit build with MICROPY_FORCE_32BIT=1 has the chip's 31-bit
small ints and native emitter semantics), x86 instructions rather than the
chip's RISC-V ones. Two budgets are run and the difference taken, so start-up
and imports cancel out. `make bench --micropython BINARY` prints it beside the
record.

Usage: python tools/bench/instr_per_node.py /path/to/micropython [--sizes]
Prints `instructions per node N`; --sizes also measures every board size
(chipbench's SIZE_POSITIONS on that size).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tools import common  # noqa: E402
from tools.common import ROOT  # noqa: E402


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


def word_bits(binary):
    """32 or 64: the unix port's word size, from its ELF header (None: not an ELF file)."""
    with open(binary, "rb") as f:
        head = f.read(5)
    if head[:4] != b"\x7fELF":
        return None
    return {1: 32, 2: 64}.get(head[4])


def port_words(binary):
    """How a page names the binary: "the 32-bit unix port" (never its path, which is the
    measurer's own)."""
    bits = word_bits(binary)
    return "the %s unix port" % ("%d-bit" % bits if bits else "MicroPython")


def measure(binary, low=3000, high=12000, size=None):
    i1, n1 = count(binary, low, size)
    i2, n2 = count(binary, high, size)
    return (i2 - i1) // (n2 - n1)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("micropython", help="a MicroPython unix-port binary with the native emitter")
    parser.add_argument("--low", type=int, default=3000, help="node budget per position, first run")
    parser.add_argument("--high", type=int, default=12000, help="node budget per position, second run")
    parser.add_argument("--sizes", action="store_true", help="also measure every board size")
    args = parser.parse_args(argv)
    ipn = measure(args.micropython, args.low, args.high)
    print("instructions per node %d (%s, budgets %d/%d)" % (ipn, args.micropython, args.low, args.high))
    for size in common.board_sizes() if args.sizes else ():
        print("instructions per node %d on %s" % (measure(args.micropython, args.low, args.high, size), size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
