"""Two boards, one game (issue 37) on loopback: two simulator processes, started as a user
starts them (`python -m host_sim --headless --web PORT --boards HOST:PORT --flash DIR
--script -`), play whole games through real sockets: each board's page served by the
firmware's own server (connect4.net.server), the asker's requests made by the firmware's own
client (connect4.net.peer), the boards found by the firmware's own UDP question and answer
(connect4.net.finder). Only the buttons are the test's: lines on each simulator's stdin.

Between the asker and the holder stands a `Proxy` (TCP and UDP, as a NAT's port forward:
it tells the asker the holder's page is at the proxy's port), so that the test can drop a
connection mid-move and replay a request it saw. Third parties (a phone, a stranger, garbage)
talk to the holder's port directly.

Everything asserted is what the boards show: GET /api/state (the moves, whose turn, the
boards and whether the other is lost), the console lines, the records on each flash folder;
waits poll for a condition (WAIT_S at most, a clear failure after it), never a duration.
The same code on a fake network, in the MicroPython VM too: tests/portable/test_two_boards.py.
"""
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time

import pytest

from host_sim.world import parse_script
from tools.common import free_port

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WAIT_S = 60  # the longest any wait polls before it fails
SCROLL_MS = 75 * (8 + 4 * len("XXXX CODE 1234") + 1)  # the "play a board" page's own text (connect4.app.scroll)
GAP_MS = {"press": 150, "long": 1150}  # between one input and the next (a turn: TURN_GAP_MS)
TURN_GAP_MS = 60


def until(condition, what, timeout=WAIT_S):
    """Poll `condition` until it returns something true (returned); fail saying `what`."""
    end = time.monotonic() + timeout
    while True:
        got = condition()
        if got:
            return got
        if time.monotonic() > end:
            raise AssertionError("not within %d s: %s" % (timeout, what() if callable(what) else what))
        time.sleep(0.05)


def request(port, method, path, body=None, token=None):
    """(status, JSON answer) of one request to 127.0.0.1:port."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        headers = {"Authorization": "Bearer " + token} if token else {}
        c.request(method, path, None if body is None else json.dumps(body), headers)
        r = c.getresponse()
        data = r.read()
        return r.status, json.loads(data) if data else None
    finally:
        c.close()


def raw(port, data):
    """Bytes sent straight to the port: what came back before the board closed (b"" for none)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        got = b""
        while True:
            try:
                chunk = s.recv(4096)
            except ConnectionResetError:
                return got
            if not chunk:
                return got
            got += chunk
    finally:
        s.close()


