"""Two emulated boards play one game over Wi-Fi (issue 37), for tests/chip/ and `make bench`.

Each emulator has its own network (192.168.4.0/24 behind its own slirp): no
broadcast crosses from one to the other. So each board serves its page at a
port of its own number, forwarded from the host's port of that number (TCP and
UDP: tools.chip.emulator.Chip's `port`), and looks for the other at
192.168.4.2:PORT, its network's way to the host's loopback (the config's
`board_find`, given through the probe's `overrides`); each has a MAC of its
own (eFuses), so a name of its own.

`main_py(port, other_port)` is a board's /main.py: the app's probe in
main.py's place (as tools.chip.probe.main_py's: the three-button preset,
presses timed on its `probe t=` lines, its ports; the clock in main.py,
the comment above ticks_main says why), so that every power-on,
the first and the one after the power cut, starts the app as main.py does, on
a whole heap and with nothing a stopped main.py left (a Ctrl-C'd main.py had
Wi-Fi up or not, as it happened: two heaps). `play(holder, asker)` takes two
boards made so (wifi.json naming the emulator's open network, Wi-Fi on from
the saved switch, the holder's settings saying red starts), powers them on, a
phone watching each board's page (the live events held open, the state read
every second), then with their buttons only: the holder shows its "play a
board" page, the asker finds it there, types its code, plays by its buttons,
waits 0 minutes; then the moves of GAME, each pressed on the board whose side
it is, the holder powered off after CUT_AFTER of them and on again, a press on
the wrong board; then the asker's side handed to its AI at AI_LEVEL (a long press
during the game shows this board's side: it restarts) and the holder's moves of AI_GAME in the next
game, each answered by that AI; the asker's side shown and left during that game; then
the holder's side handed to its AI too (it restarts), the two boards' AIs playing on to
the game's end. It returns what each board's page said and printed, its heap
reports and the times; the caller judges them, but for one thing: a board
whose GC heap grows past the app's (it took memory from the network's, never
given back; its page then answers 503 or nothing) ends the game at once, the
step under way and the board's reports around the growth said (`grow`: the
probe's watch names the server's or the app's step). Each step is printed
with both boards' clocks.
"""
import http.client
import json
import re
import threading
import time

from tools.chip import probe
from tools.chip.emulator import GATEWAY_IP
from tools.common import CHIP_GC_HEAP_APP, CHIP_PROBE_MORE, free_port, path
from tools.chip.wifi_load import REPORT_MS, REPORT_STALL_S

LEFT, DROP, RIGHT = 0, 1, 3  # config.py's buttons preset
LONG_MS = 1100  # a long press (the menu: long_press_ms 800)
CLICK_MS = 120  # a click (debounce 50 ms; an arrow held 180 ms repeats)
GAP_MS = 150  # between two presses
BOARD_ITEM = 10  # connect4.app.menu.ITEMS.index("board")
GAME = "4545454"  # red (the holder) wins in column 4; yellow (the asker) plays column 5
CUT_AFTER = 4  # moves before the holder's power cut
AI_LEVEL = 1  # then the asker's side handed to its AI at this level, for AI_GAME's holder moves
AI_GAME = "334"
PAGE_LINE = "connect4: play a board: this board's page"  # (connect4.app.boards: the page opens)
BANNER_MS = 13000  # Wi-Fi on: the name, address and code scroll (about 150 columns at 75 ms)
LOST_MS = 5000  # issue 37: a lost connection shows within 5 s (of the board's own clock)
T_LINE = re.compile(rb"probe t=(\d+)\r?\n")
GC_TOTAL = re.compile(rb"GC: total: (\d+)")


# The probe's `probe t=` clock, in main.py itself: app_probe_more.py (what the probe loads for its
# `ticks`, with events and the rest) held 4,320 B more of the GC heap on the emulated chip (the
# asker's start into a game of two boards, Wi-Fi up, idle: 118,336 B used with it, 114,016 without),
# and loaded before the app it moved the heap's growth: that start's GC heap grew to 175,872 B
# before Wi-Fi, which failed "Out of Memory". This one stands in for it (sys.modules), a clock only.
def ticks_main():
    """main.py's text up to the probe's import: its clock is app_probe_more.py's _TickClock (the
    one definition: its text read from there), the module standing in for app_probe_more."""
    with open(path(CHIP_PROBE_MORE), encoding="utf-8") as f:
        more = f.read()
    start = more.index("class _TickClock")
    end = more.find("\n\n\n", start)
    return ("import micropython\nmicropython.kbd_intr(-1)\nimport sys\nimport time\n"
            "from time import ticks_ms, ticks_diff\n\n\n%s\n\n\nclass Ticks:\n"
            "    def install(P, STATE):\n        return _TickClock()\n\n\n"
            "sys.modules[\"app_probe_more\"] = Ticks\n" % more[start:end if end >= 0 else len(more)].rstrip())


