"""Text scrolling across the matrix: the board's address, the access point's key, the
pairing code. Loaded for each text and gone from the heap with it (connect4.modules.use: it
carries the rest of the alphabet)."""
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
    """Coloured text, [(text, colour), ...], from the right edge to off the left one.
    One byte of bits a pixel column and one byte naming its part's colour: a list of
    tuples here cost about 20 bytes a column, 3-4 KB for an address, key and code."""

    def __init__(self, parts, start):
        n = 0
        for text, _ in parts:
            n += 4 * len(text)
        self.bits = bytearray(n)  # the 5 rows of a pixel column, bit dy = row dy
        self.part = bytearray(n)  # which part's colour (an index into self.colors)
        self.colors = [color for _, color in parts]
        i = 0
        for k in range(len(parts)):
            for ch in parts[k][0].upper():
                rows = glyph(ch)
                for dx in range(3):
                    bits = 0
                    for dy in range(5):
                        if rows[dy] & (4 >> dx):
                            bits |= 1 << dy
                    self.bits[i] = bits
                    self.part[i] = k
                    i += 1
                i += 1  # a blank column after each character
        self.start = start

    def text_width(self):
        return len(self.bits)

    def render(self, display, now, ticks_diff):
        """Draw the frame of time `now`; False once the text has gone by."""
        shift = ticks_diff(now, self.start) // STEP_MS
        w = display.width
        n = len(self.bits)
        if shift > w + n:
            return False
        display.clear()
        y0 = (display.height - 5) // 2
        for x in range(w):
            i = x + shift - w
            if 0 <= i < n:
                bits = self.bits[i]
                color = self.colors[self.part[i]]
                for dy in range(5):
                    if bits & (1 << dy):
                        display.set(x, y0 + dy, color)
        return True
