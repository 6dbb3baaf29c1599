"""`make bench --only sizes`: the top level on every board size, 4x4 to 8x7.

For each size:
  - the top level's time per searched move on the chip estimate (nodes x that
    size's instructions per node / tools.common.CHIP_IPS; the figures per size
    counted on the emulated chip, recorded in tools/data/chip.txt by
    tools/chip/speed.py), mean and max,
    in games against the tutorial AI adapted to the size (tools/bench/tutorial_ai.py),
    from the empty board and every one-move opening, the engine first and second;
  - those games' results;
  - on the solved sizes (20 cells or fewer), the proof that the top level
    plays perfectly: every move it makes, in those games and in games against
    a perfect player erring 20% of the time, checked against the brute-force
    solver (tools/bench/brute.py): does it keep the position's game value;
  - John Tromp's published value of the empty board (tests/test_sizes.py),
    and the engine's own proof of it where it takes seconds (28 cells or fewer).
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import host_sim  # noqa: E402,F401
from connect4.engine import core, levels  # noqa: E402
from connect4.engine.board import Board  # noqa: E402
from connect4.engine.player import AIPlayer  # noqa: E402
from connect4.engine.rng import Rng  # noqa: E402
from connect4.engine.search import Searcher  # noqa: E402
from tools.bench.brute import BruteSolver  # noqa: E402
from tools.bench.tutorial_ai import TutorialAI  # noqa: E402
from tools.common import CHIP_IPS, TOP_LEVEL as TOP, sign  # noqa: E402

SOLVED_CELLS = 20  # the top level proves every move on boards this small (within its budget)
PROOF_CELLS = 28  # the engine proves the empty board's value here, in seconds
ERRING = 20  # percent of random moves of the erring perfect player on the solved sizes
# Tromp's table (https://tromp.github.io/c4/c4.html): 1 first player wins, 0 draw, -1 second
TROMP = {
    (4, 4): 0, (5, 4): 0, (6, 4): -1, (7, 4): 0, (8, 4): -1,
    (4, 5): 0, (5, 5): 0, (6, 5): 0, (7, 5): 0, (8, 5): 1,
    (4, 6): 0, (5, 6): 0, (6, 6): -1, (7, 6): 1, (8, 6): -1,
    (4, 7): 0, (5, 7): 0, (6, 7): 1, (7, 7): 0, (8, 7): 1,
}
SIZES = sorted(TROMP, key=lambda s: (s[0] * s[1], s))
_solvers = {}  # one brute-force solver a size, per worker process


def solver(cols, rows):
    if (cols, rows) not in _solvers:
        _solvers[(cols, rows)] = BruteSolver(cols, rows)
    return _solvers[(cols, rows)]


def openings(cols):
    """The empty board and every one-move opening."""
    return [""] + [str(c) for c in range(1, cols + 1)]


def play(args):
    """One game of the top level on a size: (outcome 'W'/'D'/'L', nodes per searched
    move, moves checked, moves that kept the game value). The opponent is the
    tutorial AI, or (opponent "perfect") the brute-force player erring ERRING%."""
    cols, rows, opponent, opening, engine_first, seed = args
    book = None
    if (cols, rows) == (7, 6):
        from tools.bench.opening_book import the_book
        book = the_book()  # as the board has it: the book on 7x6
    ai = AIPlayer(level=TOP, seed=seed, book=book)
    rng = Rng(seed)
    tutorial = TutorialAI(seed=seed)
    board = Board(opening, cols, rows)
    ours = 1 if engine_first else 2
    judge = solver(cols, rows) if cols * rows <= SOLVED_CELLS else None
    nodes, checked, kept = [], 0, 0
    while not board.is_over():
        if board.turn == ours:
            result = ai.choose(board)
            if result.stopped != "book":
                nodes.append(result.nodes)
            if judge is not None:
                values = judge.move_values(board.moves_string())
                checked += 1
                kept += sign(values[result.move]) == sign(max(values.values()))
            board.play(result.move)
        elif opponent == "perfect":
            moves = board.legal_moves()
            if rng.chance(ERRING):
                board.play(rng.choice(moves))
            else:
                values = judge.move_values(board.moves_string())
                best = max(values.values())
                board.play(rng.choice([c for c in moves if values[c] == best]))
        else:
            board.play(tutorial.choose(board))
    outcome = "D" if not board.winner else ("W" if board.winner == ours else "L")
    return outcome, nodes, checked, kept


def empty_board_value(size):
    """(the engine's proven value of the empty board, seconds), or None past PROOF_CELLS."""
    cols, rows = size
    if cols * rows > PROOF_CELLS:
        return None
    started = time.time()
    s = Searcher(tt_entries=65536)
    board = Board("", cols, rows)
    h = core.load_position(s.arena, board.cells, board.tops, board.count)
    core.prepare(s.arena, s.tt_entries, 0, 0xFFFF)
    return sign(core.search(s.arena, board.discs, -1, 1, h)), time.time() - started


def report(pool, say, quick, ipn_of, source):
    """The sizes table; `ipn_of(size)` gives (instructions per node, "measured"/"recorded")."""
    games = 1 if quick else 2  # games a side per opening
    perfect_games = 4 if quick else 20  # a side, against the erring perfect player, on solved sizes
    jobs, where = [], []
    for cols, rows in SIZES:
        for g, opening in enumerate(openings(cols)):
            for k in range(2 * games):
                jobs.append((cols, rows, "tutorial", opening, k % 2 == 0, 1000 * cols + 100 * rows + 10 * g + k))
                where.append(((cols, rows), "tutorial"))
        if cols * rows <= SOLVED_CELLS:
            for k in range(2 * perfect_games):
                jobs.append((cols, rows, "perfect", "", k % 2 == 0, 5000 + k))
                where.append(((cols, rows), "perfect"))
    rows_out = pool.map(play, jobs, chunksize=1)
    proofs = pool.map(empty_board_value, SIZES, chunksize=1)
    by = {}
    for (size, opponent), row in zip(where, rows_out):
        by.setdefault((size, opponent), []).append(row)
    say("### Board sizes (top level %d; against the tutorial AI adapted to the size)" % TOP)
    say()
    say("| size | cells | node budget | mean nodes/searched move | est. chip s/move (mean / max) "
        "| vs tutorial AI W-D-L | moves proven best (of checked) | vs perfect erring %d%% W-D-L "
        "| Tromp's value | engine's proof (s) |" % ERRING)
    say("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    worst_mean = worst_max = 0.0
    for size, proof in zip(SIZES, proofs):
        cols, rows = size
        ipn = ipn_of(size)[0]
        tut = by[(size, "tutorial")]
        perf = by.get((size, "perfect"), [])
        nodes = [n for row in tut + perf for n in row[1]]
        mean = sum(nodes) / max(len(nodes), 1)
        peak = max(nodes) if nodes else 0
        ms_mean, ms_max = mean * ipn / CHIP_IPS, peak * ipn / CHIP_IPS
        worst_mean, worst_max = max(worst_mean, ms_mean), max(worst_max, ms_max)
        checked = sum(row[2] for row in tut + perf)
        kept = sum(row[3] for row in tut + perf)
        tally = lambda rows_: "%d-%d-%d" % tuple(sum(r[0] == x for r in rows_) for x in "WDL")  # noqa: E731
        value = {1: "first wins", 0: "draw", -1: "second wins"}
        say("| %dx%d | %d | %d | %d | %.2f / %.2f | %s | %s | %s | %s | %s |" % (
            cols, rows, cols * rows, levels.nodes(TOP, cols, rows), mean, ms_mean, ms_max, tally(tut),
            "%d of %d" % (kept, checked) if checked else "-", tally(perf) if perf else "-",
            value[TROMP[size]],
            "-" if proof is None else "%s%s (%.1f)" % (value[proof[0]], "" if proof[0] == TROMP[size]
                                                      else " DIFFERS", proof[1])))
    say()
    say("Largest mean %.2f s, largest max %.2f s a move (the limits: 2 s mean, 3 s max). "
        "Games: %d a side from the empty board and each one-move opening against the "
        "tutorial AI; on the sizes of %d cells or fewer also %d a side against a perfect player "
        "(tools/bench/brute.py) erring %d%% of the time, and every move of the top level there checked "
        "against that brute-force solver (\"proven best\": it keeps the position's game value). The "
        "7x6 games use the opening book, as the board does; \"nodes per searched move\" leaves book "
        "moves out. Instructions per node by size: %s. Tromp's values: https://tromp.github.io/c4/c4.html; "
        "the engine's proof: its core searched to the end with the window (-1, 1) on CPython."
        % (worst_mean, worst_max, games, SOLVED_CELLS, perfect_games, ERRING,
           ", ".join("%dx%d %d" % (s[0], s[1], ipn_of(s)[0]) for s in SIZES) + " (" + source + ")"))
    say()
