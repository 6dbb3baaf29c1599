"""The chip's speed, counted: instructions per search node on the emulated ESP32-C3.

Boots `make image`'s image (the stock MicroPython .bin of --firmware with the
deployed files, plus the emulator's /boot.py: tools/chip/emulator.py) in the
emulated ESP32-C3 of `make chip-test`, stops main.py, soft-resets (a clean
MicroPython, as mpremote gives: nothing main.py left running) and runs
tools/bench/chipbench.py through the raw REPL as `make bench-device` runs it
on a board: `5000 levels us` (its nine positions, then every AI level on its
three LEVEL_POSITIONS with the level's depth and node caps), then each board
size on its seven SIZE_POSITIONS at SIZE_BUDGET nodes (the top level's 7x6
budget, so that a size's figure is what a node of its longest moves costs). The emulator counts
instructions (`-icount shift=3`: one guest instruction is 8 ns of emulated
time, whatever the host's load), so the board's own `ticks_us` counts them,
125 a microsecond: instructions per node = microseconds x 125 / nodes, the
whole search included (its start, the polls, the interrupts the chip takes
meanwhile). Runs agree to 0.01% (the timer interrupts fall a little
differently). Only the cycles an instruction are assumed (tools/common.py,
CHIP_CPI: 1.0-1.5 at 160 MHz).

The 7x6 figure (`instructions_per_node`, the one every chip time estimate
uses through tools.common.chip_nodes_per_second) is levels 6-8 together: their
instructions over their nodes, mostly level 8's. Each size's figure
(`instructions_per_node_COLSxROWS`) is its own run's.

Usage: python tools/chip/speed.py --firmware ESP32_GENERIC_C3-<date>-v1.28.0.bin [--qemu PATH] [--record]
Prints the figures; --record writes them to tools/data/chip.txt with the
engine's fingerprint, the image and the date (`make bench --only chip` does
both and writes docs/benchmarks.md's section).
"""
import argparse
import hashlib
import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import host_sim  # noqa: E402,F401  (the firmware on the path)
from connect4.engine import levels  # noqa: E402
from tools import common  # noqa: E402
from tools.chip import emulator  # noqa: E402

LEVELS = (6, 7, 8)  # the levels whose nodes make the 7x6 figure
SIZE_BUDGET = levels.nodes(levels.MAX_LEVEL)  # nodes a position on each size: the top level's on 7x6
BENCH_ARGS = ["5000", "levels", "us"]  # make bench-device's run, with exact microseconds
TRIES = 3  # boots, when the emulator stalls (its known fault: emulator.ChipStalled)
STALL_S = 120  # host seconds without a line that count as a stall (a line is seconds of chip time)
LEVEL_LINE = re.compile(r"^level (\d+) depth \d+ nodes \d+ ms \d+ max \d+ budget \d+ total (\d+) us (\d+)\s*$", re.M)
TOTAL_LINE = re.compile(r"^total nodes (\d+) ms \d+ nps \d+ us (\d+)\s*$", re.M)


