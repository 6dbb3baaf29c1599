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
GAME_KEYS = ("mode", "level", "first", "blunder", "size")  # what a new game may set
SETTING_KEYS = ("mode", "level", "first", "blunder", "brightness", "size")


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


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool)


def check_settings(face, data, keys):
    """The error for the first bad field of `data`, or None; every key must be in `keys`."""
    for key in data:
        if key not in keys:
            return error(400, "unknown field %r" % key)
        value = data[key]
        numeric = key in ("level", "blunder", "brightness")
        if numeric and (not isinstance(value, int) or isinstance(value, bool)):
            return error(400, "bad value for %r" % key)  # 2.0 == 2 and False == 0 in Python
        if not face.valid(key, value):
            if key == "size":
                known = face.sizes()
                return error(400, "bad value for 'size': %r (COLSxROWS, this board shows %s to %s)"
                             % (value, known[0], known[-1]))
            return error(400, "bad value for %r" % key)
    return None


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

    # ---- pairing
    def pair(self, body):
        err, data = parse_body(body)
        if err:
            return err, data
        code = data.get("code")
        if not isinstance(code, str):
            return error(400, "code must be a string")
        token = self.pairing.pair(code)
        if token == "locked":
            return error(429, "too many wrong codes: wait a minute")
        if token is None:
            return error(403, "wrong code")
        return 200, {"token": token}

    def forget(self, auth, body):
        """Forget every paired phone, the asking one too (the menu has the same item)."""
        err, data = self._write(auth, body)
        if err:
            return err
        if data:
            return error(400, "expected {}")
        if not self.pairing.forget():
            return error(507, "not saved (flash): forgotten only until the board restarts")
        return 200, {"forgotten": True}

    # ---- writes
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
        if err:
            return err
        col = data.get("column")
        count = data.get("n", -1)  # the moves before it: a move replayed, or out of turn, is refused
        face = self.face
        n = face.columns()
        if (len(data) != (1 if count == -1 else 2) or not _whole(col) or not 1 <= col <= n
                or not _whole(count)):
            return error(400, "expected {\"column\": 1-%d}" % n)  # ("n": optional)
        if face.busy():
            return error(409, "busy: the last write is not applied yet")
        why = face.may_move(self.pairing.who(auth), count)  # a person's turn, this move, two boards'
        if why:
            return error(409, why)
        if not face.can_play(col - 1):
            return error(409, "column %d is full" % col)
        face.move(col - 1)
        return 200, {"queued": "move", "column": col}

    def new(self, auth, body):
        err, data = self._write(auth, body)
        if err:
            return err
        bad = check_settings(self.face, data, GAME_KEYS)
        if bad:
            return bad
        if not self.face.new_game(data):
            return error(507, "not saved (flash): the new game comes, its settings only until the board restarts")
        return 200, {"queued": "new"}

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
        if err:
            return err
        wifi = data.get("wifi")
        game = {}
        for key in data:
            if key != "wifi":
                game[key] = data[key]
        bad = check_settings(self.face, game, SETTING_KEYS)
        if bad:
            return bad
        if wifi is not None:
            if self.netconf is None:
                return error(400, "no Wi-Fi settings on this board")
            # {"ssid", "password"}; {"ssid": ""} alone forgets the network
            forget = isinstance(wifi, dict) and len(wifi) == 1 and wifi.get("ssid") == ""
            if not forget and (not isinstance(wifi, dict) or len(wifi) != 2 or "ssid" not in wifi
                               or "password" not in wifi):
                return error(400, "wifi: expected {\"ssid\", \"password\"}, or {\"ssid\": \"\"} to forget it")
            ssid, password = wifi["ssid"], wifi.get("password", "")
            nc = use("connect4.net.netconf")  # (loaded for the check, not kept)
            if not ((ssid == "" or nc.valid_ssid(ssid)) and nc.valid_password(password)):
                return error(400, "wifi: SSID of 1-32 bytes, password of 8-63 characters or none")
            if not self.netconf.set_network(ssid, password):
                return error(507, "wifi: not saved (flash)")
        if game and not self.face.change_settings(game):
            return error(507, "not saved (flash): the settings hold until the board restarts")
        return 200, {"queued": "settings"}
