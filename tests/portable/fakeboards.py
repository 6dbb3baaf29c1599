"""Two boards on one fake network and one fake clock (runs in MicroPython too).

Each board is a Rig (fakes.py) whose Wi-Fi factory makes a FakeLink: the real
server (connect4.net.server) and pairing on fakenet's listener, and, for the
game of two boards, the real Peer (connect4.net.peer) over FakeClient sockets
that reach the other board's listener through the `Net` both share. What the
radio, lwIP and UDP would do is faked here; every line of the firmware's own
network code (the server, the API, the client, connect4.app.twoboards) runs.

Faults: `net.down(host)` (the board's network gone: connecting fails, requests
under way get nothing), `net.cut` (a predicate on a request's bytes: it reaches
the board, its answer never reaches the client), a board powered off and on
(`Boards.restart`: a new Rig on the same flash).
"""
import errno

from connect4.net.peer import Peer
from connect4.net.server import Server
from connect4.net.pairing import Pairing
from connect4.app.face import Face
from fakenet import FakePoller, FakeSocket, listen
from fakes import Rig, FakeClock, tmpdir, Counter


class Net:
    """The network both boards are on: host -> the FakeListener of its server."""

    def __init__(self):
        self.hosts = {}
        self.cut = None  # cut(request bytes) -> True: that request's answer never comes back
        self.requests = []  # every request a client sent, whole (bytes)
        self.randoms = {}

    def random(self, host):
        """A board's random bytes (its pairing's codes and tokens): deterministic, and going on
        across its restarts, as the chip's generator never repeats a token."""
        if host not in self.randoms:
            self.randoms[host] = Counter()
        return self.randoms[host]


class FakeClient:
    """A client's socket as connect4.net.peer uses it, through `net`."""

    def __init__(self, net):
        self.net = net
        self.far = None  # the server's side of the connection (a FakeSocket)
        self.off = 0
        self.sent = b""
        self.reset = False
        self.closed = False

    def setblocking(self, flag):
        pass

    def connect(self, addr):
        listener = self.net.hosts.get(addr[0])
        if listener is None:
            raise OSError(errno.EHOSTUNREACH)
        self.far = FakeSocket(b"", eof=False)
        listener.waiting.append(self.far)
        raise OSError(errno.EINPROGRESS)

    def send(self, data):
        if self.far is None or self.far.closed:
            raise OSError(errno.ECONNRESET)
        data = bytes(data)
        self.far.data += data
        self.sent += data
        if b"\r\n\r\n" in self.sent:  # (the requests here are whole in one send)
            self.net.requests.append(self.sent)
            cut = self.net.cut
            if cut is not None and cut(self.sent):
                self.reset = True  # it reached the board; nothing comes back
        return len(data)

    def readinto(self, buf):
        if self.reset:
            raise OSError(errno.ECONNRESET)
        got = self.far.got[self.off:]
        if not got:
            return 0 if self.far.closed else None
        n = min(len(buf), len(got))
        buf[:n] = got[:n]
        self.off += n
        return n

    def close(self):
        self.closed = True
        if self.far is not None:
            self.far.eof = True  # the server reads the client's end


class ClientPoller(FakePoller):
    """select.poll for FakeClients (the server's fake poller's masks): writable once connected,
    readable once an answer or the end came, an error once reset or never connected."""

    def __init__(self):
        FakePoller.__init__(self, None)

    def poll(self, timeout):
        out = []
        for sock, mask in self.masks.values():
            far = sock.far
            if sock.reset:
                out.append((sock, 8))
            elif far is None:
                continue
            elif mask & 4:
                out.append((sock, 4))
            elif mask & 1 and (len(far.got) > sock.off or far.closed):
                out.append((sock, 1))
        return out


