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

from connect4.engine.search import is_win_score
from connect4.app.store import MODES, Files, discard, refused, replace
from connect4.app.records import Record
from connect4.app.states import MODE_DEMO

_ABANDONED = const(3)  # a record's result: the game left before its end
# a move's mark in the app's `marks` (the record's "?WDL" beside them): what a search proved of it
_UNKNOWN = const(63)  # "?": not known
_WINS = const(87)  # "W": the move wins (by force)
_LOSES = const(76)  # "L": the move loses (by force)
_WINNING_COL = const(128)  # + a column: before the move, a search proved that column wins


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

    def clear(self):
        """No game in progress any more (removes the file, if one may be there)."""
        self.ending = None
        if self.kept:
            discard(self.fs, self.path)
            self.kept = False


# ---- the app's game as it is kept (connect4.app.game calls these with itself)
def learn(app, result):
    """A search of the position before move n (the AI's, or a hint's): a proven score marks
    move n - 1 now (L or W), and leaves for move n (until mark_move marks it) 128 + the
    winning column, or L if every move loses."""
    marks = app.marks
    n = app.board.count
    score = result.score
    if not is_win_score(score):
        marks[n] = _UNKNOWN
        return
    marks[n] = _WINNING_COL + result.move if score > 0 else _LOSES
    if n:
        marks[n - 1] = _LOSES if score > 0 else _WINS


def mark_move(marks, n, col):
    """Move n is `col`: what the search before it proved (learn) marks it."""
    m = marks[n]
    marks[n] = _WINS if m == _WINNING_COL + col else _LOSES if m == _LOSES else _UNKNOWN


def as_record(app, result, judge=None):
    """The app's game as a Record (result: 0 red won, 1 yellow won, 2 draw, 3 abandoned); its
    marks are judge(moves, size)'s if it knows them, else the board's own."""
    board = app.board
    moves = board.moves_string()
    marks = judge(moves, board.size) if judge is not None else None
    if marks is None:
        marks = bytes(app.marks[:board.count]).decode()
    hints = app.hints
    return Record(MODES[app.mode], app.first_side, app.game_levels, result,
                  (min(99, hints[0]), min(99, hints[1])), moves, marks,  # (a record's hints: 0-99)
                  0, board.size)


def keep(app, resumes=0):
    """Save the app's game in progress (after each move and hint); the demo's is not kept."""
    if app.saved is not None and app.mode != MODE_DEMO:
        app.saved.save(as_record(app, _ABANDONED), resumes, app.ai.rng, app.cursor)
