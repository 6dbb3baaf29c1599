"""Text scrolling across the matrix: the board's address, the access point's key, the
pairing code. Loaded only when Wi-Fi is on (it carries the rest of the alphabet)."""
from micropython import const

from connect4.app.glyphs import FONT

STEP_MS = const(75)  # one column every STEP_MS
# the 3x5 glyphs glyphs.FONT lacks (rows top first, high bit = left column)
MORE = {
    "B": (6, 5, 6, 5, 6), "C": (3, 4, 4, 4, 3), "E": (7, 4, 6, 4, 7), "F": (7, 4, 6, 4, 4),
    "G": (3, 4, 5, 5, 3), "H": (5, 5, 7, 5, 5), "J": (1, 1, 1, 5, 2), "K": (5, 5, 6, 5, 5),
    "N": (6, 5, 5, 5, 5), "O": (2, 5, 5, 5, 2), "Q": (2, 5, 5, 6, 3), "R": (6, 5, 6, 5, 5),
    "S": (3, 4, 2, 1, 6), "T": (7, 2, 2, 2, 2), "U": (5, 5, 5, 5, 7), "V": (5, 5, 5, 5, 2),
    "W": (5, 5, 7, 7, 5), "X": (5, 5, 2, 5, 5), "Y": (5, 5, 2, 2, 2), "Z": (7, 1, 2, 4, 7),
    ".": (0, 0, 0, 0, 2), ":": (0, 2, 0, 2, 0), "-": (0, 0, 7, 0, 0), "/": (1, 1, 2, 4, 4),
}


def glyph(ch):
    return FONT.get(ch) or MORE.get(ch) or (0, 0, 0, 0, 0)


class Scroller:
    """Coloured text, [(text, colour), ...], from the right edge to off the left one."""

    def __init__(self, parts, start):
        self.columns = []  # (bits of the 5 rows as one int, colour) per pixel column
        for text, color in parts:
            for ch in text.upper():
                rows = glyph(ch)
                for dx in range(3):
                    bits = 0
                    for dy in range(5):
                        if rows[dy] & (4 >> dx):
                            bits |= 1 << dy
                    self.columns.append((bits, color))
                self.columns.append((0, 0))
        self.start = start

    def text_width(self):
        return len(self.columns)

    def render(self, display, now, ticks_diff):
        """Draw the frame of time `now`; False once the text has gone by."""
        shift = ticks_diff(now, self.start) // STEP_MS
        w = display.width
        if shift > w + len(self.columns):
            return False
        display.clear()
        y0 = (display.height - 5) // 2
        cols = self.columns
        for x in range(w):
            i = x + shift - w
            if 0 <= i < len(cols):
                bits, color = cols[i]
                for dy in range(5):
                    if bits & (1 << dy):
                        display.set(x, y0 + dy, color)
        return True
