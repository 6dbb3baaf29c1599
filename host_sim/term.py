"""The matrix in a terminal: true-colour discs, a status line, keys in.

Plain ANSI escape sequences (alternate screen, 24-bit colour, cursor
addressing), so it works in any modern terminal and over SSH. The disc size
follows the terminal's size (redrawn on resize); the terminal's modes are
restored on exit, on Ctrl-C and on SIGTERM.
"""
import os
import select
import signal
import sys
import textwrap

from host_sim.record import screen_color, HOLE, BOARD

# disc pictures by size: (columns, rows, lines); each LED is drawn with its own colour
DISCS = (
    (7, 3, (" ▄███▄ ", " █████ ", " ▀███▀ ")),
    (5, 2, ("▗███▖", "▝███▘")),
    (3, 1, ("(●)",)),
    (2, 1, ("● ",)),
)
HELP = {  # the key legend of each input type (config's "input")
    "encoder": "←/→ or A/D turn · Space/Enter press · L long press (menu) · H hint · Q quit",
    "buttons": "←/→ or A/D LEFT/RIGHT · Space/Enter DROP · L long DROP (menu) · H hint · Q quit",
}
EXTRA_ROWS = 5  # title, two board edges, status, key legend

KEYS = {
    "a": "left", "A": "left", "d": "right", "D": "right",
    " ": "press", "\r": "press", "\n": "press",
    "l": "long", "L": "long", "m": "long", "M": "long", "h": "hint", "H": "hint",
    "q": "quit", "Q": "quit", "\x03": "quit",
}


def parse_keys(data):
    """Split raw terminal input into actions (unknown keys are dropped)."""
    out = []
    i = 0
    n = len(data)
    while i < n:
        if data[i] == "\x1b" and i + 1 < n and data[i + 1] in "[O":
            j = i + 2
            while j < n and not "@" <= data[j] <= "~":  # CSI parameters
                j += 1
            final = data[j] if j < n else ""
            i = j + 1
            if final == "D":  # left arrow, with or without modifiers
                out.append("left")
            elif final == "C":
                out.append("right")
            continue
        if data[i] in KEYS:
            out.append(KEYS[data[i]])
        i += 1
    return out


def fg(rgb):
    return "\x1b[38;2;%d;%d;%dm" % rgb


def bg(rgb):
    return "\x1b[48;2;%d;%d;%dm" % rgb


def choose_disc(width, height, cols, rows, extra_rows=EXTRA_ROWS):
    """The biggest disc picture the whole board fits with; None if not even the smallest does."""
    for disc in DISCS:
        if disc[0] * width + 2 <= cols and disc[1] * height + extra_rows <= rows:
            return disc
    return None


def needed_size(width, height, extra_rows=EXTRA_ROWS):
    """(columns, rows) of the smallest picture of the board."""
    return DISCS[-1][0] * width + 2, DISCS[-1][1] * height + extra_rows


def render(pixels, width, height, cols, rows, title, status, help_text=HELP["encoder"], web=None):
    """The whole screen as one string (cursor addressed, no scrolling).

    Lit LEDs are discs in their screen colour; unlit ones dark holes. A
    terminal too small for the whole board gets a message instead of a cut board.
    `web` (--web: the address and the current pairing code) is a line of its own
    under the status, never cut by the board.
    """
    extra = EXTRA_ROWS + (1 if web else 0)
    disc = choose_disc(width, height, cols, rows, extra)
    if disc is None:
        need = needed_size(width, height, extra)
        text = "terminal too small: need %dx%d, have %dx%d (make it bigger, or Q to quit)" % (
            need + (cols, rows))
        lines = textwrap.wrap(text, max(1, cols))[:max(1, rows)]
        return "\x1b[H\x1b[0m" + "\x1b[K\r\n".join(lines) + "\x1b[K\x1b[J"
    w, h, lines = disc
    left = max(0, (cols - (w * width + 2)) // 2)
    out = ["\x1b[H"]
    pad = " " * left
    out.append("\x1b[0m" + pad + title[:cols - left] + "\x1b[K\r\n")
    edge = bg(BOARD) + " " * (w * width + 2) + "\x1b[0m"
    out.append(pad + edge + "\x1b[K\r\n")
    for y in range(height):
        for k in range(h):
            parts = [pad, bg(BOARD), " "]
            for x in range(width):
                color = screen_color(pixels[x + y * width]) or HOLE
                parts.append(fg(color) + lines[k])
            parts.append(" \x1b[0m\x1b[K\r\n")
            out.append("".join(parts))
    out.append(pad + edge + "\x1b[K\r\n")
    out.append("\x1b[0m" + status[:cols] + "\x1b[K\r\n")
    if web:
        out.append(web[:cols] + "\x1b[K\r\n")
    out.append(help_text[:cols] + "\x1b[K\x1b[J")
    return "".join(out)


class Terminal:
    """Raw-ish keyboard input and full-screen output; use as a context manager."""

    def __init__(self, stdin=None, stdout=None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.fd = self.stdin.fileno()
        self.saved = None
        self.resized = True
        self._old_winch = None
        self._old_term = None

    def __enter__(self):
        import termios
        import tty
        if not os.isatty(self.fd):
            raise RuntimeError("the simulator needs a terminal (use --headless otherwise)")
        self.saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        # Ctrl-C arrives as a key (a clean quit), not as SIGINT: the signal would
        # also reach `make`, which then reports "Error 130" / "Interrupt".
        mode = termios.tcgetattr(self.fd)
        mode[3] &= ~termios.ISIG
        termios.tcsetattr(self.fd, termios.TCSANOW, mode)
        self._old_winch = signal.signal(signal.SIGWINCH, self._on_winch)
        self._old_term = signal.signal(signal.SIGTERM, self._on_term)
        self.write("\x1b[?1049h\x1b[?25l\x1b[2J")
        return self

    def __exit__(self, *exc):
        import termios
        try:  # a closed terminal (SIGHUP) takes neither
            self.write("\x1b[0m\x1b[?25h\x1b[?1049l")
            if self.saved is not None:
                termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)
        except (OSError, termios.error):
            pass
        signal.signal(signal.SIGWINCH, self._old_winch or signal.SIG_DFL)
        signal.signal(signal.SIGTERM, self._old_term or signal.SIG_DFL)
        return False

    def _on_winch(self, *_):
        self.resized = True

    @staticmethod
    def _on_term(*_):
        raise SystemExit(143)

    def size(self):
        try:
            s = os.get_terminal_size(self.stdout.fileno())
            return s.columns, s.lines
        except OSError:
            return 80, 24

    def write(self, text):
        self.stdout.write(text)
        self.stdout.flush()

    def read_keys(self, timeout):
        """Actions typed within `timeout` seconds (maybe none)."""
        try:
            ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        except InterruptedError:  # a signal (resize)
            return []
        if not ready:
            return []
        data = os.read(self.fd, 256).decode("utf-8", "replace")
        return parse_keys(data)
