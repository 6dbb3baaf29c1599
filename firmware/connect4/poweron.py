"""The power-on gestures: safe mode or the hardware test, chosen by holding SELECT.

Used once, at power-on, by connect4.boot (loaded for it and dropped). SELECT is
the encoder's button (DROP on the three-button build); while the choice is open,
two corner LEDs are lit:
- hold it 0.3 s and let go: safe mode, the game does not start and the REPL
  stays free (all four corners light once it is safe mode);
- keep holding it 3 s: the hardware test (connect4/app/hwtest.py).
"""
from micropython import const

from connect4.app.glyphs import FRAME

_SAFE_HOLD_MS = const(300)  # SELECT held this long at power-on: safe mode
_TEST_HOLD_MS = const(3000)  # ... and on for this long: the hardware test


def _corners(display, count):
    display.clear()
    w, h = display.width - 1, display.height - 1
    for x, y in ((0, 0), (w, 0), (0, h), (w, h))[:count]:
        display.set(x, y, FRAME)
    display.show()


def choice(hw, window_ms, clock):
    """"game", "safe" (SELECT held 0.3 s within window_ms) or "hwtest" (held 3 s)."""
    display = hw.display
    _corners(display, 2)
    start = clock.ticks_ms()
    held_since = None
    safe = False
    while True:
        now = clock.ticks_ms()
        if hw.input.pressed():
            if held_since is None:
                held_since = now
            held = clock.ticks_diff(now, held_since)
            if held >= _TEST_HOLD_MS:
                return "hwtest"
            if held >= _SAFE_HOLD_MS and not safe:
                safe = True
                _corners(display, 4)
        elif safe:
            return "safe"
        else:
            held_since = None
            if clock.ticks_diff(now, start) >= window_ms:
                return "game"
        clock.sleep_ms(10)


def run(choice, hw, cfg, clock, stop=None):
    """Safe mode (the matrix dark, the REPL free) or the hardware test until its long press
    (the held press gives no event); returns `choice`."""
    if choice == "hwtest":
        from connect4.app.hwtest import HardwareTest
        print("connect4: hardware test (a long press ends it)")
        HardwareTest(hw.display, hw.input).run(clock, cfg["loop_ms"], stop)
    else:
        print("connect4: safe mode; the REPL is yours")
        hw.display.clear()
        hw.display.show()
    return choice
