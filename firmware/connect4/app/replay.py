"""The games list of the menu, and a recorded game played again (the app's REPLAY state).

Loaded when first needed (the menu's games item): a board that never
replays never holds it; the app drops it with the menu (App._drop_menu). The
app's state REPLAY is `step` here.

Games list: the records newest first (connect4.app.records); turning walks
it, a press on a game replays it (REPLAY), a press on an empty list goes
back. A page shows the game's number (its last two digits) and, on the top
row, its result (a red or yellow bar for the winner, blue a draw, dim
abandoned) and its mode's colour in the corner.

Replay:

The discs fall one by one, a step every STEP_MS; LEFT/RIGHT step back and
forth (and pause), a press pauses or plays on (at the end: from the start);
the app's long press leaves. At the end the winning four blinks as in a live
game, or a draw breathes.

Review marks: above the column of the last disc, a dot says what the record
knows of the position after it, seen by the side that moved (records.MARKS):
green a win, blue a draw, red a loss, nothing if not known. The dot blinks
where the result changed hands: the mover had better before this move
(the previous mark, seen from the other side) than after it.
"""
from micropython import const
from time import ticks_diff

from connect4.engine.board import Board, parse_size
from connect4.hw.input import LEFT, RIGHT, SELECT, LONG_SELECT
from connect4.app.glyphs import RED, YELLOW, GREEN, BLUE, WHITE, DIM, MODE_COLORS, draw_number
from connect4.app.render import draw_board, draw_frame, draw_win, draw_draw
from connect4.app.store import MODES
from connect4.app.states import MENU, TICK, ENTER, MODE_DEMO

STEP_MS = const(900)  # the pace of the discs
_DROP_ROW_MS = const(45)
_VALUE = {"W": 1, "D": 0, "L": -1}
_MARK_COLORS = {"W": GREEN, "D": BLUE, "L": RED}
RESULT_COLORS = (RED, YELLOW, BLUE, DIM)  # red won, yellow won, a draw, abandoned


class GameList:
    """The menu's page of recorded games; `chosen` is the Record shown (None: no games)."""

    def __init__(self, records):
        self.records = records
        self.offsets = records.offsets() if records is not None else []  # read once, on opening
        self.index = 0  # 0 = the newest
        self.chosen = None
        self._show(0)

    def _show(self, i):
        """The list at index i (kept within it); reads that one record."""
        n = len(self.offsets)
        self.index = max(0, min(n - 1, i))
        self.chosen = self.records.get(self.index, self.offsets) if n else None  # type: ignore[union-attr]

    def event(self, step, ev):
        """A turn (step -1/+1) or a press: 0 (stay), -1 (back to the items) or the Record to replay."""
        if step:
            self._show(self.index + step)
            return 0
        if ev == SELECT and self.chosen is not None:
            return self.chosen
        return -1

    def render(self, display, gy):
        record = self.chosen
        if record is None:  # no games yet
            for x in range(3):
                display.set(x, 0, DIM)
            draw_number(display, 0, 0, gy, DIM)
            return
        for x in range(3):
            display.set(x, 0, RESULT_COLORS[record.result])
        display.set(display.width - 1, 0, MODE_COLORS[MODES.index(record.mode)])
        draw_number(display, record.number % 100, 0, gy, WHITE)


def turned(marks, i):
    """Did move i change the result for its mover (known before and after, and worse)?"""
    if i < 1 or i >= len(marks):
        return False
    before = _VALUE.get(marks[i - 1])
    after = _VALUE.get(marks[i])
    return before is not None and after is not None and after < -before


class Replay:
    def __init__(self, record, now, layout=None):
        self.record = record
        self.layout = layout  # connect4.app.render.Layout for the record's size (the app's)
        self.board = Board("", *parse_size(record.size))
        self.colors = [0, RED, YELLOW] if record.first == 0 else [0, YELLOW, RED]
        self.paused = False
        self.since = now  # when the shown position was reached
        self.pos = 0  # discs shown
        self.length = self._legal(record.moves)  # the moves shown: those of a legal game

    def _legal(self, moves):
        """How many of `moves` make a game (a record from elsewhere may go on after a win)."""
        board = self.board
        for ch in moves:
            if not board.can_play(ord(ch) - 49):
                break
            board.play(ord(ch) - 49)
        n = board.count
        board.reset()
        return n

    def _show(self, pos, now):
        """The position after `pos` moves."""
        moves = self.record.moves
        pos = max(0, min(self.length, pos))
        board = self.board
        if pos < board.count:
            board.reset()
        while board.count < pos:
            board.play(ord(moves[board.count]) - 49)
        self.pos = pos
        self.since = now

    def at_end(self):
        return self.pos >= self.length

    def step(self, now):
        """Time passes: the next disc when its time has come; True if the picture changed."""
        if self.paused or self.at_end() or ticks_diff(now, self.since) < STEP_MS:
            return False
        self._show(self.pos + 1, now)
        return True

    def event(self, ev, now):
        if ev == LEFT or ev == RIGHT:
            self.paused = True
            self._show(self.pos + (1 if ev == RIGHT else -1), now)
        elif ev == SELECT:
            if self.at_end():
                self.paused = False
                self._show(0, now)
            else:
                self.paused = not self.paused
                self.since = now

    def render(self, d, layout, now):
        board = self.board
        colors = self.colors
        t = ticks_diff(now, self.since)
        d.clear()
        if board.winner:
            draw_win(d, layout, board, colors, board.winning_line(), t)
            return
        if board.is_full():
            draw_draw(d, layout, board, colors, t)
            return
        mover = colors[2 - (board.count & 1) if board.count else 1]  # whose disc was the last
        draw_frame(d, layout, WHITE if self.paused and t % 1000 < 500 else mover,
                   MODES.index(self.record.mode))
        if not board.count:
            draw_board(d, layout, board, colors)
            return
        col = board.history[board.count - 1]
        row = board.height(col) - 1
        draw_board(d, layout, board, colors, 255, col, row)
        top = max(0, layout.hover_y)
        bottom = layout.cell_y(row)
        d.set(col, min(bottom, top + t // _DROP_ROW_MS), colors[board.get(col, row)])
        mark = self.record.marks[board.count - 1] if self.record.marks else "?"
        if mark in _MARK_COLORS and layout.hover_y >= 0 and top + t // _DROP_ROW_MS >= bottom:
            if not turned(self.record.marks, board.count - 1) or t % 500 < 300:
                d.set(col, layout.hover_y, _MARK_COLORS[mark])


def games(records):
    """The menu's games list (the names the eager modules use are few: see records)."""
    return GameList(records)


def start(record, now, layout):
    """The replay of `record` from `now`, on `layout` (its size's)."""
    return Replay(record, now, layout)


def step(app, sig, now):
    """The app's state REPLAY: the recorded game again; a long press goes back to the list."""
    replay = app.replay
    if sig == TICK:
        if replay.step(now):
            app.dirty = True
        if app.cfg["demo_idle_ms"] and app.idle_ms >= app.cfg["demo_idle_ms"]:
            app.replay = None
            mode = app._mode_index(app.settings["mode"])
            app.start_demo(now, -1 if mode == MODE_DEMO else mode)
    elif sig == LONG_SELECT:
        app.input.flush()
        app._go(MENU, now)  # its entry drops the replay
    elif sig != ENTER:
        replay.event(sig, now)
        app.dirty = True
