"""A line protocol so other programs can play against the engine.

One command a line in (str, or bytes that must be UTF-8), answers out through
`write(line)`:
  size [COLSxROWS]        the board, 4x4 to 8x7 (7x6 by default): an empty one of that
                          size; alone, answers `size COLSxROWS`
  position [digits]       set the position (no digits: empty board), on the current size
  go [depth D] [nodes N] [movetime MS]
                          search; `info depth D score S nodes N` lines, `info nodes N`
                          (the move's whole count), then `bestmove C` (`info book`
                          instead when the move is the opening book's)
  stop                    ends a running search (its bestmove follows); alone, nothing
  level L | seed S | blunder P   options (blunder in percent, `blunder level` = the level's own)
  isready                 answers `readyok`
  quit                    `handle` returns False
Anything else, or a bad argument, answers `error <message>` and changes nothing.
A line over MAX_LINE bytes (its line end aside) answers `error line too long`;
the readers take a line in pieces of at most MAX_LINE + 2 bytes, dropping the
rest of a long one, so no line is ever held whole (the board has 180 KB).
The search keeps its table from one `go` to the next while each position
follows the last searched one (the same game, moves added); a `position`
that does not (a new game, another game, a move taken back) starts it afresh,
so a game's answers never depend on an earlier game's.
Columns are 1-based as in the move notation. Each limit given to `go`
replaces the level's of its kind; movetime (wall clock) is an extra cap and
the only limit that is not deterministic.

The board decides what CPython must copy: words are split at ASCII spaces only,
numbers are ASCII digits, text in messages is quoted as the board's repr().

Lines arriving during a search (only when `serve` has a line source whose
`ready()` can tell): `stop` ends the search, `quit` ends it and the session
after its bestmove, `isready` is answered at once; any other line waits, in
order, for the end of the search. Lines that were already waiting when the
search began all wait for its end, so a command list sent in one piece gets
the same answers as one sent line by line after each answer.
"""
from connect4.engine import levels
from connect4.engine.board import Board, parse_size
from connect4.engine.player import AIPlayer

MAX_LINE = 1024  # bytes of a command line, its line end aside
_PIECE = MAX_LINE + 2  # what a reader takes at once: a whole line at the cap with "\r\n"
TOO_LONG = "line too long"
MAX_NODES = 100000000
MAX_MOVETIME = 3600000  # ms: an hour
NOT_TEXT = "the line is not UTF-8 text"
HELP = ("commands: size COLSxROWS | position [digits] | go [depth D] [nodes N] [movetime MS] | stop"
        " | level 1-%d | seed S | blunder 0-100 | isready | quit" % levels.MAX_LEVEL)


def words(line):
    """The words of a line split at ASCII whitespace (CPython's str.split() also
    splits at Unicode spaces, the board's does not)."""
    for ch in "\t\r\n\x0b\x0c":
        if ch in line:
            line = line.replace(ch, " ")
    return [w for w in line.split(" ") if w]


