"""Small hand-written fakes of the board's hardware (they run in MicroPython too).

FakePin reads a level the test sets (pulled up: 1 when idle); FakeStrip keeps
what NeoPixel's buffer would hold and counts writes; FakeClock is a ticks_ms
clock that wraps at 2**30 like the chip's and applies scheduled pin levels as
time passes. Rig wires them to the real drivers and builds the app with the
board's own connect4.app.assemble.build_app, from the board's config.py.
"""
import os
import sys

from connect4.hw.display import Display, led_map
from connect4.hw.input import Button, Encoder, Input
from connect4.app.assemble import build_app

PERIOD = 1 << 30


class FakePin:
    def __init__(self, level=1):
        self.level = level
        self.on_read = None  # called before each read (the Rig's chip pacing)

    def value(self):
        if self.on_read is not None:
            self.on_read()
        return self.level


class FakeStrip:
    """MicroPython's NeoPixel as the display uses it: `buf` in `ORDER` (GRB), `bpp`, write()."""
    ORDER = (1, 0, 2, 3)

    def __init__(self, n, bpp=3):
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.sent = bytearray(n * bpp)  # the bytes of the last write
        self.writes = 0

    def __len__(self):
        return self.n

    def _decode(self, data):
        o, k = self.ORDER, self.bpp
        return [(data[i * k + o[0]], data[i * k + o[1]], data[i * k + o[2]]) for i in range(self.n)]

    @property
    def pixels(self):  # (r, g, b) as last set
        return self._decode(self.buf)

    @property
    def shown(self):  # (r, g, b) as last written
        return self._decode(self.sent)

    def write(self):  # allocates nothing, like the real driver
        sent, buf = self.sent, self.buf
        for i in range(len(buf)):
            sent[i] = buf[i]
        self.writes += 1


