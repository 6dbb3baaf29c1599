"""This board's side in a game of two boards: who plays it, how long to wait for the other,
or leaving the game.

Two steps, the last of the page that asks for a game (connect4.app.boards), and the whole of
what a long press shows during a game of two boards (`show`: Side):

    PLAYER  who plays this board's side (its colour): P, you with the buttons, or this
            board's AI at level 1-8; during a game also X (red): leave it, as giving up
            waiting does (a loss for neither, the board restarts into its own settings' game).
    WAIT    minutes to wait for the other board when it is lost before giving up
            (0: until a press).

Each page takes the menu's place (connect4.app.pagehost's Host): during a game of two boards
the menu's code never loads (its items are the board's own game's, and several of them
would end this one), nor does the page's finder, pairing and ask (connect4.app.boards); the
page loads this module for its last two steps only. On the emulated chip the menu beside the
game's code was a game of two boards' fullest moment. Leaving the page (back, a long press,
the menu's idle time) restarts the board outside a game, and goes back to the game during
one.
"""
from micropython import const

from connect4.hw.input import SELECT
from connect4.app.glyphs import DIM, ORANGE, RED, draw_char, draw_number
from connect4.app.render import SIDE_COLORS
from connect4.modules import use

PLAYER = const(3)
WAIT = const(4)
WAITS = (0, 1, 2, 5, 10, 30)  # minutes before giving up on a lost board (0: only a press)
LEAVE = const(9)  # PLAYER during a game: after the levels, leave the game
_CLOSE = const(1)  # event(): the page closes (connect4.app.menu's CLOSE)


def level_after(level, step, leave=False):
    """PLAYER turned by `step`: P (0), then levels 1-8 (and LEAVE during a game), in a ring."""
    return (level + step) % (LEAVE + 1 if leave else LEAVE)


def wait_after(wait, step):
    """WAIT turned by `step`, in a ring of WAITS."""
    i = WAITS.index(wait) if wait in WAITS else 0
    return WAITS[(i + step) % len(WAITS)]


def draw(display, step, side, level, wait, gy):
    """PLAYER: the top row in the side's colour, P, the level or a red X (LEAVE); WAIT: the
    minutes."""
    if step == PLAYER:
        color = SIDE_COLORS[side]
        for x in range(display.width):
            display.set(x, 0, color)
        if level == LEAVE:  # a red X
            for i in range(5):
                display.set(1 + i, gy + i, RED)
                display.set(5 - i, gy + i, RED)
        elif level:
            draw_number(display, level, 0, gy, color)
        else:
            draw_char(display, "P", 2, gy, color)
    else:
        draw_number(display, wait, 0, gy, ORANGE if wait else DIM)


def show(app):
    """A long press during a game of two boards (App._on_menu): this board's side, the page in
    the menu's place (connect4.app.pagehost, imported here: the "play a board" page, which loads
    this module for its last steps, has its own, and App._drop_menu forgets it)."""
    from connect4.app.pagehost import Host
    app.menu = Host(Side(app))


class Side:
    """PLAYER and WAIT for the game under way: its levels and waiting time, changed by
    connect4.app.twoboards_setup.set_player; or the game left (LEAVE: twoboards_setup.give_up)."""

    def __init__(self, app):
        duo = app.duo
        self.app = app
        self.step = PLAYER
        self.side = duo.side
        self.level = duo.fields["levels"][duo.side]
        self.wait = duo.fields["wait"]

    def tick(self, app, now):
        pass

    def close(self):
        pass

    def event(self, step, ev):
        """An input: _CLOSE once the waiting time is pressed (the game's player set), else 0."""
        if self.step == PLAYER:
            if step:
                self.level = level_after(self.level, step, True)
            elif ev == SELECT and self.level == LEAVE:
                app = self.app
                if app.duo is not None:
                    use("connect4.app.twoboards_setup").give_up(app.duo, app, app.clock.ticks_ms())
                return _CLOSE
            elif ev == SELECT:
                self.step = WAIT
        elif step:
            self.wait = wait_after(self.wait, step)
        elif ev == SELECT:
            app = self.app
            if app.duo is not None:
                use("connect4.app.twoboards_setup").set_player(app.duo, app, self.level, self.wait)
            return _CLOSE
        return 0

    def render(self, display, gy):
        draw(display, self.step, self.side, self.level, self.wait, gy)
