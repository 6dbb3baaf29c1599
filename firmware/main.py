"""Board entry point, kept thin: build the hardware from config and run the game.

connect4/boot.py does the work: safe mode (hold the button during the first
second), the app, and restarting it after an unexpected error (logged to
error.log and shown as a red cross). Ctrl-C gives the REPL back.
"""
import config
from connect4 import boot

try:
    boot.main(config.get())
except KeyboardInterrupt:
    pass
