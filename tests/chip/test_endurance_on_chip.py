"""Issue 30 f: endurance. The demo (two AIs, every pair of levels as it draws them) for 20
minutes of emulated time on the emulated chip: no crash, no `error.log`, and the GC heap
without a downward trend in what is left.

The trend: the GC heap's use after a collect (the probe's `gc_used`, every REPORT_MS),
in the last quarter of the reports never above the first quarter's highest by more than
TREND_MARGIN (a leak of a few bytes a game would add up to more over some 50 games);
and the GC heap never grown past the app's own (the growth that starves Wi-Fi).

It takes long: some 20 minutes of wall time for the 20 emulated minutes (the emulator runs
the busy chip at about real time). CHIP_ENDURANCE_S=120 shortens it for a trial.
"""
import os
import re

from .helpers import retry_stalls, repl, run_probe, gc_heap
from .test_app_on_chip import APP_GC_TOTAL

ENDURANCE_S = 20 * 60  # emulated seconds
REPORT_MS = 10_000
TREND_MARGIN = 1024  # bytes

STALL_S = 180  # wall seconds of UART silence: the emulator is stuck (tests/chip/helpers.py)


def duration_s():
    return int(os.environ.get("CHIP_ENDURANCE_S", ENDURANCE_S))


def summary(text):
    """What the run's UART says: the app's reports (gc_used after a collect, by emulated ms;
    the first report, before the app, left out), the games, the GC heap's totals. Lines are
    searched anywhere: the UART now and then runs two of the board's lines together."""
    heap = [(int(ms), int(used)) for ms, used in
            re.findall(r"probe heap ms=(\d+) gc_used=(\d+)", text)][1:]
    games = re.findall(r"probe game (\S+) winner (-?\d) levels \((\d), (\d)\)", text)
    used = [u for _, u in heap]
    quarter = max(1, len(used) // 4)
    return {"ms": heap[-1][0] if heap else 0, "reports": len(heap), "games": len(games),
            "pairs": len({(a, b) for _, _, a, b in games}), "used": used,
            "first": max(used[:quarter]) if used else 0, "last": max(used[-quarter:]) if used else 0,
            "totals": [total for total, _, _ in gc_heap(text)]}


@retry_stalls
def test_the_demo_for_20_minutes_no_crash_no_error_log_no_heap_trend(chip):
    seconds = duration_s()
    c = repl(chip(wifi=False))
    run_probe(c, report_ms=REPORT_MS, run_ms=seconds * 1000, demo=True)
    text = c.read_until(b"probe stopped", timeout=seconds * 10 + 600, stall=STALL_S)
    c.read_until(b"\x04>", timeout=60, stall=STALL_S)  # the probe's run ends: the raw REPL again
    listing = c.exec_raw("import os; print(sorted(os.listdir()))")
    s = summary(text)
    print("%d s emulated, %d reports, %d games, %d level pairs; gc_used after a collect: first "
          "quarter max %d, last quarter max %d (%+d), min %d, max %d; GC heap total at most %d; "
          "files: %s" % (s["ms"] // 1000, s["reports"], s["games"], s["pairs"], s["first"],
                         s["last"], s["last"] - s["first"], min(s["used"]), max(s["used"]),
                         max(s["totals"]), listing.strip()))
    assert "crashed" not in text and "Traceback" not in text, text[-3000:]
    assert "error.log" not in listing, listing
    assert s["ms"] >= seconds * 1000, "the run stopped early"
    assert s["reports"] >= seconds * 1000 // REPORT_MS * 9 // 10, "reports missing"
    assert s["games"], "not one whole game"
    assert s["last"] <= s["first"] + TREND_MARGIN, "the heap left after a collect went down: %r" % s["used"]
    assert max(s["totals"]) <= APP_GC_TOTAL, "the GC heap grew past the app's"
