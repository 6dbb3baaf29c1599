"""`make deploy` and `make bench-device` end to end, against a fake board.

The fake board (tools/board/fakeboard.py) is a pseudo-terminal speaking
MicroPython's raw REPL, executing in the MicroPython VM, so mpremote talks to
it as to a board on USB serial. It runs bytecode only: after deploy the test
checks the files (rv32imc .mpy cannot run in the VM); bench-device runs on a
board seeded with the firmware compiled to bytecode .mpy (tools/mpvm/memory.py)."""
import hashlib
import json
import os
import subprocess

import pytest

from tools import mpvm
from tools.board import device
from tools.mpvm import memory
from tools.board.fakeboard import FakeBoard

ROOT = device.ROOT
pytestmark = pytest.mark.skipif(not mpvm.available(), reason="MicroPython VM unavailable (run `npm ci`)")

LIST_FILES = """
import os, hashlib, _fakeboard
buf = bytearray(4096)  # one buffer for every file: this VM collects only after the whole exec
def walk(d, out):
    for name in os.listdir(d):
        p = d.rstrip('/') + '/' + name
        if os.stat(p)[0] & 0x4000:
            if p not in ('/tmp', '/home', '/dev', '/proc'):  # the VM's own
                walk(p, out)
        else:  # in pieces, no garbage a piece: the opening book (400 KB) outgrows the VM's heap
            h = hashlib.sha256()
            with open(p, 'rb') as f:
                n = f.readinto(buf)
                while n == len(buf):
                    h.update(buf)
                    n = f.readinto(buf)
                h.update(buf[:n])
            out[p] = h.digest().hex()
    return out
print(repr({'files': walk('/', {}), 'resets': _fakeboard.resets}).replace("'", '"'))
"""


def mpremote(port, *args, timeout=60):
    return subprocess.run([device.tool("mpremote"), "connect", port] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def make(target, port, timeout=300):
    return subprocess.run(["make", target, "PORT=" + port], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


def board_state(port):
    r = mpremote(port, "exec", LIST_FILES)
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads(r.stdout)


def sha(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_make_deploy_copies_the_compiled_firmware_removes_twins_and_resets(tmp_path):
    seed = tmp_path / "seed"
    (seed / "connect4" / "engine").mkdir(parents=True)
    (seed / "connect4" / "engine" / "core.py").write_text("STALE = 1\n")  # would shadow core.mpy
    (seed / "config.mpy").write_bytes(b"M")  # would lose to config.py anyway, but is stale
    (seed / "connect4.json").write_text('{"version": 1}')  # the player's settings: kept
    with FakeBoard(seed=str(seed)) as board:
        r = make("deploy", board.port)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "removed /connect4/engine/core.py" in r.stdout and "removed /config.mpy" in r.stdout
        state = board_state(board.port)
    _, copies, _ = device.plan()
    expected = {dest: sha(src) for src, dest in copies}
    expected["/connect4.json"] = hashlib.sha256(b'{"version": 1}').hexdigest()
    assert state["files"] == expected
    assert state["resets"] == 1
    with open(os.path.join(ROOT, device.BUILD, "connect4", "engine", "core.mpy"), "rb") as f:
        header = f.read(4)
    assert header[:2] == b"M\x06" and (header[2] >> 2) & 0x2F == 11  # rv32imc


def test_make_bench_device_prints_speed_and_every_level(tmp_path):
    from connect4.engine import levels
    memory.build_vm_image(str(tmp_path))
    with FakeBoard(seed=str(tmp_path)) as board:
        r = make("bench-device", board.port)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = [line for line in r.stdout.splitlines() if line.startswith(("bench ", "total ", "level "))]
    assert len(lines) == 10 + levels.MAX_LEVEL, r.stdout
    total = lines[9].split()
    assert total[1::2] == ["nodes", "ms", "nps"], lines[9]
    assert int(total[2]) > 40000 and int(total[6]) > 0, lines[9]  # nine searches of up to 5000 nodes
    for level, line in enumerate(lines[10:], 1):
        depth, budget = levels.depth(level), levels.nodes(level)
        words = line.split()
        assert words[0::2] == ["level", "depth", "nodes", "ms", "max", "budget"], line
        assert int(words[1]) == level and int(words[3]) == depth and int(words[11]) == budget
        assert 0 < int(words[5]) <= budget + budget // 100  # a node or so over the budget
        assert 0 <= int(words[7]) <= int(words[9])


def test_the_fake_board_reports_errors_as_a_board_does():
    with FakeBoard() as board:
        r = mpremote(board.port, "exec", "1 / 0")
        assert r.returncode == 1 and "ZeroDivisionError" in r.stdout + r.stderr
        r = mpremote(board.port, "fs", "cat", ":/no_such_file")
        assert r.returncode == 1 and "No such file" in r.stdout + r.stderr  # OSError 2, as the chip numbers it
        r = mpremote(board.port, "exec", "print(6 * 7)")
        assert (r.returncode, r.stdout) == (0, "42\n")


def test_the_fake_boards_friendly_repl_answers_a_line():
    """What `make repl` shows: the prompt, the echo, an expression's value."""
    import select
    with FakeBoard() as board:
        fd = os.open(board.port, os.O_RDWR | os.O_NOCTTY)
        try:
            seen = b""

            def prompt(n):  # until the n-th ">>> "
                nonlocal seen
                while seen.count(b">>> ") < n:
                    ready, _, _ = select.select([fd], [], [], 10)
                    assert ready, seen
                    seen += os.read(fd, 4096)

            prompt(1)
            for n, line in enumerate((b"6 * 7\r", b"x = [1, 2]\r",
                                      b"lex\x7f\x7fen(x) + 1\r",  # two backspaces
                                      b"1 / 0\r"), 2):
                os.write(fd, line)
                prompt(n)
        finally:
            os.close(fd)
    assert b"6 * 7\r\n42\r\n>>> " in seen
    assert b"x = [1, 2]\r\n>>> " in seen
    assert b"\r\n3\r\n>>> " in seen
    assert b"ZeroDivisionError" in seen


def test_a_traceback_on_the_board_names_the_boards_file_not_the_hosts(tmp_path):
    """Deploy compiles with `mpy-cross -s <path on the board>` (tools/board/device.py):
    a traceback (and error.log, which prints the same) says connect4/engine/board.py,
    not firmware/connect4/engine/board.py. Here the VM image, compiled the same way."""
    image = tmp_path / "board"
    memory.build_vm_image(str(image))
    script = tmp_path / "boom.py"
    script.write_text("import io, sys\n"
                      "from connect4.engine.board import Board\n"
                      "try:\n"
                      "    Board().undo()\n"
                      "except ValueError as e:\n"
                      "    s = io.StringIO()\n"
                      "    sys.print_exception(e, s)\n"
                      "    print(s.getvalue())\n")
    r = mpvm.run(script, firmware=str(image), paths=[(tmp_path, "/t")])
    assert r.returncode == 0, r.stdout + r.stderr
    assert 'File "connect4/engine/board.py", line' in r.stdout, r.stdout
    assert "firmware/" not in r.stdout
