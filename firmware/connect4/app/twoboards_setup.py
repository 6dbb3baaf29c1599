"""A game of two boards begins, ends and comes back: the rare work of connect4.app.twoboards.

Loaded for each use and dropped again (connect4.modules.use, through
twoboards.setup()); it makes no board of its own (connect4.app.boardhold and
boardask do, and hand theirs here): a game held for another board or asked of one, a request
of the other board at the holder (its level, the next game, leaving), the
asker following the holder's next game or anything it cannot follow a move
at a time, this board's player changed, leaving, giving up, and a start that
takes the game back from flash.

The file (FILE, beside the settings; written atomically): the other board's
name, the levels by side, the minutes to wait, the game's number at the holder,
"ended" (the asker: the number of the last game whose end it played); the
holder's the other board's token digest ("peer", hex), the asker's the holder's
address ("host", "port") and its token.
"""
import json
from binascii import hexlify

from connect4.app import newgame
from connect4.app.records import clear_marks
from connect4.app.resume import keep
from connect4.app.states import OVER, MODE_TWO
from connect4.app.store import Files, discard, say
from connect4.modules import use, forget

FILE = "board.json"  # (connect4.app.twoboards' save and connect4.app.takeback know it too)
_WHITE = 0xFFFFFF
_ORANGE = 0xFF5000
_JOIN_MS = 10000  # a board started again has its network within this (the chip's join: a few s)


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
    if duo.side == 0 and not (app.board.count and app.mode == MODE_TWO):
        begin(app, now)
        return True
    app.mode = MODE_TWO
    app.game_levels = tuple(duo.fields["levels"])
    return True


def begin(app, now):
    """A new game of the two boards here (newgame.start: the game left recorded; the duo's
    `started` gives it the game's first side, levels and size)."""
    app.mode = MODE_TWO
    newgame.start(app, now)


# ---- the other board's requests at the holder
def route(app, duo, who, data, hold):
    """POST /api/board from the board `who` (`duo`: the game here, or None), its body checked:
    (status, dict); applied at the app's safe point (`hold`: connect4.app.boardhold.hold)."""
    if not data:
        return 404, {"error": "no game with another board here"}
    level, name = data.get("level", 0), data.get("name", "")
    if (not (data.get("leave") is True and len(data) == 1) and (
            len(data) != 2 or not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= 8
            or not isinstance(name, str) or not 0 < len(name) <= 20)):
        return 400, {"error": "expected {\"level\": 0-8, \"name\": \"connect4-XXXX\"} or {\"leave\": true}"}
    if duo is not None and (duo.side or duo.peer != who) and not duo.lost:
        return 409, {"error": "another board plays here"}
    app.commands.append((_asked, (who, data, hold)))
    app.interrupt = True  # a search under way stops at its next poll: a new game may come
    return 200, {"queued": "board"}


def _asked(app, arg, now):
    """POST /api/board at the app's safe point: a game held for that board, or its request to
    the game under way."""
    app.interrupt = False
    who, data, hold = arg
    if app.duo is not None:
        ask_again(app.duo, app, who, data, now, hold)
    elif "leave" not in data:
        hold(app, who, data, now)


def ask_again(duo, app, who, data, now, hold):
    """The game's other board leaves, tells its level, or asks for the next game; another
    board (this one lost) takes its place (`hold`: connect4.app.boardhold.hold)."""
    fields = duo.fields
    if duo.side or who != duo.peer:
        leave(duo, app, now)
        if "leave" not in data:
            hold(app, who, data, now)
        return
    if "leave" in data:
        leave(duo, app, now, fields["name"][-4:] + " LEFT")
        newgame.restart_for(app, [], now, True)
        return
    duo.hear(now)
    fields["levels"][1] = data["level"]
    fields["name"] = data["name"]
    app.game_levels = (app.game_levels[0], data["level"])
    if app.board.is_over():
        app.new_game(now)  # the next game (duo.started: numbered)
    else:
        duo.save()


# ---- the asker follows the holder
def follow(duo, app, now):
    """What the asker cannot follow a move at a time: the holder gone, its next game, this
    game's end played here, the holder's moves taken at once."""
    fields = duo.fields
    told = duo.told
    if duo.gone:
        duo.lost = duo.gone != 409  # (the holder has no game with it: nothing to tell)
        leave(duo, app, now, fields["name"][-4:] + " LEFT")
        newgame.restart_for(app, [], now, True)
        return
    game = told["game"]
    board = app.board
    if game != fields["game"]:  # the holder's next game (or its first)
        try:
            app.board_for(told["size"])
        except ValueError:  # this panel cannot show it
            duo.gone = 409
            return
        duo.first = told["first"]
        duo.size = told["size"]
        fields["game"] = game
        fields["levels"][0] = told["levels"][0]
        begin(app, now)
        return
    if board.is_over() and fields.get("ended") != game:  # its end played here: not again
        fields["ended"] = game
        duo.save()
        return
    try:
        board.load(told["moves"])
    except ValueError:  # not a game: the holder's answer cannot be followed
        duo.gone = 409
        return
    if game == fields.get("ended"):  # (after a restart) its end shown again, not played again
        app._go(OVER, now)
        return
    clear_marks(app.marks)
    keep(app)
    app._landed(now)


# ---- this board's player, leaving, giving up
def set_player(duo, app, level, wait):
    """This board's side handed to its AI at `level` (0: back to its buttons), and the minutes
    to wait (the menu's "play a board" during the game); the asker tells the holder."""
    fields = duo.fields
    fields["levels"][duo.side] = level
    fields["wait"] = wait
    lv = list(app.game_levels)
    lv[duo.side] = level
    app.game_levels = tuple(lv)
    duo.save()
    duo.tell = duo.side == 1


def give_up(duo, app, now):
    """No more waiting for the other board: the game is left (recorded as abandoned, a loss
    for neither) and the settings' game begins."""
    leave(duo, app, now)
    _banner(app, "GAME LEFT", _ORANGE, now)
    newgame.restart_for(app, [], now, True)


def leave(duo, app, now, text=None):
    """This board is out of the game of two boards (given up, a game of another mode, the other
    board left): its file gone, the pump back to the server's, and the board restarts once
    `text` has gone by. The asker tells the holder if it can (a moment's wait, at most the
    Peer's timeout)."""
    app.duo = None
    app.pump = duo.inner
    forget("connect4.app.twoboards")  # (imported by boardhold or boardask): gone with the game
    app.turn.searcher.resize(app.cfg["tt_entries_wifi" if app.wifi_on else "tt_entries"])
    discard(Files(), app.cfg["flash_dir"] + FILE)
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
