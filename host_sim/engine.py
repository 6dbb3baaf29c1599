"""`python -m host_sim.engine`: the engine protocol on stdin/stdout.

See connect4/engine/protocol.py for the commands. Stdin is read as bytes by a
thread, so a `stop` (or `quit`) typed while a search runs ends it; each line
is decoded by the protocol, which answers `error` to one that is not UTF-8.
Output is flushed after every line so a driving program never waits on a buffer.
"""
import collections
import os
import sys
import threading

import host_sim  # stubs and firmware on the path
from connect4.engine import levels
from connect4.engine.book import open_book
from connect4.engine.player import AIPlayer
from connect4.engine.protocol import MAX_LINE, MAX_MOVETIME, MAX_NODES, Protocol

HEAD = MAX_LINE + 2  # of a line over the cap, enough to answer it `error line too long`

BOOK = os.path.join(host_sim.FIRMWARE, "book.bin")  # what `make deploy` puts beside main.py

USAGE = """usage: python -m host_sim.engine [-h] [--no-book]   (or: make engine)

The Connect 4 engine's line protocol on stdin/stdout, one command a line.
The opening book (firmware/book.bin) is used as on the board, at the top
level without a depth or nodes limit (`info book` before such a move);
--no-book leaves it out, as a board without the file. Commands:
  position [digits]     set the position: 1-based columns in play order (4453); none = empty board
  go [depth D] [nodes N] [movetime MS]
                        search: `info depth D score S nodes N` lines, then `bestmove C`;
                        each limit given replaces the level's of its kind (depth 1-42,
                        nodes 1-%d); movetime (1-%d ms) is a wall-clock cap
  stop                  end the running search at once; its bestmove follows
  level L               strength 1-%d (the depth and node budgets of a level)
  seed S                the random generator's seed (0-4294967295)
  blunder 0-100|level   percent of random moves (`level` = the level's own)
  isready               answers `readyok` (at once, even while a search runs)
  quit                  exit (during a search: after its bestmove)
  help                  the commands in one line
A bad line answers `error <message>` and changes nothing; a line over %d bytes
answers `error line too long`. While a search runs,
lines other than stop/isready/quit wait for its end, in order, as do lines
already sent before it began.

Depth and nodes are deterministic: the same commands give the same answers,
node for node, here and on the board (make engine-vm). movetime is the one
limit that is not deterministic: it depends on the machine's speed.
""" % (MAX_NODES, MAX_MOVETIME, levels.MAX_LEVEL, MAX_LINE)


class ThreadLines:
    """Lines of a binary stream, read ahead by a thread.

    `next()` waits for a line (None at the end); `ready()` gives one already
    read, or None, without waiting: the protocol calls it inside a search.
    """

    def __init__(self, stream):
        self._lines = collections.deque()
        self._cond = threading.Condition()
        self._ended = False
        thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        thread.start()

    def _read(self, stream):
        try:  # the file descriptor, not the buffered file: a thread blocked in
            fd = stream.fileno()  # its read would hold its lock at exit (SIGABRT)
            read = lambda n: os.read(fd, n)  # noqa: E731
        except (AttributeError, OSError, ValueError):
            read = getattr(stream, "read1", stream.read)
        partial = b""  # a line's start, cut to HEAD bytes: a longer line's rest is dropped
        try:
            while True:
                chunk = read(65536)
                if not chunk:
                    break
                lines = chunk.split(b"\n")
                lines[0] = partial + lines[0]
                partial = lines.pop()[:HEAD]
                with self._cond:
                    self._lines.extend(line[:HEAD] + b"\n" for line in lines)
                    self._cond.notify()
        finally:
            with self._cond:
                if partial:
                    self._lines.append(partial)
                self._ended = True
                self._cond.notify()

    def next(self):
        with self._cond:
            while not self._lines and not self._ended:
                self._cond.wait()
            return self._lines.popleft() if self._lines else None

    def ready(self):
        if not self._lines:  # the common case, without the lock
            return None
        with self._cond:
            return self._lines.popleft() if self._lines else None


def main(argv=None, stdin=None, stdout=None):
    argv = sys.argv[1:] if argv is None else argv
    stdout = stdout or sys.stdout
    for arg in argv:
        if arg in ("-h", "--help"):
            stdout.write(USAGE)
            return 0
    use_book = "--no-book" not in argv
    argv = [a for a in argv if a != "--no-book"]
    if argv:
        sys.stderr.write("host_sim.engine: unknown argument %r (the commands come on stdin; "
                         "see --help)\n" % argv[0])
        return 2

    def write(line):
        stdout.write(line + "\n")
        stdout.flush()

    book = open_book(BOOK) if use_book else None
    try:
        Protocol(write, AIPlayer(book=book)).serve(ThreadLines(stdin or sys.stdin.buffer))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`| head`): nothing left to answer
        sys.stderr.close()
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
