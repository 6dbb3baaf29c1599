"""A fake board on a pseudo-terminal: MicroPython's raw REPL, executing in the MicroPython VM.

    python tools/board/fakeboard.py [--seed DIR]     (prints the port; Ctrl-C stops it)

`make deploy PORT=...` and `make bench-device PORT=...` talk to it through
mpremote exactly as to a board on USB serial, so the tests run both end to
end without hardware. The board side is tools/board/fakeboard_repl.py in the VM;
this side opens the pseudo-terminal and relays bytes between it and the VM.
`--seed DIR` starts the board's filesystem with DIR's files at `/`.

Not a chip: the VM runs bytecode only (rv32imc .mpy files are copied but
cannot be imported), and `machine.reset()` reboots to the REPL without
running main.py.
"""
import os
import subprocess
import sys
import threading
import tty

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tools import common, mpvm  # noqa: E402

REPL = common.path(common.FAKEBOARD_REPL)


class FakeBoard:
    """Context manager: `.port` is the pseudo-terminal's path for mpremote."""

    def __init__(self, seed=None, heap="256k"):
        self.seed = seed
        self.heap = heap
        self.port = None
        self._proc = None
        self._threads = []

    def __enter__(self):
        master, slave = os.openpty()
        tty.setraw(slave)  # bytes pass untouched: no echo, no CR/LF mapping
        self._master, self._slave = master, slave  # the slave stays open between sessions
        self.port = os.ttyname(slave)
        paths = [(self.seed, "/")] if self.seed else []
        cmd = mpvm.command(REPL, paths=paths, heap=self.heap, firmware=False)
        # The VM's stderr (a crash of the fake board itself) goes to ours: a pipe
        # nobody reads could fill up and stall the board.
        self._proc = subprocess.Popen(cmd, cwd=mpvm.ROOT, stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, bufsize=0)
        self._threads = [threading.Thread(target=self._to_board, daemon=True),
                         threading.Thread(target=self._from_board, daemon=True)]
        for t in self._threads:
            t.start()
        return self

    def _to_board(self):
        while True:
            try:
                data = os.read(self._master, 4096)
            except OSError:
                return
            if not data:
                return
            try:
                self._proc.stdin.write(data)
            except (BrokenPipeError, ValueError):
                return

    def _from_board(self):
        while True:
            data = os.read(self._proc.stdout.fileno(), 4096)
            if not data:
                return
            try:
                os.write(self._master, data)
            except OSError:
                return

    def __exit__(self, *exc):
        if self._proc is not None:
            try:
                self._proc.stdin.close()
            except OSError:
                pass
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
        return False


def main(argv):
    seed = argv[argv.index("--seed") + 1] if "--seed" in argv else None
    with FakeBoard(seed) as board:
        print(board.port, flush=True)
        try:
            board._proc.wait()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main(sys.argv[1:])
