"""Power-on: safe mode, then the app, restarted after an unexpected error.

- Safe mode: hold SELECT (the encoder's button, DROP on the three-button
  build) during the first `safe_mode_ms` after power-on: the game does not
  start and the REPL stays free. (The encoder button is on GPIO2, a strapping
  pin that must be high while the chip resets, so the window starts after
  reset rather than relying on a button held through it.)
- An unexpected exception is appended to `error.log` on flash (kept under
  about 8 KB), a red cross blinks on the matrix, and the app starts again.
  Five crashes in a row, each within 10 s of its start, stop the restarts
  (the cross stays lit; the REPL is free).
- The hardware watchdog, if configured, is armed only once the game runs.
"""
import gc
import os
import sys
import time

from connect4 import hardware_setup
from connect4.app.game import App
from connect4.app.render import draw_error
from connect4.app.store import Store
from connect4.app.glyphs import FRAME

SETTINGS_FILE = "connect4.json"
ERROR_LOG = "error.log"
LOG_LIMIT = 8192
CRASH_WINDOW_MS = 10000
MAX_CRASHES = 5

APP = None  # the running app (the simulator reads its status)
LISTENER = None  # the simulator's listener for app events, when main() is given none


def safe_mode_requested(hw, window_ms, clock=time):
    """True if SELECT is held for 300 ms at any time during the first window_ms."""
    display = hw.display
    display.clear()
    for x, y in ((0, 0), (display.width - 1, 0)):
        display.set(x, y, FRAME)
    display.show()
    start = clock.ticks_ms()
    held_since = None
    while True:
        now = clock.ticks_ms()
        if hw.input.pressed():
            if held_since is None:
                held_since = now
            elif clock.ticks_diff(now, held_since) >= 300:
                return True
        else:
            held_since = None
            if clock.ticks_diff(now, start) >= window_ms:
                return False
        clock.sleep_ms(10)


def fresh_seed():
    try:
        b = os.urandom(4)
        return (b[0] | b[1] << 8 | b[2] << 16 | (b[3] & 0x3F) << 24) or 1
    except Exception:
        return time.ticks_ms() or 1


def log_error(path, exc):
    """Append the traceback to the error log; never raises."""
    try:
        try:
            if os.stat(path)[6] > LOG_LIMIT:
                os.remove(path)
        except OSError:
            pass
        with open(path, "a") as f:
            f.write("--- crash at %d ms\n" % time.ticks_ms())  # type: ignore[str-format]  # ticks: an int
            if hasattr(sys, "print_exception"):
                sys.print_exception(exc, f)
            else:  # CPython (the simulator)
                import traceback  # type: ignore[import-not-found]  # CPython only
                traceback.print_exception(type(exc), exc, exc.__traceback__, file=f)
    except Exception:
        pass


def show_error(hw, blinks=3, clock=time):
    d = hw.display
    for i in range(2 * blinks):
        draw_error(d, i % 2 == 0)
        d.show()
        if hw.wdt is not None:
            hw.wdt.feed()
        clock.sleep_ms(300)


def main(cfg, listener=None, stop=None, clock=time):
    """Run the board: returns only in safe mode, after too many crashes, or when stop() says so."""
    global APP
    if listener is None:
        listener = LISTENER
    hw = hardware_setup.build(cfg)
    if cfg["safe_mode_ms"] and safe_mode_requested(hw, cfg["safe_mode_ms"], clock):
        hw.display.clear()
        hw.display.show()
        print("connect4: safe mode, the game is not started; the REPL is yours")
        return "safe"
    wdt = hw.start_watchdog()
    flash = cfg["flash_dir"]
    store = Store(flash + SETTINGS_FILE, defaults={"brightness": cfg["brightness_level"]})
    store.load()
    seed = cfg["seed"] if cfg["seed"] is not None else fresh_seed()
    time_cap = cfg["ai_time_cap_ms"] if sys.platform == "esp32" else 0
    crashes = 0
    while True:
        APP = App(hw.display, hw.input, store, cfg, clock=clock, wdt=wdt, seed=seed,
                  time_cap_ms=time_cap, node_rate=cfg["node_rate"], listener=listener)
        started = clock.ticks_ms()
        try:
            APP.run(stop)
            return "stopped"
        except KeyboardInterrupt:
            raise
        except Exception as e:
            log_error(flash + ERROR_LOG, e)
            print("connect4: crashed (%r), see %s" % (e, ERROR_LOG))
            if clock.ticks_diff(clock.ticks_ms(), started) < CRASH_WINDOW_MS:
                crashes += 1
            else:
                crashes = 1
            show_error(hw, clock=clock)
            if crashes >= MAX_CRASHES:
                draw_error(hw.display, True)
                hw.display.show()
                return "crashed"
            APP = None
            gc.collect()
            store.load()
            seed += 1
