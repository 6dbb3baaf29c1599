"""The JSON API's logic, apart from any HTTP: state, validation, pairing, writes.

Every method returns (status, dict): the server (connect4.net.server) only
turns that into a response, so this module runs (and is tested) without
sockets, in the MicroPython VM too.

The game is reached only through its face (connect4.app.face.Face), handed
in: reads are its snapshot, writes its commands. Reads are open. Writes need
a paired session (connect4.net.pairing) and are checked here, then handed to
the face, which queues them for the app to apply at a safe point of its loop,
never inside the AI's search (a new game stops a search at its next poll, as
a button press would).
The writes' own code (connect4.net.apiwrite) is loaded for each write and dropped:
a phone reads all the time and writes rarely.

Fields (columns 1-"columns", rows 1-"rows" from the bottom; 7x6 by default):
  GET  /api/state     {"moves", "mode", "level", "turn", "thinking", "result",
                       "winning", "state", "human", "first", "levels", "games",
                       "nodes", "brightness", "columns", "rows", "low_memory", "revoked",
                       "paired"}
                      (low_memory: the network is short of memory, and the server turns
                      new connections away with 503 until it is not; "paired": is the
                      Authorization header's token valid; the live events carry the rest,
                      "revoked" too: tokens dropped since start)
  POST /api/pair      {"code": "1234"} -> {"token": "..."}
  POST /api/forget    {} -> {"forgotten": true}: every paired phone (this one too), a new code
  POST /api/move      {"column": 1-columns, "n": the moves before it (optional)}; 409 when
                       it is not a person's turn, or "n" is not the board's count (a move
                       replayed or out of turn); in a game of two boards, only the other
                       board moves, on its side's turn
  POST /api/board     a game of two boards, the other board's own: {} the game as it follows
                       it; {"level", "name"} it asks for a game (while this board shows its
                       "play a board" page, else 409), or the next; {"leave": true}
  POST /api/new       {} or any of {"mode", "level", "first", "blunder", "size"}
  GET  /api/settings  the settings, "stats" (of the size chosen: its "size"), "sizes"
                       (those the panel shows) and "wifi": {"configured", "name"}
  POST /api/settings  any of {"mode", "level", "first", "blunder", "brightness", "size"
                       ("8x7": one the panel shows, else 400), "wifi": {"ssid",
                       "password"}} ({"ssid": ""} forgets the network)
  GET  /api/games     the newest recorded games (connect4.app.records): {"games":
                       [{"number", "mode", "first", "levels", "result", "hints",
                       "moves", "marks", "size"}], "records": bool}
"""
import json

from connect4.modules import use

MAX_BODY = 512  # bytes of JSON a write may carry
_PAIR = "pair first: POST /api/pair with the code on the board"


def error(status, message):
    return status, {"error": message}


def parse_body(body):
    """The request body as a JSON object, or an error (status, dict)."""
    if not isinstance(body, (bytes, bytearray)):
        return error(400, "no body")
    if len(body) > MAX_BODY:
        return error(413, "body over %d bytes" % MAX_BODY)
    if not body:
        return None, {}
    try:
        data = json.loads(body.decode())
    except Exception:  # UnicodeError, ValueError: MicroPython and CPython differ
        return error(400, "body is not JSON")
    if not isinstance(data, dict):
        return error(400, "body must be a JSON object")
    return None, data


class Api:
    def __init__(self, face, pairing, netconf=None, games=None):
        self.face = face  # connect4.app.face.Face
        self.pairing = pairing
        self.netconf = netconf
        self.games_source = games  # callable returning a list of game dicts, or None
        self.low_memory = False  # set by the server (connect4.net.server): shown on the page

    # ---- reads
    def live(self):
        """What the live events carry: the game's snapshot, `low_memory` and `revoked` (a
        page whose count changes checks its own token with GET /api/state)."""
        s = self.face.snapshot()
        s["low_memory"] = self.low_memory
        s["revoked"] = self.pairing.revoked
        return s

    def state(self, auth=None):
        """The live state and "paired": is `auth` (the Authorization header) a valid session.
        A page checks it whenever it (re)connects, before it says whose turn it is."""
        s = self.live()
        s["paired"] = self.pairing.check(auth)
        return 200, s

    def settings(self):
        out = self.face.settings()
        nc = self.netconf
        out["wifi"] = {"configured": bool(nc is not None and nc.configured()),
                       "name": getattr(nc, "name", None)}  # the board's (the link's: connect4-XXXX)
        return 200, out

    def games(self):
        """The newest recorded games, streamed from flash: (200, the answer's JSON in pieces, a
        record each), never whole in the heap (connect4.net.gamelist, loaded for the answer)."""
        return 200, use("connect4.net.gamelist").pieces(self.face, self.games_source)

    # ---- pairing and writes: checked here, done by connect4.net.apiwrite (loaded for each)
    def pair(self, body):
        err, data = parse_body(body)
        return (err, data) if err else _writes().pair(self, data)

    def forget(self, auth, body):
        """Forget every paired phone, the asking one too (the menu has the same item)."""
        err, data = self._write(auth, body)
        return err or _writes().forget(self, data)

    def _write(self, auth, body):
        """(error, data): the session and the body checked."""
        if not self.pairing.check(auth):
            return error(401, _PAIR), None
        err, data = parse_body(body)
        if err:
            return (err, data), None
        return None, data

    def move(self, auth, body):
        err, data = self._write(auth, body)
        return err or _writes().move(self, auth, data)

    def new(self, auth, body):
        err, data = self._write(auth, body)
        return err or _writes().new(self, data)

    def board(self, auth, body):
        """POST /api/board: a game of two boards, the other board's own route ({}: the game as
        it follows it; its ask; connect4.app.boardhold's logic, through the face)."""
        who = self.pairing.who(auth)
        if who is None:
            return error(401, _PAIR)
        err, data = parse_body(body)
        if err:
            return err, data
        return self.face.board(who, data)

    def set_settings(self, auth, body):
        err, data = self._write(auth, body)
        return err or _writes().set_settings(self, data)


def _writes():
    return use("connect4.net.apiwrite")
