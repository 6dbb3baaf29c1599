"""The game on the matrix: flow, AI turns, demo, idle, menu and statistics.

`App` receives the drivers (a Display, an Input, a Store, an optional
watchdog) and a clock (the `time` module on the board; tests pass a fake),
and never touches pins. `run()` loops: poll the controls, handle their
events, advance the state, draw when something changed.

States: INTRO (power-on animation) -> PLAY (a player chooses a column) ->
THINK (the AI searches) -> DROP (the disc falls) -> PLAY ... -> OVER (the
result animation; a press starts the next game). MENU opens on a long press.

The AI's search blocks the loop, so its poll hook (every `poll_interval`
nodes) pulses the AI's disc, feeds the watchdog and reads the SELECT pin: a
new press stops the search at once. The press then resolves as usual: a
click plays the best move found so far, a long press abandons the search and
opens the menu. In the demo, any press leaves the demo.

Sides: side 0 is red (you, against the AI), side 1 yellow (the AI). Whoever
starts is the engine's player 1; the colours stay with the sides.
"""
import time
from micropython import const

from connect4.engine import levels
from connect4.engine.board import Board, WIDTH
from connect4.engine.player import AIPlayer
from connect4.engine.rng import Rng
from connect4.engine.search import Searcher, STOP_POLL
from connect4.hw.display import brightness_for, scale
from connect4.hw.input import LEFT, RIGHT, SELECT, LONG_SELECT
from connect4.app import store
from connect4.app.glyphs import RED, YELLOW
from connect4.app.menu import Menu, CLOSE
from connect4.app.render import (Layout, draw_board, draw_frame, draw_intro, draw_win, draw_draw,
                                 pulse)

INTRO = const(0)
PLAY = const(1)
THINK = const(2)
DROP = const(3)
OVER = const(4)
MENU = const(5)
STATE_NAMES = ("intro", "play", "think", "drop", "over", "menu")

MODE_AI = const(0)
MODE_TWO = const(1)
MODE_DEMO = const(2)
MODE_NAMES = ("vs AI", "two players", "demo")

SIDE_COLORS = (RED, YELLOW)
INTRO_MS = const(1400)
FRAME_MS = const(40)  # animation frame period
PULSE_MS = const(60)  # the thinking disc's redraw period inside the search (a show() costs a few ms on the chip)
DROP_ROW_MS = const(45)
DEMO_OVER_MS = const(3000)
HELD_GRACE_MS = const(150)  # a press seen by the search but never by the buttons


