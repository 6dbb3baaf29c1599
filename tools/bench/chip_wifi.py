"""`make bench --only chip-wifi`: the phone page on the emulated chip, under two loads.

The page's own (issue 31: whole games through the API, the live page, a poller:
tools/chip/wifi_load.py) and a hostile network's (issue 36: pollers, the live page,
the page and the games list, a hostile client every 5 s and a paired writer at
seeded moments: tools/chip/mixed_load.py, three seeds and a run with 4 KB of the
heap held as ballast). Each writes its table of docs/benchmarks.md's section
"Wi-Fi on the chip". Without the emulator or the image, a line says why.
"""
import os

from tools import common

BALLAST = 4 * 1024
HOSTILE_RUNS = ((1, 0), (2, 0), (3, 0), (4, BALLAST))  # (seed, ballast), as tests/chip/test_hostile_on_chip.py


def chip_wifi(args, say):
    """The phone page on the emulated chip: the GC and ESP-IDF heaps at each moment and the
    requests answered under the page's load, then under the hostile one (hostile); without
    the emulator or the image, a line saying why (and no section on the page)."""
    from tools.chip import emulator, speed as chip_image, wifi_load
    qemu, firmware = emulator.find_qemu(), args.firmware or emulator.find_firmware()
    if qemu is None or firmware is None or not os.path.isfile(firmware):
        say.progress("chip-wifi: skipped, no %s" % ("emulator" if qemu is None else "MicroPython image"))
        return
    load_s = 60 if args.quick else int(os.environ.get("CHIP_WIFI_S", "600"))
    say.part("chip-wifi")
    say.progress("chip-wifi: %d s of the page's load on the emulated chip" % load_s)
    got = _on_chip(qemu, firmware, [("/wifi.json", wifi_load.OPEN_NETWORK),
                                    ("/connect4.json", wifi_load.WIFI_ON)],
                   lambda c: wifi_load.measure(c, load_s))
    ap = _on_chip(qemu, firmware, [("/wifi.json", wifi_load.NO_HOME), ("/connect4.json", wifi_load.WIFI_ON)],
                  wifi_load.access_point_idle)
    heap, gcs = got["heap"], got["gcs"]
    load = [k for k, r in enumerate(heap) if r["ms"] >= got["start_ms"] and k < len(gcs)]
    idle = next(k for k, r in enumerate(heap) if r["ms"] == got["idle"]["ms"])
    fullest = max(load, key=lambda k: gcs[k][1])
    poorest = min(load, key=lambda k: heap[k]["idf_free"])

    def row(what, r, g):
        say("| %s | %s / %s / %s | %s (%s) |" % (what, format(g[0], ","), format(g[1], ","),
                                                format(g[2], ","), format(r["idf_free"], ","),
                                                format(r["idf_largest"], ",")))
    say("### Wi-Fi on the chip (the emulated ESP32-C3, the stock image)")
    say()
    say("| moment | GC heap total / used / free | ESP-IDF free (largest) |")
    say("|---|---|---|")
    row("the app built, Wi-Fi joining", heap[1], gcs[1])
    row("joined, the server up, idle", heap[idle], gcs[idle])
    row("under the page's load: the GC heap at its fullest", heap[fullest], gcs[fullest])
    row("under the page's load: the least ESP-IDF heap free", heap[poorest], gcs[poorest])
    row("the chip's own access point, idle", ap["heap"][-1], ap["gcs"][-1])
    say()
    board = got["board"]
    say("Under the load: %d whole games against level 8 in %d s of emulated time, through the API "
        "(the recorded games and a settings change after each), the live page open and a second "
        "client polling `/api/state` every 0.5 s. Requests answered: %s of %s (%d timed out or "
        "reset); the board served %s, %d of them over a second on its own clock (the slowest %d "
        "ms), and turned %d away with 503 (%d short of memory). The GC heap's total never went "
        "past %s bytes (the app's own: %s)." % (
            got["games"], got["seconds"], format(len(got["answered"]), ","),
            format(len(got["answered"]) + len(got["failures"]), ","), len(got["failures"]),
            format(board["served"], ","), board["slow"], board["slowest"], board["refused"],
            board["short"], format(max(g[0] for g in gcs[1:]), ","),
            format(common.CHIP_GC_HEAP_APP, ",")))
    say()
    say("GC heap: `micropython.mem_info()`'s total / used / free after a collect (the probe's own "
        "2 KB of bytecode included); ESP-IDF heap: `esp32.idf_heap_info(esp32.HEAP_DATA)`'s free "
        "bytes summed (largest block), where lwIP and the Wi-Fi driver allocate. Station on the "
        "emulator's open network, Wi-Fi on from the saved switch, the stock %s "
        "(`make bench FIRMWARE=%s BENCH_ARGS=\"--only chip-wifi\"`; `CHIP_WIFI_S` sets the load's "
        "emulated seconds, 600 by default)." % (chip_image.image_name(firmware), os.path.basename(firmware)))
    say()
    hostile(args, say, qemu, firmware)


