"""The JSON API's writes: pairing, forgetting, a move, a new game, the settings (connect4.net.api's).

Loaded for each write and dropped (connect4.modules.use, through the Api's own
methods): a phone writes rarely, it reads all the time, and with Wi-Fi on every
resident byte of code is the network's room. The Api checks the session and the
body first (they stay: the other board's route needs them); each function here takes
the Api and the request's JSON object and returns (status, dict) as its method does.
"""
from connect4.modules import use

GAME_KEYS = ("mode", "level", "first", "blunder", "size")  # what a new game may set
SETTING_KEYS = ("mode", "level", "first", "blunder", "brightness", "size")


def error(status, message):  # (connect4.net.api's twin: this module is loaded by it, never the reverse)
    return status, {"error": message}


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


def pair(api, data):
    code = data.get("code")
    if not isinstance(code, str):
        return error(400, "code must be a string")
    token = api.pairing.pair(code)
    if token == "locked":
        return error(429, "too many wrong codes: wait a minute")
    if token is None:
        return error(403, "wrong code")
    return 200, {"token": token}


def forget(api, data):
    """Forget every paired phone, the asking one too (the menu has the same item)."""
    if data:
        return error(400, "expected {}")
    if not api.pairing.forget():
        return error(507, "not saved (flash): forgotten only until the board restarts")
    return 200, {"forgotten": True}


def move(api, auth, data):
    col = data.get("column")
    count = data.get("n", -1)  # the moves before it: a move replayed, or out of turn, is refused
    face = api.face
    n = face.columns()
    if (len(data) != (1 if count == -1 else 2) or not _whole(col) or not 1 <= col <= n
            or not _whole(count)):
        return error(400, "expected {\"column\": 1-%d}" % n)  # ("n": optional)
    if face.busy():
        return error(409, "busy: the last write is not applied yet")
    why = face.may_move(api.pairing.who(auth), count)  # a person's turn, this move, two boards'
    if why:
        return error(409, why)
    if not face.can_play(col - 1):
        return error(409, "column %d is full" % col)
    face.move(col - 1)
    return 200, {"queued": "move", "column": col}


def new(api, data):
    bad = check_settings(api.face, data, GAME_KEYS)
    if bad:
        return bad
    if not api.face.new_game(data):
        return error(507, "not saved (flash): the new game comes, its settings only until the board restarts")
    return 200, {"queued": "new"}


def set_settings(api, data):
    wifi = data.get("wifi")
    game = {}
    for key in data:
        if key != "wifi":
            game[key] = data[key]
    bad = check_settings(api.face, game, SETTING_KEYS)
    if bad:
        return bad
    if wifi is not None:
        if api.netconf is None:
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
        if not api.netconf.set_network(ssid, password):
            return error(507, "wifi: not saved (flash)")
    if game and not api.face.change_settings(game):
        return error(507, "not saved (flash): the settings hold until the board restarts")
    return 200, {"queued": "settings"}
