"""What the chip tests do with an emulated board: reach its REPL, run the app's probe, read its lines."""
import functools
import os

from tools.chip import probe
from tools.chip.emulator import Chip, ChipStalled, find_qemu
from tools.chip.probe import parse_fields, gc_heap  # noqa: F401  (the tests' too)


def repl(c):
    """Boot, stop main.py with Ctrl-C and enter the raw REPL (Chip.repl)."""
    return c.repl()


def run_probe(c, **args):
    """Start tools/chip/app_probe.py (the app as main.py runs it, reporting; on the flash as
    /app_probe.mpy) from the raw REPL; returns at once: read its lines with c.read_until."""
    probe.run(c, **args)


def wait_lines(c, marker, until, timeout):
    """Collect every line starting with `marker` until `until` appears."""
    text = c.read_until(until, timeout=timeout)
    return [ln for ln in text.splitlines() if ln.startswith(marker)], text


class Boards:
    """The `chip` fixture: boards(extra files) -> a Chip on a fresh flash (`make image`'s, with
    the probe and `extra`), its UART copied to LOGS/TEST-N.log. close() ends every emulator it
    made: retry_stalls calls it after a failed try, the fixture at the test's end."""

    def __init__(self, folder, logs, name, firmware, deployed, probe_mpy):
        self.folder, self.logs, self.name = folder, logs, name
        self.firmware, self.deployed, self.probe_mpy = firmware, deployed, probe_mpy
        self.made = []  # (Chip, its log) of the try under way
        self.count = 0  # boards made in the test, every try: their files' numbers

    def __call__(self, extra=(), wifi=True, http_to=None, port=80, mac=None):
        """`port` and `mac`: the page's port and the MAC's last byte (two boards:
        tools.chip.two_boards)."""
        n = self.count
        self.count += 1
        flash = os.path.join(str(self.folder), "flash%d.bin" % n)
        with open(flash, "wb") as f:
            f.write(probe.flash(self.firmware, self.deployed, self.probe_mpy, extra))
        # the UART, kept where pytest's rotation of its temporary folders leaves it
        log = open(os.path.join(self.logs, "%s-%d.log" % (self.name, n)), "wb")
        kwargs = {"http_to": http_to} if http_to else {}
        c = Chip(find_qemu(), flash, wifi=wifi, log=log, port=port, mac=mac, **kwargs)
        self.made.append((c, log))
        return c

    def close(self):
        """End every emulator made so far (their flash files and logs stay)."""
        made, self.made = self.made, []
        for c, log in made:
            c.close()
            log.close()


def retry_stalls(test, tries=3):
    """Run the test again on a fresh boot when the emulator stalls (its known fault, not the
    firmware's: tools.chip.emulator.ChipStalled) or its process ends (ChipDied: killed from
    outside, or crashed); the third time fails the test.
    Before a try boots again, the failed try's emulators end (every Boards argument closed):
    left running, they starved the next try's on a two-core host."""
    @functools.wraps(test)
    def run(*args, **kwargs):
        for attempt in range(tries):
            try:
                return test(*args, **kwargs)
            except ChipStalled as e:
                if attempt == tries - 1:
                    raise
                for value in list(args) + list(kwargs.values()):
                    if isinstance(value, Boards):
                        value.close()
                print("the emulator stalled or ended, booting again: %s" % str(e).splitlines()[0])
    return run
