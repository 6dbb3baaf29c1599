"""Where a search's instructions go on the chip: negamax's phases, counted by the emulator.

    python tools/chip/phases.py --firmware ESP32_GENERIC_C3-<date>-v1.28.0.bin [--qemu PATH]
                                [--core FILE | --commit REV]

Counts levels 6-8 on chipbench's three positions (the work of tools/chip/speed.py's figure)
on the emulated ESP32-C3, phase by phase. A copy of firmware/connect4/engine/core.py (or
FILE, or that file at git revision REV: the engine of then) gets a marker before the
first line of each phase of negamax (PHASES: `p[_KEYS + 7] = K`, a byte store the search
never reads), compiled as make deploy compiles it, and deployed in its place. The emulator
logs every block of instructions it runs inside negamax's machine code (`-d
exec,nochain,in_asm` over that range: the blocks' instructions when translated, then each
run), so every instruction of negamax is counted exactly; a phase is the code from its
marker to the next in the machine code (the compiler emits negamax in source order). The
markers' own instructions are left out. What the board's ticks_us counts beyond negamax
is "outside negamax": the root in Python, the table's clearing, the poll hook, interrupts.
Prints a table of instructions a node; docs/ai.md shows it.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import host_sim  # noqa: E402,F401  (the firmware on the path)
from tools import common  # noqa: E402
from tools.board import device, image  # noqa: E402
from tools.bench.chipbench import LEVEL_POSITIONS  # noqa: E402
from tools.chip import emulator, speed  # noqa: E402
from tools.mpvm import mpyinfo  # noqa: E402

CORE = "firmware/connect4/engine/core.py"
BOARD_CORE = "/connect4/engine/core.mpy"
MARK = 200  # marker k stores MARK + k
# (phase, what it does, the first line of the phase: one of these, in negamax's order)
PHASES = (
    ("dispatch", "the loop's state machine: which step comes next", ("if step == _ENTER:",)),
    ("count", "a node counted, its budget and the poll period checked", ("count += 1", "count = p[_NODES]")),
    ("player", "an abort, the disc count, the side to move", ("r = 0",)),
    ("scan", "the playable cells scanned: wins, threats, legal moves", ("s = 0  # the wins",)),
    ("quick", "results known at once, the bounds the empty cells imply", ("if s:",)),
    ("horizon", "the leaves' evaluation (the horizon)", ("r = (p[_SCORE] | (p[_SCORE + 1] << 8)) - _SCORE_BIAS",)),
    ("probe", "the table probed", ("ti = _TABLE + (h & (p[_TTMASK] | (p[_TTMASK + 1] << 8))) * _BUCKET",)),
    ("order", "the moves ordered", ("rec = _PLY_RECORDS + ((n - p[_ROOTN]) << _PLY_SHIFT)",)),
    ("setup", "the node's search set up", ("p[rec + _P_COUNT] = cnt",)),
    ("dispatch", "", ("if step == _NEXT:",)),
    ("store", "the result stored in the table", ("flag = _EXACT",)),
    ("make", "a move made: its disc, windows, threat holes, score", ("c = p[rec + _P_MOVES + i]",)),
    ("descend", "the node's ply record, the child's window and hash", ("p[rec + _P_STATE] = best_move",)),
    ("dispatch", "", ("if step == _RETURN:",)),
    ("return", "back in the parent: its locals from its ply record", ("if int(p[_N]) == first:",)),
    ("rehash", "a null window's re-search, the hash back", ("if depth > 1:  # back to this node's hash",)),
    ("dispatch", "", ("if step == _SCORED:",)),
    ("unmake", "the move taken back", ("# remove(arena, x), inlined",)),
    ("fold", "the child's score folded in: best, cut-off", ("if sc > best:",)),
)
LEVELS = speed.LEVELS
IN_LINE = re.compile(rb"^0x([0-9a-f]+):\s+[0-9a-f]+\s+(\S+)\s*(\S*)")


def marked(text):
    """`text` (core.py) with PHASES' markers; a phase whose line is missing is an error."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("def negamax"))
    out = lines[:start]
    k = 0
    for line in lines[start:]:
        if k < len(PHASES) and line.strip().startswith(PHASES[k][2]):
            out.append("%sp[_KEYS + 7] = %d" % (line[:len(line) - len(line.lstrip())], MARK + k))
            k += 1
        out.append(line)
    if k < len(PHASES):
        raise SystemExit("error: negamax has no line %r (phase %s)" % (PHASES[k][2], PHASES[k][0]))
    return "\n".join(out)


