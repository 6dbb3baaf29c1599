"""Two boards, one game: the board that asked, the holder's paired client (yellow).

Every POLL_MS it asks the holder for the game (POST /api/board {}, through a Peer
that the Wi-Fi link hands out: connect4.net.peer; a request at a time, and the
pump never waits for it) and makes its own board the holder's (`follow`): the
holder's next move dropped here as a move falls; its own player's move played
at once and sent with its number (POST /api/move); anything else, the next
game, the holder gone, settled the holder's way by connect4.app.twoboards_setup.
The holder answers it, so it hears the holder; its polls are how the holder
hears it.

Loaded for such a game only (the menu's "play a board": connect4.app.boards; a
start: connect4.app.takeback), gone with it; connect4.app.twoboards has what
both boards do.
"""
from micropython import const

from connect4.app.records import clear_marks
from connect4.app.resume import keep
from connect4.app.states import PLAY, OVER, MODE_TWO
from connect4.app.twoboards import TwoBoards, setup
from connect4.modules import use

POLL_MS = const(1000)  # the holder asked this often (and so hears this board)
_START_MS = const(30000)  # an ask's game must come within this (the holder restarts into it)


def ask(app, fields, client, now):
    """This board's ask was taken (connect4.app.boards): the holder's client from now on,
    `fields` its file's (name, host, port, token, levels, wait), `client` its Peer."""
    duo = Asker(app, 1, fields)
    duo.client = client
    setup().asked(duo, app, now)


def resume(app, fields):
    """A start took back this board's game with a holder (connect4.app.takeback): it asks the
    holder again. True."""
    return use("connect4.app.twoboards_start").resumed(Asker(app, 1, fields), app)


def _valid(answer):
    """Is the holder's answer one this board can follow (POST /api/board {}'s fields)?"""
    try:
        moves = answer["moves"]
        lv = answer["levels"]
        return (isinstance(answer["game"], int) and isinstance(moves, str) and answer["first"] in (0, 1)
                and isinstance(answer["size"], str) and len(lv) == 2 and 0 <= lv[0] <= 8 and 0 <= lv[1] <= 8
                and all("1" <= c <= "8" for c in moves))
    except Exception:  # (KeyError, TypeError)
        return False


class Asker(TwoBoards):
    def __init__(self, app, side, fields):
        TwoBoards.__init__(self, app, side, fields)
        self.client = self.told = None  # its Peer; the holder's last answer
        self.first = self.gone = 0  # the first side of the holder's game; why it is gone
        self.size = "7x6"  # the size of the holder's game
        self.tell = self.moved = False  # its level, or the next game, to say; a move just sent
        self.since = self.next = self.heard

    def talk(self, app, now):
        """Safe under a search: the holder's answer taken, the next request made."""
        client = self.client
        link = app.link
        if client is None:
            if link is None or link.address is None:
                return  # Wi-Fi not up yet
            fields = self.fields
            client = self.client = use("connect4.net.peer").peer(link, fields["host"], fields["port"],
                                                                 fields["token"])
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
        if self.tell:  # this board's level, or the next game
            self.tell = False
            self.told = None  # (followed again from the next poll's answer, which has it)
            client.start("POST", "/api/board", {"level": self.fields["levels"][1], "name": link.name})
            return
        sent = None if self.moved else self.unsent(app)  # (a move sent: the next answer says)
        self.moved = sent is not None
        if self.moved:
            client.start("POST", "/api/move", sent)
        else:
            client.start("POST", "/api/board", {})

    def unsent(self, app):
        """This board's move, played here, that the holder's last answer does not have yet."""
        told = self.told
        if told is None or told["game"] != self.fields["game"]:
            return None
        local = app.board.moves_string()
        held = told["moves"]
        n = len(held)
        if len(local) == n + 1 and local[:n] == held and (n % 2 == 0) == (app.first_side == 1):
            return {"column": int(local[n]), "n": n}
        return None

    def follow(self, app, now):
        """At a safe point: this board made the holder's, a step at a time (its next move
        dropped here as a move falls), the holder's next game begun, this game's end played
        here once; anything else the holder's way at once. Here, not in
        connect4.app.twoboards_setup (loaded only to leave, the holder gone): a game's start and
        end would load that whole module meanwhile."""
        told = self.told
        state = app.state
        if self.gone:  # the holder has no game with this board
            setup().gone(self, app, now)
            return
        if told is None or state != PLAY and state != OVER:
            return
        fields = self.fields
        board = app.board
        game = told["game"]
        if game != fields["game"]:  # the holder's next game (or its first)
            try:
                app.board_for(told["size"])
            except ValueError:  # this panel cannot show it
                self.gone = 409
                return
            self.first = told["first"]
            self.size = told["size"]
            fields["game"] = game
            fields["levels"][0] = told["levels"][0]
            app.mode = MODE_TWO
            app.new_game(now)  # (started: its first side, size and levels)
            return
        if board.is_over() and fields.get("ended") != game:  # its end played here: not again
            fields["ended"] = game
            self.save()
            return
        if told["levels"][1] != fields["levels"][1]:  # its own level not taken yet, or told
            self.tell = True  # before a restart came (twoboards_setup.set_player): told again
        level = told["levels"][0]  # the holder's side: its buttons, or its AI at a level
        if level != app.game_levels[0]:
            app.game_levels = (level, app.game_levels[1])
        local = board.moves_string()
        held = told["moves"]
        if local == held or state != PLAY or self.unsent(app) is not None:
            return
        n = len(local)
        col = int(held[n]) - 1 if len(held) > n and held[:n] == local else -1
        if game != fields.get("ended") and 0 <= col < board.cols and board.can_play(col):
            app.drop(col, now)  # the holder's next move, falling as a move does
            return
        try:  # anything else: the holder's moves at once
            board.load(held)
        except ValueError:  # not a game: the holder's answer cannot be followed
            self.gone = 409
            return
        if game == fields.get("ended"):  # (after a restart) its end shown again, not played again
            app._go(OVER, now)
            return
        clear_marks(app.marks)
        keep(app)
        app._landed(now)
