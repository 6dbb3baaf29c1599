"""Where the board leaves its first-player book: store the solver's move wherever its search would not win.

Why (issue 19): the first-player tree (build.py) follows the defender's
every reply up to ply 14 and only its best replies beyond, so a person who
errs later takes the board out of its book. There the board meets the
position cold: every earlier move of its game was the book's, so its
transposition table is empty and its search depends on the position and
on the PRNG that breaks ties at the root, nothing else. This replays that
search on every such exit and keeps the book's promise where it fails.

The exits: for each first-player record of build/book/entries.txt, the
board's book move, then every defender reply whose position the book does
not hold (about 340,000 positions, mostly at 16-22 discs). Each is searched
at the top level's budget by tools/bench/held_search.py in a MicroPython
unix port, once for each of --seeds PRNG seeds (the board's PRNG is in an
arbitrary state when a game leaves the book), and every move the search
plays is judged by bitbully. One move later (--replies seeds): after the
search's move at each exit, every reply of the defender, searched from the
table and PRNG state the exit's search left (tools/bench/held_search.py
with `replies`), as in the game. Wherever a move does not win, the position goes into
tools/data/book_exits.txt, and build.py stores the fastest win there, as it
does for the corrections. Then the book is built again.

A rerun keeps the positions of the file it replaces (kept_positions): a
search that failed there once, with another engine or seed, is near its
edge, and the seeds are not the game's own PRNG state. On 2026-11-29 a rerun
that dropped them lost the people bench a first-player position its 8 seeds
all won (docs/ai.md); the book's move there costs 8 bytes.

Approximations, said here so that nobody relies on them: a position reached
through a forced move of the board (an immediate win, a single threat to
block: not in the book, searched with a small budget that leaves entries in
the table) is searched cold all the same; the replies are searched with
fewer seeds than the exits, and nothing is replayed two moves after an exit.

Deterministic and cached: the search's answers are kept in build/book/exits/
by the engine's fingerprint, the seed and the positions, so a rerun only
judges. The file records the fingerprint; build.py says when the engine has
changed since (the exits are then stale: run this again).

Usage: python tools/book/exits.py [--micropython PATH] [--seeds N] [--jobs N] [build.py options]
"""
import argparse
import hashlib
import multiprocessing
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import host_sim  # noqa: E402,F401
from connect4.engine import levels  # noqa: E402
from connect4.engine.board import Board  # noqa: E402
from tools.bench import held  # noqa: E402
from tools.bench.perfect import shared  # noqa: E402
from tools.book import build  # noqa: E402
from tools import common  # noqa: E402
from tools.common import ROOT, TOP_LEVEL  # noqa: E402

CACHE = os.path.join(ROOT, "build", "book", "exits")
SEEDS = 8
REPLY_SEEDS = 1


def held_positions(entries_path=build.ENTRIES, exits=True):
    """The keys of the book's records (a game there takes the book's move);
    exits=False leaves out those this tool added, so that its positions do
    not depend on its own last answer."""
    keys = set()
    with open(entries_path) as f:
        for line in f:
            moves, _, kind = line.split()
            if exits or kind != "exit":
                keys.add(build.canonical(moves.strip("-"))[0])
    return keys


def exits(entries_path=build.ENTRIES):
    """The positions where a game leaves the first-player book, each in its
    stored orientation, sorted: the board's book move in each first-player
    record, then each defender reply whose position the book holds no record
    of and where the game goes on."""
    held, firsts = held_positions(entries_path, exits=False), []
    with open(entries_path) as f:
        for line in f:
            moves, col, kind = line.split()
            if kind == "first":
                firsts.append(moves.strip("-") + col)
    found = {}
    for after in firsts:
        board = Board(after)
        if board.is_over():
            continue
        for reply in board.legal_moves():  # none wins: the book's move wins
            key, moves = build.canonical(after + str(reply + 1))
            if key not in held and key not in found:
                found[key] = moves
    return sorted(found.values(), key=lambda m: (len(m), m))


def run(positions, nodes, seed, micropython, replies=False):
    """[(moves, 1-based column)] that tools/bench/held_search.py prints for a file of
    positions, in the unix port, or in CPython through host_sim (slowly) without one."""
    out = common.run_script([held.SCRIPT, positions, str(nodes), os.path.join(ROOT, "firmware"), str(seed)]
                            + (["replies"] if replies else []), micropython)
    return [(line.split()[0], int(line.split()[1])) for line in out.splitlines() if line.strip()]


def search(positions, seed, micropython, jobs, say, cache=CACHE, replies=False):
    """[(moves, 1-based column)] of the top level's search on `positions` with a
    fresh table and PRNG of `seed` on each (tools/bench/held_search.py), or
    with `replies` on each position one reply later: split into `jobs`
    processes, cached by the engine, the script, the seed and the positions."""
    nodes = levels.nodes(TOP_LEVEL)
    os.makedirs(cache, exist_ok=True)
    # what the search's move depends on: the engine's sources and the script that runs it
    key = "%s %s%s %d %d\n" % (common.engine_fingerprint(common.MOVE_FILES),
                              common.fingerprint_of((held.SCRIPT,)), " replies" if replies else "", seed, nodes)

    def one(chunk):
        text = "\n".join(chunk) + "\n"
        name = hashlib.sha1((key + text).encode())
        out = os.path.join(cache, name.hexdigest()[:16] + ".txt")
        if not os.path.exists(out):
            todo = out + ".in"
            with open(todo, "w") as f:
                f.write(text)
            found = run(todo, nodes, seed, micropython, replies)
            os.remove(todo)
            with open(out + ".tmp", "w") as f:
                f.writelines("%s %d\n" % pair for pair in found)
            os.replace(out + ".tmp", out)
        with open(out) as f:
            return [(line.split()[0], int(line.split()[1])) for line in f if line.strip()]

    found = []
    with ThreadPoolExecutor(jobs) as pool:
        for part in pool.map(one, [positions[i::jobs] for i in range(jobs)]):
            found += part
    if not replies and len(found) != len(positions):
        raise RuntimeError("the search gave %d moves for %d positions" % (len(found), len(positions)))
    say("seed %d: %d searches%s" % (seed, len(found), " one move later" if replies else ""))
    return found


