"""Heap figures of the firmware, measured in the real MicroPython VM.

    python tools/memory.py [--heap 192k] [--json]

The chip's Python heap reads about 175-190 KB free at the REPL (CHIP.md), so
the heap here is capped near that and the whole firmware is imported on the
host's machine/neopixel stubs. Figures, in bytes:
- import: heap held after importing every firmware module (engine, app, drivers);
- searcher: heap held by a Searcher with its default 4096-entry table;
- search_peak: heap in use at the end of a top-level search from the empty
  board. The VM only collects between top-level steps, so this counts every
  byte the search allocated: an upper bound on the true peak;
- per_node: bytes allocated per extra search node, from two searches of
  different node budgets (fixed per-search costs cancel); the target is 0.
The VM runs bytecode (no native emitter): viper code is stripped, so the
figures are those of the plain-Python path (the same objects as on the chip).
`budget` is what tests/test_memory.py allows: half of ~180 KB.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools import mpvm  # noqa: E402

BUDGET = 90 * 1024
HEAP = "192k"
NODES = (1000, 3000)
STUBS = os.path.join(mpvm.ROOT, "host_sim", "stubs")

MODULES = ("config", "connect4.boot", "connect4.hardware_setup", "connect4.app.game",
           "connect4.app.menu", "connect4.app.render", "connect4.app.store", "connect4.app.glyphs",
           "connect4.hw.display", "connect4.hw.input", "connect4.engine.board",
           "connect4.engine.core", "connect4.engine.search", "connect4.engine.player",
           "connect4.engine.levels", "connect4.engine.protocol", "connect4.engine.rng")

SCRIPT = """
import gc, sys
sys.path.append('/stubs')  # after the VM's built-ins
from _mpvm import run_steps
MODULES = %r
NODES = %r
out = {}
keep = []


def steps():
    yield  # a collection: the baseline
    base = gc.mem_alloc()
    for name in MODULES:
        keep.append(__import__(name))
    yield
    out['import'] = gc.mem_alloc() - base
    from connect4.engine.search import Searcher
    from connect4.engine.board import Board
    keep.append(Searcher())
    yield
    held = gc.mem_alloc()
    out['searcher'] = held - base - out['import']
    allocated = []
    for nodes in NODES:
        start = gc.mem_alloc()
        r = keep[-1].search(Board(), nodes=nodes)
        allocated.append((r.nodes, gc.mem_alloc() - start))
        if nodes == NODES[-1]:
            out['search_peak'] = gc.mem_alloc() - base
            out['search_nodes'] = r.nodes
        r = None
        yield
    (n1, a1), (n2, a2) = allocated
    out['search_allocated'] = a2
    out['per_node'] = (a2 - a1) // (n2 - n1) if n2 > n1 else 0
    out['heap'] = gc.mem_alloc() + gc.mem_free()
    print('MEMORY', repr(out).replace("'", '"'))


run_steps(steps())
"""


def measure(heap=HEAP, nodes=NODES, timeout=300):
    """The figures as a dict (raises RuntimeError with the VM's output on failure)."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "memory_probe.py")
        with open(path, "w") as f:
            f.write(SCRIPT % (MODULES, tuple(nodes)))
        r = mpvm.run(path, paths=[(STUBS, "/stubs")], heap=heap, timeout=timeout)
    for line in r.stdout.splitlines():
        if line.startswith("MEMORY "):
            figures = json.loads(line[len("MEMORY "):])
            figures["budget"] = BUDGET
            return figures
    raise RuntimeError("memory probe failed:\n" + r.stdout + r.stderr)


def report(f):
    kb = lambda n: "%.1f KB" % (n / 1024.0)  # noqa: E731
    return "\n".join([
        "memory (MicroPython VM, heap %s)" % kb(f["heap"]),
        "  firmware imported      %s" % kb(f["import"]),
        "  searcher (4096 table)  %s" % kb(f["searcher"]),
        "  top-level search peak  %s (at most; %d nodes)" % (kb(f["search_peak"]), f["search_nodes"]),
        "  bytes per search node  %d" % f["per_node"],
        "  budget                 %s (half the chip's ~180 KB)" % kb(f["budget"]),
    ])


def main(argv):
    heap = HEAP
    if "--heap" in argv:
        heap = argv[argv.index("--heap") + 1]
    figures = measure(heap)
    print(json.dumps(figures) if "--json" in argv else report(figures))


if __name__ == "__main__":
    main(sys.argv[1:])
