"""The native emitter's levers, counted on the emulated chip: instructions a loop pass.

    python tools/chip/levers.py --firmware ESP32_GENERIC_C3-<date>-v1.28.0.bin [--qemu PATH]

Puts tools/chip/levers_code.py on the emulated ESP32-C3 (make image's image of the stock
.bin, as tools/chip/speed.py boots it) twice: compiled by mpy-cross with make deploy's
flags (/levers_mpy.mpy), and as source the chip compiles itself (/levers_src.py); runs
its `measure` on each and prints a table: the instructions of one pass of each loop
(the microseconds of HIGH passes less those of LOW passes, 125 instructions each: the
emulator counts them), and whether x survives `y = -x`, `y = ~x` and `y = 0 - x`.
docs/ai.md shows the table (what the search's hot loop relies on).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import host_sim  # noqa: E402,F401  (the firmware on the path)
from tools import common  # noqa: E402
from tools.board import device  # noqa: E402
from tools.chip import emulator, speed  # noqa: E402

CODE = common.path(common.CHIP_LEVERS)
LOOP_LINE = re.compile(r"^loop (\w+) (\d+) (\d+)\s*$", re.M)
KEEPS_LINE = re.compile(r"^keeps (\w+) (-?\d+)\s*$", re.M)
WORLDS = (("levers_mpy", "mpy-cross"), ("levers_src", "on the chip"))


def files():
    """(board path, bytes): the code compiled as make deploy compiles, and its source."""
    with open(CODE, "rb") as f:
        source = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "levers_mpy.mpy")
        subprocess.run([device.tool("mpy-cross")] + device.MPY_FLAGS
                       + ["-s", "levers_mpy.py", "-o", out, CODE], check=True)
        with open(out, "rb") as f:
            compiled = f.read()
    return [("/levers_mpy.mpy", compiled), ("/levers_src.py", source)]


def run_on(chip):
    """{world: ({loop: instructions a pass}, {function: its result for 5})} at the raw REPL."""
    from tools.chip import levers_code
    found = {}
    for module, world in WORLDS:
        out = chip.exec_raw("import %s\n%s.measure(%s)\n" % (module, module, module), timeout=600)
        loops = {}
        for m in LOOP_LINE.finditer(out):
            low, high = int(m.group(2)), int(m.group(3))
            loops[m.group(1)] = (high - low) * emulator.INSTRUCTIONS_PER_US / (levers_code.HIGH - levers_code.LOW)
        keeps = {m.group(1): int(m.group(2)) for m in KEEPS_LINE.finditer(out)}
        if set(loops) != set(levers_code.LOOPS) or set(keeps) != set(levers_code.KEEPS):
            raise emulator.ChipError("levers_code printed less than expected:\n" + out)
        found[world] = (loops, keeps)
    return found


ROWS = (  # (loop, what it shows)
    ("while_first", "a while loop, its two variables the first locals after the argument"),
    ("while_late", "the same, four other locals named first"),
    ("while_in_try", "while_first inside a try"),
    ("while_sum_first", "while_first, the sum named before the counter"),
    ("for_range", "the same loop as `for i in range(n)`"),
    ("call_each", "while_first, calling a viper function of one int each pass"),
    ("call_reading_a_global", "the same, the function called reading a global"),
    ("ptr8_load", "while_first, reading a byte at a variable index (ptr8)"),
    ("ptr16_load", "the same through ptr16"),
    ("ptr32_load", "the same through ptr32"),
    ("ptr8_constant", "the same at a constant index"),
    ("ptr8_cast_each", "ptr8_load, the cast inside the loop"),
)


def report(found, say=print):
    say("| loop (tools/chip/levers_code.py) | compiled by mpy-cross | compiled on the chip |")
    say("|---|---:|---:|")
    for name, what in ROWS:
        say("| `%s`: %s | %.1f | %.1f |" % (name, what, found["mpy-cross"][0][name], found["on the chip"][0][name]))
    for name in ("negate_keeps", "invert_keeps", "subtract_keeps"):
        say("| `%s(5)` | %d | %d |" % (name, found["mpy-cross"][1][name], found["on the chip"][1][name]))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--firmware", default=emulator.find_firmware(),
                        help="the stock ESP32_GENERIC_C3 .bin (default: $FIRMWARE)")
    parser.add_argument("--qemu", help="the emulator (default: $QEMU, else build/emulator/qemu-system-riscv32)")
    args = parser.parse_args(argv)
    if not args.firmware or not os.path.isfile(args.firmware):
        parser.error("--firmware (or FIRMWARE=): the stock ESP32_GENERIC_C3-<date>-v1.28.0.bin")
    report(speed.on_chip(args.firmware, args.qemu, run_on, extra=files()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