def per_node(nodes, us):
    """Instructions per node, rounded: `us` emulated microseconds over `nodes` nodes."""
    return (us * emulator.INSTRUCTIONS_PER_US + nodes // 2) // nodes


def chipbench_code(argv):
    """What the raw REPL runs: chipbench.py with `argv`, as `mpremote run` would."""
    with open(common.path(common.CHIPBENCH)) as f:
        source = f.read()
    return "import sys\nsys.argv[:] = %r\n%s" % (["chipbench.py"] + list(argv), source)


def run_on(chip, sizes=(), say=print):
    """Measure on a chip at its raw REPL: {"bench": (nodes, us), "levels": {L: (nodes, us)},
    "sizes": {"CxR": (nodes, us)}}, nodes and microseconds of all the positions together."""
    out = chip.exec_raw(chipbench_code(BENCH_ARGS), timeout=3600, stall=STALL_S)
    found = {"levels": {}, "sizes": {}}
    for m in LEVEL_LINE.finditer(out):
        found["levels"][int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
    total = TOTAL_LINE.search(out)
    if total is None or set(LEVELS) - set(found["levels"]):
        raise emulator.ChipError("chipbench printed no exact figures:\n" + out)
    found["bench"] = (int(total.group(1)), int(total.group(2)))
    for size in sizes:
        cols, rows = size.split("x")
        out = chip.exec_raw("run(%d, size=(%s, %s))" % (SIZE_BUDGET, cols, rows), timeout=3600, stall=STALL_S)
        total = TOTAL_LINE.search(out)
        if total is None:
            raise emulator.ChipError("chipbench on %s printed no total:\n%s" % (size, out))
        found["sizes"][size] = (int(total.group(1)), int(total.group(2)))
        say("  %s: %d nodes, %d instructions a node" % (size, found["sizes"][size][0], per_node(*found["sizes"][size])))
    return found


def on_chip(firmware, qemu, work, extra=(), say=print, log=None, deployed=None, qemu_args=()):
    """Boot make image's image of `firmware` (a path; `extra`: more (board path, bytes) files;
    `deployed`: the deployed files if not make image's own) in the emulator (`qemu_args`: more
    of its options), without Wi-Fi, soft-reset it and return work(chip) at its raw REPL; a
    stall of the emulator boots it again, TRIES times at most."""
    from tools.board import image
    qemu = qemu or emulator.find_qemu()
    if qemu is None:
        raise SystemExit("error: no emulator: set QEMU or put it in build/emulator/ "
                         "(docs/developer.md#the-chip-in-the-loop)")
    with tempfile.TemporaryDirectory(prefix="chip-speed-") as tmp:
        flash = os.path.join(tmp, "flash.bin")
        with open(flash, "wb") as f:
            f.write(emulator.flash_image(image.read_firmware(firmware),
                                         image.deploy_files() if deployed is None else deployed, extra))
        for attempt in range(TRIES):
            with emulator.Chip(qemu, flash, wifi=False, log=log, qemu_args=qemu_args) as chip:
                try:
                    return work(chip.repl().soft_reset())
                except emulator.ChipStalled as e:
                    if attempt == TRIES - 1:
                        raise
                    say("the emulator stalled, booting again: %s" % str(e).splitlines()[0])


def measure(firmware, qemu=None, sizes=(), say=print, log=None):
    """Boot the image of `firmware` (a path) in the emulator and measure (run_on)."""
    return on_chip(firmware, qemu, lambda chip: run_on(chip, sizes, say), say=say, log=log)


def figures(found):
    """{record key: instructions per node} of a measurement."""
    nodes = sum(found["levels"][lv][0] for lv in LEVELS)
    us = sum(found["levels"][lv][1] for lv in LEVELS)
    out = {"instructions_per_node": per_node(nodes, us)}
    for lv in LEVELS:
        out["instructions_per_node_level%d" % lv] = per_node(*found["levels"][lv])
    for size, (n, u) in found["sizes"].items():
        out["instructions_per_node_" + size] = per_node(n, u)
    return out


def image_name(firmware):
    with open(firmware, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    return "%s (sha256 %s)" % (os.path.basename(firmware), digest[:16])


def record_text(found, firmware, date=None):
    """tools/data/chip.txt's text for a measurement (every size measured)."""
    fig = figures(found)
    lines = ["# Written by: python tools/chip/speed.py --firmware FIRMWARE --record (or make bench "
             "FIRMWARE=... BENCH_ARGS=\"--only chip\"): instructions per search node counted on the emulated chip",
             "instructions_per_node %d" % fig["instructions_per_node"],
             "engine %s" % common.engine_fingerprint()]
    lines += ["instructions_per_node_level%d %d" % (lv, fig["instructions_per_node_level%d" % lv]) for lv in LEVELS]
    lines += ["instructions_per_node_%s %d" % (s, fig["instructions_per_node_" + s]) for s in found["sizes"]]
    lines.append("source the emulated ESP32-C3 (QEMU, machine esp32c3-picsimlab, -icount shift=3: every "
                 "instruction counted) running the stock %s with make image's files: chipbench levels %d-%d "
                 "on its %d positions (7x6: their nodes together), each size at %d nodes on its %d positions, %s"
                 % (image_name(firmware), LEVELS[0], LEVELS[-1], 3, SIZE_BUDGET, 7,
                    date or time.strftime("%Y-%m-%d")))
    return "\n".join(lines) + "\n"


def report(found, say=print):
    """The figures as text lines (also make bench's section)."""
    slow, fast = common.CHIP_IPS_RANGE
    for lv in LEVELS:
        n, u = found["levels"][lv]
        say("level %d: %d nodes on 3 positions, %d instructions a node" % (lv, n, per_node(n, u)))
    fig = figures(found)["instructions_per_node"]
    say("levels %d-%d: %d instructions a node: %d-%d nodes/s at %d-%d M instructions/s" % (
        LEVELS[0], LEVELS[-1], fig, slow // fig, fast // fig, slow // 10 ** 6 + 1, fast // 10 ** 6))
    n, u = found["bench"]
    say("make bench-device's run (9 positions at 5000 nodes): %d nodes, %d instructions a node" % (n, per_node(n, u)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--firmware", default=emulator.find_firmware(),
                        help="the stock ESP32_GENERIC_C3 .bin (default: $FIRMWARE)")
    parser.add_argument("--qemu", help="the emulator (default: $QEMU, else build/emulator/qemu-system-riscv32)")
    parser.add_argument("--record", action="store_true", help="write the figures to tools/data/chip.txt")
    args = parser.parse_args(argv)
    if not args.firmware or not os.path.isfile(args.firmware):
        parser.error("--firmware (or FIRMWARE=): the stock ESP32_GENERIC_C3-<date>-v1.28.0.bin")
    found = measure(args.firmware, args.qemu, sizes=common.board_sizes())
    report(found)
    if args.record:
        with open(common.CHIP_FILE, "w") as f:
            f.write(record_text(found, args.firmware))
        print("written to %s" % os.path.relpath(common.CHIP_FILE, common.ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
