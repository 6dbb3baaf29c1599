"""`make book`: the opening book (firmware/book.bin) from the perfect solver.

What it stores (engine/book.py reads it on the board):
  first player  the board's winning move in the game tree where the board
                moves first. Up to --wide plies the defender's every legal
                reply is followed, not only its best ones (people err), and
                the board takes its fastest win there (the shortest win left
                to prove where the book ends); beyond, the defender's
                best-score replies only, and the board's winning move that
                leaves the fewest of them, then the fastest win, then the
                centre-first column: from every position up to --deep plies,
                and along a perfect defender's lines from the empty board to
                the end of the game (--first plies), so no game against a
                perfect defender depends on the search.
  second player the board's best-score reply (slowest loss, fastest win,
                centre first) to every first-player line up to --second-wide
                discs, and beyond, up to --second, where the board holds a
                draw or a win (where it is lost there is nothing to keep).
  corrections   the positions of tools/data/book_corrections.txt (--extra)
                that the trees leave out: where the board's own search gave
                a value away in games against people-like opponents
                (tools/book/correct.py finds them); the fastest win, or a
                best-score move.
  exits         the positions of tools/data/book_exits.txt (--exits): where
                a game leaves the first-player tree, or one move later, and
                the board's search, replayed there, would not win
                (tools/book/exits.py finds them); the fastest win.
Positions where the search's own choice is forced and right are left out:
an immediate win, and a single threat to block.

Deterministic: the tree is walked ply by ply in sorted order; every
position is solved by bitbully (tools/bench/perfect.py) and the answer
cached in build/book/scores.txt (one line a position), so a rerun resumes
where the last stopped and a rebuild with the cache takes minutes. --jobs
worker processes solve the positions of a ply. At the end every record is
read back through the firmware's reader and its move checked against the
solver's scores; the report gives the size and what the book covers.

Usage: python tools/book/build.py [--wide PLIES] [--deep PLIES] [--first PLIES]
                                  [--second-wide PLIES] [--second PLIES]
                                  [--extra FILE] [--out FILE] [--jobs N]
"""
import argparse
import multiprocessing
import os
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import host_sim  # noqa: E402,F401
from connect4.engine import book  # noqa: E402
from connect4.engine.board import CENTRE_FIRST, Board  # noqa: E402
from tools.bench.perfect import shared  # noqa: E402
from tools.common import MOVE_FILES, ROOT, engine_fingerprint  # noqa: E402

OUT = os.path.join(ROOT, "firmware", "book.bin")
CACHE = os.path.join(ROOT, "build", "book", "scores.txt")
ENTRIES = os.path.join(ROOT, "build", "book", "entries.txt")  # moves and column of every record
WIDE_PLIES = 14  # the first-player book follows every defender reply to here
DEEP_PLIES = 20  # then the best replies from every position to here
FIRST_PLIES = 41  # the board's last possible move as first player is disc 41
SECOND_WIDE = 11  # the second-player book holds every position to here
SECOND_PLIES = 13  # and those where the board holds a draw or a win to here
EXTRA = os.path.join(ROOT, "tools", "data", "book_corrections.txt")
EXITS = os.path.join(ROOT, "tools", "data", "book_exits.txt")
LIMIT = 1_200_000  # the book's size limit (bytes, issue 19: 1.9 MB of flash is free after make deploy)
# The file format is connect4/engine/book.py's: its sizes are read from there
# (const() names stay module attributes on CPython); the magic and version are
# the 5 bytes Book() checks, and every record is read back through Book at the end.
MAGIC, VERSION, HEADER, RECORD = b"C4BK", 1, book._HEADER, book._RECORD


# ---------------------------------------------------------------- positions

def key_of(moves):
    """(stored key bytes, mirrored?) of a moves string (1-based columns)."""
    board = Board(moves)
    key, spare = bytearray(7), bytearray(7)
    mirrored = book.key_into(board.cells, board.tops, key, spare)
    return bytes(key), mirrored


def mirror(moves):
    return "".join(str(8 - int(c)) for c in moves)


