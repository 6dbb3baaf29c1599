"""The same commands give the same answers, node for node, on CPython and in
the MicroPython VM running the board's engine_main.py.

The command list is built to meet the case that once made the two differ:
root moves with equal scores (MicroPython's list.sort is not stable, so an
engine that sorted them would search ties in another order on the board).
The test shows that most searches meet such ties, that an engine breaking
them another way would answer differently (so the comparison has teeth),
and then compares every line, `info` node counts included.
"""
import os

import pytest

from connect4.engine import search
from connect4.engine.board import Board
from connect4.engine.protocol import Protocol
from connect4.engine.rng import Rng
from tools import mpvm

LIMITS = ("depth 3", "depth 5", "depth 7", "depth 9", "nodes 300", "nodes 800", "nodes 2000",
          "nodes 4000")


def positions(count, seed=2024):
    """Positions from every phase: random games cut at 0 to 38 discs, none finished."""
    rng = Rng(seed)
    out = []
    while len(out) < count:
        length = rng.below(39)
        board = Board()
        while board.count < length and not board.is_over():
            moves = board.legal_moves()
            board.play(moves[rng.below(len(moves))])
        if not board.is_over():
            out.append(board.moves_string())
    return out


def commands():
    rng = Rng(7)
    out = ["isready", "frobnicate", "position 8", "go depth 0"]
    for i, moves in enumerate(positions(110)):
        out.append("position " + moves)
        if i % 10 == 0:
            out.append("seed %d" % (1 + rng.below(1000)))
        if i % 15 == 7:
            out.append("level %d" % (1 + rng.below(8)))
            out.append("go")  # the level's own limits and blunders
        out.append("go " + LIMITS[rng.below(len(LIMITS))])
        out.append("go " + LIMITS[rng.below(len(LIMITS))])
    out += ["position 52677675164321472411331752454", "level 8", "go nodes 20000",
            "position 4453", "go", "position", "go depth 12"]
    # one game on: the table kept from move to move; then late positions the proof settles
    out += ["position 4453", "go nodes 3000", "position 445344", "go nodes 3000",
            "position 44534433", "go nodes 3000", "position 44232333554665224144", "go nodes 20000",
            "position 442323335546652241443", "go nodes 20000"]
    return out


def cpython_answers(cmds, reorder=None):
    """The CPython engine's answers; `reorder` replaces the root ordering (for the teeth check)."""
    out = []
    protocol = Protocol(out.append)
    saved = search.reorder
    if reorder is not None:
        search.reorder = reorder
    try:
        for line in cmds:
            protocol.handle(line)
    finally:
        search.reorder = saved
    return out


def tie_spy(tied):
    """A search.reorder that appends to `tied` each time two root moves share a score."""
    saved = search.reorder

    def spying(order, scores, best):
        values = [scores[c] for c in order]
        if len(set(values)) < len(values):
            tied.append(1)
        saved(order, scores, best)
    return spying


def test_the_command_list_is_large_and_full_of_root_ties():
    cmds = commands()
    gos = [c for c in cmds if c.startswith("go")]
    assert len(gos) >= 200
    tied = []  # reorder calls that met two root moves with one score
    spying = tie_spy(tied)
    saved = search.reorder
    answers = []
    protocol = Protocol(answers.append)
    search.reorder = spying
    gos_with_ties = 0
    try:
        for line in cmds:
            before = len(tied)
            protocol.handle(line)
            gos_with_ties += line.startswith("go") and len(tied) > before
    finally:
        search.reorder = saved
    assert gos_with_ties >= 80, gos_with_ties  # 94 of 237 today
    assert answers == cpython_answers(cmds)  # the spy changed nothing
    assert sum(a.startswith("bestmove") for a in answers) >= 200

    def ties_reversed(order, scores, best):  # a sort as unstable as MicroPython's could be
        order.reverse()
        saved(order, scores, best)

    other = cpython_answers(cmds, ties_reversed)
    differ = sum(a != b for a, b in zip(answers, other))
    assert len(other) != len(answers) or differ >= 50, differ


@pytest.mark.skipif(not mpvm.available(), reason="MicroPython VM unavailable (run `npm ci`)")
def test_board_main_answers_exactly_like_cpython():
    cmds = commands()
    r = mpvm.run(os.path.join(mpvm.ROOT, "firmware", "engine_main.py"),
                 input="\n".join(cmds + ["quit"]) + "\n", grow=True, timeout=600)
    assert r.returncode == 0, r.stderr
    expected = cpython_answers(cmds)
    got = r.stdout.splitlines()
    for i, (a, b) in enumerate(zip(got, expected)):
        assert a == b, "line %d differs: board %r, CPython %r" % (i, a, b)
    assert len(got) == len(expected)
    assert sum(line.startswith("info") for line in expected) > 500
    assert sum(line.startswith("error") for line in expected) == 3


