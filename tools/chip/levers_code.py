# Runs inside MicroPython on the chip: tools/chip/levers.py puts it on the emulated board twice.
"""The native emitter's levers, each a small viper loop: what one pass of the loop costs
on the ESP32-C3, as the search's hot loop (connect4/engine/core.py) is written.

tools/chip/levers.py puts this file on the emulated chip twice: compiled by mpy-cross
as `make deploy` compiles the firmware (levers_mpy.mpy), and as source that the chip
compiles itself (levers_src.py), and runs `measure` on each. Every function takes the
loop's count `n` (its local 0) and is timed at two counts: the difference gives the
instructions of one pass, without the call. The `*_keeps` functions show MicroPython
1.28's unary bug: `y = -x` (or `~x`) overwrites x when x sits in a register (fixed in
1.29, commit 2210d28792); `0 - x` does not.
"""
import micropython
from time import ticks_diff, ticks_us

_BUF = bytearray(64)
_G = 3


@micropython.viper
def while_first(n: int) -> int:
    """The loop's counter and sum are locals 1 and 2, after n."""
    i = 0
    s = 0
    while i < n:
        s += i
        i += 1
    return s


@micropython.viper
def while_late(n: int) -> int:
    """The same loop with four locals named first: its counter and sum are locals 5 and 6."""
    a = 0
    b = 0
    c = 0
    d = 0
    i = 0
    s = 0
    while i < n:
        s += i
        i += 1
    return s + a + b + c + d


@micropython.viper
def while_in_try(n: int) -> int:
    """while_first inside a try."""
    i = 0
    s = 0
    try:
        while i < n:
            s += i
            i += 1
    except Exception:
        s = 0
    return s


@micropython.viper
def while_sum_first(n: int) -> int:
    """while_first with the sum named first (for_range's order of locals)."""
    s = 0
    i = 0
    while i < n:
        s += i
        i += 1
    return s


@micropython.viper
def for_range(n: int) -> int:
    """while_sum_first as a for loop over range(n)."""
    s = 0
    for i in range(n):
        s += i
    return s


@micropython.viper
def _plus_one(x: int) -> int:
    return x + 1


@micropython.viper
def _plus_global(x: int) -> int:
    return x + int(_G)


@micropython.viper
def call_each(n: int) -> int:
    """while_first calling a viper function of one int each pass."""
    i = 0
    s = 0
    while i < n:
        s += int(_plus_one(i))
        i += 1
    return s


@micropython.viper
def call_reading_a_global(n: int) -> int:
    """call_each, the function called reading a global (its globals swapped at each call)."""
    i = 0
    s = 0
    while i < n:
        s += int(_plus_global(i))
        i += 1
    return s


@micropython.viper
def ptr8_load(n: int) -> int:
    """A byte read at a variable index each pass (the pointer cast once, before the loop)."""
    i = 0
    s = 0
    p = ptr8(_BUF)
    while i < n:
        s += p[i & 15]
        i += 1
    return s


@micropython.viper
def ptr16_load(n: int) -> int:
    """ptr8_load through ptr16."""
    i = 0
    s = 0
    p = ptr16(_BUF)
    while i < n:
        s += p[i & 15]
        i += 1
    return s


@micropython.viper
def ptr32_load(n: int) -> int:
    """ptr8_load through ptr32."""
    i = 0
    s = 0
    p = ptr32(_BUF)
    while i < n:
        s += p[i & 15]
        i += 1
    return s


@micropython.viper
def ptr8_constant(n: int) -> int:
    """ptr8_load at a constant index."""
    i = 0
    s = 0
    p = ptr8(_BUF)
    while i < n:
        s += p[5]
        i += 1
    return s


@micropython.viper
def ptr8_cast_each(n: int) -> int:
    """ptr8_load with the cast inside the loop."""
    i = 0
    s = 0
    b = _BUF
    while i < n:
        p = ptr8(b)
        s += p[i & 15]
        i += 1
    return s


@micropython.viper
def negate_keeps(x: int) -> int:
    """x back, after y = -x."""
    y = -x
    return x + 0 * y


@micropython.viper
def invert_keeps(x: int) -> int:
    """x back, after y = ~x."""
    y = ~x
    return x + 0 * y


@micropython.viper
def subtract_keeps(x: int) -> int:
    """x back, after y = 0 - x."""
    y = 0 - x
    return x + 0 * y


LOOPS = ("while_first", "while_late", "while_in_try", "while_sum_first", "for_range", "call_each",
         "call_reading_a_global", "ptr8_load", "ptr16_load", "ptr32_load", "ptr8_constant",
         "ptr8_cast_each")
KEEPS = ("negate_keeps", "invert_keeps", "subtract_keeps")
LOW = 2000
HIGH = 12000


def measure(module):
    """A line per function of `module`: `loop NAME US_LOW US_HIGH` (microseconds at LOW and
    HIGH passes), then `keeps NAME RESULT` (of 5)."""
    for name in LOOPS:
        f = getattr(module, name)
        us = []
        for n in (LOW, HIGH):
            t = ticks_us()
            f(n)
            us.append(ticks_diff(ticks_us(), t))
        print("loop %s %d %d" % (name, us[0], us[1]))
    for name in KEEPS:
        print("keeps %s %d" % (name, getattr(module, name)(5)))
