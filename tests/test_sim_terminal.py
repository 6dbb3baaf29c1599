"""End to end: `make sim` in a pseudo-terminal, driven by keys, read back as a screen.

The screen is reconstructed with pyte (a terminal emulator in Python), so
the test sees what a person would: the status line, the discs and their
colours; it also checks resizing and that the terminal is restored on exit.
"""
import fcntl
import os
import pty
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest
import pyte

from host_sim.term import parse_keys, render, choose_disc, DISCS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def set_size(fd, cols, rows):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def controlling_terminal():
    """In the child: a session of its own with the pty as its controlling terminal,
    so Ctrl-C typed there is a SIGINT to the foreground group (make and the simulator)
    unless the simulator turns that off, as in a real terminal."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    # as a shell in a terminal starts it: SIGINT at its default, whatever the test runner
    # inherited (a runner started in the background ignores it, and Python keeps that)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Session:
    def __init__(self, args, cols=100, rows=40, command=None):
        self.master, slave = pty.openpty()
        set_size(slave, cols, rows)
        env = dict(os.environ, TERM="xterm-256color", PYTHONFAULTHANDLER="1")  # SIGABRT: every stack
        # `-o .venv/.installed`: the tests already run in the venv, do not remake it
        command = command or ["make", "-s", "-o", ".venv/.installed", "sim", "SIM_ARGS=" + args]
        self.proc = subprocess.Popen(command, cwd=ROOT, stdin=slave, stdout=slave, stderr=slave,
                                     env=env, preexec_fn=controlling_terminal)
        os.close(slave)
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""

    def pump(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    return
                if not data:
                    return
                self.raw += data
                self.stream.feed(data)

    def text(self):
        return "\n".join(self.screen.display)

    def wait_for(self, needle, seconds=30):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.pump(0.1)
            if needle in self.text():
                return
        raise AssertionError("%r not on screen:\n%s" % (needle, self.text()))

    def send(self, keys, settle=0.4):
        os.write(self.master, keys.encode())
        self.pump(settle)

    def resize(self, cols, rows):
        set_size(self.master, cols, rows)
        self.screen.resize(rows, cols)
        os.killpg(self.proc.pid, signal.SIGWINCH)
        self.pump(0.5)

    def disc_colors(self, row_text_index):
        """Foreground colour of each disc on one screen line (the first glyph of each run)."""
        line = self.screen.buffer[row_text_index]
        return [line[x].fg for x in range(self.screen.columns)
                if line[x].data in "█●" and (x == 0 or line[x - 1].data not in "█●")]

    def close(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        os.close(self.master)


@pytest.fixture
def terminal(tmp_path):
    """start(*options) -> the simulator in a terminal of its own on tmp_path's flash, in two-player
    mode, its board on screen (via_make: through `make sim`); every one closed at the test's end."""
    started = []

    def start(*options, cols=100, rows=40, via_make=False, ready="two players | play"):
        options = ("--flash", str(tmp_path / "flash")) + options + ("--mode", "two")
        if via_make:
            s = Session(" ".join(options), cols, rows)
        else:
            s = Session("", cols, rows, command=[sys.executable, "-m", "host_sim"] + list(options))
        started.append(s)
        s.wait_for(ready)
        return s
    yield start
    for s in started:
        s.close()


@pytest.mark.skipif(not shutil.which("make"), reason="needs make")
def test_make_sim_in_a_terminal(tmp_path, terminal):
    s = terminal("--seed", "2", via_make=True)
    assert "Connect 4 board simulator" in s.text() and "Q quit" in s.text()
    s.send("d")  # the encoder turns right
    s.send(" ", settle=1.0)  # press: red drops into column 5
    s.wait_for("two players | play")
    lines = s.screen.display
    disc_rows = [i for i, line in enumerate(lines) if "█████" in line]
    assert len(disc_rows) == 8  # the big discs: one line per LED row
    bottom = s.disc_colors(disc_rows[-1])
    lit = [c for c in bottom if c not in ("1a1a1e",)]  # unlit: a dark hole
    assert len(bottom) == 8 and len(lit) == 2, bottom  # a red disc and the blue frame
    red = bottom[4]
    assert red.startswith(("7", "8", "9", "a", "b", "c", "d", "e", "f")) and red[2:] == "0000"
    s.send("l", settle=1.6)  # long press: the menu
    s.wait_for("menu: mode = two")
    s.resize(40, 20)  # smaller terminal: smaller discs, still the whole board
    assert "menu: mode" in s.text()
    assert not any("█████" in line for line in s.screen.display)
    s.send("q", settle=0.5)
    assert wait_exit(s) == 0
    tail = s.raw[-200:]
    assert b"\x1b[?1049l" in tail and b"\x1b[?25h" in tail  # terminal restored
    assert (tmp_path / "flash" / "connect4.json").exists()  # the flash is a folder


