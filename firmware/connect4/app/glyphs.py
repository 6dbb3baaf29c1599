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

# 3x5 glyphs: five rows of three bits each, top row first, high bit = left column; glyph i of
# FONT_CHARS is FONT_ROWS[5 * i:5 * i + 5] (a string and bytes: a dict of tuples held 0.8 KB)
FONT_CHARS = "0123456789AIPDML<!WTBCEFNH"  # (O and S are 0 and 5: connect4.app.twoboards' text)
FONT_ROWS = (b"\x07\x05\x05\x05\x07" b"\x02\x06\x02\x02\x07" b"\x07\x01\x07\x04\x07"
             b"\x07\x01\x03\x01\x07" b"\x05\x05\x07\x01\x01" b"\x07\x04\x07\x01\x07"
             b"\x07\x04\x07\x05\x07" b"\x07\x01\x02\x02\x02" b"\x07\x05\x07\x05\x07"
             b"\x07\x05\x07\x01\x07" b"\x02\x05\x07\x05\x05" b"\x07\x02\x02\x02\x07"
             b"\x06\x05\x06\x04\x04" b"\x06\x05\x05\x05\x06" b"\x05\x07\x07\x05\x05"
             b"\x04\x04\x04\x04\x07" b"\x01\x02\x04\x02\x01" b"\x02\x02\x02\x00\x02"
             b"\x05\x05\x07\x07\x05" b"\x07\x02\x02\x02\x02" b"\x06\x05\x06\x05\x06"
             b"\x07\x04\x04\x04\x07" b"\x07\x04\x07\x04\x07" b"\x07\x04\x07\x04\x04"
             b"\x06\x05\x05\x05\x05" b"\x05\x05\x07\x05\x05")


def draw_char(display, ch, x, y, color):
    i = FONT_CHARS.find(ch)
    if i < 0:
        return
    for dy in range(5):
        bits = FONT_ROWS[5 * i + dy]
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