def canonical(moves):
    """(key, moves in the stored orientation)."""
    key, mirrored = key_of(moves)
    return key, mirror(moves) if mirrored else moves


# ---------------------------------------------------------------- the solver, cached

def solve(moves):
    """Per-column Pons scores (None: full) of a position, from bitbully."""
    return moves, shared().analyze(moves)


class Scores:
    """Solver answers by stored key, on disk so that a build can resume."""

    def __init__(self, path, pool):
        self.path = path
        self.pool = pool
        self.known = {}
        self.solved = 0
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    parts = line.split()
                    # a line cut short by an interrupted build has no newline: solve it again
                    if line.endswith("\n") and len(parts) == 2 and len(parts[1].split(",")) == 7:
                        self.known[bytes.fromhex(parts[0])] = [
                            None if s == "x" else int(s) for s in parts[1].split(",")]
        os.makedirs(os.path.dirname(path), exist_ok=True)
        self.file = open(path, "a")

    def need(self, positions):
        """Solve the canonical `positions` (moves strings) not yet known."""
        todo = sorted({c for k, c in map(canonical, positions) if k not in self.known})
        if not todo:
            return
        for moves, scores in self.pool.imap(solve, todo, chunksize=16):
            key = canonical(moves)[0]
            self.known[key] = scores
            self.file.write("%s %s\n" % (key.hex(), ",".join(
                "x" if s is None else str(s) for s in scores)))
            self.solved += 1
            if self.solved % 1024 == 0:
                self.file.flush()  # an interrupted build keeps what it solved
        self.file.flush()

    def __getitem__(self, moves):
        """The scores of `moves` in its own orientation."""
        key, mirrored = key_of(moves)
        scores = self.known[key]
        return scores[::-1] if mirrored else scores


# ---------------------------------------------------------------- the trees

def immediate_win(moves, col):
    board = Board(moves)
    return board.is_winning_move(col)


def search_plays_it(moves, scores):
    """True where the board's search is forced and right without the book:
    an immediate win, or a single threat of the opponent to block."""
    board = Board(moves)
    legal = board.legal_moves()
    if any(board.is_winning_move(c) for c in legal):
        return True
    threats = [c for c in legal if board.is_winning_move(c, 3 - board.turn)]
    return len(threats) == 1


def best_of(scores):
    legal = [c for c in CENTRE_FIRST if scores[c] is not None]
    top = max(scores[c] for c in legal)
    return [c for c in legal if scores[c] == top]


def fastest_win(scores, wins):
    """The winning column that wins soonest (the highest score), centre first:
    where the book ends, the search then has the shortest win left to prove."""
    return max(wins, key=lambda c: (scores[c], -CENTRE_FIRST.index(c)))


def book_move(scores):
    """The move stored for a position listed in a corrections or exits file:
    the fastest win where the board holds a win, else a best-score move."""
    wins = [c for c in CENTRE_FIRST if scores[c] is not None and scores[c] > 0]
    return fastest_win(scores, wins) if wins else best_of(scores)[0]


