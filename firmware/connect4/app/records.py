"""Game records: the last 100 games, one line of text each, in a file on flash.

Why a line each: a user copies the file off the board (`mpremote fs cp
:games.txt .`) and reads it, and the board reads it a line at a time: the
file is streamed, never loaded whole. A line holds eight fields, one space
apart:

    NUMBER MODE FIRST LEVELS RESULT HINTS MOVES MARKS
    12 ai r 0/4 y 1/0 4453362 ????W?W

- NUMBER: the game's number (1, 2, ...: the newest record's plus one);
- MODE: ai, two or demo;
- FIRST: who started, r (red) or y (yellow);
- LEVELS: red's and yellow's AI level, 0 for a person;
- RESULT: r or y (that side won), d (a draw), a (abandoned);
- HINTS: the hints red and yellow asked for;
- MOVES: the columns played, 1-7, in order (- for none);
- MARKS: one per move, what the board knows of the position after it, seen
  by the side that moved: W a win, D a draw, L a loss, ? not known (- for
  none). The board knows a value when its search proved it; the simulator
  marks every move with a perfect solver.

Writes (`append`) are atomic like the settings' (connect4.app.store): the
kept lines and the new one go to `PATH.tmp`, renamed over `PATH`, so a power
cut loses at most the game being written. A line that does not parse is
dropped at the next write and the file it was in is kept aside as `PATH.bad`.
A leftover `PATH.tmp` is used only when `PATH` is missing, else removed.

Reading: `recent()` gives the records newest first (`Record` objects),
`get(i)` the i-th newest, `parse(line)` one line; none of them raises.
"""
from connect4.engine.levels import MAX_LEVEL
from connect4.app.store import Files, exists, discard, why

LIMIT = 100  # records kept
MAX_LINE = 128  # longer lines are not records
MODES = ("ai", "two", "demo")
SIDES = "ry"  # red, yellow
RESULTS = "ryda"  # red won, yellow won, a draw, abandoned
ABANDONED = 3
MARKS = "?WDL"


class Record:
    """One game: mode name, first side (0 red, 1 yellow), levels and hints by side,
    result (0 red won, 1 yellow won, 2 draw, 3 abandoned), moves and marks as text."""

    def __init__(self, mode="ai", first=0, levels=(0, 0), result=ABANDONED, hints=(0, 0),
                 moves="", marks="", number=0):
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
            self.number, self.mode, SIDES[self.first], self.levels[0], self.levels[1],
            RESULTS[self.result], self.hints[0], self.hints[1], self.moves or "-", self.marks or "-")


def _pair(text, top):
    a, b = text.split("/")
    a, b = int(a), int(b)
    if not (0 <= a <= top and 0 <= b <= top):
        raise ValueError
    return a, b


def _moves(text):
    """The moves field checked: columns 1-7, none over-full."""
    if text == "-":
        return ""
    heights = bytearray(7)
    for ch in text:
        c = ord(ch) - 49
        if not 0 <= c < 7 or heights[c] == 6:
            raise ValueError
        heights[c] += 1
    return text


def parse(line):
    """The Record of one line (str or bytes), or None if it is not a record."""
    try:
        if isinstance(line, bytes):
            line = line.decode()
        f = line.rstrip("\r\n").split(" ")
        if len(f) != 8 or not f[0].isdigit():
            return None
        moves = _moves(f[6])
        marks = "" if f[7] == "-" else f[7]
        if len(marks) != len(moves):
            return None
        for ch in marks:
            if ch not in MARKS:
                return None
        return Record(MODES[MODES.index(f[1])], SIDES.index(f[2]), _pair(f[3], MAX_LEVEL),
                      RESULTS.index(f[4]), _pair(f[5], 99), moves, marks, int(f[0]))
    except (ValueError, UnicodeError):
        return None


def _lines(f):
    """(offset, line or None) for each line of an open binary file; None: not a record
    (too long, or not one)."""
    pos = 0
    whole = True  # the previous chunk ended its line
    while True:
        line = f.readline(MAX_LINE)
        if not line:
            return
        ok = whole
        whole = line[-1:] == b"\n" or len(line) < MAX_LINE  # shorter without a newline: the end
        yield pos, (line if ok and whole and parse(line) is not None else None)
        pos += len(line)


