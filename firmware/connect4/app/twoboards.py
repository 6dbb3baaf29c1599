"""Two boards, one game: the app's side of a game between this board and another, over Wi-Fi.

The board that was asked holds the game (HOLD): its flash, its rules. The
other board's moves come through its page (connect4.net.api: GET and POST
/api/board, POST /api/move with the move's number "n"), checked there as a
phone's are and more (only the other board's token, only on its side's turn,
only the move the board expects), and applied by the app at a safe point of
its loop. The board that asked (ASK) is its paired client: every POLL_MS it
asks the holder for the game (GET /api/board, through a Peer that the Wi-Fi
link hands out: connect4.net.peer) and makes its own board the holder's: the
holder's moves dropped one by one, its own player's move played at once and
sent with its number, anything else settled the holder's way.

Each board plays one side, the holder red and the asker yellow, with its own
buttons or its own AI at a level (`levels` by side, 0: a person; the menu's
"play a board" sets this board's, connect4.app.boards). On the other board's
turn this board's matrix pulses that side's disc and a press says WAIT. The
other board not heard for LOST_MS is lost: a banner says so, the frame blinks
red, and the game waits (neither side moves) until it is heard again
(restarted, powered off and on, its Wi-Fi back): the same moves go on. A press
while lost gives up waiting, and so does the time set (`wait`, minutes; 0:
only a press): the game is left, recorded as abandoned, a loss for neither.

Both flashes keep the game: the game in progress as any game's
(connect4.app.resume) and FILE (the other board, the levels, the game's number
at the holder, the waiting time; the asker's the holder's address and its
token too). A start takes them back (connect4.app.takeback); the holder's
flash is the truth, which the asker reads again.

Loaded for a game of two boards only (the menu's "play a board"; another
board's ask at the holder: connect4.app.face), gone from the heap with it. The
app holds it as `duo`: game.py asks it whose turn it is (`ai_turn`) and hands
it the inputs first (`event`), render.py lets it draw (`draw`, `mine`),
newgame.py tells it of a new game (`started`, or `leave` for one of another mode).
"""
import json
from binascii import hexlify
from micropython import const

from connect4.app import newgame
from connect4.app.glyphs import RED, ORANGE, WHITE
from connect4.app.records import clear_marks
from connect4.app.resume import keep
from connect4.app.states import PLAY, OVER, MODE_TWO
from connect4.app.store import Files, replace, discard, say
from connect4.hw.input import SELECT
from connect4.modules import use

HOLD = const(0)  # this board holds the game: it was asked
ASK = const(1)  # this board asked: the holder's paired client
FILE = "board.json"  # beside the settings
LOST_MS = const(3000)  # the other board not heard this long: lost (the matrix says it within 5 s)
POLL_MS = const(1000)  # the asker asks the holder this often (and so is heard)
_START_MS = const(8000)  # an ask's game must come within this (the holder applies it at a safe point)
_BLINK_MS = const(600)


def _say(app, text, color, now):
    """Scroll `text` over the game (connect4.app.scroll, loaded for it)."""
    app.banner = use("connect4.app.scroll").Scroller([(text, color)], now)
    app.dirty = True


def route(app, duo, who, data):
    """POST /api/board from the board `who` (its token's digest; `duo`: the game of two boards
    here, or None), its body `data` checked: (status, dict). Applied at the app's safe point."""
    level, name = data.get("level", 0), data.get("name", "")
    if (not (data.get("leave") is True and len(data) == 1) and (
            len(data) != 2 or not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= 8
            or not isinstance(name, str) or not 0 < len(name) <= 20)):
        return 400, {"error": "expected {\"level\": 0-8, \"name\": \"connect4-XXXX\"} or {\"leave\": true}"}
    if duo is not None and (duo.role or duo.peer != who) and not duo.lost:
        return 409, {"error": "another board plays here"}
    app.commands.append((_asked, (who, data)))
    app.interrupt = True  # a search under way stops at its next poll: a new game may come
    return 200, {"queued": "board"}


def _asked(app, arg, now):
    """Another board asks for a game, the next one, a new level, or leaves (at the safe point)."""
    app.interrupt = False
    who, data = arg
    if app.duo is not None:
        app.duo.asked(app, who, data, now)
    elif "leave" not in data:
        hold(app, who, data, now)


