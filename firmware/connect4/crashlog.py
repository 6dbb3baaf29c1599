"""What a crash leaves behind: its traceback in error.log on flash, and the red cross.

Loaded by connect4.boot only when something went wrong (a crash of the app, a
config.py that cannot be read) and dropped again: the board runs for hours
without one, and every resident byte is the network's room with Wi-Fi on.
"""
import os
import sys
import time

from connect4.app.render import draw_error

LOG_LIMIT = 8192  # bytes: a longer log is begun again


def after(path, exc, moves, hw, end, clock=time):
    """connect4.boot's answer to a crash of the app, the app gone: the traceback logged with
    its game's `moves`, then the red cross blinked, or lit for good when `end` says the board
    stops ("crashed": too many crashes; "safe" or "hwtest": asked for at power-on)."""
    log_error(path, exc, moves)
    if end != "safe" and end != "hwtest" and hw is not None:
        show_error(hw, clock=clock)
    if end is not None and (hw is not None or end == "crashed"):
        from connect4 import fallback
        fallback.show_cross(hw.display if hw is not None else None)


def log_error(path, exc, moves=None):
    """Append the traceback to the error log, with the game's `moves` (to play it again);
    never raises."""
    try:
        try:
            if os.stat(path)[6] > LOG_LIMIT:
                os.remove(path)
        except OSError:
            pass
        where = "" if moves is None else ", moves " + moves
        with open(path, "a") as f:
            f.write("--- crash at %d ms%s\n" % (time.ticks_ms(), where))  # type: ignore[str-format]  # ticks: an int
            sys.print_exception(exc, f)  # type: ignore[attr-defined]  # MicroPython's (host_sim adds it)
    except Exception:
        pass


def show_error(hw, blinks=3, clock=time):
    """Blink the red cross; never raises (the display may be what failed)."""
    try:
        d = hw.display
        for i in range(2 * blinks):
            draw_error(d, i % 2 == 0)
            d.show()
            if hw.wdt is not None:
                hw.wdt.feed()
            clock.sleep_ms(300)
    except Exception:
        pass
