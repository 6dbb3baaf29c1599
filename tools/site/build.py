"""`make site`: the board in a browser, as a static site in build/site/ (index.html at its root).

What it writes, and why each piece:
- micropython.mjs + micropython.wasm: MicroPython 1.28's WebAssembly build
  (the npm package the tests already run); the loader without one debug check
  that slowed every search (loader()).
- firmware.pack + files.json: the firmware files `make deploy` puts on a board
  (tools/board/device.py's firmware_sources() and firmware_data(): every
  firmware/*.py and book.bin, page.html.gz), as sources with the
  @micropython.viper/native decorator lines blanked (the WebAssembly build has
  no native emitter; a blank line keeps tracebacks' line numbers), packed in
  one file so the page makes one request for them (the web server among
  them, unused: a page has no sockets to serve it on).
- lib/machine.py, lib/neopixel.py: host_sim/stubs' modules, the simulator's own
  stand-ins, unchanged; lib/browser_board.py wires them to the page;
  lib/words.py says what the board shows in words.
- index.html, page.js, worker.js, style.css: the page and its Web Worker.
- site.json: the display curve (host_sim.record.channel, the terminal
  simulator's), the chip's search speed (tools.common.chip_nodes_per_second)
  and what the page downloads (`download`: the one count the page shows and
  `make site` prints).
- playing.html and its pictures: docs/playing.md (tools/site/playing_page.py),
  linked from the page; not part of the download unless followed.
- install/: the install page (tools/site/install.py): ESP Web Tools writes the board's
  4 MB image (with --firmware: `make site FIRMWARE=...` builds it) and sets its Wi-Fi;
  linked from the page, not part of its download either.
"""
import json
import os
import re
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from tools.board import device  # noqa: E402
from tools.mpvm import strip_native_text  # noqa: E402
from tools.site import install, playing_page  # noqa: E402

OUT = os.path.join(ROOT, "build", "site")
HERE = os.path.dirname(os.path.abspath(__file__))
WASM_DIR = os.path.join(ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript")
WASM_FILES = ("micropython.mjs", "micropython.wasm")
STATIC = ("index.html", "page.js", "worker.js", "style.css")
BOOK_SHARE = "book.bin (in firmware.pack)"  # the book's bytes inside firmware.pack
LIB = (("host_sim/stubs/machine.py", "lib/machine.py"),
       ("host_sim/stubs/neopixel.py", "lib/neopixel.py"),
       ("tools/site/browser_board.py", "lib/browser_board.py"),
       ("tools/site/words.py", "lib/words.py"))


# The npm package's loader is built with emscripten's debug assertions, and one of them sits
# on the VM's hottest path. Each call the bytecode interpreter makes goes through emscripten's
# setjmp support in JavaScript (invoke_*), which finds the callee with getWasmTableEntry; the
# assertion there reads the function table again (WebAssembly.Table.get) to compare it with
# the loader's own copy of it. Nothing changes the table from JavaScript (the loader has no
# addFunction, no table.set or grow: tests/test_site_loader.py checks), so the check cannot fail.
# Without it a search runs much faster: docs/benchmarks.md#level-8-in-the-browser.
TABLE_CHECK = re.compile(r',assert\(wasmTable\.get\(funcPtr\)==func,"[^"]*"\)')


def loader(text):
    """The package's micropython.mjs as the page serves it: without the table check."""
    return TABLE_CHECK.sub("", text)


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


def download(sizes):
    """What the page downloads, in bytes, by part ({"micropython", "firmware", "book", "page",
    "total"}): `sizes` is {file: bytes} of every file it fetches, firmware.pack holding the book
    (its share: "book.bin (in firmware.pack)"). The page says these, `make site` prints them and
    tests/test_doc_figures.py holds docs/browser.md to them."""
    book = sizes.get(BOOK_SHARE, 0)
    files = {name: n for name, n in sizes.items() if name != BOOK_SHARE}
    parts = {"micropython": sum(files[name] for name in WASM_FILES),
             "firmware": files["firmware.pack"] - book, "book": book}
    parts["page"] = sum(files.values()) - parts["micropython"] - files["firmware.pack"]
    parts["total"] = sum(files.values())
    return parts


def site_info(sizes):
    """site.json's contents; its own size is in the download, so it is counted until it stays put."""
    from host_sim.record import channel, HOLE, BOARD
    from tools.common import chip_nodes_per_second
    info = {"curve": [channel(d) for d in range(256)], "hole": HOLE, "board": BOARD,
            "chip_nodes_per_second": chip_nodes_per_second(), "playing": playing_page.PAGE}
    own = 0
    while True:
        info["download"] = download(dict(sizes, **{"site.json": own}))
        text = json.dumps(info)
        if len(text) == own:
            return text
        own = len(text)


def build(out=OUT, book=True, firmware=None):
    """Write the site into `out` (emptied first), the install page with the image built from
    MicroPython's .bin at `firmware` if given; returns download()'s parts."""
    if not os.path.isdir(WASM_DIR):
        raise SystemExit("error: %s is missing: run `npm ci` (make site does)" % WASM_DIR)
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(os.path.join(out, "lib"))
    sizes = {}
    for name in WASM_FILES:
        if name == "micropython.mjs":
            with open(os.path.join(WASM_DIR, name), encoding="utf-8") as f:
                text = loader(f.read())
            with open(os.path.join(out, name), "w", encoding="utf-8") as f:
                f.write(text)
        else:
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
    sizes[BOOK_SHARE] = book[0] if book else 0
    with open(os.path.join(out, "files.json"), "w") as f:
        json.dump({"files": toc, "lib": [dest for _, dest in LIB]}, f, indent=0)
    sizes["files.json"] = os.path.getsize(os.path.join(out, "files.json"))
    text = site_info(sizes)
    with open(os.path.join(out, "site.json"), "w") as f:
        f.write(text)
    playing_page.render(out)
    install.build(out, firmware)
    return json.loads(text)["download"]


def kb(n):
    return "%s KB" % format(int(round(n / 1024.0)), ",")


def summary(parts):
    """The line `make site` prints, in the words and figures the page uses."""
    return "%s (MicroPython %s, the firmware %s, its opening book %s, the page %s)" % (
        kb(parts["total"]), kb(parts["micropython"]), kb(parts["firmware"]), kb(parts["book"]),
        kb(parts["page"]))


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--firmware", default="", help="MicroPython's ESP32_GENERIC_C3 .bin: the install "
                    "page gets make image's image")
    args = ap.parse_args(argv)
    parts = build(firmware=args.firmware or None)
    print("site: %s; the page downloads %s" % (os.path.relpath(OUT, ROOT), summary(parts)))
    there = os.path.isfile(os.path.join(OUT, install.FOLDER, install.IMAGE_NAME))
    print("install page: %s/index.html, %s" % (
        os.path.relpath(os.path.join(OUT, install.FOLDER), ROOT),
        "with the board's image" if there else "without an image (make site FIRMWARE=... builds it)"))


if __name__ == "__main__":
    main()
