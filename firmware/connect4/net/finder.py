"""Boards on this network: each one's name and where its page is (the menu's "play a board").

Two ways, each measured in docs/benchmarks.md:
- `Finder(targets, host, port, own)`, while the menu's "play a board" page is
  open, answers other boards' `connect4?` on the UDP port of the page's number
  with `connect4 OWN PORT`, and asks, every ASK_MS that it is pumped, each of
  `targets` ("HOST" or "HOST:PORT"; the config's `board_find` if set, else
  BROADCAST, 255.255.255.255; the addresses of boards a broadcast
  does not reach) with its own `connect4?`; `found` lists the boards that
  answered, [(name, host, port)] in the order heard, this one left out. So two
  boards find each other when both show the page; one UDP socket, for as long.
- `resolve(digits, port)`: the board of these four hex digits by its name,
  `connect4-XXXX.local`, where mDNS works (a home network; not a board's own
  access point), whatever it shows; it waits for the answer, up to 5 s on the chip.

Loaded for the menu's page only (`finder`: connect4.app.boards), gone with it.
"""
from micropython import const
from time import ticks_ms, ticks_diff, ticks_add

BROADCAST = ("255.255.255.255",)  # where boards are looked for, unless the config's board_find says
ASK_MS = const(1000)
MOST = const(6)  # boards listed at most
PREFIX = "connect4-"


class Finder:
    def __init__(self, targets, host, port, own):
        self.to = []
        for t in targets:
            h, _, p = t.partition(":")
            self.to.append((h, int(p) if p else port))
        self.own = own
        self.port = port
        self.found = []
        self.next = ticks_ms()
        import socket  # (here: a link that brings its own finder needs none: the tests' fakes)
        s = self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
            s.setblocking(False)
        except Exception:
            s.close()
            raise
        try:  # the page's port: other boards' questions come there (taken: this one only asks)
            s.bind(socket.getaddrinfo(host, port)[0][-1])
        except OSError:
            pass

    def pump(self):
        """Answer, and ask again when it is time; take the answers that came. Never raises."""
        now = ticks_ms()
        s = self.sock
        if ticks_diff(now, self.next) >= 0:
            self.next = ticks_add(now, ASK_MS)
            for addr in self.to:
                try:
                    s.sendto(b"connect4?", addr)
                except OSError:  # (no route: Wi-Fi still joining)
                    pass
        while True:
            try:
                data, addr = s.recvfrom(48)
                if data == b"connect4?":
                    s.sendto(("connect4 %s %d" % (self.own, self.port)).encode(), addr)
                    continue
                words = data.decode().split(" ")
                name = words[1]
                board = (name, addr[0], int(words[2]))
                if (len(words) == 3 and words[0] == "connect4" and name.startswith(PREFIX)
                        and name != self.own and board not in self.found and len(self.found) < MOST):
                    self.found.append(board)
                    print("connect4: found %s at %s:%d" % board)
            except (OSError, ValueError, IndexError):  # (OSError: none waiting)
                return

    def resolve(self, digits):
        """The board of these four hex digits, by its name (mDNS): `resolve` below."""
        return resolve(digits, self.port)

    def close(self):
        self.sock.close()


def finder(link, cfg):
    """A Finder for the menu's page: the config's `board_find` asked at the page's port, this
    board named as `link` names it; or the link's own, if it brings one (the tests' fake network)."""
    make = getattr(link, "finder", None)
    if make is not None:
        return make()
    return Finder(cfg.get("board_find", BROADCAST), cfg["web_host"], cfg["web_port"] or 80, link.name)


def resolve(digits, port):
    """(name, host, port) of the board connect4-`digits`, asked by mDNS; None if not found."""
    import socket
    name = PREFIX + digits
    try:
        return name, socket.getaddrinfo(name + ".local", port)[0][-1][0], port
    except Exception:  # (OSError: not found; mDNS not there)
        return None
