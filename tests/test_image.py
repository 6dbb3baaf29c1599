"""`make image`: one 4 MB file for a new board, built from a small stand-in for the
MicroPython .bin (a user's clone has no real one); its filesystem mounted with
littlefs-python in MicroPython's own geometry, written out here as literals, and
compared file by file with what `make deploy` copies, compiled by deploy's own step."""
import os
import subprocess
import sys

import littlefs
import pytest

from tools.board import device, image
from tools.mpvm import mpyinfo

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MiB = 1024 * 1024
# MicroPython 1.28's VfsLfs2 on the esp32 port's 4 MB `vfs` partition (extmod/vfs_lfsx.c).
MICROPYTHON = dict(block_size=4096, block_count=512, read_size=32, prog_size=32, cache_size=128,
                   lookahead_size=32)


def stand_in(size=64 * 1024):
    """An ESP32-C3 app image's first 16 bytes (magic 0xE9, chip id 5 at byte 12), then a
    pattern with no 0xFF run, so the padding after it cannot pass for it."""
    header = bytes([0xE9, 3, 2, 0x2F, 0, 0, 0, 0, 0xEE, 0, 0, 0, 5, 0, 3, 3])
    return header + bytes((i * 7 + 1) % 251 for i in range(size - len(header)))


def mounted(fs_bytes, **geometry):
    """littlefs-python on a copy of `fs_bytes`; mount=False, so a failed mount raises
    instead of formatting an empty filesystem."""
    fs = littlefs.LittleFS(context=littlefs.UserContext(buffer=bytearray(fs_bytes)), mount=False, **geometry)
    fs.mount()
    return fs


