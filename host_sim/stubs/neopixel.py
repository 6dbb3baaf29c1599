"""CPython stand-in for MicroPython's frozen `neopixel` module.

Same behaviour as micropython-lib's driver: one preallocated `buf` of n * bpp
bytes; `ORDER` places R, G, B (, W) in each LED's bytes (GRB by default);
`np[i] = (r, g, b)` and `fill()` only change the buffer; `write()` is the
only call that sends anything, through `machine.bitstream` (which the
simulator's panel listens to).
"""
from machine import bitstream

_TIMING_800K = (400, 850, 800, 450)
_TIMING_400K = (800, 1700, 1600, 900)


class NeoPixel:
    ORDER = (1, 0, 2, 3)  # G R B W

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        pin.init(pin.OUT)
        if isinstance(timing, int):
            self.timing = _TIMING_800K if timing else _TIMING_400K
        else:
            self.timing = timing

    def __len__(self):
        return self.n

    def __setitem__(self, index, value):
        base = index * self.bpp
        for k in range(self.bpp):
            self.buf[base + self.ORDER[k]] = value[k]

    def __getitem__(self, index):
        base = index * self.bpp
        return tuple(self.buf[base + self.ORDER[k]] for k in range(self.bpp))

    def fill(self, value):
        for index in range(self.n):
            self[index] = value

    def write(self):
        bitstream(self.pin, 0, self.timing, self.buf)
