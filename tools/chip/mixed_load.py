"""A hostile network's load on the emulated chip (issue 36), for tests/chip/ and `make bench`.

`measure(c, load_s, seed)` takes a board at its raw REPL (wifi.json naming
the emulator's open network, Wi-Fi on from the saved switch), starts the
app's probe and, for `load_s` seconds of emulated time, runs at once:
- three clients polling GET /api/state every 0.3 s;
- one client holding the event stream open;
- one client fetching / (gzip) and GET /api/games every 2 s;
- one hostile client, every 5 s (wall): garbage bytes, an 8 KB request line,
  a header that never ends (half sent, then 10 s of silence), a 100 KB POST,
  or a write without pairing;
- one paired client writing at moments drawn from `seed`: a move on a
  person's turn, a new game against a level drawn from 1-8, a settings change,
  pairing again, forgetting every paired phone (then pairing with the new
  code that the board prints).
After the load it pairs, writes a brightness and reads the settings back.
The caller judges what it returns: every well-behaved request answered, each
hostile one as due, the heap figures of the probe's reports.
"""
import json
import random
import select
import socket
import threading
import time

from tools.chip import probe
from tools.chip.wifi_load import REPORT_MS, REPORT_STALL_S, REQUEST_S, Client, emulated_ms, follow_events

POLLERS = 3
POLL_S = 0.3
PAGE_S = 2.0
HOSTILE_S = 5.0
SILENT_S = 10.0  # the header that never ends: this long without a byte, then closed
WRITE_S = (2.0, 8.0)  # the writer's pause between two writes, drawn from this range
HOSTILE = ("garbage", "long_line", "endless_header", "big_post", "unpaired")
# what each hostile request must get: its status, or None where the board may only close
DUE = {"garbage": 400, "long_line": 400, "endless_header": None, "big_post": 413, "unpaired": 401}
WRITES = ("move", "move", "new", "settings", "pair", "forget")
CODE_LINE = b"connect4: web: "


