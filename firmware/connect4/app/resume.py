"""The game in progress on flash: a crash, a watchdog reset or a power cut never loses it.

The app (connect4.app.game) saves the game after every move (and hint), clears
it when the game ends (then recorded) or is left (a new game, the demo), and
at its start takes a saved game back and goes on at once (no intro, no
question): the same position, mode, levels, first side, hints and marks, and
the AI's random state, so its blunders and tie-breaks go on as they would
have. (The AI's table starts empty, as after any restart: its next move may
differ from the one it would have played.) The demo's games are not kept:
they are nobody's game, and an unattended demo would rewrite the flash all day.

File (PATH, game.txt beside the records), two lines:

    0 ai r 0/4 a 1/0 4453362 ????W?W     the game as its record would read if left now (its
                                         size too: connect4.app.records)
    1 39041 5310 3                       RESUMES RNG_HI RNG_LO CURSOR

RESUMES: the starts after a crash that took the game back since its last move or hint
(connect4.boot's restart of the app, or the chip's after a panic or the watchdog:
connect4.hardware_setup's `after_crash`; a power-on is not counted). A crash that comes
back at the same position would otherwise restart the board until connect4.boot gives
up: the app gives the game up instead (recorded as abandoned) at the third such start.
RNG_HI, RNG_LO: the AI's connect4.engine.rng state; CURSOR: the cursor's column then.

One small file rewritten a move is light work for LittleFS. Writes are atomic
(connect4.app.store.replace); a leftover PATH.tmp is settled like the
records'. A file that does not read back as a game in progress (a bad line, an
illegal move, a finished game, a demo) is kept aside as PATH.bad, said on the
console, and nothing is taken back.
"""
from micropython import const

from connect4.app.store import Files, discard, refused, replace, settle
from connect4.app.records import parse

_MAX_FILE = const(240)  # bytes: a record line (at most about 140, on 8x7) and the second line


class SavedGame:
    def __init__(self, path="game.txt", fs=None):
        self.path = path
        self.fs = fs or Files()
        self.kept = True  # a file may be on flash (clear() removes it), until load() knows
        self.save_error = None  # why the first failed save failed (said once)

    def save(self, record, resumes, rng, cursor):
        """Write the game (`record`: connect4.app.records.Record, abandoned); False if the
        flash refused (the old file kept)."""
        err = replace(self.fs, self.path, self.path + ".tmp", "%s\n%d %d %d %d\n" % (
            record.line(), resumes, rng.hi, rng.lo, cursor))
        self.kept = True
        return True if err is None else refused(self, "game in progress", err)

    def load(self, board, rng):
        """The saved game put on `board`, its AI's random state in `rng`: (Record, resumes,
        cursor); or None (no file; a bad one is kept aside). Never raises.

        board: a Board of the game's size, or board(size) -> a Board of that size (the
        app's: it resizes its own, ValueError if its panel cannot show it)."""
        fs = self.fs
        path = self.path
        settle(fs, path, path + ".tmp")
        try:
            f = fs.open(path, "r")
        except OSError:
            self.kept = False
            return None
        try:
            try:
                lines = f.read(_MAX_FILE).split("\n")
            finally:
                f.close()
            record = parse(lines[0])
            resumes, hi, lo, cursor = [int(n) for n in lines[1].split(" ")]
            if (len(lines) != 3 or lines[2] or record.result != 3 or record.mode == "demo"
                    or not (0 <= resumes < 100 and 0 <= hi < 65536 and 0 <= lo < 65536 and hi | lo
                            and 0 <= cursor < 8)):
                raise ValueError
            if callable(board):
                board = board(record.size)
            if board.size != record.size or cursor >= board.cols:
                raise ValueError
            board.load(record.moves)  # ValueError on an illegal move, the board unchanged
        except Exception:  # ValueError, AttributeError (no record), UnicodeError...
            print("connect4: %s unreadable: kept as .bad" % path)
            discard(fs, path + ".bad")
            try:
                fs.rename(path, path + ".bad")
            except OSError:
                discard(fs, path)
            self.kept = False
            return None
        rng.hi = hi
        rng.lo = lo
        return record, resumes, cursor

    def clear(self):
        """No game in progress any more (removes the file, if one may be there)."""
        if self.kept:
            discard(self.fs, self.path)
            self.kept = False
