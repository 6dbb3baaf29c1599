"""The board commands (`make deploy/flash/repl/bench-device`) without a board:
the exact commands each one runs, that deploy compiles every firmware module
and removes every stale twin, and that chipbench runs with the firmware laid
out as deploy leaves it (imports from `/`, no arguments)."""
import os
import shutil
import subprocess
import sys

import pytest

from tools import device, mpvm

ROOT = device.ROOT
PY = sys.executable


def dry(*args):
    r = subprocess.run([PY, "tools/device.py", "--dry-run"] + list(args), cwd=ROOT,
                       capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def test_flash_commands():
    rc, out, _ = dry("--port", "/dev/ttyACM0", "--firmware", "mp.bin", "flash")
    esptool = device.tool("esptool")
    assert rc == 0
    assert out.splitlines() == [
        esptool + " --chip esp32c3 --port /dev/ttyACM0 erase-flash",
        esptool + " --chip esp32c3 --port /dev/ttyACM0 --baud 460800 write-flash -z 0x0 mp.bin"]


def test_repl_and_bench_commands():
    mpremote = device.tool("mpremote")
    assert dry("--port", "COM3", "repl")[:2] == (0, mpremote + " connect COM3 repl\n")
    assert dry("--port", "COM3", "bench")[:2] == (
        0, mpremote + """ connect COM3 exec 'import sys; sys.argv[:] = ["chipbench.py", "levels"]'"""
        " + run tools/chipbench.py\n")


@pytest.mark.parametrize("action", ["deploy", "flash", "repl", "bench"])
def test_a_missing_port_says_how_to_give_one(action):
    rc, out, err = dry(action)
    assert rc == 2 and out == ""
    assert "no serial port: make %s PORT=" % {"bench": "bench-device"}.get(action, action) in err


def test_flash_needs_an_image():
    rc, _, err = dry("--port", "/dev/ttyACM0", "flash")
    assert rc == 2 and "FIRMWARE=" in err


def test_deploy_plan_compiles_every_module_and_keeps_main_and_config_as_source():
    sources = device.firmware_sources()
    assert "main.py" in sources and "connect4/engine/core.py" in sources
    compile_, copies, stale = device.plan("B")
    compiled = [src for src, _ in compile_]
    assert sorted(compiled + ["firmware/main.py", "firmware/config.py"]) == \
        sorted("firmware/" + s for s in sources)
    for src, target in compile_:
        assert target == "B/" + src[len("firmware/"):-3] + ".mpy"
    dests = [d for _, d in copies]
    assert "/main.py" in dests and "/config.py" in dests and "/connect4/engine/core.mpy" in dests
    assert len(dests) == len(sources)
    # the other twin of every copied file is removed first
    assert sorted(stale) == sorted(d[:-4] + ".py" if d.endswith(".mpy") else d[:-3] + ".mpy"
                                   for d in dests)


def test_deploy_commands_in_order():
    rc, out, _ = dry("--port", "/dev/ttyACM0", "deploy")
    assert rc == 0
    lines = out.splitlines()
    compile_, copies, stale = device.plan()
    mpy_cross = device.tool("mpy-cross")
    assert lines[:len(compile_)] == ["%s -march=rv32imc -o %s %s" % (mpy_cross, t, s) for s, t in compile_]
    board = "\n".join(lines[len(compile_):])
    assert board.startswith(device.tool("mpremote") + " connect /dev/ttyACM0 exec ")
    for name in stale:
        assert '"%s"' % name in board  # listed in the removal script
    for src, dest in copies:
        assert " + fs cp %s :%s " % (src, dest) in board
    assert board.endswith(" + reset")
    # one mpremote session: the board is interrupted once
    assert board.count(" connect ") == 1


def test_the_removal_script_removes_twins_and_makes_folders(tmp_path):
    """Run the board-side script (CPython has the same os calls) in a fake root."""
    dirs = ["/connect4", "/connect4/engine"]
    stale = ["/connect4/engine/core.py", "/config.mpy"]
    script = device.prepare_script(dirs, stale)
    (tmp_path / "connect4").mkdir()
    (tmp_path / "connect4" / "engine").mkdir()
    (tmp_path / "connect4" / "engine" / "core.py").write_text("old")
    remapped = script
    for p in dirs + stale:
        remapped = remapped.replace('"%s"' % p, '"%s%s"' % (tmp_path, p))
    r = subprocess.run([PY, "-c", remapped], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "removed %s/connect4/engine/core.py\n" % tmp_path
    assert not (tmp_path / "connect4" / "engine" / "core.py").exists()


def test_build_compiles_every_module_for_the_chip(tmp_path):
    for src, target in device.plan(str(tmp_path))[0]:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        cmd = device.build_commands(str(tmp_path))[0][:1] + ["-march=rv32imc", "-o", target, src]
        r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        with open(target, "rb") as f:
            assert f.read(1) == b"M"  # .mpy magic


@pytest.mark.skipif(not mpvm.available(), reason="MicroPython VM unavailable (run `npm ci`)")
def test_chipbench_runs_on_a_board_layout(tmp_path):
    """Firmware at the VM's root, as deploy leaves it, and no sys.argv (mpremote run)."""
    board = tmp_path / "board"
    shutil.copytree(os.path.join(ROOT, "firmware"), board,
                    ignore=shutil.ignore_patterns("__pycache__", "package.json"))
    script = tmp_path / "run.py"
    bench = open(os.path.join(ROOT, "tools", "chipbench.py")).read()
    # the VM puts /firmware on sys.path: take it off, and run as the board would
    script.write_text("import sys\nsys.path[:] = ['', '/board']\nsys.argv[:] = []\n"
                      "import os\nos.chdir('/board')\n" + smaller(bench))
    r = mpvm.run(script, paths=[(board, "/board")], timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 10 and lines[-1].startswith("total nodes "), r.stdout


def smaller(bench):
    """chipbench with a 300-node default budget and one position a level (quicker)."""
    for old, new in (("else 5000)", "else 300)"),
                     ('LEVEL_POSITIONS = ("", "4453", "3344352")', 'LEVEL_POSITIONS = ("4453",)')):
        assert bench.count(old) == 1, old
        bench = bench.replace(old, new)
    return bench


@pytest.mark.skipif(not mpvm.available(), reason="MicroPython VM unavailable (run `npm ci`)")
def test_chipbench_times_every_level_when_bench_device_asks(tmp_path):
    """The board's sys.argv as `make bench-device` sets it: the bench lines, then a line a level."""
    from connect4.engine import levels
    script = tmp_path / "run.py"
    bench = open(os.path.join(ROOT, "tools", "chipbench.py")).read()
    argv = device.BENCH_ARGV.split("; ", 1)[1]
    script.write_text("import sys\n%s\n" % argv + smaller(bench))
    r = mpvm.run(script, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 10 + levels.MAX_LEVEL and lines[9].startswith("total nodes "), r.stdout
    for level, line in enumerate(lines[10:], 1):
        depth, budget, _ = levels.limits(level)
        words = line.split()
        assert words[0::2] == ["level", "depth", "nodes", "ms", "max", "budget"], line
        assert int(words[1]) == level and int(words[3]) == depth and int(words[11]) == budget
        assert 0 < int(words[5]) <= budget + budget // 100  # a node or so over the budget
        assert 0 <= int(words[7]) <= int(words[9])


def test_mip_package_lists_exactly_the_firmware():
    """firmware/package.json is generated (`python tools/device.py package`): keep it in step."""
    with open(device.PACKAGE_JSON) as f:
        text = f.read()
    assert text == device.package_text(), "run: python tools/device.py package"
    import json
    urls = json.loads(text)["urls"]
    assert sorted(dest for dest, _ in urls) == device.firmware_sources()
    for dest, src in urls:
        assert dest == src and os.path.isfile(os.path.join(device.FIRMWARE, src)), src