def test_keys_and_screen_rendering():
    assert parse_keys("\x1b[D\x1b[1;5Cad \nLmq\x03x") == [
        "left", "right", "left", "right", "press", "press", "long", "long", "quit", "quit"]
    assert parse_keys("hH") == ["hint", "hint"]  # the hint's chord, as one key
    pixels = [(0, 0, 0)] * 64
    pixels[3] = (255, 0, 0)
    big = render(pixels, 8, 8, 100, 40, "title", "status")
    assert "\x1b[38;2;255;0;0m" in big and "status" in big
    assert choose_disc(8, 8, 100, 40) is DISCS[0]
    assert choose_disc(8, 8, 30, 14) is DISCS[-2] or choose_disc(8, 8, 30, 14) is DISCS[-1]
    assert choose_disc(8, 8, 10, 5) is None  # too small for the board: no cut board


def wait_exit(s, seconds=10):
    deadline = time.monotonic() + seconds
    while s.proc.poll() is None and time.monotonic() < deadline:
        s.pump(0.1)
    return s.proc.poll()


@pytest.mark.skipif(not shutil.which("make"), reason="needs make")
def test_ctrl_c_in_make_sim_is_a_clean_quit(terminal):
    s = terminal("--seed", "2", via_make=True)
    s.send("\x03", settle=0.5)  # typed in the terminal: was SIGINT to make and the simulator
    assert wait_exit(s) == 0, s.raw[-300:]
    assert b"Error 130" not in s.raw and b"Interrupt" not in s.raw
    tail = s.raw[-200:]
    assert b"\x1b[?1049l" in tail and b"\x1b[?25h" in tail  # terminal restored


def test_sigint_is_a_clean_quit_too(terminal):
    s = terminal("--seed", "2")
    os.kill(s.proc.pid, signal.SIGINT)  # KeyboardInterrupt (was exit code 130)
    if wait_exit(s) is None:  # stuck: where (faulthandler prints every thread's stack)
        os.kill(s.proc.pid, signal.SIGABRT)
        wait_exit(s, 5)
        raise AssertionError("no exit 10 s after SIGINT:\n" + s.raw[-3000:].decode(errors="replace"))
    assert s.proc.poll() == 0, s.raw[-300:]
    assert b"Traceback" not in s.raw
    assert b"\x1b[?1049l" in s.raw[-200:]


def test_buttons_preset_shows_its_own_keys(terminal):
    s = terminal("--preset", "buttons")
    legend = s.screen.display[-1] + "\n" + s.text()
    assert "LEFT/RIGHT" in legend and "DROP" in legend
    assert " turn " not in s.text()  # no encoder help on the buttons build
    assert "preset buttons" in s.text()
    s.send("q", settle=0.5)
    assert wait_exit(s) == 0


def test_a_terminal_too_small_says_so_and_redraws_when_it_grows(terminal):
    s = terminal(cols=16, rows=10, ready="small")
    text = " ".join(line.strip() for line in s.screen.display)
    assert "terminal too small: need 18x13, have 16x10" in text, text
    assert "█" not in s.text() and "●" not in s.text()  # no cut board
    s.resize(60, 30)
    s.wait_for("two players | play")
    assert "too small" not in s.text()
    assert sum("███" in line for line in s.screen.display) == 24  # 8 LED rows of 3 lines
    s.send("q", settle=0.5)
    assert wait_exit(s) == 0
