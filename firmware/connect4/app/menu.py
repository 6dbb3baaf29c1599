"""The menu: twelve items along the top row, the chosen one's value below
(the last items' dots are off an 8-wide panel's edge: the row scrolls).

Turning (LEFT/RIGHT) walks the items; a press starts changing the item (its
dot blinks), turning changes the value, a press confirms. "Stats" opens
pages of numbers instead, "games" the list of recorded games; "Back", or a
long press anywhere, leaves the menu.

    item        picture
    mode        AI / 2P / DM (vs AI, two players, demo)
    level       a rising bar of 1..8 columns (the digit on a 7-wide panel)
    first       who starts: a red disc, a yellow disc, both (alternate), L (the loser)
    blunder     the AI's blunder chance in percent, L = the level's own
    brightness  a bar of 1..7
    size        the board: its columns x rows in blue cells at the bottom left (a red
                and a yellow disc in its corner); the sizes this panel can show
                (connect4.app.render.sizes), 4x4 first; a change starts a new game
    wifi        a Wi-Fi fan, lit when on; confirming "on" turns it on or, if on, scrolls
                the address again (connect4/net/link.py); the switch is saved (settings
                "wifi", off by default): on again at the next start. Turned on, the values
                are: the other of on and off, a computer ("set up from a computer": Wi-Fi off,
                the board listens on its USB serial port for MENU_MS, connect4.listen),
                as it is
    phones      a phone (white); turned to "forget", crossed out in red: confirming forgets
                every paired phone (connect4.net.pairing) and draws a new pairing code
    stats       three bars (wins, losses, draws at the current level); press for numbers
    games       a white triangle (play); press for the list of recorded games
    board       two boards, a red disc on one, a yellow on the other: play a board over
                Wi-Fi (connect4.app.boards: find one, its code, who plays; during a game
                of two boards a long press shows this board's side instead of the menu:
                connect4.app.boardside)
    back        <

Statistics pages (of the board size chosen: store.table; drawn by
connect4.app.stats, loaded when first opened): one per AI level (its dot lit on the top row), then one
for two players (a red and a yellow dot); turning changes the page, a press
goes back. Each page shows its numbers in turn, 1.5 s each: wins (green),
losses (red), draws (blue); for two players red wins, yellow wins, draws.
The last page counts the hints asked for (white).

Games list: connect4.app.replay's, loaded when first opened; a press on a
game makes event() return its Record (the app replays it).

The app's state MENU is `step` here (connect4.app.game's table names it through
App._on_menu); the app loads this module when the menu opens and drops it, with
the statistics pages and the replay, when the menu is left (App._drop_menu):
with Wi-Fi on, the heap's room is the network's margin.
"""
from micropython import const

from connect4.hw.input import LEFT, RIGHT, SELECT, LONG_SELECT
from connect4.hw.display import mix
from connect4.engine.board import parse_size
from connect4.app import store
from connect4.app.render import Layout, sizes
from connect4.app.glyphs import (draw_char, draw_text, draw_number, draw_size, WHITE, DIM, RED,
                                 YELLOW, GREEN, CYAN, BLUE, ORANGE, FRAME, MODE_COLORS)
from connect4.app.states import REPLAY, TICK, ENTER, MODE_DEMO
from connect4.modules import use

ITEMS = ("mode", "level", "first", "blunder", "brightness", "size", "wifi", "phones", "stats", "games",
         "board", "back")
_WIFI = const(6)
_PHONES = const(7)
_STATS = const(8)
_GAMES = const(9)
_BOARD = const(10)
_BACK = const(11)
_MODE_TEXT = const(("AI", "2P", "DM"))

CLOSE = const(1)  # event(): close the menu; a Record: replay it
WIFI = const(2)  # event(): Wi-Fi on or off was confirmed (the value is `wifi_on`)
FORGET = const(3)  # event(): "forget paired phones" was confirmed
BOARD = const(4)  # event(): "play a board" was chosen
USB = const(5)  # event(): "set up from a computer" was confirmed


_DISC = const(b"\xe0\xe0\xe0")  # a disc, 3x3 (and a small board's frame)


def _bits(display, rows, x, y, color):
    """A picture: a byte a row from y down, its high bit at x (the display clips)."""
    for dy in range(len(rows)):
        bits = rows[dy]
        for dx in range(8):
            if bits & (128 >> dx):
                display.set(x + dx, y + dy, color)


def _cycle(values, value, step):
    i = values.index(value) if value in values else 0
    return values[(i + step) % len(values)]