class Board:
    """A simulator process: one board, its flash a folder, its page at 127.0.0.1:port, its
    buttons the lines written to its stdin (`--script -`), its console kept line by line."""

    def __init__(self, name, flash, port, finds):
        self.name = name
        self.flash = flash
        self.port = port
        self.finds = finds  # --boards: where its "play a board" looks
        self.lines = []
        self.proc = None
        self.start()

    def start(self):
        """Power on (again): the same flash, the same port."""
        self.lines = []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "host_sim", "--headless", "--web", str(self.port), "--boards",
             "127.0.0.1:%d" % self.finds, "--flash", self.flash, "--script", "-", "--mode", "two",
             "--seed", "1"],
            cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT), stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        threading.Thread(target=self._read, args=(self.proc, self.lines), daemon=True).start()
        try:
            self.line("web: http://")  # (printed once the server answers)
        except BaseException:
            self.stop()
            raise

    @staticmethod
    def _read(proc, lines):
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))

    def kill(self):
        """The power cut: the process killed, nothing of it tidied."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass

    def tail(self):
        return "%s's console: %s" % (self.name, " | ".join(self.lines[-12:]))

    def line(self, text, more=lambda: ""):
        """The first console line with `text` (waited for; `more`: what else to say if not)."""
        def seen():
            assert self.proc.poll() is None or any(text in s for s in self.lines), (
                "%s exited (%s)" % (self.name, self.tail()))
            return next((s for s in self.lines if text in s), None)
        return until(seen, lambda: "%r on %s%s" % (text, self.tail(), more()))

    def code(self):
        return re.search(r"pairing code (\d{4})", self.line("web: http://")).group(1)

    def play(self, *actions):
        """Inputs one after the other from now (a batch of `--script -` lines, each timed from
        when it comes); returns the seconds they take."""
        t = 0
        out = []
        for a in actions:
            out.append("+%d %s\n" % (t, a))
            t += parse_script("0 " + a)[-1][0] + GAP_MS.get(a.split()[0], TURN_GAP_MS)  # (menu: its turns)
        self.proc.stdin.write("".join(out))
        self.proc.stdin.flush()
        return t / 1000.0

    def state(self):
        """GET /api/state, or None while the board does not answer."""
        try:
            status, got = request(self.port, "GET", "/api/state")
        except OSError:
            return None
        return got if status == 200 else None

    def records(self):
        """The games recorded on its flash (games.txt): [(mode, moves)]."""
        path = os.path.join(self.flash, "games.txt")
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return [(w[1], w[6]) for w in (line.split() for line in f) if len(w) > 6]


class Proxy(threading.Thread):
    """The holder as the asker reaches it: the page (TCP) and the finder's answers (UDP) at this
    port, passed on to the holder's; a NAT's port forward, which says its own port for the
    holder's. `drop`: the next POST /api/move's connection dropped, "request" before the holder
    gets it, "answer" after (the asker never hears back). `log`: every request passed on and
    the holder's answer (None: the holder was not there)."""

    def __init__(self, port, to):
        threading.Thread.__init__(self, daemon=True)
        self.port = port
        self.to = to
        self.drop = None
        self.dropped = []
        self.log = []
        self.tcp = socket.socket()
        self.tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.tcp.bind(("127.0.0.1", port))
        self.tcp.listen(8)
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", port))
        self.udp.settimeout(0.2)
        self.asker = None
        self.closed = False
        self.start()
        threading.Thread(target=self._udp, daemon=True).start()

    def run(self):
        while not self.closed:
            try:
                conn, _ = self.tcp.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _udp(self):
        holder = ("127.0.0.1", self.to)
        while not self.closed:
            try:
                data, addr = self.udp.recvfrom(256)
            except OSError:  # (a timeout: closed yet?)
                continue
            try:
                if addr != holder:  # the asker's question, on to the holder
                    self.asker = addr
                    self.udp.sendto(data, holder)
                elif self.asker is not None:  # the holder's answer: its page is here
                    words = data.split(b" ")
                    if len(words) == 3 and words[2] == str(self.to).encode():
                        data = b" ".join(words[:2] + [str(self.port).encode()])
                    self.udp.sendto(data, self.asker)
            except OSError:
                pass

    def _serve(self, conn):
        try:
            conn.settimeout(10)
            req = b""
            while b"\r\n\r\n" not in req:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                req += chunk
            head, _, body = req.partition(b"\r\n\r\n")
            m = re.search(rb"Content-Length: *(\d+)", head, re.I)
            while m and len(body) < int(m.group(1)):
                chunk = conn.recv(4096)
                if not chunk:
                    return
                body += chunk
            req = head + b"\r\n\r\n" + body
            drop = self.drop if req.startswith(b"POST /api/move ") else None
            if drop:
                self.drop = None
                self.dropped.append(req)
                if drop == "request":
                    return
            entry = [req, None]
            self.log.append(entry)
            try:
                answer = entry[1] = raw(self.to, req)
            except OSError:  # the holder is not there: the connection closes
                return
            if drop != "answer":
                conn.sendall(answer)
        except OSError:
            pass
        finally:
            conn.close()

    def moves(self):
        """The moves passed on: [("n", the holder's status (None: no answer), the request)]."""
        return [(json.loads(q.partition(b"\r\n\r\n")[2])["n"], int(a[9:12]) if a else None, q)
                for q, a in list(self.log) if q.startswith(b"POST /api/move ")]

    def close(self):
        self.closed = True
        for s in (self.tcp, self.udp):
            s.close()


