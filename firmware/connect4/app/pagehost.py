"""A page in the menu's place: the "play a board" page (connect4.app.boards) and, during a game
of two boards, this board's side (connect4.app.boardside).

Its own small module: the board that is asked for a game shows only the page's first step,
and its heap then holds neither the menu's code nor the side's steps.
"""
from connect4.hw.input import LEFT, RIGHT, SELECT, LONG_SELECT
from connect4.app.states import TICK
from connect4.modules import use


class Host:
    """A page in the menu's place (the app's state MENU: App._on_menu, render.py, the face), with
    none of the menu's code: its inputs and the network's work go to the page. Leaving it (back,
    a long press, the menu's idle time): outside a game the page restarts the board (Boards.close);
    during one, back to the game, a phone's settings changed meanwhile applied as the menu's
    close applies its own."""

    def __init__(self, page):
        self.games = page
        self.changed = []  # (a phone's settings while the page shows: face.follow)

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
            use("connect4.app.newgame").after_menu(app, self.changed, now)

    def render(self, display, now):
        display.clear()
        self.games.render(display, display.height - 5)
