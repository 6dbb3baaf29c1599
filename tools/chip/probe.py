"""The app's probe on the emulated chip, from the host: put it on the flash, start it, read its lines.

tools/chip/app_probe.py runs inside MicroPython (the app as main.py starts it,
reporting); this module is its host side, shared by tests/chip/ and `make bench`.
"""
import os
import re
import subprocess
import tempfile

from tools import common
from tools.board import device, image
from tools.chip import emulator


def compiled():
    """tools/chip/app_probe.py and app_probe_more.py compiled as deploy compiles the firmware:
    [(board path, .mpy bytes)]."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for src in (common.CHIP_PROBE, common.CHIP_PROBE_MORE):
            name = os.path.basename(src)
            mpy = os.path.join(tmp, name[:-3] + ".mpy")
            subprocess.run([device.tool("mpy-cross")] + device.MPY_FLAGS
                           + ["-s", name, "-o", mpy, os.path.join(common.ROOT, src)], check=True)
            with open(mpy, "rb") as f:
                out.append(("/" + name[:-3] + ".mpy", f.read()))
    return out


def flash(firmware_bytes, deployed, probe_files, extra=()):
    """The emulated board's flash: `make image`'s image, the probe's files (compiled()), `extra`."""
    return emulator.flash_image(firmware_bytes, deployed, list(probe_files) + list(extra))


def flash_for(firmware, extra=()):
    """flash() from the MicroPython image's path, what `make deploy` copies and a fresh probe."""
    return flash(image.read_firmware(firmware), image.deploy_files(), compiled(), extra)


def run(c, **probe):
    """Start the probe from the raw REPL with these arguments (app_probe.py's docstring); returns
    at once: read its lines with c.read_until."""
    c.write("import sys\nsys.modules.pop('app_probe', None)\nsys.argv[:] = ['app_probe', %r]\n"
            "import app_probe\n\x04" % repr(probe))
    c.read_until(b"OK", timeout=60)


def main_py(**probe):
    """(board path, bytes) of a /main.py that runs the probe with these arguments where the
    product's runs boot.start(), at every start of the board (a reset by the firmware too):
    MicroPython's Ctrl-C off first, as main.py does it; a Ctrl-C that stops the app leaves
    the friendly REPL."""
    return ("/main.py", ("import micropython\nmicropython.kbd_intr(-1)\nimport sys\n"
                         "sys.argv[:] = ['app_probe', %r]\ntry:\n    import app_probe\n"
                         "except KeyboardInterrupt:\n    pass\n" % repr(probe)).encode())


def parse_fields(line):
    """`probe heap ms=1 gc_used=2 ...` -> {"ms": 1, "gc_used": 2, ...}"""
    out = {}
    for part in line.split():
        if "=" in part:
            k, v = part.split("=", 1)
            try:
                out[k] = int(v)
            except ValueError:
                out[k] = v
    return out


def gc_heap(text):
    """Every `GC: total: T, used: U, free: F` of micropython.mem_info() in `text`: [(T, U, F)].
    (gc.mem_free() also counts what the heap could still take from ESP-IDF: not this.)"""
    return [tuple(int(x) for x in m) for m in
            re.findall(r"GC: total: (\d+), used: (\d+), free: (\d+)", text)]


def free_runs(text):
    """Every `max free sz: N` of micropython.mem_info() in `text`: the GC heap's longest free
    run, in 16-byte blocks, at each report."""
    return [int(m) for m in re.findall(r"max free sz: (\d+)", text)]


def reports(text):
    """The `probe heap` reports in `text` as dicts, and the last `probe low` (or None)."""
    heap = [parse_fields(ln) for ln in text.splitlines() if ln.startswith("probe heap")]
    low = [parse_fields(ln) for ln in text.splitlines() if ln.startswith("probe low")]
    return heap, low[-1] if low else None
