"""The records file: the last 100 games, a line each (connect4.app.records), on flash.

Loaded only while it is used (App.records(): a game's end, the menu's games
list, GET /api/games) and dropped again: with Wi-Fi on, the heap's room is the
network's margin (docs/web.md#cost).

Writes (`append`) are atomic like the settings' (connect4.app.store): the
kept lines and the new one go to `PATH.tmp`, renamed over `PATH`, so a power
cut loses at most the game being written. A line that does not parse is
dropped at the next write and the file it was in is kept aside as `PATH.bad`.
A leftover `PATH.tmp` is used only when `PATH` is missing, else removed
(at the next read or write).

Reading: `recent()` gives the records newest first (`Record` objects),
`get(i)` the i-th newest, `count()` how many; none of them raises. Each reads
the file through once (100 lines parsed); a reader that pages, like the games
list, takes `offsets()` once and passes them to `get(i, offsets)`, which then
reads one line; a writer that needs the next number first (a game's end) takes
`scan()` once and passes it to `append`.
"""
from micropython import const

from connect4.app.records import Record
from connect4.app.store import MODES, Files, exists, discard, refused, settle, why
from connect4.engine.board import parse_size
from connect4.engine.levels import MAX_LEVEL

_LIMIT = const(100)  # records kept
MAX_LINE = const(160)  # longer lines are not records (an 8x7 game's is at most about 140)
# the fields' letters: sides r, y (red, yellow: "ryda"[:2]), results "ryda" (red won,
# yellow won, a draw, abandoned), marks "?WDL"; modes are the settings' (store.MODES)


def parse(line):
    """The Record of one line (str or bytes), or None if it is not a record."""
    try:
        if isinstance(line, bytes):
            line = line.decode()
        f = line.rstrip().split(" ")
        size = f.pop() if len(f) == 9 else "7x6"
        if len(f) != 8 or not f[0].isdigit() or f[2] not in ("r", "y") or len(f[4]) != 1:
            return None
        cols, rows = parse_size(size)  # ValueError: not a size
        if size != "%dx%d" % (cols, rows):
            return None
        moves = "" if f[6] == "-" else f[6]
        marks = "" if f[7] == "-" else f[7]
        if len(marks) != len(moves):
            return None
        heights = bytearray(cols)
        for i in range(len(moves)):  # columns 1-cols, none over-full, a known mark each
            c = ord(moves[i]) - 49
            if not 0 <= c < cols or heights[c] == rows or marks[i] not in "?WDL":
                return None
            heights[c] += 1
        pairs = []
        for k in (3, 5):  # levels (0-8), hints (0-99): two numbers a/b
            a, b = f[k].split("/")
            a, b = int(a), int(b)
            if not (0 <= a <= 99 and 0 <= b <= 99 and (k == 5 or a <= MAX_LEVEL and b <= MAX_LEVEL)):
                return None
            pairs.append((a, b))
        return Record(MODES[MODES.index(f[1])], "ryda".index(f[2]), pairs[0], "ryda".index(f[4]),
                      pairs[1], moves, marks, int(f[0]), size)
    except (ValueError, UnicodeError):
        return None


class Records:
    def __init__(self, path="games.txt", fs=None, limit=_LIMIT):
        self.path = path
        self.tmp = path + ".tmp"
        self.bad = path + ".bad"
        self.fs = fs or Files()
        self.limit = limit
        self.save_error = None  # why the first failed write failed (said once)

    def _open(self):
        try:
            return self.fs.open(self.path, "rb")
        except OSError:
            return None

    def scan(self):
        """(offsets of the last `limit` records, bad lines, the last number), one pass over the
        file; a write cut short before (a leftover PATH.tmp) is settled first."""
        settle(self.fs, self.path, self.tmp)  # (cut after the set-aside of bad lines: the new file)
        offsets = []  # type: list[int]
        bad = last = pos = 0
        f = self._open()
        if f is None:
            return offsets, 0, 0
        try:
            whole = True  # the previous chunk ended its line
            while True:
                line = f.readline(MAX_LINE)
                if not line:
                    break
                ok = whole
                whole = line[-1:] == b"\n" or len(line) < MAX_LINE  # shorter, no newline: the end
                record = parse(line) if ok and whole else None
                if record is None:
                    bad += 1
                else:
                    last = max(last, record.number)
                    offsets.append(pos)
                    if len(offsets) > self.limit:
                        offsets.pop(0)
                pos += len(line)
        finally:
            f.close()
        return offsets, bad, last

    def append(self, record, scanned=None):
        """Write `record` after the kept ones (numbered after the newest); False if the flash
        refused (the old file kept). `scanned`: scan()'s, if taken since the last write."""
        fs = self.fs
        offsets, bad, last = scanned or self.scan()
        try:
            out = fs.open(self.tmp, "wb")
            try:
                src = self._open()
                if src is not None:
                    try:
                        for pos in offsets[max(0, len(offsets) - self.limit + 1):]:  # the newest limit - 1
                            src.seek(pos)
                            line = src.readline(MAX_LINE)
                            if line[-1:] != b"\n":
                                line += b"\n"
                            if out.write(line) != len(line):
                                raise OSError(28)  # a short write: flash full
                    finally:
                        src.close()
                record.number = last + 1
                line = (record.line() + "\n").encode()
                if out.write(line) != len(line):
                    raise OSError(28)
            finally:
                out.close()
            if bad:  # the lines that are not records: the old file is kept aside
                discard(fs, self.bad)
                fs.rename(self.path, self.bad)
            fs.rename(self.tmp, self.path)
            return True
        except Exception as e:
            if exists(fs, self.path):  # else the new file is all there is: the next scan takes it
                discard(fs, self.tmp)
            return refused(self, "game record", why(e))

    def last(self):
        """The newest record's number (0: none)."""
        return self.scan()[2]

    def recent(self):
        """The records, newest first (each line read when its turn comes)."""
        offsets = self.scan()[0]
        f = self._open()
        if f is None:
            return
        try:
            for i in range(len(offsets) - 1, -1, -1):
                f.seek(offsets[i])
                record = parse(f.readline(MAX_LINE))
                if record is not None:
                    yield record
        finally:
            f.close()

    def get(self, i, offsets=None):
        """The i-th newest record (0: the newest), or None; `offsets` (from offsets()) spares
        reading the whole file again."""
        if offsets is None:
            offsets = self.scan()[0]
        f = self._open() if 0 <= i < len(offsets) else None
        if f is None:
            return None
        try:
            f.seek(offsets[len(offsets) - 1 - i])
            return parse(f.readline(MAX_LINE))
        finally:
            f.close()

    def offsets(self):
        """Where each kept record starts, oldest first (for get)."""
        return self.scan()[0]

    def count(self):
        return len(self.scan()[0])
