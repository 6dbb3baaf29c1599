"""A game of two boards taken back at a start: its file read, the game going on.

Both boards restart into a game of two boards (connect4.app.boards) and after
a power cut: connect4.app.takeback loads this at the start, and
connect4.app.boardhold or boardask make the board's role from the file. Its own
module, not connect4.app.twoboards_setup's: what a module's code names is
interned for good on the chip, and the start's share of it is small.

The file (FILE, beside the settings; written atomically): the other board's
name, the levels by side, the minutes to wait, the game's number at the holder,
"ended" (the asker: the number of the last game whose end it played); the
holder's the other board's token digest ("peer", hex), the asker's the holder's
address ("host", "port") and its token.
"""
import json

from connect4.app.states import MODE_TWO
from connect4.app.store import Files, discard, say

FILE = "board.json"  # (connect4.app.twoboards, boards and takeback name it too)
_JOIN_MS = 10000  # a board started again has its network within this (the chip's join: a few s)


def load(app):
    """The file's fields, or None: none, or not one (said, and removed)."""
    path = app.cfg["flash_dir"] + FILE
    fs = Files()
    try:
        f = fs.open(path, "r")
    except OSError:
        return None
    try:
        try:
            fields = json.loads(f.read())
        finally:
            f.close()
        role = fields["role"]
        for key in ("name", "levels", "wait", "game") + (("peer",) if role == 0 else ("host", "port", "token")):
            fields[key]
        if role not in (0, 1) or len(fields["levels"]) != 2:
            raise ValueError
        return fields
    except Exception:  # (ValueError, KeyError, TypeError)
        say("%s unreadable: no game of two boards" % path)
        discard(fs, path)
        return None


def resumed(duo, app):
    """A start took the game of two boards back (connect4.app.takeback): the game in progress
    goes on; the holder with none begins the next, the asker waits for the holder's answer.
    True: a game goes on."""
    clock = app.clock
    now = clock.ticks_ms()
    duo.heard = clock.ticks_add(now, _JOIN_MS)  # (not lost while this board joins its network)
    duo.table(app)  # the AI's table if this board's AI plays its side
    if duo.side == 0 and not (app.board.count and app.mode == MODE_TWO):
        app.mode = MODE_TWO  # the next game here (newgame.start: the game left recorded; the
        app.new_game(now)  # duo's `started` gives it its first side, levels and size)
        return True
    app.mode = MODE_TWO
    app.game_levels = tuple(duo.fields["levels"])
    return True
