# Runs inside MicroPython: in the VM, for tools/mpvm/memory.py.
"""Runs inside the MicroPython VM for tools/mpvm/memory.py: the board's heap, step by step.

    memory_probe.py NODES_A NODES_B GAME_LEVEL

The firmware is imported from .mpy files (as `make deploy` puts it on the
board) and built by the board's own `connect4.app.assemble.build_app`, on host_sim's
machine/neopixel/network stubs (imported before the baseline: the chip has
them built in). This VM collects garbage only between top-level steps, so each
figure taken at the end of a step counts everything allocated since the last
collection: an upper bound of the true peak inside that step.
"""
import gc
import os
import sys

sys.path.append('/stubs')  # after the VM's own modules: its micropython and time stay
import machine  # noqa: F401  (built into the chip)
import neopixel  # noqa: F401
import network  # noqa: F401
import time
from _mpvm import run_steps

NODES = (int(sys.argv[1]), int(sys.argv[2]))
GAME_LEVEL = int(sys.argv[3])
ROLE = sys.argv[4] if len(sys.argv) > 4 else "ask"  # a game of two boards: ask, hold or page
out = {}
keep = {}


class VirtualClock:
    """The app's clock, moved by its own sleeps: a whole game takes no real time."""

    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def ticks_add(self, a, b):
        return time.ticks_add(a, b)

    def sleep_ms(self, ms):
        self.now = time.ticks_add(self.now, ms)


class _Bytes:
    """A serial port with these bytes to read, and its poll (the ear's port and poller)."""

    def __init__(self, data):
        self.data = data

    def ipoll(self, ms):
        return [1] if self.data else []

    def read(self, n):
        out, self.data = self.data[:n], self.data[n:]
        return out


class _Sink:
    def __init__(self):
        self.got = 0

    def write(self, data):
        self.got += len(data)


def _page_asked(app, use, now):
    """The holder shows its "play a board" page (the menu leaves for it: boards.show), and
    another board's ask comes."""
    use("connect4.app.boards").show(app, use("connect4.app.menu").Menu(
        app.settings, app.store.stats, app._set_brightness, app.records), now)
    page = app.menu.games
    page.tick(app, now)  # (no finder: the VM has no sockets; its code loaded all the same)
    use("connect4.net.finder")
    app.banner = None
    page.asked(app, b"\x01" * 32, {"name": "connect4-ABCD", "level": 0})


def held(base):
    return gc.mem_alloc() - base


