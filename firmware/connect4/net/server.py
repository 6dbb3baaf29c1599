"""The web server: the API (connect4.net.api) and the page over plain sockets, pumped by the game loop.

The project's own, not a library's: microdot and asyncio held 49 KB of the chip's
heap with Wi-Fi on, enough to push the GC heap into the memory lwIP and the Wi-Fi
driver need (docs/web.md#cost). This is the little the page and the API use.

The game loop is synchronous and the AI's search blocks, so the server never owns
the thread: `pump()` looks once at the sockets (a poll that does not wait) and
does what they are ready for, at every loop step (App.step) and at every poll of
the search (connect4.app.turn's Turn._poll). Handlers run there, in the game's
thread; writes are queued for the app (api.py), so a handler never changes the
game under the search.

One request a connection (HTTP/1.0, Connection: close): its bytes are read into
a bounded buffer, line by line; the answer is written as the socket takes it
(the page from flash, CHUNK bytes at a time through one buffer); then the
connection closes. /api/events stays open: a live stream of server-sent events.

Bounds: MAX_CLIENTS connections at once, MAX_STREAMS of them live streams; a new
one takes the slot of the oldest still waiting for its request once that one has
waited GRACE_MS (503 only when every slot holds an answer or a live page), so idle
sockets shut nobody out; a request must arrive whole within
REQUEST_MS and in at most MAX_LINES lines of at most MAX_LINE bytes, its body at
most MAX_BODY bytes (413); a client that stops reading is dropped after
WRITE_MS. When the network's heap is below its floor (`net_free`, `min_free`),
new connections get a short 503 and the state says `low_memory`. The only file
served is the page, by a fixed name: no URL reaches a file.
"""
import gc
import json
import os
from errno import EAGAIN
from micropython import const
from time import ticks_ms, ticks_diff

from connect4.net.api import Api, MAX_BODY

MAX_CLIENTS = const(4)
MAX_STREAMS = const(2)
REQUEST_MS = const(1000)  # a request whole within this, or closed: an idle socket holds no slot long
WRITE_MS = const(5000)
MAX_LINES = const(24)
MAX_LINE = const(512)
EVENT_MS = const(200)  # how often a live stream looks for a change
# a live stream quiet this long sends `event: alive`: a page that hears nothing for a few of
# them says the board cannot be reached
KEEPALIVE_MS = const(1600)
CHUNK = const(512)  # the page goes out, and every socket is read, this many bytes at a time,
# through one buffer (each use takes what it holds at once: a read's bytes are copied out,
# a page chunk not all sent is read again from its file)
GRACE_MS = const(50)  # a connection waiting for its request this long may make room for a new one
# connections the network stack holds until taken; on the chip lwIP holds 12 TCP connections in
# all (MicroPython's ESP32 build), so its own limit binds before this one
BACKLOG = const(10)
NET_MIN_FREE = const(12288)  # bytes of the network's heap below which new connections get 503
PAGE = "page.html.gz"  # for a client that accepts gzip (every browser)
PLAIN_PAGE = "page.html"  # for one that does not (curl without --compressed); without it: 406
# the reason phrases of the statuses the API answers (RFC 9110)
REASONS = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
           405: "Method Not Allowed", 406: "Not Acceptable", 409: "Conflict", 413: "Payload Too Large",
           429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable",
           507: "Insufficient Storage"}
SHORT = "the board is short of memory: try again"
# The API's routes: (method, path, the Api method, what it is handed: 0 nothing, 1 the body,
# 2 the Authorization header and the body, 3 the Authorization header, 4 nothing, its answer
# an iterator of the JSON's pieces, sent as they come). A route is one line here.
ROUTES = (
    ("GET", "/api/state", "state", 3),
    ("GET", "/api/settings", "settings", 0),
    ("POST", "/api/settings", "set_settings", 2),
    ("GET", "/api/games", "games", 4),  # 4: no arguments, the answer in pieces (Api.games)
    ("POST", "/api/pair", "pair", 1),
    ("POST", "/api/forget", "forget", 2),
    ("POST", "/api/move", "move", 2),
    ("POST", "/api/new", "new", 2),
    ("POST", "/api/board", "board", 2),  # a game of two boards: the other board's own (Api.board)
)

_READ = const(0)  # a connection's states: reading its request,
_WRITE = const(1)  # writing its answer (then closed),
_STREAM = const(2)  # a live stream
_IN = const(1)  # select.POLLIN, POLLOUT (the same numbers on the chip and on POSIX hosts)
_OUT = const(4)