def exchange(port, parts, timeout=30):
    """On a fresh connection, send each (bytes, then seconds of silence) of `parts`, reading what
    comes back all along (a board that answers early and closes is heard, not reset away), then
    read until the board closes. The status (None: none came) and the bytes."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.setblocking(False)
    got = bytearray()
    closed = False

    def read():
        nonlocal closed
        try:
            chunk = s.recv(4096)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            closed = True
        got.extend(chunk)
    try:
        for data, silence in parts:
            view = memoryview(data)
            while view and not closed:
                r, w, _ = select.select([s], [s], [], timeout)
                if not r and not w:
                    closed = True  # nothing moves: given up
                if r:
                    read()
                if w and not closed:
                    try:
                        view = view[s.send(view[:4096]):]
                    except BlockingIOError:
                        pass
                    except OSError:
                        closed = True
            end = time.monotonic() + silence
            while not closed and time.monotonic() < end:
                if select.select([s], [], [], end - time.monotonic())[0]:
                    read()
        end = time.monotonic() + timeout
        while not closed and time.monotonic() < end:
            if select.select([s], [], [], end - time.monotonic())[0]:
                read()
    finally:
        s.close()
    status = None
    if got.startswith(b"HTTP/1.0 "):
        try:
            status = int(got[9:12])
        except ValueError:
            pass
    return status, bytes(got)


GARBAGE = bytes(random.Random(7).getrandbits(8) for _ in range(300)) + b"\r\n\r\n"


def hostile(port, kind):
    """One hostile request of `kind` (HOSTILE); its status (None: closed without one)."""
    if kind == "garbage":
        parts = [(GARBAGE, 0)]
    elif kind == "long_line":
        parts = [(b"GET /" + b"a" * 8192 + b" HTTP/1.1\r\n\r\n", 0)]
    elif kind == "endless_header":
        parts = [(b"GET /api/state HTTP/1.1\r\nHost: board\r\nX-Half: ", SILENT_S), (b"never\r\n", 0)]
    elif kind == "big_post":
        parts = [(b"POST /api/settings HTTP/1.1\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 102400\r\n\r\n{" + b" " * 102398 + b"}", 0)]
    else:
        body = b'{"brightness": 7}'
        parts = [(b"POST /api/settings HTTP/1.1\r\nContent-Length: %d\r\n\r\n" % len(body) + body, 0)]
    return exchange(port, parts)[0]


class Writer:
    """The paired client: writes at moments drawn from its seed, each checked as it comes."""

    def __init__(self, c, api, code, rng):
        self.c = c
        self.api = api
        self.code = code
        self.rng = rng
        self.auth = None
        self.done = []  # (what, status)
        self.bad = []  # writes answered otherwise than due

    def pair(self):
        status, _, body = self.api.request("POST", "/api/pair", {"code": self.code})
        if status == 200:
            self.auth = {"Authorization": "Bearer " + json.loads(body)["token"]}
        return status

    def new_code(self):
        """The code the board printed last (a forget prints the new one)."""
        text = bytes(self.c.out).decode(errors="replace")
        i = text.rfind(CODE_LINE.decode())
        line = text[i:].split("\n", 1)[0]
        return line.split("code", 1)[1].split()[0]

    def write(self, what):
        api, auth, rng = self.api, self.auth, self.rng
        due = (200,)
        if what == "pair":
            status = self.pair()
        elif what == "forget":
            status = api.request("POST", "/api/forget", {}, headers=auth)[0]
            if status == 200:
                time.sleep(1)  # the board prints its new code
                self.code = self.new_code()
                self.auth = None
                self.pair()
        elif what == "new":
            status = api.request("POST", "/api/new", {"mode": "ai", "level": rng.randint(1, 8),
                                                      "first": rng.choice(("red", "yellow"))},
                                 headers=auth)[0]
        elif what == "settings":
            status = api.request("POST", "/api/settings", {"brightness": rng.randint(1, 7)},
                                 headers=auth)[0]
        else:  # a move: the state says where; 409 when the board moved on meanwhile
            status, _, body = api.request("GET", "/api/state")
            if status != 200:
                self.bad.append(("state", status))
                return
            state = json.loads(body)
            heights = [0] * state["columns"]
            for d in state["moves"]:
                heights[int(d) - 1] += 1
            free = [i + 1 for i in range(state["columns"]) if heights[i] < state["rows"]]
            if not free:
                return
            status = api.request("POST", "/api/move", {"column": rng.choice(free)}, headers=auth)[0]
            due = (200, 409)
        self.done.append((what, status))
        if status not in due:
            self.bad.append((what, status))


def measure(c, load_s, seed, ballast=0, grow=False, keep_text=False):
    """The load (this module's docstring) on a board at its raw REPL; `ballast`: bytes of the GC
    heap the probe holds from its start (the margin's proof). A dict: seconds (emulated, of
    load), answered (well-behaved requests, wall seconds each), statuses ({what: [status]}),
    failures (well-behaved requests not answered 200), hostile ([(kind, status)]), wrong
    (hostile requests not answered as due), writes, bad_writes, readback ((written, read)),
    board (the server's counts), idle (the report with nobody connected), low (the worst of
    every report), heap (every report), gcs (every GC heap line); keep_text: text too, what the
    board printed."""
    rng = random.Random(seed)
    probe.run(c, report_ms=REPORT_MS, grow=grow, ballast=ballast)
    line = c.read_until(CODE_LINE, timeout=300, stall=REPORT_STALL_S) + c.read_until(
        b"\n", timeout=30, stall=REPORT_STALL_S)
    code = line.split("code", 1)[1].split()[0]
    for _ in range(3):  # idle: the next reports with nobody connected
        c.read_until(b"probe heap", timeout=120, stall=REPORT_STALL_S)
    idle = probe.parse_fields(c.read_until(b"\n", timeout=30, stall=REPORT_STALL_S))
    port = c.http_port
    api = Client(port, c)
    writer = Writer(c, api, code, rng)
    if writer.pair() != 200:
        raise AssertionError("pairing failed before the load: %s" % c.tail(1500))
    api.request("POST", "/api/new", {"mode": "ai", "level": 8, "first": "red"}, headers=writer.auth)

    stop = threading.Event()
    polite = [Client(port) for _ in range(POLLERS + 1)]
    statuses = {}
    lock = threading.Lock()
    hostile_got = []
    events = []

    def note(what, status):
        with lock:
            statuses.setdefault(what, []).append(status)

    def poll(cl):
        while not stop.is_set():
            note("state", cl.request("GET", "/api/state")[0])
            stop.wait(POLL_S)

    def pages(cl):
        while not stop.is_set():
            status, enc, page = cl.request("GET", "/", headers={"Accept-Encoding": "gzip"})
            note("page", status if enc == "gzip" and page[:2] == b"\x1f\x8b" else "not gzip %s" % status)
            status, _, body = cl.request("GET", "/api/games")
            ok = status == 200 and isinstance(json.loads(body or b"{}").get("games"), list)
            note("games", status if ok else "bad %s" % status)
            stop.wait(PAGE_S)

    def stream():  # held open, and opened again if the board ends it
        while not stop.is_set():
            status = follow_events(port, stop, events)
            note("events", status)
            if status is None:
                stop.wait(1)

    def attack():
        arng = random.Random(seed + 1)
        while not stop.is_set():
            kind = arng.choice(HOSTILE)
            try:
                status = hostile(port, kind)
            except OSError as e:
                status = repr(e)
            with lock:
                hostile_got.append((kind, status))
            stop.wait(HOSTILE_S)

    threads = ([threading.Thread(target=poll, args=(cl,)) for cl in polite[:POLLERS]]
               + [threading.Thread(target=pages, args=(polite[POLLERS],)),
                  threading.Thread(target=stream), threading.Thread(target=attack)])
    for t in threads:
        t.start()
    try:
        start = emulated_ms(c)
        while emulated_ms(c) - start < load_s * 1000:
            c.check_alive(REPORT_STALL_S)
            time.sleep(rng.uniform(*WRITE_S))
            writer.write(rng.choice(WRITES))
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=REQUEST_S + 30)
    # after the load: a fresh pairing, a written value, read back at once
    writer.code = writer.new_code()
    writer.pair()
    written = rng.randint(1, 7)
    status = api.request("POST", "/api/settings", {"brightness": written}, headers=writer.auth)[0]
    note("readback write", status)
    status, _, body = api.request("GET", "/api/settings")
    note("readback read", status)
    read = json.loads(body).get("brightness") if status == 200 else None
    c.drain(0.5)
    c.read_until(b"probe web", timeout=60, stall=REPORT_STALL_S)
    web = probe.parse_fields(c.read_until(b"\n", timeout=30, stall=REPORT_STALL_S))
    c.read_until(b"GC: total", timeout=60, stall=REPORT_STALL_S)
    text = bytes(c.out).decode(errors="replace")
    heap, low = probe.reports(text)
    clients = [api] + polite
    failures = [f for cl in clients for f in cl.failures]
    for what, got in statuses.items():
        failures += ["%s: %s" % (what, s) for s in got if s != 200]
    wrong = [(k, s) for k, s in hostile_got if DUE[k] is not None and s != DUE[k]]
    return {"seconds": (emulated_ms(c) - start) // 1000, "seed": seed, "ballast": ballast,
            "answered": [t for cl in clients for t in cl.times], "statuses": statuses,
            "failures": failures, "hostile": hostile_got, "wrong": wrong, "writes": writer.done,
            "bad_writes": writer.bad, "readback": (written, read), "events": events, "board": web,
            "idle": idle, "low": low, "heap": heap, "gcs": probe.gc_heap(text),
            "text": text if keep_text else None}
