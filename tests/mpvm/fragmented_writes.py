# Runs inside MicroPython: in the VM, for tests/test_fragmented_heap.py.
"""Every write of the page, on a heap held to the chip's room and fragmented as a load leaves it.

    fragmented_writes.py ROOM HOLE SEED

The firmware is imported from .mpy files as deployed, the app built by the
board's own build_app on the default preset (host_sim's machine/neopixel/network
stubs), Wi-Fi on through the menu's link and the page's server on fake sockets
(tests/portable/fakenet.py). Every write path is used once (pair, settings, a
move and the AI's answer, a new game, forget) and the reads beside them, so that
what loads once (lazily loaded modules, their names) has loaded, as on a chip that
has served a while. Then the heap is filled until only ROOM bytes are free, in
holes of at most HOLE bytes (each kept apart by a small block held), and every
path is used again. This VM cannot grow its heap (run.mjs without --grow): an
allocation that finds no hole long enough raises MemoryError, where the chip's
heap would grow into the network's memory. Prints one line a path, `ok` or why.
"""
import gc
import json
import os
import random
import sys

sys.path.append('/stubs')  # after the VM's own modules
sys.path.append('/tests/portable')
import machine  # noqa: F401  (built into the chip)
import neopixel  # noqa: F401
import network  # noqa: F401
from _mpvm import run_steps

ROOM = int(sys.argv[1])
HOLE = int(sys.argv[2])
SEED = int(sys.argv[3])
keep = {}


def fragment(room, hole, seed):
    """Fill the heap with the smallest blocks (an empty bytearray: one 16-byte block), then let
    go of runs of 2..hole/16 of them that lie one after another (id() is the address here),
    each run kept apart from the next by one block held, until `room` bytes are free: the
    room is there, in no run longer than a hole. (The list that holds them is made first:
    its growing would leave long runs free.)"""
    random.seed(seed)
    blocks = keep['blocks'] = [None] * (gc.mem_free() // 16)
    n = 0
    try:
        while n < len(blocks):
            blocks[n] = bytearray(0)
            n += 1
    except MemoryError:
        pass
    freed = 0
    i = 1
    while freed < room and i < n:
        first = id(blocks[i])
        j = i
        size = random.randint(2, hole // 16)
        while j < n and j - i < size and id(blocks[j]) == first + 16 * (j - i):
            j += 1
        if j - i >= 2:
            for k in range(i, j):
                blocks[k] = None
            freed += 16 * (j - i)
        i = j + 1  # one held between


def steps():
    try:
        os.mkdir('/flash')
    except OSError:
        pass
    import config
    from connect4 import hardware_setup
    from connect4.app.assemble import build_app
    from connect4.net.server import Server
    from connect4.net.pairing import Pairing
    from fakenet import FakeSocket, listen, get, post
    from fakes import FakeClock
    cfg = config.get(None, {"flash_dir": "/flash/", "seed": 7, "safe_mode_ms": 0, "web_port": 0})
    del sys.modules["config"]  # as connect4.boot.start: the presets are read, then freed
    config = None
    yield
    clock = FakeClock()
    from connect4 import boot
    app = build_app(cfg, hardware_setup.build(cfg), clock=clock, seed=7, wifi=boot.wifi_link)
    hardware_setup = build_app = None  # as connect4.boot.main: the builders are used once
    keep['app'] = app
    yield
    app.settings.update({"mode": "ai", "level": 1, "first": "red"})
    app.start()
    yield
    app.wifi(clock.ticks_ms(), True)  # the menu's path; no page served by the link (web_port 0) ...
    link = app.link
    server = Server(link.face, Pairing('/flash/'), link)  # ... but this one, on fake sockets,
    server.pairing.shown = link._new_code  # as the link makes its own
    listener = listen(server, clock)
    keep['app'] = (app, server, listener)
    state = {"auth": b""}

    def run(ms):
        """The app's loop for `ms` of its clock, a yield (this VM's collection) every 20 ms."""
        end = clock.elapsed + ms
        while clock.elapsed < end:
            for _ in range(10):
                app.step()
                clock.sleep_ms(cfg["loop_ms"])
            yield

    def ask(data, got):
        s = FakeSocket(data)
        listener.waiting.append(s)
        yield from run(40)
        got.append(s)

    def auth():
        return b"Authorization: Bearer " + state["auth"] + b"\r\n"

    def pair(got):
        yield from ask(post(b"/api/pair", json.dumps({"code": server.pairing.code}).encode()), got)
        state["auth"] = json.loads(got[-1].body())["token"].encode()

    def human_col():
        heights = [0] * app.board.cols
        for d in app.board.moves_string():
            heights[int(d) - 1] += 1
        return next(c + 1 for c in (3, 2, 4, 1, 5, 0, 6) if heights[c] < app.board.rows)

    def move(got):
        yield from run(3000)  # the AI's answer to the last move, if it was its turn
        yield from ask(post(b"/api/move", json.dumps({"column": human_col()}).encode(), auth()), got)
        yield from run(3000)

    paths = (
        ("pair", pair),
        ("state", lambda got: ask(get(b"/api/state", auth()), got)),
        ("settings", lambda got: ask(post(b"/api/settings", b'{"brightness": 3}', auth()), got)),
        ("settings read", lambda got: ask(get(b"/api/settings"), got)),
        ("new game", lambda got: ask(post(b"/api/new", b'{"mode": "ai", "level": 2, "first": "red"}', auth()), got)),
        ("move", move),
        ("games", lambda got: ask(get(b"/api/games"), got)),
        ("page", lambda got: ask(get(b"/", b"Accept-Encoding: gzip\r\n"), got)),
        ("forget", lambda got: ask(post(b"/api/forget", b"{}", auth()), got)),
        ("pair again", pair),
    )
    for name, path in paths:  # once on the heap as it is: what loads once has loaded
        got = []
        yield from path(got)
        assert got[-1].status() == 200, (name, got[-1].got)
    for _ in range(12):  # a game to its end and recorded (its modules, its names)
        yield from move([])
        if app.board.is_over():
            break
    yield
    fragment(ROOM, HOLE, SEED)
    yield  # collected: ROOM free, in holes
    print("room %d free %d" % (ROOM, gc.mem_free()))
    try:
        bytearray(HOLE + 64)
        print("fragmented: no")
    except MemoryError:
        print("fragmented: yes")
    yield
    for name, path in paths:
        got = []
        try:
            yield from path(got)
            print("%s: %s" % (name, "ok" if got[-1].status() == 200 else "status %s" % got[-1].status()))
        except MemoryError as e:
            print("%s: MemoryError %r" % (name, e))
        yield
    print("done, state %d" % app.state)


run_steps(steps())