class App:
    def __init__(self, display, inp, settings_store, cfg, clock=time, wdt=None, seed=1,
                 time_cap_ms=0, node_rate=0, listener=None):
        self.display = display
        self.input = inp
        self.store = settings_store
        self.cfg = cfg
        self.clock = clock
        self.wdt = wdt
        self.time_cap_ms = time_cap_ms
        self.node_rate = node_rate  # >0: pace the search like a chip of this many nodes/s
        self.listener = listener
        self.layout = Layout(display.width, display.height)
        self.poll_interval = cfg["poll_interval"]
        self.searcher = Searcher(tt_entries=cfg["tt_entries"], poll_interval=self.poll_interval)
        self.ai = AIPlayer(seed=seed, searcher=self.searcher)
        self.rng = Rng(seed ^ 0x5DEECE6)
        self.board = Board()
        self.settings = settings_store.settings
        self.menu = Menu(self.settings, settings_store.stats, self._set_brightness)
        self.colors = [0, RED, YELLOW]  # by engine player
        self.mode = MODE_AI
        self.resume_mode = -1  # the demo started by itself: go back to this mode
        self.first_side = 0
        self.last_first = -1
        self.last_loser = -1
        self.demo_levels = (1, 1)
        self.cursor = 3
        self.state = INTRO
        self.state_since = 0
        self.menu_return = PLAY
        self.dirty = True
        self.next_frame = 0
        self.last_input = 0
        self.dimmed = False
        self.games = 0
        self.stopped = False
        # AI turn
        self.result = None
        self.last_search = None
        self.searched = False
        self.held = False
        self.held_since = 0
        self.thinking = False
        self.think_info = (0, 0, 0)  # depth, score, nodes of the last finished iteration
        self.think_nodes = 0
        self._polls = 0
        self._t0 = 0
        self._armed = False
        self._next_pulse = 0
        self._hook = self._poll  # bound once
        self._info_cb = self._info
        # drop animation
        self.drop_col = 0
        self.drop_row = -1
        self._set_brightness(self.settings["brightness"])

    # ---- helpers
    def _set_brightness(self, level):
        self.display.set_brightness(brightness_for(level))

    def now(self):
        return self.clock.ticks_ms()

    def _enter(self, state, now):
        self.state = state
        self.state_since = now
        self.dirty = True

    def side_to_move(self):
        return self.first_side if self.board.turn == 1 else 1 - self.first_side

    def ai_to_move(self):
        if self.mode == MODE_DEMO:
            return True
        return self.mode == MODE_AI and self.side_to_move() == 1

    def _elapsed(self, now):
        return self.clock.ticks_diff(now, self.state_since)

    def _emit(self, kind, data):
        if self.listener is not None:
            self.listener(kind, data)

    # ---- flow
    def start(self):
        now = self.now()
        self.last_input = now
        self._enter(INTRO, now)

    def new_game(self, now, mode=-1):
        if mode >= 0:
            self.mode = mode
        self.board.reset()
        first = self.settings["first"]
        if self.mode == MODE_DEMO or first == "alternate":
            side = 1 - self.last_first if self.last_first >= 0 else 0
        elif first == "loser":
            if self.last_loser >= 0:
                side = self.last_loser
            else:
                side = 1 - self.last_first if self.last_first >= 0 else 0
        else:
            side = 0 if first == "red" else 1
        self.first_side = side
        self.last_first = side
        self.colors[1] = SIDE_COLORS[side]
        self.colors[2] = SIDE_COLORS[1 - side]
        if self.mode == MODE_DEMO:
            self.demo_levels = levels.demo_pair(self.rng)
        self.cursor = 3
        self.result = None
        self._enter(PLAY, now)

    def _mode_index(self, name):
        return store.MODES.index(name) if name in store.MODES else MODE_AI

    def start_demo(self, now, from_idle):
        self.resume_mode = self.mode if from_idle else -1
        self.new_game(now, MODE_DEMO)

    def leave_demo(self, now):
        self.input.flush()
        if self.resume_mode >= 0:
            mode = self.resume_mode
            self.resume_mode = -1
            self.new_game(now, mode)
        else:
            self.open_menu(now, -1)  # closing the menu starts a new game

    def open_menu(self, now, back_to):
        self.menu_return = back_to
        self.menu.open(self.settings, self.store.stats)
        self.held = False
        self.result = None
        self.searched = False
        self._enter(MENU, now)

    def close_menu(self, now):
        changed = self.menu.changed
        if changed:
            self.store.save()
        mode = self._mode_index(self.settings["mode"])
        if mode == MODE_DEMO and ("mode" in changed or self.menu_return < 0):
            self.start_demo(now, False)
        elif ("mode" in changed or "level" in changed or "blunder" in changed
              or self.menu_return < 0 or self.mode == MODE_DEMO):
            self.new_game(now, mode)
        elif self.menu_return == OVER:
            self._enter(OVER, now)
        else:
            self._enter(PLAY, now)  # an abandoned search starts again
            self._fix_cursor()

    def _fix_cursor(self):
        """Keep the cursor on a playable column (nearest to where it was)."""
        board = self.board
        if board.can_play(self.cursor):
            return
        for d in range(1, WIDTH):
            for c in (self.cursor - d, self.cursor + d):
                if 0 <= c < WIDTH and board.can_play(c):
                    self.cursor = c
                    return

    def _move_cursor(self, step):
        c = self.cursor + step
        while 0 <= c < WIDTH:
            if self.board.can_play(c):
                self.cursor = c
                self.dirty = True
                return
            c += step

    def drop(self, col, now):
        """Play `col` for the side to move and start the falling animation."""
        row = self.board.play(col)  # raises on an illegal move: a bug, never a game state
        self.drop_col = col
        self.drop_row = row
        self.result = None
        self.searched = False
        self.held = False
        self._enter(DROP, now)

    def _drop_path(self):
        """First and last y of the falling disc."""
        return max(0, self.layout.hover_y), self.layout.cell_y(self.drop_row)

    def _landed(self, now):
        self.drop_row = -1
        board = self.board
        if board.is_over():
            self._game_over(now)
        else:
            self._enter(PLAY, now)
            self._fix_cursor()

    def _game_over(self, now):
        board = self.board
        if board.winner:
            winner = self.first_side if board.winner == 1 else 1 - self.first_side
            self.last_loser = 1 - winner
        else:
            winner = -1
            self.last_loser = -1
        result = 2 if winner < 0 else winner  # 0 red won, 1 yellow won, 2 draw
        if self.mode == MODE_AI:
            self.store.record_ai(self.settings["level"], result)
            self.store.save()
        elif self.mode == MODE_TWO:
            self.store.record_two(result)
            self.store.save()
        self.games += 1
        self._emit("game", {
            "mode": MODE_NAMES[self.mode], "moves": board.moves_string(), "winner": winner,
            "first": self.first_side,
            "levels": self.demo_levels if self.mode == MODE_DEMO else (0, self.settings["level"]),
        })
        self._enter(OVER, now)

    # ---- the AI
    def _level_for(self, side):
        if self.mode == MODE_DEMO:
            return self.demo_levels[side], None
        blunder = self.settings["blunder"]
        return self.settings["level"], None if blunder < 0 else blunder

    def _think(self, now):
        """Run the search (blocking; the poll hook keeps the matrix alive)."""
        level, blunder = self._level_for(self.side_to_move())
        self.ai.set_level(level)
        self.ai.blunder = blunder
        self._armed = not self.input.pressed()  # a press held from before must be released first
        self._polls = 0
        self._t0 = now
        self._next_pulse = now
        self.think_nodes = 0
        self.think_info = (0, 0, 0)
        self.thinking = True
        try:
            result = self.ai.choose(self.board, poll=self._hook, info=self._info_cb,
                                    time_ms=self.time_cap_ms)
        finally:
            self.thinking = False
        self.searched = True
        self.result = result
        self.last_search = result
        if result.stopped == STOP_POLL:
            self.held = True
            self.held_since = self.now()
        self.dirty = True

    def _info(self, depth, score, nodes):
        self.think_info = (depth, score, nodes)

    def _poll(self):
        """Called from inside the search every poll_interval nodes; truthy stops it."""
        self._polls += 1
        clock = self.clock
        self.think_nodes = self._polls * self.poll_interval
        if self.node_rate:
            due = self._polls * self.poll_interval * 1000 // self.node_rate
            ahead = due - clock.ticks_diff(clock.ticks_ms(), self._t0)
            if ahead > 0:
                clock.sleep_ms(ahead)
        now = clock.ticks_ms()
        if self.wdt is not None:
            self.wdt.feed()
        if clock.ticks_diff(now, self._next_pulse) >= 0:
            self._next_pulse = clock.ticks_add(now, PULSE_MS)
            self._draw_thinking(now)
            self.display.show()
        down = self.input.pressed()
        if not self._armed:
            self._armed = not down
            return False
        return down

    def _draw_thinking(self, now):
        x, y = self.layout.hover_cell(self.board, 3)
        self.display.set(x, y, scale(SIDE_COLORS[self.side_to_move()], pulse(now)))

    # ---- events
    def _event(self, ev, now):
        state = self.state
        if self.mode == MODE_DEMO and state != MENU:
            self.leave_demo(now)
            return
        if state == INTRO:
            self.input.flush()
            self._begin(now)
        elif state == MENU:
            self.dirty = True
            if self.menu.event(ev) == CLOSE:
                self.input.flush()
                self.close_menu(now)
        elif ev == LONG_SELECT:
            if state == DROP:
                self._landed(now)
                state = self.state
            self.open_menu(now, OVER if state == OVER else PLAY)
        elif state == PLAY and not self.ai_to_move():
            if ev == LEFT:
                self._move_cursor(-1)
            elif ev == RIGHT:
                self._move_cursor(1)
            elif ev == SELECT and self.board.can_play(self.cursor):
                self.drop(self.cursor, now)
        elif state == THINK:
            if ev == SELECT and self.searched and self.result is not None:
                self.drop(self.result.move, now)  # move now: the best so far
        elif state == DROP:
            if ev == LEFT:
                self._move_cursor(-1)
            elif ev == RIGHT:
                self._move_cursor(1)
        elif state == OVER:
            if ev == SELECT:
                self.new_game(now)

    def _begin(self, now):
        mode = self._mode_index(self.settings["mode"])
        if mode == MODE_DEMO:
            self.start_demo(now, False)
        else:
            self.new_game(now, mode)

    def _wake(self, now):
        self.dimmed = False
        self._set_brightness(self.settings["brightness"])
        self.dirty = True
        if self.mode == MODE_DEMO and self.state != MENU:
            self.leave_demo(now)

    # ---- time
    def _update(self, now):
        state = self.state
        cfg = self.cfg
        idle = self.clock.ticks_diff(now, self.last_input)
        if not self.dimmed and cfg["idle_dim_ms"] and idle >= cfg["idle_dim_ms"] and state != INTRO:
            self.dimmed = True
            self.display.set_brightness(max(1, brightness_for(self.settings["brightness"]) // 4))
            self.dirty = True
        if state == INTRO:
            if self._elapsed(now) >= INTRO_MS:
                self._begin(now)
        elif state == PLAY:
            if self.ai_to_move():
                self._enter(THINK, now)
                self.searched = False
                self.result = None
            else:
                limit = cfg["demo_idle_game_ms"]
                if limit and idle >= limit and self.mode != MODE_DEMO:
                    self.start_demo(now, True)
        elif state == THINK:
            if not self.searched:
                if self._elapsed(now) > 0 or not self.dirty:
                    self._think(now)
            elif self.held:
                if self.mode == MODE_DEMO:
                    self.leave_demo(now)
                elif (not self.input.busy() and not self.input.pressed()
                      and self.clock.ticks_diff(now, self.held_since) >= HELD_GRACE_MS):
                    self.drop(self.result.move, now)  # type: ignore[union-attr]  # set when searched
            else:
                wait = cfg["demo_move_ms"] if self.mode == MODE_DEMO else cfg["ai_min_think_ms"]
                if self._elapsed(now) >= wait:
                    self.drop(self.result.move, now)  # type: ignore[union-attr]  # set when searched
        elif state == DROP:
            top, bottom = self._drop_path()
            if self._elapsed(now) >= (bottom - top + 1) * DROP_ROW_MS:
                self._landed(now)
        elif state == OVER:
            if self.mode == MODE_DEMO:
                if self._elapsed(now) >= DEMO_OVER_MS:
                    self.new_game(now)
            elif cfg["demo_idle_ms"] and idle >= cfg["demo_idle_ms"]:
                self.start_demo(now, True)
        elif state == MENU:
            if cfg["demo_idle_ms"] and idle >= cfg["demo_idle_ms"]:
                if self.menu.changed:
                    self.store.save()
                self.start_demo(now, True)
                self.resume_mode = self._mode_index(self.settings["mode"])
                if self.resume_mode == MODE_DEMO:
                    self.resume_mode = -1

    def animating(self):
        return self.state in (INTRO, THINK, DROP, OVER, MENU) or self.layout.hover_y < 0

    # ---- drawing
    def render(self, now):
        d = self.display
        state = self.state
        t = self._elapsed(now)
        if state == INTRO:
            draw_intro(d, t)
            return
        if state == MENU:
            self.menu.render(d, now)
            return
        d.clear()
        layout = self.layout
        board = self.board
        if state == OVER:
            line = board.winning_line()
            if line:
                draw_win(d, layout, board, self.colors, line, t)
            else:
                draw_draw(d, layout, board, self.colors, t)
            return
        if state == DROP:
            mover = self.colors[board.get(self.drop_col, self.drop_row)]
            draw_frame(d, layout, mover, self.mode)
            draw_board(d, layout, board, self.colors, 255, self.drop_col, self.drop_row)
            top, bottom = self._drop_path()
            d.set(self.drop_col, min(bottom, top + t // DROP_ROW_MS), mover)
            return
        side = self.side_to_move()
        draw_frame(d, layout, SIDE_COLORS[side], self.mode)
        draw_board(d, layout, board, self.colors)
        if state == THINK:
            self._draw_thinking(now)
        elif not self.ai_to_move():
            x, y = layout.hover_cell(board, self.cursor)
            if layout.hover_y >= 0 or now % 500 < 300:
                d.set(x, y, SIDE_COLORS[side])

    # ---- the loop
    def step(self):
        clock = self.clock
        now = clock.ticks_ms()
        inp = self.input
        inp.poll(now)
        ev = inp.get()
        while ev:
            self.last_input = now
            if self.dimmed:
                self._wake(now)
            else:
                self._event(ev, now)
            ev = inp.get()
        if inp.busy():
            self.last_input = now
        self._update(now)
        if self.wdt is not None:
            self.wdt.feed()
        if self.dirty or (self.animating() and clock.ticks_diff(now, self.next_frame) >= 0):
            self.render(now)
            self.display.show()
            self.dirty = False
            self.next_frame = clock.ticks_add(now, FRAME_MS)

    def run(self, stop=None):
        """The main loop; returns when stop() is true (never, on the board)."""
        self.start()
        clock = self.clock
        pause = self.cfg["loop_ms"]
        while not self.stopped and (stop is None or not stop()):
            self.step()
            clock.sleep_ms(pause)

    def status(self):
        """One line for the simulator: mode, level, and what the AI is doing."""
        if self.state == MENU:
            return self.menu.page_label()
        if self.mode == MODE_DEMO:
            text = "demo: level %d (red) vs level %d (yellow)" % self.demo_levels
        elif self.mode == MODE_AI:
            text = "vs AI level %d" % self.settings["level"]
        else:
            text = "two players"
        text += " | " + STATE_NAMES[self.state]
        if self.thinking or (self.state == THINK and self.searched):
            depth, score, nodes = self.think_info
            text += " depth %d score %d nodes %d" % (depth, score, max(nodes, self.think_nodes))
        if self.dimmed:
            text += " | dimmed"
        return text