def quote(text):
    """repr(text) as MicroPython writes it (CPython leaves printable non-ASCII as is)."""
    q = "'"
    if "'" in text and '"' not in text:
        q = '"'
    out = [q]
    for ch in text:
        n = ord(ch)
        if ch == q or ch == "\\":
            out.append("\\" + ch)
        elif 32 <= n < 127:
            out.append(ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif n < 0x100:
            out.append("\\x%02x" % n)
        elif n < 0x10000:
            out.append("\\u%04x" % n)
        else:
            out.append("\\U%08x" % n)
    out.append(q)
    return "".join(out)


def number(text, low, high, what):
    """An int from `-`? and ASCII digits only: the board's int() rejects other
    digits, CPython's takes any Unicode digit, `+` and `_`."""
    digits = text[1:] if text[:1] == "-" else text
    ok = 0 < len(digits)
    for ch in digits:
        if ch < "0" or ch > "9":
            ok = False
            break
    if not ok:
        raise ValueError("%s must be a number, not %s" % (what, quote(text)))
    value = int(text) if len(digits) <= 12 else (high + 1 if text[0] != "-" else low - 1)
    if not low <= value <= high:
        raise ValueError("%s must be %d to %d" % (what, low, high))
    return value


def is_utf8(raw):
    """True if `raw` is well-formed UTF-8 (Unicode table 3-7). The board's
    decoder also takes overlong forms, surrogates and codes past U+10FFFF."""
    i = 0
    n = len(raw)
    while i < n:
        b = raw[i]
        i += 1
        if b < 0x80:
            continue
        low, high = 0x80, 0xBF  # the second byte's range
        if 0xC2 <= b <= 0xDF:
            more = 1
        elif 0xE0 <= b <= 0xEF:
            more = 2
            if b == 0xE0:
                low = 0xA0
            elif b == 0xED:
                high = 0x9F
        elif 0xF0 <= b <= 0xF4:
            more = 3
            if b == 0xF0:
                low = 0x90
            elif b == 0xF4:
                high = 0x8F
        else:
            return False
        if i + more > n or not low <= raw[i] <= high:
            return False
        for j in range(i + 1, i + more):
            if not 0x80 <= raw[j] <= 0xBF:
                return False
        i += more
    return True


def too_long(line):
    """Is `line` (str or bytes) over MAX_LINE, its line end ("\n", "\r\n") aside?"""
    n = len(line)
    if n <= MAX_LINE:
        return False
    if n > _PIECE:
        return True
    end = line[n - 1:]
    if end == b"\n" or end == "\n":
        n -= 1
        end = line[n - 1:n]
        if end == b"\r" or end == "\r":
            n -= 1
    return n > MAX_LINE


def text_of(line):
    """A line as str, or None if it is bytes that are not UTF-8."""
    if isinstance(line, str):
        return line
    if not is_utf8(line):
        return None
    return str(line, "utf-8")


class StreamLines:
    """Lines of a binary stream: `next()` waits for one (None at its end);
    `ready()` gives a complete line without waiting, or None.

    `waiting()` says whether a byte can be read now (select.poll on the board);
    without it `ready()` never reads, and a search cannot be stopped.
    """

    def __init__(self, stream, waiting=None):
        self.stream = stream
        self.waiting = waiting
        self.partial = b""  # a line's start read by ready(), at most _PIECE bytes
        self.cut = False  # the partial line is too long: the rest is dropped up to its end

    def next(self):
        line = self.partial
        self.partial = b""
        if not self.cut:
            piece = self.stream.readline(_PIECE - len(line))
            line += piece
            self.cut = len(line) >= _PIECE and piece[-1:] != b"\n"
        if self.cut:  # too long: drop the rest, a piece at a time; the head says it was long
            self.cut = False
            piece = self.stream.readline(_PIECE)
            while piece and piece[-1:] != b"\n":
                piece = self.stream.readline(_PIECE)
            return line
        return line or None

    def ready(self):
        if self.waiting is None:
            return None
        while self.waiting():
            b = self.stream.read(1)
            if not b:
                return None
            if b == b"\n":
                line = self.partial + b
                self.partial = b""
                self.cut = False
                return line
            if len(self.partial) < _PIECE:
                self.partial += b
            else:
                self.cut = True  # over the cap: kept as long, the bytes dropped
        return None


class Protocol:
    def __init__(self, write, player=None):
        self.write = write
        self.board = Board()
        self.player = player or AIPlayer()
        self.lines = None  # the line source during `serve`, watched while a search runs
        self.backlog = []  # lines that waited for a search's end
        self._stop = False
        self._quit = False

    def serve(self, lines):
        """Answer the lines of `lines` (see StreamLines) until quit or their end."""
        self.lines = lines
        while True:
            if self.backlog:
                line = self.backlog.pop(0)
            else:
                line = lines.next()
                if line is None:
                    return
            if not self.handle(line):
                return

    def handle(self, line):
        """Process one line; return False once the peer said quit."""
        if too_long(line):
            self.write("error " + TOO_LONG)
            return True
        line = text_of(line)
        if line is None:
            self.write("error " + NOT_TEXT)
            return True
        args = words(line)
        if not args:
            return True
        cmd = args.pop(0)
        try:
            if cmd == "quit":
                return False
            elif cmd == "position":
                self._position(args)
            elif cmd == "size":
                self._size(args)
            elif cmd == "go":
                self._go(args)
                return not self._quit
            elif cmd == "stop":
                pass  # no search runs: nothing to stop
            elif cmd == "level":
                self._one(args, cmd)
                self.player.set_level(number(args[0], levels.MIN_LEVEL, levels.MAX_LEVEL, "level"))
            elif cmd == "seed":
                self._one(args, cmd)
                self.player.rng.seed(number(args[0], 0, 0xFFFFFFFF, "seed"))
            elif cmd == "blunder":
                self._one(args, cmd)
                self.player.blunder = None if args[0] == "level" else number(args[0], 0, 100, "blunder")
            elif cmd == "isready":
                self.write("readyok")
            elif cmd == "help":
                self.write(HELP)
            else:
                raise ValueError("unknown command %s; %s" % (quote(cmd), HELP))
        except ValueError as e:
            self.write("error " + str(e))
        return True

    @staticmethod
    def _one(args, cmd):
        if len(args) != 1:
            raise ValueError("%s takes one argument" % cmd)

    def _size(self, args):
        if not args:
            self.write("size " + self.board.size)
            return
        self._one(args, "size")
        for ch in args[0]:
            if ch < " " or ch >= "\x7f":  # parse_size quotes ASCII with repr(), the same in both worlds
                raise ValueError("size %s: expected COLSxROWS, like 7x6" % quote(args[0]))
        cols, rows = parse_size(args[0])  # ValueError names what is supported
        self.board = Board("", cols, rows)

    def _position(self, args):
        if len(args) > 1:
            raise ValueError("position takes one string of column digits")
        moves = args[0] if args else ""
        for i in range(len(moves)):
            if moves[i] >= "\x7f":  # Board.load names ASCII ones itself, with repr()
                raise ValueError("move %s at index %d: not a column 1-%d" % (quote(moves[i]), i, self.board.cols))
        self.board.load(moves)

    def _go(self, args):
        limits = {}
        if len(args) % 2:
            raise ValueError("go takes pairs: depth D, nodes N, movetime MS")
        for i in range(0, len(args), 2):
            key = args[i]
            if key == "depth":
                limits["depth"] = number(args[i + 1], 1, self.board.discs, "depth")
            elif key == "nodes":
                limits["nodes"] = number(args[i + 1], 1, MAX_NODES, "nodes")
            elif key == "movetime":
                limits["time_ms"] = number(args[i + 1], 1, MAX_MOVETIME, "movetime")
            else:
                raise ValueError("unknown go limit %s" % quote(key))
        if self.board.is_over():
            raise ValueError("the game is over; set a new position")
        poll = None
        lines = self.lines
        if lines is not None:
            self._stop = self._quit = False
            line = lines.ready()
            while line is not None:  # waiting before the search: handled after it
                self.backlog.append(line)
                line = lines.ready()
            poll = self._poll
        result = self.player.choose(self.board, poll=poll, info=self._info, **limits)
        if result.stopped == "book":
            self.write("info book")  # read from the opening book, not searched
        else:
            self.write("info nodes %d" % result.nodes)  # the move's whole count, every iteration
        self.write("bestmove %d" % (result.move + 1))

    def _poll(self):
        """Called from inside the search: truthy ends it."""
        lines = self.lines
        if lines is None:
            return False
        line = lines.ready()
        while line is not None and not self._stop:
            text = text_of(line) if not too_long(line) else None  # a long line: its error later
            cmd = words(text)[:1] if text is not None else None
            if cmd == ["stop"]:
                self._stop = True
            elif cmd == ["quit"]:
                self._stop = self._quit = True
            elif cmd == ["isready"]:
                self.write("readyok")
            else:
                self.backlog.append(line)
            if not self._stop:
                line = lines.ready()
        return self._stop

    def _info(self, depth, score, nodes):
        self.write("info depth %d score %d nodes %d" % (depth, score, nodes))
