"""Drive the stock MicroPython image in an emulated ESP32-C3: UART, buttons, power, network.

The emulator is Espressif's QEMU as forked for PICSimLab (machine
`esp32c3-picsimlab`, its Wi-Fi NIC `esp32c3_wifi`), built outside this
repository (docs/developer.md#the-chip-in-the-loop says which build and what it
must offer). It runs instruction-counted (`-icount shift=3`): one guest
instruction is 8 ns of emulated time, so the board's own `time.ticks_us()`
counts instructions (125 a microsecond) whatever the host's load.

- UART0 (the REPL, print) on a TCP socket on 127.0.0.1, read all the time by a
  thread of its own: `read_until`, `write`, and a raw REPL (`exec_raw`) for code
  run from the test. (The emulator's UART drops what its socket does not take at
  once, a byte a write: a Unix socket, whose buffer counts each byte as a packet,
  took some 250 bytes before dropping; nobody reading for a moment lost the rest
  of a report.)
- The buttons: GPIO inputs are driven through QMP (`qom-set` of the GPIO
  block's `ext-in` levels, pulled up: 1 is released), `press`/`release`.
- The power: `kill()` is a power cut (the flash file keeps what was written);
  `boot()` again on the same flash is the next power-on.
- The network: the emulator's open access point `PICSimLabWifi` (the chip
  gets 192.168.4.15 as a station); `http_port` on 127.0.0.1 forwards to its
  port 80, or with `port` to that port (TCP and UDP) from the host's port of
  the same number, which another emulated board reaches at 192.168.4.2 (its
  own network's way to the host). Each emulator's network is its own
  192.168.4.0/24: no broadcast crosses. `mac` gives a board eFuses of its own,
  so that two boards have two MACs (two names).

Host only. Nothing here knows the game: tests/chip/ does.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

from tools.common import ROOT, free_port

STATION_IP = "192.168.4.15"  # the address the emulator's DHCP gives the chip as a station
GATEWAY_IP = "192.168.4.2"  # the emulator's network's way to its host's loopback (slirp)
AP_IP = "192.168.4.1"  # the chip's own access point
OPEN_SSID = "PICSimLabWifi"  # one of the emulator's three open access points
QEMU_NAME = "qemu-system-riscv32"
FLASH_BYTES = 4 << 20
# one guest instruction = 2**3 ns of emulated time; an idle guest's clock follows the host's
ICOUNT = "shift=3,align=off,sleep=on"
INSTRUCTIONS_PER_US = 1000 >> 3  # 125: the board's ticks_us counts guest instructions
# The emulator's eFuses (its file: from RD_WR_DIS on, 1 KB): the MAC in RD_MAC_SPI_SYS_0/1 (its
# bytes in reverse: the default 01 10 fe 24 0a c4 is the station's c4:0a:24:fe:10:01), the chip's
# revision in RD_MAC_SPI_SYS_3 (the ESP32-C3's register map, lcgamboa/qemu's esp32c3_efuse.h)
EFUSE_BYTES = 1024
EFUSE_MAC = 0x18
EFUSE_SYS_3 = 0x24
# The one file the emulated board has beyond make image's: the emulator has no RMT peripheral,
# and NeoPixel.write() would hang on it.
EMULATOR_BOOT = (b"import esp32\n"
                 b"esp32.RMT.bitstream_rmt(False)  # the emulator has no RMT: bit-bang the NeoPixel\n")


def flash_image(firmware, deployed, extra=()):
    """`make image`'s flash image (tools/board/image.py: the stock MicroPython .bin `firmware`,
    bytes, with `deployed` [(board path, bytes)] in its LittleFS), plus /boot.py for the
    emulator and `extra` files."""
    from tools.board import image
    return image.image(firmware, list(deployed) + [("/boot.py", EMULATOR_BOOT)] + list(extra))


def find_qemu():
    """The emulator's binary: $QEMU, else build/emulator/qemu-system-riscv32, else None."""
    for cand in (os.environ.get("QEMU", ""), os.path.join(ROOT, "build", "emulator", QEMU_NAME)):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


def find_firmware():
    """The stock MicroPython image the emulated board runs: $FIRMWARE if it is a file, else None."""
    path = os.environ.get("FIRMWARE", "")
    return path if path and os.path.isfile(path) else None


