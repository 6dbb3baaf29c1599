"""Issue 36: the page's writes on a heap held to the chip's room, fragmented as a load leaves it.

tests/mpvm/fragmented_writes.py runs in the MicroPython VM (the firmware as
deployed, .mpy): the app with Wi-Fi on and its page on fake sockets, every
write path used once (what loads once has loaded), then the heap filled until
only ROOM bytes are free, in holes no longer than HOLE, and every path again.
The VM's heap cannot grow: an allocation that finds no hole raises
MemoryError where the chip's GC heap would grow into the network's memory. So
a request path that needs one long block (a whole-file read, a long string, a
module whose names need a new pool) fails here before it starves a chip.
"""
import os
import re
import tempfile

import pytest

from tools import mpvm
from tools.common import CHIP_GC_FREE_MIN
from tools.mpvm import memory

pytestmark = pytest.mark.skipif(not mpvm.available(), reason="MicroPython VM unavailable (run `npm ci`)")

ROOM = CHIP_GC_FREE_MIN  # what the chip keeps free at its fullest with Wi-Fi on (tests/chip/test_hostile_on_chip.py)
HOLE = 1024  # the longest free run the holes leave (bytes): under the hostile load the chip's
# longest free run fell to 1.3 KB (micropython.mem_info's "max free sz", 85 blocks)
PATHS = ("pair", "state", "settings", "settings read", "new game", "move", "games", "page", "forget",
         "pair again")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(room=ROOM, hole=HOLE, seed=1):
    """The VM's run: (its exit status, what it printed)."""
    with tempfile.TemporaryDirectory() as tmp:
        image = os.path.join(tmp, "board")
        memory.build_vm_image(image)
        r = mpvm.run(os.path.join(ROOT, "tests", "mpvm", "fragmented_writes.py"), room, hole, seed,
                     firmware=image, heap=memory.HEAP, timeout=600,
                     paths=[(memory.STUBS, "/stubs"), (os.path.join(ROOT, "tests", "portable"), "/tests/portable")])
    return r.returncode, r.stdout + r.stderr


def said(out):
    """{path: "ok", or why not} of a run's lines."""
    return dict(line.split(": ", 1) for line in out.splitlines() if line.split(": ")[0] in PATHS)


@pytest.mark.parametrize("seed", [1, 2])
def test_every_write_path_fits_the_chips_room_in_holes(seed):
    code, out = run(seed=seed)
    assert code == 0, out
    free = int(re.search(r"room \d+ free (\d+)", out).group(1))
    assert ROOM - 256 <= free <= ROOM + HOLE, out  # the room as asked (a hole's give)
    assert "fragmented: yes" in out, out  # no run longer than a hole is left
    assert said(out) == {p: "ok" for p in PATHS}, out


def test_the_check_fires_where_a_path_needs_a_longer_run_than_the_holes():
    """Holes of at most 384 bytes: the settings' answer (its statistics) and a request's read
    need longer runs than that, as a path that read a whole file would need more than 1 KB."""
    code, out = run(hole=384)
    assert code != 0 or said(out) != {p: "ok" for p in PATHS}, out
