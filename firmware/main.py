"""Board entry point, kept thin: connect4/boot.py does the work.

boot.start() reads config.py, then runs safe mode / the hardware test (hold
the button during the first second), the app, and restarts it after an
unexpected error (logged to error.log and shown as a red cross); a config.py
that cannot be read is logged and shown the same way. Ctrl-C gives the REPL
back.
"""
from connect4 import boot

try:
    boot.start()
except KeyboardInterrupt:
    pass
