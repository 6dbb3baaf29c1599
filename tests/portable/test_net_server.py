"""The web server (connect4.net.server) on the real App, pumped by its loop, over fake
sockets (fakenet.py): runs in the MicroPython VM too, on the fake clock (no wall time).
Parsing a request that comes in pieces, every status, the page through the one shared
buffer to clients that take a little at a time, the slots (the oldest idle one makes
room once it has had GRACE_MS; 503 only when none is waiting for its request), idle and stuck clients closed, live events, the
network short of memory (503, said once, the state's flag, and back), a MemoryError in a
handler (503, and the next request served), a route added as one line, and the pairing
routes: the state told the Authorization header, the forget, `revoked` on the live stream."""
import json

from connect4.app.face import Face
from connect4.net import server as server_mod
from connect4.net.server import (Server, MAX_CLIENTS, MAX_STREAMS, REQUEST_MS, WRITE_MS, KEEPALIVE_MS,
                                 CHUNK, SHORT, MAX_LINE, MAX_LINES, GRACE_MS)
from connect4.net.pairing import Pairing
from fakes import Rig, tmpdir, Counter
from fakenet import FakeSocket, listen, unlisten, get, post




def setup(name, **kw):
    rig = Rig(name)
    rig.store.settings.update({"mode": "two", "first": "red"})
    rig.run_for(1600)
    server = Server(Face(rig.app), Pairing(randbytes=Counter(), clock_ms=rig.clock.ticks_ms), **kw)
    return rig, server, listen(server, rig.clock)


def ask(rig, listener, data, ms=20, **kw):
    """A client that sends `data` (and then shuts its side): its socket, `ms` later."""
    s = FakeSocket(data, **kw)
    listener.waiting.append(s)
    rig.run_for(ms)
    return s


def pair(rig, server, listener):
    s = ask(rig, listener, post(b"/api/pair", json.dumps({"code": server.pairing.code}).encode()))
    assert s.status() == 200, s.got
    return b"Authorization: Bearer " + json.loads(s.body())["token"].encode() + b"\r\n"


def test_a_request_is_answered_whole_and_the_connection_closed():
    rig, server, listener = setup("srv1")
    try:
        s = ask(rig, listener, get(b"/api/state"))
        assert s.closed and s.status() == 200, s.got
        head = s.head().split(b"\r\n")
        assert head[0] == b"HTTP/1.0 200 OK"
        assert b"Cache-Control: no-store" in head and b"Connection: close" in head
        assert b"Content-Type: application/json" in head
        assert ("Content-Length: %d" % len(s.body())).encode() in head
        state = json.loads(s.body())
        assert state["moves"] == "" and state["low_memory"] is False
        assert server.conns == [] and server.served == 1 and server.errors == 0
    finally:
        unlisten()


def test_a_request_that_comes_a_few_bytes_at_a_time_is_read_whole():
    rig, server, listener = setup("srv2")
    try:
        auth = pair(rig, server, listener)
        data = post(b"/api/move?from=page", b'{"column": 4}', b"Accept: */*\r\n" + auth)
        s = ask(rig, listener, data, ms=len(data) * 2 + 40, chunk=3)  # a recv a round, 3 bytes each
        assert s.status() == 200 and json.loads(s.body()) == {"queued": "move", "column": 4}, s.got
        rig.run_for(20)
        assert rig.app.board.moves_string() == "4"
    finally:
        unlisten()


