"""The engine's line protocol on the serial console (see README: Engine protocol).

Not started at power-on (main.py runs the game). From safe mode's REPL:
`import engine_main`; or from a computer: `mpremote run firmware/engine_main.py`.
Ctrl-C gives the REPL back.
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
