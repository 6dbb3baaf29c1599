"""The menu's "play a board": find another board, pair with it, say who plays this board's side.

A page of the menu (connect4.app.menu: in the games list's place), loaded when
its item is chosen and gone with the menu. Wi-Fi comes on if it is off (kept
on, as the Wi-Fi item does). Its steps:

    FIND    this board's own four hex digits and pairing code scroll once (the other
            board's player types them); then the boards found on this network (those
            showing this page too: connect4.net.finder, through the Wi-Fi link), each
            scrolling its four hex digits (the top row: a dot each, the one shown
            white), then TYPE and back (<). Turn to walk them, press to pick.
    HEX     TYPE: the other board's four hex digits, a turn of 0-F and a press each
            (connect4-XXXX.local: where mDNS works).
    CODE    the pairing code the other board shows (its menu's Wi-Fi item confirmed
            "on" scrolls it), four digits, as a phone types it.
    PLAYER  who plays this board's side (its colour): P, you with the buttons, or this
            board's AI at level 1-8.
    WAIT    minutes to wait for the other board when it is lost before giving up
            (0: until a press).
    then this board pairs (POST /api/pair) and asks for the game (POST /api/board);
    the game begins (connect4.app.boardask: the other board holds it) and both boards
    restart into it, or what went wrong scrolls (WRONG CODE, LOCKED, BUSY, NO ANSWER)
    and FIND or CODE comes back.

Another board's ask comes while this page shows (`asked`, through the face: a
board shows this page to be asked), checked then and taken at the app's safe
point: the game's file written, the board restarts into the game, as the
asking board does once its ask is answered. No game is played while the page
shows: the AI's arena and table, and the menu's code (the menu leaves, the page
in its place: `show`, Host), give their room to the page and the ask. Leaving
the page without a game restarts the board, its table and menu whole again on a
whole heap.

During a game of two boards a long press shows connect4.app.boardside's page instead of
the menu (PLAYER and WAIT alone: this board's side handed to its AI at a level, or back to
the buttons, or the game left; and the waiting time, for the game under way), and this
module is not loaded.
"""
import json
from binascii import hexlify
from micropython import const
from time import ticks_diff

from connect4.hw.input import SELECT
from connect4.app.glyphs import WHITE, DIM, GREEN, ORANGE, CYAN, draw_char
from connect4.app.scroll import Scroller, glyph
from connect4.app.pagehost import Host
from connect4.app.store import Files, replace
from connect4.modules import use

_FIND = const(0)
_HEX = const(1)
_CODE = const(2)
_PLAYER = const(3)  # (connect4.app.boardside's PLAYER and WAIT)
_WAIT = const(4)
_BUSY = const(5)
_FILE = const("board.json")  # connect4.app.twoboards_start.FILE
_HEXES = "0123456789ABCDEF"


def show(app, menu, now):
    """The menu's item chosen (connect4.app.menu's step; during a game of two boards a long press
    shows connect4.app.boardside's page instead): the page in the menu's place, the menu's changes saved (the board
    restarts as the page leaves), the menu's code (4 KB) and its pages' gone from the heap, which
    the page and an ask need."""
    page = Boards(app, now)
    if menu.changed:
        app.store.save()
    app._drop_menu()  # (its code gone, as when it closes)
    app.menu = Host(page)


def _take(app, arg, now):
    """An ask taken (Boards.asked), at the app's safe point: this board holds the game from its
    next start, its file written (connect4.app.twoboards_setup says what it holds; the start
    takes it back: connect4.app.takeback), and restarts once the other board's name has
    scrolled (the answer long out): the game begins on a whole heap, none of this page's code,
    names or holes with it."""
    page, who, data = arg
    if app.duo is not None or page.taken or app.menu is None or app.menu.games is not page:
        return
    page.taken = True
    fields = {"role": 0, "name": data["name"], "peer": hexlify(who).decode(), "levels": [0, data["level"]],
              "wait": 0, "game": 0}
    path = app.cfg["flash_dir"] + _FILE
    if replace(Files(), path, path + ".tmp", json.dumps(fields)) is not None:
        page._back(app, now, "NOT SAVED", _FIND)  # (the flash refused: no game; the other board
        page.taken = False  # sees none and leaves)
        return
    app.banner = Scroller([(data["name"][-4:] + " PLAYS", WHITE)], now)
    app.restart = True  # (App.step: once the name has gone by)


