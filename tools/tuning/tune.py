"""Tune the engine's evaluation weights on the midgame set, by measurement.

The score of a weight vector at a node budget is its accuracy on
tools/data/midgame.txt (made by tools/tuning/make_midgame_set.py): the share of
positions where `Searcher(weights=w).search(board, nodes=budget)` plays a move
whose exact score has the sign of the position's value (a won position stays
won, a drawn one is not lost).

Search: coordinate descent from the defaults at the --search budget, on the
training positions only (every --holdout-th position is held out): each
weight in turn is tried at a few multiplicative steps (and 0), and the best
try is kept if it gains at least --min-gain positions. Sweeps repeat until
one gains nothing or --sweeps is reached. Then the best few vectors met on
the way and the defaults are measured at every --final budget on all
positions, train and held-out apart, and the best at the last budget is the
result. Everything is deterministic (node budgets, no clock); --minutes only
stops the descent early as a safety net and is reported if it did.

Usage (from the repository root):
    python tools/tuning/tune.py [--search 2000] [--final 2000,20000] [--sweeps 2]
        [--workers 2] [--data tools/data/midgame.txt] [--out tools/data/tuning.txt]
    python tools/tuning/tune.py --measure 1,4,10,6,10,40,4,8,16 [--final 2000,20000]
    python tools/tuning/tune.py --match 1,4,10,6,10,40,4,8,16 --match <vector> [--games 100]

--match plays each vector against the depth-5 tutorial AI at the top level
(depth 42, 20000 nodes, no blunders) over the openings and seeds of `make
bench` (empty board + the 49 two-move openings, the engine first and
second); the tutorial's replies are cached per game, so vectors that play
the same moves share its (slow) thinking.
"""
import argparse
import datetime
import multiprocessing
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import host_sim  # noqa: F401,E402
from connect4.engine import core  # noqa: E402
from connect4.engine.board import Board  # noqa: E402
from connect4.engine.player import AIPlayer  # noqa: E402
from connect4.engine.search import Searcher  # noqa: E402
from tools import common  # noqa: E402
from tools.bench.tutorial_ai import TutorialAI  # noqa: E402
from tools.common import ROOT, TOP_LEVEL, sign  # noqa: E402

DATA = os.path.join(common.DATA, "midgame.txt")
OUT = os.path.join(common.DATA, "tuning.txt")
STEPS = (0.0, 0.5, 0.75, 1.33, 2.0)  # multiplicative tries per weight
MAX_WEIGHT = 128  # the eval is clamped to +-900: keep every weight modest
CHUNKS = 16  # tasks per measurement (load balance on a busy machine)

_positions = []  # (moves, value sign, per-column signs) in each worker


def load(path):
    out = []
    with open(path, encoding="ascii") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            moves, score, cols = line.split()
            signs = [None if s == "x" else sign(int(s)) for s in cols.split(",")]
            out.append((moves, sign(int(score)), signs))
    return out


def _init(path):
    global _positions
    _positions = load(path)


def _measure_chunk(job):
    weights, budget, indexes = job
    searcher = Searcher(weights=weights)
    good = 0
    for i in indexes:
        moves, value, signs = _positions[i]
        move = searcher.search(Board(moves), nodes=budget).move
        good += signs[move] == value
    return good


def _match_game(job):
    """One opening and side, every vector: list of 'W'/'D'/'L' for the engine."""
    g, vectors = job
    opening, first, seed = common.game(TOP_LEVEL, g)  # the games of `make bench`
    ours = 1 if first else 2
    replies = {}  # moves -> (column, tutorial rng state after it)
    out = []
    for vec in vectors:
        ai = AIPlayer(level=TOP_LEVEL, seed=seed, blunder=0, searcher=Searcher(weights=vec))
        tutorial = TutorialAI(depth=5, seed=seed)
        board = Board(opening)
        while not board.is_over():
            if board.turn == ours:
                board.play(ai.choose(board, depth=42, nodes=20000).move)
            else:
                key = board.moves_string()
                if key not in replies:
                    col = tutorial.choose(board)
                    replies[key] = (col, tutorial.rng.getstate())
                col, state = replies[key]
                tutorial.rng.setstate(state)
                board.play(col)
        out.append("D" if not board.winner else ("W" if board.winner == ours else "L"))
    return out


def match(vectors, games, workers, say):
    start = time.time()
    tallies = [{"W": 0, "D": 0, "L": 0} for _ in vectors]
    losses = [[] for _ in vectors]
    with multiprocessing.Pool(workers) as pool:
        jobs = [(g, vectors) for g in range(games)]
        for g, res in enumerate(pool.imap(_match_game, jobs, chunksize=1)):
            for k, r in enumerate(res):
                tallies[k][r] += 1
                if r == "L":
                    opening, first, _ = common.game(TOP_LEVEL, g)
                    losses[k].append("%s/%s" % (opening or "-", "first" if first else "second"))
    for vec, t, lost in zip(vectors, tallies, losses):
        say("%s vs tutorial AI (%d games): W %d  D %d  L %d   lost: %s"
            % (fmt(vec), games, t["W"], t["D"], t["L"], " ".join(lost) or "-"))
    say("match: %.0f s" % (time.time() - start))
    return tallies