def test_every_status_with_its_reason_and_a_json_error():
    rig, server, listener = setup("srv3")
    try:
        cases = [
            (get(b"/nowhere"), 404, b"Not Found"),
            (get(b"/../firmware/config.py"), 404, b"Not Found"),
            (b"DELETE /api/state HTTP/1.0\r\n\r\n", 405, b"Method Not Allowed"),
            (b"POST / HTTP/1.0\r\n\r\n", 405, b"Method Not Allowed"),
            (b"GET /api/state\r\n\r\n", 400, b"Bad Request"),  # no version
            (b"GET /api/state HTTP/1.0\r\nno colon here\r\n\r\n", 400, b"Bad Request"),
            (b"POST /api/move HTTP/1.0\r\nContent-Length: abc\r\n\r\n", 400, b"Bad Request"),
            (b"POST /api/move HTTP/1.0\r\nContent-Length: -5\r\n\r\n", 400, b"Bad Request"),
            (b"POST /api/move HTTP/1.0\r\nContent-Length: 9000\r\n\r\n" + b"x" * 900, 413, b"Payload Too Large"),
            (b"GET /" + b"a" * (MAX_LINE + 10) + b" HTTP/1.0\r\n\r\n", 400, b"Bad Request"),
            (b"GET /api/state HTTP/1.0\r\n" + b"X-A: b\r\n" * MAX_LINES + b"\r\n", 400, b"Bad Request"),
            (b"GET /\xff\xfe HTTP/1.0\r\n\r\n", 400, b"Bad Request"),
            (post(b"/api/move", b'{"column": 4}'), 401, b"Unauthorized"),
            (post(b"/api/pair", b'{"code": 1}'), 400, b"Bad Request"),
            (post(b"/api/pair", b'{"code": "x"}'), 403, b"Forbidden"),
        ]
        for data, status, reason in cases:
            s = ask(rig, listener, data)
            assert s.closed and s.status() == status, (data[:40], s.got)
            assert s.got.startswith(b"HTTP/1.0 %d %s\r\n" % (status, reason)), s.got
            assert isinstance(json.loads(s.body())["error"], str), s.got
        assert rig.app.commands == [] and rig.app.board.count == 0 and server.errors == 0
    finally:
        unlisten()