def main_py(port, other_port, grow=False):
    """(board path, bytes): a /main.py that starts the app's probe at every power-on (its
    reports and `probe t=` lines; `grow`: where the GC heap grows, app_probe_more.py's watch,
    its heap and all), the three-button preset, the page at `port`, the other board looked for
    at the gateway's `other_port`."""
    args = {"report_ms": REPORT_MS, "ticks": True, "preset": "buttons",
            "overrides": {"web_port": port, "board_find": ("%s:%d" % (GATEWAY_IP, other_port),)}}
    if grow:
        return probe.main_py(grow=True, **args)
    return "/main.py", (ticks_main() + "sys.argv[:] = [\"app_probe\", %r]\ntry:\n    import app_probe\n"
                        "except KeyboardInterrupt:\n    pass\n" % repr(args)).encode()


def ports():
    """Two ports free on this host, not the same (each board's page and UDP)."""
    first = free_port()
    while True:
        second = free_port()
        if second != first:
            return first, second


class Board:
    """One emulated board as the test drives it: its buttons, its clock, its page."""

    def __init__(self, c, role):
        self.c = c
        self.port = c.port
        self.role = role  # "holder" or "asker", for the messages
        self.code = self.name = None
        self.cursor = 3  # the column the cursor is on (a new game: the centre)
        self.step = "the start"  # what the game is at (play's), for a growth's message
        self.scanned = 0  # how far the UART was searched for a grown GC heap (this boot's)
        self.boards = [self]  # the boards whose heap is watched while this one is waited on (play's)
        self.t_base = self.t_last = self.t_scanned = 0  # now()'s: the clock across the board's restarts

    def power_on(self):
        """Power on: main.py starts the app's probe (main_py)."""
        self.scanned = self.t_scanned = 0
        self.t_base += self.t_last  # (the time powered off is not the board's)
        self.t_last = 0
        self.c.boot()

    def start(self):
        """Until the app is up with Wi-Fi: its name and code, the banner scrolled by."""
        line = self.c.read_until(b"connect4: web: ", timeout=300, stall=REPORT_STALL_S) + self.c.read_until(
            b"\n", timeout=30, stall=REPORT_STALL_S)
        self.name = line.split(" name ", 1)[1].split()[0]
        self.code = line.split(" code ", 1)[1].split()[0]
        self.wait_ms(BANNER_MS)  # the address and code scroll by (an input would only end them)

    def now(self):
        """The board's own clock, as its last `probe t=` said: ms since its probe started, and
        since the first power-on across its restarts (the asker restarts into the game: the
        probe's clock starts again at main.py; the time powered off not counted)."""
        start = self.t_scanned
        for m in T_LINE.finditer(bytes(self.c.out[start:])):
            t = int(m.group(1))
            if t < self.t_last:  # a restart: the probe's clock begins again
                self.t_base += self.t_last
            self.t_last = t
            self.t_scanned = start + m.end()  # (whole lines only: the next look goes on after it)
        return self.t_base + self.t_last

    def grown(self):
        """AssertionError if this board's GC heap has grown past the app's: the step under way,
        the board's clock and its reports (not its `probe t=` lines) up to the first growth."""
        out = self.c.out
        for m in GC_TOTAL.finditer(bytes(out[self.scanned:])):
            if int(m.group(1)) > CHIP_GC_HEAP_APP:
                at = self.scanned + m.end()
                text = bytes(out[max(0, at - 12000):at + 200]).decode(errors="replace")
                lines = [ln for ln in text.splitlines() if not ln.startswith("probe t=")]
                raise AssertionError("the %s's GC heap grew past %d B during %s (its clock %d ms); its "
                                     "UART up to it:\n%s" % (self.role, CHIP_GC_HEAP_APP, self.step,
                                                              self.now(), "\n".join(lines[-60:])))
        self.scanned = max(self.scanned, len(out) - 40)  # (a line cut in two: searched again)

    def watch(self):
        """grown() of every board in the game (a growth ends it whichever board is waited on)."""
        for b in self.boards:
            if b.c.proc is not None:  # (not while powered off)
                b.grown()

    def wait_ms(self, ms, timeout=120):
        """Until `ms` of the board's own time have passed."""
        end = self.now() + ms
        limit = time.monotonic() + timeout
        while self.now() < end:
            self.c.check_alive(REPORT_STALL_S)
            self.watch()
            if time.monotonic() > limit:
                raise AssertionError("the board's clock stood still: %s" % self.c.tail(500))
            time.sleep(0.02)

    def press(self, pin, ms=CLICK_MS):
        self.c.press(pin)
        self.wait_ms(ms)
        self.c.release(pin)
        self.wait_ms(GAP_MS)

    def clicks(self, pin, n):
        for _ in range(n):
            self.press(pin)

    def api(self, method, path, body=None, timeout=30):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request(method, path, body=json.dumps(body) if body is not None else None)
            r = conn.getresponse()
            return r.status, json.loads(r.read() or b"null")
        finally:
            conn.close()

    def state(self):
        """GET /api/state (None while the board does not answer)."""
        try:
            status, s = self.api("GET", "/api/state", timeout=10)
            return s if status == 200 else None
        except (OSError, http.client.HTTPException, ValueError):
            return None

    def until(self, cond, what, timeout=300):
        """Read the page's state until cond(state) (the board's UART watched for a stall)."""
        end = time.monotonic() + timeout
        while True:
            self.c.check_alive(REPORT_STALL_S)
            self.watch()
            s = self.state()
            if s is not None and cond(s):
                return s
            if time.monotonic() > end:
                raise AssertionError("%s: not within %d s; the page said %s; the board:\n%s" % (
                    what, timeout, s, self.c.tail(1500)))
            time.sleep(0.5)

    def open_page(self):
        """The menu's "play a board" page, by the buttons."""
        self.press(DROP, LONG_MS)
        self.until(lambda s: s["state"] == "menu", "the menu")
        self.clicks(RIGHT, BOARD_ITEM)
        self.press(DROP)

    def open_side(self):
        """During a game of two boards: a long press, this board's side shown in the menu's place
        (connect4.app.boardside)."""
        self.press(DROP, LONG_MS)
        self.until(lambda s: s["state"] == "menu", "this board's side")

    def move(self, col):
        """A move of this board's player: the cursor to `col` (0-based), a click."""
        step = RIGHT if col > self.cursor else LEFT
        self.clicks(step, abs(col - self.cursor))
        self.cursor = col
        self.press(DROP)


