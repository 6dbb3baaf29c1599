"""Build a set of midgame positions with solver-exact scores for every move.

Why: the engine loses to the depth-5 tutorial AI through midgame moves (plies
12-18) that turn a draw or a win into a loss. Tuning its evaluation weights
needs positions where that can happen, each with the truth about every move.

Positions come from games played on the host: the engine (node budgets
500..20000, varied tie-break seeds) against the tutorial AI on both sides, and
engine self-play with a budget per side, each from a random 2-3 ply opening.
Each game is played to ply 20 (or its end); a few of its positions at plies
12..20 are analysed with tools/bench/solver.py. A position is kept when

* the side to move can neither win at once nor is forced to block (those the
  engine never gets wrong, they carry no signal), and
* the choice matters: at least one move keeps the sign of the game value
  (win / draw) and at least one move makes it worse,
* and the solver finished within a node limit (deterministic, unlike a
  clock: a few seconds of CPython at the default limit). A cheap sign-only
  search (window -1..1) rejects lost positions and those where every move
  keeps the value before the exact per-move scores are computed.

Output, one position a line (sorted, duplicates removed), with a comment
header:   <moves> <score> <s1,s2,...,s7>
moves are 1-based column digits, score the exact value for the side to move
and s1..s7 each column's score for the player moving there (Pons' convention,
positive = the side to move wins), `x` for a full column.

The same --seed and --games give the same file on every machine, whatever
the number of worker processes.

Usage (from the repository root):
    python tools/tuning/make_midgame_set.py [--seed 1] [--games 220] [--workers 2]
        [--node-limit 800000] [--per-game 5] [--out tools/data/midgame.txt]
"""
import argparse
import multiprocessing
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import host_sim  # noqa: F401,E402  (micropython stubs, firmware on sys.path)
from connect4.engine.board import Board  # noqa: E402
from connect4.engine.rng import Rng  # noqa: E402
from connect4.engine.search import Searcher  # noqa: E402
from tools.bench.solver import NodeLimitReached, Solver  # noqa: E402
from tools.bench.tutorial_ai import TutorialAI  # noqa: E402
from tools.common import DATA, sign  # noqa: E402

BUDGETS = (500, 1000, 2000, 5000, 10000, 20000)
FIRST_PLY, LAST_PLY = 12, 20
DEFAULT_OUT = os.path.join(DATA, "midgame.txt")


def choice_matters(scores):
    """At least one move keeps the value's sign and at least one worsens it."""
    signs = [sign(s) for s in scores if s is not None]
    best = max(signs)
    return min(signs) < best


def trivial(board):
    """The side to move wins at once or must block: no decision to learn."""
    legal = board.legal_moves()
    opponent = 3 - board.turn
    return any(board.is_winning_move(c) or board.is_winning_move(c, opponent) for c in legal)


def game_spec(seed, index):
    """The players and opening of game `index`: deterministic in (seed, index)."""
    r = random.Random("%d/%d" % (seed, index))
    kind = r.choice(("tutorial", "tutorial", "self"))
    opening = "".join(str(r.randint(1, 7)) for _ in range(r.choice((2, 3))))
    spec = {"index": index, "opening": opening, "kind": kind,
            "game_seed": r.randrange(1, 1 << 30), "pick_seed": r.randrange(1 << 30)}
    if kind == "tutorial":
        spec["engine_side"] = r.choice((1, 2))
        spec["budget"] = r.choice(BUDGETS)
    else:
        spec["budgets"] = (r.choice(BUDGETS), r.choice(BUDGETS))
    return spec


def play_game(spec):
    """Moves string of the game to LAST_PLY (or its end)."""
    board = Board(spec["opening"])
    searcher = Searcher()
    rng = Rng(spec["game_seed"])
    tutorial = TutorialAI(depth=5, seed=spec["game_seed"])
    while not board.is_over() and board.count < LAST_PLY:
        side = board.turn
        if spec["kind"] == "tutorial":
            if side == spec["engine_side"]:
                col = searcher.search(board, nodes=spec["budget"], rng=rng).move
            else:
                col = tutorial.choose(board)
        else:
            col = searcher.search(board, nodes=spec["budgets"][side - 1], rng=rng).move
        board.play(col)
    return board.moves_string()


def work(job):
    seed, index, node_limit, per_game = job
    spec = game_spec(seed, index)
    start = time.perf_counter()
    try:
        moves = play_game(spec)
    except ValueError:  # an opening that ended the game (cannot at 2-3 plies)
        return index, [], 0, 0, time.perf_counter() - start
    candidates = []
    for ply in range(FIRST_PLY, min(LAST_PLY, len(moves)) + 1):
        board = Board(moves[:ply])
        if board.is_over() or trivial(board):
            continue
        candidates.append(moves[:ply])
    r = random.Random(spec["pick_seed"])
    picked = sorted(r.sample(candidates, min(per_game, len(candidates))), key=len, reverse=True)
    solver = Solver(node_limit=node_limit)
    kept, gave_up, tried = [], 0, 0
    for pos in picked:  # deepest first: its table entries help the shallower ones
        tried += 1
        solver.nodes = 0
        try:
            # cheap filter first: a lost position, or one where every move
            # keeps the value, needs no exact scores
            if solver.sign(pos) < 0 or not choice_matters(solver.move_signs(pos)):
                continue
            scores = solver.analyze(pos)
        except NodeLimitReached:
            gave_up += 1
            continue
        if choice_matters(scores):  # always, given the filter; kept as a check
            kept.append((pos, max(s for s in scores if s is not None), scores))
    return index, kept, tried, gave_up, time.perf_counter() - start


def format_line(pos, score, scores):
    return "%s %d %s" % (pos, score, ",".join("x" if s is None else str(s) for s in scores))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=220)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--node-limit", type=int, default=800000,
                    help="solver nodes per position before giving up (a few s)")
    ap.add_argument("--per-game", type=int, default=5, help="positions analysed per game")
    ap.add_argument("--out", default=DEFAULT_OUT)
    args = ap.parse_args(argv)

    jobs = [(args.seed, i, args.node_limit, args.per_game) for i in range(args.games)]
    start = time.perf_counter()
    found = {}
    tried = gave_up = 0
    with multiprocessing.Pool(args.workers, maxtasksperchild=20) as pool:
        for done, (index, kept, t, g, secs) in enumerate(
                pool.imap_unordered(work, jobs, chunksize=1), 1):
            tried += t
            gave_up += g
            for pos, score, scores in kept:
                found[pos] = (score, scores)
            if done % 20 == 0 or done == len(jobs):
                print("games %d/%d  analysed %d  gave up %d  kept %d  %.0f s"
                      % (done, len(jobs), tried, gave_up, len(found),
                         time.perf_counter() - start), flush=True)
    elapsed = time.perf_counter() - start
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="ascii") as f:
        f.write("# midgame positions, plies %d-%d, where the choice matters\n"
                % (FIRST_PLY, LAST_PLY))
        f.write("# made by: python tools/tuning/make_midgame_set.py --seed %d --games %d "
                "--node-limit %d --per-game %d\n"
                % (args.seed, args.games, args.node_limit, args.per_game))
        f.write("# %d positions from %d analysed (%d gave up); "
                "format: <moves> <score> <s1,...,s7> (x = full)\n"
                % (len(found), tried, gave_up))
        for pos in sorted(found, key=lambda p: (len(p), p)):
            score, scores = found[pos]
            f.write(format_line(pos, score, scores) + "\n")
    print("wrote %d positions to %s in %.0f s" % (len(found), args.out, elapsed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
