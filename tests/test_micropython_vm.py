"""Run the portable tests on the real MicroPython VM, and check the VM tool.

CPython passing is not enough: MicroPython has 31-bit small ints, no native
emitter on this host, and a small heap. tools/mpvm runs the WebAssembly build.
"""
import os
import re

import pytest

from tools import mpvm

pytestmark = pytest.mark.skipif(
    not mpvm.available(),
    reason="MicroPython VM unavailable: needs `node` and `npm ci` (node_modules/@micropython/...)")

PORTABLE = os.path.join(mpvm.ROOT, "tests", "portable")
MODULES = sorted(f[:-3] for f in os.listdir(PORTABLE) if f.startswith("test_") and f.endswith(".py"))
SUMMARY = re.compile(r"^mp: (\d+) passed, (\d+) failed$", re.M)


def _vm(tmp_path, source, *args, **kw):
    """Write `source` to tmp_path/main.py (with tmp_path on the VM at /t) and run it."""
    (tmp_path / "main.py").write_text(source)
    kw.setdefault("paths", [(tmp_path, "/t")])
    return mpvm.run(tmp_path / "main.py", *args, **kw)


@pytest.mark.parametrize("module", MODULES)
def test_portable_module_on_micropython(module):
    # grow=True: this VM collects garbage only between steps (one per test), so
    # a capped heap would fail any test whose *cumulative* garbage exceeds it.
    r = mpvm.run(os.path.join(PORTABLE, "runner.py"), module, paths=[(PORTABLE, "/tests/portable")],
                 grow=True)
    m = SUMMARY.search(r.stdout)
    assert r.returncode == 0 and m, r.stdout + r.stderr
    assert int(m.group(1)) > 0 and int(m.group(2)) == 0, r.stdout


def test_vm_is_micropython_with_31_bit_small_ints(tmp_path):
    r = _vm(tmp_path, """
import sys, micropython
def probe():
    a = 1 << 29
    micropython.heap_lock()  # small ints need no heap, long ints do
    try:
        small = a + (a - 1)
        try:
            a + a
            big_needs_heap = True
        except MemoryError:
            big_needs_heap = False
    finally:
        micropython.heap_unlock()
    return small, big_needs_heap
print(sys.implementation.name, type(2**30).__name__, 2**62, probe(), sys.argv[1:])
""", "x", "y")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "micropython int 4611686018427387904 (1073741823, False) ['x', 'y']"


def test_uncaught_exception_exits_1_with_traceback(tmp_path):
    r = _vm(tmp_path, "def f():\n    raise ValueError('bad')\nf()\n")
    assert r.returncode == 1
    assert 'main.py", line 2, in f' in r.stderr and "ValueError: bad" in r.stderr


def test_sys_exit_code_and_stdin(tmp_path):
    r = _vm(tmp_path, "import sys\nprint(sys.stdin.readline().strip().upper())\nsys.exit(3)\n",
            input="hello\n")
    assert (r.returncode, r.stdout) == (3, "HELLO\n")


def test_heap_is_capped(tmp_path):
    r = _vm(tmp_path, """
import gc
blocks = []
try:
    while True:
        blocks.append(bytearray(1024))
except MemoryError:
    n = len(blocks)
    blocks = None
print(n, gc.mem_free() + gc.mem_alloc())
""", heap="64k")
    assert r.returncode == 0, r.stderr
    kb, total = map(int, r.stdout.split())
    assert 40 < kb < 64 and total <= 64 * 1024


def test_gc_runs_between_steps(tmp_path):
    """10 x 40 KB of garbage fits a 64 KB heap only if collected between steps."""
    r = _vm(tmp_path, """
import gc
from _mpvm import run_steps
def steps():
    for i in range(10):
        junk = [bytearray(1000) for _ in range(40)]
        junk = None
        gc.collect()
        yield
    print('done')
run_steps(steps())
""", heap="64k")
    assert (r.returncode, r.stdout, r.stderr) == (0, "done\n", "")


VIPER_MODULE = """import micropython


@micropython.viper
def total(buf, n: int) -> int:
    p = ptr8(buf)
    s = 0
    for i in range(n):
        s += p[i]
    return s


def boom():
    raise ValueError('line 14')
"""


@pytest.mark.parametrize("strip", [True, False])
def test_strip_native(tmp_path, strip):
    (tmp_path / "vipmod.py").write_text(VIPER_MODULE)
    r = _vm(tmp_path, "import vipmod\nprint(vipmod.total(b'\\x01\\x02\\x03', 3))\nvipmod.boom()\n",
            strip_native=strip)
    assert r.returncode == 1
    if strip:  # runs as plain Python, line numbers kept
        assert r.stdout == "6\n" and 'vipmod.py", line 14, in boom' in r.stderr
    else:  # this VM has no native emitter
        assert r.stdout == "" and "SyntaxError" in r.stderr
