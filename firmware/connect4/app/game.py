"""The game on the matrix: the app's flow, a state machine over the drivers and the engine.

`App` receives the drivers (a Display, an Input, a Store, an optional
watchdog) and a clock (the `time` module on the board; tests pass a fake),
and never touches pins. `run()` loops: poll the controls, handle their
events, let time pass (TICK), draw when something changed (render.draw).

Each state (connect4.app.states) is one handler fn(app, sig, now) for ENTER
(its entry action), TICK and the input events, moving on with `_go(state)`;
`_STATES` (after the class) names them: the App's own `_on_<state>`, the AI's
turn and the hint (connect4.app.turn), the menu's and the replay's (loaded
while the menu shows). Adding a screen is a state, a handler, a table entry
and its picture in render.draw.

    state   entry            events                       time (TICK)
    INTRO   -                any: the game (or demo)      end of animation: the same
    PLAY    cursor playable  LEFT/RIGHT, SELECT: DROP     the AI to move: THINK; idle: demo
                             SELECT held + LEFT/RIGHT: HINT
    HINT    -                -                            frame shown: search -> PLAY, cursor on it
    THINK   -                -                            frame shown: search -> CHOSEN / HELD
    CHOSEN  -                SELECT: DROP (move now)      minimum think time over: DROP
    HELD    -                SELECT: DROP                 released, no click came: DROP
    DROP    -                LEFT/RIGHT                   landed: PLAY, or OVER (stats saved)
    OVER    -                SELECT: a new game (PLAY)    demo: next game; idle: demo
    MENU    the menu opens   the menu's; close: a new     idle: demo
                             game or back; a game: REPLAY
    REPLAY  -                LEFT/RIGHT step, SELECT      the next disc; idle: demo
                             pause, LONG_SELECT: MENU

Two rules hold in every state but MENU and REPLAY (`_event`): in the demo, any
input leaves it (back to the interrupted mode's game, or the menu); a long press
opens the menu (from INTRO it starts the game). In a game of two boards (`duo`,
connect4.app.twoboards) that game sees the other inputs first. The idle dimming is common to all
states but INTRO (`_idle`). `banner` scrolls text over any state until it has
gone by or an input ends it.

Settings: one rule for the menu and the page (connect4.app.newgame.restart_for): a new mode, level,
blunder or board size starts a new game (the one left is recorded at its own
levels); the AI always plays at the game's levels (`game_levels`). The page
(connect4.app.face, loaded with Wi-Fi) queues its writes on `commands`, applied by
step() before the tick, never inside the search; `pump()` lets the server run a
round from step() and from the search's poll hook; `interrupt` stops a search.
`serial(now)`, while the board listens for Improv Wi-Fi on its USB serial port
(connect4.ear, made by connect4.listen), hears it from step().

Each game ends (or is left) in the statistics and the records
(connect4.app.ending); the game in progress is kept on flash after each move
and taken back at start (connect4.app.resume); `marks` keeps what a search
proved of each move (`judge`, the simulator's solver, may mark them all).
`listener(kind, data)` hears "game" at each end (a dict of "mode", "moves",
"winner" side or -1, "first" side, "levels" by side, 0 for a person);
connect4.boot adds "app" at every start. Sides: 0 is red (you, against the AI),
1 yellow; whoever starts is the engine's player 1.
"""
import gc
import time
from micropython import const

from connect4.engine.board import Board, MAX_COLS, MAX_ROWS, parse_size
from connect4.hw.display import brightness_for
from connect4.hw.input import RIGHT, SELECT, LONG_SELECT
from connect4.modules import forget, use
from connect4.app import store, turn
from connect4.app.glyphs import RED, YELLOW
from connect4.app.render import Layout, DROP_ROW_MS, SIDE_COLORS, draw
from connect4.app.resume import keep, learn, mark_move
from connect4.app.states import (INTRO, PLAY, THINK, DROP, OVER, MENU, CHOSEN, HELD, REPLAY, HINT,  # noqa: F401
                                 TICK as _TICK, ENTER as _ENTER, MODE_AI, MODE_TWO, MODE_DEMO)

_INTRO_MS = const(1400)
_FRAME_MS = const(40)  # animation frame period
_DEMO_OVER_MS = const(3000)
# a move's mark in its record (records.MARKS): what a search proved of it
_UNKNOWN = const(63)  # "?": not known
_WINS = const(87)  # "W": the move wins (by force)
_LOSES = const(76)  # "L": the move loses (by force)
_WINNING_COL = const(128)  # + a column: before the move, a search proved that column wins
_ABANDONED = const(3)  # a record's result: the game left before its end