class FakeLink:
    """connect4.net.link.Link as the app and the game of two boards use it: on (the server on
    the fake network), off, the board's name and address, finder and peer."""

    def __init__(self, face, cfg, net, host, digits):
        self.face = face
        self.cfg = cfg
        self.net = net
        self.host = host
        self.name = "connect4-" + digits
        self.address = None
        self.error = None
        self.server = None
        self.listener = None

    def on(self, now):
        if self.server is None:
            self.face.resize_table(self.cfg["tt_entries_wifi"])  # as the Link does
            app = self.face.app
            self.server = Server(self.face, Pairing(self.cfg["flash_dir"], randbytes=self.net.random(self.host)))
            self.listener = listen(self.server, app.clock)
            self.net.hosts[self.host] = self.listener
            self.address = self.host

    def off(self):
        if self.server is not None:
            self.net.hosts.pop(self.host, None)
            self.server.stop()
            self.server = None
            self.face.set_pump(None)
            self.face.web = None
            self.face.resize_table(self.cfg["tt_entries"])
        self.address = None

    def show(self, now):
        pass

    def finder(self):
        return FakeFinder(self.net, self.host)

    def peer(self, host, port, token=None):
        net = self.net
        return Peer(host, port, token, sockets=lambda: FakeClient(net), poller=ClientPoller(),
                    clock=self.face.app.clock)


class FakeFinder:
    """connect4.net.finder.Finder as the menu's page uses it: the other boards up on the net."""

    def __init__(self, net, own):
        self.net = net
        self.own = own
        self.found = []

    def pump(self):
        self.found = [("connect4-" + host[-4:], host, 80) for host in sorted(self.net.hosts) if host != self.own]

    def resolve(self, digits):
        for host in self.net.hosts:
            if host.endswith(digits):
                return "connect4-" + digits, host, 80
        return None

    def close(self):
        pass


CFG = {}


