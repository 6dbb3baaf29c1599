"""MicroPython's `time.ticks_*` and `sleep_ms/us` on CPython.

Ticks wrap at 2**30 like on the chip, so code that forgets ticks_diff breaks in
the simulator too. The clock can be made virtual (tests advance it by hand,
sleeps advance it instantly), which keeps scripted runs fast and repeatable.
"""
import time as _time

TICKS_PERIOD = 1 << 30
_TICKS_HALF = TICKS_PERIOD // 2


class Clock:
    def __init__(self):
        self.virtual_us = None  # None: follow the real monotonic clock
        self.hooks = []  # called after every sleep: the simulator's world moves on

    def now_us(self):
        if self.virtual_us is not None:
            return self.virtual_us
        return _time.monotonic_ns() // 1000

    def make_virtual(self, start_us=0):
        self.virtual_us = start_us

    def make_real(self):
        self.virtual_us = None

    def advance_ms(self, ms):
        if self.virtual_us is not None:
            self.virtual_us += int(ms * 1000)

    def sleep_us(self, us):
        if self.virtual_us is not None:
            self.virtual_us += max(0, int(us))
        elif us > 0:
            _time.sleep(us / 1e6)
        for hook in self.hooks:
            hook()


CLOCK = Clock()


def ticks_us():
    return CLOCK.now_us() % TICKS_PERIOD


def ticks_ms():
    return (CLOCK.now_us() // 1000) % TICKS_PERIOD


def ticks_cpu():
    return ticks_us()


def ticks_add(ticks, delta):
    return (ticks + delta) % TICKS_PERIOD


def ticks_diff(end, start):
    return ((end - start + _TICKS_HALF) % TICKS_PERIOD) - _TICKS_HALF


def sleep_ms(ms):
    CLOCK.sleep_us(ms * 1000)


def sleep_us(us):
    CLOCK.sleep_us(us)


def install():
    """Add the MicroPython names to CPython's `time` module."""
    for name in ("ticks_us", "ticks_ms", "ticks_cpu", "ticks_add", "ticks_diff",
                 "sleep_ms", "sleep_us"):
        setattr(_time, name, globals()[name])