def first_player_tree(table, wide, deep, plies, say):
    """{key: (moves, column)} of the board's moves as the first player.

    Up to ply `wide` the defender's every legal reply is followed (people
    err) and the board takes its fastest win; beyond it only the defender's
    best replies, and the board's winning move that leaves the fewest of
    them (then the fastest, then centre first): from every position up to
    ply `deep`, and to the end of the game (`plies`) along the lines of a
    perfect defender from the empty board, so that no game against one
    relies on the search."""
    entries = {}
    level = {canonical("")[0]: ("", True)}  # key: (moves, reached by best replies only?)
    ply = 0
    while level and ply <= plies:
        if ply > deep:  # only a perfect defender's lines go on
            level = {key: (moves, perfect) for key, (moves, perfect) in level.items() if perfect}
        table.need(moves for moves, _ in level.values())
        full = ply + 2 <= wide  # the children at ply + 2 come from every defender reply
        open_ = {}  # key: (moves, perfect line?, winning columns) of positions the game goes on from
        for key in sorted(level):
            moves, perfect = level[key]
            scores = table[moves]
            wins = [c for c in CENTRE_FIRST if scores[c] is not None and scores[c] > 0]
            if not wins:
                raise RuntimeError("position %r is not won for the first player" % moves)
            if any(immediate_win(moves, c) for c in wins):
                continue  # the game ends here; the search takes a win at once
            open_[key] = (moves, perfect, wins)
        if full:
            cols = {key: fastest_win(table[m], wins) for key, (m, _, wins) in open_.items()}
        else:
            table.need(m + str(c + 1) for m, _, wins in open_.values() for c in wins)
            # fewest best defender replies, then the fastest win, then centre first
            cols = {key: min(wins, key=lambda c: (len(best_of(table[m + str(c + 1)])),
                                                   -table[m][c], CENTRE_FIRST.index(c)))
                    for key, (m, _, wins) in open_.items()}
        table.need(m + str(cols[key] + 1) for key, (m, _, _) in open_.items())
        nxt = {}
        for key in sorted(open_):
            moves, perfect, wins = open_[key]
            col = cols[key]
            if not search_plays_it(moves, table[moves]):
                entries[key] = (moves, col)
            after = moves + str(col + 1)
            best = best_of(table[after])
            for reply in Board(after).legal_moves() if full else best:
                if immediate_win(after, reply):
                    raise RuntimeError("the defender wins in %r" % after)
                child_key, child = canonical(after + str(reply + 1))
                was = nxt.get(child_key, (child, False))
                nxt[child_key] = (was[0], was[1] or (perfect and reply in best))
        say("first player, ply %2d: %6d positions (%d on a perfect defender's lines), "
            "%6d entries so far, %d solved%s"
            % (ply, len(level), sum(p for _, p in level.values()), len(entries), table.solved,
               " (every reply)" if full else ""))
        level = nxt
        ply += 2
    return entries


def second_player_tree(table, wide, plies, say):
    """{key: (moves, column)}: the board's best replies as the second player
    to every first-player line: at every position up to `wide` discs, and
    beyond it up to `plies` discs only where the board holds a draw or a
    win (a lost position is a leaf: there is nothing to keep)."""
    entries = {}
    level = {canonical("")[0]: ""}  # the opponent to move
    ply = 0
    while level and ply + 1 <= plies:
        ours = {}
        for key in sorted(level):
            moves = level[key]
            board = Board(moves)
            for col in board.legal_moves():
                if board.is_winning_move(col):
                    continue
                k, child = canonical(moves + str(col + 1))
                ours.setdefault(k, child)
        table.need(ours.values())
        nxt = {}
        for key in sorted(ours):
            moves = ours[key]
            scores = table[moves]
            best = best_of(scores)
            if ply + 1 > wide and scores[best[0]] < 0:
                continue  # lost for the board: no entry, and no deeper
            col = best[0]
            if not search_plays_it(moves, scores):
                entries[key] = (moves, col)
            board = Board(moves + str(col + 1))
            if not board.is_over():
                k, child = canonical(board.moves_string())
                nxt.setdefault(k, child)
        say("second player, ply %2d: %6d positions, %6d entries so far, %d solved%s"
            % (ply + 1, len(ours), len(entries), table.solved,
               "" if ply + 1 <= wide else " (the board holds a draw or a win)"))
        level = nxt
        ply += 2
    return entries


# ---------------------------------------------------------------- the file

def bucket_of(key, bits):
    """The bucket of a stored key: the hash of connect4.engine.book.Book.move."""
    h = 0
    for i in range(7):
        h = (h * 131 + key[i] * 0x9E3) & 0xFFFFF
    h = (h * 0x2F5) & 0xFFFFF
    return (h ^ (h >> 10)) & ((1 << bits) - 1)


def bucket_bits(records):
    """About 4 to 8 records a bucket: a u32 of index per 4 x 8 record bytes at most, and a
    bucket the board reads in one `readinto` (tools/book/lookup_cost.py counts the scan)."""
    bits = 4
    while (1 << bits) * 8 < records:
        bits += 1
    return bits