class Menu:
    def __init__(self, settings, stats, on_brightness=None, records=None):
        self.settings = settings  # the store's dicts, changed in place
        self.stats = stats
        self.on_brightness = on_brightness
        self.records = records  # records() -> the records file (App.records), or None
        self.games = None  # the games list (connect4.app.replay.GameList) while it shows
        self.item = 0
        self.editing = False
        self.page = -1  # statistics page (level - 1, or MAX_LEVEL for two players), -1 = none
        self.page_since = 0
        self.now = 0
        self.changed = []
        self.wifi_on = False  # Wi-Fi as it is (App.wifi sets it); the saved switch: settings["wifi"]
        self.wifi_pick = 0  # the Wi-Fi item turned to: 0 as it is, 1 the other, 2 a computer
        self.forget = False  # the phones item turned to "forget", not yet confirmed
        self.panel = (8, 8)  # the display's width and height (the app's): the sizes it shows

    def event(self, ev):
        """Handle one input event; returns CLOSE when the menu should close, a Record to replay."""
        if ev == LONG_SELECT:
            return CLOSE
        step = 1 if ev == RIGHT else -1 if ev == LEFT else 0
        if self.games is not None:
            done = self.games.event(step, ev)
            if done == -1:  # back to the items
                self.games = None
                return 0
            return done
        if self.page >= 0:
            if step:
                from connect4.app.stats import PAGES  # loaded already: the page shows
                self.page = (self.page + step) % PAGES
                self.page_since = self.now
            else:
                self.page = -1
            return 0
        if self.editing:
            if step:
                self._change(step)
            elif ev == SELECT:
                self.editing = False
                if self.item == _WIFI:
                    usb = self.wifi_pick == 2
                    self.wifi_pick = 0
                    if usb:  # Wi-Fi off while the board listens (connect4.listen)
                        self.wifi_on = False
                    return USB if usb else WIFI
                if self.item == _PHONES and self.forget:
                    self.forget = False
                    return FORGET
            return 0
        if step:
            self.item = (self.item + step) % len(ITEMS)
        elif ev == SELECT:
            if self.item == _BACK:
                return CLOSE
            if self.item == _STATS:
                self.page = self.settings["level"] - 1
                self.page_since = self.now
            elif self.item == _GAMES:
                from connect4.app import replay  # loaded when first needed
                self.games = replay.games(self.records() if self.records is not None else None)
            elif self.item == _BOARD:
                return BOARD  # its page needs the app (step)
            else:
                self.editing = True
        return 0

    def _change(self, step):
        key = ITEMS[self.item]
        s = self.settings
        if key == "wifi":  # in turn: the other of on and off, a computer, as it is
            pick = (self.wifi_pick + step) % 3
            if pick == 1 or self.wifi_pick == 1:
                self.wifi_on = not self.wifi_on
            self.wifi_pick = pick
            return
        if key == "phones":
            self.forget = not self.forget
            return
        if key == "mode":
            s["mode"] = _cycle(store.MODES, s["mode"], step)
        elif key == "size":
            s["size"] = _cycle(sizes(self.panel[0], self.panel[1]), s["size"], step)
        elif key == "level":
            s["level"] = max(1, min(store.MAX_LEVEL, s["level"] + step))
        elif key == "first":
            s["first"] = _cycle(store.FIRSTS, s["first"], step)
        elif key == "blunder":
            i = store.BLUNDERS.index(s["blunder"]) if s["blunder"] in store.BLUNDERS else 0
            s["blunder"] = store.BLUNDERS[max(0, min(len(store.BLUNDERS) - 1, i + step))]
        elif key == "brightness":
            s["brightness"] = max(1, min(store.BRIGHTNESS_LEVELS, s["brightness"] + step))
            if self.on_brightness is not None:
                self.on_brightness(s["brightness"])
        if key not in self.changed:
            self.changed.append(key)

    def render(self, display, now):
        self.now = now
        display.clear()
        w, h = display.width, display.height
        gy = h - 5  # glyphs sit at the bottom
        blink = now % 500 < 300
        if self.games is not None:
            self.games.render(display, gy)
            return
        if self.page >= 0:
            from connect4.app import stats  # loaded when first needed
            stats.render(self, display, gy)
            return
        first = max(0, self.item - w + 1)  # a narrow panel shows the items near the chosen one
        for i in range(first, len(ITEMS)):
            if i == self.item:
                display.set(i - first, 0, WHITE if blink or not self.editing else 0)
            else:
                display.set(i - first, 0, DIM)
        key = ITEMS[self.item]
        s = self.settings
        if key == "mode":
            m = store.MODES.index(s["mode"])
            draw_text(display, _MODE_TEXT[m], 0, gy, MODE_COLORS[m])
        elif key == "size":
            cols, rows = parse_size(s["size"])
            draw_size(display, cols, rows)
        elif key == "level":
            level = s["level"]
            if w > store.MAX_LEVEL - 1:
                rows = h - 1
                for i in range(level):
                    color = mix(GREEN, RED, i * 255 // (store.MAX_LEVEL - 1))
                    for k in range(1 + i * (rows - 1) // (store.MAX_LEVEL - 1)):
                        display.set(i, h - 1 - k, color)
            else:
                draw_number(display, level, 0, gy, GREEN)
        elif key == "first":
            first = s["first"]
            if first == "loser":
                draw_char(display, "L", 2, gy, WHITE)
            else:
                if first != "yellow":
                    _bits(display, _DISC, 0 if first == "alternate" else 2, gy + 1, RED)
                if first != "red":
                    _bits(display, _DISC, 4 if first == "alternate" else 2, gy + 1, YELLOW)
        elif key == "blunder":
            if s["blunder"] < 0:
                draw_char(display, "L", 2, gy, CYAN)
            else:
                draw_number(display, s["blunder"], 0, gy, ORANGE)
        elif key == "brightness":
            for x in range(s["brightness"]):
                display.set(x, h - 1, WHITE)
                display.set(x, h - 2, WHITE)
        elif key == "wifi" and self.wifi_pick == 2:  # a computer: its screen, its keyboard
            _bits(display, b"\x7c\x44\x44\x7c", 0, gy, CYAN)
            _bits(display, b"\xfe", 0, h - 1, WHITE)
        elif key == "wifi":  # a fan of three arcs over a dot
            _bits(display, b"\xfe\x44\x28", 0, gy, GREEN if self.wifi_on else DIM)
            _bits(display, b"\x10", 0, h - 1, WHITE if self.wifi_on else DIM)
        elif key == "phones":  # a phone: its outline and its button row; "forget": crossed out in red
            forget = self.editing and self.forget
            _bits(display, b"\x38\x28\x28\x38\x38", 0, gy, DIM if forget else WHITE)
            if forget:
                _bits(display, b"\x44\x28\x10\x28\x44", 0, gy, RED)
        elif key == "stats":
            wld = self.table()["ai"][s["level"] - 1]
            top = max(1, max(wld))
            for i in range(3):
                color = (GREEN, RED, BLUE)[i]
                height = (wld[i] * 5 + top - 1) // top
                display.set(1 + 2 * i, h - 1, color if height else DIM)
                for k in range(height):
                    display.set(1 + 2 * i, h - 1 - k, color)
        elif key == "games":  # a triangle: play
            _bits(display, b"\x20\x30\x38\x30\x20", 0, gy, WHITE)
        elif key == "board":  # two small boards, a red disc on one, a yellow on the other
            _bits(display, _DISC, 0, gy + 1, FRAME)
            _bits(display, _DISC, w - 3, gy + 1, FRAME)
            display.set(1, gy + 3, RED)
            display.set(w - 2, gy + 3, YELLOW)
        else:
            draw_char(display, "<", 2, gy, WHITE)

    def table(self):
        """The statistics of the board size chosen ({"ai", "two"}: connect4.app.store)."""
        return store.table(self.stats, self.settings["size"])


def step(app, sig, now):
    """The app's state MENU: the settings; closing decides the next game (close). Idle
    here starts the demo. The Menu is made on entry (kept while a replay chosen from its
    games list runs: back from it, the list is as it was)."""
    if sig == ENTER:
        if app.menu is None:
            d = app.display
            m = app.menu = Menu(app.settings, app.store.stats, app._set_brightness, app.records)
            m.panel = (d.width, d.height)
            m.wifi_on = app.wifi_on
        app.replay = None
    elif sig == TICK:  # ("play a board" is a page in the menu's place, with its own step: boards.show)
        if app.cfg["demo_idle_ms"] and app.idle_ms >= app.cfg["demo_idle_ms"]:
            if app.menu.changed:
                app.store.save()
            mode = app._mode_index(app.settings["mode"])
            app.start_demo(now, -1 if mode == MODE_DEMO else mode)
    else:
        app.dirty = True
        m = app.menu
        done = m.event(sig)
        if done == CLOSE:
            app.input.flush()
            close(app, now)
        elif done == WIFI or done == USB:
            ear = app.serial
            if m.wifi_on and ear is not None and not hasattr(ear, "ear"):  # listening (connect4.listen):
                ear.stop()  # Wi-Fi and the ear never share the heap
            app.wifi(now, m.wifi_on)
            if app.settings["wifi"] != app.wifi_on:  # the switch as it stands, kept
                app.settings["wifi"] = app.wifi_on
                app.store.save()
            if done == USB:  # Wi-Fi off, the board listens on its USB serial port (connect4.listen)
                listen = use("connect4.listen")
                heard = listen.start(app, now, listen.MENU_MS)
                app.banner = use("connect4.app.scroll").Scroller([("USB SETUP", CYAN) if heard else
                                                                  ("NO USB", RED)], now)
        elif done == FORGET:
            link = use("connect4.app.online").link(app, now)
            if link is not None:
                link.forget_phones(now)
        elif done == BOARD:
            use("connect4.app.boards").show(app, m, now)  # (the menu leaves for it; during a game of
            # two boards the menu never shows: App._on_menu)
        elif done:  # the Record chosen on the games list
            from connect4.app import replay  # loaded when first needed
            d = app.display
            try:
                layout = Layout(d.width, d.height, *parse_size(done.size))
            except ValueError:  # a game from a bigger panel (its records copied here)
                return
            app.replay = replay.start(done, now, layout)
            app._go(REPLAY, now)


def close(app, now):
    """Close the menu: its changes saved and applied (connect4.app.newgame.after_menu)."""
    use("connect4.app.newgame").after_menu(app, app.menu.changed, now)
