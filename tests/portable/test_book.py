"""The opening book's reader (engine/book.py): format, mirror, misses, no allocation.

A small book is written here by `write_book`, the format spelled out once
more in plain code (tests/test_book.py checks it makes the same bytes as the
builder, tools/book/build.py), then read back as the board reads it.
"""
import gc
import os

from connect4.engine import book
from connect4.engine.board import Board
from connect4.engine.player import AIPlayer
from fakes import tmpdir

PATH = tmpdir("book") + "test_book.tmp"  # a folder of its own: the two worlds run side by side


def stored_key(moves):
    """(stored key, mirrored) of a position given as 1-based column digits."""
    b = Board(moves)
    key = bytearray(7)
    mirrored = book.key_into(b.cells, b.tops, key, bytearray(7))
    return bytes(key), mirrored


def bucket_of(key, bits):
    """The bucket of a stored key, as Book.move hashes it."""
    h = 0
    for i in range(7):
        h = (h * 131 + key[i] * 0x9E3) & 0xFFFFF
    h = (h * 0x2F5) & 0xFFFFF
    return (h ^ (h >> 10)) & ((1 << bits) - 1)


def u32(n):
    return bytes([n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >> 24) & 255])


def book_bytes(moves_to_col, bits=4):
    """A book's bytes for {moves: 0-based column in that orientation}."""
    entries = {}
    for moves, col in moves_to_col.items():
        key, mirrored = stored_key(moves)
        entries[key] = 6 - col if mirrored else col
    buckets = [[] for _ in range(1 << bits)]
    for key in entries:
        buckets[bucket_of(key, bits)].append(key)
    index, records, at, largest = b"", b"", 0, 0
    for keys in buckets:
        keys = sorted(keys)
        largest = max(largest, len(keys))
        index += u32(at)
        for key in keys:
            records += key + bytes([entries[key]])
        at += len(keys)
    index += u32(at)
    depth = max(len(m) for m in moves_to_col)
    header = b"C4BK" + bytes([1, bits, 8, largest]) + u32(len(entries)) \
        + bytes([depth, 0, 0, 0])
    return header + index + records


def write_book(moves_to_col, bits=4):
    with open(PATH, "wb") as f:
        f.write(book_bytes(moves_to_col, bits))
    return book.open_book(PATH)


def done(bk):
    """Close the book and remove its file (the tests leave nothing behind)."""
    bk.f.close()
    os.remove(PATH)


LINES = {"": 3, "44": 3, "4453": 2, "3": 3, "1234": 4, "2": 2, "6": 4, "766": 0}


def test_every_entry_reads_back():
    bk = write_book(LINES)
    try:
        for moves, col in LINES.items():
            assert bk.move(Board(moves)) == col, moves
    finally:
        done(bk)


def test_a_mirrored_position_gets_the_mirrored_move():
    bk = write_book({"1234": 4, "2": 1})
    try:
        assert bk.move(Board("7654")) == 2  # the mirror of 1234 -> column 5 is 7654 -> column 3
        assert bk.move(Board("6")) == 5  # the mirror of 2 -> column 2 is 6 -> column 6
        assert stored_key("1234") == (stored_key("7654")[0], not stored_key("7654")[1])
    finally:
        done(bk)


def test_a_symmetric_position_is_its_own_mirror():
    key, mirrored = stored_key("4")
    assert not mirrored and bytes(key) == bytes(reversed(key))


def test_a_position_not_in_the_book_is_a_miss():
    bk = write_book({"44": 3, "4453": 2})
    try:
        for moves in ("4", "45", "4454", "111"):
            assert bk.move(Board(moves)) == -1, moves
    finally:
        done(bk)


def test_positions_deeper_than_the_book_are_not_looked_up():
    bk = write_book({"44": 3})
    try:
        assert bk.head[12] == 2
        assert bk.move(Board("4444")) == -1
    finally:
        done(bk)


def test_many_entries_in_few_buckets():
    lines = {}
    for a in range(1, 8):
        for b in range(1, 8):
            lines["%d%d" % (a, b)] = (a + b) % 7
    bk = write_book(lines, bits=2)  # about a dozen records a bucket
    try:
        for moves, col in lines.items():
            want = col
            got = bk.move(Board(moves))
            # a mirror pair stored once: the first written orientation wins
            mirror = "".join(str(8 - int(c)) for c in moves)
            if got != want:
                assert mirror in lines and got == 6 - lines[mirror], (moves, got, want)
    finally:
        done(bk)


def test_no_file_or_not_a_book_gives_none():
    assert book.open_book("no_such_book.bin") is None
    with open(PATH, "wb") as f:
        f.write(b"C4BK\x09" + bytes(40))  # another version
    assert book.open_book(PATH) is None
    with open(PATH, "wb") as f:
        f.write(b"short")
    assert book.open_book(PATH) is None
    os.remove(PATH)


def test_a_book_move_is_marked_and_skips_the_search():
    bk = write_book({"44": 2})
    try:
        r = AIPlayer(level=8, seed=1, book=bk).choose(Board("44"))
        assert r.move == 2 and r.stopped == "book" and r.nodes == 0
        r = AIPlayer(level=7, seed=1, book=bk).choose(Board("44"))
        assert r.stopped != "book"  # the book is the top level's only
        r = AIPlayer(level=8, seed=1, book=bk).choose(Board("44"), nodes=500)
        assert r.stopped != "book"  # a search asked for with limits is a search
    finally:
        done(bk)


def test_the_blunder_roll_draws_the_same_with_and_without_a_book():
    bk = write_book({"44": 2, "4453": 6})
    try:
        for seed in (1, 2, 3, 4, 5, 6):
            a = AIPlayer(level=8, seed=seed, blunder=50, book=bk)
            b = AIPlayer(level=8, seed=seed, blunder=50)
            ra, rb = a.choose(Board("44")), b.choose(Board("44"))
            assert (ra.stopped == "blunder") == (rb.stopped == "blunder"), seed
            if ra.stopped == "blunder":
                assert ra.move == rb.move
            else:
                assert ra.stopped == "book" and ra.move == 2
    finally:
        done(bk)


def test_a_lookup_allocates_nothing():
    if not hasattr(gc, "mem_alloc"):
        return  # CPython: the MicroPython VM runs this check
    bk = write_book(LINES)
    try:
        boards = [Board(m) for m in ("4453", "7654", "111")]
        for b in boards:
            bk.move(b)  # warm up
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        for _ in range(20):
            for b in boards:
                bk.move(b)
        grown = gc.mem_alloc() - before
        gc.enable()
        assert grown == 0, grown
    finally:
        done(bk)
