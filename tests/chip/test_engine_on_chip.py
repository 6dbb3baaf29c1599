"""Issue 30 a: the board's engine_main on the emulated chip answers exactly as `make engine`.

Same lines, node counts included, for positions of 8-30 discs at every level
(the levels' own budgets, blunders and seeds) and book moves. The chip's
MicroPython sorts unstably and has its own dict order: this is where a
difference would show first.
"""
import io

from connect4.engine.board import Board
from connect4.engine.rng import Rng
from host_sim import engine

from .helpers import retry_stalls, repl

STALL_S = 180  # wall seconds of UART silence: the emulator is stuck (tests/chip/helpers.py)


def positions(count, seed=30):
    """Random games cut at 8 to 30 discs, none finished."""
    rng = Rng(seed)
    out = []
    while len(out) < count:
        length = 8 + rng.below(23)
        board = Board()
        while board.count < length and not board.is_over():
            moves = board.legal_moves()
            board.play(moves[rng.below(len(moves))])
        if not board.is_over() and board.count == length:
            out.append(board.moves_string())
    return out


def commands():
    out = ["isready"]
    for i, moves in enumerate(positions(40)):
        out += ["seed %d" % (101 + i), "level %d" % (1 + i % 8), "position " + moves, "go"]
    out.append("level 8")
    for moves in ("", "4", "44", "4453", "43", "7", "3", "445"):  # the opening book's moves
        out += ["position " + moves, "go"]
    return out


def host_answers(cmds):
    out = io.StringIO()
    text = "\n".join(cmds + ["quit"]) + "\n"
    assert engine.main([], stdin=io.BytesIO(text.encode()), stdout=out) == 0
    return out.getvalue().splitlines()


@retry_stalls
def test_engine_main_on_the_chip_prints_what_make_engine_prints(chip):
    cmds = commands()
    expected = host_answers(cmds)
    assert sum(1 for ln in expected if ln.startswith("bestmove")) == 48
    assert sum(1 for ln in expected if ln == "info book") >= 6
    c = repl(chip(wifi=False))
    c.write(b"import engine_main\x04")  # the raw REPL runs it; its stdin is the UART
    c.read_until(b"OK", timeout=30, stall=STALL_S)
    got = []
    for line in cmds:
        c.write(line + "\n")
        if line.startswith("go"):
            text = c.read_until(b"bestmove", timeout=300, stall=STALL_S) + c.read_until(b"\n", timeout=30, stall=STALL_S)
            got += [ln.strip() for ln in text.splitlines() if ln.strip()]
        elif line == "isready":
            got.append(c.read_until(b"readyok", timeout=30, stall=STALL_S).strip())
    c.write(b"quit\n")
    c.read_until(b"\x04", timeout=60, stall=STALL_S)
    assert got == expected


# Read on the chip inside the engine protocol's poll hook (Protocol._poll, which the search
# calls every poll_interval nodes) and inside what it calls to look for a line (StreamLines.ready):
# each replaced by a wrapper that reads micropython.stack_use() and calls it, at its depth.
STACK_SCRIPT = b"""import micropython
from connect4.engine import protocol
DEEPEST = [0]
def _wrap(cls, name):
    inner = getattr(cls, name)
    def wrapped(self, *args):
        s = micropython.stack_use()
        if s > DEEPEST[0]:
            DEEPEST[0] = s
        return inner(self, *args)
    setattr(cls, name, wrapped)
_wrap(protocol.Protocol, "_poll")
_wrap(protocol.StreamLines, "ready")
import engine_main
print("probe deepest stack", DEEPEST[0])
"""


@retry_stalls
def test_the_protocols_stack_on_the_chip_stays_under_the_budget_and_the_model_bounds_it(chip):
    """Issue 30 b through the protocol: level-8 searches on 8-30-disc positions (every level;
    tests/test_stack_depth.py's commands), the deepest stack under 13,312 bytes; and the model
    that `make test` holds the firmware to (tools/bench/stack.py) is not below the chip."""
    from tests.test_stack_depth import level_commands
    from tools.bench import stack
    from tools.common import STACK_BUDGET
    cmds = level_commands()
    c = repl(chip(wifi=False))
    c.write(STACK_SCRIPT + b"\x04")
    c.read_until(b"OK", timeout=30, stall=STALL_S)
    for line in cmds:
        c.write(line + "\n")
        if line.startswith("go"):
            c.read_until(b"bestmove", timeout=600, stall=STALL_S)
    c.write(b"quit\n")
    text = c.read_until(b"probe deepest stack", timeout=120, stall=STALL_S) + c.read_until(
        b"\n", timeout=30, stall=STALL_S)
    chip_bytes = int(text.split()[-1])
    hook, _ = stack.engine_main(cmds)
    print("deepest stack in the engine protocol: the chip %d bytes, the model %d" % (chip_bytes, hook.most))
    assert chip_bytes < STACK_BUDGET
    assert hook.most >= chip_bytes, "the stack model under-estimates the chip: fix tools.common.stack_bytes"
