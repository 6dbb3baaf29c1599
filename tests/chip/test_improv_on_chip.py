"""Issue 39: Improv Wi-Fi Serial on the emulated chip, over its UART (the console: stdin and
stdout, as the USB serial port is on a board).

The protocol's own client (npm improv-wifi-serial-sdk, tools/improv/client.mjs) talks to the
app as main.py runs it (tools/chip/app_probe.py, reporting, in main.py's place): a board with
no home network listens for good; the client reads its state and device info, scans (the
emulator's open networks), and gives it PICSimLabWifi; the board joins, answers with its URL
and restarts (a software reset: Wi-Fi comes on from the saved switch on a whole heap, the game
in progress back), and that URL serves the page; so it does when the client asks from
power-on, as ESP Web Tools does right after an install. Every Improv command's type byte is a
Ctrl-C: none stops the app; a Ctrl-C of a person's afterwards does, and the REPL answers. The
GC heap never grows into the network's memory, and with Wi-Fi on after the join keeps
GC_FREE_MIN free. Then the button lag: loop steps in PLAY while the board listens (the first
minute after a start) and after it, timed on the chip's clock.
"""
import http.client

import pytest

from connect4.app.records import Record
from tools.chip import probe, wifi_load
from tools.chip.emulator import OPEN_SSID, STATION_IP
from tools.improv import sdk

from .helpers import gc_heap, parse_fields, repl, retry_stalls, run_probe
from .test_app_on_chip import APP_GC_TOTAL, GC_FREE_MIN, STALL_S

pytestmark = pytest.mark.skipif(not sdk.available(), reason="node and node_modules (npm ci) needed")

LAG_US = 500  # the most listening may add to a loop step in PLAY, on average (emulated us)


def uart(c):
    """The emulated board's UART as the client's serial port (tools/improv/sdk.py's talk)."""
    seen = [len(c.out)]

    def board(data):
        if data:
            c.write(data)
        c.check_alive(STALL_S)
        with c.lock:
            new = bytes(c.out[seen[0]:])
        seen[0] += len(new)
        return new
    return board


SAVED_GAME = ("%s\n0 12345 678 2\n" % Record("two", 0, (0, 0), 3, (0, 0), "43", "??").line()).encode()
RESET_BANNER = b"rst:0xc"  # the ROM's line after a software reset (RTC_SW_CPU_RST): machine.reset()


def restarted(c, since, url):
    """After an answered join: the chip's software reset (the ROM's banner), then the app
    again, its page on the network at `url`; the UART's text since `since` read so far."""
    c.seen = since  # (the relay read the UART itself)
    c.read_until(RESET_BANNER, timeout=300, stall=STALL_S)
    c.read_until(("connect4: web: %s" % url).encode(), timeout=300, stall=STALL_S)
    return bytes(c.out[since:]).decode(errors="replace")


def page(c):
    conn = http.client.HTTPConnection("127.0.0.1", c.http_port, timeout=60)
    conn.request("GET", "/")
    r = conn.getresponse()
    return r.status, r.read()