class Meter:
    """Measures vectors with a pool; caches (vector, budget, subset) results."""

    def __init__(self, pool, positions, holdout):
        self.pool = pool
        self.n = len(positions)
        self.test = [i for i in range(self.n) if holdout and i % holdout == holdout - 1]
        tests = set(self.test)
        self.train = [i for i in range(self.n) if i not in tests]
        self.cache = {}
        self.seconds = 0.0
        self.measurements = 0

    def correct(self, weights, budget, subset):
        """Positions right (a count) in 'train' or 'test'."""
        key = (tuple(weights), budget, subset)
        if key not in self.cache:
            idx = self.train if subset == "train" else self.test
            start = time.perf_counter()
            jobs = [(tuple(weights), budget, idx[k::CHUNKS]) for k in range(CHUNKS)
                    if idx[k::CHUNKS]]
            self.cache[key] = sum(self.pool.map(_measure_chunk, jobs, chunksize=1))
            self.seconds += time.perf_counter() - start
            self.measurements += 1
        return self.cache[key]

    def size(self, subset):
        return len(self.train if subset == "train" else self.test)


def tries(value):
    """Candidate values for one weight: 0 and the multiplicative steps
    (a small weight also one and two above, where the steps stay put)."""
    out = set()
    for f in STEPS:
        out.add(int(round(value * f)))
    if value <= 2:
        out.update((value + 1, value + 2))
    return sorted(v for v in out if 0 <= v <= MAX_WEIGHT and v != value)


def fmt(w):
    return "(" + ", ".join(str(x) for x in w) + ")"


def pct(good, n):
    return 100.0 * good / n if n else 0.0