def encode(entries, depth):
    """The book file's bytes (see engine/book.py) for {key: column}."""
    bits = bucket_bits(len(entries))
    buckets = [[] for _ in range(1 << bits)]
    for key in sorted(entries):
        buckets[bucket_of(key, bits)].append(key)
    largest = max(len(b) for b in buckets)
    if largest > 255:
        raise RuntimeError("a bucket of %d records: the hash is too weak" % largest)
    index, records, at = [], [], 0
    for b in buckets:
        index.append(at)
        for key in b:
            records.append(key + bytes([entries[key]]))
        at += len(b)
    index.append(at)
    header = MAGIC + bytes([VERSION, bits, RECORD, largest]) + struct.pack(
        "<IB3x", len(entries), depth)
    return header + struct.pack("<%dI" % len(index), *index) + b"".join(records)


def extra_entries(table, path, known, say, what="corrections"):
    """{key: (moves, column)} of the positions listed in `path` (one moves
    string a line: where the board's search gave a value away in games,
    tools/book/correct.py, or would give a win away where a game leaves the
    first-player tree, tools/book/exits.py) that `known` does not hold: the
    fastest win where the board holds a win, else a best-score move."""
    if not path or not os.path.exists(path):
        return {}
    lines = sorted(read_positions(path))
    positions = {}
    for moves in lines:
        key, stored = canonical(moves)
        if key not in known:
            positions.setdefault(key, stored)
    table.need(positions.values())
    entries = {}
    for key in sorted(positions):
        moves = positions[key]
        scores = table[moves]
        col = book_move(scores)
        if not search_plays_it(moves, scores):
            entries[key] = (moves, col)
    say("%s (%s): %d positions, %d not in the book yet, %d entries"
        % (what, os.path.relpath(path, ROOT), len(lines), len(positions), len(entries)))
    return entries


def read_positions(path):
    """The positions of a file write_positions wrote (moves strings, "" the empty board);
    none if there is no file."""
    positions = set()
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    moves = line.split()[0]
                    positions.add("" if moves == "-" else moves)  # "-": the empty board
    return positions


def write_positions(path, positions, notes, header):
    """A positions file that extra_entries reads, atomically: `header` and
    `notes` as comment lines, then the positions shortest first ("-": the
    empty board)."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        for line in tuple(header) + tuple(notes):
            f.write(("" if line.startswith("#") else "# ") + line + "\n")
        for moves in sorted(positions, key=lambda m: (len(m), m)):
            f.write((moves or "-") + "\n")
    os.replace(tmp, path)


def keeps_value(scores, col, strict):
    """True if `col` keeps the position's value (`strict`: is a best-score
    move; else, where the position is won, wins)."""
    best = max(s for s in scores if s is not None)
    if scores[col] is None:
        return False
    if strict or best <= 0:
        return scores[col] == best
    return scores[col] > 0


def check(path, entries, table, kinds):
    """Read every record back through the firmware's reader, in both mirror
    orientations, and check its move against the solver's scores (a winning
    move where the board holds a win, else a best-score move)."""
    with open(path, "rb") as f:
        reader = book.Book(f)
        for key in sorted(entries):
            moves, col = entries[key]
            for m in (moves, mirror(moves)):
                board = Board(m)
                got = reader.move(board)
                scores = table[moves]
                want = 6 - col if key_of(m)[1] else col  # a symmetric position: the same column
                if got != want:
                    raise RuntimeError("book gives %d for %r, built %d" % (got, m, want))
            if not keeps_value(scores, col, kinds[key] == "second"):
                raise RuntimeError("entry %r -> %d is not a best move: %r" % (moves, col + 1, scores))
    return len(entries)


def recorded_fingerprint(path=EXITS):
    """The engine fingerprint an exits file was made with (None: no file, or none recorded)."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        for line in f:
            if line.startswith("# engine "):
                return line.split()[2].rstrip(":")
    return None