class FakeClock:
    """time.ticks_* and sleep_ms over a counter; sleeping applies due pin changes."""

    def __init__(self, start=PERIOD - 3000):
        self.now = start % PERIOD
        self.elapsed = 0
        self.events = []  # (elapsed ms, pin, level), kept sorted

    def ticks_ms(self):
        return self.now

    @staticmethod
    def ticks_add(t, delta):
        return (t + delta) % PERIOD

    @staticmethod
    def ticks_diff(a, b):
        return ((a - b + PERIOD // 2) % PERIOD) - PERIOD // 2

    def sleep_ms(self, ms):
        ms = max(0, int(ms))
        self.elapsed += ms
        self.now = (self.now + ms) % PERIOD
        while self.events and self.events[0][0] <= self.elapsed:
            _, pin, level = self.events.pop(0)
            pin.level = level

    def at(self, delay, pin, level):
        self.events.append((self.elapsed + delay, pin, level))
        self.events.sort(key=lambda e: e[0])


def tmpdir(name):
    """A fresh folder for files (the VM has a RAM filesystem)."""
    if sys.implementation.name == "micropython":
        path = "/tmp_" + name
        try:
            os.mkdir(path)
        except OSError:
            pass
        for f in os.listdir(path):
            os.remove(path + "/" + f)
        return path + "/"
    import tempfile
    return tempfile.mkdtemp(prefix=name) + "/"


# config.py's options, but a small table (the VM's heap) and quicker timings
CFG = {
    "poll_interval": 256, "tt_entries": 256, "idle_dim_ms": 60000, "demo_idle_ms": 120000,
    "demo_idle_game_ms": 0, "ai_min_think_ms": 400, "demo_move_ms": 300, "loop_ms": 2,
}


class FakeHardware:
    """What hardware_setup.build returns, on fakes: a display, an input, no watchdog, and
    whether this start follows a crash (False: a power-on)."""

    def __init__(self, display, inp, after_crash=False):
        self.display = display
        self.input = inp
        self.wdt = None
        self.after_crash = after_crash


class Rig:
    """The real Display, Input, Store and App on fakes: an encoder build by default.

    node_rate: the search takes chip time, like the simulator's --chip-speed:
    each read of the SELECT pin while the app thinks (once a poll, every
    poll_interval nodes) moves the fake clock by poll_interval nodes at this
    rate (0: the search takes no time). after_crash: this start follows a crash
    (else a power-on); wifi: build_app's Wi-Fi factory (None: no Wi-Fi); clock: another
    Rig's (two boards on one clock); flash: the flash folder of an earlier start (a power cut).
    """

    def __init__(self, name, width=8, height=8, buttons=False, cfg=None, node_rate=10600, seed=1,
                 after_crash=False, wifi=None, clock=None, flash=None):
        import config
        self.clock = clock or FakeClock()  # (two boards on one clock: tests/portable/fakeboards.py)
        self.strip = FakeStrip(width * height)
        self.display = Display(self.strip, width, height, led_map(width, height))
        self.select = FakePin()
        self.a = FakePin()
        self.b = FakePin()
        self.left = FakePin()
        self.right = FakePin()
        if buttons:
            self.input = Input(Button(self.select.value), left=Button(self.left.value),
                               right=Button(self.right.value))
        else:
            self.input = Input(Button(self.select.value), encoder=Encoder(self.a.value, self.b.value))
        self.buttons = buttons
        options = dict(CFG)
        options.update({"flash_dir": flash or tmpdir(name), "seed": seed, "width": width, "height": height})
        options.update(cfg or {})
        self.cfg = config.get("buttons" if buttons else "encoder", options)
        self.games = []
        self.app = build_app(self.cfg, FakeHardware(self.display, self.input, after_crash),
                             clock=self.clock, seed=seed, listener=self._listen, wifi=wifi)
        self.store = self.app.store
        self.path = self.store.path
        if node_rate:
            self.ms_per_poll = self.cfg["poll_interval"] * 1000 // node_rate
            self.select.on_read = self._pace
        self.app.start()

    def _pace(self):
        if self.app.turn.thinking:
            self.clock.sleep_ms(self.ms_per_poll)

    def _listen(self, kind, data):
        if kind == "game":
            self.games.append(data)

    def run_for(self, ms):
        end = self.clock.elapsed + ms
        while self.clock.elapsed < end:
            self.app.step()
            self.clock.sleep_ms(2)

    def run_until(self, cond, limit=60000):
        end = self.clock.elapsed + limit
        while not cond():
            assert self.clock.elapsed < end, "timed out in state %d" % self.app.state
            self.app.step()
            self.clock.sleep_ms(2)

    # input: each returns after the action plus settle ms
    def press(self, ms=80, settle=60):
        self.clock.at(0, self.select, 0)
        self.clock.at(ms, self.select, 1)
        self.run_for(ms + settle)

    def long_press(self):
        self.press(1000)

    def turn(self, steps):
        for _ in range(abs(steps)):
            if self.buttons:
                pin = self.right if steps > 0 else self.left
                self.clock.at(0, pin, 0)
                self.clock.at(70, pin, 1)
                self.run_for(130)
            else:
                first, second = (self.b, self.a) if steps > 0 else (self.a, self.b)
                for k, (pin, level) in enumerate(((first, 0), (second, 0), (first, 1), (second, 1))):
                    self.clock.at(4 * k, pin, level)
                self.run_for(24)

    def pixel(self, x, y):
        """The colour last written for cell (x, y) (before gamma: compare hues only)."""
        return self.strip.shown[self.display.mapping[x + y * self.display.width]]


def hue(rgb):
    """A shown colour's name, at any brightness: off, red, yellow, blue, green or other."""
    r, g, b = rgb
    if not (r or g or b):
        return "off"
    if r and not b:
        if not g:
            return "red"
        if g <= r:  # a dimmed yellow's gamma can floor both channels to 1
            return "yellow"
    if b and not r and not g:
        return "blue"
    if g and not r and not b:
        return "green"
    return "other"


def assert_board_shown(app, pixel):
    """The matrix shows exactly the game's discs (the winning four may blink off)."""
    board = app.board
    names = {0: "off"}
    for p in (1, 2):
        names[p] = "red" if app.colors[p] == 0xFF0000 else "yellow"
    line = board.winning_line() or []
    for row in range(board.rows):
        for col in range(board.cols):
            shown = hue(pixel(col, app.layout.cell_y(row)))
            want = names[board.get(col, row)]
            assert shown == want or (shown == "off" and (col, row) in line), (
                col, row, shown, want, board.moves_string(), app.state)


class Counter:
    """Deterministic bytes for codes and tokens (a Pairing's randbytes)."""

    def __init__(self):
        self.n = 0

    def __call__(self, k):
        out = bytearray(k)
        for i in range(k):
            self.n += 1
            out[i] = (self.n * 37 + 11) & 0xFF
        return bytes(out)
