"""The board's ear for Improv Wi-Fi on its USB serial port: all that stays on the heap while
the board listens (when it listens, and why so: connect4.listen, which makes it).

The app calls it, its `serial` hook, at every loop step. It reads what came, a byte at a
time, and knows only a frame's first six bytes, "IMPROV": then connect4.net.improv is loaded
for the rest of the frame and leaves the heap after it (connect4.modules.use). A Ctrl-C
outside a frame (MicroPython's own is off while the board listens: Improv's type byte 0x03
is Ctrl-C too) stops the app as MicroPython's would, what followed it left to the REPL. At
`until` (or once Wi-Fi comes on: `stop`) the board stops listening and Ctrl-C is MicroPython's
again.
"""
from micropython import kbd_intr
from time import ticks_diff

from connect4.modules import use


class Ear:
    def __init__(self, app, port, out, poller, until):
        self.app = app
        self.port = port  # the bytes that come (read), e.g. sys.stdin.buffer
        self.out = out  # where answers go (write), e.g. sys.stdout.buffer
        self.poller = poller  # a poll with `port` registered for reading (ipoll)
        self.until = until  # ticks_ms when listening ends; None: for good
        self.got = 0  # how much of "IMPROV" has come

    def stop(self):
        """Listening ends: Ctrl-C is MicroPython's again (and Wi-Fi may come on)."""
        self.app.serial = None
        kbd_intr(3)

    def __call__(self, now):
        b = -1
        for _ in self.poller.ipoll(0):
            b = self.port.read(1)
            b = b[0] if b else -1
        if b == 3 or (b < 0 and self.until is not None and ticks_diff(now, self.until) >= 0):
            self.stop()  # Ctrl-C outside a frame (a person's, mpremote's), or time up
            if b == 3:
                raise KeyboardInterrupt
        elif b >= 0:
            self.got = self.got + 1 if b == b"IMPROV"[self.got] else int(b == 73)  # 73: "I"
            if self.got == 6:
                self.got = 0
                use("connect4.net.improv").serve(self, now)