class Boards:
    """The holder (red) and the asker (yellow), each on its own flash folder, the asker reaching
    the holder through a Proxy."""

    def __init__(self, tmp_path):
        hold_port, ask_port, proxy_port = free_port(), free_port(), free_port()
        self.proxy = Proxy(proxy_port, hold_port)
        self.hold = self.ask = None
        try:
            self.hold = Board("the holder", str(tmp_path / "hold"), hold_port, ask_port)
            self.ask = Board("the asker", str(tmp_path / "ask"), ask_port, proxy_port)
        except BaseException:
            self.close()
            raise

    def close(self):
        for b in (self.hold, self.ask):
            if b is not None:
                b.stop()
        self.proxy.close()

    def describe(self):
        return "holder %s; asker %s; %s; %s" % (self.hold.state(), self.ask.state(), self.hold.tail(),
                                               self.ask.tail())

    def states(self):
        """Both boards' GET /api/state, or None while either does not answer."""
        h, a = self.hold.state(), self.ask.state()
        return (h, a) if h is not None and a is not None else None

    def pair(self):
        """Both boards' menu at "play a board"; the asker picks the holder it found, types its
        code, plays with its buttons and waits until a press: the game is on."""
        code = self.hold.code()
        until(lambda: self.both("play"), lambda: "both boards at their first game: " + self.describe())
        for b in (self.hold, self.ask):
            b.play("long", "menu board %d" % TURN_GAP_MS, "press")
        found = self.ask.line("connect4: found ", self.describe)
        assert found.endswith("at 127.0.0.1:%d" % self.proxy.port), found
        # the page's own digits and code scroll first (an input would only end them): they began
        # before the board found was said, and are gone SCROLL_MS later (and a margin)
        time.sleep(SCROLL_MS / 1000.0 + 1.5)
        self.ask.play(*(["press"] + sum((["right"] * int(d) + ["press"] for d in code), [])
                        + ["press", "press"]))  # the board found, its code, P (buttons), wait 0
        h, a = until(lambda: (lambda s: s if s and s[0]["boards"] and s[1]["boards"] else None)(
            self.states()), self.describe)
        assert h["boards"] == a["boards"] and not h["boards"]["lost"], (h, a)
        names = found.split()[2]
        assert h["boards"]["red"] == names and h["boards"]["yellow"] != names, (h, found)
        return h

    def settled(self, moves=None):
        """Both boards show the same game (`moves`, if given), neither lost, the side to move
        waiting for its buttons: (holder's state, the board to move)."""
        s = self.states()
        if s is None:
            return None
        h, a = s
        mover, ms = (self.hold, h) if h["turn"] == "red" else (self.ask, a)
        if (h["moves"] == a["moves"] and (moves is None or h["moves"] == moves) and h["turn"] == a["turn"]
                and ms["state"] == "play" and h["boards"] and a["boards"]
                and not h["boards"]["lost"] and not a["boards"]["lost"]):
            return h, mover
        return None

    def move(self, col, moves=None):
        """The board to move drops a disc in column `col` (1-based) by its buttons: the cursor all
        the way left (the first inputs end any text scrolling and wake a dimmed matrix), right to
        the column, a press; then both boards show it. Returns the moves."""
        h, mover = until(lambda: self.settled(moves), self.describe)
        moves = h["moves"]
        playable = [c for c in range(1, h["columns"] + 1) if moves.count(str(c)) < h["rows"]]
        mover.play(*["left"] * (h["columns"] + 1) + ["right"] * playable.index(col) + ["press"])
        after = moves + str(col)
        until(lambda: self.settled(after) or (self.over() and self.over()[0]["moves"] == after),
              lambda: "the move %d after %s: %s" % (col, moves, self.describe()))
        return after

    def both(self, state):
        """Both boards' states, if both are in `state`."""
        s = self.states()
        return s if s and s[0]["state"] == s[1]["state"] == state else None

    def over(self):
        return self.both("over")


