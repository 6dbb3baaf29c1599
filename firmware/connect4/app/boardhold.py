"""Two boards, one game: the board that was asked, which holds the game (red).

Its flash, its rules: the game is this board's own game of two players (its
game in progress on flash, its records), with the other board's side played
through the page's API by that board's token only: POST /api/board {} (its poll:
the game as it follows it, and so it is heard), POST /api/move with the move's
number (`may_move`: only that token, only on its side's turn; the API refuses a
number that is not the board's count), POST /api/board otherwise (its level, the next
game, leaving: connect4.app.twoboards_setup, at the app's safe point). A phone
paired with this board watches; it moves nothing in a game of two boards.

Loaded for such a game only (another board's ask: connect4.app.face; a start:
connect4.app.takeback), gone with it; connect4.app.twoboards has what both
boards do.
"""
from binascii import unhexlify

from connect4.app.boardcheck import error
from connect4.app.twoboards import TwoBoards, setup


def hold(app, who, data, now):
    """Another board (`who`: its token's digest) asked for a game (POST /api/board, at the
    app's safe point): this board holds it, red, and begins it."""
    setup().held(Holder(app, 0, {}), app, who, data, now)


def resume(app, fields):
    """A start took back the game this board holds (connect4.app.takeback: the file's
    `fields`): it goes on, or with no game in progress the next begins. True."""
    duo = Holder(app, 0, fields)
    duo.peer = unhexlify(fields["peer"])
    return setup().resumed(duo, app)


def _asked(app, arg, now):
    """The other board's request at the app's safe point: its level and name, or the next game
    at a game's end (here: connect4.app.twoboards_setup would load at every game's start);
    leaving, or another board in a lost one's place, there."""
    app.interrupt = False
    duo, who, data = arg
    if app.duo is not duo:
        return  # (the game was left meanwhile)
    if who != duo.peer or "leave" in data:
        setup().ask_again(duo, app, who, data, now, hold)
        return
    duo.hear(now)
    fields = duo.fields
    fields["levels"][1] = data["level"]
    fields["name"] = data["name"]
    app.game_levels = (app.game_levels[0], data["level"])
    if app.board.is_over():
        app.new_game(now)  # the next game (duo.started: numbered)
    else:
        duo.save()


class Holder(TwoBoards):
    peer = b""  # the other board's token digest (POST /api/board and /api/move)

    def route(self, app, who, data):
        """POST /api/board from the board `who` ({}: its poll, the game as it follows it; else
        its level and name, the next game, leaving; another board in a lost one's place),
        checked now, applied at the app's safe point (_asked): (status, dict)."""
        if data:
            err = error(data)
            if err:
                return err
            if who != self.peer and not self.lost:
                return 409, {"error": "another board plays here"}
            app.commands.append((_asked, (self, who, data)))
            app.interrupt = True  # a search under way stops at its next poll: a new game may come
            return 200, {"queued": "board"}
        if who != self.peer:
            return 403, {"error": "another board plays here"}
        self.hear(app.clock.ticks_ms())
        board = app.board
        return 200, {"game": self.fields["game"], "moves": board.moves_string(), "first": app.first_side,
                     "levels": list(app.game_levels), "size": board.size}

    def may_move(self, app, who):
        """POST /api/move: why `who` may not move now, or None (only the other board, on its turn)."""
        if who != self.peer:
            return TwoBoards.may_move(self, app, who)
        self.hear(app.clock.ticks_ms())
        if self.mine(app):
            return "not your turn"
        return None
