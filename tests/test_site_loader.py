"""The page's MicroPython loader (tools/site/build.py's loader()): the npm package's
micropython.mjs with one debug check taken out, the check of the function table that
getWasmTableEntry made on every call the VM makes through JavaScript. It can never fail,
because nothing in the loader changes the table; these tests hold the pinned package to
both facts, so that an upgrade which changes either is seen here, not as a slow page.

Skipped, saying so, without node_modules' VM.
"""
import os

import pytest

from tools import mpvm
from tools.site import build

pytestmark = pytest.mark.skipif(not mpvm.available(), reason="MicroPython VM (node_modules) not installed")


def package_loader():
    with open(os.path.join(build.WASM_DIR, "micropython.mjs"), encoding="utf-8") as f:
        return f.read()


def test_the_served_loader_is_the_packages_without_its_one_table_check():
    text = package_loader()
    checks = build.TABLE_CHECK.findall(text)
    assert len(checks) == 1, "the package's loader changed: see tools/site/build.py's loader()"
    served = build.loader(text)
    assert "wasmTable.get(funcPtr)==func" not in served
    assert served == text.replace(checks[0], "")  # nothing else is touched
    assert "getWasmTableEntry=funcPtr=>{var func=wasmTableMirror[funcPtr];" in served  # the lookup stays


def test_nothing_in_the_loader_changes_the_function_table_so_the_check_could_never_fail():
    text = package_loader()
    # emscripten's addFunction and removeFunction (which set table slots and keep the loader's
    # copy up to date) are not defined, only named in its list of what the build left out
    for change in ("addFunction=", "removeFunction=", "updateTableMap=", "wasmTable.set(", "wasmTable.grow("):
        assert change not in text, change
    assert text.count("wasmTable.get(") == 2  # the mirror's fill and the check


def test_the_site_serves_that_loader(tmp_path):
    build.build(str(tmp_path), book=False)
    with open(os.path.join(str(tmp_path), "micropython.mjs"), encoding="utf-8") as f:
        assert f.read() == build.loader(package_loader())
