"""The web server: the API (connect4.net.api) and the page on microdot, pumped by the game loop.

The game loop is synchronous and the AI's search blocks, so the server never
owns the thread: one asyncio event loop, made once, runs a round whenever
the app calls `pump()`: at every loop step (App.step) and at every poll of
the search (connect4.app.turn's Turn._poll, every poll_interval nodes: config.py says how often
that is on the chip; tools/data/chip.txt has the node rate). A request takes a few rounds; writes are queued for the
app (api.py), so a handler never changes the game under the search.

Bounds: MAX_CLIENTS connections at once (more get 503 and are closed),
MAX_STREAMS of them live event streams; a request must arrive whole within
REQUEST_MS and in at most MAX_LINES lines of at most MAX_LINE bytes, its
body at most MAX_BODY bytes (413); a client that stops reading is dropped
after WRITE_MS. The only file served is the page, by a fixed name: no URL
reaches a file. Handlers are coroutines: microdot runs plain functions in a
thread pool on CPython (here they would run in this thread anyway: _invoke),
and the game must be touched from its own thread only.
"""
import asyncio
import json
import os
from micropython import const
from time import ticks_ms, ticks_diff

from microdot import Microdot, Response
from microdot import microdot as _md
from microdot.sse import with_sse

from connect4.net.api import Api, MAX_BODY

MAX_CLIENTS = const(4)
MAX_STREAMS = const(2)
REQUEST_MS = const(3000)
WRITE_MS = const(5000)
MAX_LINES = const(24)
MAX_LINE = const(512)
EVENT_MS = const(200)  # how often a live stream looks for a change
# a live stream quiet this long sends `event: alive`: a page that hears nothing for a few of
# them says the board cannot be reached; also how soon a vanished live page frees its slot
KEEPALIVE_MS = const(1600)
STUCK_MS = const(WRITE_MS + 2 * EVENT_MS)  # events queued this long with nobody writing them: the answer is gone
BUSY_ROUNDS = const(4)  # rounds per pump while a client is connected
PAGE = "page.html.gz"  # for a client that accepts gzip (every browser)
PLAIN_PAGE = "page.html"  # for one that does not (curl without --compressed); without it: 406
# the reason phrases of the statuses the API answers (RFC 9110); microdot says "N/A" for all but 200
REASONS = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
           405: "Method Not Allowed", 406: "Not Acceptable", 409: "Conflict", 413: "Payload Too Large",
           429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable",
           507: "Insufficient Storage"}


def accepts_gzip(header):
    """Does an Accept-Encoding header allow gzip (RFC 9110 12.5.3: `gzip` or `*`, q not 0)?"""
    for item in (header or "").lower().split(","):
        parts = item.split(";")
        if parts[0].strip() not in ("gzip", "*"):
            continue
        q = 1.0
        for p in parts[1:]:
            p = p.strip()
            if p.startswith("q="):
                try:
                    q = float(p[2:])
                except ValueError:
                    q = 0.0
        if q > 0:
            return True
    return False


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _here():
    f = __file__
    i = max(f.rfind("/"), f.rfind("\\"))
    return f[:i + 1] if i >= 0 else ""


class _Quiet:
    """microdot prints a traceback for every request it cannot parse: on the
    board that is console time per malformed request. Counted here instead."""
    errors = 0
    last = None

    @classmethod
    def print_exception(cls, exc, *args):
        cls.errors += 1
        cls.last = repr(exc)


setattr(_md, "print_exception", _Quiet.print_exception)


async def _invoke(handler, *args, **kwargs):
    """microdot's invoke_handler, one way everywhere: the handler runs here, in the game's
    thread. (microdot picks a thread pool when it finds `inspect`, which CPython has and
    some MicroPython builds have too, and then needs CPython's asyncio.)"""
    ret = handler(*args, **kwargs)
    if hasattr(ret, "send"):
        ret = await ret
    return ret


setattr(_md, "invoke_handler", _invoke)


