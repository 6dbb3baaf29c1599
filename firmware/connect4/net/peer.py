"""A client of another board's page, one request at a time, that never waits (two boards, one game).

The board that asked for a game of two boards (connect4.app.twoboards) talks to
the board that holds it through this: `start(method, path, data)` begins a
request (its token, if it has one, in the Authorization header), and `pump()`
moves it on with one poll of its socket that does not wait (the game loop and
the AI's search call it, as they call the server's) and returns None until the
request is over: then (status, the JSON answer), or (0, None) when no answer
came within TIMEOUT_MS (no connection, a board gone, a bad answer). `ask()`
does all that at once, waiting (a board leaving the game tells the other one).

Its heap: one buffer of BUF bytes, made once, takes every answer (the other
board's answers are short: a few headers and a small JSON object; a longer one
is no answer); the request itself is a few hundred bytes, made for it. Loaded
for a game of two boards only (`peer`: connect4.app.boards and boardask), gone
with it.
"""
import json
from errno import EINPROGRESS, EAGAIN
from micropython import const

import time
from connect4.net.server import _recv_into, _fd

TIMEOUT_MS = const(1500)  # a request's answer, whole, within this
BUF = const(320)  # the longest answer, an 8x7 game's at the holder, about 250 B with its head
_IN = const(1)  # select.POLLIN, POLLOUT
_OUT = const(4)
_IDLE = const(0)  # the states: nothing under way,
_SEND = const(1)  # connecting and sending,
_READ = const(2)  # reading the answer,
_FAILED = const(3)  # failed, not yet said


def _socket():
    import socket
    return socket.socket()


def _poll():
    import select
    return select.poll()


def peer(link, host, port, token=None):
    """A Peer of the board at host:port; or the `link`'s own, if it brings one (the tests'
    fake network: connect4.net.link's Link has none)."""
    make = getattr(link, "peer", None)
    return make(host, port, token) if make is not None else Peer(host, port, token)


class Peer:
    """The page of the board at `host` (an IP address: connect4.net.finder's) and `port`;
    `token`: its pairing's, once paired. `sockets`, `poller`, `clock`: the tests' fakes."""

    def __init__(self, host, port, token=None, sockets=_socket, poller=None, clock=time):
        self.host = host
        self.port = port
        self.token = token
        self.sockets = sockets
        self.poller = poller if poller is not None else _poll()
        self.ipoll = getattr(self.poller, "ipoll", self.poller.poll)
        self.clock = clock
        self.buf = bytearray(BUF)
        self.sock = None
        self.fd = None
        self.state = _IDLE
        self.out = b""
        self.n = 0
        self.t = 0

    def idle(self):
        return self.state == _IDLE

    def start(self, method, path, data=None):
        """Begin a request (one under way is dropped)."""
        self.close()
        body = b"" if data is None else json.dumps(data).encode()
        head = "%s %s HTTP/1.0\r\nHost: %s\r\nContent-Length: %d\r\n" % (method, path, self.host, len(body))
        if self.token:
            head += "Authorization: Bearer %s\r\n" % self.token
        self.out = (head + "\r\n").encode() + body
        self.n = 0
        self.t = self.clock.ticks_ms()
        self.state = _SEND
        try:
            s = self.sock = self.sockets()
            self.fd = _fd(s)
            s.setblocking(False)
            try:
                s.connect((self.host, self.port))
            except OSError as e:
                if e.args[0] != EINPROGRESS and e.args[0] != EAGAIN:
                    raise
            self.poller.register(s, _OUT)
        except Exception:  # (OSError: no network; MemoryError): said by the next pump
            self.close()
            self.state = _FAILED

    def pump(self):
        """Move the request on; None while under way (or none is), else (status, answer)."""
        state = self.state
        if state == _IDLE:
            return None
        if state == _FAILED:
            self.state = _IDLE
            return 0, None
        s = self.sock
        try:
            for entry in self.ipoll(0):  # type: ignore[operator]
                if entry[0] is not s and entry[0] != self.fd:
                    continue
                ev = entry[1]
                if self.state == _SEND:
                    if not ev & _OUT:
                        raise OSError(0)  # an error, or the other end hung up, before the request
                    n = s.send(self.out)  # type: ignore[union-attr]
                    self.out = self.out[n:]
                    if not self.out:
                        self.state = _READ
                        self.poller.modify(s, _IN)
                    continue
                got = _recv_into(s, memoryview(self.buf)[self.n:])
                if got is None:
                    continue
                self.n += got
                if not got or self.n == BUF:  # the answer's end: the other board closed
                    return self._done()
        except Exception:  # (OSError: reset, refused, unreachable)
            return self._failed()
        if self.clock.ticks_diff(self.clock.ticks_ms(), self.t) > TIMEOUT_MS:
            return self._failed()
        return None

    def ask(self, method, path, data=None):
        """A request's answer, waited for (at most TIMEOUT_MS): (status, answer)."""
        self.start(method, path, data)
        while True:
            got = self.pump()
            if got is not None:
                return got
            self.clock.sleep_ms(5)

    def _done(self):
        text = bytes(memoryview(self.buf)[:self.n])
        self.close()
        try:
            head, _, body = text.partition(b"\r\n\r\n")
            if not head.startswith(b"HTTP/"):
                return 0, None
            return int(head[9:12]), json.loads(body.decode()) if body else None
        except Exception:  # (ValueError, UnicodeError): not an answer of a board
            return 0, None

    def _failed(self):
        self.close()
        return 0, None

    def close(self):
        """Drop the request under way, if any."""
        s = self.sock
        self.state = _IDLE
        if s is None:
            return
        self.sock = self.fd = None
        try:
            self.poller.unregister(s)
        except Exception:
            pass
        try:
            s.close()
        except Exception:
            pass