def hold(app, who, data, now):
    """Another board (`who`: its token's digest) asked for a game (POST /api/board, at the
    app's safe point): this board holds it, red, and begins it."""
    duo = TwoBoards(app, HOLD, {"name": data["name"], "peer": hexlify(who).decode(),
                                "levels": [0, data["level"]], "wait": 0, "game": 0})
    duo.begin(app, now)
    _say(app, data["name"][-4:] + " PLAYS", WHITE, now)


def ask(app, fields, client, now):
    """This board's ask was taken (connect4.app.boards): the holder's client from now on,
    `fields` its file's (name, host, port, token, levels, wait), `client` its Peer."""
    fields["game"] = 0
    duo = TwoBoards(app, ASK, fields)
    duo.client = client
    duo.save()
    duo.begin(app, now)  # its own board now; the holder's first side and moves at its answer


def resume(app):
    """At a start (connect4.app.takeback): the game of two boards the flash keeps, if any, back
    on the app; True if so (a game goes on: no intro). The holder with no game in progress
    taken back begins the next; the asker waits for the holder's answer."""
    path = app.cfg["flash_dir"] + FILE
    fs = Files()
    try:
        f = fs.open(path, "r")
    except OSError:
        return False  # none
    try:
        try:
            data = json.loads(f.read())
        finally:
            f.close()
        role = data["role"]
        for key in ("name", "levels", "wait", "game") + (("peer",) if role == HOLD else ("host", "port", "token")):
            data[key]
        duo = TwoBoards(app, role, data)
    except Exception:  # not one: said, and gone
        say("%s unreadable: no game of two boards" % path)
        discard(fs, path)
        return False
    if role == HOLD and not (app.board.count and app.mode == MODE_TWO):
        duo.begin(app, app.clock.ticks_ms())
    else:
        app.mode = MODE_TWO
        app.game_levels = tuple(data["levels"])
    return True


def _valid(answer):
    """Is the holder's answer one this board can follow (GET /api/board's fields)?"""
    try:
        moves = answer["moves"]
        lv = answer["levels"]
        return (isinstance(answer["game"], int) and isinstance(moves, str) and answer["first"] in (0, 1)
                and isinstance(answer["size"], str) and len(lv) == 2 and 0 <= lv[0] <= 8 and 0 <= lv[1] <= 8
                and all("1" <= c <= "8" for c in moves))
    except Exception:
        return False