def descend(meter, start, budget, sweeps, min_gain, deadline, say):
    """Coordinate descent on the training positions; returns (best, tried, stopped)."""
    n = meter.size("train")
    current = list(start)
    cur = meter.correct(current, budget, "train")
    tried = [(tuple(current), cur)]
    say("%-6s %-16s %-40s %s" % ("sweep", "weight", "vector", "train@%d" % budget))
    say("%-6s %-16s %-40s %d/%d = %.1f%%" % ("0", "(start)", fmt(current), cur, n, pct(cur, n)))
    stopped = ""
    for sweep in range(1, sweeps + 1):
        gained = 0
        for i, name in enumerate(core.WEIGHT_NAMES):
            best_v, best_c = current[i], cur
            for v in tries(current[i]):
                if time.time() > deadline:
                    stopped = "time limit"
                    break
                trial = list(current)
                trial[i] = v
                c = meter.correct(trial, budget, "train")
                tried.append((tuple(trial), c))
                mark = ""
                if c >= best_c + (min_gain if best_v == current[i] else 1):
                    best_v, best_c = v, c
                    mark = " *"
                say("%-6d %-16s %-40s %d/%d = %.1f%%%s"
                    % (sweep, "%s=%d" % (name, v), fmt(trial), c, n, pct(c, n), mark))
            if best_v != current[i]:
                gained += best_c - cur
                current[i], cur = best_v, best_c
                say("       -> keep %s=%d: %s %.1f%%" % (name, best_v, fmt(current), pct(cur, n)))
            if stopped:
                break
        if stopped or not gained:
            break
    return tuple(current), tried, stopped


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--out", default=OUT)
    ap.add_argument("--search", type=int, default=2000, help="node budget of the descent")
    ap.add_argument("--final", default="2000,20000", help="budgets of the final comparison")
    ap.add_argument("--sweeps", type=int, default=2)
    ap.add_argument("--min-gain", type=int, default=3,
                    help="positions a change must gain to be kept (noise guard)")
    ap.add_argument("--holdout", type=int, default=3, help="hold out every Nth position (0: none)")
    ap.add_argument("--finalists", type=int, default=4, help="vectors measured at --final")
    ap.add_argument("--start", help="comma-separated start vector (default: the defaults)")
    ap.add_argument("--measure", help="only measure this comma-separated vector")
    ap.add_argument("--match", action="append",
                    help="play this vector against the tutorial AI (repeatable)")
    ap.add_argument("--games", type=int, default=100, help="games per --match vector")
    ap.add_argument("--record", action="store_true",
                    help="append the --match results to --out")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--minutes", type=float, default=18.0, help="stop the descent after this")
    args = ap.parse_args(argv)

    if args.match:
        vectors = [tuple(int(x) for x in v.split(",")) for v in args.match]
        say_match = common.Say()
        match(vectors, args.games, args.workers, say_match)
        if args.record:
            with open(args.out, "a", encoding="utf-8") as f:
                f.write("\n# match vs the tutorial AI, %s\n# command: python tools/tuning/tune.py %s\n"
                        % (datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
                           " ".join(argv if argv is not None else sys.argv[1:])))
                for line in say_match.lines:
                    f.write("# " + line + "\n")
        return 0

    positions = load(args.data)
    finals = [int(b) for b in args.final.split(",")]
    say = common.Say()

    t0 = time.time()
    defaults = tuple(core.DEFAULT_WEIGHTS)
    with multiprocessing.Pool(args.workers, initializer=_init, initargs=(args.data,)) as pool:
        meter = Meter(pool, positions, args.holdout)
        say("%d positions (%d train, %d held out) from %s"
            % (len(positions), meter.size("train"), meter.size("test"),
               os.path.relpath(args.data, ROOT)))
        if args.measure:
            vec = tuple(int(x) for x in args.measure.split(","))
            for b in finals:
                tr, te = meter.correct(vec, b, "train"), meter.correct(vec, b, "test")
                say("%s @%d: train %.1f%%  held-out %.1f%%  all %.1f%%"
                    % (fmt(vec), b, pct(tr, meter.size("train")), pct(te, meter.size("test")),
                       pct(tr + te, len(positions))))
            say("%.0f s" % (time.time() - t0))
            return 0
        start = tuple(int(x) for x in args.start.split(",")) if args.start else defaults
        best, tried, stopped = descend(meter, start, args.search, args.sweeps, args.min_gain,
                                       t0 + 60 * args.minutes, say)
        t_descent = time.time() - t0
        say()
        say("descent: %d vectors measured at %d nodes in %.0f s%s"
            % (len(tried), args.search, t_descent, " (stopped: %s)" % stopped if stopped else ""))

        # finalists: the descent's result, the best other vectors it met, the defaults
        ranked = sorted(set(tried), key=lambda t: -t[1])
        finalists = [best]
        for vec, _ in ranked:
            if len(finalists) >= args.finalists:
                break
            if vec not in finalists and vec != defaults:
                finalists.append(vec)
        finalists.append(defaults)
        say()
        header = "%-40s" % "vector"
        for b in finals:
            header += " | @%-5d train  held  all " % b
        say(header)
        results = {}
        for vec in finalists:
            row = "%-40s" % fmt(vec)
            for b in finals:
                tr, te = meter.correct(vec, b, "train"), meter.correct(vec, b, "test")
                results[vec, b] = (tr, te)
                row += " | %5.1f%% %5.1f%% %5.1f%%" % (
                    pct(tr, meter.size("train")), pct(te, meter.size("test")),
                    pct(tr + te, len(positions)))
            say(row)
        last = finals[-1]
        # the winner: most positions right at the last (target) budget, all positions,
        # then at the earlier budgets; the defaults win ties
        def key(vec):
            return (tuple(sum(results[vec, b]) for b in reversed(finals)), vec == defaults)
        winner = max(finalists, key=key)
        total = time.time() - t0
        say()
        say("best: %s  (defaults %s)" % (fmt(winner), fmt(defaults)))
        for b in finals:
            say("  @%d nodes: best %.1f%% vs defaults %.1f%% (all %d positions; held-out %.1f%% vs %.1f%%)"
                % (b, pct(sum(results[winner, b]), len(positions)),
                   pct(sum(results[defaults, b]), len(positions)), len(positions),
                   pct(results[winner, b][1], meter.size("test")),
                   pct(results[defaults, b][1], meter.size("test"))))
        say("total %.0f s (%d measurements, %.0f s in them)" % (total, meter.measurements,
                                                               meter.seconds))

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("# Evaluation weight tuning (tools/tuning/tune.py)\n")
        f.write("# date: %s\n" % datetime.datetime.now().strftime("%Y-%m-%d %H:%M"))
        f.write("# command: python tools/tuning/tune.py %s\n" % " ".join(argv if argv is not None
                                                                 else sys.argv[1:]))
        f.write("# weights: %s\n" % ", ".join(core.WEIGHT_NAMES))
        f.write("best = %s\n" % fmt(winner))
        f.write("defaults = %s\n" % fmt(defaults))
        for b in finals:
            f.write("accuracy@%d = best %.1f%%, defaults %.1f%%\n"
                    % (b, pct(sum(results[winner, b]), len(positions)),
                       pct(sum(results[defaults, b]), len(positions))))
        f.write("\n# log\n")
        for line in say.lines:
            f.write("# " + line + "\n" if line else "#\n")
    say("wrote %s" % os.path.relpath(args.out, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
