"""`make site`: the board in a browser, as a static site in build/site/ (index.html at its root).

What it writes, and why each piece:
- micropython.mjs + micropython.wasm: MicroPython 1.28's WebAssembly build
  (the npm package the tests already run), unchanged.
- firmware.pack + files.json: the firmware files `make deploy` puts on a board
  (tools/board/device.py's firmware_sources() and firmware_data(): every
  firmware/*.py and book.bin, page.html.gz), as sources with the
  @micropython.viper/native decorator lines blanked (the WebAssembly build has
  no native emitter; a blank line keeps tracebacks' line numbers), packed in
  one file so the page makes one request for them (the web server among
  them, unused: a page has no sockets to serve it on).
- lib/machine.py, lib/neopixel.py: host_sim/stubs' modules, the simulator's own
  stand-ins, unchanged; lib/browser_board.py wires them to the page.
- index.html, page.js, worker.js, style.css: the page and its Web Worker.
- site.json: the display curve (host_sim.record.channel, the terminal
  simulator's), the chip's search speed (host_sim.world.chip_nodes_per_second)
  and the download's sizes.
"""
import json
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from tools.board import device  # noqa: E402
from tools.mpvm import strip_native_text  # noqa: E402

OUT = os.path.join(ROOT, "build", "site")
HERE = os.path.dirname(os.path.abspath(__file__))
WASM_DIR = os.path.join(ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript")
WASM_FILES = ("micropython.mjs", "micropython.wasm")
STATIC = ("index.html", "page.js", "worker.js", "style.css")
LIB = (("host_sim/stubs/machine.py", "lib/machine.py"),
       ("host_sim/stubs/neopixel.py", "lib/neopixel.py"),
       ("tools/site/browser_board.py", "lib/browser_board.py"))


def firmware_files(book=True):
    """(board path, bytes) of what `make deploy` copies from firmware/, decorators blanked
    (book=False: without the opening book, as a board without book.bin)."""
    out = []
    for rel in device.firmware_sources():
        with open(os.path.join(device.FIRMWARE, rel), encoding="utf-8") as f:
            out.append((rel, strip_native_text(f.read()).encode("utf-8")))
    for rel in device.firmware_data():
        if rel == "book.bin" and not book:
            continue
        with open(os.path.join(device.FIRMWARE, rel), "rb") as f:
            out.append((rel, f.read()))
    return out


def pack(files):
    """One blob and its table of contents: [{path, offset, size}]."""
    blob = bytearray()
    toc = []
    for path, data in files:
        toc.append({"path": path, "offset": len(blob), "size": len(data)})
        blob += data
    return bytes(blob), toc


def site_info(sizes):
    from host_sim.record import channel, HOLE, BOARD
    from host_sim.world import chip_nodes_per_second
    return {"curve": [channel(d) for d in range(256)], "hole": HOLE, "board": BOARD,
            "chip_nodes_per_second": chip_nodes_per_second(), "sizes": sizes}


def build(out=OUT, book=True):
    if not os.path.isdir(WASM_DIR):
        raise SystemExit("error: %s is missing: run `npm ci` (make site does)" % WASM_DIR)
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(os.path.join(out, "lib"))
    sizes = {}
    for name in WASM_FILES:
        shutil.copyfile(os.path.join(WASM_DIR, name), os.path.join(out, name))
        sizes[name] = os.path.getsize(os.path.join(out, name))
    for name in STATIC:
        shutil.copyfile(os.path.join(HERE, "static", name), os.path.join(out, name))
        sizes[name] = os.path.getsize(os.path.join(out, name))
    for src, dest in LIB:
        with open(os.path.join(ROOT, src), encoding="utf-8") as f:
            text = f.read()
        with open(os.path.join(out, dest), "w", encoding="utf-8") as f:
            f.write(text)
        sizes[dest] = len(text.encode("utf-8"))
    blob, toc = pack(firmware_files(book))
    with open(os.path.join(out, "firmware.pack"), "wb") as f:
        f.write(blob)
    sizes["firmware.pack"] = len(blob)
    book = [e["size"] for e in toc if e["path"] == "book.bin"]
    sizes["book.bin (in firmware.pack)"] = book[0] if book else 0
    with open(os.path.join(out, "files.json"), "w") as f:
        json.dump({"files": toc, "lib": [dest for _, dest in LIB]}, f, indent=0)
    info = site_info(sizes)
    with open(os.path.join(out, "site.json"), "w") as f:
        json.dump(info, f)
    total = sum(os.path.getsize(os.path.join(folder, n))
                for folder, _, names in os.walk(out) for n in names)
    return total, sizes


def main():
    total, sizes = build()
    book = sizes["book.bin (in firmware.pack)"]
    print("site: %s, %d files, %.0f KB (WebAssembly %.0f KB; firmware.pack: the firmware %.0f KB, the book %.0f KB)" % (
        os.path.relpath(OUT, ROOT), sum(len(n) for _, _, n in os.walk(OUT)), total / 1024,
        (sizes["micropython.wasm"] + sizes["micropython.mjs"]) / 1024,
        (sizes["firmware.pack"] - book) / 1024, book / 1024))


if __name__ == "__main__":
    main()
