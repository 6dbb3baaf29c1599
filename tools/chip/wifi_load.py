"""The phone page's load on the emulated chip (issue 31), for tests/chip/ and `make bench`.

`measure(chip, load_s)` takes a board already at its raw REPL, with wifi.json
naming the emulator's open network and Wi-Fi on from the saved switch: it
starts the app's probe (reports every REPORT_MS), waits for the board's
`connect4: web: ... code CODE` line and three idle reports, fetches the page
(gzip and plain), pairs with the code, then for `load_s` seconds of emulated
time plays whole games against level 8 through the API (the recorded games
and a settings change after each) with the event stream open and a second
client polling /api/state every 0.5 s. It returns what happened and what the
board reported; the caller judges it.
"""
import http.client
import json
import threading
import time

from tools.chip import probe

REPORT_MS = 2000  # the probe's reports, emulated ms
# wall seconds without a report (one every 2 emulated s) that count as the emulator's stall:
# a loaded host (two cores, three emulators and a bench) ran the emulator at a tenth of its
# speed, and 20 s of silence booted healthy chips again; a stall never ends, so waiting
# longer costs only its own time
REPORT_STALL_S = 120
# wall seconds a request may wait for its answer: on that loaded host a request the board
# answered in its usual time (its own clock: the probe's `slow` and `slowest`) took 25 s of
# wall time, and three passed 30 s; what is late on the board is judged on its clock
REQUEST_S = 120
OPEN_NETWORK = json.dumps({"ap_password": "abcdefgh12", "ssid": "PICSimLabWifi", "password": ""}).encode()
NO_HOME = json.dumps({"ap_password": "abcdefgh12", "ssid": "", "password": ""}).encode()  # its own AP
# the menu's Wi-Fi switch left on (a saved setting: on again at every start, issue 30 item 4)
WIFI_ON = json.dumps({"version": 1, "settings": {"wifi": True}}).encode()


class LoadFailed(AssertionError):
    """The page did not answer as a phone needs (the text says what came instead)."""


def check(ok, what):
    if not ok:
        raise LoadFailed(what)


class Client:
    """HTTP to the board through the emulator's port forward, every answer timed. Given the
    chip, a request runs in a thread of its own while this one reads the board's console (a
    console nobody reads would, in the end, block the board in print) and watches for the
    emulator's stall."""

    def __init__(self, port, chip=None):
        self.port = port
        self.chip = chip
        self.times = []
        self.failures = []

    def request(self, method, path, body=None, headers=None, timeout=REQUEST_S):
        if self.chip is None:
            return self._request(method, path, body, headers, timeout)
        out = []
        t = threading.Thread(target=lambda: out.append(self._request(method, path, body, headers, timeout)))
        t.start()
        while t.is_alive():
            self.chip.check_alive(REPORT_STALL_S)
            t.join(0.05)
        if out[0][0] is None:  # not answered: a board silent all that time is the emulator's stall
            self.chip.check_alive(REPORT_STALL_S)
        return out[0]

    def _request(self, method, path, body, headers, timeout):
        t = time.monotonic()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
            conn.request(method, path, body=json.dumps(body) if body is not None else None,
                         headers=headers or {})
            r = conn.getresponse()
            data = r.read()
            conn.close()
            self.times.append(time.monotonic() - t)
            return r.status, r.getheader("Content-Encoding"), data
        except Exception as e:  # a timeout or a reset: counted, the test goes on
            self.failures.append("%s %s: %r" % (method, path, e))
            return None, None, b""


def play(api, auth, c):
    """One whole game against level 8 through the API (you red, first): a column a turn,
    the centre's first; the finished state."""
    status, _, body = api.request("POST", "/api/new", {"mode": "ai", "level": 8, "first": "red"},
                                  headers=auth)
    if status != 200:
        c.drain(5)  # the board's next report says why
    check(status == 200, (body, c.tail(1500)))
    started = False  # the new game is queued: the old one's end may still show for a moment
    while True:
        c.check_alive(REPORT_STALL_S)  # the board reports every 2 s: silence is the emulator's stall
        status, _, body = api.request("GET", "/api/state")
        if status != 200:  # 503: the board short of memory for a moment; the page waits too
            time.sleep(0.5)
            continue
        state = json.loads(body)
        started = started or state["result"] is None
        if started and state["result"] is not None:
            return state
        if state["human"] and state["state"] == "play":
            heights = [0] * state["columns"]
            for d in state["moves"]:
                heights[int(d) - 1] += 1
            col = next(i + 1 for i in (3, 2, 4, 1, 5, 0, 6) if heights[i] < state["rows"])
            api.request("POST", "/api/move", {"column": col}, headers=auth)
        time.sleep(0.3)


def follow_events(port, stop, events):
    """The live page: GET /api/events held open, each `event:` line appended to `events` (or
    what ended it: its repr) until `stop` is set or the board ends it. Its status, or None."""
    status = None
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/api/events")
        r = conn.getresponse()
        status = r.status
        while not stop.is_set():
            ln = r.fp.readline()
            if not ln:
                break
            if ln.startswith(b"event:"):
                events.append(ln.strip())
        conn.close()
    except Exception as e:
        events.append(repr(e).encode())
    return status