@pytest.mark.skipif(not mpvm.available(), reason="MicroPython VM unavailable (run `npm ci`)")
def test_make_engine_and_make_engine_vm_are_twins():
    import subprocess
    lines = "position 4453\ngo depth 6\nseed 5\nlevel 3\ngo\nbogus\nquit\n"
    runs = [subprocess.run(["make", "-s", target], cwd=mpvm.ROOT, input=lines, capture_output=True,
                           text=True, timeout=300) for target in ("engine", "engine-vm")]
    assert [r.returncode for r in runs] == [0, 0], [r.stderr for r in runs]
    assert runs[0].stdout == runs[1].stdout
    assert runs[0].stdout.count("bestmove") == 2 and "error" in runs[0].stdout


@pytest.mark.skipif(not mpvm.available(), reason="MicroPython VM unavailable (run `npm ci`)")
def test_book_moves_are_the_same_in_make_engine_and_on_the_board():
    """`make engine` opens firmware/book.bin as the board's engine_main.py does (run in /firmware,
    where the book lies beside it): the same `info book` lines and moves, and searches past it."""
    import io
    from host_sim import engine
    cmds = ["level 8"]
    for moves in ("", "4", "44", "4453", "43", "1", "7", "444444", "4455", "3", "36", "445"):
        cmds += ["position " + moves, "go"]
    cmds += ["position 44", "go nodes 500", "level 7", "position 4", "go", "quit"]
    text = "\n".join(cmds) + "\n"
    out = io.StringIO()
    assert engine.main([], stdin=io.BytesIO(text.encode()), stdout=out) == 0
    vm = mpvm.run(os.path.join(mpvm.ROOT, "firmware", "engine_main.py"), input=text, grow=True,
                  cwd="/firmware", timeout=300)
    assert vm.returncode == 0, vm.stderr
    assert vm.stdout == out.getvalue()
    assert out.getvalue().count("info book") >= 8
    assert out.getvalue().count("bestmove") == 14
    bookless = io.StringIO()
    assert engine.main(["--no-book"], stdin=io.BytesIO(text.encode()), stdout=bookless) == 0
    assert "info book" not in bookless.getvalue() and bookless.getvalue().count("bestmove") == 14


SIZE_LIMITS = ("depth 2", "depth 4", "nodes 150", "nodes 400", "nodes 800")


def size_games():
    """A whole game on every supported size, played through the protocol on
    CPython: `size`, then each position of the game with a `go` whose answer is
    the game's next move (seeded ties, a few levels and their blunders, the
    top level at the end of the smallest boards, where it proves). Returns the
    commands and CPython's answers."""
    from connect4.engine.board import MIN_COLS, MAX_COLS, MIN_ROWS, MAX_ROWS
    rng = Rng(21)
    cmds = []
    answers = []
    protocol = Protocol(answers.append)

    def send(line):
        cmds.append(line)
        protocol.handle(line)

    for cols in range(MIN_COLS, MAX_COLS + 1):
        for rows in range(MIN_ROWS, MAX_ROWS + 1):
            send("size %dx%d" % (cols, rows))
            send("seed %d" % (1 + rng.below(1000)))
            moves = ""
            board = Board("", cols, rows)
            while not board.is_over():
                send("position " + moves)
                if cols * rows <= 20 and board.count >= 6:
                    send("level 8")
                    send("go")  # the top level's own budget: a proof on these boards
                    send("level %d" % (1 + rng.below(7)))
                else:
                    send("go " + SIZE_LIMITS[rng.below(len(SIZE_LIMITS))])
                col = int(answers[-1].split()[1]) - 1
                board.play(col)
                moves += str(col + 1)
    return cmds, answers


def test_a_game_on_every_size_meets_root_ties():
    from connect4.engine.board import MIN_COLS, MAX_COLS, MIN_ROWS, MAX_ROWS
    tied = []
    saved = search.reorder
    search.reorder = tie_spy(tied)
    try:
        cmds, answers = size_games()
    finally:
        search.reorder = saved
    sizes = (MAX_COLS - MIN_COLS + 1) * (MAX_ROWS - MIN_ROWS + 1)
    assert sum(c.startswith("size") for c in cmds) == sizes == 20
    assert not any(a.startswith("error") for a in answers), [a for a in answers if a.startswith("error")]
    assert sum(a.startswith("bestmove") for a in answers) >= 300
    assert len(tied) >= 100, len(tied)


@pytest.mark.skipif(not mpvm.available(), reason="MicroPython VM unavailable (run `npm ci`)")
def test_a_game_on_every_size_is_the_same_on_the_board():
    cmds, expected = size_games()
    r = mpvm.run(os.path.join(mpvm.ROOT, "firmware", "engine_main.py"),
                 input="\n".join(cmds + ["quit"]) + "\n", grow=True, timeout=600)
    assert r.returncode == 0, r.stderr
    got = r.stdout.splitlines()
    for i, (a, b) in enumerate(zip(got, expected)):
        assert a == b, "line %d differs: board %r, CPython %r" % (i, a, b)
    assert len(got) == len(expected)