def after_book(positions, known):
    """The positions one defender reply after the book's move (build.book_move,
    the fastest win) at each of `positions`, that `known` does not hold."""
    found = {}
    for moves in positions:
        moves = build.canonical(moves)[1]  # build.py stores the move in this orientation
        col = build.book_move(shared().analyze(moves))
        board = Board(moves + str(col + 1))
        if board.is_over():
            continue
        for reply in board.legal_moves():
            key, child = build.canonical(moves + str(col + 1) + str(reply + 1))
            if key not in known and key not in found:
                found[key] = child
    return sorted(found.values(), key=lambda m: (len(m), m))


def loses_win(pair):
    """Does column `col` (1-based) fail to win the won position `moves`?"""
    moves, col = pair
    if Board(moves).is_winning_move(col - 1):
        return pair, False
    return pair, shared().solve(moves + str(col)) >= 0  # the defender to move: not lost


def kept_positions(path, failing):
    """The positions of the exits file at `path` (the run before) that `failing`
    does not hold, each in its stored orientation: kept (see the module's docstring)."""
    keys = {build.canonical(m)[0] for m in failing}
    kept = set()
    for moves in sorted(build.read_positions(path)):
        key, stored = build.canonical(moves)
        if key not in keys:
            keys.add(key)
            kept.add(stored)
    return kept


def write(path, positions, notes):
    build.write_positions(path, positions, notes, (
        "Where a game leaves the first-player book and the top level's search, cold,",
        "would not win (tools/book/exits.py); tools/book/build.py adds the fastest win."))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--micropython", help="a MicroPython unix port to search in (without one, CPython: "
                   "hours instead of minutes)")
    p.add_argument("--seeds", type=int, default=SEEDS, help="PRNG seeds to search each exit with "
                   "(default %d)" % SEEDS)
    p.add_argument("--replies", type=int, default=REPLY_SEEDS, help="PRNG seeds to search the positions "
                   "one move after each exit with (default %d)" % REPLY_SEEDS)
    p.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    p.add_argument("--exits", default=build.EXITS, help="the file to write (default tools/data/book_exits.txt)")
    args, rest = p.parse_known_args(argv)
    started = time.time()

    def say(text):
        print("%6.0f s  %s" % (time.time() - started, text), flush=True)

    say("building the book, for its records (build/book/entries.txt)")
    build.main(rest + ["--exits", args.exits, "--jobs", str(args.jobs)])
    positions = exits()
    say("%d positions where a game leaves the first-player book" % len(positions))
    failing, notes = set(), []
    with multiprocessing.Pool(args.jobs) as pool:
        def judge(pairs, seed, what):
            mine = set()
            for (m, _), bad in pool.imap_unordered(loses_win, sorted(set(pairs)), chunksize=256):
                if bad:
                    mine.add(m)
            note = "# seed %d, %s: %d positions where the search does not win, %d new" % (
                seed, what, len(mine), len(mine - failing))
            failing.update(mine)
            say(note[2:])
            notes.append(note)

        for seed in range(1, args.seeds + 1):
            judge(search(positions, seed, args.micropython, args.jobs, say), seed, "exits")
        held_keys = held_positions()
        known = held_keys | {build.canonical(m)[0] for m in positions}
        todo = sorted(failing)
        while todo:  # the book's move where the search failed: every reply is an exit too, cold
            more = after_book(todo, known)
            known |= {build.canonical(m)[0] for m in more}
            before = set(failing)
            say("%d exits after the book's move at those" % len(more))
            for seed in range(1, args.seeds + 1):
                judge(search(more, seed, args.micropython, args.jobs, say), seed, "exits after the book's move")
            todo = sorted(failing - before)
            positions = positions + more
        cold = len(failing)
        # one move later: from exits where every seed's move wins (elsewhere the book now plays)
        winning = [m for m in positions if m not in failing]
        for seed in range(1, args.replies + 1):
            pairs = search(winning, seed, args.micropython, args.jobs, say, replies=True)
            judge([(m, c) for m, c in pairs if build.canonical(m)[0] not in held_keys], seed, "replies")
    notes.insert(0, "# engine %s: %d exits searched at %d nodes with %d seeds (%d where a move does not win), "
                 "the defender's replies after them with %d (%d)" % (
                     common.engine_fingerprint(common.MOVE_FILES), len(positions), levels.nodes(TOP_LEVEL),
                     args.seeds, cold, args.replies, len(failing) - cold))
    kept = kept_positions(args.exits, failing)
    notes.append("# kept from the file before: %d positions where this run's searches win" % len(kept))
    write(args.exits, failing | kept, notes)
    say("wrote %s: %d positions (%d kept from the file before)" % (
        os.path.relpath(args.exits, ROOT), len(failing | kept), len(kept)))
    return build.main(rest + ["--exits", args.exits, "--jobs", str(args.jobs)])


if __name__ == "__main__":
    sys.exit(main())
