"""The same commands give the same answers, node for node, on CPython and in
the MicroPython VM running the board's engine_main.py."""
import os

import pytest

from connect4.engine.protocol import Protocol
from tools import mpvm

COMMANDS = [
    "position 4453", "go depth 6", "seed 99", "level 5", "go",
    "position 3344352", "go nodes 1500", "position 41", "blunder 100", "level 2", "go",
    "position 44444448", "frobnicate", "position 1212121", "go",
    "position 227376433355", "level 8", "blunder level", "go nodes 3000",
]


def cpython_answers():
    out = []
    protocol = Protocol(out.append)
    for line in COMMANDS:
        protocol.handle(line)
    return out


@pytest.mark.skipif(not mpvm.available(), reason="MicroPython VM unavailable (run `npm ci`)")
def test_board_main_answers_exactly_like_cpython():
    r = mpvm.run(os.path.join(mpvm.ROOT, "firmware", "engine_main.py"),
                 input="\n".join(COMMANDS + ["quit"]) + "\n", grow=True, timeout=300)
    assert r.returncode == 0, r.stderr
    expected = cpython_answers()
    assert r.stdout.splitlines() == expected
    assert sum(line.startswith("bestmove") for line in expected) == 5
    assert sum(line.startswith("error") for line in expected) == 3