def stale_exits(path, say):
    """Say so when the exits (tools/book/exits.py) were found with another engine than today's:
    the search's moves depend on the sources of tools.common.MOVE_FILES."""
    if not path or not os.path.exists(path):
        return
    made, now = recorded_fingerprint(path), engine_fingerprint(MOVE_FILES)
    if made != now:
        say("note: %s was made with engine %s, the engine is now %s: run tools/book/exits.py again"
            % (os.path.relpath(path, ROOT), made, now))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--wide", type=int, default=WIDE_PLIES,
                   help="the first-player book follows every defender reply up to this ply")
    p.add_argument("--deep", type=int, default=DEEP_PLIES, help="beyond --wide, the first-player book "
                   "follows the best replies from every position up to this ply")
    p.add_argument("--first", type=int, default=FIRST_PLIES,
                   help="deepest ply of the first-player book (along a perfect defender's lines)")
    p.add_argument("--second-wide", type=int, default=SECOND_WIDE,
                   help="the second-player book holds lost positions too up to this ply")
    p.add_argument("--second", type=int, default=SECOND_PLIES, help="deepest ply of the second-player book")
    p.add_argument("--extra", default=EXTRA, help="positions to add, one a line "
                   "(default tools/data/book_corrections.txt; '' for none)")
    p.add_argument("--exits", default=EXITS, help="where the search fails on leaving the first-player "
                   "tree, one a line (default tools/data/book_exits.txt; '' for none)")
    p.add_argument("--out", default=OUT, help="the book file (default firmware/book.bin)")
    p.add_argument("--cache", default=CACHE, help="the solver's answers (default build/book/scores.txt)")
    p.add_argument("--jobs", type=int, default=2, help="solver processes (default 2)")
    args = p.parse_args(argv)
    started = time.time()

    def say(text):
        print("%6.0f s  %s" % (time.time() - started, text), flush=True)

    with multiprocessing.Pool(args.jobs) as pool:
        table = Scores(args.cache, pool)
        say("cache: %d positions" % len(table.known))
        firsts = first_player_tree(table, args.wide, args.deep, args.first, say)
        seconds = second_player_tree(table, args.second_wide, args.second, say)
        kinds = dict.fromkeys(seconds, "second")
        kinds.update(dict.fromkeys(firsts, "first"))
        extras = extra_entries(table, args.extra, kinds, say)
        exits = extra_entries(table, args.exits, set(kinds) | set(extras), say, "exits")
    stale_exits(args.exits, say)
    entries = dict(exits)
    entries.update(extras)
    entries.update(seconds)
    entries.update(firsts)
    for key in extras:
        kinds.setdefault(key, "extra")
    for key in exits:
        kinds.setdefault(key, "exit")
    depth = max(len(m) for m, _ in entries.values())
    data = encode({k: c for k, (_, c) in entries.items()}, depth)
    if len(data) > LIMIT:
        raise SystemExit("the book is %d bytes, over the %d limit" % (len(data), LIMIT))
    tmp = args.out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, args.out)
    checked = check(args.out, entries, table, kinds)
    with open(ENTRIES if args.out == OUT else args.out + ".entries", "w") as f:
        for key in sorted(entries, key=lambda k: (len(entries[k][0]), entries[k][0])):
            moves, col = entries[key]
            f.write("%s %d %s\n" % (moves or "-", col + 1, kinds[key]))
    by_ply = {}
    for moves, _ in entries.values():
        by_ply[len(moves)] = by_ply.get(len(moves), 0) + 1
    say("wrote %s: %d bytes, %d records (%d first player, every reply to ply %d, to ply %d; "
        "%d second player, every position to ply %d, to ply %d; %d corrections, %d exits), "
        "%d checked against the solver in both mirror orientations"
        % (os.path.relpath(args.out, ROOT), len(data), len(entries), len(firsts), args.wide,
           args.first, len(seconds), args.second_wide, args.second,
           sum(k == "extra" for k in kinds.values()), sum(k == "exit" for k in kinds.values()), checked))
    say("records by discs on the board: " + ", ".join(
        "%d:%d" % (n, by_ply[n]) for n in sorted(by_ply)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
