"""Two boards, one game: what both boards of a game over Wi-Fi do while it goes on.

The board that was asked holds the game (connect4.app.boardhold, `side` 0,
red): its flash, its rules; the other board's moves come through its page
(connect4.net.api: POST /api/board, POST /api/move with the move's
number "n"), checked there as a phone's are and more. The board that asked
(connect4.app.boardask, `side` 1, yellow) is its paired client: it asks the
holder for the game every second and makes its own board the holder's.

This module is what both do, the app's `duo` while the game goes on: each
plays its side with its own buttons or its own AI at a level
(`fields["levels"]` by side, 0: a person; the menu's "play a board" sets this
board's, connect4.app.boards). On the other board's turn this board pulses
that side's disc and any input says WAIT. The other board not heard for
LOST_MS is lost: LOST XXXX scrolls, the frame blinks red, and the game waits
(neither side moves) until it is heard again (restarted, powered off and on,
its Wi-Fi back): the same moves go on. A press while lost gives up waiting,
and so does the time set (`fields["wait"]`, minutes; 0: only a press).

game.py asks the duo whose AI is to move (`ai_turn`) and hands it the inputs
first (`event`), render.py lets it draw (`draw`, `mine`), newgame.py tells it
of a new game (`started`, or `leave` for a game of another mode), the page's
face asks it for the other board's routes (`route`, `may_move`) and the names
(`names`). The rare work (a game's beginning and end, leaving, giving up, a
start that takes it back, the file on flash) is connect4.app.twoboards_setup's,
loaded for each. Loaded for a game of two boards only, gone with it: its heap
is what the room with Wi-Fi on leaves (docs/web.md#cost).
"""
import gc
import json
from micropython import const

from connect4.app.glyphs import draw_char
from connect4.app.states import PLAY, OVER
from connect4.app.store import Files, replace
from connect4.hw.input import SELECT
from connect4.modules import use

TABLE = const(16)  # the AI's table during the game (entries): its room pays for this code (docs/web.md)
LOST_MS = const(3000)  # the other board not heard this long: lost (the matrix says it within 5 s)
_FILE = const("board.json")  # connect4.app.twoboards_start.FILE
_STEP_MS = const(75)  # a column each (connect4.app.scroll.STEP_MS)
_RED = const(0xFF0000)
_ORANGE = const(0xFF5000)


def setup():
    """connect4.app.twoboards_setup, loaded for one use."""
    return use("connect4.app.twoboards_setup")


def say(app, text, color, now):
    """Scroll `text` (capitals, digits, hex digits, spaces) over the game, in the resident font."""
    app.banner = _Said(text.replace("O", "0").replace("S", "5"), color, now)
    app.dirty = True


class _Said:
    """What the game says (WAIT, LOST XXXX), scrolled as connect4.app.scroll's Scroller does
    (the app's `banner`), but drawn from the resident font (connect4.app.glyphs): the scroll
    module and its columns came to 1.4 KB at once, and each such moment was the fullest of a
    board's heap in a game of two boards on the emulated chip."""

    def __init__(self, text, color, now):
        self.text = text
        self.color = color
        self.start = now

    def render(self, display, now, ticks_diff):
        """Draw the frame of time `now`; False once the text has gone by."""
        shift = ticks_diff(now, self.start) // _STEP_MS
        w = display.width
        if shift > w + 4 * len(self.text):
            return False
        display.clear()
        x = w - shift
        y = (display.height - 5) // 2
        for ch in self.text:
            draw_char(display, ch, x, y, self.color)  # (the display clips)
            x += 4
        return True


