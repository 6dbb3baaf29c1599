"""`python -m host_sim.engine`: the engine protocol on stdin/stdout.

See connect4/engine/protocol.py for the commands. Output is flushed after
every line so a driving program never waits on a buffer.
"""
import sys

import host_sim  # noqa: F401  (stubs and firmware on the path)
from connect4.engine.protocol import Protocol


def main(stdin=sys.stdin, stdout=sys.stdout):
    def write(line):
        stdout.write(line + "\n")
        stdout.flush()

    protocol = Protocol(write)
    for line in stdin:
        if not protocol.handle(line):
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
