"""Garbage in, the same answers out: the board's engine_main.py in the MicroPython
VM, `python -m host_sim.engine` and the protocol on CPython, byte for byte.

The lines are built to meet what once made the worlds differ: bytes that are
not UTF-8 (the VM's readline raised UnicodeError), non-ASCII digits (CPython's
int() took them), Unicode spaces (CPython's str.split() split at them) and
non-ASCII text quoted in messages (the two repr()s differ).
"""
import os
import subprocess
import sys

import pytest

from connect4.engine.protocol import Protocol
from connect4.engine.rng import Rng
from tools import mpvm

WORDS = ["position", "go", "level", "seed", "blunder", "isready", "help", "stop", "depth", "nodes",
         "movetime", "level", "go", "frobnicate", "44", "4453", "12", "3", "0", "-1", "8", "x",
         "100", "1_0", "+3", "007", "99999999999999999999"]
ODD = ["\uff18", "\u0663", "\u0661\u0660", "\xe9", "\U0001f600", "'", '"', "\\", "\x00", "\x7f",
       "\x1c", "\u3000", "\xa0", "\x0b", "\x0c", "\t", "\r", "\u200b"]
BAD_UTF8 = [b"\xff", b"\xc3", b"\xe9", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\xc0\xaf"]


def garbage(count, seed=11):
    rng = Rng(seed)
    out = [b"level 1", b"position 4453", b"go depth 3", "level \uff18".encode(), "go depth \u0663".encode(),
           "go\u3000depth 2".encode(), b"isready\xff", b"position 4\xc0\xaf", "caf\xe9".encode(),
           b"frobnicate " + b"\xe9" * 3000, b"stop " + b"4" * 1100, b"isready" + b" " * 1017,
           b"isready" + b" " * 1018]  # lines over the cap (MAX_LINE: 1,024 bytes), and at it
    for _ in range(count):
        parts = []
        for _ in range(1 + rng.below(4)):
            kind = rng.below(10)
            if kind < 6:
                parts.append(WORDS[rng.below(len(WORDS))].encode())
            elif kind < 9:
                parts.append(ODD[rng.below(len(ODD))].encode())
            else:
                parts.append(BAD_UTF8[rng.below(len(BAD_UTF8))])
            if rng.below(3):
                parts.append(b" ")
        line = b"".join(parts)
        if line.split()[:1] == [b"go"]:
            line = b"position 4453\ngo depth %d" % (1 + rng.below(4))  # garbage, but quick searches
        out.append(line)
    return b"\n".join(out + [b"isready", b"quit"]) + b"\n"


def cpython_answers(data):
    out = []
    protocol = Protocol(out.append)
    for line in data.split(b"\n"):
        if not protocol.handle(line):
            break
    return out


def test_the_garbage_meets_every_difference():
    answers = cpython_answers(garbage(600))
    text = "\n".join(answers)
    assert "not UTF-8" in text and "must be a number, not '\\u" in text and "\\xe9" in text
    assert answers.count("error line too long") >= 3
    assert sum(a.startswith("bestmove") for a in answers) >= 20
    assert sum(a.startswith("error") for a in answers) >= 300


def test_the_host_engine_answers_like_the_protocol():
    data = garbage(600)
    r = subprocess.run([sys.executable, "-m", "host_sim.engine"], cwd=mpvm.ROOT, input=data,
                       capture_output=True, timeout=300,
                       env=dict(os.environ, PYTHONIOENCODING="utf-8", LC_ALL="C.UTF-8"))
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    assert r.stdout.decode("ascii").splitlines() == cpython_answers(data)


@pytest.mark.skipif(not mpvm.available(), reason="MicroPython VM unavailable (run `npm ci`)")
def test_the_board_answers_garbage_like_cpython():
    data = garbage(600)
    cmd = mpvm.command(os.path.join(mpvm.ROOT, "firmware", "engine_main.py"), grow=True)
    r = subprocess.run(cmd, cwd=mpvm.ROOT, input=data, capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    got = r.stdout.decode("ascii").splitlines()  # the answers are ASCII: non-ASCII text is quoted
    expected = cpython_answers(data)
    for i, (a, b) in enumerate(zip(got, expected)):
        assert a == b, "line %d differs: board %r, CPython %r" % (i, a, b)
    assert len(got) == len(expected)
