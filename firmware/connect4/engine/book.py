"""The opening book: moves read from a file in flash, one lookup at a time.

Why a file and not a table in RAM: the book is hundreds of KB, the heap is
~180 KB. The file stays open; a lookup seeks twice and `readinto`s two
preallocated buffers, so it allocates nothing and never holds the book.

A position's key is 7 bytes, one a column: the bit at the column's height
marks the top, the bits below it are 1 for the first player's discs. Mirror
images store once: the key kept is the smaller of the key and its reverse
(the mirrored position), and the move is mirrored back on the way out.

File layout (all little-endian), built by tools/book/build.py (`make book`):
  header  16 bytes: b"C4BK", version 1, bucket bits B, record size 8, the
          largest bucket (records), record count (u32), deepest ply (u8), 3 spare
  index   2**B + 1 u32: the first record of each bucket, then the count
  records 8 bytes each: the 7 key bytes, then the move byte (column in its
          low 3 bits); grouped by bucket (the hash in Book.move), sorted by
          key inside one
The module stays small: every new name costs heap on the chip (MicroPython
interns names; one more made the VM's footprint grow a 4.6 KB name pool).
"""
from micropython import const

_HEADER = const(16)
_RECORD = const(8)
_MISS = const(-1)  # no book move (also what `move` returns)


def key_into(cells, tops, out, spare):
    """The stored key of a position (`cells`/`tops` of engine.board.Board)
    into `out`; True if it is the mirror image (a stored move m then means
    column 6 - m). `spare`: 7 scratch bytes."""
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
        out[col] = code
        spare[6 - col] = code
    for i in range(7):
        if spare[i] != out[i]:
            if spare[i] < out[i]:
                for j in range(7):
                    out[j] = spare[j]
                return True
            return False
    return False


class Book:
    """An open book file (`f`). `head` is its header: bucket bits at 5, the
    largest bucket at 7, the deepest ply at 12."""

    def __init__(self, f):
        head = bytearray(_HEADER)
        if f.readinto(head) != _HEADER or head[:5] != b"C4BK\x01" or head[6] != _RECORD:
            raise ValueError
        self.f = f
        self.head = head
        self.key = bytearray(7)
        self.tmp = bytearray(8)  # the mirror key, then the index entry
        self.buf = bytearray(_RECORD * max(1, head[7]))  # the largest bucket

    def move(self, board):
        """The book's column for `board` (an engine.board.Board), else -1
        (always on a board other than 7x6: the book is the classic board's)."""
        head = self.head
        if board.count > head[12] or board.cols != 7 or board.rows != 6:
            return _MISS
        key = self.key
        tmp = self.tmp
        mirrored = key_into(board.cells, board.tops, key, tmp)
        # the bucket: a multiplicative hash kept under 2**30, a small int on the chip
        h = 0
        for i in range(7):
            h = (h * 131 + key[i] * 0x9E3) & 0xFFFFF
        h = (h * 0x2F5) & 0xFFFFF
        f = self.f
        f.seek(_HEADER + 4 * ((h ^ (h >> 10)) & ((1 << head[5]) - 1)))
        if f.readinto(tmp) != 8:
            return _MISS
        first = tmp[0] | (tmp[1] << 8) | (tmp[2] << 16) | (tmp[3] << 24)
        n = (tmp[4] | (tmp[5] << 8) | (tmp[6] << 16) | (tmp[7] << 24)) - first
        if n <= 0 or n > head[7]:
            return _MISS
        f.seek(_HEADER + 4 * ((1 << head[5]) + 1) + _RECORD * first)
        buf = self.buf
        if f.readinto(buf) < _RECORD * n:  # the bucket, and maybe the next ones' records
            return _MISS
        at = 0
        for _ in range(n):
            j = 0
            while j < 7 and buf[at + j] == key[j]:
                j += 1
            if j == 7:
                col = buf[at + 7] & 7
                if mirrored:
                    col = 6 - col
                return col if board.can_play(col) else _MISS
            at += _RECORD
        return _MISS


def open_book(path="book.bin"):
    """The Book at `path` (default: beside main.py on the board), or None if
    there is no readable book there."""
    try:
        f = open(path, "rb")
    except OSError:
        return None
    try:
        return Book(f)
    except (ValueError, OSError, IndexError):
        f.close()
        return None
