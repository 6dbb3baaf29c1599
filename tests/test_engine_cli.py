"""`python -m host_sim.engine` driven by another program, and fuzzed."""
import os
import random
import subprocess
import sys
import threading

import pytest
from hypothesis import given, settings, strategies as st

from connect4.engine.board import Board
from connect4.engine.protocol import Protocol

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


UTF8_ENV = dict(os.environ, PYTHONIOENCODING="utf-8", LANG="en_US.UTF-8", LC_ALL="C.UTF-8")


def engine_cli(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "host_sim.engine"] + list(args), cwd=ROOT,
                          capture_output=True, timeout=60, env=UTF8_ENV, **kwargs)


class Engine:
    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-m", "host_sim.engine"], cwd=ROOT, env=UTF8_ENV,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self):
        line = self.proc.stdout.readline()
        assert line, "engine closed its output"
        return line.rstrip("\n")

    def go(self, args=""):
        self.send(("go " + args).strip())
        while True:
            line = self.read()
            if not line.startswith("info "):
                return line

    def close(self):
        self.send("quit")
        self.proc.stdin.close()
        assert self.proc.wait(timeout=30) == 0


@pytest.fixture
def engine():
    """`python -m host_sim.engine` on pipes, ended (killed if it still runs) at the test's end."""
    e = Engine()
    yield e
    if e.proc.poll() is None:
        e.proc.kill()
    e.proc.wait()


def test_plays_thousands_of_games_for_another_program(engine):
    rng = random.Random(1)
    engine.send("level 1")
    for game in range(1000):
        board = Board()
        engine.send("seed %d" % game)
        while not board.is_over():
            if board.count % 2 == game % 2:
                move = rng.choice(board.legal_moves())
            else:
                engine.send("position " + board.moves_string())
                answer = engine.go("depth 1" if game % 10 else "nodes 200")
                assert answer.startswith("bestmove "), answer
                move = int(answer.split()[1]) - 1
                assert board.can_play(move), (board.moves_string(), answer)
            board.play(move)
        if game % 50 == 0:  # a driver's mistakes must not kill the session
            engine.send("position " + board.moves_string() + "1")
            assert engine.read().startswith("error ")
            engine.send("go depth 1 depth")
            assert engine.read().startswith("error ")
    engine.send("isready")
    assert engine.read() == "readyok"
    engine.close()


def test_bytes_that_are_not_utf8_answer_error_and_the_engine_goes_on():
    r = engine_cli(input=b"isready\n\xff\nposition 4\xc3\xa9\xc3\nisready\n")
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    assert r.stdout.decode().splitlines() == ["readyok", "error the line is not UTF-8 text",
                                              "error the line is not UTF-8 text", "readyok"]


def test_a_five_megabyte_line_answers_error_line_too_long():
    """Was: the whole 5 MB line echoed back in the `error` answer."""
    data = b"frobnicate " + b"x" * (5 << 20) + b"\nposition 4\x00" + b"4" * 3000 + b"\nisready\n"
    r = engine_cli(input=data)
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().splitlines() == ["error line too long"] * 2 + ["readyok"]


def test_help_prints_usage_and_does_not_wait_for_input():
    for flag in ("--help", "-h"):
        r = engine_cli(flag, stdin=subprocess.PIPE)  # an open, silent stdin: waiting would time out
        assert r.returncode == 0, r.stderr
        text = r.stdout.decode()
        for word in ("usage:", "position", "go", "movetime", "stop", "isready", "quit", "deterministic"):
            assert word in text, word


def test_an_unknown_option_exits_2_with_one_line():
    r = engine_cli("--depth", stdin=subprocess.PIPE)
    assert r.returncode == 2 and r.stdout == b""
    assert len(r.stderr.decode().splitlines()) == 1 and "--depth" in r.stderr.decode()


def wait_for_info(engine):
    """Read the first `info` line; a watchdog kills the engine if the test would hang."""
    watchdog = threading.Timer(60, engine.proc.kill)
    watchdog.daemon = True
    watchdog.start()
    line = engine.read()
    assert line.startswith("info "), line


def test_stop_ends_a_search_that_would_last_half_an_hour(engine):
    engine.send("go nodes 100000000")
    wait_for_info(engine)  # the search runs: now stop it
    engine.send("isready")
    engine.send("position 4")
    engine.send("stop")
    seen = []
    while not seen or not seen[-1].startswith("bestmove "):
        seen.append(engine.read())
    assert "readyok" in seen  # answered while the search ran
    answer = engine.go("depth 1")  # after the queued position 4
    assert answer.startswith("bestmove "), answer
    engine.send("isready")
    assert engine.read() == "readyok"


def test_quit_during_a_search_stops_it_and_exits(engine):
    engine.send("go nodes 100000000")
    wait_for_info(engine)
    engine.send("quit")
    rest = engine.proc.communicate(timeout=60)[0].splitlines()
    assert rest and rest[-1].startswith("bestmove ")
    assert engine.proc.returncode == 0


def test_quit_with_stdin_still_open_exits_cleanly(engine):
    # the reader thread is blocked in a read then: it must not abort the exit (SIGABRT, -6)
    engine.send("isready")
    assert engine.read() == "readyok"
    engine.send("quit")
    assert engine.proc.wait(timeout=30) == 0


def test_go_movetime_ends_a_search_by_the_clock(engine):
    answer = engine.go("movetime 300 nodes 100000000")
    assert answer.startswith("bestmove "), answer
    engine.close()


def answers_known_or_nothing(lines):
    """Each line handled by a level-1 protocol answers with a known word or nothing; the board
    stays a board."""
    out = []
    p = Protocol(out.append)
    p.player.set_level(1)
    for line in lines:
        before = len(out)
        p.handle(line)
        for answer in out[before:]:
            assert answer.split()[0] in ("error", "info", "bestmove", "readyok", "commands:", "size"), answer
    assert p.board.count <= 42


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=40), max_size=8))
def test_any_bytes_get_an_answer_or_nothing_and_never_crash(lines):
    answers_known_or_nothing([line.replace(b"\n", b" ") for line in lines])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=40), max_size=8))
def test_any_line_gets_an_answer_or_nothing_and_never_crashes(lines):
    answers_known_or_nothing([line.replace("\n", " ") for line in lines])


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789 ", max_size=45))
def test_position_accepts_exactly_the_legal_strings(digits):
    out = []
    p = Protocol(out.append)
    p.handle("position " + digits)
    try:
        Board(digits.strip()) if " " not in digits.strip() else Board("x")
        legal = True
    except ValueError:
        legal = False
    assert (out == []) == legal, (digits, out)
