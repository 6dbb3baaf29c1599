"""The JSON API's logic, apart from any HTTP: state, validation, pairing, writes.

Every method returns (status, dict): the server (connect4.net.server) only
turns that into a response, so this module runs (and is tested) without
sockets, in the MicroPython VM too.

Reads are open. Writes need a paired session (connect4.net.pairing) and are
never applied here: a validated write is queued on `app.commands` as
(function, argument) and the app applies it at a safe point of its loop
(App.step), never inside the AI's search. A new game asked for while the AI
thinks sets `app.interrupt`, which stops the search at its next poll, as a
button press would.

Fields (columns 1-7, rows 1-6 from the bottom):
  GET  /api/state     {"moves", "mode", "level", "turn", "thinking", "result",
                       "winning", "state", "human", "first", "levels", "games",
                       "nodes", "brightness"}
  POST /api/pair      {"code": "1234"} -> {"token": "..."}
  POST /api/move      {"column": 1-7}; 409 when it is not a person's turn
  POST /api/new       {} or any of {"mode", "level", "first", "blunder"}
  GET  /api/settings  the settings, "stats" and "wifi": {"configured"}
  POST /api/settings  any of {"mode", "level", "first", "blunder", "brightness",
                       "wifi": {"ssid", "password"}} ({"ssid": ""} forgets the network)
  GET  /api/games     the newest recorded games (connect4.app.records): {"games":
                       [{"number", "mode", "first", "levels", "result", "hints",
                       "moves", "marks"}], "records": bool}
"""
import json

from connect4.app import store
from connect4.app.game import MODE_AI, MODE_DEMO, PLAY
from connect4.app.face import STATE_NAMES, thinking

MAX_BODY = 512  # bytes of JSON a write may carry
SIDES = ("red", "yellow")
RESULTS = ("red", "yellow", "draw", "abandoned")  # a record's result, by its number
MAX_GAMES = 20  # records a GET /api/games answer holds, newest first
GAME_KEYS = ("mode", "level", "first", "blunder")
SETTING_KEYS = ("mode", "level", "first", "blunder", "brightness")


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


def check_settings(data, keys):
    """The error for the first bad field of `data`, or None; every key must be in `keys`."""
    for key in data:
        if key not in keys:
            return error(400, "unknown field %r" % key)
        value = data[key]
        numeric = key in ("level", "blunder", "brightness")
        if numeric and (not isinstance(value, int) or isinstance(value, bool)):
            return error(400, "bad value for %r" % key)  # 2.0 == 2 and False == 0 in Python
        if not store.valid(key, value):
            return error(400, "bad value for %r" % key)
    return None


# ---- the writes, applied by the app at a safe point (App.step): fn(app, arg, now)
def _apply_move(app, col, now):
    if human_turn(app) and app.board.can_play(col):  # still so: the board may have moved on
        app.last_input = now
        app.drop(col, now)


def _apply_settings(app, data, now):
    app.last_input = now
    app.change_settings(data, now)  # the menu's rule: a new level is a new game


def _apply_new(app, data, now):
    app.last_input = now
    app.change_settings(data, now, True)


def human_turn(app):
    """May a person move now (the state PLAY, not the AI's turn, the game not over)?"""
    return app.state == PLAY and not app.ai_to_move() and not app.board.is_over()