def compiled(text):
    """(the .mpy of core.py's `text`, as make deploy compiles it, its machine code's bytes)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "core.py")
        out = os.path.join(tmp, "core.mpy")
        with open(src, "w") as f:
            f.write(text)
        subprocess.run([device.tool("mpy-cross")] + device.MPY_FLAGS + ["-s", "connect4/engine/core.py",
                                                                         "-o", out, src], check=True)
        with open(out, "rb") as f:
            data = f.read()
    return data, mpyinfo.sizes(data)["native"]


WHERE = ("import machine\nfrom connect4.engine import core\n"
         "print('negamax', machine.mem32[id(core.negamax) + 12])\n")  # mp_obj_fun_bc_t's code pointer
WORK = """from time import ticks_us, ticks_diff
from connect4.engine.board import Board
from connect4.engine.search import Searcher
from connect4.engine import levels
s = Searcher()
us = 0
nodes = 0
for lv in %r:
    for mv in %r:
        b = Board(mv)
        s.new_game()
        t = ticks_us()
        r = s.search(b, depth=levels.depth(lv), nodes=levels.nodes(lv))
        us += ticks_diff(ticks_us(), t)
        nodes += r.nodes
        print('position', lv, mv, r.nodes)  # a line a search: the UART is not silent for long
print('searched', nodes, us)
""" % (LEVELS, LEVEL_POSITIONS)


class Counter:
    """Reads the emulator's log: each block's instructions as translated (`IN:`), then a
    `Trace` line each time it runs (keyed by its translation's host address). The log is
    a pipe: each boot of the emulator opens it anew, and its counts start again."""

    def __init__(self, path):
        self.path = path
        self.blocks = []  # [(addresses, texts)]
        self.runs = []  # runs of each block
        self.ended = threading.Event()  # the emulator closed the log
        threading.Thread(target=self._boots, daemon=True).start()

    def _boots(self):
        while True:
            self._read()
            self.ended.set()

    def _read(self):
        current = {}  # host address -> block
        pending = None  # a block translated, not yet run
        block = None
        with open(self.path, "rb", buffering=1 << 20) as f:  # waits for the emulator
            self.ended.clear()
            self.blocks = []
            self.runs = []
            for line in f:
                if line.startswith(b"Trace"):
                    host = line.split(b" ", 3)[2]
                    if pending is not None:
                        current[host] = pending
                        pending = None
                    b = current.get(host)
                    if b is not None:
                        self.runs[b] += 1
                elif line.startswith(b"IN:"):
                    block = ([], [])
                elif block is not None:
                    m = IN_LINE.match(line)
                    if m:
                        block[0].append(int(m.group(1), 16))
                        block[1].append((m.group(2) + b" " + m.group(3)).decode())
                    elif not line.strip():
                        self.blocks.append(block)
                        self.runs.append(0)
                        pending = len(self.blocks) - 1
                        block = None

    def counts(self):
        """{address: (runs, instruction)} once the log has ended."""
        self.ended.wait()
        out = {}
        for (addresses, texts), runs in zip(self.blocks, self.runs):
            for a, t in zip(addresses, texts):
                n, _ = out.get(a, (0, t))
                out[a] = (n + runs, t)
        return out


def markers(counts):
    """[(address, k, [addresses of the marker's instructions])]: `li r, MARK + k` and the
    `sb r, ...` that follows it within three instructions, in address order."""
    addresses = sorted(counts)
    found = []
    for i, a in enumerate(addresses):
        m = re.match(r"addi (\w+),zero,(\d+)$", counts[a][1])
        if m and MARK <= int(m.group(2)) < MARK + len(PHASES):
            for j in range(i + 1, min(i + 4, len(addresses))):
                if re.match(r"sb %s," % m.group(1), counts[addresses[j]][1]):
                    found.append((a, int(m.group(2)) - MARK, addresses[i:j + 1]))
                    break
    return found


def phases(counts, nodes, total):
    """[(phase, what, instructions a node)], negamax's and the rest's, from the counts."""
    marks = markers(counts)
    if [k for _, k, _ in marks] != list(range(len(PHASES))):
        raise emulator.ChipError("the markers are not all there in source order: %s" % marks)
    skip = {a for _, _, own in marks for a in own}
    per = {}
    name = "entry"
    following = 0  # the next marker
    for a in sorted(counts):
        while following < len(marks) and a >= marks[following][0]:
            name = PHASES[following][0]
            following += 1
        if a not in skip:
            per[name] = per.get(name, 0) + counts[a][0]
    marks_cost = sum(counts[a][0] for a in skip)
    negamax = sum(per.values())
    rows = []
    for phase, what, _ in PHASES:
        if phase not in [r[0] for r in rows]:
            rows.append((phase, what or "", per.get(phase, 0) / nodes))
    rows.append(("entry", "negamax's own start and end", per.get("entry", 0) / nodes))
    rows.append(("negamax", "all of negamax", negamax / nodes))
    rows.append(("outside", "outside negamax: the root (Python), the table's clearing, the poll hook, "
                            "interrupts", (total - negamax - marks_cost) / nodes))
    rows.append(("all", "the search, as tools/chip/speed.py counts it (the markers left out)",
                 (total - marks_cost) / nodes))
    return rows


def measure(text, firmware, qemu=None, say=print):
    """Count `text` (a core.py) in the emulator: (rows, nodes)."""
    data, native = compiled(marked(text))
    deployed = [(path, data if path == BOARD_CORE else content) for path, content in image.deploy_files()]
    if BOARD_CORE not in [path for path, _ in deployed]:
        raise SystemExit("error: make deploy has no %s" % BOARD_CORE)
    out = speed.on_chip(firmware, qemu, lambda chip: chip.exec_raw(WHERE), deployed=deployed, say=say)
    start = int(out.split()[-1])
    with tempfile.TemporaryDirectory(prefix="chip-phases-") as tmp:
        log = os.path.join(tmp, "exec.log")
        os.mkfifo(log)
        args = ["-d", "exec,nochain,in_asm", "-dfilter", "0x%x+0x%x" % (start, native), "-D", log]
        counter = Counter(log)  # its reader waits for the emulator, which opens the log at start
        out = speed.on_chip(firmware, qemu, lambda chip: chip.exec_raw(WORK, timeout=3600, stall=speed.STALL_S),
                            deployed=deployed, say=say, qemu_args=args)
        counts = counter.counts()
    m = re.search(r"^searched (\d+) (\d+)", out, re.M)
    nodes, us = int(m.group(1)), int(m.group(2))
    return phases(counts, nodes, us * emulator.INSTRUCTIONS_PER_US), nodes


def report(rows, nodes, say=print):
    say("| phase of negamax | instructions a node | share |")
    say("|---|---:|---:|")
    whole = rows[-1][2]
    for phase, what, per in rows:
        bold = "**" if phase in ("negamax", "all") else ""
        say("| %s%s%s | %s%d%s | %.1f%% |" % (bold, what, bold, bold, round(per), bold, 100 * per / whole))
    say("(levels %d-%d on chipbench's %d positions: %d nodes)" % (LEVELS[0], LEVELS[-1], len(LEVEL_POSITIONS), nodes))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--firmware", default=emulator.find_firmware(),
                        help="the stock ESP32_GENERIC_C3 .bin (default: $FIRMWARE)")
    parser.add_argument("--qemu", help="the emulator (default: $QEMU, else build/emulator/qemu-system-riscv32)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--core", help="a core.py to count instead of the firmware's")
    which.add_argument("--commit", help="count core.py as it was at this git revision")
    args = parser.parse_args(argv)
    if not args.firmware or not os.path.isfile(args.firmware):
        parser.error("--firmware (or FIRMWARE=): the stock ESP32_GENERIC_C3-<date>-v1.28.0.bin")
    if args.commit:
        text = subprocess.run(["git", "show", "%s:%s" % (args.commit, CORE)], cwd=common.ROOT,
                              capture_output=True, text=True, check=True).stdout
    else:
        with open(args.core or os.path.join(common.ROOT, CORE)) as f:
            text = f.read()
    rows, nodes = measure(text, args.firmware, args.qemu)
    report(rows, nodes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
