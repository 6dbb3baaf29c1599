"""The chip's stack holds every search, with the poll hook and a web request on top.

The ESP32-C3's MicroPython raises "maximum recursion depth exceeded" past
15,360 bytes of stack, and a nested ply of the old recursive search took 460
of them (docs/chip.md; the figures are tools/common.py's CHIP_*). CPython
allows 1,000 frames and the VM's default pystack is 64 K words, so neither
sees that limit by itself. Two checks here do:

- On CPython, a profile hook follows every call of code that runs on the
  board (firmware/, the web server included) and keeps the deepest chain of such frames:
  through the engine protocol (engine_main.py) and through the app's AI turn
  with Wi-Fi on while a client keeps sending requests. Each frame is charged
  what the chip's measured figures give it (tools.common.stack_bytes), which
  over-estimates both of them; the deepest chain must stay within
  tools.common.STACK_BUDGET (the chip's stack less 2 KB).
- In the MicroPython VM, engine_main.py runs with a pystack sized like the
  chip's stack less that margin (tools/mpvm CHIP_PYSTACK_WORDS): the
  recursive search failed there on `position 1547324443323` / `go nodes
  6000`, as the chip did; every level, on positions of 8 to 30 discs, must
  now answer there exactly as on CPython, node for node.
"""
import os
import threading
import urllib.error
import urllib.request

import pytest

from connect4.engine.board import Board
from connect4.engine.rng import Rng
from tests.test_same_in_both_worlds import cpython_answers
from tests.webboard import free_port
from tools import mpvm
from tools.bench import stack
from tools.common import CHIP_APP_BASE, CHIP_ENGINE_BASE, CHIP_PLY_BYTES, ROOT, STACK_BUDGET, stack_bytes


def positions_by_discs(lo, hi, seed):
    """One unfinished position (a moves string) for each disc count lo..hi, from random games."""
    rng = Rng(seed)
    out = {}
    while len(out) < hi - lo + 1:
        board = Board()
        while board.count < hi and not board.is_over():
            moves = board.legal_moves()
            board.play(moves[rng.below(len(moves))])
            if lo <= board.count <= hi and board.count not in out and not board.is_over():
                out[board.count] = board.moves_string()
    return [out[n] for n in range(lo, hi + 1)]


def level_commands():
    """Every level on positions of 8 to 30 discs (three each, the eight levels covering all),
    and the search that crashed the chip at 28 plies."""
    cmds = ["position 1547324443323", "go nodes 6000"]
    positions = positions_by_discs(8, 30, seed=24)
    for level in range(1, 9):
        cmds.append("level %d" % level)
        for moves in positions[level - 1::8]:
            cmds += ["position " + moves, "go"]
    return cmds


def test_the_level_commands_cover_every_level_and_8_to_30_discs():
    cmds = level_commands()
    discs = sorted(len(c.split()[1]) for c in cmds[2:] if c.startswith("position"))
    assert discs == list(range(8, 31))
    assert [c for c in cmds if c.startswith("level")] == ["level %d" % n for n in range(1, 9)]


def test_the_engine_protocol_nests_within_the_chips_stack():
    hook, out = stack.engine_main(level_commands())
    assert out.count("bestmove") == 1 + 3 * 8 - 1  # 23 positions and the crash case
    assert "core.py:negamax" in hook.at_chain, hook.at_chain  # the hook saw inside the search
    # The model over-estimates what the chip measured at the poll hook from the REPL with one ply.
    assert stack.Nesting.bytes(hook.at_chain) >= CHIP_ENGINE_BASE + CHIP_PLY_BYTES, hook.at_chain
    assert hook.most <= STACK_BUDGET, hook.report()


