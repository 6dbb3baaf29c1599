"""A network without sockets for connect4.net.server (runs in MicroPython too).

FakeSocket is a client's connection as the server sees it: bytes the client
sent (`send_later` adds more), what the server wrote (`got`), how much a send
may take at a time (`take`: None = all, 0 = nothing: a client not reading).
FakeListener hands out queued connections; FakePoller answers the server's
poll from what those sockets hold. `listen(server, clock)` puts a Server
on them (Server.use, in place of start()'s real ones) with its clock, so `server.pump()` runs its
real path: poll, accept, read, route, write, close.
"""
EAGAIN = 11


class FakeSocket:
    def __init__(self, data=b"", take=None, eof=True, chunk=None):
        self.data = data  # sent by the client, not yet read by the server
        self.take = take
        self.chunk = chunk  # the most a recv returns (None: what it asks for)
        self.eof = eof  # the client has shut down its side once `data` is read
        self.got = b""
        self.closed = False

    def setblocking(self, flag):
        pass

    def recv(self, n):
        if self.closed:
            raise OSError(9)
        if not self.data:
            if self.eof:
                return b""
            raise OSError(EAGAIN)
        if self.chunk is not None:
            n = min(n, self.chunk)
        out = self.data[:n]
        self.data = self.data[n:]
        return out

    def readinto(self, buf):
        """As MicroPython's socket (a stream): the count read, 0 at the client's end, None while
        nothing has come (what the server reads with: connect4.net.server._recv_into)."""
        try:
            data = self.recv(len(buf))
        except OSError as e:
            if e.args[0] == EAGAIN:
                return None
            raise
        buf[:len(data)] = data
        return len(data)

    def send(self, data):
        if self.closed:
            raise OSError(32)
        n = len(data) if self.take is None else min(self.take, len(data))
        if not n:
            raise OSError(EAGAIN)
        self.got += bytes(data[:n])
        return n

    def close(self):
        self.closed = True

    def status(self):
        """The status code the server answered, or None."""
        return int(self.got.split(b" ")[1]) if self.got.startswith(b"HTTP/") else None

    def body(self):
        return self.got.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in self.got else b""

    def head(self):
        return self.got.split(b"\r\n\r\n", 1)[0]


class FakeListener:
    def __init__(self):
        self.waiting = []

    def accept(self):
        if not self.waiting:
            raise OSError(EAGAIN)
        return self.waiting.pop(0), ("192.168.4.2", 50000)

    def close(self):
        pass

    def recv(self, n):
        raise OSError(EAGAIN)

    def readinto(self, buf):
        return None


class FakePoller:
    def __init__(self, listener):
        self.listener = listener
        self.masks = {}  # id(socket) -> (socket, mask)

    def register(self, sock, mask):
        self.masks[id(sock)] = (sock, mask)

    def modify(self, sock, mask):
        if id(sock) not in self.masks:
            raise OSError(2)
        self.masks[id(sock)] = (sock, mask)

    def unregister(self, sock):
        del self.masks[id(sock)]

    def poll(self, timeout):
        out = []
        for sock, mask in self.masks.values():
            if sock is self.listener:
                if sock.waiting:
                    out.append((sock, 1))
                continue
            ev = (1 if sock.data or sock.eof else 0) & mask
            if mask & 4 and sock.take != 0:
                ev |= 4
            if ev:
                out.append((sock, ev))
        return out


def listen(server, clock=None):
    """Put `server` on a FakeListener (returned) and, if given, on the clock's ticks_ms."""
    from connect4.net import server as server_mod
    listener = FakeListener()
    server.use(listener, FakePoller(listener))
    if clock is not None:
        server_mod.ticks_ms = clock.ticks_ms
    return listener


def unlisten():
    """The server module back on the real clock."""
    from connect4.net import server as server_mod
    import time
    server_mod.ticks_ms = time.ticks_ms


def get(path, headers=b""):
    return b"GET " + path + b" HTTP/1.1\r\nHost: 192.168.4.1\r\n" + headers + b"\r\n"


def post(path, body, headers=b""):
    return (b"POST " + path + b" HTTP/1.1\r\nHost: 192.168.4.1\r\nContent-Length: " + str(len(body)).encode()
            + b"\r\n" + headers + b"\r\n" + body)