class TwoBoards:
    def __init__(self, app, role, data):
        self.app = app
        self.role = role
        self.side = role  # the holder plays red (0), the asker yellow (1)
        self.fields = data  # FILE's fields
        data["role"] = role
        self.peer = None  # HOLD: the other board's token digest
        if role == HOLD:
            from binascii import unhexlify
            self.peer = unhexlify(data["peer"])
        self.first = 0  # ASK: the holder's game's first side and size, as its answer says
        self.size = "7x6"
        self.client = None  # ASK: the Peer (made once Wi-Fi is up: the link's)
        self.told = None  # ASK: the holder's last answer (GET /api/board's)
        self.gone = 0  # ASK: the holder has no game with this board (its status)
        self.tell = False  # ASK: this board's level changed: told with the next request
        self.moved = False  # ASK: the last request sent a move
        now = app.clock.ticks_ms()
        self.since = self.heard = self.lost_at = self.next = now
        self.lost = False
        self.path = app.cfg["flash_dir"] + FILE
        self.inner = app.pump  # the server's pump: this game pumps it, then itself (face.set_pump)
        app.pump = self.pump
        app.duo = self

    # ---- the app's questions (game.py, render.py)
    def mine(self, app):
        """Is it this board's side's turn?"""
        return app.side_to_move() == self.side

    def ai_turn(self, app):
        """This board's AI to move (its side handed to it; not while the other board is lost)."""
        return self.mine(app) and self.fields["levels"][self.side] > 0 and not self.lost

    def event(self, app, ev, now):
        """An input, before the state's own handler: True if taken here. A press while the
        other board is lost gives up waiting; on the other board's turn any input says WAIT;
        at a game's end the asker's press asks the holder for the next game."""
        if self.lost and ev == SELECT:
            self.give_up(app, now)
            return True
        state = app.state
        if state == PLAY and not self.mine(app) and not app.board.is_over():
            _say(app, "WAIT", ORANGE, now)
            return True
        if state == OVER and self.role == ASK and ev == SELECT:
            self.tell = True  # the holder begins the next game (POST /api/board)
            return True
        return False

    def draw(self, app, display, now):
        """The other board lost: the frame blinks red."""
        if self.lost and now % _BLINK_MS < _BLINK_MS // 2:
            for x, y in app.layout.frame:
                display.set(x, y, RED)

    def names(self, app):
        """The two boards by side, for the page (GET /api/state's "boards")."""
        link = app.link
        own = link.name if link is not None else None
        other = self.fields["name"]
        return {"red": own if self.side == 0 else other, "yellow": other if self.side == 0 else own,
                "lost": self.lost}

    # ---- a game of two boards begins, goes on, ends
    def begin(self, app, now):
        """A new game of the two boards on this board (newgame.start: the game left recorded;
        `started` below gives it its first side, levels and size)."""
        app.mode = MODE_TWO
        newgame.start(app, now)

    def started(self, app):
        """newgame.start made a new game: the holder numbers it (its first side by its settings),
        the asker takes the holder's first side and size; the levels are the boards'."""
        data = self.fields
        if self.role == HOLD:
            data["game"] += 1
            self.save()
        else:
            newgame.first_side(app, self.first)
            app.board_for(self.size)  # (checked by _follow: this panel shows it)
        app.game_levels = tuple(data["levels"])

    def set_player(self, app, level, wait, now):
        """This board's side handed to its AI at `level` (0: back to its buttons), and the
        waiting time (the menu's "play a board" during the game)."""
        data = self.fields
        data["levels"][self.side] = level
        data["wait"] = wait
        lv = list(app.game_levels)
        lv[self.side] = level
        app.game_levels = tuple(lv)
        self.save()
        self.tell = self.role == ASK  # the holder keeps the levels of its game

    def give_up(self, app, now):
        """No more waiting for the other board: the game is left (recorded as abandoned, a loss
        for neither) and the settings' game begins."""
        self.leave(app, now)
        _say(app, "GAME LEFT", ORANGE, now)
        newgame.restart_for(app, [], now, True)

    def leave(self, app, now, text=None):
        """This board is out of the game of two boards (given up, a game of another mode, the
        other board left): its file gone, the pump back to the server's. The asker tells the
        holder if it can (a moment's wait, at most the Peer's timeout)."""
        app.duo = None
        app.pump = self.inner
        discard(Files(), self.path)
        client = self.client
        if client is not None:
            if not self.lost:
                client.ask("POST", "/api/board", {"leave": True})
            client.close()
            self.client = None
        if text:
            _say(app, text, ORANGE, now)

    def save(self):
        err = replace(Files(), self.path, self.path + ".tmp", json.dumps(self.fields))
        if err is not None:
            say("%s not saved (%s)" % (self.path, err))

    # ---- each round of the loop and of a search's poll (the app's pump)
    def pump(self):
        inner = self.inner
        if inner is not None:
            inner()
        app = self.app
        clock = app.clock
        now = clock.ticks_ms()
        if self.role == ASK:
            try:
                self._talk(app, now)
            except Exception as e:  # (a MemoryError): no answer this time; never a crash of the loop
                say("board: %r" % e)
        if not self.lost and clock.ticks_diff(now, self.heard) > LOST_MS:
            self.lost = True
            self.lost_at = now
            _say(app, "LOST " + self.fields["name"][-4:], RED, now)
        if app.turn.thinking or app.duo is not self:
            return  # nothing of the game changes under a search
        wait = self.fields["wait"]
        if self.lost and wait and clock.ticks_diff(now, self.lost_at) >= wait * 60000:
            self.give_up(app, now)
        elif self.role == ASK:
            self._follow(app, now)

    def hear(self, now):
        """The other board was heard: not lost (any more)."""
        self.heard = now
        if self.lost:
            self.lost = False
            self.app.dirty = True

    # ---- HOLD: the other board's requests (connect4.app.face, from the API)
    def route(self, app, who, data):
        """GET (data None) and POST /api/board from the board `who`."""
        if data is not None:
            return route(app, self, who, data)
        if self.role:
            return 404, {"error": "no game with another board here"}
        if who != self.peer:
            return 403, {"error": "another board plays here"}
        self.hear(app.clock.ticks_ms())
        board = app.board
        return 200, {"game": self.fields["game"], "moves": board.moves_string(), "first": app.first_side,
                     "levels": list(app.game_levels), "size": board.size}

    def may_move(self, app, who):
        """POST /api/move: why `who` may not move now, or None (only the other board, on its turn)."""
        if who != self.peer:
            return "two boards play this game: their buttons move"
        self.hear(app.clock.ticks_ms())
        if self.mine(app):
            return "not your turn"
        return None

    def asked(self, app, who, data, now):
        """POST /api/board at the app's safe point: the other board leaves, tells its level, or
        asks for the next game; another board (this one lost) takes its place."""
        if who != self.peer:
            self.leave(app, now)
            if "leave" not in data:
                hold(app, who, data, now)
            return
        if "leave" in data:
            self.leave(app, now, self.fields["name"][-4:] + " LEFT")
            newgame.restart_for(app, [], now, True)
            return
        self.hear(now)
        self.fields["levels"][1 - self.side] = data["level"]
        self.fields["name"] = data["name"]
        lv = list(app.game_levels)
        lv[1 - self.side] = data["level"]
        app.game_levels = tuple(lv)
        if app.board.is_over():
            app.new_game(now)  # the next game (started: numbered)
        else:
            self.save()

    # ---- ASK: talking to the holder, and following it
    def _talk(self, app, now):
        """The network's side (safe under a search): the answer taken, the next request made."""
        client = self.client
        if client is None:
            link = app.link
            if link is None or link.address is None:
                return  # Wi-Fi not up yet
            data = self.fields
            client = self.client = link.peer(data["host"], data["port"], data["token"])
        got = client.pump()
        if got is not None:
            status, answer = got
            if status == 200 or status == 409:  # (409: a move not taken; the next answer says why)
                self.hear(now)
                if status == 200 and "game" in answer and _valid(answer):
                    self.told = answer
            elif status == 401 or status == 403 or (status == 404 and (
                    self.fields["game"] or app.clock.ticks_diff(now, self.since) > _START_MS)):
                self.gone = status  # the holder has no game with this board (any more)
        if not client.idle() or app.clock.ticks_diff(now, self.next) < 0:
            return
        self.next = app.clock.ticks_add(now, POLL_MS)
        data = self.fields
        if self.tell:
            self.tell = False
            client.start("POST", "/api/board", {"level": data["levels"][self.side],
                                                "name": app.link.name})
            return
        sent = None if self.moved else self._unsent(app)  # (a move sent: the next answer says)
        self.moved = sent is not None
        if self.moved:
            client.start("POST", "/api/move", sent)
        else:
            client.start("GET", "/api/board")

    def _unsent(self, app):
        """This board's move, played here, that the holder's last answer does not have yet."""
        answer = self.told
        if answer is None or answer["game"] != self.fields["game"]:
            return None
        local = app.board.moves_string()
        held = answer["moves"]
        n = len(held)
        if len(local) == n + 1 and local[:n] == held and (n % 2 == 0) == (app.first_side == self.side):
            return {"column": int(local[n]), "n": n}
        return None

    def _follow(self, app, now):
        """At a safe point: this board made the holder's, a step at a time (a new game, the
        next of its moves dropped, or its moves taken at once)."""
        if self.gone:
            self.lost = self.gone != 409  # (the holder has no game with it: nothing to tell)
            self.leave(app, now, self.fields["name"][-4:] + " LEFT")
            newgame.restart_for(app, [], now, True)
            return
        answer = self.told
        state = app.state
        if answer is None or state != PLAY and state != OVER:
            return
        data = self.fields
        board = app.board
        if board.is_over() and data.get("ended") != data["game"]:
            data["ended"] = data["game"]  # its end played here: not again after a restart
            self.save()
        game = answer["game"]
        if game != data["game"]:  # the holder's next game (or its first)
            try:
                app.board_for(answer["size"])
            except ValueError:
                self.gone = 409  # this panel cannot show it
                return
            self.first = answer["first"]
            self.size = answer["size"]
            data["game"] = game
            data["levels"][1 - self.side] = answer["levels"][1 - self.side]
            self.save()
            self.begin(app, now)
            return
        lv = list(answer["levels"])
        lv[self.side] = data["levels"][self.side]  # this board's own, told with its next request
        app.game_levels = tuple(lv)
        local = board.moves_string()
        held = answer["moves"]
        n = len(local)
        if local == held or self._unsent(app) is not None:
            return
        try:
            if game == data.get("ended"):  # (after a restart) its end, shown again, not played again
                board.load(held)
                app._go(OVER, now)
            elif len(held) > n and held[:n] == local and board.can_play(int(held[n]) - 1):
                if state == PLAY:
                    app.drop(int(held[n]) - 1, now)  # the holder's next move, falling as a move does
            else:  # anything else: the holder's moves, at once
                board.load(held)
                clear_marks(app.marks)
                keep(app)
                app._landed(now)
        except ValueError:  # not a game: the holder's answer cannot be followed
            self.gone = 409