def steps():
    try:
        os.mkdir('/flash')
    except OSError:
        pass
    yield  # a collection: the baseline
    base = gc.mem_alloc()
    import config  # what main.py imports
    from connect4 import boot
    keep['modules'] = (config, boot)
    yield
    out['import'] = held(base)

    # The app as boot.main builds it (its Searcher, table and all).
    from connect4 import hardware_setup
    from connect4.app.assemble import build_app
    from connect4.app.game import PLAY
    from connect4.app.store import Store
    from connect4.modules import forget, use
    from connect4.engine.board import Board
    from connect4.engine.levels import MAX_LEVEL
    cfg = config.get(None, {"flash_dir": "/flash/", "seed": 7, "safe_mode_ms": 0})
    del sys.modules["config"]  # as connect4.boot.start: the presets are read, then freed
    keep['modules'] = boot
    config = None
    hw = hardware_setup.build(cfg)
    clock = VirtualClock()
    app = build_app(cfg, hw, clock=clock, seed=cfg["seed"])
    hardware_setup = build_app = None  # as connect4.boot.main: the builders are used once
    forget("connect4.hardware_setup", "connect4.app.assemble")
    store = app.store
    keep['app'] = (hw, app)
    yield
    out['app'] = held(base) - out['import']
    out['table'] = len(app.turn.searcher.tt)

    # A top-level move from the empty board, in the app's own searcher.
    app.ai.set_level(MAX_LEVEL)
    r = app.ai.choose(Board())
    out['search_peak'] = held(base)
    out['search_nodes'] = r.nodes
    r = None
    yield

    # Bytes per node: two searches of different budgets (fixed costs cancel).
    allocated = []
    for nodes in NODES:
        start = gc.mem_alloc()
        r = app.turn.searcher.search(Board(), nodes=nodes)
        allocated.append((r.nodes, gc.mem_alloc() - start))
        r = None
        yield
    (n1, a1), (n2, a2) = allocated
    out['per_node'] = (a2 - a1) // (n2 - n1) if n2 > n1 else 0

    # A whole game against the AI: intro, moves, animations, the statistics saved.
    app.settings["level"] = GAME_LEVEL
    app.settings["mode"] = "ai"
    app.start()
    pause = cfg["loop_ms"]
    peak = 0
    turn = 0
    while app.games < 1:  # one main-loop iteration a step: the tightest bound
        if app.state == PLAY and not app.ai_to_move():
            col = (3 + 2 * turn) % 7  # the human: a fixed walk over the columns
            while not app.board.can_play(col):
                col = (col + 1) % 7
            app.drop(col, clock.ticks_ms())
            turn += 1
        app.step()
        clock.sleep_ms(pause)
        peak = max(peak, held(base))
        yield
    out['game_peak'] = peak
    out['game_moves'] = app.board.count
    saved = Store(store.path, defaults={})
    use("connect4.app.storeload").load(saved)
    out['game_saved'] = sum(saved.stats["ai"][GAME_LEVEL - 1]) == 1  # the result reached the flash
    saved = None
    yield

    # Wi-Fi on: the menu's link (the board's factory: connect4.net.link and the radio's
    # wifi.py over the `network` stub), the web server (connect4.net.server, the API, the
    # routes, its page buffer), a pairing and the scrolling text, built as the link builds
    # them; this VM has no sockets, so the server is built but not listening, and one state
    # answer is made.
    live = held(base)
    out['live'] = live  # the app after a whole game, garbage collected: what it holds
    from connect4.net.server import Server
    from connect4.net.pairing import Pairing
    from connect4.net.netconf import NetConf
    from connect4.app.scroll import Scroller
    from connect4.app.glyphs import WHITE
    from connect4.app.face import Face
    link = boot.wifi_link(app, cfg)  # the factory main() hands the app
    server = Server(Face(app), Pairing('/flash/'), NetConf('/flash/').load())
    keep['web'] = (link, server, Scroller([("192.168.4.1 CODE " + server.pairing.code, WHITE)], 0))
    pairing = server.pairing  # as many phones paired as it keeps, on flash: their digests held
    from connect4.net.pairing import MAX_TOKENS
    for _ in range(MAX_TOKENS):
        auth = "Bearer " + pairing.pair(pairing.code)
    pairing.digests = None  # the board started again: the file read at the first check
    import json
    keep['answer'] = json.dumps(server.api.state(auth)[1])
    yield
    out['web'] = held(base) - live
    app.turn.searcher.resize(cfg["tt_entries_wifi"])  # what Wi-Fi on does to the AI's table
    yield
    out['web_table'] = len(app.turn.searcher.tt)
    out['web_with_table'] = held(base) - live

    # An Improv join's moment: Wi-Fi coming on (the server built above) while the ear and
    # connect4.net.improv and provision are loaded (a Joining holds them until the answer)
    import select
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    use("connect4.listen").start(app, 0, 60000, sys.stdin.buffer, sys.stdout.buffer, poller)
    improv = use("connect4.net.improv")
    keep['join'] = improv.Joining(app.serial, use("connect4.net.provision").Board(app))
    poller = improv = None
    yield
    out['improv_join'] = held(base) - live - out['web_with_table']
    keep['join'] = None
    app.serial = None
    yield
    out['improv_names'] = held(base) - live - out['web_with_table']  # interned for good

    web = held(base)
    # A game of two boards (issue 37), one role a run (the names each interns are its own), each
    # after its first answer, its banner gone. The asker restarts into its game
    # (connect4.app.boards), so it is measured on a heap just started with Wi-Fi on: its client
    # (the Peer with its buffer: connect4.net.peer) and connect4.app.boardask. The holder: its
    # game (the asker's token's digest: connect4.app.boardhold) after the other board's first
    # poll; "page": the "play a board" page shown (the menu's; its finder's code) and an ask
    # taken, the holder's fullest moment before its game (measured alone: after it, the VM's
    # conservative collector kept the page alive by some word that looked like its address).
    # Each leaves by a restart (connect4.app.twoboards_setup.leave), which takes what it
    # interned too.
    if ROLE == "ask":
        from connect4.net.peer import Peer
        client = Peer("10.0.0.1", 80, "0123456789abcdef01234567")
        use("connect4.app.boardask").ask(app, {"name": "connect4-ABCD", "host": "10.0.0.1", "port": 80,
                                               "token": client.token, "levels": [0, 0], "wait": 0},
                                         client, clock.ticks_ms())
        app.duo.told = {"game": 1, "moves": "", "first": 0, "levels": [0, 0], "size": "7x6"}
        app.step()  # its first answer followed: the holder's game
        client = Peer = None
        app.duo.lost = True  # (nothing to tell the holder when it leaves: no sockets here)
    elif ROLE == "page":
        _page_asked(app, use, clock.ticks_ms())
    else:
        use("connect4.app.boardhold").hold(app, b"\x01" * 32, {"name": "connect4-ABCD", "level": 0},
                                           clock.ticks_ms())
        app.duo.route(app, b"\x01" * 32, {})  # the asker's poll: POST /api/board {}'s answer
    app.banner = None
    yield
    out['board_' + ROLE] = held(base) - web  # (page: the page shown, an ask taken, its fullest)
    if app.duo is not None:
        app.duo.leave(app, clock.ticks_ms())  # (then the board restarts: what it interned goes too)
    app.banner = None
    app.restart = app.stopped = False

    keep['web'] = keep['answer'] = None  # Wi-Fi off again
    yield

    # Listening for Improv Wi-Fi on the USB serial port, Wi-Fi off (the two never share the
    # heap): the ear (connect4.ear: its module, an Ear, its poll on the VM's stdin as the
    # chip's on its USB serial port) ...
    before = held(base)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    use("connect4.listen").start(app, 0, 60000, sys.stdin.buffer, sys.stdout.buffer, poller)
    poller = None
    yield
    out['listening'] = held(base) - before
    # ... and a frame answered (device info: connect4.net.improv and provision loaded for it,
    # dropped after): what it held at most, its garbage counted
    ear = app.serial
    frame = b"IMPROV\x01\x03\x02\x03\x00"
    ear.port = _Bytes(frame + bytes((sum(frame) & 0xFF,)))
    ear.poller = ear.port
    ear.out = _Sink()
    before = held(base)
    while not ear.out.got:  # a byte a loop step up to "IMPROV", then the frame at once
        ear(0)
    out['improv'] = held(base) - before
    out['improv_answer'] = ear.out.got
    ear = app.serial = None
    yield

    out['heap'] = gc.mem_alloc() + gc.mem_free()
    print('MEMORY', repr(out).replace("'", '"').replace('True', 'true').replace('False', 'false'))


run_steps(steps())