class Phone:
    """A phone watching a board's page: the live events open, the state read every second."""

    def __init__(self, port):
        self.port = port
        self.stop = threading.Event()
        self.events = 0
        self.states = 0
        self.threads = [threading.Thread(target=self._stream, daemon=True),
                        threading.Thread(target=self._poll, daemon=True)]
        for t in self.threads:
            t.start()

    def _stream(self):
        while not self.stop.is_set():
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                conn.request("GET", "/api/events")
                r = conn.getresponse()
                while not self.stop.is_set():
                    ln = r.fp.readline()
                    if not ln:
                        break
                    if ln.startswith(b"event:"):
                        self.events += 1
            except (OSError, http.client.HTTPException):
                self.stop.wait(1)

    def _poll(self):
        while not self.stop.is_set():
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                conn.request("GET", "/api/state")
                if conn.getresponse().status == 200:
                    self.states += 1
                conn.close()
            except (OSError, http.client.HTTPException):
                pass
            self.stop.wait(1)

    def close(self):
        self.stop.set()
        for t in self.threads:
            t.join(40)


def play(holder, asker):
    """The game (this module's docstring) on two chips made with main_py, powered off. A dict:
    names, moves and results by board, lost_ms (the asker's clock from the holder's power cut
    to its page saying so), the boards' texts."""
    h, a = Board(holder, "holder"), Board(asker, "asker")
    h.boards = a.boards = [h, a]

    def step(what):
        for b in (h, a):
            b.step = what
        print("two boards: %s (holder's clock %d ms, asker's %d ms)" % (what, h.now(), a.now()))

    step("both boards powered on")
    h.power_on()
    a.power_on()
    h.start()
    a.start()
    for b in (h, a):  # idle: the next reports
        b.c.read_until(b"probe heap", timeout=120, stall=REPORT_STALL_S)
    step("the phones come")
    phones = [Phone(h.port), Phone(a.port)]
    got = {"names": (h.name, a.name)}
    try:
        step("the holder's \"play a board\" page")
        h.open_page()
        step("the asker's \"play a board\" page")
        a.open_page()
        opened = a.now()
        a.c.read_until(b"connect4: found " + h.name.encode(), timeout=300, stall=REPORT_STALL_S)
        a.wait_ms(max(0, opened + 6000 - a.now()))  # its own code has scrolled by: the list shows
        step("the asker picks the holder and types its code")
        a.press(DROP)  # the board found
        for d in h.code:
            a.clicks(RIGHT, int(d))
            a.press(DROP)
        a.press(DROP)  # this side: P, its buttons
        step("the asker asks for the game")
        a.press(DROP)  # wait: 0, until a press
        h.until(lambda s: s["boards"] is not None and s["boards"]["yellow"] == a.name, "the holder's game")
        a.until(lambda s: s["boards"] is not None and s["moves"] == "" and s["first"] == "red", "the asker's game")
        # the asker restarts into the game (h-boards): its name, address and code scroll again (a
        # press would only end them); "XXXX PLAYS" scrolls by on the holder
        a.wait_ms(BANNER_MS)
        for i, d in enumerate(GAME):
            if i == 1:  # a press on the wrong board says WAIT, and plays nothing
                step("a press on the wrong board (the holder's, at move 2)")
                h.press(DROP)
                h.wait_ms(2500)  # (WAIT scrolls by)
            mover = h if i % 2 == 0 else a
            step("move %d, column %s, on the %s's buttons" % (i + 1, d, mover.role))
            mover.move(int(d) - 1)
            for b in (h, a):
                b.until(lambda s: s["moves"] == GAME[:i + 1] and s["state"] in ("play", "over"),
                        "move %d on %s" % (i + 1, b.name))
            if i + 1 == CUT_AFTER:
                step("the holder's power cut")
                cut = a.now()
                got["holder_before"] = bytes(holder.out).decode(errors="replace")
                holder.kill()  # the power cut
                a.until(lambda s: s["boards"] is not None and s["boards"]["lost"], "the holder lost, on the asker",
                        timeout=120)
                got["lost_ms"] = a.now() - cut
                got["while_lost"] = a.state()
                step("the holder powered on again")
                h.power_on()
                h.start()
                h.until(lambda s: s["boards"] is not None and s["moves"] == GAME[:CUT_AFTER], "the game taken back")
                a.until(lambda s: s["boards"] is not None and not s["boards"]["lost"] and s["moves"] == GAME[:CUT_AFTER],
                        "the holder back")
        step("the game's end")
        for b in (h, a):
            b.until(lambda s: s["result"] == "red", "the end on %s" % b.name)
        got["states"] = (h.state(), a.state())
        got["games"] = (h.api("GET", "/api/games")[1], a.api("GET", "/api/games")[1])
        # the asker hands its side to its AI (a long press during the game: its side, PLAYER): it
        # restarts for the AI's table, and its level, told, begins the holder's next game
        step("the asker hands its side to its AI at level %d" % AI_LEVEL)
        # (where each board's UART text enters a moment the test marks: each judged apart)
        got["marks"] = {"asker": [(len(asker.out), "its side shown during the game, then handed to its AI")]}
        a.open_side()
        a.clicks(RIGHT, AI_LEVEL)
        a.press(DROP)
        a.press(DROP)  # wait: as it was
        h.until(lambda s: s["boards"] is not None and s["moves"] == "" and s["levels"] == [0, AI_LEVEL],
                "the holder's next game, against the asker's AI")
        a.until(lambda s: s["boards"] is not None and s["moves"] == "" and s["levels"] == [0, AI_LEVEL],
                "the asker's AI in the next game")
        h.cursor = 3
        for i, d in enumerate(AI_GAME):
            step("the holder's move %d, column %s, against the asker's AI" % (i + 1, d))
            h.move(int(d) - 1)
            for b in (h, a):  # (its disc landed: a press while it falls plays nothing)
                b.until(lambda s: len(s["moves"]) >= 2 * i + 2 and s["state"] == "play" or s["result"] is not None,
                        "the asker's AI's answer %d on %s" % (i + 1, b.name))
        got["ai_game"] = (h.state(), a.state())
        # the asker's side shown during that game, played by its AI: a long press, then another
        # (back to the game, no restart)
        step("the asker's side shown during the game, played by its AI")
        got["marks"]["asker"].append((len(asker.out), "its side shown during the game, played by its AI"))
        a.open_side()
        a.press(DROP, LONG_MS)
        a.until(lambda s: s["state"] != "menu", "the asker back in the game")
        got["marks"]["asker"].append((len(asker.out), "the game after its side shown, played by its AI"))
        # the holder hands its side to its AI too (a restart): a demo of the two boards' AIs, to
        # the game's end
        step("the holder hands its side to its AI at level %d: the two boards' AIs play on" % AI_LEVEL)
        got["marks"]["holder"] = [(len(holder.out), "its side shown during the game, then handed to its AI")]
        h.open_side()
        h.clicks(RIGHT, AI_LEVEL)
        h.press(DROP)
        h.press(DROP)  # wait: as it was
        for b in (h, a):
            b.until(lambda s: s["boards"] is not None and s["levels"] == [AI_LEVEL, AI_LEVEL]
                    and s["result"] is not None, "the demo's end on %s" % b.name)
        got["demo"] = (h.state(), a.state())
        for b in (h, a):  # the reports after the end
            b.c.drain(0.5)
            b.c.read_until(b"GC: total", timeout=120, stall=REPORT_STALL_S)
            b.grown()
    finally:
        for p in phones:
            p.close()
    got["phones"] = [(p.events, p.states) for p in phones]
    got["texts"] = (bytes(holder.out).decode(errors="replace"), bytes(asker.out).decode(errors="replace"))
    return got
