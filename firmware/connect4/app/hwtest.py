"""Hardware test: check the wiring before anything else runs.

Reached at power-on from safe mode (keep holding the button; see boot.py), so
it needs no working game, settings or AI. Every LED cycles red, green, blue,
white at low brightness: a dead LED, a break in the chain or a wrong
`color_order` shows at once. Each input lights its own marker on top:
LEFT (a left turn of the encoder) the top-left corner, RIGHT the top-right
corner, and the SELECT button, for as long as its pin reads pressed, the
centre of the panel. A long press leaves the test.
"""
from micropython import const
from time import ticks_add, ticks_diff

from connect4.hw.input import LEFT, RIGHT, LONG_SELECT

PHASE_MS = const(800)  # how long each colour stays
MARK_MS = const(400)  # how long a LEFT/RIGHT marker stays lit
BRIGHTNESS = const(16)  # global duty out of 255: low, and within any USB port's current
CYCLE = (0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF)  # red, green, blue, white
MARK = const(0xFF00FF)  # magenta: unlike every colour of the cycle
FRAME_MS = const(40)  # redraw pace (the C3's NeoPixel writes want pacing)


class HardwareTest:
    """The test screen; `step(now)` returns False once the player asked to leave."""

    def __init__(self, display, inp):
        self.display = display
        self.input = inp
        self.start = 0
        self.left_until = 0
        self.right_until = 0
        self.left_seen = False
        self.right_seen = False
        self.next_frame = 0

    def begin(self, now):
        self.start = now
        self.left_until = self.right_until = now
        self.left_seen = self.right_seen = False
        self.next_frame = now
        self.display.set_brightness(BRIGHTNESS)
        self.input.flush()  # the press that led here gives no event

    def color(self, now):
        """The colour of the cycle at `now`."""
        return CYCLE[(ticks_diff(now, self.start) // PHASE_MS) % len(CYCLE)]

    def step(self, now):
        inp = self.input
        inp.poll(now)
        ev = inp.get()
        while ev:
            if ev == LONG_SELECT:
                return False
            if ev == LEFT:
                self.left_until = ticks_add(now, MARK_MS)
                self.left_seen = True
            elif ev == RIGHT:
                self.right_until = ticks_add(now, MARK_MS)
                self.right_seen = True
            ev = inp.get()
        if ticks_diff(now, self.next_frame) >= 0:
            self.next_frame = ticks_add(now, FRAME_MS)
            self.draw(now)
        return True

    def draw(self, now):
        d = self.display
        d.clear(self.color(now))
        w, h = d.width, d.height
        if self.left_seen and ticks_diff(self.left_until, now) > 0:
            d.set(0, 0, MARK)
        if self.right_seen and ticks_diff(self.right_until, now) > 0:
            d.set(w - 1, 0, MARK)
        if self.input.pressed():
            for x in (w // 2 - 1, w // 2):
                for y in (h // 2 - 1, h // 2):
                    d.set(x, y, MARK)
        d.show()

    def run(self, clock, loop_ms=2, stop=None):
        """Run until a long press (or stop() is true)."""
        self.begin(clock.ticks_ms())
        while stop is None or not stop():
            if not self.step(clock.ticks_ms()):
                break
            clock.sleep_ms(loop_ms)
        self.display.clear()
        self.display.show()