def page_file(name, n):
    """A page of n bytes that shows where each byte belongs."""
    path = tmpdir(name) + "page.html.gz"
    data = bytes((i * 7 + i // 256) & 0xFF for i in range(n))
    with open(path, "wb") as f:
        f.write(data)
    return path, data


def test_the_page_reaches_two_slow_clients_whole_through_the_one_buffer():
    """One buffer of CHUNK bytes serves every download: a client that takes a little at a
    time gets the rest from where it stopped, whatever the other one took meanwhile."""
    rig, server, listener = setup("srv4")
    try:
        server.page, data = page_file("srv4p", 3 * CHUNK + 123)
        a = FakeSocket(get(b"/", b"Accept-Encoding: gzip, deflate\r\n"), take=100)
        b = FakeSocket(get(b"/", b"Accept-Encoding: gzip\r\n"), take=37)
        listener.waiting += [a, b]
        rig.run_for(400)
        for s in (a, b):
            assert s.closed and s.status() == 200, s.got[:200]
            head = s.head()
            assert b"Content-Encoding: gzip" in head and b"Content-Type: text/html" in head
            assert ("Content-Length: %d" % len(data)).encode() in head
            assert s.body() == data
        assert server.conns == []
    finally:
        unlisten()


def test_the_server_counts_how_long_an_answer_took_on_the_boards_clock():
    """From taking a connection to its answer's last byte, on the board's own clock (the chip
    tests read these in emulated time): the slowest, and the answers over a second."""
    rig, server, listener = setup("srv4t")
    try:
        ask(rig, listener, get(b"/api/state"))
        assert server.served == 1 and server.slow == 0 and 0 <= server.slowest < 1000
        server.page, data = page_file("srv4tp", 3 * CHUNK + 123)
        s = FakeSocket(get(b"/", b"Accept-Encoding: gzip\r\n"), take=2)  # two bytes a round
        listener.waiting.append(s)
        rig.run_for(8000)
        assert s.closed and s.body() == data, len(s.got)
        assert server.slow == 1 and server.slowest > 1000
    finally:
        unlisten()


def test_a_new_connection_takes_the_slot_of_the_oldest_idle_one():
    """...once that one has had GRACE_MS to send its request; until then the new one waits
    (in the network stack's backlog), so a request a little late is not cut off."""
    rig, server, listener = setup("srv5")
    try:
        idle = []
        for _ in range(MAX_CLIENTS):
            idle.append(ask(rig, listener, b"", ms=4, eof=False))
        assert len(server.conns) == MAX_CLIENTS
        s = ask(rig, listener, get(b"/api/state"), ms=GRACE_MS - 20)
        assert s.got == b"" and listener.waiting == [s] and not any(i.closed for i in idle)
        rig.run_for(40)
        assert s.status() == 200 and s.closed
        assert idle[0].closed and idle[0].got == b"" and not any(i.closed for i in idle[1:])
        assert server.dropped == 1 and server.refused == 0
    finally:
        unlisten()


def test_503_only_when_every_slot_holds_an_answer_or_a_live_page():
    rig, server, listener = setup("srv6")
    try:
        streams = [ask(rig, listener, get(b"/api/events"), eof=False) for _ in range(MAX_STREAMS)]
        stuck = [ask(rig, listener, get(b"/api/state"), take=0) for _ in range(MAX_CLIENTS - MAX_STREAMS)]
        assert len(server.conns) == MAX_CLIENTS and server.streams == MAX_STREAMS
        s = ask(rig, listener, get(b"/api/state"))
        assert s.closed and s.status() == 503 and b"busy" in s.body(), s.got
        assert server.refused == 1 and not any(x.closed for x in streams + stuck)
        rig.run_for(WRITE_MS + 100)  # the clients that do not read are dropped; the live pages stay
        assert all(x.closed for x in stuck) and not any(x.closed for x in streams)
        assert ask(rig, listener, get(b"/api/state")).status() == 200
    finally:
        unlisten()


def test_a_connection_without_a_whole_request_within_request_ms_is_closed():
    rig, server, listener = setup("srv7")
    try:
        idle = ask(rig, listener, b"", ms=2, eof=False)
        part = ask(rig, listener, b"GET /api/st", ms=2, eof=False)
        rig.run_for(REQUEST_MS - 100)
        assert not idle.closed and not part.closed
        rig.run_for(200)
        assert idle.closed and part.closed and idle.got == part.got == b""
        assert server.conns == []
    finally:
        unlisten()


def events(s):
    """The (event, data) pairs a live stream has sent."""
    out = []
    for block in s.body().split(b"\n\n")[:-1]:
        lines = block.split(b"\n")
        out.append((lines[0][len(b"event: "):].decode(), lines[1][len(b"data: "):].decode()))
    return out


def test_a_live_stream_sends_the_state_at_each_change_and_says_it_is_alive():
    rig, server, listener = setup("srv8")
    try:
        s = ask(rig, listener, get(b"/api/events"), eof=False)
        assert b"Content-Type: text/event-stream" in s.head()
        assert [e for e, _ in events(s)] == ["state"] and json.loads(events(s)[0][1])["moves"] == ""
        auth = pair(rig, server, listener)
        assert ask(rig, listener, post(b"/api/move", b'{"column": 3}', auth)).status() == 200
        rig.run_for(400)
        states = [json.loads(d) for e, d in events(s) if e == "state"]
        assert states[-1]["moves"] == "3"
        rig.run_until(lambda: rig.app.state == 1)
        rig.run_for(2 * KEEPALIVE_MS + 400)  # nothing changes: alive, alive
        assert [e for e, _ in events(s)][-2:] == ["alive", "alive"]
        third = [ask(rig, listener, get(b"/api/events"), eof=False) for _ in range(MAX_STREAMS)][-1]
        assert third.closed and [e for e, _ in events(third)] == ["busy"]
        s.eof = True  # the page is gone: its end read, its slot freed
        rig.run_for(20)
        assert s.closed and server.streams == MAX_STREAMS - 1
    finally:
        unlisten()


def test_short_of_memory_a_collection_first_gives_the_network_back_an_empty_area():
    """On the chip the GC heap, full for a moment, takes a new area from the network's memory
    and gives it back once a collection finds it empty: below the floor the server collects,
    looks again, and serves if the memory came back."""
    import gc
    looks = []
    real_collect = gc.collect
    collected = []

    def net_free():
        looks.append(len(collected))
        return 9000 if not collected else 30000  # low until a collection has run

    def collect():
        collected.append(1)
        return real_collect()
    rig, server, listener = setup("srv21", net_free=net_free, min_free=12288)
    gc.collect = collect
    try:
        s = ask(rig, listener, get(b"/api/state"))
        assert s.status() == 200 and server.short == 0 and server.refused == 0, s.got
        assert looks[:2] == [0, 1]  # low, then a collection, then enough
    finally:
        gc.collect = real_collect
        unlisten()


def test_a_network_short_of_memory_turns_new_connections_away_and_says_so_once():
    free = [50000]
    rig, server, listener = setup("srv9", net_free=lambda: free[0], min_free=12288)
    said = []
    face = server.api.face
    real_say = face.say

    def say(parts, now):
        said.append(parts)
        real_say(parts, now)
    face.say = say
    try:
        live = ask(rig, listener, get(b"/api/events"), eof=False)
        before = (rig.app.board.moves_string(), dict(rig.app.settings))
        free[0] = 9000
        for _ in range(3):
            s = ask(rig, listener, get(b"/api/state"))
            assert s.closed and s.status() == 503 and json.loads(s.body()) == {"error": SHORT}, s.got
        assert said == [[("LOW MEMORY", "red")]] and rig.app.banner is not None
        rig.run_for(400)
        assert json.loads(events(live)[-1][1])["low_memory"] is True  # the open page hears it
        assert (rig.app.board.moves_string(), rig.app.settings) == before and rig.app.commands == []
        free[0] = 20000
        s = ask(rig, listener, get(b"/api/state"))
        assert s.status() == 200 and json.loads(s.body())["low_memory"] is False
        rig.run_for(400)
        assert json.loads(events(live)[-1][1])["low_memory"] is False
        assert len(said) == 1 and server.refused == 3 and server.short == 3
    finally:
        unlisten()


def test_a_memory_error_in_a_handler_is_a_503_and_the_next_request_is_served():
    rig, server, listener = setup("srv10")
    api = server.api
    calls = []

    def state(auth=None):
        calls.append(1)
        if len(calls) == 1:
            raise MemoryError("memory allocation failed, allocating 2048 bytes")
        return type(api).state(api, auth)
    api.state = state
    try:
        s = ask(rig, listener, get(b"/api/state"))
        assert s.closed and s.status() == 503 and json.loads(s.body()) == {"error": SHORT}, s.got
        s = ask(rig, listener, get(b"/api/state"))
        assert s.status() == 200 and json.loads(s.body())["moves"] == ""
        assert rig.app.commands == [] and server.conns == []
    finally:
        unlisten()


def test_a_handler_that_fails_is_a_500_counted_and_the_server_goes_on():
    rig, server, listener = setup("srv12")
    api = server.api
    real = api.games

    def games():
        raise ValueError("a bug")
    api.games = games
    try:
        s = ask(rig, listener, get(b"/api/games"))
        assert s.closed and s.status() == 500 and json.loads(s.body()) == {"error": "internal error"}, s.got
        assert server.errors == 1 and "a bug" in server.last
        api.games = real
        assert ask(rig, listener, get(b"/api/games")).status() == 200
        assert ask(rig, listener, get(b"/api/state")).status() == 200 and server.errors == 1
    finally:
        unlisten()


def test_a_route_is_one_line_of_the_table():
    rig, server, listener = setup("srv11")
    routes = server_mod.ROUTES
    server_mod.ROUTES = routes + (("POST", "/api/echo", "echo", 2),)
    server.api.echo = lambda auth, body: (200, {"auth": auth, "body": body.decode()})
    try:
        s = ask(rig, listener, post(b"/api/echo", b"hi", b"Authorization: Bearer x\r\n"))
        assert json.loads(s.body()) == {"auth": "Bearer x", "body": "hi"}, s.got
        assert ask(rig, listener, get(b"/api/echo")).status() == 405
    finally:
        server_mod.ROUTES = routes
        unlisten()


def test_the_state_says_if_the_token_sent_is_paired_and_a_forget_is_heard_live():
    """Issue 32 over this server: GET /api/state is handed the Authorization header (route
    kind 3), POST /api/forget is a route, and the live events carry `revoked`, not `paired`."""
    rig, server, listener = setup("srv13")
    try:
        live = ask(rig, listener, get(b"/api/events"), eof=False)
        first = json.loads(events(live)[0][1])
        assert first["revoked"] == 0 and "paired" not in first
        auth = pair(rig, server, listener)
        assert json.loads(ask(rig, listener, get(b"/api/state", auth)).body())["paired"] is True
        assert json.loads(ask(rig, listener, get(b"/api/state")).body())["paired"] is False
        assert ask(rig, listener, post(b"/api/forget", b"{}")).status() == 401
        s = ask(rig, listener, post(b"/api/forget", b"{}", auth))
        assert s.status() == 200 and json.loads(s.body()) == {"forgotten": True}, s.got
        assert json.loads(ask(rig, listener, get(b"/api/state", auth)).body())["paired"] is False
        rig.run_for(400)
        last = json.loads([d for e, d in events(live) if e == "state"][-1])
        assert last["revoked"] == 1 and "paired" not in last
        assert ask(rig, listener, get(b"/api/forget")).status() == 405
    finally:
        unlisten()


def test_the_games_go_out_a_record_at_a_time_newest_first():
    """GET /api/games: the newest MAX_GAMES records, whole JSON, but never whole in the heap:
    each send is one record's piece (on the chip a 5 KB answer in one block made the heap grow
    into the network's memory); a client gone mid-answer closes the records' file at once."""
    from connect4.app.records import Record
    from connect4.net.gamelist import MAX_GAMES
    rig, server, listener = setup("srv20")
    records = rig.app.records()
    for i in range(MAX_GAMES + 5):
        records.append(Record("two", i % 2, (0, 0), i % 3, (0, 0), "4453627" * 3, "?" * 21))
    sent = []
    try:
        s = FakeSocket(get(b"/api/games"), take=64)  # a slow client: 64 bytes a send

        def send(data, real=s.send):
            sent.append(len(data))
            return real(data)
        s.send = send
        listener.waiting.append(s)
        rig.run_for(2000)
        assert s.closed and s.status() == 200, s.got
        assert b"Content-Length" not in s.head()  # its end is the connection's
        body = json.loads(s.body())
        assert [g["number"] for g in body["games"]] == list(range(MAX_GAMES + 5, 5, -1))
        assert body["records"] is True and body["games"][0]["moves"] == "4453627" * 3
        assert len(s.body()) > 3000 and max(sent) < 400, (len(s.body()), max(sent))
        # a client that stops reading and goes: the answer's source is closed with it
        opened = []
        real_recent = records.recent

        def recent():
            stream = real_recent()
            opened.append(stream)
            return stream
        records.recent = recent
        rig.app.records = lambda: records  # the app hands this one out
        answers = []  # kept here: CPython would close a dropped generator by itself, MicroPython not
        real_games = server.api.games

        def games():
            status, pieces = real_games()
            answers.append(pieces)
            return status, pieces
        server.api.games = games
        s = FakeSocket(get(b"/api/games"), eof=False)

        def stops(data, real=s.send):  # takes 400 bytes, then no more
            if len(s.got) >= 400:
                s.take = 0
            return real(data)
        s.send = stops
        listener.waiting.append(s)
        rig.run_for(20)
        assert opened and b'{"games": [' in s.got and not s.closed  # the file open, being read
        rig.run_for(WRITE_MS + 500)  # it stopped reading: dropped after WRITE_MS
        assert s.closed and server.conns == []
        try:
            next(opened[0])
            assert False, "the records' stream is still open"
        except StopIteration:
            pass
    finally:
        unlisten()
