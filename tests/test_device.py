"""The board commands (`make deploy/flash/repl/bench-device`) without a board:
the exact commands each one runs, and that deploy compiles every firmware
module and removes every stale twin. tests/test_fakeboard.py runs deploy and
bench-device end to end against a fake board."""
import os
import subprocess
import sys

import pytest

from tools import device

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
