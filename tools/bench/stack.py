"""The deepest chain of on-board frames, and what it takes of the chip's stack.

A profile hook (sys.setprofile) follows every call of code that runs on the
board (firmware/, the web server included) and keeps the chain that would take the most
of the chip's stack, charged by tools.common.stack_bytes (the chip's measured
figures: docs/chip.md, "The stack"). tests/test_stack_depth.py holds the firmware to
tools.common.STACK_BUDGET with it; `make bench` reports it.
"""
import io
import os
import re
import runpy
import sys
import threading

from tools.common import CHIP_REPL_IMPORT_BYTES, ROOT, stack_bytes

FIRMWARE = os.path.join(ROOT, "firmware") + os.sep
ON_BOARD = FIRMWARE


def native_functions():
    """'file:function' of every firmware function compiled to machine code on the chip."""
    out = set()
    for folder, _, files in os.walk(FIRMWARE):
        for name in files:
            if name.endswith(".py"):
                with open(os.path.join(folder, name)) as f:
                    lines = f.read().splitlines()
                for i, line in enumerate(lines[:-1]):
                    if re.match(r"\s*@micropython\.(viper|native)\b", line):
                        m = re.match(r"\s*def (\w+)", lines[i + 1])
                        out.add("%s:%s" % (name, m.group(1)))
    return out


NATIVE = native_functions()


class Nesting:
    """A profile hook: the chain of on-board frames that takes the most stack on the chip
    (tools.common.stack_bytes), and the deepest chain that ends at a given function."""

    def __init__(self, at=None, root=0):
        self.root = root  # bytes under the chain's first on-board frame (how the board started it)
        self.most = 0  # bytes
        self.chain = []
        self.at = at  # 'file:function': also keep the deepest chain that ends there
        self.at_chain = []
        self.plies = 0  # the deepest ply of a search seen from `at`

    @staticmethod
    def bytes(chain):
        return stack_bytes(len(chain), sum(f in NATIVE for f in chain))

    def __call__(self, frame, event, arg):
        if event != "call":
            return
        chain = []
        f = frame
        while f is not None:
            name = f.f_code.co_filename
            if name.startswith("<frozen importlib"):
                return  # an import: the board imports at start-up, never inside a search
            if name.startswith(ON_BOARD):
                chain.append("%s:%s" % (os.path.basename(name), f.f_code.co_name))
            f = f.f_back
        chain.reverse()
        used = self.root + self.bytes(chain)
        if used > self.most:
            self.most = used
            self.chain = chain
        if self.at is not None and chain and chain[-1] == self.at:
            if len(chain) > len(self.at_chain):
                self.at_chain = chain
            f = frame
            while f is not None and f.f_code.co_name != "negamax":
                f = f.f_back
            if f is not None:
                from connect4.engine import core
                self.plies = max(self.plies, core.ply(f.f_locals["p"]))

    def report(self):
        return "%d bytes at most, %d frames: %s" % (self.most, len(self.chain), " > ".join(self.chain))


def engine_main(cmds, at="search.py:_poll"):
    """Run the board's engine_main.py on CPython with `cmds` as its input, under the hook.
    Returns (the Nesting, the protocol's output). On the board it runs as the REPL's
    `import engine_main`: CHIP_REPL_IMPORT_BYTES under its module's frame."""
    hook = Nesting(at=at, root=CHIP_REPL_IMPORT_BYTES)
    saved = sys.stdin, sys.stdout
    sys.stdin = io.TextIOWrapper(io.BytesIO("\n".join(list(cmds) + ["quit"]).encode() + b"\n"))
    sys.stdout = out = io.StringIO()
    sys.setprofile(hook)
    try:
        runpy.run_path(os.path.join(ROOT, "firmware", "engine_main.py"), run_name="engine_main")
    finally:
        sys.setprofile(None)
        sys.stdin, sys.stdout = saved
    return hook, out.getvalue()


def profiled(hook, fn, *args):
    """fn(*args) with `hook` on every thread (main.py runs in this one when headless)."""
    threading.setprofile(hook)
    sys.setprofile(hook)
    try:
        return fn(*args)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