class _Reader:
    """The client's stream with a deadline for the whole request and a cap on its lines."""

    def __init__(self, stream):
        self.stream = stream
        self.start = ticks_ms()
        self.lines = 0

    def _left(self):
        left = REQUEST_MS - ticks_diff(ticks_ms(), self.start)
        if left <= 0:
            raise ValueError("request too slow")
        return left / 1000

    async def readline(self):
        self.lines += 1
        if self.lines > MAX_LINES:
            raise ValueError("too many header lines")
        line = await asyncio.wait_for(self.stream.readline(), self._left())
        if len(line) > MAX_LINE:
            raise ValueError("line too long")
        return line

    async def readexactly(self, n):
        return await asyncio.wait_for(self.stream.readexactly(n), self._left())

    async def read(self, n=-1):
        return await asyncio.wait_for(self.stream.read(n), self._left())


class _Writer:
    """The client's stream; a write that cannot finish in WRITE_MS counts as a broken pipe
    (errno 32, which microdot takes as a client gone: it ends the response quietly)."""

    def __init__(self, stream):
        self.stream = stream

    async def awrite(self, data):
        try:
            await asyncio.wait_for(self.stream.awrite(data), WRITE_MS / 1000)
        except asyncio.TimeoutError:
            raise OSError(32)

    async def aclose(self):
        try:
            await asyncio.wait_for(self.stream.aclose(), WRITE_MS / 1000)
        except Exception:
            pass

    def get_extra_info(self, name):
        return self.stream.get_extra_info(name)


