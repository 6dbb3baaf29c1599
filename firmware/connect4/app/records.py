"""Game records: the last 100 games, one line of text each, in a file on flash.

Why a line each: a user copies the file off the board (`mpremote fs cp
:games.txt .`) and reads it, and the board reads it a line at a time: the
file is streamed, never loaded whole. A line holds eight fields, one space
apart, and a ninth on a board other than the classic 7x6:

    NUMBER MODE FIRST LEVELS RESULT HINTS MOVES MARKS [SIZE]
    12 ai r 0/4 y 1/0 4453362 ????W?W
    13 two y 0/0 r 0/0 3322 ???W 5x4

- NUMBER: the game's number (1, 2, ...: the newest record's plus one);
- MODE: ai, two or demo;
- FIRST: who started, r (red) or y (yellow);
- LEVELS: red's and yellow's AI level, 0 for a person;
- RESULT: r or y (that side won), d (a draw), a (abandoned);
- HINTS: the hints red and yellow asked for;
- MOVES: the columns played, 1 to the board's width, in order (- for none);
- MARKS: one per move, what the board knows of the position after it, seen
  by the side that moved: W a win, D a draw, L a loss, ? not known (- for
  none). The board knows a value when its search proved it; the simulator
  marks every move with a perfect solver;
- SIZE: the board, COLUMNSxROWS (connect4.engine.board.parse_size); a line
  without it is a 7x6 game (so are all the lines written before sizes).

Writes (`append`) are atomic like the settings' (connect4.app.store): the
kept lines and the new one go to `PATH.tmp`, renamed over `PATH`, so a power
cut loses at most the game being written. A line that does not parse is
dropped at the next write and the file it was in is kept aside as `PATH.bad`.
A leftover `PATH.tmp` is used only when `PATH` is missing, else removed
(at the next read or write).

Reading: `recent()` gives the records newest first (`Record` objects),
`get(i)` the i-th newest, `count()` how many, `parse(line)` one line; none
of them raises. Each reads the file through once (100 lines parsed); a
reader that pages, like the games list, takes `offsets()` once and passes
them to `get(i, offsets)`, which then reads one line.

Heap: the module is written for few names (each global, attribute and
string is interned for good on the chip): private constants, helpers inline.
"""
from micropython import const

from connect4.engine.levels import MAX_LEVEL
from connect4.engine.board import parse_size
from connect4.app.store import MODES, Files, exists, discard, refused, settle, why

_LIMIT = const(100)  # records kept
_MAX_LINE = const(160)  # longer lines are not records (an 8x7 game's is at most about 140)
# the fields' letters: sides r, y (red, yellow: "ryda"[:2]), results "ryda" (red won,
# yellow won, a draw, abandoned), marks "?WDL"; modes are the settings' (store.MODES)


class Record:
    """One game: mode name, first side (0 red, 1 yellow), levels and hints by side,
    result (0 red won, 1 yellow won, 2 draw, 3 abandoned), moves and marks as text,
    the board's size ("7x6")."""

    def __init__(self, mode="ai", first=0, levels=(0, 0), result=3, hints=(0, 0),
                 moves="", marks="", number=0, size="7x6"):
        self.size = size
        self.number = number
        self.mode = mode
        self.first = first
        self.levels = levels
        self.result = result
        self.hints = hints
        self.moves = moves
        self.marks = marks

    def line(self):
        return "%d %s %s %d/%d %s %d/%d %s %s" % (
            self.number, self.mode, "ryda"[self.first], self.levels[0], self.levels[1],
            "ryda"[self.result], self.hints[0], self.hints[1], self.moves or "-", self.marks or "-"
        ) + ("" if self.size == "7x6" else " " + self.size)


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

    def _scan(self):
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
                line = f.readline(_MAX_LINE)
                if not line:
                    break
                ok = whole
                whole = line[-1:] == b"\n" or len(line) < _MAX_LINE  # shorter, no newline: the end
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

    def append(self, record):
        """Write `record` after the kept ones (numbered after the newest); False if the flash
        refused (the old file kept)."""
        fs = self.fs
        offsets, bad, last = self._scan()
        try:
            out = fs.open(self.tmp, "wb")
            try:
                src = self._open()
                if src is not None:
                    try:
                        for pos in offsets[max(0, len(offsets) - self.limit + 1):]:  # the newest limit - 1
                            src.seek(pos)
                            line = src.readline(_MAX_LINE)
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
        return self._scan()[2]

    def recent(self):
        """The records, newest first (each line read when its turn comes)."""
        offsets = self._scan()[0]
        f = self._open()
        if f is None:
            return
        try:
            for i in range(len(offsets) - 1, -1, -1):
                f.seek(offsets[i])
                record = parse(f.readline(_MAX_LINE))
                if record is not None:
                    yield record
        finally:
            f.close()

    def get(self, i, offsets=None):
        """The i-th newest record (0: the newest), or None; `offsets` (from offsets()) spares
        reading the whole file again."""
        if offsets is None:
            offsets = self._scan()[0]
        f = self._open() if 0 <= i < len(offsets) else None
        if f is None:
            return None
        try:
            f.seek(offsets[len(offsets) - 1 - i])
            return parse(f.readline(_MAX_LINE))
        finally:
            f.close()

    def offsets(self):
        """Where each kept record starts, oldest first (for get)."""
        return self._scan()[0]

    def count(self):
        return len(self._scan()[0])
