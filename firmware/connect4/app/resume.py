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

or, while the game's end is being written (counted in the statistics, appended to the
records, then this file removed), the ending: its record as it will be appended (its
result, its NUMBER in the records) and a fifth number, the game's count in the statistics
(their "ended"; 0: not counted, an abandoned game). A power cut anywhere in the ending
leaves this file: the next start does what was left (the statistics still below the count,
the records' newest number still not NUMBER) and nothing twice (connect4.app.game's
`_end_game`). A game left before its end (a new game, the demo) ends the same way.

    14 ai r 0/4 r 1/0 4453362 ????W?W
    0 39041 5310 3 27                    RESUMES RNG_HI RNG_LO CURSOR COUNT

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
        self.ending = None  # (count, number): the file holds a game's end being written

    def save(self, record, resumes, rng, cursor, count=-1):
        """Write the game (`record`: connect4.app.records.Record, abandoned); with `count`
        (0 or more), its ending instead (`record` final, numbered). False if the flash
        refused (the old file kept)."""
        err = replace(self.fs, self.path, self.path + ".tmp", "%s\n%d %d %d %d%s\n" % (
            record.line(), resumes, rng.hi, rng.lo, cursor, "" if count < 0 else " %d" % count))
        self.kept = True
        if count >= 0 and err is None:
            self.ending = (count, record.number)
        return True if err is None else refused(self, "game in progress", err)

    def load(self, board, rng):
        """The saved game put on `board`, its AI's random state in `rng`: (Record, resumes,
        cursor); or None (no file; a bad one is kept aside). Never raises. A game's end
        being written sets `ending` (count, number); the record is then the final one.

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
            numbers = [int(n) for n in lines[1].split(" ")]
            resumes, hi, lo, cursor = numbers[:4]
            count = numbers[4] if len(numbers) == 5 else -1  # an ending's count
            if (len(lines) != 3 or lines[2] or len(numbers) > 5 or count < -1 or record.mode == "demo"
                    or (record.result != 3 if count < 0 else record.number < 1)
                    or not (0 <= resumes < 100 and 0 <= hi < 65536 and 0 <= lo < 65536 and hi | lo
                            and 0 <= cursor < 8)):
                raise ValueError
            if callable(board):
                board = board(record.size)
            if board.size != record.size or cursor >= board.cols:
                raise ValueError
            board.load(record.moves)  # ValueError on an illegal move, the board unchanged
            if count >= 0 and board.is_over() != (record.result != 3):  # an end as the board has it
                board.reset()
                raise ValueError
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
        self.ending = (count, record.number) if count >= 0 else None
        return record, resumes, cursor

    def clear(self):
        """No game in progress any more (removes the file, if one may be there)."""
        self.ending = None
        if self.kept:
            discard(self.fs, self.path)
            self.kept = False
