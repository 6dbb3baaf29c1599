"""When the board listens for Improv Wi-Fi on its USB serial port, and its ear's making.

The board listens while no home network is set, for the first minute after every start
(LISTEN_MS: the install page's ESP Web Tools asks right after it has written the firmware)
and for MENU_MS when the menu's Wi-Fi item asks ("set up from a computer"), never while
Wi-Fi is on: with Wi-Fi on at the start it does not listen (connect4.boot), the menu turns
Wi-Fi off for it, Wi-Fi turned on stops it (connect4.app.menu), and so does a network
joined through Improv (then the board restarts into Wi-Fi on: connect4.net.improv). Wi-Fi
and listening never share the heap, whose room with Wi-Fi on is the network's. Listening
holds only the ear (connect4.ear: the app's `serial` hook, called at every loop step, not
inside a search: what comes meanwhile waits) and its poll: this module is loaded for its
use and dropped again (connect4.modules.use), and so is the protocol (`make memory`:
docs/benchmarks.md).

Improv's type byte for a command, 0x03, is also Ctrl-C, which would stop the app: while the
board listens, MicroPython's Ctrl-C is off (micropython.kbd_intr; main.py turns it off first
of all, since a computer that has just written the board asks at once, while it boots) and
the ear does its work: a Ctrl-C outside a frame (a person at the REPL, mpremote, `make
deploy`) still stops the app, a loop step later (after the AI's search, if one runs). Once the
board stops listening, Ctrl-C is MicroPython's again.

Only on the chip (sys.platform "esp32"), whose stdin and stdout are the USB serial port; the
simulator's stdin is its terminal. Tests hand `start` a port of their own.
"""
import sys
from micropython import const, kbd_intr
from time import ticks_add, ticks_diff

from connect4.modules import use

LISTEN_MS = const(60000)  # after every start
MENU_MS = const(300000)  # asked for from the menu: time to reach the computer and open the page


def start(app, now, ms, port=None, out=None, poller=None):
    """Listen for `ms` from now (None: while no home network is set), or go on listening
    until then if the board already listens for less. On the chip, on its USB serial port;
    elsewhere only on a `port` given (with `out` and `poller`). Does the board listen?"""
    until = None if ms is None else ticks_add(now, ms)
    ear = app.serial
    if ear is not None:  # listening (or joining: connect4.net.improv's Joining holds the ear)
        ear = getattr(ear, "ear", ear)
        if ear.until is not None and (until is None or ticks_diff(until, ear.until) > 0):
            ear.until = until
        return True
    if port is None:
        if sys.platform != "esp32":
            return False
        import select
        port, out, poller = sys.stdin.buffer, sys.stdout.buffer, select.poll()
        poller.register(sys.stdin, select.POLLIN)
    kbd_intr(-1)
    app.serial = use("connect4.ear").Ear(app, port, out, poller, until)
    return True


def at_start(app, now, port=None, out=None, poller=None):
    """boot's: listen for the first minute, or for good while no home network is set."""
    if port is None and sys.platform != "esp32":
        return
    start(app, now, LISTEN_MS if home_set(app.cfg["flash_dir"]) else None, port, out, poller)


def home_set(flash_dir):
    """Is a home network kept in wifi.json (connect4.net.netconf's file, read here as it is:
    nothing of connect4.net loaded at every start)?"""
    try:
        with open(flash_dir + "wifi.json") as f:
            import json
            return bool(json.loads(f.read()).get("ssid"))
    except Exception:
        return False