def emulated_ms(c):
    """The board's clock (ms since the probe started) at its last report."""
    heap = [probe.parse_fields(ln) for ln in bytes(c.out).decode(errors="replace").splitlines()
            if ln.startswith("probe heap")]
    return heap[-1]["ms"] if heap else 0


def measure(c, load_s, grow=False):
    """The load on a board at its raw REPL (this module's docstring); `grow`: the probe's watch of
    where the GC heap grows (app_probe.py). A dict: games, seconds (emulated, of load), answered
    (each answer's wall seconds), board (the server's own counts, `probe web`), failures (timed
    out or reset), events (the live stream's event lines), idle (the report with nobody
    connected), low (the worst of every report), heap (every report), gcs (every GC heap
    line: total, used, free), start_ms."""
    probe.run(c, report_ms=REPORT_MS, grow=grow)
    line = c.read_until(b"connect4: web: ", timeout=300, stall=REPORT_STALL_S) + c.read_until(
        b"\n", timeout=30, stall=REPORT_STALL_S)
    code = line.split("code", 1)[1].split()[0]
    for _ in range(3):  # idle: the next reports with nobody connected
        c.read_until(b"probe heap", timeout=120, stall=REPORT_STALL_S)
    idle = probe.parse_fields(c.read_until(b"\n", timeout=30, stall=REPORT_STALL_S))  # its ms=... idf_free=...
    api = Client(c.http_port, c)
    status, enc, page = api.request("GET", "/", headers={"Accept-Encoding": "gzip"})
    check(status == 200 and enc == "gzip" and page[:2] == b"\x1f\x8b", api.failures)
    status, enc, plain = api.request("GET", "/")
    check(status == 200 and b"<html" in plain.lower(), api.failures)
    status, _, body = api.request("POST", "/api/pair", {"code": code})
    check(status == 200, (body, api.failures))
    auth = {"Authorization": "Bearer " + json.loads(body)["token"]}

    stop = threading.Event()
    poller = Client(c.http_port)
    events = []

    def poll():
        while not stop.is_set():
            poller.request("GET", "/api/state")
            stop.wait(0.5)

    def stream():
        follow_events(c.http_port, stop, events)
    threads = [threading.Thread(target=poll), threading.Thread(target=stream)]
    for t in threads:
        t.start()
    games = 0
    try:
        start = emulated_ms(c)
        while emulated_ms(c) - start < load_s * 1000:
            play(api, auth, c)
            games += 1
            for _ in range(50):  # the record is written once the game's end has been shown
                status, _, body = api.request("GET", "/api/games")
                check(status == 200, body)
                if len(json.loads(body)["games"]) >= min(games, 20):
                    break
                time.sleep(0.3)
            check(len(json.loads(body)["games"]) >= min(games, 20), body)
            status, _, body = api.request("POST", "/api/settings", {"brightness": 1 + games % 7},
                                          headers=auth)
            check(status == 200, body)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=90)
    c.drain(0.5)  # the reports printed under load, unread: the next one counts them all
    c.read_until(b"probe web", timeout=60, stall=REPORT_STALL_S)
    web = probe.parse_fields(c.read_until(b"\n", timeout=30, stall=REPORT_STALL_S))
    check(web["served"] + web["refused"] >= len(api.times + poller.times), web)  # (a 503 is refused)
    c.read_until(b"GC: total", timeout=60, stall=REPORT_STALL_S)
    text = bytes(c.out).decode(errors="replace")
    heap, low = probe.reports(text)
    answered = api.times + poller.times
    gcs = probe.gc_heap(text)
    return {"games": games, "seconds": (emulated_ms(c) - start) // 1000, "answered": answered,
            "board": web, "failures": api.failures + poller.failures, "events": events,
            "idle": idle, "low": low, "heap": heap, "gcs": gcs, "start_ms": start}


def access_point_idle(c, stall=180):
    """No home network (wifi.json NO_HOME): the board's own access point, idle. Starts the
    probe on a board at its raw REPL, waits for the board's `connect4: web: ...` line, then
    the next report and six more GC heap lines (about 12 s of emulated time). A dict: line
    (the board's), heap (every report), gcs (every GC heap line)."""
    probe.run(c, report_ms=REPORT_MS)
    line = c.read_until(b"connect4: web: ", timeout=300, stall=stall) + c.read_until(
        b"\n", timeout=30, stall=stall)
    c.read_until(b"probe heap", timeout=300, stall=stall)  # the next report ...
    for _ in range(6):  # ... and about 12 s of emulated time idle
        c.read_until(b"GC: total", timeout=300, stall=stall)
    text = bytes(c.out).decode(errors="replace")
    return {"line": line, "heap": probe.reports(text)[0], "gcs": probe.gc_heap(text)}
