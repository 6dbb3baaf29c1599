"""Where the game sits on the matrix, and the drawing of its pictures.

Layout on the 8x8 reference panel (x right, y down):

    y0   h h h h h h h T    h: the disc hovering over the chosen column
    y1   f f f f f f f M    T: whose turn (the side's colour)   M: mode
    y2   b b b b b b b f    b: the 7x6 board, its bottom row at y7
    ...                     f: the board's blue frame
    y7   b b b b b b b f

A 7x7 panel keeps the hover row and the board (no frame, no status pixels);
a bare 7x6 strip is all board, and the cursor blinks on the cell where the
disc would land.
"""
from connect4.engine.board import WIDTH, HEIGHT
from connect4.hw.display import scale, mix
from connect4.app.glyphs import FRAME, MODE_COLORS, ERROR


class Layout:
    def __init__(self, width, height):
        if width < WIDTH or height < HEIGHT:
            raise ValueError("the panel needs at least 7x6 cells")
        self.width = width
        self.height = height
        self.hover_y = 0 if height > HEIGHT else -1
        self.turn_cell = (WIDTH, 0) if width > WIDTH and self.hover_y >= 0 else None
        self.mode_cell = (WIDTH, 1) if width > WIDTH and height > HEIGHT + 1 else None
        frame = []
        if height > HEIGHT + 1:  # a line between the hover row and the board
            for x in range(WIDTH):
                frame.append((x, height - HEIGHT - 1))
        if width > WIDTH:
            for y in range(height - HEIGHT, height):
                frame.append((WIDTH, y))
        self.frame = frame

    def cell_y(self, row):
        """y of an engine row (0 = bottom)."""
        return self.height - 1 - row

    def hover_cell(self, board, col):
        """Where the cursor or a thinking disc shows: the hover row, or the landing cell."""
        if self.hover_y >= 0:
            return col, self.hover_y
        row = board.height(col)
        return col, self.cell_y(row if row < HEIGHT else HEIGHT - 1)


def draw_board(display, layout, board, colors, level=255, hide_col=-1, hide_row=-1):
    """The discs of `board`; colors[p] is player p's colour; the cell (hide_col, hide_row) left dark."""
    for row in range(HEIGHT):
        y = layout.cell_y(row)
        for col in range(WIDTH):
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
    for row in range(HEIGHT):
        for col in range(WIDTH):
            p = board.get(col, row)
            display.set(col, layout.cell_y(row), scale(colors[p], a if (row + col) & 1 else b) if p else 0)
    for x, y in layout.frame:
        display.set(x, y, mix(FRAME, 0x404040, a))
