"""`make bench --only people`: the board against people-like opponents, judged move by move.

Why: the opening book made the top level unbeatable against a *perfect*
defender, but people err, and a won game given back after an error is what a
player at the board meets first (issue 19). Here the board plays as it does
on the board (the top level with its opening book) as first and as second
player against a population: the perfect player erring at 2, 5, 20 and 50%
(tools/bench/perfect.py), the levels 1-8 (level 8 with the book too), the
tutorial AI, the threat-aware AI and the random mover (tools/bench/ladder.py's
players). Every move of the board is judged by bitbully: the value it held
(win, draw, loss for the board) and the value of the move it played; a move
that lowers it is a drop, reported with its ply (discs on the board before
it). A game "kept" its value when it ended with at least the best value the
board held at any of its moves (a win as first player; a draw or a win,
once given, as second player).

Every game starts from the empty board and is seeded (SEED_BASE: seeds no
builder uses, tools/book/build.py's corrections draw from their own range).
Games are cached one JSON line each in build/bench/people/, under a
fingerprint of the book and the engine, so a stopped run resumes and a rerun
with the same book prints at once.

The board's engine, and the levels as opponents, run in CPython (the
firmware's own code, as the simulator runs it), or with --micropython PATH in
a MicroPython unix port running the board's engine_main.py with the book
beside it: the same moves node for node (tests/test_same_in_both_worlds.py),
about a hundred times faster.

Usage: python tools/bench/people.py [--games N] [--opponents A,B] [--jobs N]
                                    [--micropython PATH] [--book FILE]
"""
import argparse
import hashlib
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import host_sim  # noqa: E402,F401
from connect4.engine.board import Board  # noqa: E402
from connect4.engine.player import AIPlayer  # noqa: E402
from tools.bench.opening_book import BOOK, the_book  # noqa: E402
from tools.book import lookup_cost  # noqa: E402
from tools.common import CHIP_IPS, CHIP_IPS_WORDS, ROOT, TOP_LEVEL, Say, chip_nodes_per_second, sign  # noqa: E402

CACHE = os.path.join(ROOT, "build", "bench", "people")
ERRING = (2, 5, 20, 50)  # percent of random moves of the erring perfect players
OPPONENTS = tuple("perfect%d" % p for p in ERRING) + tuple(
    "L%d" % level for level in range(1, TOP_LEVEL + 1)) + ("tutorial", "threat", "random")
GAMES = 200  # per side per opponent (issue 19)
SEED_BASE = 7_000_000  # the bench's seeds: SEED_BASE + 10,000 x opponent + 2 x game + side
STOP_BOOK = "book"  # SearchResult.stopped of a book move
VALUE = {"W": 1, "D": 0, "L": -1}
GAME_FORMAT = 2  # bump when play() changes what it records: the cache then starts afresh


def label(name):
    if name.startswith("perfect"):
        return "perfect player erring %s%%" % name[7:]
    from tools.bench import ladder
    return ladder.label(name)


def seed_of(opponent, first, g, base=SEED_BASE):
    return base + 10_000 * OPPONENTS.index(opponent) + 2 * g + (0 if first else 1)


# ---------------------------------------------------------------- the engine, in CPython or the unix port

class InProcess:
    """The firmware's AIPlayer in this CPython (as the simulator runs it)."""

    def __init__(self, level, seed, book):
        self.ai = AIPlayer(level=level, seed=seed, book=the_book(book))

    def choose(self, board):
        """(0-based column, read from the book?, nodes searched)"""
        result = self.ai.choose(board)
        booked = result.stopped == STOP_BOOK
        return result.move, booked, 0 if booked else result.nodes

    def close(self):
        pass


_run_dirs = {}


