"""A game of two boards begins, ends and comes back: the rare work of connect4.app.twoboards.

Loaded for each use and dropped again (connect4.modules.use, through
twoboards.setup()); it makes no board of its own (connect4.app.boardhold and
boardask do, and hand theirs here): a game held for another board or asked of one, a request
of the other board at the holder to leave (or another's in a lost one's place), the
asker's holder gone, this board's player changed, leaving, giving up. (A start
that takes the game back from flash: connect4.app.twoboards_start.)

The file (_FILE, beside the settings; written atomically): the other board's
name, the levels by side, the minutes to wait, the game's number at the holder,
"ended" (the asker: the number of the last game whose end it played); the
holder's the other board's token digest ("peer", hex), the asker's the holder's
address ("host", "port") and its token.
"""
from binascii import hexlify
from micropython import const

from connect4.app.states import MODE_TWO
from connect4.app.store import Files, discard
from connect4.modules import use, forget

_FILE = const("board.json")  # connect4.app.twoboards_start.FILE (named, not imported: a module this one
# imported would stay in the heap after this one is dropped)

_WHITE = 0xFFFFFF
_ORANGE = 0xFF5000


def _banner(app, text, color, now):
    app.banner = use("connect4.app.scroll").Scroller([(text, color)], now)
    app.dirty = True


# ---- how a game of two boards comes
def held(duo, app, who, data, now):
    """This board holds a game for the board `who` (its token's digest): red to its yellow."""
    duo.fields = {"role": 0, "name": data["name"], "peer": hexlify(who).decode(),
                  "levels": [0, data["level"]], "wait": 0, "game": 0}
    duo.peer = who
    begin(app, now)
    _banner(app, data["name"][-4:] + " PLAYS", _WHITE, now)


def asked(duo, app, now):
    """The holder took this board's ask: its file kept, a game begins here (the holder's first
    side and moves at its first answer)."""
    fields = duo.fields
    fields["role"] = 1
    fields["game"] = 0
    duo.save()
    begin(app, now)


def begin(app, now):
    """A new game of the two boards here (newgame.start: the game left recorded; the duo's
    `started` gives it the game's first side, levels and size)."""
    app.mode = MODE_TWO
    app.new_game(now)


# ---- the other board leaves the holder, or another takes a lost one's place
def ask_again(duo, app, who, data, now, hold):
    """The game's other board leaves (POST /api/board {"leave": true}), or another board asks
    while it is lost (`hold`: connect4.app.boardhold.hold; the rest: boardhold._asked)."""
    if who != duo.peer:
        leave(duo, app, now)
        if "leave" not in data:
            hold(app, who, data, now)
        return
    leave(duo, app, now, duo.fields["name"][-4:] + " LEFT")
    use("connect4.app.newgame").restart_for(app, [], now, True)


# ---- the asker's holder gone
def gone(duo, app, now):
    """The holder has no game with the asker `duo` (any more): it leaves (connect4.app.boardask
    follows the rest itself)."""
    duo.lost = duo.gone != 409  # (the holder has no game with it: nothing to tell)
    leave(duo, app, now, duo.fields["name"][-4:] + " LEFT")
    use("connect4.app.newgame").restart_for(app, [], now, True)


# ---- this board's player, leaving, giving up
def set_player(duo, app, level, wait):
    """This board's side handed to its AI at `level` (0: back to its buttons), and the minutes
    to wait (the menu's "play a board" during the game); the asker tells the holder. Its AI
    needs the table that its buttons did without: the board restarts, and the start makes it
    on a whole heap and takes the game back (the asker tells its level again: boardask)."""
    fields = duo.fields
    fields["levels"][duo.side] = level
    fields["wait"] = wait
    lv = list(app.game_levels)
    lv[duo.side] = level
    app.game_levels = tuple(lv)
    duo.save()
    duo.tell = duo.side == 1
    searcher = app.turn.searcher
    if not level:
        searcher.release()
    elif searcher.arena is None:
        app.restart = True


def give_up(duo, app, now):
    """No more waiting for the other board: the game is left (recorded as abandoned, a loss
    for neither) and the settings' game begins."""
    leave(duo, app, now)
    _banner(app, "GAME LEFT", _ORANGE, now)
    use("connect4.app.newgame").restart_for(app, [], now, True)


def leave(duo, app, now, text=None):
    """This board is out of the game of two boards (given up, a game of another mode, the other
    board left): its file gone, the pump back to the server's, and the board restarts once
    `text` has gone by. The asker tells the holder if it can (a moment's wait, at most the
    Peer's timeout)."""
    app.duo = None
    app.pump = duo.inner
    forget("connect4.app.twoboards")  # (imported by boardhold or boardask): gone with the game
    discard(Files(), app.cfg["flash_dir"] + _FILE)
    client = duo.client if duo.side else None
    if client is not None:
        if not duo.lost:
            client.ask("POST", "/api/board", {"leave": True})
        client.close()
        duo.client = None  # type: ignore[attr-defined]  # (the asker's)
    if text:
        _banner(app, text, _ORANGE, now)
    app.restart = True  # once its text has gone by (App.step): what the game loaded, the names
    # it interned for good and the AI's table, at its size again, all on a whole heap (connect4.boot)
