"""CPython stand-in for MicroPython's `machine` (ESP32 port), as the firmware uses it.

- `Pin`: GPIO lines shared by every Pin object of the same number. An input
  reads what the outside world drives (`drive(gpio, level)`, used by the
  simulator's buttons and encoder), else its pull-up (1) or pull-down (0),
  else 0 (floating). Outputs read back their own level. `Pin.irq()` handlers
  are soft, as on the ESP32: an edge queues the handler and it runs in the
  firmware's thread at its next sleep (`run_pending()`).
- `bitstream()`: what neopixel's `write()` calls; the bytes go to whatever
  listens on that pin (`listen(gpio, callback)`: the simulated LED panel).
- `WDT`: `feed()` records the time; `check_watchdogs()` raises
  `WatchdogReset` (a BaseException, like a real reset it is not caught by
  `except Exception`) once a timeout has passed without a feed.
- `on_read(gpio, callback)`: callback() before every read of that input (the
  simulator's chip pacing: the search reads SELECT once per poll).
- `reset()` raises `Reset`. `reset_world(cause)` forgets every line (tests) and
  sets the cause the next start reads.
- `RTC().memory()`: bytes kept through every reset (`reset()`, the watchdog) and
  lost at a power-on: `reset_world(PWRON_RESET)` forgets them.
- `reset_cause()`: why the board last started, with the ESP32 port's constants
  (ports/esp32/modmachine.c: PWRON_RESET 1 for power-on or a brownout,
  HARD_RESET 2 for machine.reset(), MicroPython's fatal error or a panic,
  WDT_RESET 3, DEEPSLEEP_RESET 4, SOFT_RESET 5 after Ctrl-D). PWRON_RESET in a
  new world (a board just plugged in); `reset()` leaves HARD_RESET for the
  next start, the watchdog WDT_RESET, `soft_reset()` SOFT_RESET.
"""
import time


PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
DEEPSLEEP_RESET = 4
SOFT_RESET = 5


class Reset(BaseException):
    """machine.reset() or the watchdog: the simulator reboots the firmware."""


class WatchdogReset(Reset):
    pass


class _Line:
    def __init__(self, gpio):
        self.gpio = gpio
        self.mode = Pin.IN
        self.pull = None
        self.out = 0
        self.driven = None  # level forced from outside, None = not driven
        self.handler = None
        self.trigger = 0
        self.listeners = []
        self.on_read = None

    def level(self):
        if self.mode == Pin.OUT:
            return self.out
        if self.driven is not None:
            return self.driven
        if self.pull == Pin.PULL_UP:
            return 1
        return 0


_LINES = {}
_PENDING = []
_WATCHDOGS = []
_CAUSE = [PWRON_RESET]  # what reset_cause() says
_RTC_MEMORY = [b""]  # RTC().memory(): kept through a reset, not a power-on


def _line(gpio):
    line = _LINES.get(gpio)
    if line is None:
        line = _LINES[gpio] = _Line(gpio)
    return line


def reset_world(cause=PWRON_RESET):
    """A new world: no lines, no handlers, no watchdog; the next start reads `cause`
    (power-on unless a test or the simulator says another), and the RTC's memory is kept
    unless it is a power-on."""
    _LINES.clear()
    del _PENDING[:]
    del _WATCHDOGS[:]
    _CAUSE[0] = cause
    if cause == PWRON_RESET:
        _RTC_MEMORY[0] = b""


def reset_cause():
    return _CAUSE[0]


def drive(gpio, level):
    """The outside world drives a line (None releases it); edges fire IRQs."""
    line = _line(gpio)
    before = line.level()
    line.driven = None if level is None else (1 if level else 0)
    after = line.level()
    if line.handler is not None and before != after:
        edge = Pin.IRQ_RISING if after else Pin.IRQ_FALLING
        if line.trigger & edge:
            _PENDING.append((line.handler, line.pin))


def level(gpio):
    return _line(gpio).level()


def listen(gpio, callback):
    """callback(bytes) for every bitstream sent on `gpio`."""
    _line(gpio).listeners.append(callback)


def on_read(gpio, callback):
    """callback() before each read of `gpio` (None: no more)."""
    _line(gpio).on_read = callback


def run_pending():
    """Run queued soft IRQ handlers (the firmware thread calls this at each sleep)."""
    while _PENDING:
        handler, pin = _PENDING.pop(0)
        handler(pin)


class Pin:
    IN = 1
    OUT = 3
    OPEN_DRAIN = 7
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_RISING = 1
    IRQ_FALLING = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        if not isinstance(id, int) or not 0 <= id <= 21:
            raise ValueError("invalid pin")
        self.id = id
        self._line = _line(id)
        self._line.pin = self
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        line = self._line
        if mode != -1:
            line.mode = mode
        if pull != -1:
            line.pull = pull
        if value is not None:
            line.out = 1 if value else 0

    def value(self, x=None):
        if x is None:
            if self._line.on_read is not None:
                self._line.on_read()
            return self._line.level()
        self._line.out = 1 if x else 0
        return None

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        self._line.handler = handler
        self._line.trigger = trigger

    def __repr__(self):
        return "Pin(%d)" % self.id


def bitstream(pin, encoding, timing, buf):
    data = bytes(buf)
    for callback in pin._line.listeners:
        callback(data)


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.fed = time.ticks_ms()
        _WATCHDOGS.append(self)

    def feed(self):
        self.fed = time.ticks_ms()


def check_watchdogs():
    now = time.ticks_ms()
    for wdt in _WATCHDOGS:
        if time.ticks_diff(now, wdt.fed) > wdt.timeout:
            del _WATCHDOGS[:]
            _CAUSE[0] = WDT_RESET
            raise WatchdogReset("watchdog timeout")


class RTC:
    def __init__(self, id=0):
        pass

    def memory(self, data=None):
        if data is None:
            return _RTC_MEMORY[0]
        _RTC_MEMORY[0] = bytes(data)


def reset():
    _CAUSE[0] = HARD_RESET
    raise Reset("machine.reset()")


def soft_reset():
    _CAUSE[0] = SOFT_RESET
    raise Reset("machine.soft_reset()")


def freq(hz=None):
    return 160000000


def unique_id():
    return b"\x00\x00\x00\xc3\x0c\x04"


def disable_irq():
    return 0


def enable_irq(state=0):
    pass


def idle():
    pass