def accepts_gzip(header):
    """Does an Accept-Encoding header (bytes) allow gzip (RFC 9110 12.5.3: `gzip` or `*`, q not 0)?"""
    for item in header.lower().split(b","):
        parts = item.split(b";")
        if parts[0].strip() not in (b"gzip", b"*"):
            continue
        q = 1.0
        for p in parts[1:]:
            p = p.strip()
            if p.startswith(b"q="):
                try:
                    q = float(p[2:])
                except ValueError:
                    q = 0.0
        if q > 0:
            return True
    return False


def _here():
    f = __file__
    i = max(f.rfind("/"), f.rfind("\\"))
    return f[:i + 1] if i >= 0 else ""


def _head(status, kind, length=-1, more=""):
    """The status line and headers of an answer (no Content-Length when length < 0)."""
    return ("HTTP/1.0 %d %s\r\nContent-Type: %s\r\n%s%sCache-Control: no-store\r\nConnection: close\r\n\r\n"
            % (status, REASONS.get(status, ""), kind,
               "Content-Length: %d\r\n" % length if length >= 0 else "", more)).encode()


def _json(status, data):
    body = json.dumps(data).encode()
    return _head(status, "application/json", len(body)) + body


def _fd(sock):
    """What a poll names this socket by: the object on MicroPython, its number on CPython."""
    f = getattr(sock, "fileno", None)
    return f() if f else sock


def _recv_into(sock, buf):
    """Bytes the socket put into `buf` (0: the client closed), or None while it has none:
    read into the server's one buffer, never into a new one. (A `recv(1024)` allocates 1 KB
    at once; on the chip's heap, fragmented and near full with Wi-Fi on, that one block
    was what made MicroPython grow its heap into the ESP-IDF memory the network needs.)"""
    # MicroPython's socket is a stream (readinto: None while nothing has come); CPython's, the
    # simulator's, has recv_into (EAGAIN while nothing has come)
    read = getattr(sock, "readinto", None) or sock.recv_into
    try:
        return read(buf)
    except OSError as e:
        if e.args[0] == EAGAIN:
            return None
        raise


def _close_socket(sock, buf):
    """Close, after reading what the client sent and nobody read (else the stack may
    answer it with a reset, and the client lose the answer just written)."""
    try:
        _recv_into(sock, buf)
    except Exception:
        pass
    try:
        sock.close()
    except Exception:
        pass


class _Conn:
    def __init__(self, sock, now):
        self.sock = sock
        self.fd = _fd(sock)
        self.state = _READ
        self.t = now  # taken, or the last progress
        self.since = now  # taken
        self.buf = b""  # the request's bytes not yet parsed
        self.lines = 0  # of the request's head read; -1 once it is all read
        self.want = 0  # its body's length
        self.method = self.path = self.auth = None
        self.gzip = False
        self.out = b""  # bytes being written, from self.off
        self.off = 0
        self.file = None  # the page, being sent
        self.more = None  # an answer's pieces still to send (an iterator of bytes), or None
        self.last = 0  # a live stream's last state, as its hash (its text would hold ~0.5 KB a page)
        self.ev = 0  # what the poll said this round
        self.mask = 0  # what the poll watches