def tree(fs):
    """({folder}, {file: bytes}) of the whole filesystem, absolute paths."""
    folders, files = set(), {}
    for top, dirs, names in fs.walk("/"):
        base = top.rstrip("/")
        folders.update(base + "/" + d for d in dirs)
        for name in names:
            with fs.open(base + "/" + name, "rb") as f:
                files[base + "/" + name] = f.read()
    return folders, files


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(stand-in .bin, the image's bytes, the script's stdout): `make image`'s script run as make runs it."""
    tmp = tmp_path_factory.mktemp("image")
    firmware = stand_in()
    (tmp / "mp.bin").write_bytes(firmware)
    out = tmp / "connect4-esp32c3.bin"
    r = subprocess.run([sys.executable, "tools/board/image.py", "--firmware", str(tmp / "mp.bin"),
                        "--out", str(out), "--build", str(tmp / "mpy")],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return firmware, out.read_bytes(), r.stdout


def test_the_image_is_micropython_then_erased_flash_then_the_filesystem(built):
    firmware, data, stdout = built
    assert len(data) == 4 * MiB
    assert data[:len(firmware)] == firmware
    assert data[len(firmware):0x200000] == b"\xff" * (0x200000 - len(firmware))
    assert data[0x200000:] != b"\xff" * (2 * MiB)
    assert "connect4-esp32c3.bin: 4194304 bytes; MicroPython 65536 bytes at 0x0; at 0x200000 " in stdout


def test_the_filesystem_holds_exactly_what_deploy_copies(built, tmp_path):
    """Deploy's own compile step, run here into a folder of its own, and its copy list:
    the image holds those files, under those names, byte for byte, and nothing else."""
    _, data, _ = built
    build = str(tmp_path / "mpy")
    assert device.run(device.build_commands(build)) == 0
    copies = device.plan(build)[1]
    expected = {}
    for src, dest in copies:
        with open(os.path.join(ROOT, src), "rb") as f:
            expected[dest] = f.read()

    folders, files = tree(mounted(data[0x200000:], **MICROPYTHON))
    assert sorted(files) == sorted(expected)
    for dest in expected:
        assert files[dest] == expected[dest], dest
    assert folders == set(device.board_dirs(copies))

    # What deploy copies, named independently: sources kept, modules compiled for the
    # chip under their board names, the data files, the web server (the project's own: no
    # library in /lib since microdot went).
    assert {"/main.py", "/config.py", "/book.bin", "/connect4/net/page.html.gz",
            "/connect4/boot.mpy", "/connect4/engine/core.mpy", "/connect4/net/server.mpy",
            "/connect4/net/paired.mpy"} <= set(files)
    assert not [f for f in files if f.startswith("/lib/")]
    assert not [f for f in files if f.endswith(".py") and f not in ("/main.py", "/config.py")]
    for name, body in files.items():
        if name.endswith(".mpy"):
            assert body[:1] == b"M" and mpyinfo.source_name(body) == name[1:-4] + ".py", name


def test_micropythons_geometry_mounts_it_and_a_bigger_flash_does_not(built):
    """The superblock as MicroPython 1.28 (littlefs 2.11) checks it on mount: 512 blocks
    of 4 KB, limits no larger than its own, disk version 2.1. On an 8 MB board the
    `vfs` partition has 1,536 blocks: the mount fails (the image is for 4 MB boards)."""
    _, data, _ = built
    fs = mounted(data[0x200000:], **MICROPYTHON)
    stat = fs.fs_stat()
    assert (stat.block_size, stat.block_count) == (4096, 512)
    assert stat.disk_version == 0x00020001
    assert stat.name_max <= 255 and stat.file_max <= 2147483647 and stat.attr_max <= 1022
    assert 0 < fs.used_block_count < 512

    auto = mounted(data[0x200000:], **dict(MICROPYTHON, block_count=0))  # read from the superblock
    assert auto.block_count == 512

    bigger = data[0x200000:] + b"\xff" * (4 * MiB)
    with pytest.raises(littlefs.LittleFSError):
        mounted(bigger, **dict(MICROPYTHON, block_count=1536))


@pytest.mark.parametrize("firmware, says", [
    (stand_in(0x200000 + 1), "more than the 0x200000"),
    (b"\x00" * 4096, "not an ESP32 firmware image"),
    (stand_in()[:12] + b"\x00\x00" + stand_in()[14:], "another chip (chip id 0"),  # the ESP32's
    (b"", "not an ESP32 firmware image"),
])
def test_a_firmware_that_cannot_be_the_c3_image_is_refused(firmware, says, tmp_path):
    path = tmp_path / "mp.bin"
    path.write_bytes(firmware)
    with pytest.raises(SystemExit) as e:
        image.read_firmware(str(path))
    assert says in str(e.value) and str(path) in str(e.value)
    assert "micropython.org/download/ESP32_GENERIC_C3" in str(e.value)


def test_a_missing_firmware_is_refused_saying_how_to_give_one(tmp_path):
    with pytest.raises(SystemExit) as e:
        image.read_firmware("")
    assert "make image FIRMWARE=ESP32_GENERIC_C3-" in str(e.value)
    with pytest.raises(SystemExit) as e:
        image.read_firmware(str(tmp_path / "none.bin"))
    assert "no such file: %s" % (tmp_path / "none.bin") in str(e.value)


def test_a_firmware_of_exactly_2_mib_fills_the_space_before_the_filesystem():
    firmware = stand_in(0x200000)
    data = image.image(firmware, [("/a/b.txt", b"x")])
    assert len(data) == 4 * MiB and data[:0x200000] == firmware
    assert tree(mounted(data[0x200000:], **MICROPYTHON)) == ({"/a"}, {"/a/b.txt": b"x"})


def test_make_flash_image_builds_the_image_first_only_when_given_firmware():
    def recipe(*args):
        r = subprocess.run(["make", "--no-print-directory", "-n", "-o", ".venv/.installed", "flash-image",
                            "PORT=/dev/ttyACM0"] + list(args), cwd=ROOT, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        return r.stdout.strip().splitlines()
    flash = '.venv/bin/python tools/board/device.py  --port "/dev/ttyACM0" flash-image'
    assert recipe() == [flash]
    assert recipe("FIRMWARE=mp.bin") == ['.venv/bin/python tools/board/image.py --firmware "mp.bin"', flash]
