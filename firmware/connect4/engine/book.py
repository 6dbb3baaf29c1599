"""The opening book: moves read from a file in flash, one lookup at a time.

Why a file and not a table in RAM: the book is hundreds of KB, the heap is
~180 KB. The file stays open; a lookup seeks twice and `readinto`s two
preallocated buffers, so it allocates nothing and never holds the book.

A position's key is 7 bytes, one a column: the bit at the column's height
marks the top, the bits below it are 1 for the first player's discs. Mirror
images store once: the key kept is the smaller of the key and its reverse
(the mirrored position), and the move is mirrored back on the way out.

File layout (all little-endian), built by tools/book/build.py (`make book`):
  header  16 bytes: b"C4BK", version, bucket bits B, record size, the
          largest bucket (records), record count (u32), deepest ply (u8), 3 spare
  index   2**B + 1 u32: the first record of each bucket, then the count
  records RECORD bytes each: the 7 key bytes, then the move byte; grouped by
          bucket (hash of the key), sorted by key inside a bucket
The move byte's low 3 bits are the column (of the stored orientation).
"""
from micropython import const

MAGIC = b"C4BK"
VERSION = const(1)
HEADER = const(16)
KEY = const(7)
RECORD = const(8)
MOVE_MASK = const(7)
MISS = const(-1)
PATH = "book.bin"  # beside main.py on the board (deploy copies it to /)


def key_into(cells, tops, out, mirror):
    """The 7-byte key of a position (`cells`/`tops` of engine.board.Board)
    into `out`; mirrored (column 6 first) when `mirror`."""
    for col in range(7):
        top = tops[col] >> 3  # height + 1: tops hold (height + 1) * 8 + col
        code = 1 << (top - 1)
        i = 8 + col
        bit = 1
        while i < (top << 3):
            if cells[i] == 1:
                code |= bit
            bit <<= 1
            i += 8
        out[6 - col if mirror else col] = code


def canonical_into(cells, tops, out, spare):
    """The stored key of a position into `out`; True if it is the mirror
    (then a stored move m means column 6 - m). `spare`: 7 scratch bytes."""
    key_into(cells, tops, out, False)
    for i in range(7):
        spare[i] = out[6 - i]
    for i in range(7):
        if spare[i] != out[i]:
            if spare[i] < out[i]:
                for j in range(7):
                    out[j] = spare[j]
                return True
            return False
    return False


def bucket_of(key, bits):
    """The bucket of a stored key: a multiplicative hash kept under 2**30, so
    it stays a small int on the chip (no big-int allocation)."""
    h = 0
    for i in range(7):
        h = (h * 131 + key[i] * 0x9E3) & 0xFFFFF
    h = (h * 0x2F5) & 0xFFFFF
    return (h ^ (h >> bits)) & ((1 << bits) - 1)


def _u32(buf, at):
    return buf[at] | (buf[at + 1] << 8) | (buf[at + 2] << 16) | (buf[at + 3] << 24)


class Book:
    """An open book file; `move(board)` is its column for the position or MISS.

    `open_book()` returns None when the file is missing or not a book: the
    player then searches every move. Counters `hits` and `misses` are for
    the status line and the bench.
    """

    def __init__(self, f):
        head = bytearray(HEADER)
        if f.readinto(head) != HEADER or head[0:4] != MAGIC or head[4] != VERSION \
                or head[6] != RECORD:
            raise ValueError("not a version %d book" % VERSION)
        self.f = f
        self.bits = head[5]
        self.largest = head[7]
        self.records = _u32(head, 8)
        self.depth = head[12]
        self.index = bytearray(8)
        self.key = bytearray(KEY)
        self.spare = bytearray(KEY)
        self.buf = bytearray(RECORD * max(1, self.largest))
        view = memoryview(self.buf)
        self.views = [view[:RECORD * n] for n in range(self.largest + 1)]  # no slice per lookup
        self.base = HEADER + 4 * ((1 << self.bits) + 1)
        self.hits = 0
        self.misses = 0

    def close(self):
        self.f.close()

    def lookup(self, cells, tops, count):
        """The book's column for the position (any orientation), else MISS."""
        if count > self.depth:
            return MISS
        key = self.key
        mirrored = canonical_into(cells, tops, key, self.spare)
        f = self.f
        f.seek(HEADER + 4 * bucket_of(key, self.bits))
        if f.readinto(self.index) != 8:
            return MISS
        index = self.index
        first = _u32(index, 0)
        n = _u32(index, 4) - first
        if n <= 0 or n > self.largest:
            return MISS
        f.seek(self.base + RECORD * first)
        if f.readinto(self.views[n]) != RECORD * n:
            return MISS
        buf = self.buf
        at = 0
        for _ in range(n):
            j = 0
            while j < KEY and buf[at + j] == key[j]:
                j += 1
            if j == KEY:
                col = buf[at + KEY] & MOVE_MASK
                return 6 - col if mirrored else col
            at += RECORD
        return MISS

    def move(self, board):
        """The book's column for `board` (an engine.board.Board), else MISS."""
        col = self.lookup(board.cells, board.tops, board.count)
        if col == MISS or not board.can_play(col):
            self.misses += 1
            return MISS
        self.hits += 1
        return col


def open_book(path=PATH, opener=open):
    """The Book at `path`, or None if there is no readable book there."""
    try:
        f = opener(path, "rb")
    except OSError:
        return None
    try:
        return Book(f)
    except (ValueError, OSError, IndexError):
        f.close()
        return None