class Api:
    def __init__(self, app, pairing, netconf=None, games=None):
        self.app = app
        self.pairing = pairing
        self.netconf = netconf
        self.games_source = games  # callable returning a list of game dicts, or None

    # ---- reads
    def state(self):
        app = self.app
        board = app.board
        mode = app.mode
        side = app.side_to_move()
        winner = None
        if board.winner:
            winner = SIDES[app.first_side if board.winner == 1 else 1 - app.first_side]
        elif board.is_over():
            winner = "draw"
        line = board.winning_line() or ()
        levels = app.game_levels  # the game's own (a menu or page change starts a new game)
        level = levels[side] if mode == MODE_DEMO else levels[1] if mode == MODE_AI else app.settings["level"]
        return 200, {
            "moves": board.moves_string(),
            "mode": store.MODES[mode],
            "level": level,
            "levels": list(levels),
            "turn": SIDES[side],
            "first": SIDES[app.first_side],
            "thinking": thinking(app),
            "nodes": app.think_nodes,
            "result": winner,
            "winning": [[c + 1, r + 1] for c, r in line],
            "state": STATE_NAMES[app.state],
            "human": human_turn(app),
            "games": app.games,
            "brightness": app.settings["brightness"],
        }

    def settings(self):
        app = self.app
        out = {}
        for key in SETTING_KEYS:
            out[key] = app.settings[key]
        out["stats"] = {"ai": [list(t) for t in app.store.stats["ai"]],
                        "two": list(app.store.stats["two"])}
        nc = self.netconf
        out["wifi"] = {"configured": bool(nc is not None and nc.configured())}
        return 200, out

    def games(self):
        """The newest MAX_GAMES records (connect4.app.records), streamed from flash."""
        if self.games_source is not None:
            return 200, {"games": self.games_source(), "records": True}
        records = getattr(self.app, "records", None)
        if records is None:
            return 200, {"games": [], "records": False}
        out = []
        stream = records.recent()
        try:
            for r in stream:
                out.append({"number": r.number, "mode": r.mode, "first": SIDES[r.first],
                            "levels": list(r.levels), "result": RESULTS[r.result],
                            "hints": list(r.hints), "moves": r.moves, "marks": r.marks})
                if len(out) >= MAX_GAMES:
                    break
        finally:
            stream.close()  # the file, now rather than at the next collection
        return 200, {"games": out, "records": True}

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

    # ---- writes
    def _write(self, auth, body):
        """(error, data): the session and the body checked."""
        if not self.pairing.check(auth):
            return error(401, "pair first: POST /api/pair with the code on the board"), None
        err, data = parse_body(body)
        if err:
            return (err, data), None
        return None, data

    def move(self, auth, body):
        err, data = self._write(auth, body)
        if err:
            return err
        col = data.get("column")
        if len(data) != 1 or not isinstance(col, int) or isinstance(col, bool) or not 1 <= col <= 7:
            return error(400, "expected {\"column\": 1-7}")
        app = self.app
        if app.commands:
            return error(409, "busy: the last write is not applied yet")
        if not human_turn(app):
            return error(409, "not a person's turn")
        if not app.board.can_play(col - 1):
            return error(409, "column %d is full" % col)
        app.commands.append((_apply_move, col - 1))
        return 200, {"queued": "move", "column": col}

    def new(self, auth, body):
        err, data = self._write(auth, body)
        if err:
            return err
        bad = check_settings(data, GAME_KEYS)
        if bad:
            return bad
        app = self.app
        app.commands.append((_apply_new, data))
        app.interrupt = True  # a search under way stops at its next poll
        return 200, {"queued": "new"}

    def set_settings(self, auth, body):
        err, data = self._write(auth, body)
        if err:
            return err
        wifi = data.get("wifi")
        game = {}
        for key in data:
            if key != "wifi":
                game[key] = data[key]
        bad = check_settings(game, SETTING_KEYS)
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
            from connect4.net.netconf import valid_ssid, valid_password
            if not ((ssid == "" or valid_ssid(ssid)) and valid_password(password)):
                return error(400, "wifi: SSID of 1-32 bytes, password of 8-63 characters or none")
            if not self.netconf.set_network(ssid, password):
                return error(507, "wifi: not saved (flash)")
        if game:
            app = self.app
            app.commands.append((_apply_settings, game))
            for key in ("mode", "level", "blunder"):
                if key in game and game[key] != app.settings[key]:
                    app.interrupt = True  # a new game comes (App.change_settings): no search for this one
                    break
        return 200, {"queued": "settings"}
