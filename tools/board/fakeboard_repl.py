# Runs inside MicroPython: in the VM, behind tools/board/fakeboard.py.
"""The REPL of a fake board: MicroPython's raw REPL protocol, run in the MicroPython VM.

tools/board/fakeboard.py runs this in the VM behind a pseudo-terminal, so mpremote
(and with it `make deploy` and `make bench-device`) talks to it as to a board
on a serial port. It speaks what mpremote uses:
- Ctrl-C interrupts, Ctrl-A enters the raw REPL, Ctrl-B leaves it;
- in the raw REPL, Ctrl-D with no code is a soft reset ("soft reboot"), and
  code ended by Ctrl-D is answered "OK", run, then its output, Ctrl-D, the
  traceback if any, Ctrl-D and the prompt ">";
- raw-paste mode (Ctrl-E A Ctrl-A) is declined with "R\\x00", as older
  firmware does, so mpremote falls back to the plain raw REPL;
- the friendly `>>>` REPL (for `make repl`) runs one line at a time, echoes
  and prints an expression's value; Ctrl-D there is a soft reboot.
The board's filesystem is the VM's, rooted at `/` like the chip's LittleFS.
`machine.reset()` reboots the fake board (counted in `_fakeboard.resets`).
The VM runs bytecode only: .mpy files compiled for rv32imc do not import here.
"""
import io
import os
import sys

from _mpvm import run_steps

BANNER = "MicroPython v1.28.0 on fake board (MicroPython VM); ESP32C3 stand-in\r\n"
RAW_PROMPT = "raw REPL; CTRL-B to exit\r\n>"
read = sys.stdin.buffer.read
write = sys.stdout.write
write_bytes = sys.stdout.buffer.write


# The VM's file system raises Emscripten's errno numbers; the chip raises
# MicroPython's (py/mperrno.h), and mpremote reads those from a traceback's
# last line. VM number: (chip number, name).
VM_ERRNO = {63: (1, "EPERM"), 44: (2, "ENOENT"), 29: (5, "EIO"), 8: (9, "EBADF"),
            48: (12, "ENOMEM"), 2: (13, "EACCES"), 20: (17, "EEXIST"), 43: (19, "ENODEV"),
            54: (20, "ENOTDIR"), 31: (21, "EISDIR"), 28: (22, "EINVAL"), 51: (28, "ENOSPC"),
            69: (30, "EROFS"), 55: (39, "ENOTEMPTY")}


def print_error(e):
    """The traceback as the chip prints it: OSError numbers are the chip's."""
    text = io.StringIO()
    sys.print_exception(e, text)
    text = text.getvalue()
    if isinstance(e, OSError) and e.args and e.args[0] in VM_ERRNO:
        code, name = VM_ERRNO[e.args[0]]
        text = text[:text.rindex("OSError")] + "OSError: [Errno %d] %s\n" % (code, name)
    write(text)


class Reset(BaseException):
    pass


class _fakeboard:
    resets = 0
    soft_resets = 0


class _machine:
    @staticmethod
    def reset():
        raise Reset()

    @staticmethod
    def soft_reset():
        raise Reset()


BUILTIN_MODULES = set(sys.modules)


def boot():
    """A fresh board state: no user modules, a new __main__ namespace, `/` the cwd."""
    for name in list(sys.modules):
        if name not in BUILTIN_MODULES:
            del sys.modules[name]
    sys.modules["machine"] = _machine
    sys.modules["_fakeboard"] = _fakeboard
    sys.path[:] = ["", "/lib"]
    os.chdir("/")
    return {"__name__": "__main__"}


def run(code, env):
    """Run one raw-REPL command; returns False when it reset the board."""
    write("OK")
    error = None
    try:
        exec(code, env)
    except Reset:
        _fakeboard.resets += 1
        return False
    except BaseException as e:  # SystemExit and KeyboardInterrupt too: the board reports them
        error = e
    write("\x04")
    if error is not None:
        print_error(error)
    write("\x04>")
    return True


def line(text, env):
    """One line of the friendly REPL: an expression's value is printed, as at `>>>`.
    Returns False when it reset the board. (One line at a time: no blocks.)"""
    try:
        try:
            code = compile(text, "<stdin>", "eval")
        except SyntaxError:
            exec(text, env)
        else:
            value = eval(code, env)
            if value is not None:
                write(repr(value) + "\r\n")
    except Reset:
        _fakeboard.resets += 1
        return False
    except BaseException as e:
        print_error(e)
    return True


def session():
    """The REPL loop; it yields after every command, so the VM collects garbage then."""
    env = boot()
    raw = False
    code = bytearray()
    write(BANNER + ">>> ")
    while True:
        c = read(1)
        if not c:
            return  # the host closed the line
        b = c[0]
        if b == 0x01:  # Ctrl-A
            raw = True
            code = bytearray()
            write("\r\n" + RAW_PROMPT)
        elif b == 0x02:  # Ctrl-B
            raw = False
            code = bytearray()
            write("\r\n" + BANNER + ">>> ")
        elif b == 0x03:  # Ctrl-C: nothing runs between commands
            code = bytearray()
            if not raw:
                write("\r\n>>> ")
        elif not raw:
            if b in (0x0D, 0x0A):  # Enter: run the line
                write("\r\n")
                if code and not line(bytes(code).decode(), env):
                    env = boot()
                    write(BANNER)
                code = bytearray()
                write(">>> ")
                yield
            elif b == 0x04 and not code:  # Ctrl-D: soft reboot
                _fakeboard.soft_resets += 1
                env = boot()
                write("\r\nMPY: soft reboot\r\n" + BANNER + ">>> ")
                yield
            elif b in (0x08, 0x7F):  # backspace
                if code:
                    code = code[:-1]  # (MicroPython's bytearray has no pop)
                    write("\x08 \x08")
            elif b >= 0x20:
                code.append(b)
                write_bytes(c)  # echo
        elif b == 0x04:
            if code:
                ok = run(bytes(code).decode(), env)
                code = bytearray()
                if not ok:
                    env = boot()
                    raw = False
                    write(BANNER + ">>> ")
                yield
            else:
                _fakeboard.soft_resets += 1
                env = boot()
                write("soft reboot\r\n" + RAW_PROMPT)
                yield
        elif b == 0x05 and not code:  # raw-paste request: Ctrl-E 'A' Ctrl-A
            read(2)
            write_bytes(b"R\x00")
        else:
            code.append(b)


run_steps(session())
