"""Board entry point, kept thin.

Until the LED-matrix app lands, the board serves the engine protocol on its
USB serial console (see README: Engine protocol); Ctrl-C gives the REPL back.
"""
import sys

from connect4.engine.protocol import Protocol


def main():
    protocol = Protocol(print)
    while True:
        line = sys.stdin.readline()
        if not line or not protocol.handle(line):
            break


try:
    main()
except KeyboardInterrupt:
    pass
