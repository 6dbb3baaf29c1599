"""What the host tools share, kept once: paths, the chip's speed, the games of `make bench`.

Host only (CPython); it imports nothing from the firmware, so any tool can
use it. Scripts run as `python tools/<job>/<name>.py` put the repository root
on sys.path themselves (two lines at their top) before importing this.
"""
import hashlib
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = os.path.join(ROOT, "tools")
DATA = os.path.join(TOOLS, "data")
CHIP_FILE = os.path.join(DATA, "chip.txt")  # instructions per node on the chip (tools/chip/speed.py)

# The scripts that run inside MicroPython (the board, the VM, the unix port),
# relative to ROOT. Each starts with MICROPYTHON_MARK; tests/test_tools.py
# checks that exactly these files carry it and that they compile for the chip.
MICROPYTHON_MARK = "# Runs inside MicroPython"
CHIPBENCH = "tools/bench/chipbench.py"  # board (make bench-device), VM, unix port, CPython
FAKEBOARD_REPL = "tools/board/fakeboard_repl.py"  # the VM behind tools/board/fakeboard.py
MEMORY_PROBE = "tools/mpvm/memory_probe.py"  # the VM, for tools/mpvm/memory.py
HELD_SEARCH = "tools/bench/held_search.py"  # the unix port, for tools/bench/held.py and tools/book/exits.py
CHIP_PROBE = "tools/chip/app_probe.py"  # the emulated chip, for tests/chip/
CHIP_PROBE_MORE = "tools/chip/app_probe_more.py"  # ... what only some of them ask of it
CHIP_LEVERS = "tools/chip/levers_code.py"  # the emulated chip, for tools/chip/levers.py
MICROPYTHON_SCRIPTS = (CHIPBENCH, FAKEBOARD_REPL, MEMORY_PROBE, HELD_SEARCH, CHIP_PROBE, CHIP_PROBE_MORE,
                       CHIP_LEVERS)


def run_script(args, micropython=None):
    """The stdout of a MicroPython script (`args`: its path, then its arguments)
    run in a MicroPython unix port, or without one in CPython through host_sim."""
    if micropython:
        cmd = [micropython] + list(args)
    else:
        cmd = [sys.executable, "-c", "import sys, runpy; sys.argv = sys.argv[1:]; import host_sim; "
               "runpy.run_path(sys.argv[0], run_name='__main__')"] + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT).stdout


def free_port():
    """A TCP port free on 127.0.0.1 now (for a server a test or tool starts)."""
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def path(rel):
    """The absolute host path of a ROOT-relative '/'-separated path."""
    return os.path.join(ROOT, *rel.split("/"))