class App:
    def __init__(self, display, inp, settings_store, cfg, turn, board, rng, clock=time,
                 wdt=None, listener=None, records=None, saved=None, wifi=None, judge=None,
                 after_crash=False):
        self.display = display
        self.input = inp
        self.store = settings_store
        self.cfg = cfg
        self.clock = clock
        self.wdt = wdt
        self.listener = listener  # listener(kind, data): see the module docstring
        self.layout = Layout(display.width, display.height)
        self.turn = turn  # connect4.app.turn.Turn: the AI's turn and the hint
        turn.app = self
        self.ai = turn.ai  # its AIPlayer (its random generator is kept with the game in progress)
        self.rng = rng  # connect4.engine.rng.Rng: the demo's levels
        self.board = board  # connect4.engine.board.Board: the game
        self.settings = settings_store.settings
        self.records_at = records  # (path, fs) of the records file (records()), or None: none
        self.saved = saved  # connect4.app.resume.SavedGame, or None: the game is not kept
        self.after_crash = after_crash  # this start follows a crash (the hardware's, _resume)
        self.menu = None  # connect4.app.menu.Menu in MENU and REPLAY (loaded only then)
        self.replay = None  # the Replay in REPLAY (connect4.app.replay)
        # the game's record: hints by side, each move's known value (_learn, drop)
        self.judge = judge  # judge(moves, size) -> marks string or None (the simulator's perfect solver)
        self.hints = [0, 0]
        self.game_levels = (0, 0)  # by side, 0 for a person (new_game)
        self.marks = bytearray(b"?" * (MAX_COLS * MAX_ROWS))  # room for the largest board
        self.hint_col = -1  # the hinted column while the cursor stays on it
        self.colors = [0, RED, YELLOW]  # by engine player
        self.mode = MODE_AI
        self.resume_mode = -1  # leaving the demo: a game in this mode, or -1: the menu
        self.first_side = 0
        self.last_first = -1
        self.last_loser = -1
        self.demo_levels = (1, 1)  # by side
        self.demo_order = (0, 0)  # by move order: who moved first, who second
        self.cursor = 3  # the column the cursor is on (a new game: the centre)
        self.state = INTRO
        self.state_since = 0
        self.menu_return = PLAY
        self.dirty = True
        self.next_frame = 0
        self.last_input = 0
        self.idle_ms = 0  # since the last input, as of this loop step's TICK
        self.dimmed = False
        self.games = 0
        self.stopped = False  # the loop ends (run returns) at its next step
        self.restart = False  # ... and the board restarts then (connect4.boot): an Improv join's;
        # a game of two boards left (its text gone by first: step): a whole heap again
        # the web API (connect4.net): writes queued as (fn, arg), applied by step() as fn(app, arg,
        # now); `interrupt` stops a search at its next poll; pump() lets the server run one round
        self.commands = []
        self.interrupt = False
        self.pump = None
        self.serial = None  # serial(now) each step while listening for Improv (connect4.ear)
        self.web = None  # the Server serving this app, if any
        self.link = None  # Wi-Fi (connect4.net.link), made when the menu first turns it on
        self.wifi_on = False  # Wi-Fi as it is (the menu shows it; the saved switch: settings["wifi"])
        self.wifi_factory = wifi  # wifi(app, cfg) -> the Link (connect4.boot's), or None: no Wi-Fi
        self.banner = None  # text scrolling over everything (connect4.app.scroll), until done or input
        self.duo = None  # a game of two boards (connect4.app.twoboards), loaded for it, or None
        # drop animation
        self.drop_col = 0
        self.drop_row = -1
        self.drop_top = 0
        self.drop_bottom = 0
        self._set_brightness(self.settings["brightness"])

    # ---- helpers
    def _set_brightness(self, level):
        self.display.set_brightness(brightness_for(level))

    def side_to_move(self):
        return self.first_side if self.board.turn == 1 else 1 - self.first_side

    def ai_to_move(self):
        if self.mode == MODE_DEMO:
            return True
        if self.duo is not None:  # two boards: this board's side, if its AI plays it
            return self.duo.ai_turn(self)
        return self.mode == MODE_AI and self.side_to_move() == 1

    def _elapsed(self, now):
        """ms in the current state."""
        return self.clock.ticks_diff(now, self.state_since)

    # ---- the state machine
    def start(self):
        now = self.clock.ticks_ms()
        self.last_input = now
        if use("connect4.app.takeback").take_back(self):
            self._landed(now)  # no intro: the game goes on (or ends, if its last move did)
        else:
            self._go(INTRO, now)
        if self.settings["wifi"]:  # on when the board stopped: on again, as the menu does it
            self.wifi(now, True)

    def _go(self, state, now):
        """Enter `state`: its clock starts, the screen redraws, its ENTER action runs."""
        self.state = state
        self.state_since = now
        self.dirty = True
        if self.menu is not None and state != MENU and state != REPLAY:
            self._drop_menu()
        _STATES[state](self, _ENTER, now)

    def _drop_menu(self):
        """The menu is left: its code leaves the heap with it (connect4.app.menu, its statistics
        pages and games list, the replay, or a page in its place: connect4.app.pagehost and the
        scrolling text; loaded again when it opens: tests/test_dropped_modules.py). With Wi-Fi
        on, the heap's room is the network's margin (docs/web.md#cost)."""
        self.menu = self.replay = None
        forget("connect4.app.menu", "connect4.app.stats", "connect4.app.replay", "connect4.app.pagehost",
               "connect4.app.scroll")  # (the "play a board" page's imports: its scrolling text too)

    def _event(self, ev, now):
        """An input event: the rules for every state, then the state's own handler."""
        if self.banner is not None:  # input ends the scrolling text, and only that
            self.banner = None
            self.dirty = True
            return
        state = self.state
        woken = self.dimmed
        if woken:
            self.dimmed = False
            self._set_brightness(self.settings["brightness"])
            self.dirty = True
        own = state == MENU or state == REPLAY  # states with their own rules for every input
        if self.mode == MODE_DEMO and not own:
            self.leave_demo(now)  # in the demo, any input leaves it
        elif woken:
            pass  # a dimmed board's first input only wakes it
        elif ev == LONG_SELECT and state != INTRO and not own:  # the menu, from the game
            if state == DROP:
                self._landed(now)  # the falling disc lands at once
            self.open_menu(now, OVER if self.state == OVER else PLAY)  # an abandoned search starts again
        elif self.duo is not None and self.duo.event(self, ev, now):
            pass  # two boards: the other board's turn (wait), giving up on a lost one, the next game
        else:
            _STATES[state](self, ev, now)

    def _idle(self, now):
        """Time passes: the idle dimming, common to every state (step() then runs the state's TICK)."""
        cfg = self.cfg
        self.idle_ms = self.clock.ticks_diff(now, self.last_input)
        if (not self.dimmed and cfg["idle_dim_ms"] and self.idle_ms >= cfg["idle_dim_ms"]
                and self.state != INTRO):
            self.dimmed = True
            self.display.set_brightness(max(1, brightness_for(self.settings["brightness"]) // 4))
            self.dirty = True

    # Each state is one method, called with ENTER (on entry), TICK (every loop
    # step) or an input event (LEFT, RIGHT, SELECT; LONG_SELECT only in INTRO
    # and MENU, see _event). It leaves by calling _go or a transition below.
    def _on_intro(self, sig, now):
        """Power-on animation; any input, or its end, starts the game."""
        if sig == _ENTER or (sig == _TICK and self._elapsed(now) < _INTRO_MS):
            return
        if sig != _TICK:
            self.input.flush()
        mode = self._mode_index(self.settings["mode"])  # the saved mode's first game
        if mode == MODE_DEMO:
            self.start_demo(now, -1)
        else:
            self.new_game(now, mode)

    def _on_play(self, sig, now):
        """The side to move chooses: the cursor for a person, THINK for the AI."""
        if sig == _ENTER:
            self._fix_cursor()
        elif self.ai_to_move():
            if sig == _TICK:
                self._go(THINK, now)
        elif sig == _TICK:
            limit = self.cfg["demo_idle_game_ms"]
            if limit and self.idle_ms >= limit:
                self.start_demo(now, self.mode)
        elif sig == SELECT:
            if self.board.can_play(self.cursor):
                self.drop(self.cursor, now)
        elif sig != _ENTER and self.input.pressed():  # the hint: SELECT held while turning
            self.input.flush()  # the held press gives nothing
            self._go(HINT, now)
        else:
            self._move_cursor(sig)

    def hinted(self, result, now):
        """The hint's search is done (connect4.app.turn.hint): counted, its proof kept in the
        record's marks, the cursor on its move, blinking, until it moves (PLAY)."""
        self.hints[self.side_to_move()] += 1
        stats = self.store.stats
        stats["hints"] = stats.get("hints", 0) + 1
        learn(self, result)
        self.cursor = self.hint_col = result.move
        keep(self)
        self._go(PLAY, now)

    def _on_drop(self, sig, now):
        """The disc falls row by row; the cursor may move meanwhile."""
        if sig == _TICK:
            if self._elapsed(now) >= (self.drop_bottom - self.drop_top + 1) * DROP_ROW_MS:
                self._landed(now)
        elif sig != _ENTER and sig != SELECT:
            self._move_cursor(sig)

    def _on_over(self, sig, now):
        """The result shows; a press starts the next game (the demo's starts by itself)."""
        if sig == _TICK:
            if self.mode == MODE_DEMO:
                if self._elapsed(now) >= _DEMO_OVER_MS:
                    self.new_game(now)
            elif self.cfg["demo_idle_ms"] and self.idle_ms >= self.cfg["demo_idle_ms"]:
                self.start_demo(now, self.mode)
        elif sig == SELECT:
            self.new_game(now)

    def _on_menu(self, sig, now):
        """The settings (connect4.app.menu's step, loaded while the menu shows), or a page in the
        menu's place (connect4.app.pagehost.Host: its own step): "play a board", or during a game
        of two boards this board's side instead of the menu (connect4.app.boardside)."""
        m = self.menu
        if m is None and self.duo is not None:
            use("connect4.app.boardside").show(self)
            m = self.menu
        if m is not None and hasattr(m, "step"):
            m.step(self, sig, now)
            return
        from connect4.app import menu
        menu.step(self, sig, now)

    def wifi(self, now, on):
        """The menu's Wi-Fi item, and start()'s when the saved switch is on
        (connect4.app.online's switch, loaded for it)."""
        use("connect4.app.online").switch(self, now, on)

    def _wifi_is(self, on):
        self.wifi_on = on
        if self.menu is not None:
            self.menu.wifi_on = on

    def short_of_memory(self, now):
        """Wi-Fi could not get the memory it needs: NO MEMORY scrolls over the game, which
        goes on untouched, and Wi-Fi stays off (the menu says so)."""
        self._wifi_is(False)
        gc.collect()
        try:
            self.banner = use("connect4.app.scroll").Scroller([("NO MEMORY", RED)], now)  # only now
        except MemoryError:
            pass
        self.dirty = True

    def _on_replay(self, sig, now):
        """A recorded game again (connect4.app.replay's step, loaded with the menu)."""
        from connect4.app import replay
        replay.step(self, sig, now)

    # ---- transitions shared by the states
    def new_game(self, now, mode=-1):
        """A new game (connect4.app.newgame, loaded for it: a game's start is rare), in `mode`
        if given."""
        use("connect4.app.newgame").start(self, now, mode)

    def board_for(self, size):
        """The app's board and layout made `size` ("8x7"), the board kept if it is so already;
        ValueError if the panel cannot show it (render.fits). Returns the board."""
        cols, rows = parse_size(size)
        board = self.board
        if board.cols != cols or board.rows != rows:
            d = self.display
            self.layout = Layout(d.width, d.height, cols, rows)  # ValueError first
            self.board = board = Board("", cols, rows)
        return board

    def set_first(self, side):
        """`side` starts this game: the engine's player 1 gets its colour."""
        self.first_side = side
        self.last_first = side
        self.colors[1] = SIDE_COLORS[side]
        self.colors[2] = SIDE_COLORS[1 - side]

    def _mode_index(self, name):
        return store.MODES.index(name) if name in store.MODES else MODE_AI

    def start_demo(self, now, back_to):
        """The demo; leaving it starts a game in mode `back_to`, or opens the menu if -1."""
        self.resume_mode = back_to
        self.new_game(now, MODE_DEMO)

    def leave_demo(self, now):
        self.input.flush()
        if self.resume_mode >= 0:
            self.new_game(now, self.resume_mode)
        else:
            self.open_menu(now, -1)  # closing the menu starts a new game

    def open_menu(self, now, back_to):
        """The menu; closing it unchanged goes back to `back_to` (PLAY or OVER; -1: a new game)."""
        self.menu_return = back_to
        self._go(MENU, now)

    def _fix_cursor(self):
        """Keep the cursor on a playable column (nearest to where it was)."""
        board = self.board
        if board.can_play(self.cursor):
            return
        for d in range(1, board.cols):
            for c in (self.cursor - d, self.cursor + d):
                if 0 <= c < board.cols and board.can_play(c):
                    self.cursor = c
                    return

    def _move_cursor(self, ev):
        """LEFT or RIGHT: to the next playable column that way."""
        step = 1 if ev == RIGHT else -1
        c = self.cursor + step
        while 0 <= c < self.board.cols:
            if self.board.can_play(c):
                self.cursor = c
                self.dirty = True
                return
            c += step

    def drop(self, col, now):
        """Play `col` for the side to move and start the falling animation."""
        board = self.board
        n = board.count
        mark_move(self.marks, n, col)
        self.hint_col = -1
        row = board.play(col)  # raises on an illegal move: a bug, never a game state
        keep(self)
        self.drop_col = col
        self.drop_row = row
        self.drop_top = max(0, self.layout.hover_y)  # the falling disc's first and last y
        self.drop_bottom = self.layout.cell_y(row)
        self._go(DROP, now)

    def _landed(self, now):
        self.drop_row = -1
        if self.board.is_over():
            self._game_over(now)
        else:
            self._go(PLAY, now)

    def _game_over(self, now):
        """The game is over: connect4.app.ending's `over`, loaded for it (as a game's end)."""
        use("connect4.app.ending").over(self, now)

    def records(self):
        """The records file (connect4.app.recordfile's Records, loaded for its user and gone
        from the heap with it), or None: no records."""
        at = self.records_at
        if at is None:
            return None
        return use("connect4.app.recordfile").Records(at[0], fs=at[1])

    def _end_game(self, result):
        """The game ends (result 0-2) or is left (3, abandoned): connect4.app.ending's end,
        loaded for it (a game's end is rare: its code need not stay on the heap)."""
        use("connect4.app.ending").end(self, result)

    # ---- the loop
    def step(self):
        clock = self.clock
        now = clock.ticks_ms()
        inp = self.input
        inp.poll(now)
        ev = inp.get()
        while ev:
            self.last_input = now
            self._event(ev, now)
            ev = inp.get()
        if inp.busy():
            self.last_input = now
        if self.pump is not None:
            self.pump()
        if self.serial is not None:
            self.serial(now)
        while self.commands:
            fn, arg = self.commands.pop(0)
            fn(self, arg, now)
        self._idle(now)
        _STATES[self.state](self, _TICK, now)  # called from here, not _idle: one frame less under the search
        if self.wdt is not None:
            self.wdt.feed()
        # redraw on a change, or every _FRAME_MS while the picture moves by itself:
        # all states but PLAY (its cursor blinks only on a board without a hover row)
        animating = (self.state != PLAY or self.layout.hover_y < 0 or self.hint_col >= 0
                     or self.banner is not None)
        if self.dirty or (animating and clock.ticks_diff(now, self.next_frame) >= 0):
            draw(self, now)
            self.display.show()
            self.dirty = False
            self.next_frame = clock.ticks_add(now, _FRAME_MS)
        if self.restart and self.banner is None:  # (its text gone by first)
            self.stopped = True

    def close(self):
        """Let go of what the app holds beyond its heap: Wi-Fi, its server and their sockets
        (files are closed where they are read). connect4.boot calls it after a crash, before
        the next app starts: a server left listening would keep the port. Never raises."""
        self.pump = None
        self._wifi_is(False)
        link = self.link
        if link is not None:
            try:
                link.off()
            except Exception as e:
                print("connect4: Wi-Fi off: %r" % e)

    def run(self, stop=None):
        """The main loop; returns when stop() is true (never, on the board)."""
        self.start()
        clock = self.clock
        pause = self.cfg["loop_ms"]
        while not self.stopped and (stop is None or not stop()):
            self.step()
            clock.sleep_ms(pause)


# The state machine's table: each state's method, by state number.
# THINK, CHOSEN, HELD and HINT: the AI's turn (connect4.app.turn).
_STATES = (App._on_intro, App._on_play, turn.think, App._on_drop, App._on_over, App._on_menu,
           turn.chosen, turn.held, App._on_replay, turn.hint)
