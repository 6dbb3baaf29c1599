"""`python -m host_sim.engine` driven by another program, and fuzzed."""
import os
import random
import subprocess
import sys

from hypothesis import given, settings, strategies as st

from connect4.engine.board import Board
from connect4.engine.protocol import Protocol

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Engine:
    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-m", "host_sim.engine"], cwd=ROOT,
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


def test_plays_thousands_of_games_for_another_program():
    rng = random.Random(1)
    engine = Engine()
    try:
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
    finally:
        engine.close()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=40), max_size=8))
def test_any_line_gets_an_answer_or_nothing_and_never_crashes(lines):
    out = []
    p = Protocol(out.append)
    p.player.set_level(1)
    for line in lines:
        before = len(out)
        p.handle(line.replace("\n", " "))
        for answer in out[before:]:
            assert answer.split()[0] in ("error", "info", "bestmove", "readyok", "commands:"), answer
    assert p.board.count <= 42


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