class _Web(Microdot):
    def __init__(self):
        super().__init__()
        self.clients = 0
        self.streams = 0
        self.served = 0
        self.refused = 0

    async def handle_request(self, reader, writer):
        if self.clients >= MAX_CLIENTS:
            self.refused += 1
            try:
                await _Writer(writer).awrite(b"HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
            except Exception:
                pass
            await _Writer(writer).aclose()
            return
        self.clients += 1
        try:
            # the wrappers have the stream methods microdot uses (its stubs name CPython's classes)
            await Microdot.handle_request(self, _Reader(reader), _Writer(writer))  # type: ignore[arg-type]
            self.served += 1
        except Exception as e:  # a client gone at a bad moment: never the server's end
            _Quiet.print_exception(e)
            await _Writer(writer).aclose()
        finally:
            self.clients -= 1


def _reply(result):
    status, body = result
    return body, status, {"Cache-Control": "no-store"}


class Server:
    """The server for a game's face (connect4.app.face.Face): `start(host, port)`, then the
    app calls `pump()`.

    pairing: a connect4.net.pairing.Pairing (its code is what the board shows);
    netconf: the Wi-Fi settings (connect4.net.netconf) or None; games: a
    callable giving the recorded games, or None.
    """

    def __init__(self, face, pairing, netconf=None, games=None):
        self.api = Api(face, pairing, netconf, games)
        self.pairing = pairing
        self.web = _Web()
        self.loop = asyncio.new_event_loop()
        try:
            asyncio.set_event_loop(self.loop)  # CPython: the loop of this (the game's) thread
        except AttributeError:
            pass
        self.task = None
        self.failure = None
        self.page = _here() + PAGE
        _md.Request.max_content_length = MAX_BODY
        _md.Request.max_body_length = MAX_BODY
        _md.Request.max_readline = MAX_LINE
        self._routes()
        self.attach(face)

    def attach(self, face):
        """Serve this face's app (the simulator's --web keeps its server across restarts of
        the app) and let it pump."""
        self.api.face = face
        face.set_pump(self.pump)
        face.web = self

    @property
    def errors(self):
        return _Quiet.errors

    def _routes(self):
        web, api, server = self.web, self.api, self

        async def page(req):
            gzip = accepts_gzip(req.headers.get("Accept-Encoding"))
            path = server.page if gzip else _here() + PLAIN_PAGE
            if not gzip and not _exists(path):
                return ("this board sends its page gzip-compressed only: use a browser, or "
                        "curl --compressed\n", 406, {"Content-Type": "text/plain"})
            return Response.send_file(path, content_type="text/html; charset=UTF-8",
                                      compressed=gzip, max_age=0)
        web.route("/")(page)

        async def state(req):
            return _reply(api.state(req.headers.get("Authorization")))
        web.route("/api/state")(state)

        async def settings(req):
            if req.method == "POST":
                return _reply(api.set_settings(req.headers.get("Authorization"), req.body))
            return _reply(api.settings())
        web.route("/api/settings", methods=["GET", "POST"])(settings)

        async def games(req):
            return _reply(api.games())
        web.route("/api/games")(games)

        async def pair(req):
            return _reply(api.pair(req.body))
        web.route("/api/pair", methods=["POST"])(pair)

        async def forget(req):
            return _reply(api.forget(req.headers.get("Authorization"), req.body))
        web.route("/api/forget", methods=["POST"])(forget)

        async def move(req):
            return _reply(api.move(req.headers.get("Authorization"), req.body))
        web.route("/api/move", methods=["POST"])(move)

        async def new(req):
            return _reply(api.new(req.headers.get("Authorization"), req.body))
        web.route("/api/new", methods=["POST"])(new)

        async def events(req, sse):
            if web.streams >= MAX_STREAMS:
                await sse.send({"error": "too many live pages: refresh later"}, event="busy")
                return
            web.streams += 1
            try:
                last = None
                quiet = 0
                stuck = 0
                while True:
                    # microdot cancels this task when writing the body fails, but not when
                    # the headers' write does (a page gone at once): then nobody ever takes
                    # the events, and a live writer takes them within WRITE_MS or is dropped
                    stuck = stuck + EVENT_MS if sse.queue else 0
                    if stuck > STUCK_MS:
                        return
                    text = json.dumps(api.live())
                    if text != last:
                        await sse.send(text, event="state")
                        last = text
                        quiet = 0
                    elif quiet >= KEEPALIVE_MS:
                        await sse.send("1", event="alive")  # a comment would not reach the page's script
                        quiet = 0
                    await asyncio.sleep(EVENT_MS / 1000)
                    quiet += EVENT_MS
            finally:
                web.streams -= 1
        web.route("/api/events")(with_sse(events))

        for status, message in ((400, "bad request"), (404, "no such page"),
                                (405, "method not allowed"), (413, "body too large"),
                                (500, "internal error")):
            web.errorhandler(status)(_error_handler(status, message))
        # A request that does not fit the heap: 503 with a plain reason, the game untouched
        # (handlers only queue writes), and the next request may fit again.
        web.errorhandler(MemoryError)(_error_handler(503, "the board is short of memory: try again"))
        web.after_request(_reason)  # every answer, routed or an error, with its phrase
        web.after_error_request(_reason)

    # ---- running
    def start(self, host="0.0.0.0", port=80):
        """Listen on host:port; raises the OSError of a port that cannot be had."""
        self.task = self.loop.create_task(self._serve(host, port))
        for _ in range(3):
            self.pump()
        if self.failure is not None:
            raise self.failure
        return self

    async def _serve(self, host, port):
        try:
            await self.web.start_server(host=host, port=port)
        except Exception as e:
            self.failure = e

    def pump(self):
        """Let the server run: one round, a few while a client is connected. Never raises."""
        loop = self.loop
        try:
            for _ in range(BUSY_ROUNDS if self.web.clients else 1):
                loop.run_until_complete(_round())
        except Exception as e:
            _Quiet.print_exception(e)

    def stop(self):
        """Close the listening socket and every connection still open."""
        try:
            self.web.shutdown()
        except Exception:
            pass
        for _ in range(3):
            self.pump()
        all_tasks = getattr(asyncio, "all_tasks", None)  # CPython: connections still waiting
        if all_tasks is not None:
            for task in all_tasks(self.loop):
                task.cancel()
            for _ in range(3):
                self.pump()
            self.loop.close()


async def _reason(req, res):
    if res.reason is None:
        res.reason = REASONS.get(res.status_code)
    return res


async def _round():
    await asyncio.sleep(0)


def _error_handler(status, message):
    async def handler(req, *exc):
        return {"error": message}, status, {"Cache-Control": "no-store"}
    return handler
