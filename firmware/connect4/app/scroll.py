"""Text scrolling across the matrix: the board's address, the access point's key, the
pairing code. Loaded for each text and gone from the heap with it (connect4.modules.use: it
carries the rest of the alphabet)."""
from micropython import const

from connect4.app.glyphs import FONT_CHARS, FONT_ROWS

STEP_MS = const(75)  # one column every STEP_MS
# the 3x5 glyphs glyphs.FONT_CHARS lacks, as glyphs.py keeps its own: glyph i of _MORE_CHARS
# is _MORE_ROWS[5 * i:5 * i + 5] (rows top first, high bit = left column)
_MORE_CHARS = "BCEFGHJKNOQRSTUVWXYZ.:-/"
_MORE_ROWS = (b"\x06\x05\x06\x05\x06" b"\x03\x04\x04\x04\x03" b"\x07\x04\x06\x04\x07"
              b"\x07\x04\x06\x04\x04" b"\x03\x04\x05\x05\x03" b"\x05\x05\x07\x05\x05"
              b"\x01\x01\x01\x05\x02" b"\x05\x05\x06\x05\x05" b"\x06\x05\x05\x05\x05"
              b"\x02\x05\x05\x05\x02" b"\x02\x05\x05\x06\x03" b"\x06\x05\x06\x05\x05"
              b"\x03\x04\x02\x01\x06" b"\x07\x02\x02\x02\x02" b"\x05\x05\x05\x05\x07"
              b"\x05\x05\x05\x05\x02" b"\x05\x05\x07\x07\x05" b"\x05\x05\x02\x05\x05"
              b"\x05\x05\x02\x02\x02" b"\x07\x01\x02\x04\x07" b"\x00\x00\x00\x00\x02"
              b"\x00\x02\x00\x02\x00" b"\x00\x00\x07\x00\x00" b"\x01\x01\x02\x04\x04")
_BLANK = b"\x00\x00\x00\x00\x00"


def glyph(ch):
    """The five rows of `ch`'s glyph (bytes); blank for a character without one."""
    i = FONT_CHARS.find(ch)
    if i >= 0:
        return FONT_ROWS[5 * i:5 * i + 5]
    i = _MORE_CHARS.find(ch)
    return _MORE_ROWS[5 * i:5 * i + 5] if i >= 0 else _BLANK


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
