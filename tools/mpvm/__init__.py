"""Run scripts in the real MicroPython VM (tools/mpvm/run.mjs under Node).

CPython hides MicroPython differences (31-bit small ints, no native emitter,
a small fixed heap); pytest uses this to run the same code on the real VM.
The package's modules: memory.py (`make memory`, with memory_probe.py inside
the VM), mpyinfo.py (what a .mpy holds), typecheck.py (firmware/ against the
chip's stubs).
"""
import os
import re
import shutil
import subprocess

from tools.common import CHIP_ENGINE_BASE, CHIP_PLY_BYTES, CHIP_STACK_LIMIT, CHIP_STACK_MARGIN, ROOT

RUN_MJS = os.path.join(ROOT, "tools", "mpvm", "run.mjs")
PACKAGE = os.path.join(ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript")
FIRMWARE = (os.path.join(ROOT, "firmware"), "/firmware")

# The decorator lines the WebAssembly build cannot compile (no native emitter):
# blanked, not deleted, so tracebacks keep their line numbers (run.mjs --strip-native).
NATIVE_LINE = re.compile(r"^\s*@micropython\.(native|viper)\s*(#.*)?$")


def strip_native_text(text):
    """`text` (a module's source) with its @micropython.native/viper lines blanked."""
    return "\n".join("" if NATIVE_LINE.match(line) else line for line in text.split("\n"))


# The VM keeps Python frames on a "pystack" (run.mjs --pystack, in 4-byte words)
# instead of the chip's C stack. Sized so that the VM fails where the chip would
# with CHIP_STACK_MARGIN to spare: on the old recursive search (92c0f1b) the VM's
# micropython.pystack_use() at the poll hook of AIPlayer.choose read
# VM_ENGINE_BASE + VM_PLY_BYTES x plies, where the chip measured CHIP_ENGINE_BASE
# + CHIP_PLY_BYTES x plies (tools/common.py), so the chip's usable stack maps to
# VM_ENGINE_BASE + VM_PLY_BYTES x (its plies): 2,567 words. That search failed
# here at 24 plies (the chip's limit without the margin: 28-29).
VM_ENGINE_BASE = 1_112
VM_PLY_BYTES = 384
CHIP_PYSTACK_WORDS = (VM_ENGINE_BASE + VM_PLY_BYTES * (CHIP_STACK_LIMIT - CHIP_STACK_MARGIN - CHIP_ENGINE_BASE)
                      // CHIP_PLY_BYTES) // 4


def available():
    """True when node and the npm package are installed (else tests skip)."""
    return bool(shutil.which("node")) and os.path.isfile(os.path.join(PACKAGE, "micropython.mjs"))


def command(script, *args, paths=(), heap="256k", strip_native=True, grow=False, cwd=None,
            firmware=None, pystack=None):
    """The node command line that runs `script` in the VM (see run())."""
    cmd = ["node", RUN_MJS, "--heap", str(heap)]
    if pystack is not None:
        cmd += ["--pystack", str(pystack)]
    if firmware is None:
        mapped = (FIRMWARE,)
    elif firmware is False:
        mapped = ()
    else:
        mapped = ((firmware, FIRMWARE[1]),)
    for host, vm in mapped + tuple(paths):
        cmd += ["--path", "%s=%s" % (os.fspath(host), vm)]
    if strip_native:
        cmd.append("--strip-native")
    if grow:
        cmd.append("--grow")
    if cwd:
        cmd += ["--cwd", cwd]
    return cmd + [os.fspath(script)] + [str(a) for a in args]


def run(script, *args, paths=(), heap="256k", strip_native=True, timeout=120, input=None,
        grow=False, cwd=None, firmware=None, pystack=None):
    """Run `script` (a host path, or a VM path inside `paths`) in the VM.

    `paths` are extra (host_dir, vm_dir) pairs, copied in and put on sys.path
    after the firmware (mapped to /firmware). `heap` caps the GC heap ('180k');
    `grow=True` lets it grow instead. `firmware` is another host folder to
    map to /firmware (e.g. compiled .mpy files), False for none. Returns the
    CompletedProcess (text). `pystack` (words) sizes the stack of Python
    frames: CHIP_PYSTACK_WORDS fails where the chip's stack would.
    """
    cmd = command(script, *args, paths=paths, heap=heap, strip_native=strip_native, grow=grow,
                  cwd=cwd, firmware=firmware, pystack=pystack)
    return subprocess.run(cmd, cwd=ROOT, input=input, capture_output=True, text=True,
                          timeout=timeout, stdin=None if input is not None else subprocess.DEVNULL)
