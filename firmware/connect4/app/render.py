"""Where the game sits on the matrix, and the drawing of its pictures.

Layout of the 7x6 board on the 8x8 reference panel (x right, y down):

    y0   h h h h h h h T    h: the disc hovering over the chosen column
    y1   f f f f f f f M    T: whose turn (the side's colour)   M: mode
    y2   b b b b b b b f    b: the 7x6 board, its bottom row at y7
    ...                     f: the board's blue frame
    y7   b b b b b b b f

Any other board sits at the bottom left the same way (column c at x = c, so
a smaller board leaves the top and the right dark), the hover row right
above it, then the frame's line and side column where the panel has room.
Where no side column is left for T and M (an 8-column board, or a 7x7
panel), the hover row's dark cells glow dimly in the mode's colour and the
hovering disc says whose turn it is. Without room for a hover row (a bare
7x6 strip) the cursor blinks on the cell where the disc would land.

`fits` is the one rule for the sizes a panel can show: a hover row above the
board, except on a panel no taller than the classic board (a bare strip).
"""
from micropython import const

from connect4.engine.board import WIDTH, HEIGHT, MIN_COLS, MAX_COLS, MIN_ROWS, MAX_ROWS, size_name
from connect4.hw.display import scale, mix
from connect4.app.glyphs import FRAME, MODE_COLORS, ERROR, RED, YELLOW
from connect4.app.states import INTRO, PLAY, DROP, OVER, MENU, REPLAY

_TINT = const(40)  # the hover row's mode glow, out of 255
SIDE_COLORS = (RED, YELLOW)  # by side: red (0), yellow (1)
DROP_ROW_MS = const(45)  # a falling disc's time a row
_HINT_BLINK_MS = const(200)  # the hinted column's quick blink


def fits(width, height, cols, rows):
    """Can a width x height panel show a cols x rows board (with its hover row, if it has one)?"""
    top = height - 1 if height > HEIGHT else height
    return MIN_COLS <= cols <= min(width, MAX_COLS) and MIN_ROWS <= rows <= min(top, MAX_ROWS)


def sizes(width, height):
    """The size names a panel can show, by columns then rows: the menu's values."""
    return [size_name(c, r) for c in range(MIN_COLS, MAX_COLS + 1)
            for r in range(MIN_ROWS, MAX_ROWS + 1) if fits(width, height, c, r)]


class Layout:
    def __init__(self, width, height, cols=WIDTH, rows=HEIGHT):
        if not fits(width, height, cols, rows):
            raise ValueError("a %dx%d panel cannot show a %dx%d board" % (width, height, cols, rows))
        self.width = width
        self.height = height
        self.cols = cols
        self.rows = rows
        room = height - rows  # rows above the board: the hover row, then the frame's line
        line = height - rows - 1 if room >= 2 else -1  # the line between the hover row and the board
        self.hover_y = room - 2 if room >= 2 else room - 1  # -1: no hover row
        self.turn_cell = (cols, self.hover_y) if width > cols and self.hover_y >= 0 else None
        self.mode_cell = (cols, line) if width > cols and line >= 0 else None
        frame = []
        if line >= 0:
            for x in range(cols):
                frame.append((x, line))
        if width > cols:
            for y in range(height - rows, height):
                frame.append((cols, y))
        self.frame = frame

    def cell_y(self, row):
        """y of an engine row (0 = bottom)."""
        return self.height - 1 - row

    def hover_cell(self, board, col):
        """Where the cursor or a thinking disc shows: the hover row, or the landing cell."""
        if self.hover_y >= 0:
            return col, self.hover_y
        row = board.height(col)
        return col, self.cell_y(row if row < self.rows else self.rows - 1)


def draw_board(display, layout, board, colors, level=255, hide_col=-1, hide_row=-1):
    """The discs of `board`; colors[p] is player p's colour; the cell (hide_col, hide_row) left dark."""
    for row in range(board.rows):
        y = layout.cell_y(row)
        for col in range(board.cols):
            p = board.get(col, row)
            if p and (col != hide_col or row != hide_row):
                display.set(col, y, scale(colors[p], level))
            else:
                display.set(col, y, 0)


