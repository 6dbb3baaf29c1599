"""Taking a game in progress back at start (connect4.app.resume's file): loaded for it and dropped.

A start finds the game the last one left on flash (after a crash, a watchdog
reset or a power cut) and goes on with it at once; the code that reads and
checks the file, and puts the game back on the app, is used only then. A game
of two boards kept on flash comes back too (connect4.app.twoboards_setup and
boardhold or boardask, loaded only if its file is there).
"""
from micropython import const

from connect4.modules import use
from connect4.app.store import discard, settle, exists
from connect4.app.resume import keep

_MAX_FILE = const(240)  # bytes: a record line (at most about 140, on 8x7) and the second line
_ABANDONED = const(3)  # a record's result: the game left before its end
_RESUMES = const(2)  # a saved game taken back after crashes this often with no move since is given up
_TWO_BOARDS = const("board.json")  # connect4.app.twoboards_start.FILE


def load(saved, board, rng):
    """The game `saved` (a SavedGame) keeps, put on `board`, its AI's random state in `rng`: (Record, resumes,
    cursor); or None (no file; a bad one is kept aside). Never raises. A game's end
    being written sets `ending` (count, number); the record is then the final one.

    board: a Board of the game's size, or board(size) -> a Board of that size (the
    app's: it resizes its own, ValueError if its panel cannot show it)."""
    fs = saved.fs
    path = saved.path
    settle(fs, path, path + ".tmp")
    try:
        f = fs.open(path, "r")
    except OSError:
        saved.kept = False
        return None
    try:
        try:
            lines = f.read(_MAX_FILE).split("\n")
        finally:
            f.close()
        record = use("connect4.app.recordfile").parse(lines[0])  # (not kept: a start's work)
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
        saved.kept = False
        return None
    rng.hi = hi
    rng.lo = lo
    saved.ending = (count, record.number) if count >= 0 else None
    return record, resumes, cursor


def take_back(app):
    """At the app's start: the saved game in progress back on its board, if any; True if so.
    Starts after a crash (`after_crash`: connect4.boot's restart of the app, a panic, the
    watchdog) are counted with the game: taken back at two already with no move since, it is
    given up at the third instead, recorded as abandoned (a crash that comes back must not
    stop the board). A power-on is no crash: not counted, nothing written, so unplugging the
    board never gives a game up."""
    saved = app.saved
    got = load(saved, app.board_for, app.ai.rng) if saved is not None else None
    if got is None:
        return _two_boards(app)
    record, resumes, cursor = got
    app.mode = app._mode_index(record.mode)
    app.set_first(record.first)
    app.game_levels = record.levels
    app.hints[0], app.hints[1] = record.hints
    marks = app.marks
    for i in range(len(record.marks)):
        marks[i] = ord(record.marks[i])
    app.cursor = cursor
    crashed = app.after_crash
    left = saved.ending is not None and record.result == _ABANDONED  # was being left
    if left or crashed and resumes >= _RESUMES:
        if not left:
            print("connect4: game %s given up after %d restarts" % (record.moves, resumes))
        app._end_game(_ABANDONED)  # (an ending taken back: what was left of it)
        app.board.reset()
        return _two_boards(app)
    if crashed and saved.ending is None:
        keep(app, resumes + 1)
    _two_boards(app)
    return True  # (a finished game's ending taken back: connect4.app.game._landed ends it)


def _two_boards(app):
    """A game of two boards on flash, back on the app (its file read by
    connect4.app.twoboards_setup, the game by connect4.app.boardhold or boardask): True if a
    game goes on."""
    fs = app.saved.fs if app.saved is not None else None
    if fs is None or not exists(fs, app.cfg["flash_dir"] + _TWO_BOARDS):
        return False
    fields = use("connect4.app.twoboards_start").load(app)
    if fields is None:
        return False
    if fields["role"]:  # the board that asked (connect4.app.boardask), or the one that holds it
        return use("connect4.app.boardask").resume(app, fields)
    return use("connect4.app.boardhold").resume(app, fields)