def hostile(args, say, qemu, firmware):
    """The hostile network's load (tools/chip/mixed_load.py) for each of HOSTILE_RUNS: a row each."""
    from tools.chip import mixed_load, probe, speed as chip_image, wifi_load
    load_s = 60 if args.quick else int(os.environ.get("CHIP_HOSTILE_S", "600"))
    rows = []
    for seed, ballast in HOSTILE_RUNS:
        say.progress("chip-wifi: %d s of a hostile load, seed %d, ballast %d" % (load_s, seed, ballast))
        rows.append(_on_chip(qemu, firmware, [("/wifi.json", wifi_load.OPEN_NETWORK),
                                              ("/connect4.json", wifi_load.WIFI_ON)],
                             lambda c: mixed_load.measure(c, load_s, seed, ballast=ballast, keep_text=True)))
    say("#### Under a hostile network's load")
    say()
    say("| seed | ballast | well-behaved requests answered | hostile requests, as due | writes | "
        "read back | GC heap in use at its fullest (free) | its longest free run at the least | "
        "ESP-IDF free idle / at the least | the GC heap's total at most |")
    say("|---|---|---|---|---|---|---|---|---|---|")
    for got in rows:
        gcs = got["gcs"][1:]
        used = max(g[1] for g in gcs)
        written, read = got["readback"]
        say("| %d | %s B | %s of %s | %d of %d | %d (%d not as due) | %s | %s B (%s B) | %s B | "
            "%s / %s B | %s B |" % (
                got["seed"], format(got["ballast"], ","), format(len(got["answered"]), ","),
                format(len(got["answered"]) + len(got["failures"]), ","),
                len(got["hostile"]) - len(got["wrong"]), len(got["hostile"]), len(got["writes"]),
                len(got["bad_writes"]), "yes" if read == written else "no (%s for %s)" % (read, written),
                format(used, ","), format(common.CHIP_GC_HEAP_APP - used, ","),
                format(16 * min(probe.free_runs(got["text"])[1:]), ","),
                format(got["idle"]["idf_free"], ","), format(got["low"]["idf_free"], ","),
                format(max(g[0] for g in got["gcs"]), ",")))
    say()
    say("For %d s of emulated time at once: three clients polling `/api/state` every 0.3 s, one "
        "holding the live page open, one fetching the page and the games list every 2 s, one "
        "hostile client every 5 s (garbage, an 8 KB request line, a header that never ends, a "
        "100 KB POST, a write without pairing: 400, 400, closed, 413, 401 due), and a paired "
        "client writing at moments drawn from the seed (moves, new games, settings, pairing "
        "again, forgetting every phone); then a brightness written and read back at once. "
        "Ballast: bytes of the GC heap the probe holds from its start, the margin's proof. "
        "The longest free run: micropython.mem_info's \"max free sz\" after a collect, at the "
        "report where it was least. (`make bench FIRMWARE=%s BENCH_ARGS=\"--only chip-wifi\"`; "
        "`CHIP_HOSTILE_S` sets the load's emulated seconds, 600 by default; the stock %s.)"
        % (load_s, os.path.basename(firmware), chip_image.image_name(firmware)))
    say()


def _on_chip(qemu, firmware, extra, work, tries=3):
    """work(chip at its raw REPL) on a fresh emulated board, booted again if the emulator stalls."""
    import tempfile
    from tools.chip import emulator, probe
    for attempt in range(tries):
        with tempfile.TemporaryDirectory() as tmp:
            flash = os.path.join(tmp, "flash.bin")
            with open(flash, "wb") as f:
                f.write(probe.flash_for(firmware, extra))
            try:
                with emulator.Chip(qemu, flash) as c:
                    return work(c.repl())
            except emulator.ChipStalled:
                if attempt == tries - 1:
                    raise
