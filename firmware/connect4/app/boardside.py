"""This board's side in a game of two boards: who plays it, and how long to wait for the other.

Two steps, the last of the page that asks for a game (connect4.app.boards) and all
of the menu's item "board" during a game of two boards (`show`: Side):

    PLAYER  who plays this board's side (its colour): P, you with the buttons, or this
            board's AI at level 1-8.
    WAIT    minutes to wait for the other board when it is lost before giving up
            (0: until a press).

Each page takes the menu's place (`Host`): the menu's code leaves the heap, and during a
game so does the page's finder, pairing and ask (connect4.app.boards). On the emulated
chip the asker's menu with that page beside the game's code was the fullest moment of a
game of two boards. Leaving the page (back, a long press, the menu's idle time) restarts
the board outside a game, and goes back to the game during one.
"""
from micropython import const

from connect4.hw.input import LEFT, RIGHT, SELECT, LONG_SELECT
from connect4.app.glyphs import DIM, ORANGE, draw_char, draw_number
from connect4.app.newgame import after_menu
from connect4.app.render import SIDE_COLORS
from connect4.app.states import TICK
from connect4.modules import use, forget

PLAYER = const(3)
WAIT = const(4)
WAITS = (0, 1, 2, 5, 10, 30)  # minutes before giving up on a lost board (0: only a press)
_CLOSE = const(1)  # event(): the page closes (connect4.app.menu's CLOSE)


def level_after(level, step):
    """PLAYER turned by `step`: P (0), then levels 1-8, in a ring."""
    return (level + step) % 9


def wait_after(wait, step):
    """WAIT turned by `step`, in a ring of WAITS."""
    i = WAITS.index(wait) if wait in WAITS else 0
    return WAITS[(i + step) % len(WAITS)]


def draw(display, step, side, level, wait, gy):
    """PLAYER: the top row in the side's colour, P or the level; WAIT: the minutes."""
    if step == PLAYER:
        color = SIDE_COLORS[side]
        for x in range(display.width):
            display.set(x, 0, color)
        if level:
            draw_number(display, level, 0, gy, color)
        else:
            draw_char(display, "P", 2, gy, color)
    else:
        draw_number(display, wait, 0, gy, ORANGE if wait else DIM)


def show(app, menu, now):
    """The menu's item "board" chosen during a game of two boards (connect4.app.menu's step):
    this board's side, the page in the menu's place."""
    app.menu = Host(Side(app), menu.wifi_on, menu.changed)
    forget("connect4.app.menu", "connect4.app.stats", "connect4.app.replay")


class Side:
    """PLAYER and WAIT for the game under way: its levels and waiting time, changed by
    connect4.app.twoboards_setup.set_player."""

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
                self.level = level_after(self.level, step)
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


class Host:
    """A page in the menu's place (the app's state MENU: App._on_menu, render.py, the face), with
    none of the menu's code: its inputs and the network's work go to the page. Leaving it (back,
    a long press, the menu's idle time): outside a game the page restarts the board (Boards.close);
    during one, back to the game, the menu's changes made before applied as the menu's close
    applies them."""

    def __init__(self, page, wifi_on, changed):
        self.games = page
        self.changed = changed  # (the menu's, and a phone's settings meanwhile: face.follow)
        self.wifi_on = wifi_on

    def step(self, app, sig, now):
        page = self.games
        if sig == TICK:
            page.tick(app, now)
            if app.menu is self and app.cfg["demo_idle_ms"] and app.idle_ms >= app.cfg["demo_idle_ms"]:
                self._leave(app, now)
        elif sig == LEFT or sig == RIGHT or sig == SELECT or sig == LONG_SELECT:
            app.dirty = True
            if sig == LONG_SELECT or page.event(1 if sig == RIGHT else -1 if sig == LEFT else 0, sig):
                self._leave(app, now)  # (the page's own back closed it already: once more is nothing)

    def _leave(self, app, now):
        self.games.close()
        if app.duo is not None and app.menu is self:
            after_menu(app, self.changed, now)

    def render(self, display, now):
        display.clear()
        self.games.render(display, display.height - 5)
