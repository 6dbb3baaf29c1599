"""Reviews of recorded games with the host's perfect solver (tools/bench/perfect.py, bitbully).

The board marks a move only where its own search proved the value; on the
host every move of a 7x6 game can be judged (bitbully solves 7x6 only: a
game on another board keeps the board's own marks, and its review says so).
`judge(moves, size)` gives a record's MARKS field for every move (the
simulator sets it as the app's `judge`, so its 7x6 records are marked throughout); `review(record)` is the text that
`python -m host_sim.sim --review FILE-OR-LINE` prints: each move, its value
for the side that played it, the board's own mark, and where the result
changed hands, with the moves that would have kept it.
"""
import os
import sys

from connect4.app.recordfile import parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VALUE_NAMES = {"W": "win", "D": "draw", "L": "loss", "?": "?"}
SIDE_NAMES = ("red", "yellow")


def _perfect():
    """The shared perfect solver, or None when bitbully is not installed."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    try:
        from tools.bench import perfect
        return perfect.shared()
    except ImportError:
        return None


def available():
    return _perfect() is not None


def _mark(score):
    """The mover's value of a position whose side to move has `score` (Pons')."""
    return "W" if score < 0 else "L" if score > 0 else "D"


def judge(moves, size="7x6"):
    """MARKS for every move of `moves` (1-based column digits), from the perfect solver
    (all "?" without it); None on a board it does not solve (other than 7x6): the
    board's own marks stand."""
    from connect4.engine.board import Board
    if size != "7x6":
        return None
    solver = _perfect()
    if solver is None:
        return "?" * len(moves)
    board = Board()
    out = []
    for i, ch in enumerate(moves):
        board.play(int(ch) - 1)
        if board.winner:
            out.append("W")
        elif board.is_full():
            out.append("D")
        else:
            out.append(_mark(solver.solve(moves[:i + 1])))
    return "".join(out)


def _value(mark):
    return {"W": 1, "D": 0, "L": -1}.get(mark)


def _who(record, side):
    level = record.levels[side]
    return "%s (%s)" % (SIDE_NAMES[side], "level %d" % level if level else "a person")


def review(record):
    """The review of one Record as text."""
    solver = _perfect() if record.size == "7x6" else None
    perfect = judge(record.moves) if solver is not None else ""
    result = ("red wins", "yellow wins", "a draw", "abandoned")[record.result]
    lines = ["game %d, %s%s: %s vs %s, %s starts, %s; hints: red %d, yellow %d" % (
        record.number, record.mode, "" if record.size == "7x6" else " on " + record.size,
        _who(record, 0), _who(record, 1), SIDE_NAMES[record.first],
        result, record.hints[0], record.hints[1])]
    if record.size != "7x6":
        lines.append("(the perfect solver knows the 7x6 board only: the board's own marks)")
    elif solver is None:
        lines.append("(no perfect solver here: pip install bitbully bitbully-databases; "
                     "the board's own marks only)")
    start = (solver.solve("") if solver is not None else None)
    lines.append("move  side    column  value (perfect)  board's mark")
    before = _value(_mark(-start)) if start is not None else None  # the first mover's value
    turns = 0
    for i, ch in enumerate(record.moves):
        side = record.first if i % 2 == 0 else 1 - record.first
        mark = perfect[i] if perfect else "?"
        own = record.marks[i] if record.marks else "?"
        note = ""
        after = _value(mark)
        if before is not None and after is not None and after < before:
            turns += 1
            best = solver.best_moves(record.moves[:i])
            note = "  <- the result changed: a %s became a %s (best: %s)" % (
                VALUE_NAMES["WDL"[1 - before]], VALUE_NAMES[mark], " ".join(map(str, best)))
        lines.append("%4d  %-6s  %6s  %-15s  %s%s" % (
            i + 1, SIDE_NAMES[side], ch, VALUE_NAMES[mark], VALUE_NAMES[own], note))
        before = -after if after is not None else None
    if solver is not None:
        lines.append("%d move(s) changed the result" % turns if turns else "no move changed the result")
    return "\n".join(lines)


def read_records(source):
    """The Records of `source`: a records file (every record in it, oldest first) or one line.

    Raises ValueError with a clear message when nothing in it is a record.
    """
    if os.path.exists(source):
        with open(source, "rb") as f:
            found = [r for r in (parse(line) for line in f) if r is not None]
        if not found:
            raise ValueError("%s holds no game record" % source)
    else:
        record = parse(source)
        if record is None:
            raise ValueError("%r is neither a file nor a game record line "
                             "(NUMBER MODE FIRST LEVELS RESULT HINTS MOVES MARKS [SIZE])" % source)
        found = [record]
    from connect4.engine.board import Board, parse_size
    for record in found:
        try:
            Board(record.moves, *parse_size(record.size))
        except ValueError as e:
            raise ValueError("game %d: its moves are not a game: %s" % (record.number, e))
    return found