class Records:
    def __init__(self, path="games.txt", fs=None, limit=LIMIT):
        self.path = path
        self.tmp = path + ".tmp"
        self.bad = path + ".bad"
        self.fs = fs or Files()
        self.limit = limit
        self.status = "new"  # what check() found: ok, missing, recovered, repaired
        self.save_error = None  # why the first failed write failed (said once)

    def _open(self):
        try:
            return self.fs.open(self.path, "rb")
        except OSError:
            return None

    def _scan(self):
        """(offsets of the last `limit` records, records seen, bad lines, the last number)."""
        offsets = []  # type: list[int]
        good = bad = last = 0
        f = self._open()
        if f is None:
            return offsets, 0, 0, 0
        try:
            for pos, line in _lines(f):
                if line is None:
                    bad += 1
                    continue
                good += 1
                last = max(last, int(line[:line.index(b" ")]))
                offsets.append(pos)
                if len(offsets) > self.limit:
                    offsets.pop(0)
        finally:
            f.close()
        return offsets, good, bad, last

    def _recover(self):
        """A leftover temporary file: the records if the file is missing, else dropped."""
        fs = self.fs
        if not exists(fs, self.tmp):
            return False
        if exists(fs, self.path):
            discard(fs, self.tmp)
            return False
        try:
            fs.rename(self.tmp, self.path)
            return True
        except OSError:
            discard(fs, self.tmp)
            return False

    def check(self):
        """At start: recover a write cut short, set aside bad lines; returns self.status."""
        recovered = self._recover()
        _, good, bad, _ = self._scan()
        if bad:
            self._write(None)
            self.status = "repaired"
        elif recovered:
            self.status = "recovered"
        else:
            self.status = "ok" if good else "missing"
        return self.status

    def append(self, record):
        """Write `record` after the kept ones (numbered after the newest); False if the flash refused."""
        self._recover()
        return self._write(record)

    def _write(self, record):
        fs = self.fs
        _, good, bad, last = self._scan()
        keep = self.limit - (1 if record is not None else 0)
        skip = max(0, good - keep)
        try:
            out = fs.open(self.tmp, "wb")
            try:
                src = self._open()
                if src is not None:
                    try:
                        for _, line in _lines(src):
                            if line is None:
                                continue
                            if skip:
                                skip -= 1
                                continue
                            if line[-1:] != b"\n":
                                line += b"\n"
                            _put(out, line)
                    finally:
                        src.close()
                if record is not None:
                    record.number = last + 1
                    _put(out, (record.line() + "\n").encode())
            finally:
                out.close()
            if bad:
                discard(fs, self.bad)
                fs.rename(self.path, self.bad)
            fs.rename(self.tmp, self.path)
            return True
        except Exception as e:
            if exists(fs, self.path):  # else the new file is all there is: check() takes it
                discard(fs, self.tmp)
            if self.save_error is None:
                self.save_error = "game record not saved to %s (%s)" % (self.path, why(e))
                print("connect4: " + self.save_error)
            return False

    def recent(self):
        """The records, newest first (each line read when its turn comes)."""
        offsets = self._scan()[0]
        for i in range(len(offsets) - 1, -1, -1):
            record = self._read_at(offsets[i])
            if record is not None:
                yield record

    def get(self, i):
        """The i-th newest record (0: the newest), or None."""
        offsets = self._scan()[0]
        if not 0 <= i < len(offsets):
            return None
        return self._read_at(offsets[len(offsets) - 1 - i])

    def count(self):
        return len(self._scan()[0])

    def _read_at(self, pos):
        f = self._open()
        if f is None:
            return None
        try:
            f.seek(pos)
            return parse(f.readline(MAX_LINE))
        finally:
            f.close()


def _put(f, data):
    if f.write(data) != len(data):
        raise OSError(28)  # a short write: flash full