@pytest.fixture
def boards(tmp_path):
    b = Boards(tmp_path)
    try:
        yield b
    finally:
        b.close()


def test_two_boards_play_a_whole_game_by_their_buttons_recorded_on_both_flashes(boards):
    h = boards.pair()
    assert h["moves"] == "" and h["mode"] == "two"
    first, second = (boards.hold, boards.ask) if h["first"] == "red" else (boards.ask, boards.hold)
    # a press on the board whose turn it is not plays nothing (it says WAIT)
    time.sleep(second.play("left", "press") + 0.5)  # (played out)
    still = boards.settled("")
    assert still and still[1] is first, boards.describe()
    moves = boards.move(1)
    assert second.state()["moves"] == moves == "1"
    for col in (2, 1, 2, 1, 2):
        moves = boards.move(col, moves)
    moves = boards.move(1, moves)  # four in column 1: the first side wins
    h, a = until(boards.over, boards.describe)
    assert h["moves"] == a["moves"] == "1212121" and h["result"] == a["result"] == h["first"]
    # each prints the game and records it on its own flash
    for b in (boards.hold, boards.ask):
        line = b.line("game 1, two players")
        assert "moves 1212121, %s wins" % h["first"] in line, line
        until(lambda: b.records() == [("two", "1212121")], b.tail)


def column(moves):
    """The game both fault tests play: the first side in column 1, the second in column 2,
    so that the first side wins at its fourth move (1212121), whatever comes between."""
    return 1 if len(moves) % 2 == 0 else 2


def finish(boards, moves):
    """The game played on to its end; both boards recorded it once, on their own flash."""
    while len(moves) < 7:
        moves = boards.move(column(moves), moves)
    h, a = until(boards.over, boards.describe)
    assert h["moves"] == a["moves"] == "1212121" and h["result"] == a["result"] == h["first"]
    for b in (boards.hold, boards.ask):
        until(lambda: b.records() == [("two", "1212121")], lambda: "%s: %s" % (b.records(), b.tail()))
    return h["first"]


def taken_once(proxy, first):
    """Each of the asker's (yellow's) moves of 1212121, `first` starting, taken by the holder
    once: a move sent again (its answer not heard) refused by its number, or not answered."""
    moves = proxy.moves()
    yellow = [k for k in range(7) if (k % 2 == 0) == (first == "yellow")]
    assert sorted(n for n, status, _ in moves if status == 200) == yellow, moves
    assert all(status in (200, 409, None) for _, status, _ in moves), moves
    return moves


def lost(board):
    """Does `board` show the other board lost (GET /api/state's "boards")?"""
    s = board.state()
    return s is not None and s["boards"] is not None and s["boards"]["lost"]


def test_the_holder_then_the_asker_killed_mid_game_and_restarted_the_game_goes_on(boards):
    boards.pair()
    moves = ""
    for _ in range(3):
        moves = boards.move(column(moves), moves)
    # the holder's power cut: the asker shows it lost, keeps the game, and it goes on when
    # the holder is back from its flash
    boards.hold.kill()
    until(lambda: lost(boards.ask), boards.describe)
    assert boards.ask.state()["moves"] == moves
    boards.hold.start()
    until(lambda: boards.settled(moves), boards.describe)
    moves = boards.move(column(moves), moves)
    # the asker's power cut just after it sent its move: the holder took it, shows the asker
    # lost; the asker back from its flash has that move once, and the game goes on
    h, mover = until(lambda: boards.settled(moves), boards.describe)
    if mover is boards.hold:
        moves = boards.move(column(moves), moves)
    sent = len(boards.proxy.log)
    col = column(moves)
    boards.ask.play(*["left"] * 8 + ["right"] * (col - 1) + ["press"])
    until(lambda: any(q.startswith(b"POST /api/move ") for q, _ in boards.proxy.log[sent:]), boards.describe)
    boards.ask.kill()
    moves += str(col)
    until(lambda: lost(boards.hold) and boards.hold.state()["moves"] == moves, boards.describe)
    boards.ask.start()
    until(lambda: boards.settled(moves), boards.describe)
    taken_once(boards.proxy, finish(boards, moves))