class Boards:
    """Two boards, `hold` and `ask`, on one Net and one FakeClock, stepped together."""

    def __init__(self, name, buttons=False):
        self.net = Net()
        self.clock = FakeClock()
        self.name = name
        self.buttons = buttons
        self.flash = {"hold": tmpdir(name + "h"), "ask": tmpdir(name + "a")}
        self.restarts = 0  # the boards' own restarts (a game of two boards left)
        self.hold = self.board("hold")
        self.ask = self.board("ask")
        self.run(1600)  # the intro over: a game on each

    def board(self, which, after_crash=False):
        """The board `which` powered on (its flash as the last one left it)."""
        host = "10.0.0.%s" % ("1C47" if which == "hold" else "2A5B")
        net = self.net

        def factory(app, cfg):
            return FakeLink(Face(app), cfg, net, host, host[-4:])
        return Rig(self.name + which, buttons=self.buttons, cfg=CFG, node_rate=0, wifi=factory,
                   clock=self.clock, flash=self.flash[which], after_crash=after_crash)

    def off(self, which):
        """Power `which` off: its network gone with it (the rest of it is dropped)."""
        link = getattr(self, which).app.link
        if link is not None:
            self.net.hosts.pop(link.host, None)
        setattr(self, which, None)

    def on(self, which):
        """Power `which` on again, on its flash as the cut left it."""
        rig = self.board(which)
        setattr(self, which, rig)
        return rig

    def rigs(self):
        return [r for r in (self.hold, self.ask) if r is not None]

    def step(self):
        """One loop step of each board; a board whose app stopped to restart (connect4.boot:
        a game of two boards left) starts again on its flash, as the chip does."""
        for which in ("hold", "ask"):
            rig = getattr(self, which)
            if rig is None:
                continue
            rig.app.step()
            if rig.app.stopped and rig.app.restart:
                rig.app.close()
                self.restarts += 1
                self.on(which)
        self.clock.sleep_ms(2)

    def run(self, ms):
        end = self.clock.elapsed + ms
        while self.clock.elapsed < end:
            self.step()

    def run_until(self, cond, limit=60000):
        end = self.clock.elapsed + limit
        while not cond():
            assert self.clock.elapsed < end, "timed out: %s" % self.describe()
            self.step()
        return self.clock.elapsed

    def describe(self):
        return "; ".join("%s state %d moves %s duo %s" % (
            "hold" if rig is self.hold else "ask", rig.app.state, rig.app.board.moves_string() or "-",
            None if rig.app.duo is None else "lost" if rig.app.duo.lost else "on") for rig in self.rigs())

    # ---- input on one board while both run
    def press(self, rig, ms=80):
        self.clock.at(0, rig.select, 0)
        self.clock.at(ms, rig.select, 1)
        self.run(ms + 60)

    def turn(self, rig, steps):
        for _ in range(abs(steps)):
            if rig.buttons:
                pin = rig.right if steps > 0 else rig.left
                self.clock.at(0, pin, 0)
                self.clock.at(70, pin, 1)
                self.run(130)
            else:
                first, second = (rig.b, rig.a) if steps > 0 else (rig.a, rig.b)
                for k, (pin, level) in enumerate(((first, 0), (second, 0), (first, 1), (second, 1))):
                    self.clock.at(4 * k, pin, level)
                self.run(24)

    def menu_to(self, rig, item):
        """The menu open on `rig`, at `item`."""
        from connect4.app import menu as menu_mod
        from connect4.app.game import MENU
        if rig.app.banner is not None:
            self.turn(rig, 1)  # (ends the text scrolling: an input ends it, and only that)
        if rig.app.state != MENU:
            self.press(rig, 1000)
        assert rig.app.state == MENU, rig.app.state
        self.turn(rig, menu_mod.ITEMS.index(item) - rig.app.menu.item)

    def digits(self, rig, text):
        """Four digits typed on the menu's page (each a turn from 0, then a press)."""
        for ch in text:
            self.turn(rig, "0123456789ABCDEF".index(ch))
            self.press(rig)

    def wifi_on(self, rig):
        """Wi-Fi on from the menu (its item confirmed), then the menu closed."""
        self.menu_to(rig, "wifi")
        self.press(rig)
        self.turn(rig, 1)
        self.press(rig)
        self.press(rig, 1000)

    def pair_and_play(self, level=0, wait=0, hold_level=0):
        """Both boards' Wi-Fi on, the asking board's "play a board": the holder picked, its code
        typed, this board's player (`level`: 0 the buttons) and waiting time: the game is on.
        The holder's side then handed to its AI at `hold_level` (its own menu's page)."""
        hold, ask = self.hold, self.ask
        self.menu_to(hold, "board")  # the holder shows its page too (it is asked there)
        self.press(hold)
        self.run(1500)
        self.turn(hold, 0)
        self.menu_to(ask, "board")
        self.press(ask)  # Wi-Fi comes on with the page
        self.run(1500)
        assert ask.app.banner is not None  # its own four digits and code scroll
        self.turn(ask, 1)  # (which a turn ends, and only that)
        page = ask.app.menu.games
        assert [b[0] for b in page.found] == ["connect4-1C47"], page.found
        self.press(ask)  # the board found
        self.digits(ask, hold.app.web.pairing.code)
        self.turn(ask, level)
        import sys
        assert "connect4.app.pagehost" not in sys.modules  # its steps PLAYER and WAIT (boardside) load
        # no second copy of the page's Host beside the one the page holds (0.6 KB on the chip)
        self.press(ask)
        from connect4.app.boardside import WAITS
        self.turn(ask, WAITS.index(wait))
        restarts = self.restarts
        self.press(ask)  # both boards restart into the game (connect4.app.boards)
        self.run_until(lambda: self.restarts == restarts + 2 and self.ask.app.duo is not None
                       and self.hold.app.duo is not None
                       and self.ask.app.duo.fields["game"] == self.hold.app.duo.fields["game"] == 1, 10000)
        if hold_level:
            self.player(self.hold, hold_level)
        hold, ask = self.hold, self.ask
        return hold.app.duo, ask.app.duo

    def side(self, rig):
        """During the game: a long press, this board's side shown (connect4.app.boardside's page
        in the menu's place). Returns the page."""
        from connect4.app.game import MENU
        if rig.app.banner is not None:
            self.turn(rig, 1)  # (ends the text scrolling: an input ends it, and only that)
        self.press(rig, 1000)
        assert rig.app.state == MENU and type(rig.app.menu.games).__name__ == "Side", rig.app.state
        return rig.app.menu.games

    def player(self, rig, level, wait=None):
        """During the game: this board's side handed to its AI at `level` (0: its buttons)."""
        from connect4.app.boardside import WAITS
        page = self.side(rig)
        self.turn(rig, level - page.level)
        self.press(rig)
        if wait is not None:
            self.turn(rig, WAITS.index(wait) - WAITS.index(page.wait))
        self.press(rig)

    def drop(self, rig, col):
        """A person's move on `rig`: the cursor to column `col` (0-based), a press (a turn first
        ends the text scrolling there, if any: an input ends it, and only that)."""
        if rig.app.banner is not None:
            self.turn(rig, 1)
        self.turn(rig, col - rig.app.cursor)
        assert rig.app.cursor == col, (rig.app.cursor, col, rig.app.board.moves_string())
        self.press(rig)