def run_dir(book):
    """A directory laid out as the board's flash: engine_main.py and connect4/
    (links to firmware/), and book.bin (a link to `book`, if any)."""
    if book not in _run_dirs:
        d = tempfile.mkdtemp(prefix="people-")
        for name in ("engine_main.py", "connect4"):
            os.symlink(os.path.join(ROOT, "firmware", name), os.path.join(d, name))
        if book:
            os.symlink(os.path.abspath(book), os.path.join(d, "book.bin"))
        _run_dirs[book] = d
    return _run_dirs[book]


class UnixPort:
    """The board's engine_main.py in a MicroPython unix port, through its line
    protocol: a new process a game, so its table starts empty as an AIPlayer's."""

    def __init__(self, level, seed, book, micropython):
        # the binary's path as given, from here: the process runs in the book's folder
        self.proc = subprocess.Popen([os.path.abspath(micropython), "engine_main.py"], cwd=run_dir(book),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self._send("level %d\nseed %d\n" % (level, seed))

    def _send(self, text):
        self.proc.stdin.write(text)
        self.proc.stdin.flush()

    def choose(self, board):
        """(0-based column, read from the book?, nodes searched: the protocol's
        `info nodes N` line, the whole move's count)"""
        self._send("position %s\ngo\n" % board.moves_string())
        booked = False
        nodes = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the MicroPython engine ended: exit %s" % self.proc.wait())
            if line.startswith("bestmove "):
                if nodes is None and not booked:
                    raise RuntimeError("the MicroPython engine gave no `info nodes` line")
                return int(line.split()[1]) - 1, booked, nodes or 0
            if line.startswith("error"):
                raise RuntimeError("the MicroPython engine said %r" % line)
            booked = booked or line.startswith("info book")
            if line.startswith("info nodes "):
                nodes = int(line.split()[2])

    def close(self):
        try:
            self._send("quit\n")
        except (BrokenPipeError, OSError):
            pass
        self.proc.stdin.close()
        self.proc.stdout.close()
        self.proc.wait()


def engine(level, seed, book, micropython=None):
    return UnixPort(level, seed, book, micropython) if micropython else InProcess(level, seed, book)


def opponent(name, seed, book, micropython=None):
    """An object with choose(board) -> (0-based column, _) for opponent `name`."""
    if name.startswith("L"):
        return engine(int(name[1:]), seed, book, micropython)
    if name.startswith("perfect"):
        from tools.bench.perfect import PerfectPlayer
        player = PerfectPlayer(seed, error=int(name[7:]))
        return _Plain(lambda board: player.choose(board.moves_string()))
    from tools.bench import ladder
    return _Plain(ladder.make_player(name, seed))


class _Plain:
    def __init__(self, choose):
        self._choose = choose

    def choose(self, board):
        return self._choose(board), False, 0

    def close(self):
        pass


# ---------------------------------------------------------------- one game

def play(job):
    """One game of the board (the top level with `book`) against `opp`:
    a dict (see the module docstring) for the cache and the table."""
    opp, first, seed, book, micropython = job
    from tools.bench import perfect
    judge = perfect.shared()
    board_player = engine(TOP_LEVEL, seed, book, micropython)
    other = opponent(opp, seed + 1, book, micropython)
    board = Board()
    ours = 1 if first else 2
    held, drops, booked, searched = -1, [], 0, []
    try:
        while not board.is_over():
            if board.turn == ours:
                moves = board.moves_string()
                col, from_book, nodes = board_player.choose(board)
                scores = judge.analyze(moves)
                best = sign(max(s for s in scores if s is not None))
                held = max(held, best)
                if sign(scores[col]) < best:
                    drops.append(len(moves))
                booked += from_book
                if not from_book:
                    searched.append(nodes)
            else:
                col = other.choose(board)[0]
            board.play(col)
    finally:
        board_player.close()
        other.close()
    result = "D" if not board.winner else ("W" if board.winner == ours else "L")
    return {"opp": opp, "first": first, "seed": seed, "result": result, "held": held,
            "drops": drops, "book": booked, "searched": searched, "moves": board.moves_string()}


# ---------------------------------------------------------------- the cache

def fingerprint(book):
    """What the games depend on: the book's bytes, the engine's and the opponents' code."""
    digest = hashlib.sha1(b"%d" % GAME_FORMAT)
    if book and os.path.exists(book):
        with open(book, "rb") as f:
            digest.update(f.read())
    for folder in (os.path.join(ROOT, "firmware", "connect4", "engine"),):
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py"):
                with open(os.path.join(folder, name), "rb") as f:
                    digest.update(f.read())
    for name in ("perfect.py", "ladder.py", "tutorial_ai.py", "threat_ai.py"):
        with open(os.path.join(ROOT, "tools", "bench", name), "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()[:16]


def load(path):
    """{(opp, first, seed): game} of a cache file; a line cut short is left out."""
    games = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.endswith("\n"):
                    try:
                        g = json.loads(line)
                    except ValueError:
                        continue
                    games[(g["opp"], g["first"], g["seed"])] = g
    return games


def run(games, opponents=OPPONENTS, jobs=1, micropython=None, book=BOOK, say=print,
        cache=CACHE, base=SEED_BASE, sides=(True, False)):
    """Play (or read from the cache) `games` games a side against each of
    `opponents`, the board first (True) and second (False) as `sides` says;
    returns {(opp, first): [game dicts]}."""
    os.makedirs(cache, exist_ok=True)
    path = os.path.join(cache, "%s.jsonl" % fingerprint(book))
    done = load(path)
    wanted = [(opp, first, seed_of(opp, first, g, base))
              for opp in opponents for first in sides for g in range(games)]
    todo = [(opp, first, seed, book, micropython) for opp, first, seed in wanted
            if (opp, first, seed) not in done]
    progress = getattr(say, "progress", say)  # not kept in the page
    if todo:
        progress("people: %d games cached, %d to play (%s, %d process%s)" % (
            len(wanted) - len(todo), len(todo), "MicroPython unix port" if micropython else "CPython",
            jobs, "" if jobs == 1 else "es"))
        started = time.time()
        with open(path, "a") as out:
            if jobs == 1:
                rows = map(play, todo)
            else:
                pool = multiprocessing.Pool(jobs)
                rows = pool.imap_unordered(play, todo, chunksize=1)
            for n, g in enumerate(rows, 1):
                done[(g["opp"], g["first"], g["seed"])] = g
                out.write(json.dumps(g, sort_keys=True) + "\n")
                out.flush()
                if n % 100 == 0:
                    progress("people: %d of %d games, %.0f s" % (n, len(todo), time.time() - started))
            if jobs != 1:
                pool.close()
                pool.join()
    by = {}
    for opp, first, seed in wanted:
        by.setdefault((opp, first), []).append(done[(opp, first, seed)])
    return by


# ---------------------------------------------------------------- the table

def tally(rows):
    """(W, D, L, given, kept, clean, drop plies, book moves, nodes of each searched move) of
    games. given: games where the board held a draw or a win at one of its
    moves; kept: of those, the games that ended with at least the best value
    it held; clean: of those, the games without a single drop."""
    w = sum(g["result"] == "W" for g in rows)
    d = sum(g["result"] == "D" for g in rows)
    given = [g for g in rows if g["held"] >= 0]
    kept = sum(VALUE[g["result"]] >= g["held"] for g in given)
    clean = sum(not g["drops"] for g in given)
    drops = sorted(p for g in rows for p in g["drops"])
    return (w, d, len(rows) - w - d, len(given), kept, clean, drops,
            sum(g["book"] for g in rows), [n for g in rows for n in g["searched"]])


def seconds(nodes, rate):
    """'mean / max' seconds on the chip estimate of searches of `nodes` nodes."""
    if not nodes:
        return "-"
    return "%.2f / %.2f" % (sum(nodes) / len(nodes) / rate, max(nodes) / rate)


def plies(drops):
    """'6, 8 x3, 14' of a sorted list of drop plies."""
    if not drops:
        return "none"
    out = []
    for p in sorted(set(drops)):
        k = drops.count(p)
        out.append("%d" % p if k == 1 else "%d x%d" % (p, k))
    return ", ".join(out)


def report(say, by, games, command):
    say("### Against people: the board (level %d with its book) as first and second player" % TOP_LEVEL)
    say()
    rate = chip_nodes_per_second()
    say("| opponent | as | W-D-L | book / searched moves | searched: chip s mean / max | held a %s | "
        "kept it | without a drop | drops at ply |" % "win (1st) or draw/win (2nd)")
    say("|---|---|---:|---:|---:|---:|---:|---:|---|")
    every = []
    totals = {True: [0, 0, 0], False: [0, 0, 0]}
    share = lambda k, n: "%d (%.1f%%)" % (k, 100.0 * k / n) if n else "-"  # noqa: E731
    for (opp, first), rows in by.items():
        w, d, lost, given, kept, clean, drops, booked, searched = tally(rows)
        for i, n in enumerate((given, kept, clean)):
            totals[first][i] += n
        every += searched
        say("| %s | %s | %d-%d-%d | %d / %d | %s | %d | %s | %s | %s |" % (
            label(opp), "first" if first else "second", w, d, lost, booked, len(searched),
            seconds(searched, rate), given, share(kept, given), share(clean, given), plies(drops)))
    say()
    lookup, _ = lookup_cost.recorded()
    say("Time a move on the chip estimate (nodes x tools/data/chip.txt's instructions per node "
        "at %s, %d nodes/s): searched moves %s s mean / max over all %d; "
        "a book move %s." % (CHIP_IPS_WORDS, rate, seconds(every, rate), len(every),
                             "%.2f ms (tools/data/book.txt's lookup, plus the flash reads)"
                             % (lookup * 1000.0 / CHIP_IPS) if lookup else "not recorded"))
    say()
    for first in (True, False):
        given, kept, clean = totals[first]
        if given:
            say("As %s player: kept in %d of %d games (%.2f%%), without a drop in %d (%.2f%%)." % (
                "first" if first else "second", kept, given, 100.0 * kept / given,
                clean, 100.0 * clean / given))
    say()
    say("%d games a side against each opponent, from the empty board, seeds %d + 10,000 x opponent "
        "+ 2 x game + side; every move of the board judged by bitbully; a drop: a move of the board "
        "that lowered the value it held (its ply: discs on the board before it); kept: the game "
        "ended with at least the best value the board held (tools/bench/people.py; `%s`)."
        % (games, SEED_BASE, command))
    say()


def opponents_of(text, parser):
    """The opponents an --opponents value names (every one for none); parser.error on an
    unknown one."""
    if not text:
        return OPPONENTS
    opponents = tuple(text.split(","))
    bad = [o for o in opponents if o not in OPPONENTS]
    if bad:
        parser.error("unknown opponents: %s" % ",".join(bad))
    return opponents


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=GAMES, help="games a side per opponent (default %d)" % GAMES)
    p.add_argument("--opponents", help="comma-separated, of: " + ",".join(OPPONENTS))
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--micropython", help="a MicroPython unix port to run the engine in (faster)")
    p.add_argument("--book", default=BOOK, help="the book file (default firmware/book.bin)")
    args = p.parse_args(argv)
    opponents = opponents_of(args.opponents, p)
    if args.games < 1 or args.jobs < 1:
        p.error("--games and --jobs must be at least 1")
    started = time.time()
    say = Say()
    by = run(args.games, opponents, args.jobs, args.micropython, args.book, say)
    given = sys.argv[1:] if argv is None else argv
    report(say, by, args.games, "python tools/bench/people.py " + " ".join(given))
    say("took %d s" % (time.time() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