def draw_frame(display, layout, turn_color, mode, level=255):
    for x, y in layout.frame:
        display.set(x, y, scale(FRAME, level))
    if layout.turn_cell is not None:
        display.set(layout.turn_cell[0], layout.turn_cell[1], scale(turn_color, level))
    if layout.mode_cell is not None:
        display.set(layout.mode_cell[0], layout.mode_cell[1], scale(MODE_COLORS[mode], level))
    elif layout.hover_y >= 0:  # no side column: the hover row glows in the mode's colour
        glow = scale(MODE_COLORS[mode], level * _TINT // 255)
        for x in range(layout.cols):
            display.set(x, layout.hover_y, glow)


def pulse(now, period=1000, low=50):
    """A triangle wave from `low` to 255 and back, once per `period` ms."""
    t = now % period
    half = period // 2
    k = t if t < half else period - t
    return low + (255 - low) * k // half


def draw_intro(display, t):
    """Power-on: a diagonal wave of red and yellow discs that fades out (t in ms)."""
    display.clear()
    for y in range(display.height):
        for x in range(display.width):
            age = t - (x + y) * 50
            if age >= 0:
                color = 0xFF0000 if (x + y) & 1 else 0xFFAA00
                display.set(x, y, scale(color, max(0, 255 - age * 255 // 700)))


def draw_error(display, on):
    """A red cross (the app crashed and restarts)."""
    display.clear()
    if on:
        w, h = display.width, display.height
        for i in range(min(w, h)):
            display.set(i, i, ERROR)
            display.set(w - 1 - i, i, ERROR)


def draw_win(display, layout, board, colors, line, now):
    """The winning four blink in the winner's colour; the other discs dim."""
    draw_board(display, layout, board, colors, 60)
    on = now % 600 < 380
    color = colors[board.winner]
    for col, row in line:
        display.set(col, layout.cell_y(row), color if on else 0)


def draw_draw(display, layout, board, colors, now):
    """A full board without a winner: the discs breathe in a checker pattern."""
    a = pulse(now, 1200, 30)
    b = pulse(now + 600, 1200, 30)
    for row in range(board.rows):
        for col in range(board.cols):
            p = board.get(col, row)
            display.set(col, layout.cell_y(row), scale(colors[p], a if (row + col) & 1 else b) if p else 0)
    for x, y in layout.frame:
        display.set(x, y, mix(FRAME, 0x404040, a))


def draw(app, now):
    """The app's picture now (connect4.app.game's App: its state, board, cursor, banner)."""
    d = app.display
    banner = app.banner
    if banner is not None:
        if banner.render(d, now, app.clock.ticks_diff):
            return
        app.banner = None
    state = app.state
    t = app._elapsed(now)
    if state == INTRO:
        draw_intro(d, t)
        return
    if state == MENU:
        app.menu.render(d, now)
        return
    if state == REPLAY:
        app.replay.render(d, app.replay.layout, now)
        return
    d.clear()
    layout = app.layout
    board = app.board
    colors = app.colors
    if state == OVER:
        line = board.winning_line()
        if line:
            draw_win(d, layout, board, colors, line, t)
        else:
            draw_draw(d, layout, board, colors, t)
        return
    if state == DROP:
        mover = colors[board.get(app.drop_col, app.drop_row)]
        draw_frame(d, layout, mover, app.mode)
        draw_board(d, layout, board, colors, 255, app.drop_col, app.drop_row)
        d.set(app.drop_col, min(app.drop_bottom, app.drop_top + t // DROP_ROW_MS), mover)
        return
    side = app.side_to_move()  # PLAY, or the AI's turn: THINK, CHOSEN, HELD
    duo = app.duo  # a game of two boards (connect4.app.twoboards)
    draw_frame(d, layout, SIDE_COLORS[side], app.mode)
    draw_board(d, layout, board, colors)
    # (a game of two boards: the frame blinks while the other board is lost; True on its turn)
    if duo is not None and duo.draw(app, d, now) or state != PLAY:
        app.turn.draw(now)  # the AI's pulsing disc, or the other board's turn
    elif not app.ai_to_move():
        x, y = layout.hover_cell(board, app.cursor)
        if app.cursor == app.hint_col:  # the hint blinks quickly
            if now % (2 * _HINT_BLINK_MS) < _HINT_BLINK_MS:
                d.set(x, y, SIDE_COLORS[side])
        elif layout.hover_y >= 0 or now % 500 < 300:
            d.set(x, y, SIDE_COLORS[side])
