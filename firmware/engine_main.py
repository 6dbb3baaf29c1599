"""The engine's line protocol on the serial console (see docs/engine-protocol.md).

Not started at power-on (main.py runs the game). From safe mode's REPL:
`import engine_main`; or from a computer: `mpremote run firmware/engine_main.py`.
Ctrl-C gives the REPL back.

Stdin is read as bytes (the protocol answers `error` to a line that is not
UTF-8). On the board select.poll tells whether a byte waits, so `stop` and
`quit` end a running search. In the MicroPython VM (`make engine-vm`) stdin's
poll always says "ready" and a read then blocks, so there lines are only read
between commands: `stop` cannot end a search (it waits for the search's end,
where it does nothing), and a command list without stop gets the same answers
as on CPython, node for node.
"""
import sys

from connect4.engine.book import open_book
from connect4.engine.player import AIPlayer
from connect4.engine.protocol import Protocol, StreamLines


def stdin_waiting():
    """A callable saying whether a byte of stdin can be read now, or None."""
    if sys.platform == "webassembly":
        return None
    try:
        import select
        poller = select.poll()
        poller.register(sys.stdin, select.POLLIN)
    except (ImportError, AttributeError, OSError):
        return None
    return lambda: poller.poll(0)


def main():
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    # the board's opening book when book.bin is beside main.py (in the VM: run in /firmware)
    Protocol(print, AIPlayer(book=open_book())).serve(StreamLines(stdin, stdin_waiting()))


try:
    main()
except KeyboardInterrupt:
    pass