class TwoBoards:
    first = 0  # the asker's: the first side and the size of the holder's game (its answer's)
    size = "7x6"

    def __init__(self, app, side, fields):
        menu = app.menu
        if menu is not None:  # the menu (this board's "play a board" page) leaves first: on the
            page = menu.games  # emulated chip, the holder's GC heap grew when both were held
            if page is not None and hasattr(page, "close"):
                page.close()  # (its socket)
            app._drop_menu()
            menu = page = None
            gc.collect()
        self.app = app
        self.side = side  # 0: this board holds the game (red); 1: it asked (yellow)
        self.fields = fields  # its file's (connect4.app.twoboards_setup): name, levels, wait, game...
        self.lost = False
        now = app.clock.ticks_ms()
        self.heard = self.lost_at = now
        self.inner = app.pump  # the server's pump: this game pumps it, then itself (face.set_pump)
        app.pump = self.pump
        app.duo = self
        app.turn.searcher.release()  # (the start that takes the game back gives this board's AI
        # its table: table(); at the game's end the restart makes it whole: twoboards_setup.leave)

    def table(self, app):
        """The AI's table while the game goes on: TABLE entries when this board's AI plays its
        side, none when its buttons do (only the AI's move searches: a game of two boards has no
        hint). Its room is the network's: on the emulated chip the asker's game was 2.3 KB short
        of it with a table. At a start only (connect4.app.twoboards_start), on a whole heap."""
        if self.fields["levels"][self.side]:
            app.turn.searcher.resize(TABLE)
        else:
            app.turn.searcher.release()

    # ---- the app's questions (game.py, render.py, the page)
    def mine(self, app):
        """Is it this board's side's turn?"""
        return app.side_to_move() == self.side

    def ai_turn(self, app):
        """This board's AI to move (its side handed to it, its table made; not while the other
        board is lost)."""
        return (self.mine(app) and self.fields["levels"][self.side] > 0 and not self.lost
                and app.turn.searcher.arena is not None)

    def event(self, app, ev, now):
        """An input, before the state's own handler: True if taken here. A press while the
        other board is lost gives up waiting; on the other board's turn any input says WAIT;
        at a game's end the asker's press asks the holder for the next game; the hint's gesture
        says there is none."""
        if self.lost and ev == SELECT:
            setup().give_up(self, app, now)
        elif app.state == PLAY and not self.mine(app) and not app.board.is_over():
            say(app, "WAIT", _ORANGE, now)
        elif app.state == PLAY and ev != SELECT and app.input.pressed():  # (App._on_play's hint)
            app.input.flush()  # the held press gives nothing
            say(app, "NO HINT", _ORANGE, now)
        elif app.state == OVER and self.side and ev == SELECT:
            self.tell = True  # the holder begins the next game (connect4.app.boardask)
        else:
            return False
        return True

    def draw(self, app, display, now):
        """The other board lost: the frame blinks red. True on the other board's turn (its
        disc pulses, as the AI's does: render.draw)."""
        if self.lost and now % 600 < 300:
            for x, y in app.layout.frame:
                display.set(x, y, _RED)
        return not self.mine(app)

    def names(self, app):
        """The two boards by side, and whether the other one is lost (GET /api/state's "boards")."""
        own = app.link.name if app.link is not None else None
        other = self.fields["name"]
        return {"red": other if self.side else own, "yellow": own if self.side else other, "lost": self.lost}

    def route(self, app, who, data):
        """POST /api/board from the board `who` ({}: its poll; the holder answers them)."""
        return 409, {"error": "this board plays another board's game"}

    def may_move(self, app, who):
        """POST /api/move: why `who` may not move now, or None (the holder lets the other board)."""
        return "two boards play this game: their buttons move"

    def started(self, app, mode, now):
        """newgame.start made a new game: in a given `mode` (>= 0) it is another mode's, and
        this board leaves the game of two boards; else the holder numbers it (its first side
        by its settings), the asker takes the holder's first side and size; the levels are the
        boards'."""
        if mode >= 0:
            self.leave(app, now)
            return
        fields = self.fields
        if self.side:
            app.set_first(self.first)
            app.board_for(self.size)  # (this panel shows it: twoboards_setup.follow checked)
        else:
            fields["game"] += 1
        self.save()
        app.game_levels = tuple(fields["levels"])

    def save(self):
        """The file (connect4.app.twoboards_setup says what it holds), written atomically."""
        path = self.app.cfg["flash_dir"] + _FILE
        if replace(Files(), path, path + ".tmp", json.dumps(self.fields)) is not None:
            print("connect4: %s not saved" % path)

    def leave(self, app, now, text=None):
        """This board is out of the game (connect4.app.twoboards_setup)."""
        setup().leave(self, app, now, text)

    # ---- each round of the loop and of a search's poll (the app's pump)
    def pump(self):
        inner = self.inner
        if inner is not None:
            inner()
        app = self.app
        clock = app.clock
        now = clock.ticks_ms()
        if self.side:
            try:
                self.talk(app, now)  # type: ignore[attr-defined]  # (the asker's)
            except Exception as e:  # (a MemoryError): no answer this time; never a crash of the loop
                print("connect4: board: %r" % e)
        if not self.lost and clock.ticks_diff(now, self.heard) > LOST_MS:
            self.lost = True
            self.lost_at = now
            say(app, "LOST " + self.fields["name"][-4:], _RED, now)
        if app.turn.thinking or app.duo is not self:
            return  # nothing of the game changes under a search
        wait = self.fields["wait"]
        if self.lost and wait and clock.ticks_diff(now, self.lost_at) >= wait * 60000:
            setup().give_up(self, app, now)
        elif self.side:
            try:
                self.follow(app, now)  # type: ignore[attr-defined]  # (the asker's)
            except Exception as e:  # (a bad answer): not followed
                self.told = None
                print("connect4: board: %r" % e)

    def hear(self, now):
        """The other board was heard: not lost (any more)."""
        self.heard = now
        if self.lost:
            self.lost = False
            self.app.dirty = True