def _die_with_parent():
    """In the emulator's process before it starts: killed when the test's process ends, however
    it ends (a test run stopped with a signal leaves no emulator running on). Linux only."""
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


class ChipError(Exception):
    """The emulated board did not answer as expected (the text says what was seen)."""


class ChipStalled(ChipError):
    """The UART fell silent where the board prints regularly: the emulator's known fault
    (now and then its CPU spins waiting for FreeRTOS's yield interrupt, with no app too,
    unless its interrupt model is changed: docs/chip.md, "The emulated chip"). A test may boot again and retry."""


class ChipDied(ChipStalled):
    """The emulator's process ended on its own or by a signal from outside (the text says
    which): the emulator's or the host's doing, never the firmware's (a guest that panics
    resets, the process goes on). A test may boot again and retry."""


class Chip:
    """One emulated board on one flash file. `boot()` powers it on, `kill()` cuts the power."""

    def __init__(self, qemu, flash, wifi=True, http_to=STATION_IP, log=None, qemu_args=(), port=80,
                 mac=None):
        self.qemu = qemu
        self.qemu_args = list(qemu_args)  # more options of the emulator (tools/chip/phases.py: its log)
        self.flash = flash
        self.wifi = wifi
        self.http_to = http_to
        self.port = port  # the board's page: its port (TCP, and UDP for other boards' search)
        self.mac = mac  # the last byte of the board's MAC (eFuses of its own), or None: the emulator's
        self.tmp = tempfile.mkdtemp(prefix="chip-")
        self.proc = None
        self.uart = None
        self.qmp = None
        self.http_port = None
        self.out = bytearray()  # everything the UART printed since boot()
        self.seen = 0  # how much of `out` read_until has consumed
        self.log = log  # a file to copy the UART into, or None
        self.levels = 0xFFFFFFFF
        self.lock = threading.Lock()
        self.came = threading.Event()
        self.closed = False

    # -- power -------------------------------------------------------------
    def boot(self, hold=()):
        """Power on; `hold` lists GPIOs held low (pressed) from the first instruction."""
        self.kill()
        uart_port = free_port()
        qmp_path = os.path.join(self.tmp, "qmp.sock")
        if os.path.exists(qmp_path):
            os.remove(qmp_path)
        cmd = [self.qemu, "-nographic", "-M", "esp32c3-picsimlab", "-L", os.path.dirname(self.qemu),
               "-drive", "file=%s,if=mtd,format=raw" % self.flash,
               "-serial", "tcp:127.0.0.1:%d,server=on,wait=on,nodelay=off" % uart_port,
               "-monitor", "none", "-qmp", "unix:%s,server=on,wait=off" % qmp_path,
               "-icount", os.environ.get("CHIP_ICOUNT", ICOUNT),
               "-global", "driver=timer.esp32c3.timg,property=wdt_disable,value=true"]
        if self.wifi:
            if self.port == 80:
                self.http_port = free_port()
                fwd = "hostfwd=tcp:127.0.0.1:%d-%s:80" % (self.http_port, self.http_to)
            else:  # the page at a port of the host's own number: another emulated board reaches it
                # through its gateway (192.168.4.2, its host's loopback), TCP and UDP alike
                self.http_port = self.port
                fwd = "hostfwd=tcp:127.0.0.1:%d-%s:%d,hostfwd=udp:127.0.0.1:%d-%s:%d" % (
                    self.port, self.http_to, self.port, self.port, self.http_to, self.port)
            cmd += ["-nic", "user,model=esp32c3_wifi,net=192.168.4.0/24," + fwd]
        else:
            cmd += ["-nic", "none"]
        if self.mac is not None:
            cmd += ["-drive", "file=%s,if=none,format=raw,id=efuse" % self._efuses(),
                    "-global", "driver=nvram.esp32c3.efuse,property=drive,value=efuse"]
        cmd += self.qemu_args
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, cwd=self.tmp,
                                     preexec_fn=_die_with_parent)
        self.uart = self._connect(("127.0.0.1", uart_port), socket.AF_INET)
        self.qmp = self._connect(qmp_path)
        self.qmp.settimeout(10)
        self._qmp_read()  # the greeting
        self._qmp({"execute": "qmp_capabilities"})
        with self.lock:  # (the last boot's reader, if still on its way out, keeps off)
            self.out = bytearray()
            self.seen = 0
            self.heard = time.monotonic()
            self.came = threading.Event()  # the reader took something (or the UART closed)
            self.closed = False
        threading.Thread(target=self._reader, args=(self.uart, self.out), daemon=True).start()
        self.levels = 0xFFFFFFFF
        for pin in hold:
            self.levels &= ~(1 << pin)
        self._set_levels()
        return self

    def _connect(self, path, family=socket.AF_UNIX, timeout=20):
        end = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise ChipError("the emulator exited: %s" % self.proc.stdout.read().decode(errors="replace"))
            try:
                s = socket.socket(family, socket.SOCK_STREAM)
                s.connect(path)
                return s
            except OSError:
                s.close()
                if time.monotonic() > end:
                    raise ChipError("no socket %s from the emulator" % (path,))
                time.sleep(0.05)

    def _efuses(self):
        """A file of eFuses for this board, as the emulator's own defaults are (chip revision
        v0.3, its MAC) but the MAC's last byte: two boards, two MACs, two names."""
        path = os.path.join(self.tmp, "efuse.bin")
        data = bytearray(EFUSE_BYTES)
        data[EFUSE_MAC:EFUSE_MAC + 6] = bytes([self.mac, 0x10, 0xFE, 0x24, 0x0A, 0xC4])
        data[EFUSE_SYS_3:EFUSE_SYS_3 + 4] = (3 << 18).to_bytes(4, "little")  # wafer_version_minor_low
        with open(path, "wb") as f:
            f.write(data)
        return path

    def kill(self):
        """A power cut: the emulator dies wherever the guest is; the flash keeps what it has."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            if self.proc.stdout:
                self.proc.stdout.close()
            self.proc = None
        for s in (self.uart, self.qmp):
            if s is not None:
                s.close()
        self.uart = self.qmp = None

    def close(self):
        self.kill()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- buttons -----------------------------------------------------------
    def _qmp_read(self):
        buf = b""
        while not buf.endswith(b"\n"):
            chunk = self.qmp.recv(4096)
            if not chunk:
                raise ChipError("QMP closed")
            buf += chunk
        return [json.loads(line) for line in buf.splitlines() if line.strip()]

    def _qmp(self, msg):
        self.qmp.sendall(json.dumps(msg).encode() + b"\n")
        while True:
            for reply in self._qmp_read():
                if "return" in reply:
                    return reply["return"]
                if "error" in reply:
                    raise ChipError("QMP %s: %s" % (msg.get("execute"), reply["error"]))

    def _set_levels(self):
        self._qmp({"execute": "qom-set", "arguments": {
            "path": "/machine/gpio", "property": "ext-in", "value": self.levels}})

    def pc(self):
        """The guest's program counter (for a stall's message), or '?'."""
        try:
            regs = self._qmp({"execute": "human-monitor-command",
                              "arguments": {"command-line": "info registers"}})
            for part in regs.split():
                if part.startswith("pc"):
                    return regs[regs.index(part):].split()[1]
        except Exception:
            pass
        return "?"

    def press(self, pin):
        """The button on `pin` pressed (its level pulled to ground)."""
        self.levels &= ~(1 << pin)
        self._set_levels()

    def release(self, pin):
        self.levels |= 1 << pin
        self._set_levels()

    # -- UART --------------------------------------------------------------
    def _reader(self, sock, out):
        """The UART's reader thread (one a boot): everything into `out` (this boot's) as it
        comes, the log too; ends when the UART closes (the power cut, or the emulator's end)."""
        while True:
            try:
                chunk = sock.recv(65536)
            except OSError:
                chunk = b""
            with self.lock:
                if out is not self.out:  # a later boot's: this one is over
                    return
                if not chunk:
                    self.closed = True
                    self.came.set()
                    return
                out += chunk
                self.heard = time.monotonic()
                if self.log is not None:
                    self.log.write(chunk)
                    self.log.flush()
                self.came.set()

    def _pump(self, timeout):
        """Wait up to `timeout` s for the reader to take something; True if it did."""
        came = self.came.wait(timeout) if timeout > 0 else self.came.is_set()
        self.came.clear()
        if not self.closed:
            return came
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            raise ChipError("the UART closed, the emulator still running\n" + self.tail())
        said = self.proc.stdout.read().decode(errors="replace")[-1000:] if self.proc.stdout else ""
        raise ChipDied("the emulator ended (exit status %s%s): %s\nthe UART said:\n%s" % (
            code, ", signal %d" % -code if code < 0 else "", said.strip(), self.tail()))

    def tail(self, n=2000):
        return self.out[-n:].decode(errors="replace")

    def read_until(self, marker, timeout=60, stall=None):
        """Wait for `marker` (bytes) in the UART after what was already consumed; return the
        text up to it. `stall`: seconds of silence after which the emulator counts as stuck."""
        end = time.monotonic() + timeout
        heard = time.monotonic()
        while True:
            i = self.out.find(marker, self.seen)
            if i >= 0:
                text = bytes(self.out[self.seen:i + len(marker)])
                self.seen = i + len(marker)
                return text.decode(errors="replace")
            now = time.monotonic()
            left = end - now
            if left <= 0:
                raise ChipError("no %r within %d s; the UART said:\n%s" % (marker, timeout, self.tail()))
            if stall is not None and now - heard > stall:
                raise ChipStalled("the UART silent for %d s waiting for %r (pc %s); it said:\n%s"
                                  % (stall, marker, self.pc(), self.tail()))
            if self._pump(min(left, 0.5)):
                heard = time.monotonic()

    def check_alive(self, stall):
        """ChipDied if the emulator has ended, ChipStalled if the UART has been silent `stall`
        seconds (for a test busy elsewhere, e.g. with HTTP, while the board prints its reports;
        the reader thread takes what it prints)."""
        self._pump(0)
        if time.monotonic() - self.heard > stall:
            raise ChipStalled("the UART silent for %d s (pc %s); it said:\n%s" % (stall, self.pc(), self.tail()))

    def drain(self, seconds=0.2):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self._pump(max(0.01, end - time.monotonic()))
        self.seen = len(self.out)

    def write(self, data):
        if isinstance(data, str):
            data = data.encode()
        self.uart.sendall(data)

    # -- the REPL ----------------------------------------------------------
    def interrupt(self, timeout=60):
        """Ctrl-C until the friendly REPL's prompt answers."""
        end = time.monotonic() + timeout
        while True:
            self.write(b"\r\x03")
            try:
                self.read_until(b">>> ", timeout=2)
                return
            except ChipError:
                if time.monotonic() > end:
                    raise

    def raw_repl(self, timeout=60):
        """Enter the raw REPL (Ctrl-A) from the friendly one."""
        self.write(b"\r\x01")
        self.read_until(b"raw REPL; CTRL-B to exit\r\n>", timeout=timeout)

    def repl(self):
        """Power on, stop main.py with Ctrl-C and enter the raw REPL."""
        self.boot()
        self.read_until(b"entry", timeout=60)
        self.interrupt(timeout=120)
        self.raw_repl()
        return self

    def soft_reset(self, timeout=60):
        """Ctrl-D at the raw REPL: MicroPython starts afresh (boot.py, not main.py), as mpremote
        does before its first command: nothing the stopped main.py left (its timers, its heap)."""
        self.write(b"\x04")
        self.read_until(b"soft reboot", timeout=timeout)
        self.read_until(b"raw REPL; CTRL-B to exit\r\n>", timeout=timeout)
        return self

    def exec_raw(self, code, timeout=120, stall=None):
        """Run `code` in the raw REPL; return its stdout, raise ChipError with its traceback
        (`stall`: seconds of silence in its output that count as the emulator's stall)."""
        data = code.encode() if isinstance(code, str) else code
        for i in range(0, len(data), 256):  # the UART's receive buffer is small
            self.write(data[i:i + 256])
            time.sleep(0.01)
        self.write(b"\x04")
        self.read_until(b"OK", timeout=timeout)
        out = self.read_until(b"\x04", timeout=timeout, stall=stall)[:-1]
        err = self.read_until(b"\x04", timeout=timeout)[:-1]
        self.read_until(b">", timeout=timeout)
        if err:
            raise ChipError("the board raised:\n%s\n(output: %s)" % (err, out))
        return out

    def friendly(self):
        """Leave the raw REPL (Ctrl-B)."""
        self.write(b"\x02")
        self.read_until(b">>> ", timeout=30)
