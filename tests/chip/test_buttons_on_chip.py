"""Issue 30 c: the buttons on the emulated chip (the encoder preset: its push button on GPIO2).

The viper search runs no interrupt callbacks, so it polls the button itself:
a press must stop a level-8 search within 50 ms of emulated time, timed on
the board's own clock (issue 40: timed on the host, the press missed the
search on a loaded host). The probe holds the search just after a poll
half a second in until the host's press reaches the pin, however late a
busy host sends it, and says how long after the press the search returned;
it also prints the longest gap between two polls: a press landing at the
worst moment of any interval waits that gap plus the time from the poll
that sees it to the search's end.

Other presses are timed in emulated time too: with PROBE ticks the board
prints `probe t=MS` every 100 ms of its own clock, and the test presses and
releases on those lines. The waits are long (a loaded host runs the emulator
slowly); a stuck emulator is caught by its silence (STALL_S) instead.
"""
import re

from .helpers import retry_stalls, repl, run_probe

BUTTON = 2  # config.py's encoder preset
LATENCY_MS = 50
PRESS_AFTER_MS = 500  # into the search: past its start (the collection, the book, the table)
MENU = 5  # connect4.app.game.MENU
LONG_PRESS_MS = 800  # config.py long_press_ms

STALL_S = 180  # wall seconds of UART silence: the emulator is stuck (tests/chip/helpers.py)
WAIT_S = 1800  # wall seconds for what the board does in a few emulated ones, on a loaded host


def wait_tick(c, at_least, timeout=WAIT_S):
    """Read `probe t=MS` lines until MS >= at_least; the text read."""
    text = ""
    while True:
        line = c.read_until(b"\n", timeout=timeout, stall=STALL_S)
        text += line
        m = re.search(r"probe t=(\d+)", line)
        if m and int(m.group(1)) >= at_least:
            return text, int(m.group(1))


def line_after(c, marker):
    """The rest of the line that starts with `marker`, read on from where the UART was."""
    c.read_until(marker, timeout=WAIT_S, stall=STALL_S)
    return c.read_until(b"\n", timeout=WAIT_S, stall=STALL_S)


# A game in progress (connect4.app.resume's file): you (red) against level 8, 17 discs, the
# AI to move: at power-on the board takes it back and searches at once, past its book, the
# whole budget (48,001 nodes, about 2 s on the chip).
GAME_TXT = b"0 ai r 0/8 a 0/0 45515447553732335 ?????????????????\n0 1 1 4\n"


@retry_stalls
def test_a_press_stops_a_level_8_search_within_50_ms(chip):
    c = repl(chip(extra=[("/game.txt", GAME_TXT)], wifi=False))
    run_probe(c, report_ms=5_000, events=True, press_ms=PRESS_AFTER_MS)
    assert "level=8 discs=17" in line_after(c, b"probe think")
    c.read_until(b"probe press?", timeout=WAIT_S, stall=STALL_S)  # the board waits for it
    c.press(BUTTON)
    text = c.read_until(b"probe search", timeout=WAIT_S, stall=STALL_S) + c.read_until(
        b"\n", timeout=WAIT_S, stall=STALL_S)
    c.release(BUTTON)
    stop = re.search(r"probe stop ms=(\d+) gap_us=(\d+)", text)
    end = re.search(r"probe search ms=(\d+) nodes=(\d+) stopped=(\S+)", text)
    latency = re.search(r"probe latency us=(\d+)", text)
    assert stop and end and latency, text
    assert end.group(3) == "poll"  # stopped by the press (connect4.engine.search.STOP_POLL)
    assert c.read_until(b"probe drop", timeout=WAIT_S, stall=STALL_S)  # its release plays the move
    max_gap_us = int(re.search(r"max_us=(\d+)", line_after(c, b"probe gap")).group(1))
    worst = max_gap_us / 1000 + (int(end.group(1)) - int(stop.group(1)))
    print("the press stopped the search %.1f ms after it came, on the board's clock; the longest "
          "gap between two polls %.1f ms, and the search ended %d ms after the poll that saw the "
          "press: a press at the worst moment stops it within %.1f ms" % (
              int(latency.group(1)) / 1000, max_gap_us / 1000, int(end.group(1)) - int(stop.group(1)),
              worst))
    assert int(latency.group(1)) < LATENCY_MS * 1000
    assert worst < LATENCY_MS


@retry_stalls
def test_a_long_press_opens_the_menu(chip):
    c = repl(chip(wifi=False))
    run_probe(c, report_ms=60_000, events=True, ticks=True)
    c.read_until(b"probe state 0 ", timeout=WAIT_S, stall=STALL_S)  # the intro, past the power-on window
    c.press(BUTTON)  # a click starts the game
    _, t0 = wait_tick(c, 0)
    wait_tick(c, t0 + 200)
    c.release(BUTTON)
    c.read_until(b"probe state 1 ", timeout=WAIT_S, stall=STALL_S)  # PLAY
    c.press(BUTTON)
    text, t0 = wait_tick(c, 0)
    text += wait_tick(c, t0 + LONG_PRESS_MS + 300)[0]
    c.release(BUTTON)
    if "probe state %d " % MENU not in text:  # the menu opens while the press is held
        text += c.read_until(b"probe state %d " % MENU, timeout=WAIT_S, stall=STALL_S)
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
    c.read_until(b"connect4: safe mode", timeout=WAIT_S, stall=STALL_S)
    c.read_until(b"probe stopped", timeout=WAIT_S, stall=STALL_S)
    c.read_until(b"\x04>", timeout=WAIT_S, stall=STALL_S)

    run_probe(c, report_ms=60_000, ticks=True)
    c.press(BUTTON)
    c.read_until(b"connect4: hardware test", timeout=WAIT_S, stall=STALL_S)
    c.release(BUTTON)
    _, t0 = wait_tick(c, 0)
    _, before = wait_tick(c, t0 + 500)  # the press lands at this tick or later
    c.press(BUTTON)  # held: the long press ends the hardware test, and the app's start returns
    text = c.read_until(b"probe stopped", timeout=WAIT_S, stall=STALL_S)
    c.release(BUTTON)
    held = [int(t) for t in re.findall(r"probe t=(\d+)", text)]
    assert held[-1] - before >= LONG_PRESS_MS - 100  # not before the press was long