class Server:
    """The server for a game's face (connect4.app.face.Face): `start(host, port)`, then the
    app calls `pump()`.

    pairing: a connect4.net.pairing.Pairing (its code is what the board shows);
    netconf: the Wi-Fi settings (`configured()`, `set_network()`: connect4.net.link's Link on
    the board, a connect4.net.netconf.NetConf in the simulator) or None; games: a
    callable giving the recorded games, or None; net_free: a callable giving the
    bytes free where the network allocates (connect4.net.wifi.net_free), or None;
    min_free: below it, new connections get 503.
    """

    def __init__(self, face, pairing, netconf=None, games=None, net_free=None, min_free=NET_MIN_FREE):
        self.api = Api(face, pairing, netconf, games)
        self.pairing = pairing
        self.net_free = net_free
        self.min_free = min_free
        self.sock = None
        self.lfd = None
        self.poller = self.ipoll = None
        self.conns = []
        self.streams = 0
        self.served = 0  # answers made
        self.refused = 0  # connections turned away (every slot busy, or short of memory)
        self.dropped = 0  # connections closed to make room
        self.short = 0  # ... of the refused, for the network's memory below its floor
        self.slowest = 0  # ms from taking a connection to its answer's last byte, the most
        self.slow = 0  # answers that took over a second so (the chip tests read both)
        self.errors = 0  # exceptions caught (a handler's, or the server's own)
        self.last = None  # the last of them
        self.tick = ticks_ms()  # the live streams' last look
        self.chunk = bytearray(CHUNK)
        self.page = _here() + PAGE
        self.attach(face)

    def attach(self, face):
        """Serve this face's app (the simulator's --web keeps its server across restarts of
        the app) and let it pump."""
        self.api.face = face
        face.set_pump(self.pump)
        face.web = self

    # ---- running
    def start(self, host="0.0.0.0", port=80):
        """Listen on host:port; raises the OSError of a port that cannot be had."""
        import socket
        import select
        s = socket.socket()
        try:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(socket.getaddrinfo(host, port)[0][-1])
            s.listen(BACKLOG)
            s.setblocking(False)
        except Exception:
            s.close()
            raise
        return self.use(s, select.poll())

    def use(self, sock, poller):
        """Serve on this listening socket, watched by this poll (start()'s; the tests' fakes)."""
        self.sock = sock
        self.lfd = _fd(sock)
        self.poller = poller
        self.ipoll = getattr(poller, "ipoll", poller.poll)  # MicroPython's ipoll allocates nothing
        poller.register(sock, _IN)
        return self

    def stop(self):
        """Close the listening socket and every connection still open."""
        while self.conns:
            self._close(self.conns[-1])
        if self.sock is not None:
            _close_socket(self.sock, self.chunk)
            self.sock = None
        self.poller = None

    def pump(self):
        """Do what the sockets are ready for, without waiting. Never raises."""
        if self.poller is None:
            return
        try:
            self._round()
        except Exception as e:
            self._fail(e)

    def _round(self):
        conns = self.conns
        new = False
        for entry in self.ipoll(0):  # type: ignore[misc]  # (pump: set)
            who = entry[0]
            if who is self.sock or who == self.lfd:
                new = True
                continue
            for c in conns:
                if who is c.sock or who == c.fd:
                    c.ev = entry[1]
        now = ticks_ms()
        text = None
        if self.streams and ticks_diff(now, self.tick) >= EVENT_MS:
            self.tick = now
            try:
                self._short(now)
                text = json.dumps(self.api.live())
            except Exception as e:  # (a MemoryError): the live pages hear it next time
                self._fail(e)
        i = len(conns)
        while i:  # backwards: a connection closed leaves the ones before it in place
            i -= 1
            self._run(conns[i], text, now)
        n = MAX_CLIENTS if new else 0
        while n:
            n -= 1
            if len(conns) >= MAX_CLIENTS:
                old = self._oldest()
                if old is not None and ticks_diff(now, old.t) < GRACE_MS:
                    break  # each has had too little time to send its request: the next waits
            try:
                sock = self.sock.accept()[0]  # type: ignore[union-attr]
            except OSError:  # none waiting
                break
            try:
                self._take(sock, now)
            except Exception as e:  # before it had a slot: closed, never left open
                self._fail(e)
                _close_socket(sock, self.chunk)

    def _run(self, c, text, now):
        """A connection's step; whatever goes wrong in it closes it, and only it."""
        try:
            self._step(c, text, now)
        except MemoryError:
            self._close(c, SHORT)
        except Exception as e:
            self._fail(e)
            self._close(c)

    def _step(self, c, text, now):
        ev = c.ev
        if ev:
            c.ev = 0
            if c.state != _WRITE and ev != _OUT:  # a request's bytes, or a live page gone
                try:
                    n = _recv_into(c.sock, self.chunk)
                except OSError:
                    n = 0
                if n == 0:  # closed (or reset) before a whole request, or a live page gone
                    return self._close(c)
                if n and c.state == _READ:
                    self._feed(c, bytes(memoryview(self.chunk)[:n]), now)
            if c.state != _READ:  # an answer, the page or an event to write on
                self._write(c, now)
            if c.sock is None:
                return
        if c.state == _STREAM and text is not None and not c.out:
            if hash(text) != c.last:
                c.last = hash(text)
                c.out = b"event: state\ndata: " + text.encode() + b"\n\n"
            elif ticks_diff(now, c.t) >= KEEPALIVE_MS:
                c.out = b"event: alive\ndata: 1\n\n"  # a comment would not reach the page's script
            if c.out:
                c.t = now
                self._write(c, now)
        if c.sock is not None and (c.state != _STREAM or c.out) and ticks_diff(now, c.t) > (
                REQUEST_MS if c.state == _READ else WRITE_MS):
            self._close(c)  # too slow sending its request, or not reading its answer

    def _take(self, sock, now):
        """A new connection: turned away when the network is short of memory, or when every
        slot holds an answer or a live page; else in the slot of the oldest one still
        waiting for its request, if none is free."""
        sock.setblocking(False)
        if self._short(now):
            self.short += 1
            return self._refuse(sock, SHORT)
        conns = self.conns
        if len(conns) >= MAX_CLIENTS:
            old = self._oldest()
            if old is None:
                return self._refuse(sock, "busy: try again")
            self.dropped += 1
            self._close(old)
        c = _Conn(sock, now)
        conns.append(c)
        self._watch(c)
        c.ev = _IN  # its request is often there already: read, and answered, at once
        self._run(c, None, now)

    def _oldest(self):
        """The connection waiting longest for its request, or None."""
        old = None
        for c in self.conns:
            if c.state == _READ and (old is None or ticks_diff(c.t, old.t) < 0):
                old = c
        return old

    def _refuse(self, sock, message):
        self.refused += 1
        try:
            sock.send(_json(503, {"error": message}))
        except Exception:
            pass
        _close_socket(sock, self.chunk)

    def _free(self):
        """The network's heap's free bytes (None: not known, off the chip)."""
        if self.net_free is not None:
            try:
                return self.net_free()
            except Exception as e:
                self._fail(e)
        return None

    def _short(self, now):
        """Is the network's heap below its floor? The state says so, and the matrix once.
        Below it, a collection first: an area the GC heap took from the network's memory
        while full goes back once empty (MicroPython gives an empty area back)."""
        free = self._free()
        if free is not None and free < self.min_free:
            gc.collect()
            free = self._free()
        low = free is not None and free < self.min_free
        api = self.api
        if low and not api.low_memory:
            try:
                api.face.say([("LOW MEMORY", "red")], now)
            except Exception as e:
                self._fail(e)
        api.low_memory = low
        return low

    # ---- a request
    def _feed(self, c, data, now):
        """Read the request's lines as they come (only what is used is kept), then its body."""
        buf = c.buf + data if c.buf else data
        while c.lines >= 0:  # the head; -1 once read
            i = buf.find(b"\n")
            if i < 0:
                if len(buf) > MAX_LINE:
                    return self._error(c, 400, now)
                break
            line = buf[:i].rstrip(b"\r")
            buf = buf[i + 1:]
            c.lines += 1
            status = self._line(c, line) if i <= MAX_LINE and c.lines <= MAX_LINES else 400
            if status:
                return self._error(c, status, now)
        if c.lines >= 0 or len(buf) < c.want:
            c.buf = buf
            return
        c.buf = b""
        self._route(c, buf[:c.want], now)

    def _line(self, c, line):
        """Take one line of the request's head; an error status, or None."""
        if c.lines == 1:
            parts = line.split()
            if len(parts) != 3 or not parts[2].startswith(b"HTTP/"):
                return 400
            try:
                c.method = parts[0].decode()
                c.path = parts[1].split(b"?")[0].decode()
            except UnicodeError:
                return 400
        elif not line:
            c.lines = -1
        else:
            name, colon, value = line.partition(b":")
            if not colon:
                return 400
            name = name.strip().lower()
            value = value.strip()
            if name == b"content-length":
                try:
                    c.want = int(value)
                except ValueError:
                    return 400
                if c.want < 0:
                    return 400
                if c.want > MAX_BODY:
                    return 413
            elif name == b"authorization":
                try:
                    c.auth = value.decode()
                except UnicodeError:
                    pass
            elif name == b"accept-encoding":
                c.gzip = accepts_gzip(value)
        return None

    def _route(self, c, body, now):
        method, path = c.method, c.path
        if path == "/" or path == "/api/events":
            if method != "GET":
                return self._error(c, 405, now)
            if path == "/":
                return self._page(c, now)
            return self._stream(c, now)
        known = False
        for m, p, name, takes in ROUTES:
            if p == path:
                if m == method:
                    fn = getattr(self.api, name)
                    try:
                        status, data = (fn() if takes == 0 or takes == 4 else fn(body) if takes == 1
                                        else fn(c.auth) if takes == 3 else fn(c.auth, body))
                    except MemoryError:  # the game untouched (handlers only queue writes)
                        status, data = 503, {"error": SHORT}
                    except Exception as e:
                        self._fail(e)
                        status, data = 500, {"error": "internal error"}
                    if takes == 4 and status == 200:  # its pieces follow the head (_write)
                        c.more = data
                        return self._answer(c, _head(200, "application/json"), now)
                    return self._answer(c, _json(status, data), now)
                known = True
        self._error(c, 405 if known else 404, now)

    def _page(self, c, now):
        path = self.page if c.gzip else _here() + PLAIN_PAGE
        try:
            size = os.stat(path)[6]
            c.file = open(path, "rb")
        except OSError:
            if c.gzip:
                return self._error(c, 404, now)
            text = b"this board sends its page gzip-compressed only: use a browser, or curl --compressed\n"
            return self._answer(c, _head(406, "text/plain", len(text)) + text, now)
        self._answer(c, _head(200, "text/html; charset=UTF-8", size,
                              "Content-Encoding: gzip\r\n" if c.gzip else ""), now)

    def _stream(self, c, now):
        if self.streams >= MAX_STREAMS:
            return self._answer(c, _head(200, "text/event-stream")
                                + b'event: busy\ndata: {"error": "too many live pages: refresh later"}\n\n', now)
        if not self.streams:
            self.tick = now  # the first live stream: its next look in EVENT_MS
        self.streams += 1
        c.state = _STREAM
        text = json.dumps(self.api.live())
        c.last = hash(text)
        self._answer(c, _head(200, "text/event-stream") + b"event: state\ndata: " + text.encode() + b"\n\n", now)

    def _error(self, c, status, now):
        """{"error": the reason phrase, in lower case}: 400, 404, 405, 413."""
        self._answer(c, _json(status, {"error": REASONS[status].lower()}), now)

    def _answer(self, c, out, now):
        """Write `out` (then the page's file, if open), then close, or for a live stream, wait."""
        self.served += 1
        if c.state == _READ:
            c.state = _WRITE
        c.out = out
        c.off = 0
        c.t = now
        self._write(c, now)

    def _write(self, c, now):
        chunk = self.chunk
        while c.sock is not None:
            if c.off < len(c.out):
                n = self._send(c, memoryview(c.out)[c.off:])
                if not n:
                    return
                c.off += n
                c.t = now
                continue
            c.out = b""
            c.off = 0
            if c.more is not None:
                try:
                    c.out = next(c.more)
                except StopIteration:
                    c.more = None
                continue
            f = c.file
            if f is None:
                if c.state == _WRITE:
                    took = ticks_diff(now, c.since)
                    if took > self.slowest:
                        self.slowest = took
                    if took > 1000:
                        self.slow += 1
                    self._close(c)
                else:
                    self._watch(c)
                return
            n = f.readinto(chunk)
            if not n:
                f.close()
                c.file = None
                continue
            sent = self._send(c, memoryview(chunk)[:n])
            if sent:
                c.t = now
            if sent is not None and sent < n:
                f.seek(sent - n, 1)  # back to the first byte not sent: the buffer is shared
                return

    def _send(self, c, data):
        """Bytes the socket took (0: none now), or None when the client is gone (closed)."""
        try:
            n = c.sock.send(data)
        except OSError as e:
            if e.args[0] == EAGAIN:
                n = 0
            else:
                self._close(c)
                return None
        if n < len(data):
            self._watch(c, _OUT)
        return n

    def _watch(self, c, mask=0):
        """Have the poll watch what this connection waits for."""
        if not mask:
            mask = _OUT if c.state == _WRITE or c.out else _IN
        if c.state == _STREAM:
            mask |= _IN  # a live page gone: its socket reads its end
        if mask != c.mask and self.poller is not None:
            if c.mask:
                self.poller.modify(c.sock, mask)
            else:
                self.poller.register(c.sock, mask)
            c.mask = mask

    def _close(self, c, message=None):
        if c.sock is None:
            return
        if c in self.conns:
            self.conns.remove(c)
        if c.state == _STREAM:
            self.streams -= 1
        if c.file is not None:
            c.file.close()
            c.file = None
        if c.more is not None:  # an answer cut short: its source closed now (its file)
            more = c.more
            c.more = None
            more.close()
        if c.mask and self.poller is not None:
            try:
                self.poller.unregister(c.sock)
            except Exception:
                pass
        sock = c.sock
        c.sock = None
        c.out = c.buf = b""
        if message is not None and c.state == _READ:
            self._refuse(sock, message)
        else:
            _close_socket(sock, self.chunk)

    def _fail(self, e):
        self.errors += 1
        try:
            self.last = repr(e)
        except MemoryError:
            pass
