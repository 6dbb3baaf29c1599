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
import time

from tools.chip.emulator import HostLate

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


# A game in progress (connect4.app.resume's file): you (red) against level 8, 15 discs, the
# AI to move: at power-on the board takes it back and searches at once, past its book.
GAME_TXT = b"0 ai r 0/8 a 0/0 455154475537323 ???????????????\n0 1 1 4\n"


@retry_stalls
def test_a_press_stops_a_level_8_search_within_50_ms(chip):
    c = repl(chip(extra=[("/game.txt", GAME_TXT)], wifi=False))
    run_probe(c, report_ms=60_000, events=True)
    c.read_until(b"probe think", timeout=300, stall=STALL_S)
    assert "level=8 discs=15" in c.read_until(b"\n", timeout=30, stall=STALL_S)
    # a whole search first (its polls' gaps measured), its disc, then your click (the cursor's column)
    assert "stopped=poll" not in c.read_until(b"probe search", timeout=600, stall=STALL_S) + c.read_until(
        b"\n", timeout=30, stall=STALL_S)
    c.read_until(b"probe state 1 ", timeout=120, stall=STALL_S)  # PLAY: your turn
    c.press(BUTTON)
    time.sleep(0.3)
    c.release(BUTTON)
    c.read_until(b"probe drop", timeout=120, stall=STALL_S)
    c.read_until(b"probe think", timeout=120, stall=STALL_S)
    assert "level=8 discs=17" in c.read_until(b"\n", timeout=30, stall=STALL_S)
    c.press(BUTTON)  # within the search: level 8's 48,000 nodes take seconds here
    text = c.read_until(b"probe search", timeout=300, stall=STALL_S) + c.read_until(
        b"\n", timeout=30, stall=STALL_S)
    c.release(BUTTON)
    stop = re.search(r"probe stop ms=(\d+) gap_us=(\d+)", text)
    end = re.search(r"probe search ms=(\d+) nodes=(\d+) stopped=(\S+)", text)
    if end and not stop and end.group(3) != "poll":  # the search was over before the press came
        raise HostLate("the press reached the board after the search (%s)" % end.group(0))
    assert stop and end, text
    assert end.group(3) == "poll"  # stopped by the press (connect4.engine.search.STOP_POLL)
    drop = c.read_until(b"probe drop", timeout=120, stall=STALL_S)  # the click plays the move
    report = c.read_until(b"probe gap", timeout=300, stall=STALL_S) + c.read_until(
        b"\n", timeout=30, stall=STALL_S)
    max_gap_us = int(re.search(r"max_us=(\d+)", report).group(1))
    latency = max_gap_us / 1000 + (int(end.group(1)) - int(stop.group(1)))
    print("poll gap max %.1f ms; the search ended %d ms after the poll that saw the press: "
          "a press stops it within %.1f ms" % (max_gap_us / 1000, int(end.group(1)) - int(stop.group(1)),
                                              latency))
    assert drop
    assert latency < LATENCY_MS


@retry_stalls
def test_a_long_press_opens_the_menu(chip):
    c = repl(chip(wifi=False))
    run_probe(c, report_ms=60_000, events=True, ticks=True)
    c.read_until(b"probe state 0 ", timeout=120, stall=STALL_S)  # the intro, past the power-on window
    c.press(BUTTON)  # a click starts the game
    _, t0 = wait_tick(c, 0)
    wait_tick(c, t0 + 200)
    c.release(BUTTON)
    c.read_until(b"probe state 1 ", timeout=60, stall=STALL_S)  # PLAY
    c.press(BUTTON)
    text, t0 = wait_tick(c, 0)
    text += wait_tick(c, t0 + LONG_PRESS_MS + 300)[0]
    c.release(BUTTON)
    if "probe state %d " % MENU not in text:  # the menu opens while the press is held
        text += c.read_until(b"probe state %d " % MENU, timeout=60, stall=STALL_S)
    assert "probe state %d " % MENU in text


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
    _, before = wait_tick(c, t0 + 500)  # the press lands at this tick or later
    c.press(BUTTON)  # held: the long press ends the hardware test, and the app's start returns
    text = c.read_until(b"probe stopped", timeout=120, stall=STALL_S)
    c.release(BUTTON)
    held = [int(t) for t in re.findall(r"probe t=(\d+)", text)]
    assert held[-1] - before >= LONG_PRESS_MS - 100  # not before the press was long
