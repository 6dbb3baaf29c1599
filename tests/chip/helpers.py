"""What the chip tests do with an emulated board: reach its REPL, run the app's probe, read its lines."""
import functools

from tools.chip import probe
from tools.chip.emulator import ChipStalled, HostLate
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


def retry_stalls(test, tries=3):
    """Run the test again on a fresh boot when the emulator stalls (its known fault, not the
    firmware's: tools.chip.emulator.ChipStalled), its process ends (ChipDied: killed from
    outside, or crashed) or the host came too late (HostLate); the third time fails the test."""
    @functools.wraps(test)
    def run(*args, **kwargs):
        for attempt in range(tries):
            try:
                return test(*args, **kwargs)
            except (ChipStalled, HostLate) as e:
                if attempt == tries - 1:
                    raise
                print("the emulator stalled or ended, or the host was late, booting again: %s" % str(e).splitlines()[0])
    return run