@retry_stalls
def test_improv_over_the_uart_joins_restarts_and_its_url_serves_the_page(chip):
    """The probe in main.py's place (tools/chip/probe.py's main_py: it runs at every start),
    a two-player game in progress, no home network: the client gives PICSimLabWifi, the board
    answers its URL and restarts (a software reset), Wi-Fi comes on from the saved switch, the
    game is back uncounted, and the URL serves the page; the GC heap never grew, and with
    Wi-Fi on after the join keeps GC_FREE_MIN free."""
    c = chip(extra=[("/wifi.json", wifi_load.NO_HOME), ("/game.txt", SAVED_GAME),
                    probe.main_py(report_ms=2000)])
    c.boot()
    c.read_until(b"probe app moves=43 mode=two", timeout=300, stall=STALL_S)
    c.read_until(b"GC: total", timeout=300, stall=STALL_S)
    start = len(c.out)
    results, _ = sdk.talk([["initialize", 20000], ["scan"], ["provision", OPEN_SSID, "", 90000]],
                          uart(c), timeout=600)
    first, scan, provision = results
    print("Improv on the chip: %s" % results)
    assert first["info"]["firmware"] == "connect4" and first["info"]["chipFamily"] == "ESP32-C3"
    assert first["info"]["name"].startswith("Connect4-") and first["state"] == 2  # READY
    assert OPEN_SSID in [n["name"] for n in scan["networks"]], scan
    url = "http://%s/" % STATION_IP
    assert provision.get("nextUrl") == url and provision["state"] == 4, provision
    said = restarted(c, start, url)
    again = said.index(RESET_BANNER.decode())
    assert "probe app moves=43 mode=two" in said[again:]  # the game back, after the restart
    status, body = page(c)  # (the emulator forwards a port of this host to the chip's port 80)
    assert status == 200 and b"<html" in body.lower()
    text = ""
    for _ in range(3):
        text += c.read_until(b"GC: total", timeout=120, stall=STALL_S) + c.read_until(b"\n", timeout=30)
    said = bytes(c.out[start:]).decode(errors="replace")
    assert "Traceback" not in said and "KeyboardInterrupt" not in said, said[-2000:]
    before = gc_heap(bytes(c.out[:start]).decode(errors="replace"))
    gcs = gc_heap(bytes(c.out).decode(errors="replace"))
    after = gc_heap(said[said.index("connect4: web: ", again):])  # Wi-Fi on, after the restart
    print("GC heap (total, used, free) listening, Wi-Fi off: %s; after the join's restart, Wi-Fi "
          "on, the page served: %s" % (before[-1], after))
    assert max(total for total, _, _ in gcs) <= APP_GC_TOTAL, "the GC heap grew into the network's memory"
    assert len(after) >= 3 and min(free for _, _, free in after) >= GC_FREE_MIN
    # Wi-Fi on: no ear, so a person's Ctrl-C is MicroPython's and stops the app; the network
    # and the switch are on flash, and the game was not counted as a crash's restart
    c.write(b"\r\x03")
    c.read_until(b">>> ", timeout=120, stall=STALL_S)
    c.raw_repl()
    out = c.exec_raw("import json; print(json.load(open('wifi.json'))['ssid'], "
                     "json.load(open('connect4.json'))['settings']['wifi'], "
                     "open('game.txt').read().split(chr(10))[1].split()[0])", timeout=60)
    assert out.strip() == "%s True 0" % OPEN_SSID


@retry_stalls
def test_the_client_talks_from_power_on_as_right_after_an_install(chip):
    """ESP Web Tools resets the board it has written and asks at once, every second: frames
    whose command byte is Ctrl-C's reach the board while it boots, before the app listens.
    The board must still come up (main.py turns MicroPython's Ctrl-C off first), answer, join,
    restart and serve its page; then a person's Ctrl-C gives the REPL, where the GC heap's
    areas show it never grew (they never shrink)."""
    c = chip(extra=[("/wifi.json", wifi_load.NO_HOME)])
    c.boot()
    results, _ = sdk.talk([["initialize", 30000], ["provision", OPEN_SSID, "", 90000]], uart(c), timeout=600)
    first, provision = results
    print("Improv from power-on: %s" % results)
    assert first.get("info", {}).get("firmware") == "connect4" and first["state"] == 2, first
    url = "http://%s/" % STATION_IP
    assert provision.get("nextUrl") == url and provision["state"] == 4, provision
    said = restarted(c, 0, url)
    assert page(c)[0] == 200
    assert "Traceback" not in said, said[-2000:]
    c.interrupt(timeout=120)
    c.drain(1)
    c.write(b"import micropython; micropython.mem_info()\r")
    total = gc_heap(c.read_until(b"GC: total", timeout=60) + c.read_until(b"\n", timeout=30))
    assert total and total[-1][0] <= APP_GC_TOTAL, total


def steps(line):
    fields = parse_fields(line)
    out = {}
    for key in ("listening", "quiet"):
        n, total, longest = (int(x) for x in fields[key].split("/"))
        out[key] = (n, total / n if n else 0.0, longest)
    return out


@retry_stalls
def test_listening_adds_no_button_lag_to_a_loop_step(chip):
    """A home network set, Wi-Fi off: the board listens for the first minute, then not. The
    game waits in PLAY for a person all along; each loop step's time, listening and not."""
    c = repl(chip(extra=[("/wifi.json", wifi_load.OPEN_NETWORK)], wifi=False))
    run_probe(c, report_ms=10_000, steps=True)
    line = ""
    while True:
        c.read_until(b"probe steps", timeout=600, stall=STALL_S)
        line = c.read_until(b"\n", timeout=30, stall=STALL_S)
        got = steps(line)
        if got["listening"][0] and got["quiet"][0] >= got["listening"][0] // 2:
            break
    (n_on, mean_on, max_on), (n_off, mean_off, max_off) = got["listening"], got["quiet"]
    print("loop steps in PLAY: listening %d, %.0f us on average, the longest %d us; not listening "
          "%d, %.0f us, the longest %d us" % (n_on, mean_on, max_on, n_off, mean_off, max_off))
    assert n_on > 1000 and n_off > 500
    assert mean_on - mean_off < LAG_US
