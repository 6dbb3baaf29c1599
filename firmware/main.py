"""Board entry point, kept thin: connect4/boot.py does the work.

boot.start() reads config.py, then runs safe mode / the hardware test (hold
the button during the first second), the app, and restarts it after an
unexpected error (logged to error.log and shown as a red cross); a config.py
that cannot be read is logged and shown the same way. Ctrl-C gives the REPL
back: from the start, MicroPython's own is off, since a computer may be
sending Improv Wi-Fi frames already (their command byte is Ctrl-C's), and the
app's ear stops the app at a Ctrl-C of a person's (connect4/listen.py).
"""
import micropython
micropython.kbd_intr(-1)

from connect4 import boot  # noqa: E402

try:
    boot.start()
except KeyboardInterrupt:
    pass
