"""The chip in the loop: `make chip-test` boots the flashable image in an emulated ESP32-C3.

Needs the emulator (QEMU=path, or build/emulator/qemu-system-riscv32 with
esp32c3-rom.bin beside it: docs/developer.md#the-chip-in-the-loop) and the
stock MicroPython image (FIRMWARE=ESP32_GENERIC_C3-...-v1.28.0.bin). Without
either, every test here is skipped with the reason; so is every test here
under `make test` (only `make chip-test` sets CHIP_TEST=1).

Each test gets its own flash: `make image`'s image (tools/board/image.py) with
one file more, `/boot.py`, which makes the NeoPixel bit-banged (the emulator
has no RMT peripheral), and whatever the test adds (wifi.json, settings).
"""
import os

import pytest

from tools.board import image
from tools.common import ROOT
from tools.chip import probe
from tools.chip.emulator import find_firmware, find_qemu

from .helpers import Boards


LONGEST = ("test_endurance_on_chip.py", "test_wifi_the_page_and_games_through_the_api_for_ten_minutes",
           "test_wifi_a_hostile_mixed_load_never_grows_the_heap")


def pytest_collection_modifyitems(config, items):
    qemu, firmware = find_qemu(), find_firmware()
    reason = None
    if not os.environ.get("CHIP_TEST"):
        reason = "the chip in the loop runs by `make chip-test` (CHIP_TEST=1), not in `make test`"
    elif qemu is None:
        reason = ("no emulator: set QEMU=path/to/qemu-system-riscv32 or put it in build/emulator/ "
                  "(docs/developer.md#the-chip-in-the-loop)")
    elif firmware is None:
        reason = "no MicroPython image: set FIRMWARE=ESP32_GENERIC_C3-<date>-v1.28.0.bin"
    if reason:
        for item in items:
            if "tests/chip/" in item.nodeid.replace(os.sep, "/"):
                item.add_marker(pytest.mark.skip(reason=reason))
        return
    # the longest first (20 and 10 emulated minutes each), so that on two cores (make chip-test's
    # -n 2) they run side by side and the rest fills in after them
    items.sort(key=_longest_first)  # (stable: the rest keep their order)


def _longest_first(item):
    for rank, name in enumerate(LONGEST):
        if name in item.nodeid:
            return rank
    return len(LONGEST)


LOGS = os.path.join(ROOT, "build", "chip-logs")
os.makedirs(LOGS, exist_ok=True)


@pytest.fixture(scope="session")
def deployed():
    """What `make deploy` copies, built once: [(board path, bytes)]."""
    return image.deploy_files()


@pytest.fixture(scope="session")
def firmware_bytes():
    return image.read_firmware(find_firmware())


@pytest.fixture(scope="session")
def probe_mpy():
    """The probe's files (tools/chip/app_probe.py and app_probe_more.py) compiled as deploy
    compiles the firmware: [(board path, .mpy bytes)]."""
    return probe.compiled()


@pytest.fixture
def chip(tmp_path, deployed, firmware_bytes, probe_mpy, request):
    """A factory: chip(extra_files) -> a Chip on a fresh flash (tests/chip/helpers.py's Boards:
    a failed try's emulators end before retry_stalls boots again; the rest at the test's end)."""
    boards = Boards(tmp_path, LOGS, request.node.name, firmware_bytes, deployed, probe_mpy)
    yield boards
    boards.close()
