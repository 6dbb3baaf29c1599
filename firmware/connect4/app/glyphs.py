"""Colours and a 3x5 pixel font for the menu and the statistics."""
from micropython import const

RED = const(0xFF0000)  # the first side: you, against the AI
YELLOW = const(0xFFAA00)  # the second side: the AI
FRAME = const(0x000050)  # the blue frame of a Connect 4 board
WHITE = const(0xFFFFFF)
DIM = const(0x202020)
GREEN = const(0x00C800)
CYAN = const(0x00A0C8)
MAGENTA = const(0xC800C8)
BLUE = const(0x0040FF)
ORANGE = const(0xFF5000)
ERROR = const(0xFF0000)

MODE_COLORS = (GREEN, CYAN, MAGENTA)  # vs AI, two players, demo

# 3x5 glyphs: five rows of three bits, top row first, high bit = left column
FONT = {
    "0": (7, 5, 5, 5, 7), "1": (2, 6, 2, 2, 7), "2": (7, 1, 7, 4, 7),
    "3": (7, 1, 3, 1, 7), "4": (5, 5, 7, 1, 1), "5": (7, 4, 7, 1, 7),
    "6": (7, 4, 7, 5, 7), "7": (7, 1, 2, 2, 2), "8": (7, 5, 7, 5, 7),
    "9": (7, 5, 7, 1, 7), "A": (2, 5, 7, 5, 5), "I": (7, 2, 2, 2, 7),
    "P": (6, 5, 6, 4, 4), "D": (6, 5, 5, 5, 6), "M": (5, 7, 7, 5, 5),
    "L": (4, 4, 4, 4, 7), "<": (1, 2, 4, 2, 1), "!": (2, 2, 2, 0, 2),
}


def draw_char(display, ch, x, y, color):
    rows = FONT.get(ch)
    if rows is None:
        return
    for dy in range(5):
        bits = rows[dy]
        for dx in range(3):
            if bits & (4 >> dx):
                display.set(x + dx, y + dy, color)


def draw_text(display, text, x, y, color):
    """Up to two characters side by side (3 + 1 + 3 columns)."""
    for ch in text:
        draw_char(display, ch, x, y, color)
        x += 4


def draw_number(display, value, x, y, color):
    """0..99, right-aligned in 7 columns."""
    value = max(0, min(99, value))
    text = str(value)
    draw_text(display, text, x + (4 if len(text) == 1 else 0), y, color)


def draw_size(display, cols, rows):
    """The menu's board size: the board itself, cols x rows blue cells at the bottom left
    with a red and a yellow disc, under the menu's top row; on a panel too short for
    that (a bare 7x6 strip), the two numbers ("76")."""
    h = display.height
    if rows >= h:
        draw_text(display, "%d%d" % (cols, rows), 0, h - 5, BLUE)
        return
    for y in range(h - rows, h):
        for x in range(cols):
            display.set(x, y, FRAME)
    display.set(0, h - 1, RED)
    display.set(1, h - 1, YELLOW)