def test_the_apps_ai_turn_with_wifi_on_nests_within_the_chips_stack(tmp_path):
    """The board's own main.py (through the simulator) takes back a game in progress at 13
    discs, level 8 to move, the position whose search crashed the chip: its proof goes 20 plies
    and more deep while a client's requests are answered from the search's poll hook."""
    from host_sim import sim
    from host_sim.world import load_config
    from connect4.app.assemble import settings_store
    from connect4.app.records import Record

    flash = tmp_path / "flash"
    flash.mkdir()
    moves = "1547324443323"
    game = Record("ai", first=0, levels=(0, 8), moves=moves, marks="?" * len(moves))
    (flash / "game.txt").write_text("%s\n0 1 2 3\n" % game.line())
    store = settings_store(load_config("encoder", {"flash_dir": str(flash) + os.sep}))
    store.settings.update({"mode": "ai", "level": 8})  # the game's own settings, as a crash leaves them
    store.save()
    port = free_port()
    done = threading.Event()
    answered = [0]

    def client():
        paths = ("/api/state", "/api/games", "/nowhere", "/api/state?x=%ff")
        i = 0
        while not done.is_set() and i < 5000:
            i += 1
            try:
                urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, paths[i % len(paths)]),
                                       timeout=2).read()
                answered[0] += 1
            except urllib.error.HTTPError:
                answered[0] += 1
            except OSError:
                done.wait(0.02)

    hook = stack.Nesting(at="turn.py:_poll")
    thread = threading.Thread(target=client, daemon=True)
    thread.start()
    try:
        rc = stack.profiled(hook, sim.main, ["--headless", "--flash", str(flash), "--seed", "5",
                                             "--web", str(port), "--seconds", "8"])
    finally:
        done.set()
        thread.join(10)
    assert rc == 0
    assert answered[0] > 20, answered[0]
    assert hook.plies >= 20, hook.plies  # as deep as the recursive search could not go
    # The deepest chain is a request handled inside the search's poll hook.
    assert "core.py:negamax" in hook.chain and "turn.py:_poll" in hook.chain, hook.report()
    assert any(f.startswith("server.py:") for f in hook.chain[hook.chain.index("turn.py:_poll"):]), \
        hook.report()
    # The model over-estimates what the chip measured at the app's poll hook with one ply nested.
    # The simulator calls boot.start itself; on the board main.py's frame lies under it.
    assert hook.chain[0] == "boot.py:start", hook.report()
    assert stack.Nesting.bytes(["main.py:<module>"] + hook.at_chain) >= CHIP_APP_BASE + CHIP_PLY_BYTES, \
        hook.at_chain
    assert hook.most + stack_bytes(1) <= STACK_BUDGET, hook.report()


@pytest.mark.skipif(not mpvm.available(), reason="MicroPython VM unavailable (run `npm ci`)")
def test_every_level_answers_alike_in_a_vm_with_the_chips_stack():
    cmds = level_commands()
    r = mpvm.run(os.path.join(ROOT, "firmware", "engine_main.py"), input="\n".join(cmds + ["quit"]) + "\n",
                 grow=True, pystack=mpvm.CHIP_PYSTACK_WORDS, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "pystack exhausted" not in r.stderr
    expected = cpython_answers(cmds)
    assert r.stdout.splitlines() == expected
    assert sum(line.startswith("bestmove") for line in expected) == 24


@pytest.mark.skipif(not mpvm.available(), reason="MicroPython VM unavailable (run `npm ci`)")
def test_the_chip_sized_vm_stack_fails_on_a_recursion_as_deep_as_the_old_search():
    """The teeth of the check above: a function nesting 28 frames of the old search's size (96
    words, the plies the chip held without the margin) exhausts that pystack."""
    script = os.path.join(ROOT, "build", "deep_recursion.py")
    os.makedirs(os.path.dirname(script), exist_ok=True)
    with open(script, "w") as f:
        f.write("def ply(k, %s):\n" % ", ".join("a%d" % i for i in range(80)))
        f.write("    return 0 if k == 0 else 1 + ply(k - 1, %s)\n" % ", ".join("a%d" % i for i in range(80)))
        f.write("print('plies', ply(28, %s))\n" % ", ".join(["0"] * 80))
    small = mpvm.run(script, pystack=mpvm.CHIP_PYSTACK_WORDS, firmware=False)
    assert small.returncode == 1 and "pystack exhausted" in small.stderr, small.stdout + small.stderr
    roomy = mpvm.run(script, firmware=False)
    assert roomy.returncode == 0 and "plies 28" in roomy.stdout, roomy.stderr


