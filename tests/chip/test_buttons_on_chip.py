"""Issue 30 c: the buttons on the emulated chip (the encoder preset: its push button on GPIO2).

The viper search runs no interrupt callbacks, so it polls the button itself:
a press must stop a level-8 search within 50 ms of emulated time. The probe
prints when a poll saw the press and the longest gap between two polls: a
press lands at worst just after a poll, so the latency is at most that gap
plus the time from the poll that sees it to the search's end.

Presses are timed in emulated time: with PROBE ticks the board prints
`probe t=MS` every 100 ms of its own clock, and the test presses and releases
on those lines.
"""
import re

from .helpers import retry_stalls, repl, run_probe

BUTTON = 2  # config.py's encoder preset
LATENCY_MS = 50
MENU = 5  # connect4.app.game.MENU
LONG_PRESS_MS = 800  # config.py long_press_ms

STALL_S = 180  # wall seconds of UART silence: the emulator is stuck (tests/chip/helpers.py)


def wait_tick(c, at_least, timeout=120):
    """Read `probe t=MS` lines until MS >= at_least; the text read."""
    text = ""
    while True:
        line = c.read_until(b"\n", timeout=timeout)
        text += line
        m = re.search(r"probe t=(\d+)", line)
        if m and int(m.group(1)) >= at_least:
            return text, int(m.group(1))


@retry_stalls
def test_a_press_stops_a_level_8_search_at_once_and_a_long_press_opens_the_menu(chip):
    c = repl(chip(wifi=False))
    run_probe(c, report_ms=60_000, demo=True, events=True)
    # the demo: two AIs; a press during a search stops it (and leaves the demo)
    stops = []
    for _ in range(200):
        text = c.read_until(b"probe think", timeout=600, stall=STALL_S)
        line = c.read_until(b"\n", timeout=30, stall=STALL_S)
        m = re.search(r"level=(\d+) discs=(\d+)", line)
        if not (m and m.group(1) == "8" and 14 <= int(m.group(2)) <= 26):
            continue  # only a level-8 search past the book surely lasts a second or more
        text += line
        c.press(BUTTON)
        line = c.read_until(b"probe search", timeout=60, stall=STALL_S) + c.read_until(b"\n", timeout=30, stall=STALL_S)
        c.release(BUTTON)
        before = text + line
        m = re.search(r"probe stop ms=(\d+) gap_us=(\d+)", before)
        s = re.search(r"probe search ms=(\d+) nodes=(\d+) stopped=(\S+)", line)
        if m and s:
            stops.append((int(m.group(1)), int(m.group(2)), int(s.group(1)), s.group(3)))
        if stops:
            break
    assert stops, "no search was stopped by a press: " + c.tail()
    stop_ms, gap_us, end_ms, why = stops[0]
    report = c.read_until(b"probe gap", timeout=120, stall=STALL_S) + c.read_until(b"\n", timeout=30, stall=STALL_S)
    max_gap_us = int(re.search(r"max_us=(\d+)", report).group(1))
    latency = max_gap_us / 1000 + (end_ms - stop_ms)
    print("poll gap max %.1f ms, the press seen %.1f ms after the poll before, search ended %d ms "
          "after: at most %.1f ms" % (max_gap_us / 1000, gap_us / 1000, end_ms - stop_ms, latency))
    assert why != "-"
    assert latency < LATENCY_MS


@retry_stalls
def test_a_long_press_opens_the_menu(chip):
    c = repl(chip(wifi=False))
    run_probe(c, report_ms=60_000, events=True, ticks=True)
    wait_tick(c, 1500)  # past the power-on window: the game's intro or play
    c.press(BUTTON)
    _, t0 = wait_tick(c, 0)
    text, _ = wait_tick(c, t0 + LONG_PRESS_MS + 300)
    c.release(BUTTON)
    text += c.read_until(b"probe state %d" % MENU, timeout=60, stall=STALL_S)
    assert "probe state %d" % MENU in text


@retry_stalls
def test_power_on_gestures_safe_mode_and_the_hardware_test(chip):
    """Held 0.3 s within the first second: safe mode; held 3 s: the hardware test, which a
    long press ends, leaving the REPL free."""
    c = repl(chip(wifi=False))
    run_probe(c, report_ms=60_000, ticks=True)
    c.press(BUTTON)
    wait_tick(c, 600)
    c.release(BUTTON)
    c.read_until(b"connect4: safe mode", timeout=60, stall=STALL_S)
    c.read_until(b"probe stopped", timeout=60, stall=STALL_S)
    c.read_until(b"\x04>", timeout=60, stall=STALL_S)

    run_probe(c, report_ms=60_000, ticks=True)
    c.press(BUTTON)
    c.read_until(b"connect4: hardware test", timeout=120, stall=STALL_S)
    c.release(BUTTON)
    _, t0 = wait_tick(c, 0)
    wait_tick(c, t0 + 500)
    c.press(BUTTON)
    wait_tick(c, t0 + 500 + LONG_PRESS_MS + 400)
    c.release(BUTTON)
    c.read_until(b"probe stopped", timeout=60, stall=STALL_S)