# The chip's speed. Its instructions per search node are counted, not assumed:
# tools/data/chip.txt, measured on the stock MicroPython image in the emulated
# ESP32-C3 (tools/chip/speed.py). What is assumed, here and only here: the
# ESP32-C3 at CHIP_HZ takes 1.0-1.5 cycles an instruction (CHIP_CPI;
# docs/chip.md, "Speed"), so it runs 107-160 M instructions a second
# (CHIP_IPS_RANGE). Every chip time the tools estimate takes the slow end,
# CHIP_IPS: nodes x instructions per node / CHIP_IPS.
CHIP_HZ = 160_000_000
CHIP_CPI = (1.0, 1.5)
CHIP_IPS_RANGE = (int(CHIP_HZ / CHIP_CPI[1]), int(CHIP_HZ / CHIP_CPI[0]))  # 106,666,666 to 160,000,000
CHIP_IPS = CHIP_IPS_RANGE[0]
CHIP_IPS_WORDS = "%d M instructions/s (%d MHz at %.1f cycles an instruction, the slow end of %.1f-%.1f)" % (
    round(CHIP_IPS / 1e6), CHIP_HZ // 10 ** 6, CHIP_CPI[1], CHIP_CPI[0], CHIP_CPI[1])
# The engine's sources a record depends on (engine_fingerprint: a stale record is spotted): the
# chip's figures on these; the search's moves (tools/book/exits.py) on the levels and the PRNG too
ENGINE_FILES = ("board.py", "core.py", "search.py")
MOVE_FILES = ("board.py", "core.py", "levels.py", "rng.py", "search.py")


def fingerprint_of(paths):
    """A short hash of these files' bytes: a record made from other ones is spotted."""
    digest = hashlib.sha1()
    for path in paths:
        with open(path, "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()[:12]


def engine_fingerprint(names=ENGINE_FILES):
    """A hash of the engine sources `names` (by default those the chip's figures depend on)."""
    return fingerprint_of(os.path.join(ROOT, "firmware", "connect4", "engine", name) for name in names)


def board_sizes():
    """Every supported board size as "COLSxROWS", 4x4 to 8x7."""
    return ["%dx%d" % (c, r) for r in range(4, 8) for c in range(4, 9)]


def chip_record():
    """tools/data/chip.txt's fields, {name: text} (tools/chip/speed.py --record writes it): the
    one reader of the chip's speed record; a missing file or line is an error that names it,
    never a figure made up."""
    fields = {}
    try:
        with open(CHIP_FILE) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    key, _, value = line.strip().partition(" ")
                    fields[key] = value.strip()
    except OSError as e:
        raise RuntimeError("the chip's speed record %s cannot be read: %s" % (CHIP_FILE, e))
    return fields


def chip_instructions_per_node(size=None):
    """The recorded instructions per search node on the chip (size "COLSxROWS": that board's
    figure; None: the 7x6 board's, levels 6-8 together, as the levels are tuned)."""
    key = "instructions_per_node" + ("_" + size if size else "")
    value = chip_record().get(key)
    if value is None or not value.isdigit() or int(value) <= 0:
        raise RuntimeError("%s has no figure %s (re-record it: tools/chip/speed.py --record)"
                           % (CHIP_FILE, key))
    return int(value)


def chip_nodes_per_second(ipn=None):
    """The chip's search speed, nodes a second: CHIP_IPS over `ipn` instructions per node
    (default: tools/data/chip.txt's record). Every figure of the chip's speed comes from
    here: the simulator's --chip-speed and --help (through host_sim.world, which runs
    without tools/ too), the browser page, the benches' tables; tests/test_doc_figures.py
    holds the docs to it."""
    return CHIP_IPS // (ipn or chip_instructions_per_node())


def chip_speed_range(ipn=None):
    """(slowest, fastest) nodes a second at CHIP_IPS_RANGE's two ends (default: the record's)."""
    ipn = ipn or chip_instructions_per_node()
    return CHIP_IPS_RANGE[0] // ipn, CHIP_IPS_RANGE[1] // ipn


# The chip's GC heap on the stock 1.28 image (`make chip-test`, 2026-11-26): 64,000 bytes at
# power-on, grown once, out of the ESP-IDF heap, to CHIP_GC_HEAP_APP when the app is built. With
# Wi-Fi on it must not grow again: a second growth takes the ESP-IDF heap that lwIP and the Wi-Fi
# driver allocate from at run time (issue 31: the page then answered nothing; MicroPython gives
# an area back only once it is empty). CHIP_GC_FREE_MIN stays free in it at the fullest (issue
# 36: under a hostile network's load its free room lies in runs of 1.3-2.6 KB, and less room
# left one allocation from a growth). CHIP_GC_EXTRA_WIFI is what the chip held beyond `make
# memory`'s figure for it (tools/mpvm/memory.py's gc_web, less this): 105,296 bytes in use at
# the fullest of the hostile load (tools/chip/mixed_load.py, its probe's core included,
# 2026-11-28) against 98,316; tests/test_memory.py fails a change that adds to the heap with
# Wi-Fi on (about 2 KB are left of the budget) before it fails on a chip.
CHIP_GC_HEAP_APP = 127_936
CHIP_GC_FREE_MIN = 20 * 1024
CHIP_GC_EXTRA_WIFI = 6_980

# The chip's stack (docs/chip.md, "The stack", measured on the stock 1.28.0
# image): MicroPython's check raises "maximum recursion depth exceeded" past
# CHIP_STACK_LIMIT bytes, and CHIP_STACK_MARGIN must stay free at the deepest
# point (issue 24). A nested ply of the old recursive viper search cost
# CHIP_PLY_BYTES. At its poll hook the REPL (AIPlayer.choose) used
# CHIP_ENGINE_BASE + CHIP_PLY_BYTES x plies bytes, the app (main.py) CHIP_APP_BASE
# + CHIP_PLY_BYTES x plies. Under the plies the REPL's chain holds 7 bytecode
# frames (<stdin>, choose, search, _root, core.search, Searcher._poll, the poll
# function) and the app's 14 (tests/test_stack_depth.py prints it): charged
# alone, with the runtime's own stack counted in, a bytecode frame then costs
# 335 and 254 bytes. stack_bytes() charges every bytecode frame the larger and
# every viper or native frame CHIP_PLY_BYTES, so it over-estimates both figures.
CHIP_STACK_LIMIT = 15_360
CHIP_STACK_MARGIN = 2_048
CHIP_PLY_BYTES = 460
CHIP_ENGINE_BASE = 2_340
CHIP_APP_BASE = 3_556
CHIP_FRAME_BYTES = -(-CHIP_ENGINE_BASE // 7)  # 335
# What the board holds under engine_main's module frame when the REPL imports it (the
# REPL's <stdin> frame and the import's C frames), which the frames' model above left out:
# measured by `make chip-test` (tests/chip/test_engine_on_chip.py, 2026-11-26) as 5,500
# bytes at the protocol's StreamLines.ready against the model's 4,815 for the frames
# there, so 685, rounded up.
CHIP_REPL_IMPORT_BYTES = 704
STACK_BUDGET = CHIP_STACK_LIMIT - CHIP_STACK_MARGIN  # 13,312 bytes: the deepest chain's most


def stack_bytes(frames, native=0):
    """The chip's stack under a chain of `frames` nested frames, `native` of them viper
    or native code, at most (the model above)."""
    return (frames - native) * CHIP_FRAME_BYTES + native * CHIP_PLY_BYTES


# The strongest AI level (connect4.engine.levels.MAX_LEVEL; tests/test_tools.py
# checks they agree) and the games every strength figure plays: the empty board
# and the 49 two-move openings, the engine first and second in turn.
TOP_LEVEL = 8
OPENINGS = [""] + ["%d%d" % (a, b) for a in range(1, 8) for b in range(1, 8)]


def game(level, g):
    """(opening, engine plays first, seed) of game number `g` at `level`."""
    return OPENINGS[(g // 2) % len(OPENINGS)], g % 2 == 0, 1000 * level + g


def sign(x):
    return (x > 0) - (x < 0)


class Say:
    """say(text): print a report line at once and keep it (`.lines`) for a file."""

    def __init__(self):
        self.lines = []
        self.parts = []  # (name, first line, start time) of each part (tools/bench/page.py)

    def __call__(self, text=""):
        print(text, flush=True)
        self.lines.append(text)

    def progress(self, text):
        """Print a progress line at once but keep it out of the file: a page gives results."""
        print(text, flush=True)

    def part(self, name):
        """A new part of the report begins here (a section of docs/benchmarks.md)."""
        self.parts.append((name, len(self.lines), time.time()))
