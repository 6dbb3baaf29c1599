"""One image to flash on a new board: the logic behind `make image` (`make flash-image`
writes it: tools/board/device.py).

    python tools/board/image.py --firmware ESP32_GENERIC_C3-<date>-v1.28.0.bin [--out FILE]

The image is the whole 4 MB flash of an ESP32-C3: the stock MicroPython .bin
at 0x0 (bootloader, partition table, MicroPython), 0xFF (erased flash) up to
0x200000, then MicroPython's LittleFS (the `vfs` partition, 2 MiB) already
holding exactly what `make deploy` copies: the same mpy-cross build
(device.build_commands) and the same files under the same names (device.plan).
The filesystem is built on the host with littlefs-python in the geometry
MicroPython's esp32 port mounts (extmod/vfs_lfsx.c with the `vfs` partition's
4 KB blocks): a board flashed with it boots straight into the game, with no
`mpremote` session. Flashing it replaces the whole filesystem (records,
settings, error.log): an update that keeps them is `make deploy`.

Only for 4 MB boards: on a bigger flash MicroPython's `vfs` partition runs to
the end of the flash, the image's 512 blocks no longer match it, and
MicroPython refuses to mount the filesystem.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tools.board import device  # noqa: E402
from tools.common import ROOT  # noqa: E402

FLASH_SIZE = 0x400000
FS_OFFSET = 0x200000  # the `vfs` partition: from the end of MicroPython's app partition to the end of flash
# MicroPython's VfsLfs2 on the esp32 port: the partition's 4 KB sectors, readsize,
# progsize and lookahead 32 (VfsLfs2's defaults), cache min(block, 4 * max(read, prog)),
# block_cycles 100; name_max, file_max and attr_max littlefs's defaults.
BLOCK_SIZE = 4096
BLOCK_COUNT = (FLASH_SIZE - FS_OFFSET) // BLOCK_SIZE  # 512
GEOMETRY = dict(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, read_size=32, prog_size=32,
                cache_size=128, lookahead_size=32, block_cycles=100)
# An ESP32 app image starts with the magic byte 0xE9; its extended header names
# the chip at bytes 12-13 (little-endian): 5 is the ESP32-C3.
ESP_MAGIC = 0xE9
CHIP_ID_C3 = 5
DOWNLOAD = "https://micropython.org/download/ESP32_GENERIC_C3/"


def littlefs():
    try:
        import littlefs as lfs
    except ImportError:
        raise SystemExit("error: littlefs-python is not installed: make image installs requirements-dev.txt")
    return lfs


def firmware_problem(data):
    """Why `data` cannot be the MicroPython part of the image, or None."""
    if len(data) > FS_OFFSET:
        return ("it is %d bytes, more than the 0x%X (%d) bytes before the filesystem: "
                "not the ESP32_GENERIC_C3 image" % (len(data), FS_OFFSET, FS_OFFSET))
    if len(data) < 16 or data[0] != ESP_MAGIC:
        return "it is not an ESP32 firmware image (no 0xE9 at its start)"
    chip = data[12] | data[13] << 8
    if chip != CHIP_ID_C3:
        return "it is an image for another chip (chip id %d; the ESP32-C3's is %d)" % (chip, CHIP_ID_C3)
    return None


def read_firmware(path):
    """The MicroPython .bin's bytes; SystemExit with a clear message if it cannot serve."""
    if not path:
        raise SystemExit("error: no MicroPython image: make image FIRMWARE=ESP32_GENERIC_C3-<date>-v1.28.0.bin "
                         "(from %s)" % DOWNLOAD)
    if not os.path.isfile(path):
        raise SystemExit("error: no such file: %s" % path)
    with open(path, "rb") as f:
        data = f.read()
    problem = firmware_problem(data)
    if problem:
        raise SystemExit("error: %s: %s (from %s)" % (path, problem, DOWNLOAD))
    return data


def deploy_files(build=device.BUILD):
    """[(path on the board, bytes)]: what `make deploy` copies, compiled by its own build step."""
    if device.run(device.build_commands(build)):
        raise SystemExit("error: the mpy-cross build failed")
    out = []
    for src, dest in device.plan(build)[1]:
        with open(os.path.join(ROOT, src), "rb") as f:
            out.append((dest, f.read()))
    return out


def mount(data):
    """The littlefs-python filesystem in `data` (a 2 MiB bytearray), mounted; an error if
    it holds none (never formats)."""
    lfs = littlefs()
    fs = lfs.LittleFS(context=lfs.UserContext(buffer=data), mount=False, **GEOMETRY)
    fs.mount()
    return fs


def filesystem(files):
    """The 2 MiB filesystem image holding `files` ([(absolute board path, bytes)])."""
    lfs = littlefs()
    fs = lfs.LittleFS(mount=False, **GEOMETRY)  # a fresh buffer of 0xFF: erased flash
    fs.format()
    fs.mount()
    for folder in device.board_dirs([(None, dest) for dest, _ in files]):
        fs.mkdir(folder)
    for dest, data in files:
        with fs.open(dest, "wb") as f:
            f.write(data)
    fs.unmount()
    return bytes(fs.context.buffer)


def image(firmware, files):
    """The 4 MB flash: `firmware` at 0x0, 0xFF to FS_OFFSET, the filesystem of `files`."""
    problem = firmware_problem(firmware)
    if problem:
        raise ValueError(problem)
    out = firmware + b"\xff" * (FS_OFFSET - len(firmware)) + filesystem(files)
    assert len(out) == FLASH_SIZE
    return out


def write(path, data):
    """Atomically: an interrupted build leaves no half image for flash-image to write."""
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--firmware", default="", help="the MicroPython ESP32_GENERIC_C3 .bin from micropython.org")
    p.add_argument("--out", default=device.IMAGE, help="the image to write (default %s)" % device.IMAGE)
    p.add_argument("--build", default=device.BUILD, help="the mpy-cross output folder (default %s)"
                   % device.BUILD)
    a = p.parse_args(argv)
    firmware = read_firmware(a.firmware)
    littlefs()  # before the build: say at once if it is missing
    files = deploy_files(a.build)
    data = image(firmware, files)
    out = os.path.join(ROOT, a.out)
    write(out, data)
    fs = mount(bytearray(data[FS_OFFSET:]))
    used = fs.used_block_count
    print("wrote %s: %d bytes; MicroPython %d bytes at 0x0; at 0x%X %d files, %d bytes, in %d of %d "
          "blocks (%d KB free)" % (a.out, len(data), len(firmware), FS_OFFSET, len(files),
                                   sum(len(b) for _, b in files), used, BLOCK_COUNT,
                                   (BLOCK_COUNT - used) * BLOCK_SIZE // 1024))
    return 0


if __name__ == "__main__":
    sys.exit(main())