def test_a_dropped_connection_a_replay_an_out_of_turn_move_a_stranger_and_garbage(boards):
    proxy, hold, ask = boards.proxy, boards.hold, boards.ask
    boards.pair()
    moves = ""
    h, mover = until(lambda: boards.settled(moves), boards.describe)
    if mover is hold:
        moves = boards.move(column(moves), moves)
    # the asker's move reaches the holder, its answer is lost with the connection: the move
    # is played once, never sent again
    proxy.drop = "answer"
    moves = boards.move(column(moves), moves)
    moves = boards.move(column(moves), moves)  # (the holder's: the asker polled since)
    n, status, _ = proxy.moves()[-1]
    assert len(proxy.dropped) == 1 and status == 200 and n == len(moves) - 2, proxy.moves()
    assert [m[0] for m in proxy.moves()].count(n) == 1, proxy.moves()
    # the asker's next move never reaches the holder (the connection dropped as it was sent):
    # the asker sends it again, and it is played once
    proxy.drop = "request"
    moves = boards.move(column(moves), moves)
    n, status, again = proxy.moves()[-1]
    assert len(proxy.dropped) == 2 and again == proxy.dropped[1] and status == 200, proxy.moves()
    assert n == len(moves) - 1 and [m[0] for m in proxy.moves()].count(n) == 1
    # that move replayed as it was: refused (its number is not the holder's count), nothing doubled
    replayed = raw(hold.port, again)
    assert replayed.startswith(b"HTTP/1.0 409 "), replayed
    token = re.search(rb"Authorization: Bearer (\S+)", again).group(1).decode()
    h, mover = until(lambda: boards.settled(moves), boards.describe)
    assert mover is hold
    # the asker's token on the holder's turn, with the right count: not its turn
    status, answer = request(hold.port, "POST", "/api/move", {"column": 3, "n": len(moves)}, token)
    assert status == 409 and "not your turn" in answer["error"], (status, answer)
    # a stranger: not paired
    for path, body in (("/api/move", {"column": 3, "n": len(moves)}), ("/api/board", {})):
        assert request(hold.port, "POST", path, body)[0] == 401
        assert request(hold.port, "POST", path, body, "0" * len(token))[0] == 401
    # a phone paired with the holder watches: it moves nothing, is not the other board
    status, answer = request(hold.port, "POST", "/api/pair", {"code": hold.code()})
    assert status == 200, (status, answer)
    phone = answer["token"]
    assert request(hold.port, "POST", "/api/move", {"column": 3}, phone)[0] == 409
    assert request(hold.port, "POST", "/api/board", {}, phone)[0] == 403
    # garbage on either board's port: an answer (4xx) or the connection closed
    for board in (hold, ask):
        for junk in (b"\x00\xff garbage \r\n\r\n", bytes(range(256)) * 8, b"GET /" + b"A" * 5000 + b"\r\n"):
            got = raw(board.port, junk)
            assert got == b"" or re.match(rb"HTTP/1\.[01] 4\d\d ", got), (board.name, junk[:20], got[:80])
    # none of it changed the game, and it goes on to its end
    assert boards.settled(moves) and boards.states()[1]["moves"] == moves
    taken_once(proxy, finish(boards, moves))
