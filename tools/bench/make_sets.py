"""Build the position sets of `make bench`: positions labelled by the judge.

Why: the top level's accuracy needs positions like those of real games, in
three phases (8-11, 12-19 and 20-30 discs), each with its exact value.
Pons' sets are all late positions; these come from games between varied
players: AI levels 1-6 (with their own blunders), the tutorial AI, and
perfect players erring 0%, 20% or 50% of the time (tools/bench/perfect.py),
two players drawn at random for each game, seeded by the game's number.

From each game, up to --per-game plies per set are picked at random; a
position is kept (once) when the game is not over there and the choice
matters: some legal move gives a worse game value (win / draw / loss) than
the best one. Positions where every move keeps the value would only pad the
figure. Games are played in order until every set has --count positions;
each set takes its first --count in game order, then is sorted, so the same
arguments give the same files whatever the number of workers.

Output, per set, tools/data/positions_<lo>-<hi>.txt: a comment header, then
one position a line, `<moves> <score>` (1-based column digits; the exact
score for the side to move, Pons' convention, as in his test sets and
tools/bench/solver.py's read_benchmark).

Usage (from the repository root):
    python tools/bench/make_sets.py [--count 600] [--per-game 2] [--workers 2] [--out-dir tools/data]
"""
import argparse
import multiprocessing
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import host_sim  # noqa: E402,F401
from connect4.engine.board import Board  # noqa: E402
from connect4.engine.player import AIPlayer  # noqa: E402
from tools.bench import perfect  # noqa: E402
from tools.bench.tutorial_ai import TutorialAI  # noqa: E402
from tools.common import DATA, sign  # noqa: E402

SETS = ((8, 11), (12, 19), (20, 30))
PLAYERS = [("level", k) for k in range(1, 7)] + [("tutorial", 5)] + [
    ("perfect", e) for e in (0, 20, 50)]
BATCH = 40  # games per round of the pool


def set_path(lo, hi, folder=DATA):
    return os.path.join(folder, "positions_%02d-%02d.txt" % (lo, hi))


def make_player(kind, arg, seed):
    """An object with choose(board) -> 0-based column."""
    if kind == "level":
        ai = AIPlayer(level=arg, seed=seed)
        return lambda board: ai.choose(board).move
    if kind == "tutorial":
        return TutorialAI(depth=arg, seed=seed).choose
    player = perfect.PerfectPlayer(seed, error=arg)
    return lambda board: player.choose(board.moves_string())


def choice_matters(scores):
    signs = [sign(s) for s in scores if s is not None]
    return min(signs) < max(signs)


def play_game(args):
    """Game number g: [(set index, moves, score)] of its kept positions."""
    g, per_game = args
    rng = random.Random(g)
    sides = [PLAYERS[rng.randrange(len(PLAYERS))] for _ in range(2)]
    players = [make_player(kind, arg, 7919 * g + i) for i, (kind, arg) in enumerate(sides)]
    board = Board()
    history = [""]
    while not board.is_over():
        board.play(players[(len(history) - 1) % 2](board))
        history.append(board.moves_string())
    judge = perfect.shared()
    kept = []
    for index, (lo, hi) in enumerate(SETS):
        plies = list(range(lo, min(hi, len(history) - 2) + 1))  # the last one is over
        for n in sorted(rng.sample(plies, min(per_game, len(plies)))):
            scores = judge.analyze(history[n])
            if choice_matters(scores):
                kept.append((index, history[n], max(s for s in scores if s is not None)))
    return kept


def build(count, per_game, workers, say=print):
    """The sets as lists of (moves, score), each of `count` positions."""
    found = [dict() for _ in SETS]  # moves -> score, in game order
    g = 0
    with multiprocessing.Pool(workers) as pool:
        while min(len(f) for f in found) < count:
            for kept in pool.map(play_game, [(g + i, per_game) for i in range(BATCH)], chunksize=1):
                for index, moves, score in kept:
                    found[index].setdefault(moves, score)
            g += BATCH
            say("games %d, positions %s" % (g, " ".join(str(len(f)) for f in found)))
    return g, [sorted(list(f.items())[:count]) for f in found]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=600, help="positions per set")
    parser.add_argument("--per-game", type=int, default=2, help="plies picked per set from a game")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out-dir", default=DATA)
    args = parser.parse_args(argv)
    if args.count < 1 or args.per_game < 1 or args.workers < 1:
        parser.error("--count, --per-game and --workers must be at least 1")
    started = time.time()
    games, sets = build(args.count, args.per_game, args.workers)
    for (lo, hi), rows in zip(SETS, sets):
        path = set_path(lo, hi, args.out_dir)
        with open(path + ".tmp", "w") as f:
            f.write("# %d positions with %d-%d discs from %d games between varied players\n"
                    "# (tools/bench/make_sets.py --count %d --per-game %d), labelled by bitbully:\n"
                    "# <moves> <exact score for the side to move>\n" % (
                        len(rows), lo, hi, games, args.count, args.per_game))
            for moves, score in rows:
                f.write("%s %d\n" % (moves, score))
        os.replace(path + ".tmp", path)
        print("wrote %s" % os.path.relpath(path))
    print("took %d s" % (time.time() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