class Boards:
    def __init__(self, app, now):
        self.app = app
        self.finder = None  # FIND: connect4.net.finder's Finder, once Wi-Fi has an address
        self.client = None  # BUSY: the Peer of the board picked
        self.found = []  # [(name, host, port)]
        self.index = 0
        self.digits = bytearray(4)
        self.pos = 0
        self.board = None  # the board picked: (name, host, port)
        self.code = ""
        self.asking = False  # BUSY: paired, asking for the game
        self.sides = None  # PLAYER and WAIT: connect4.app.boardside, loaded for them
        self.text = None  # FIND: the scrolling label and what it says
        self.label = None
        print("connect4: play a board: this board's page")  # (on the console as it opens)
        self.step = _FIND
        self.level = self.wait = 0
        self.side = 1  # the asking board plays yellow
        self.taken = False  # a game of two boards begins from here (no restart as it leaves)
        if not app.wifi_on:  # Wi-Fi on, as the menu's item turns it on (and keeps it on)
            ear = app.serial
            if ear is not None and not hasattr(ear, "ear"):  # listening (connect4.listen): Wi-Fi
                ear.stop()  # and the ear never share the heap
            app.wifi(now, True)
            if app.wifi_on and not app.settings["wifi"]:
                app.settings["wifi"] = True
                app.store.save()
        # No game is played while the page shows: the AI's arena and table give their room to the
        # page and the ask; they are whole again after the restart that leaving the page brings,
        # with a game (connect4.app.twoboards.table) or without (close)
        app.turn.searcher.release()

    def close(self):
        """Its sockets closed (leaving the page, or the game begun). Left without a game, the
        board restarts (connect4.boot, at the step's end): its AI's table whole again, on a
        whole heap."""
        if self.finder is not None:
            self.finder.close()
            self.finder = None
        if self.client is not None:
            self.client.close()
            self.client = None
        if self.app.duo is None and not self.taken:
            self.taken = True  # (once)
            self.app.restart = True

    def asked(self, app, who, data):
        """POST /api/board from the board `who` while this page shows (connect4.app.face): its
        ask checked now, taken at the app's safe point (_take), where this page and the menu
        leave before the game's code comes: (status, dict)."""
        err = use("connect4.app.boardcheck").error(data)
        if err:
            return err
        if "leave" in data:
            return 404, {"error": "no game with another board here"}
        if self.step == _BUSY or self.taken:
            return 409, {"error": "this board is asking another"}
        app.commands.append((_take, (self, who, data)))
        return 200, {"queued": "board"}

    # ---- the menu's step: the network's work
    def tick(self, app, now):
        link = app.link
        if self.step == _FIND:
            if self.finder is None and link is not None and link.address is not None:
                try:
                    self.finder = use("connect4.net.finder").finder(link, app.cfg)
                except Exception as e:  # (no socket): only TYPE and back
                    self.finder = False
                    print("connect4: boards: %r" % e)
                web = app.web  # this board's own four digits and code, for the other board's player
                app.banner = Scroller([(link.name[-4:] + (" CODE " + web.pairing.code if web else ""),
                                        WHITE)], now)
            if self.finder:
                self.finder.pump()
                self.found = self.finder.found
        elif self.step == _BUSY:
            got = self.client.pump()  # type: ignore[union-attr]  # (BUSY: set)
            if got is not None:
                self._answered(app, got, now)

    def _answered(self, app, got, now):
        status, answer = got
        client = self.client
        if not self.asking:  # the pairing's answer
            if status == 200 and isinstance(answer, dict) and isinstance(answer.get("token"), str):
                client.token = answer["token"]  # type: ignore[union-attr]
                self.asking = True
                client.start("POST", "/api/board", {"level": self.level, "name": app.link.name})  # type: ignore[union-attr]
                return
            self._back(app, now, "WRONG CODE" if status == 403 else "LOCKED" if status == 429
                       else "NO ANSWER", _CODE if status == 403 else _FIND)
            return
        if status == 200:  # the game is on: the other board holds it
            name, host, port = self.board  # type: ignore[misc]
            levels = [0, 0]
            levels[self.side] = self.level
            self.taken = True
            self.close()  # (its Peer too: the game's own comes after the restart)
            use("connect4.app.boardask").ask(app, {"name": name, "host": host, "port": port,
                                                    "token": client.token, "levels": levels,  # type: ignore[union-attr]
                                                    "wait": self.wait}, None, now)
            app.restart = app.stopped = True  # the game goes on after a restart (connect4.boot), on
            return  # a whole heap: none of this page's code, names or holes (takeback resumes it)
        self._back(app, now, "BUSY" if status == 409 else "NO ANSWER", _FIND)

    def _back(self, app, now, text, step):
        """What went wrong scrolls; back to `step`."""
        if self.client is not None:
            self.client.close()
            self.client = None
        app.banner = Scroller([(text, ORANGE)], now)
        self._to(step)

    def _to(self, step):
        self.step = step
        self.pos = 0
        self.text = None
        for i in range(4):
            self.digits[i] = 0
        if step != _FIND and self.finder:
            self.finder.close()
            self.finder = None

    # ---- the menu's inputs: 0 (stay), -1 (back to the menu's items), _CLOSE (close the menu)
    def event(self, step, ev):
        app = self.app
        now = app.clock.ticks_ms()
        st = self.step
        if st == _FIND:
            n = len(self.found) + 2  # the boards, TYPE, back
            if step:
                self.index = (self.index + step) % n
            elif ev == SELECT:
                i = self.index % n
                if i == n - 1:
                    self.close()
                    return -1
                if i == n - 2:
                    self._to(_HEX)
                else:
                    self.board = self.found[i]
                    self._to(_CODE)
        elif st == _HEX or st == _CODE:
            if step:
                self.digits[self.pos] = (self.digits[self.pos] + step) % (16 if st == _HEX else 10)
            elif ev == SELECT:
                self.pos += 1
                if self.pos == 4:
                    text = "".join(_HEXES[d] for d in self.digits)
                    if st == _CODE:
                        self.code = text
                        self._to(_PLAYER)
                        self.sides = use("connect4.app.boardside")  # (PLAYER and WAIT: until the ask)
                    else:
                        self._typed(app, text, now)
        elif st == _PLAYER:
            if step:
                self.level = self.sides.level_after(self.level, step)  # type: ignore[union-attr]  # (PLAYER: set)
            elif ev == SELECT:
                self.step = _WAIT
        elif st == _WAIT:
            if step:
                self.wait = self.sides.wait_after(self.wait, step)  # type: ignore[union-attr]  # (WAIT: set)
            elif ev == SELECT:
                self._go(app, now)
        return 0

    def _typed(self, app, digits, now):
        """TYPE: the board of these hex digits, by its name (mDNS; it waits for the answer)."""
        link = app.link
        finder = None
        if link is not None and link.address is not None:
            finder = self.finder or use("connect4.net.finder").finder(link, app.cfg)
        got = finder.resolve(digits) if finder else None
        if finder is not self.finder and finder:
            finder.close()
        if got is None:
            self._back(app, now, "CONNECT4-" + digits + " NOT FOUND", _FIND)
        else:
            self.board = got
            self._to(_CODE)

    def _go(self, app, now):
        """Pair with the board picked, then ask it for the game (tick follows the answers)."""
        name, host, port = self.board  # type: ignore[misc]
        self.sides = None  # (its steps done: their module goes before the client comes)
        self.client = use("connect4.net.peer").peer(app.link, host, port)
        self.asking = False
        self.client.start("POST", "/api/pair", {"code": self.code})
        self.step = _BUSY

    # ---- the picture
    def render(self, display, gy):
        app = self.app
        now = app.clock.ticks_ms()
        st = self.step
        w = display.width
        if st == _FIND:
            n = len(self.found) + 2
            i = self.index % n
            if i == n - 1:
                draw_char(display, "<", 2, gy, WHITE)
            else:
                label = self.found[i][0][-4:] if i < n - 2 else "TYPE"
                if (self.text is None or label != self.label
                        or not self.text.render(display, now, ticks_diff)):
                    self.text = Scroller([(label, GREEN if i < n - 2 else CYAN)], now)
                    self.label = label
                    self.text.render(display, now, ticks_diff)
            for k in range(min(n, w)):
                display.set(k, 0, WHITE if k == i else DIM)
        elif st == _HEX or st == _CODE:
            ch = _HEXES[self.digits[self.pos]]
            rows = glyph(ch)
            for dy in range(5):
                for dx in range(3):
                    if rows[dy] & (4 >> dx):
                        display.set(2 + dx, gy + dy, CYAN if st == _HEX else GREEN)
            for k in range(4):
                on = k < self.pos or (k == self.pos and now % 500 < 300)
                display.set(2 * k, 0, (GREEN if k < self.pos else WHITE) if on else DIM)
        elif st == _PLAYER or st == _WAIT:
            self.sides.draw(display, st, self.side, self.level, self.wait, gy)  # type: ignore[union-attr]
        else:  # BUSY: a dot runs along the top row
            display.set((now // 120) % w, 0, WHITE)
